-- bench/skipplan.sql -- tables and timing functions of the skipplan group
-- (bench/skipplan.sh): does the planner choose, between the sequential scan
-- and the bitmap scan of a bloomskip index, the faster, for needles of
-- every frequency?  Classes: text_ngram_bloomskip_ops (LIKE),
-- text_ngram_ci_bloomskip_ops (ILIKE), tsvector_bloomskip_ops (@@),
-- array_bloomskip_ops (@>), jsonb_bloomskip_ops (@>).
--
-- The text: real changelogs (spl_lines, loaded by the script), two
-- consecutive lines a row (so that a word of prose, "to", is in one row in
-- five), in the order of their files, so a package's rows sit together as
-- an appended log's do.  Their words (to_tsvector('simple', line)) as a
-- tsvector, as a text[] and as a jsonb {"pkg": n, "words": [...]}, each in a
-- table of its own with its index.  The needles: for each target frequency
-- (1 line in 100,000 ... 1 in 5), the word whose lines are closest to it
-- (ts_stat's count; among the nearest eight, the one whose LIKE count is
-- closest), the same word for every class.

CREATE TABLE spl_lines (id bigserial, line text);
CREATE TABLE spl_case (ord int, cls text, freq text, target bigint, word text, tbl text,
	cond text, expect bigint);
-- per case, mode ('planner', 'seq forced', 'index forced') and round:
-- the plan, the planner's row estimate, the time, the rows, and for round 0
-- (EXPLAIN ANALYZE) the heap pages the bitmap read
CREATE TABLE spl_r (ord int, mode text, rnd int, ms float8, nrows bigint, plan text,
	est_rows float8, heap_pages bigint);

