-- bloomskip's planner with the statistics ANALYZE makes by itself (no
-- n_distinct set by hand): the ranges a key lies in come from what the
-- index counted at build and at each summarization (bloomskip_info:
-- keys_per_range, ranges_per_key), the frequent values from the statistics.
--
-- sp: the README's spans table at a test's size, 300,000 rows of about
-- 100 bytes (75 a page, 250 ranges of 16 pages), each trace's 8 spans
-- consecutive, trace ids random 64-bit hashes; trace 0 is in every 50th
-- row (so in every range), name one of 10 values (each in every range).
-- 240,000 rows before the index is built, 60,000 appended after it (the
-- ranges they fill are summarized by the inserts and VACUUM).  sp_in: 30
-- incoming ids spread over the table, as the README's 1,000 of 8 M rows.
CREATE TABLE sp (trace_id bigint, span_id bigint, ts timestamptz, name text, payload text)
	WITH (autovacuum_enabled = false);
CREATE FUNCTION sp_rows(first bigint, last bigint) RETURNS SETOF sp LANGUAGE sql AS $$
	SELECT CASE WHEN r % 50 = 49 THEN 0 ELSE hashint8extended(r / 8, 1) END,
		   hashint8extended(r, 2), timestamptz '2026-01-01 00:00:00+00' + r * interval '10 ms',
		   (ARRAY['http.get /cart', 'http.post /cart', 'db.select', 'db.insert', 'cache.get',
				  'cache.set', 'queue.publish', 'queue.consume', 'auth.check', 'render.page'])[1 + r % 10],
		   lpad(to_hex(hashint8extended(r, 3)), 40, '0')
	  FROM generate_series(first, last) AS r
$$;
INSERT INTO sp SELECT * FROM sp_rows(0, 239999);
CREATE INDEX sp_trace ON sp USING bloomskip (trace_id);
CREATE INDEX sp_name ON sp USING bloomskip (name);
INSERT INTO sp SELECT * FROM sp_rows(240000, 299999);
VACUUM ANALYZE sp;
CREATE TABLE sp_in AS
SELECT hashint8extended(floor((j + 0.2) * 37500 / 30)::bigint, 1) AS id FROM generate_series(0, 29) j;
ANALYZE sp_in;

-- the plan of a query, its literal arrays elided
CREATE FUNCTION plan_of(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		RETURN NEXT regexp_replace(line, '''\{[^}]*\}''', '''{...}''', 'g');
	END LOOP;
END
$$;
-- the rows a query counts with the index and with a sequential scan
CREATE FUNCTION counts_of(q text, OUT with_index bigint, OUT seq_scan bigint) LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q INTO with_index;
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE q INTO seq_scan;
	PERFORM set_config('enable_bitmapscan', 'on', true);
END
$$;
SELECT format('SELECT count(*) FROM sp WHERE trace_id = ANY (%L::bigint[])', array_agg(id)) AS any30
FROM sp_in \gset

-- what the index learnt: about 150 traces a range, a trace in one range
-- (the few that straddle two and trace 0 add a little); every name in
-- every range.  The build counted the first 200 ranges exactly, the
-- summarizations the appended ones from their filters' fill.
SELECT summarized_ranges, keys_per_range BETWEEN 140 AND 160 AS keys_per_range_150,
	ranges_per_key BETWEEN 1 AND 1.1 AS one_range_a_key
FROM bloomskip_info('sp_trace');
SELECT keys_per_range BETWEEN 9.5 AND 10.5 AS ten_names_a_range,
	ranges_per_key >= 0.9 * summarized_ranges AS a_name_in_every_range
FROM bloomskip_info('sp_name');

-- the join of the incoming ids: a nested loop over the index, and the
-- = ANY of them: the index; the same rows as the sequential scan
SELECT * FROM plan_of('SELECT count(*), max(s.ts) FROM sp_in i JOIN sp s ON s.trace_id = i.id');
SELECT * FROM counts_of('SELECT count(*) FROM sp_in i JOIN sp s ON s.trace_id = i.id');
SELECT * FROM plan_of(:'any30');
SELECT * FROM counts_of(:'any30');
-- a value in every range: the sequential scan
SELECT * FROM plan_of('SELECT count(*) FROM sp WHERE trace_id = 0');
SELECT * FROM plan_of('SELECT count(*) FROM sp WHERE name = ''db.select''');
SELECT * FROM counts_of('SELECT count(*) FROM sp WHERE trace_id = 0');

-- At this size ANALYZE's sample counts the ids well; on a large table it
-- undercounts them (a quarter at 10 M rows, a thirtieth at 100 M: each id
-- then seems to have 30 or 287 rows).  Told what it says at 100 M, the
-- planner keeps the index's figures: the same plans (the statistics
-- alone gave a hash join over the whole table and a sequential scan); the
-- frequent value still gets the sequential scan.
ALTER TABLE sp ALTER trace_id SET (n_distinct = -0.004);
ANALYZE sp;
SELECT * FROM plan_of('SELECT count(*), max(s.ts) FROM sp_in i JOIN sp s ON s.trace_id = i.id');
SELECT * FROM plan_of(:'any30');
SELECT * FROM plan_of('SELECT count(*) FROM sp WHERE trace_id = 0');
ALTER TABLE sp ALTER trace_id RESET (n_distinct);

