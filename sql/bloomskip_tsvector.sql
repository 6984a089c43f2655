-- bloomskip's full-text class, tsvector_bloomskip_ops: a range's keys are
-- its documents' lexemes; tsvector @@ tsquery asks for the lexemes every
-- match holds.  The oracle: the rows of the index plan are exactly those
-- of the sequential scan, for many queries (&, |, !, phrases, prefixes,
-- weights, stopwords only).

\set SHOW_CONTEXT never
SET client_min_messages = warning;

CREATE FUNCTION ts_diff(cond text, OUT used boolean, OUT nrows bigint, OUT diff bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM docs WHERE %s', cond) LOOP
		plan := plan || line || E'\n';
	END LOOP;
	used := plan LIKE E'%Bitmap Index Scan on docs_tsv\n%';
	EXECUTE format('CREATE TEMP TABLE ts_ix AS SELECT ctid AS c FROM docs WHERE %s', cond);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE ts_sq AS SELECT ctid AS c FROM docs WHERE %s', cond);
	SELECT count(*) INTO nrows FROM ts_sq;
	SELECT count(*) INTO diff FROM ((TABLE ts_ix EXCEPT ALL TABLE ts_sq)
		UNION ALL (TABLE ts_sq EXCEPT ALL TABLE ts_ix)) d;
	DROP TABLE ts_ix;
	DROP TABLE ts_sq;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
END
$$;

CREATE TABLE docs (id int, body text, tsv tsvector) WITH (autovacuum_enabled = false);
INSERT INTO docs
SELECT i, b, to_tsvector('english', b)
FROM generate_series(1, 12000) i,
	LATERAL (SELECT (ARRAY['The quick brown fox', 'A lazy dog sleeps', 'Databases index rows',
		'Bloom filters answer maybe', 'Skip indexes read few pages'])[i % 5 + 1] ||
		' user' || (i % 997) || ' session ' || md5(i::text) ||
		CASE WHEN i % 3001 = 0 THEN ' quokka marsupial' ELSE '' END ||
		CASE WHEN i % 4000 = 0 THEN ' wombat' ELSE '' END AS b) s;
INSERT INTO docs VALUES (-1, NULL, NULL), (-2, '', ''::tsvector), (-3, 'the', to_tsvector('english', 'the'));
CREATE INDEX docs_tsv ON docs USING bloomskip (tsv);
ANALYZE docs;
SELECT bloomskip_check('docs_tsv') AS missing;
EXPLAIN (COSTS OFF) SELECT * FROM docs WHERE tsv @@ to_tsquery('english', 'quokka');
-- the README's block
\o /dev/null
CREATE INDEX ON docs USING bloomskip (tsv);
SELECT * FROM docs WHERE tsv @@ to_tsquery('english', 'quokka & marsupial');
\o
DROP INDEX docs_tsv_idx;

CREATE TABLE tq (q text);
INSERT INTO tq VALUES ('quokka'), ('quokkas'), ('quokka & marsupial'), ('quokka & wombat'),
	('quokka | wombat'), ('quokka & !wombat'), ('!quokka'), ('!quokka & !wombat'), ('quokka <-> marsupial'),
	('marsupial <-> quokka'), ('quokka <2> marsupial'), ('quok:*'), ('quok:* & wombat'), ('quokka:A'),
	('quokka:B & marsupial'), ('(quokka | fox) & wombat'), ('(quokka & marsupial) | (wombat & user7)'),
	('the'), ('the & quokka'), ('zzzz'), ('zzzz | quokka'), ('fox & dog'), ('user7'), ('user7 & !fox'),
	('user996 <-> session'), ('!(quokka | wombat)'), ('quokka | !wombat');
SELECT q, (ts_diff(format('tsv @@ to_tsquery(''english'', %L)', q))).* FROM tq ORDER BY q COLLATE "C";
-- the session ids: every document's own lexeme, present and absent
SELECT count(*) AS queries, count(*) FILTER (WHERE d.used) AS index_used,
	count(*) FILTER (WHERE d.diff <> 0) AS wrong, count(*) FILTER (WHERE d.nrows = 0) AS absent
FROM generate_series(1, 12001, 397) i,
	LATERAL ts_diff(format('tsv @@ %L::tsquery', md5(i::text))) d;
-- plainto_tsquery and websearch_to_tsquery
SELECT (ts_diff($$tsv @@ websearch_to_tsquery('english', '"quokka marsupial" -wombat')$$)).*,
	(ts_diff($$tsv @@ plainto_tsquery('english', 'quokka marsupials')$$)).*;
-- a range's filter answers bloom_contains for a lexeme as the index does,
-- a lexeme with a hyphen or a dot too (one key, not two tokens)
SELECT (bloom_info(bloomskip_range_filter('docs_tsv', 0))).element_family,
	bloom_contains(bloomskip_range_filter('docs_tsv', 0), 'lazi'::text) AS lazi_in_range_0;
CREATE TABLE tsd (tsv tsvector) WITH (autovacuum_enabled = false);
INSERT INTO tsd SELECT to_tsvector('simple', 'host-' || i || ' at db' || i || '.example.com')
FROM generate_series(1, 2000) i;
CREATE INDEX tsd_tsv ON tsd USING bloomskip (tsv) WITH (pages_per_range = 2);
SELECT count(*) FILTER (WHERE NOT bloom_contains(bloomskip_range_filter('tsd_tsv', x.r), x.lexeme))
		AS lexemes_missing_from_their_range, count(*) > 2000 AS lexemes_checked
FROM (SELECT (ctid::text::point)[0]::bigint / 2 AS r, unnest(tsvector_to_array(tsv)) AS lexeme FROM tsd) x,
	bloomskip_info('tsd_tsv') i
WHERE x.r < i.summarized_ranges;
SELECT count(*) FILTER (WHERE lexeme LIKE '%-%' OR lexeme LIKE '%.%') > 0 AS some_lexemes_hold_separators
FROM (SELECT unnest(tsvector_to_array(tsv)) AS lexeme FROM tsd) x;
DROP TABLE tsd;
DROP TABLE docs, tq;
DROP FUNCTION ts_diff(text);
