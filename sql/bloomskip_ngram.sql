-- bloomskip's n-gram operator class: LIKE '%needle%' through the n-grams
-- of every range.  The oracle: the rows a bitmap scan of the index returns
-- are exactly the rows a sequential scan returns (skip_ng_diff), for many
-- patterns; bloomskip_check finds every n-gram of every visible row in its
-- range; a range's filter (bloomskip_range_filter) answers bloom_may_like
-- for exactly the ranges the scan returns.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

-- the index plan's rows against the sequential scan's, and whether the
-- index plan used the given index
CREATE FUNCTION skip_ng_diff(cond text, idx text,
	OUT used boolean, OUT nrows bigint, OUT diff bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM logs WHERE %s', cond) LOOP
		plan := plan || line || E'\n';
	END LOOP;
	used := plan LIKE '%Bitmap Index Scan on ' || idx || E'\n%';
	EXECUTE format('CREATE TEMP TABLE ng_ix AS SELECT ctid AS c FROM logs WHERE %s', cond);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE ng_sq AS SELECT ctid AS c FROM logs WHERE %s', cond);
	SELECT count(*) INTO nrows FROM ng_sq;
	SELECT count(*) INTO diff FROM ((TABLE ng_ix EXCEPT ALL TABLE ng_sq)
		UNION ALL (TABLE ng_sq EXCEPT ALL TABLE ng_ix)) d;
	DROP TABLE ng_ix;
	DROP TABLE ng_sq;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
END
$$;

-- the heap pages a bitmap scan of the index returns for cond
CREATE FUNCTION skip_ng_pages(cond text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT count(*) FROM logs WHERE %s', cond)
		INTO plan;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	RETURN (SELECT coalesce(sum((n->>'Lossy Heap Blocks')::bigint), 0)
		FROM jsonb_path_query(plan::jsonb, 'strict $.**') AS j(n)
		WHERE jsonb_typeof(n) = 'object' AND n ? 'Lossy Heap Blocks');
END
$$;

-- does the plan of query scan index idx?
CREATE FUNCTION ng_uses(query text, idx text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line LIKE '%Bitmap Index Scan on ' || idx THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;

-- log lines: templates, ids, hex, words, some non-ASCII; and odd rows
CREATE TABLE logs (id int, msg text, v varchar(120)) WITH (autovacuum_enabled = false);
CREATE FUNCTION fill_logs(lo int, hi int) RETURNS void LANGUAGE sql AS $$
	INSERT INTO logs
	SELECT i, m, m
	FROM generate_series(lo, hi) i,
		LATERAL (SELECT (ARRAY['GET', 'POST', 'PUT', 'DELETE'])[i % 4 + 1] || ' /api/' ||
			(ARRAY['users', 'orders', 'items', 'carts', 'séances', '日志'])[i % 6 + 1] || '/' ||
			(i * 7919 % 100003) || ' status=' || (200 + i % 7 * 50) || ' req=' ||
			substr(md5(i::text), 1, 12) ||
			CASE WHEN i % 101 = 0 THEN ' user=naïve_café' ELSE '' END ||
			CASE WHEN i % 2500 = 0 THEN ' tag=quokka' || i ELSE '' END AS m) s
$$;
SELECT fill_logs(1, 20000);
INSERT INTO logs VALUES (-1, NULL, NULL), (-2, '', ''), (-3, 'a', 'a'),
	(-4, '100% sure_thing\done', '100% sure_thing\done'), (-5, 'ab', 'ab');
SELECT fill_logs(20001, 24000);

CREATE INDEX logs_ngram ON logs USING bloomskip (msg text_ngram_bloomskip_ops);
CREATE INDEX logs_ngram_v ON logs USING bloomskip (v text_ngram_bloomskip_ops);
ANALYZE logs;
SELECT hashes, bits_per_range > 0 AS sized, summarized_ranges > 10 AS many_ranges
FROM bloomskip_info('logs_ngram');

-- hand-picked patterns: present, absent, short, _, escapes, wildcard-only,
-- non-ASCII, empty
CREATE TABLE pats (p text);
INSERT INTO pats VALUES ('%req=c4ca4238a0b9%'), ('%req=ffffffffffff%'), ('%séances%'),
	('%日志/%'), ('%naïve_café%'), ('%naïve\_café%'), ('%na_ve%'), ('%ab%'), ('%a%'),
	('%'), ('%%'), ('_'), (''), ('a'), ('ab'), ('%100\% sure%'), ('%sure\_thing%'),
	('%thing\\done'), ('%thing\done'), ('GET /api/users/%'), ('%status=250 req=%'),
	('%/orders/7919 %'), ('%zzzz%'), ('%ORDERS%'), ('%req=%'), ('%é%'), ('%\%'),
	('%_a_b_c_%'), ('DELETE%items%status=400%');
SELECT p, (skip_ng_diff(format('msg LIKE %L', p), 'logs_ngram')).* FROM pats ORDER BY p;

-- random patterns: substrings of the rows (present) and of md5s (mostly absent)
CREATE TABLE rpats AS
SELECT '%' || substr(msg, 1 + id % 30, 3 + id % 9) || '%' AS p FROM logs WHERE id % 997 = 0
UNION ALL
SELECT '%' || substr(md5(i::text || 'x'), 1, 3 + i % 6) || '%' FROM generate_series(1, 20) i
UNION ALL
SELECT substr(msg, 1, 5) || '%' || substr(msg, 20, 4) || '_%' FROM logs WHERE id % 1999 = 0;
SELECT count(*) AS patterns, count(*) FILTER (WHERE used) AS index_used,
	count(*) FILTER (WHERE diff <> 0) AS wrong, count(*) FILTER (WHERE nrows = 0) AS absent
FROM rpats, LATERAL skip_ng_diff(format('msg LIKE %L', p), 'logs_ngram');
-- the same on the varchar column and on the n = 5 index
SELECT count(*) FILTER (WHERE NOT used) AS index_not_used, count(*) FILTER (WHERE diff <> 0) AS wrong
FROM (SELECT p FROM pats UNION ALL SELECT p FROM rpats) q,
	LATERAL skip_ng_diff(format('v LIKE %L', p), 'logs_ngram_v');
DROP INDEX logs_ngram, logs_ngram_v;
CREATE INDEX logs_ngram5 ON logs USING bloomskip (msg text_ngram_bloomskip_ops (n = 5));
SELECT count(*) FILTER (WHERE NOT used) AS index_not_used, count(*) FILTER (WHERE diff <> 0) AS wrong
FROM (SELECT p FROM pats UNION ALL SELECT p FROM rpats) q,
	LATERAL skip_ng_diff(format('msg LIKE %L', p), 'logs_ngram5');
DROP INDEX logs_ngram5;
CREATE INDEX logs_ngram ON logs USING bloomskip (msg text_ngram_bloomskip_ops);

-- a = ANY of patterns (LIKE ANY): the OR of the patterns' conjunctions
SELECT (skip_ng_diff($$msg LIKE ANY (ARRAY['%req=c4ca4238a0b9%', '%/carts/15838 %', NULL, '%zzzz%'])$$,
	'logs_ngram')).*;
SELECT (skip_ng_diff($$msg LIKE ANY (ARRAY['%zzzz%', '%'])$$, 'logs_ngram')).*;
SELECT (skip_ng_diff($$msg LIKE NULL$$, 'logs_ngram')).*;

-- a selective pattern: a bitmap scan, reading a few ranges; a pattern in
-- every range: the sequential scan
EXPLAIN (COSTS OFF) SELECT count(*) FROM logs WHERE msg LIKE '%req=c4ca4238a0b9%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM logs WHERE msg LIKE '%status=%';
-- (a hex id is not selective with 3-grams: its grams are in every range)
SELECT p, skip_ng_pages(format('msg LIKE %L', p)) * 4 < pg_relation_size('logs') / 8192
	AS few_pages_read
FROM unnest(ARRAY['%quokka5000%', '%xqjvwk%', '%tag=quokka%']) p;
-- ILIKE and = are not served by this class
EXPLAIN (COSTS OFF) SELECT count(*) FROM logs WHERE msg ILIKE '%req=c4ca4238a0b9%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM logs WHERE msg = 'a';

-- the range filters: family ngram:3; every n-gram of every row found in its
-- range's filter; and bloom_may_like true for exactly the ranges a scan reads
SELECT (bloom_info(bloomskip_range_filter('logs_ngram', 0))).element_family;
SELECT count(*) AS rows_missed
FROM (SELECT r, bloomskip_range_filter('logs_ngram', r) AS f
	  FROM generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info('logs_ngram'))) r) rf
	JOIN logs ON (ctid::text::point)[0]::bigint / 16 = rf.r
WHERE msg IS NOT NULL AND NOT bloom_ngram_may_contain(f, msg);
SELECT p, skip_ng_pages(format('msg LIKE %L', p)) =
	16 * (SELECT count(*) FROM generate_series(0, i.summarized_ranges - 1) r
		  WHERE bloom_may_like(bloomskip_range_filter('logs_ngram', r), p)) +
	pg_relation_size('logs') / 8192 - 16 * i.summarized_ranges AS same_ranges
FROM bloomskip_info('logs_ngram') i,
	unnest(ARRAY['%req=c4ca4238a0b9%', '%/carts/15838 %', '%zzzz%', '%séances%', '%quokka5000%']) p;

-- inserts after the build (into summarized ranges, the open tail, and past
-- it, which summarizes), updates and deletes
SELECT fill_logs(24001, 40000);
UPDATE logs SET msg = msg || ' retried', v = v || ' retried' WHERE id % 1000 = 7;
DELETE FROM logs WHERE id % 1000 = 8;
INSERT INTO logs VALUES (-6, 'needle-in-a-haystack über', 'needle-in-a-haystack über');
SELECT count(*) AS patterns, count(*) FILTER (WHERE used) AS index_used,
	count(*) FILTER (WHERE diff <> 0) AS wrong
FROM (SELECT p FROM pats UNION ALL SELECT p FROM rpats
	  UNION ALL VALUES ('%retried%'), ('%haystack über%'), ('%req=6e7c8f2e%')) q,
	LATERAL skip_ng_diff(format('msg LIKE %L', p), 'logs_ngram');
VACUUM logs;
SELECT bloomskip_check('logs_ngram') AS violations;
SELECT count(*) FILTER (WHERE diff <> 0) AS wrong_after_vacuum
FROM (SELECT p FROM pats UNION ALL SELECT p FROM rpats UNION ALL VALUES ('%haystack über%')) q,
	LATERAL skip_ng_diff(format('msg LIKE %L', p), 'logs_ngram');

-- two columns: an n-gram and an equality column
DROP INDEX logs_ngram;
CREATE INDEX logs_two ON logs USING bloomskip (msg text_ngram_bloomskip_ops, id);
SELECT (skip_ng_diff($$msg LIKE '%/orders/%' AND id = 12$$, 'logs_two')).*;
SELECT (skip_ng_diff($$msg LIKE '%/orders/%' AND id = 13$$, 'logs_two')).*;
SELECT bloomskip_check('logs_two') AS violations;
DROP INDEX logs_two;
CREATE INDEX logs_ngram ON logs USING bloomskip (msg text_ngram_bloomskip_ops);

-- indexes built on an empty table, then filled: ranges summarized by the
-- inserts (with 128 pages a range, a range's n-gram bits are written in
-- several batches)
CREATE TABLE logs_empty (msg text);
CREATE INDEX logs_empty_16 ON logs_empty USING bloomskip (msg text_ngram_bloomskip_ops);
CREATE INDEX logs_empty_128 ON logs_empty USING bloomskip (msg text_ngram_bloomskip_ops)
	WITH (pages_per_range = 128);
INSERT INTO logs_empty SELECT msg FROM logs;
SELECT summarized_ranges > 0 AS summarized FROM bloomskip_info('logs_empty_128');
SELECT bloomskip_check('logs_empty_16') AS violations_16, bloomskip_check('logs_empty_128') AS violations_128;
SET enable_seqscan = off;
-- each index alone (the planner would pick one of the two)
BEGIN;
DROP INDEX logs_empty_16;
SELECT p, ng_uses(format('SELECT count(*) FROM logs_empty WHERE msg LIKE %L', p), 'logs_empty_128') AS index_used,
	(SELECT count(*) FROM logs_empty WHERE msg LIKE p) = (SELECT count(*) FROM logs WHERE msg LIKE p) AS same
FROM unnest(ARRAY['%6e7c8f%', '%quokka5000%', '%zzzz%']) p;
ROLLBACK;
DROP INDEX logs_empty_128;
SELECT p, (SELECT count(*) FROM logs_empty WHERE msg LIKE p) = (SELECT count(*) FROM logs WHERE msg LIKE p) AS same
FROM unnest(ARRAY['%6e7c8f%', '%quokka5000%', '%zzzz%']) p;
RESET enable_seqscan;
DROP TABLE logs_empty;

-- a nondeterministic collation: LIKE does not compare bytes under it
CREATE COLLATION ng_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE logs_ci (msg text COLLATE ng_ci);
CREATE INDEX ON logs_ci USING bloomskip (msg text_ngram_bloomskip_ops);
CREATE INDEX logs_ci_c ON logs_ci USING bloomskip ((msg COLLATE "C") text_ngram_bloomskip_ops);
INSERT INTO logs_ci VALUES ('Needle'), ('needle');
SET enable_seqscan = off;
SELECT ng_uses($$SELECT count(*) FROM logs_ci WHERE msg COLLATE "C" LIKE '%eedl%'$$, 'logs_ci_c') AS index_used;
SELECT count(*) FROM logs_ci WHERE msg COLLATE "C" LIKE '%eedl%';
RESET enable_seqscan;
DROP TABLE logs_ci;
DROP COLLATION ng_ci;

-- filters larger than a page (format 4): staging slots of two pages each,
-- four of them, sliced into the segments each time they are full; every
-- row's piece found through the index as by the sequential scan
CREATE TABLE ng_big (id int, line text) WITH (autovacuum_enabled = false);
INSERT INTO ng_big SELECT i, encode(sha256(i::text::bytea), 'base64') FROM generate_series(1, 20000) i;
CREATE INDEX ng_big_ix ON ng_big USING bloomskip (line text_ngram_bloomskip_ops) WITH (pages_per_range = 3);
INSERT INTO ng_big SELECT i, encode(sha256(i::text::bytea), 'base64') FROM generate_series(20001, 21000) i;
SELECT bits_per_range / 8 > 8192 AS filter_larger_than_a_page, staged_ranges > 0 AS staged
FROM bloomskip_info('ng_big_ix');
INSERT INTO ng_big SELECT i, encode(sha256(i::text::bytea), 'base64') FROM generate_series(21001, 24000) i;
SELECT summarized_ranges > 75 AS sliced_many, staged_ranges <= 4 AS four_slots,
	bloomskip_check('ng_big_ix') AS missing
FROM bloomskip_info('ng_big_ix');
CREATE TEMP TABLE ng_big_q AS
SELECT g, '%' || substr(encode(sha256(g::text::bytea), 'base64'), 3, 12) || '%' AS p
FROM generate_series(1, 24000, 37) g;
SET enable_seqscan = off;
SELECT ng_uses($$SELECT g, (SELECT count(*) FROM ng_big WHERE line LIKE p) FROM ng_big_q$$, 'ng_big_ix')
	AS index_used;
CREATE TEMP TABLE ng_big_ix_n AS SELECT g, (SELECT count(*) FROM ng_big WHERE line LIKE p) AS n FROM ng_big_q;
RESET enable_seqscan;
SET enable_bitmapscan = off;
CREATE TEMP TABLE ng_big_sq_n AS SELECT g, (SELECT count(*) FROM ng_big WHERE line LIKE p) AS n FROM ng_big_q;
RESET enable_bitmapscan;
SELECT count(*) AS pieces, count(*) FILTER (WHERE i.n <> s.n) AS differ, min(s.n) AS min_rows
FROM ng_big_ix_n i JOIN ng_big_sq_n s USING (g);
DROP TABLE ng_big, ng_big_q, ng_big_ix_n, ng_big_sq_n;

-- hostile arguments
CREATE INDEX ON logs USING bloomskip (id text_ngram_bloomskip_ops);
CREATE INDEX ON logs USING bloomskip (msg text_ngram_bloomskip_ops (n = 0));
CREATE INDEX ON logs USING bloomskip (msg text_ngram_bloomskip_ops (n = 9));
CREATE INDEX ON logs USING bloomskip (msg text_ngram_bloomskip_ops (n = 'x'));
CREATE INDEX ON logs USING bloomskip (msg text_ngram_bloomskip_ops (m = 3));
-- (the message names the class schema-qualified from PostgreSQL 17 on)
\set VERBOSITY sqlstate
CREATE INDEX ON logs USING bloomskip (msg text_bloomskip_ops (n = 3));
\set VERBOSITY default

DROP TABLE logs, pats, rpats;
DROP FUNCTION skip_ng_diff(text, text), skip_ng_pages(text), ng_uses(text, text), fill_logs(int, int);