-- an index built on an empty table learns all from summarization: its
-- keys per range within 5 % of the exact mean over the summarized ranges
CREATE TABLE sp2 (LIKE sp) WITH (autovacuum_enabled = false);
CREATE INDEX sp2_trace ON sp2 USING bloomskip (trace_id);
INSERT INTO sp2 SELECT * FROM sp_rows(0, 99999);
VACUUM sp2;
SELECT i.summarized_ranges > 70 AS summarized,
	abs(i.keys_per_range / e.mean - 1) < 0.05 AS keys_per_range_within_5pct,
	i.ranges_per_key BETWEEN 1 AND 1.1 AS one_range_a_key
FROM bloomskip_info('sp2_trace') i,
	(SELECT avg(n) AS mean FROM (SELECT count(DISTINCT trace_id) AS n FROM sp2
		WHERE (ctid::text::point)[0] < (SELECT summarized_ranges * 16 FROM bloomskip_info('sp2_trace'))
		GROUP BY (ctid::text::point)[0]::bigint / 16) r) e;

-- an index of several columns, or of another class, counts nothing: the
-- planner reads the statistics as before
CREATE INDEX sp2_multi ON sp2 USING bloomskip (trace_id, name);
SELECT keys_per_range IS NULL AND ranges_per_key IS NULL AS nothing_counted
FROM bloomskip_info('sp2_multi');

-- The classes with queries (n-gram, tsvector, array, jsonb): for a
-- constant query the planner counts the ranges it passes from the index
-- itself and takes them as what the scan returns, whatever PostgreSQL
-- estimates of its rows.  tx: 24,000 rows (ANALYZE reads them all: no
-- sample), about 50 ranges.  Every row holds two words of a list whose
-- n-grams are those of "upload" (uplink, deploy, download, road), so every
-- range holds every n-gram of "upload", which itself is in 3 rows: those
-- few rows cost the whole table, the sequential scan.  "sparse" is in one
-- row in 400, so in every range; "nerode" in one row.  A row's id (12 hex
-- digits) has n-grams of its own: it lies in one range, the index.
CREATE TABLE tx (id int, line text, tsv tsvector, words text[], doc jsonb)
	WITH (autovacuum_enabled = false);
INSERT INTO tx (id, line)
SELECT r, 'pkg' || (r % 50) || ': ' ||
		  (ARRAY['uplink', 'deploy', 'download', 'road', 'fixed', 'build', 'release', 'merge'])
			[1 + abs(hashint4extended(r, 1)) % 8] || ' ' ||
		  CASE WHEN r % 8000 = 4321 THEN 'upload' WHEN r % 400 = 7 THEN 'sparse' WHEN r = 12345 THEN 'nerode'
			   ELSE (ARRAY['uplink', 'deploy', 'download', 'road', 'fixed', 'build', 'release', 'merge'])
					[1 + abs(hashint4extended(r, 2)) % 8] END ||
		  ' id=' || substr(md5(r::text), 1, 12)
  FROM generate_series(0, 23999) r;
UPDATE tx SET tsv = to_tsvector('simple', line), words = tsvector_to_array(to_tsvector('simple', line)),
	doc = jsonb_build_object('w', tsvector_to_array(to_tsvector('simple', line)));
VACUUM FULL tx;
CREATE INDEX tx_ngram ON tx USING bloomskip (line text_ngram_bloomskip_ops);
CREATE INDEX tx_ci ON tx USING bloomskip (line text_ngram_ci_bloomskip_ops);
CREATE INDEX tx_tsv ON tx USING bloomskip (tsv);
CREATE INDEX tx_words ON tx USING bloomskip (words);
CREATE INDEX tx_doc ON tx USING bloomskip (doc);
VACUUM ANALYZE tx;
SELECT format('%%id=%s%%', substr(md5('12345'), 1, 12)) AS rare_id \gset
-- a needle in 3 rows whose n-grams are in every range, and one in every
-- range: the sequential scan
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE line LIKE ''%upload%''');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE line ILIKE ''%UPLOAD%''');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE line LIKE ''%sparse%''');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE tsv @@ to_tsquery(''simple'', ''sparse'')');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE words @> ''{sparse}''');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE doc @> ''{"w": ["sparse"]}''');
-- a needle in one range: the index, and the same rows as the sequential scan
SELECT * FROM plan_of(format('SELECT count(*) FROM tx WHERE line LIKE %L', :'rare_id'));
SELECT * FROM counts_of(format('SELECT count(*) FROM tx WHERE line LIKE %L', :'rare_id'));
SELECT * FROM plan_of(format('SELECT count(*) FROM tx WHERE line ILIKE %L', upper(:'rare_id')));
SELECT * FROM counts_of(format('SELECT count(*) FROM tx WHERE line ILIKE %L', upper(:'rare_id')));
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE tsv @@ to_tsquery(''simple'', ''nerode'')');
SELECT * FROM counts_of('SELECT count(*) FROM tx WHERE tsv @@ to_tsquery(''simple'', ''nerode'')');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE words @> ''{nerode}''');
SELECT * FROM counts_of('SELECT count(*) FROM tx WHERE words @> ''{nerode}''');
SELECT * FROM plan_of('SELECT count(*) FROM tx WHERE doc @> ''{"w": ["nerode"]}''');
SELECT * FROM counts_of('SELECT count(*) FROM tx WHERE doc @> ''{"w": ["nerode"]}''');
-- the common needles' rows are the same either way
SELECT * FROM counts_of('SELECT count(*) FROM tx WHERE line LIKE ''%upload%''');
SELECT * FROM counts_of('SELECT count(*) FROM tx WHERE words @> ''{sparse}''');

DROP FUNCTION sp_rows(bigint, bigint), plan_of(text), counts_of(text);
DROP TABLE sp, sp2, sp_in, tx;