CREATE FUNCTION spl_build(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL client_min_messages = warning;
	DROP TABLE IF EXISTS spl_text, spl_ts, spl_arr, spl_js;
	CREATE TABLE spl_text AS
		SELECT (id + 1) / 2 AS id, string_agg(line, ' ' ORDER BY id) AS line
		  FROM spl_lines WHERE id <= 2 * n GROUP BY (id + 1) / 2 ORDER BY 1;
	CREATE TABLE spl_ts AS SELECT id, to_tsvector('simple', line) AS tsv FROM spl_text ORDER BY id;
	CREATE TABLE spl_arr AS SELECT id, tsvector_to_array(tsv) AS words FROM spl_ts ORDER BY id;
	CREATE TABLE spl_js AS
		SELECT id, jsonb_build_object('pkg', id / 1000, 'words', to_jsonb(words)) AS doc
		  FROM spl_arr ORDER BY id;
	CREATE INDEX spl_text_ngram ON spl_text USING bloomskip (line text_ngram_bloomskip_ops);
	CREATE INDEX spl_text_ci ON spl_text USING bloomskip (line text_ngram_ci_bloomskip_ops);
	CREATE INDEX spl_ts_ix ON spl_ts USING bloomskip (tsv);
	CREATE INDEX spl_arr_ix ON spl_arr USING bloomskip (words);
	CREATE INDEX spl_js_ix ON spl_js USING bloomskip (doc);
END
$$;

-- the needles (see the header) and each class's condition
CREATE FUNCTION spl_cases(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	f record;
	w text;
	best text;
	best_err float8;
	cnt bigint;
	ord int := 0;
BEGIN
	SET LOCAL max_parallel_workers_per_gather = 2;
	CREATE TEMP TABLE spl_words AS
		SELECT word, ndoc FROM ts_stat('SELECT tsv FROM spl_ts') WHERE word ~ '^[a-z]{3,}$';
	TRUNCATE spl_case;
	FOR f IN SELECT * FROM (VALUES ('1/100000', 100000), ('1/10000', 10000), ('1/1000', 1000),
								   ('1/100', 100), ('1/20', 20), ('1/5', 5)) v(freq, d) LOOP
		best := NULL;
		FOR w IN SELECT word FROM spl_words
				  ORDER BY abs(ln(ndoc::float8 * f.d / n)), word LIMIT 8 LOOP
			EXECUTE format('SELECT count(*) FROM spl_text WHERE line LIKE %L', '%' || w || '%') INTO cnt;
			IF best IS NULL OR abs(ln(greatest(cnt, 1)::float8 * f.d / n)) < best_err THEN
				best := w;
				best_err := abs(ln(greatest(cnt, 1)::float8 * f.d / n));
			END IF;
		END LOOP;
		INSERT INTO spl_case VALUES
			(ord + 1, 'LIKE', f.freq, n / f.d, best, 'spl_text', format('line LIKE %L', '%' || best || '%')),
			(ord + 2, 'ILIKE', f.freq, n / f.d, best, 'spl_text', format('line ILIKE %L', '%' || upper(best) || '%')),
			(ord + 3, 'tsvector @@', f.freq, n / f.d, best, 'spl_ts',
			 format('tsv @@ to_tsquery(''simple'', %L)', best)),
			(ord + 4, 'array @>', f.freq, n / f.d, best, 'spl_arr', format('words @> %L::text[]', ARRAY[best])),
			(ord + 5, 'jsonb @>', f.freq, n / f.d, best, 'spl_js',
			 format('doc @> %L::jsonb', jsonb_build_object('words', jsonb_build_array(best))));
		ord := ord + 5;
	END LOOP;
	DROP TABLE spl_words;
END
$$;

-- the oracle: every case's count by a sequential scan
CREATE FUNCTION spl_oracle() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	n bigint;
BEGIN
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL enable_indexscan = off;
	SET LOCAL max_parallel_workers_per_gather = 2;
	FOR c IN SELECT * FROM spl_case ORDER BY ord LOOP
		EXECUTE 'SELECT count(*) FROM ' || c.tbl || ' WHERE ' || c.cond INTO n;
		UPDATE spl_case SET expect = n WHERE ord = c.ord;
	END LOOP;
END
$$;

CREATE FUNCTION spl_mode(mode text) RETURNS void
LANGUAGE sql AS $$
	SELECT set_config('enable_bitmapscan', (mode <> 'seq forced')::text, true),
		   set_config('enable_indexscan', (mode <> 'seq forced')::text, true),
		   set_config('enable_seqscan', (mode <> 'index forced')::text, true);
$$;

-- the scan node of a plan (below the Aggregate and any Gather)
CREATE FUNCTION spl_scan(p json) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
	WITH RECURSIVE n(node) AS (SELECT p UNION ALL SELECT node->'Plans'->0 FROM n WHERE node->'Plans' IS NOT NULL)
	SELECT node FROM n WHERE node->>'Node Type' IN ('Seq Scan', 'Bitmap Heap Scan', 'Index Scan', 'Index Only Scan')
	LIMIT 1
$$;

CREATE FUNCTION spl_plan_name(p json) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	WITH RECURSIVE n(node, d) AS (SELECT p, 0 UNION ALL SELECT node->'Plans'->0, d + 1 FROM n WHERE node->'Plans' IS NOT NULL)
	SELECT string_agg(node->>'Node Type' || coalesce(' ' || (node->>'Index Name'), ''), ' > ' ORDER BY d)
	  FROM n WHERE node->>'Node Type' NOT IN ('Aggregate')
$$;

-- round 0 of every case and mode: EXPLAIN ANALYZE (the plan, the estimate,
-- the heap pages a bitmap scan read)
CREATE FUNCTION spl_explain() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	m text;
	j json;
	s json;
BEGIN
	SET LOCAL max_parallel_workers_per_gather = 2;
	FOR c IN SELECT * FROM spl_case ORDER BY ord LOOP
		FOREACH m IN ARRAY ARRAY['planner', 'seq forced', 'index forced'] LOOP
			PERFORM spl_mode(m);
			EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT count(*) FROM ' || c.tbl ||
				' WHERE ' || c.cond INTO j;
			s := spl_scan(j->0->'Plan');
			INSERT INTO spl_r VALUES (c.ord, m, 0, NULL, NULL, spl_plan_name(j->0->'Plan'),
				(s->>'Plan Rows')::float8 * greatest(1, (s->>'Actual Loops')::int),
				CASE WHEN s->>'Node Type' = 'Bitmap Heap Scan'
					 THEN coalesce((s->>'Exact Heap Blocks')::bigint, 0) + coalesce((s->>'Lossy Heap Blocks')::bigint, 0) END);
		END LOOP;
	END LOOP;
	PERFORM spl_mode('planner');
END
$$;

-- one timed round of every case in every mode (rounds interleave: the
-- script calls this once per round); the modes' order turns with the
-- round, so that each comes first after another case (whose pages have
-- taken the buffers) as often as the others
CREATE FUNCTION spl_round(r int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	m text;
	t0 timestamptz;
	n bigint;
	modes text[] := ARRAY['planner', 'seq forced', 'index forced'];
BEGIN
	SET LOCAL max_parallel_workers_per_gather = 2;
	modes := modes[1 + r % 3:] || modes[:r % 3];
	FOR c IN SELECT * FROM spl_case ORDER BY ord LOOP
		FOREACH m IN ARRAY modes LOOP
			PERFORM spl_mode(m);
			t0 := clock_timestamp();
			EXECUTE 'SELECT count(*) FROM ' || c.tbl || ' WHERE ' || c.cond INTO n;
			INSERT INTO spl_r VALUES (c.ord, m, r, 1000 * extract(epoch FROM clock_timestamp() - t0), n);
		END LOOP;
	END LOOP;
	PERFORM spl_mode('planner');
END
$$;

-- per case and mode: the median time, the plan and estimate of round 0,
-- whether every round counted the oracle's rows
CREATE VIEW spl_sum AS
SELECT c.ord, c.cls, c.freq, c.word, c.expect, r.mode,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.rnd > 0) AS ms,
	max(r.plan) AS plan, max(r.est_rows) AS est_rows, max(r.heap_pages) AS heap_pages,
	count(*) FILTER (WHERE r.rnd > 0 AND r.nrows <> c.expect) AS wrong
  FROM spl_case c JOIN spl_r r ON r.ord = c.ord
 GROUP BY c.ord, c.cls, c.freq, c.word, c.expect, r.mode;
