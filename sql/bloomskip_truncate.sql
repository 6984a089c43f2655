-- bloomskip after VACUUM truncates the table: the ranges the table no
-- longer has are forgotten (bloomskip_info counts the ranges that exist),
-- and when the table grows again their old keys (deleted rows, an
-- append rolled back) do not make lookups read pages for nothing.  The
-- oracle: a sequential scan's rows; the pages read: the lossy heap blocks
-- of EXPLAIN ANALYZE.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

CREATE TABLE trunc_t (id int8, pad text) WITH (autovacuum_enabled = off);
-- about 35 rows a page: 20,000 rows are about 36 ranges of 16 pages
INSERT INTO trunc_t SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g;
CREATE INDEX trunc_idx ON trunc_t USING bloomskip (id);

-- the ranges the table has, and the heap pages a lookup read (its lossy blocks)
CREATE FUNCTION trunc_ranges() RETURNS bigint LANGUAGE sql AS
$$ SELECT (pg_relation_size('trunc_t') / current_setting('block_size')::int + 15) / 16 $$;
CREATE FUNCTION trunc_lossy(key int8) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT * FROM trunc_t WHERE id = %s', key) INTO plan;
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN coalesce((plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::bigint, 0);
END
$$;
-- rows the index plan and a sequential scan disagree on, over keys
CREATE FUNCTION trunc_disagree(keys int8[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	bad bigint := 0;
	a bigint;
	b bigint;
	k int8;
BEGIN
	FOREACH k IN ARRAY keys LOOP
		PERFORM set_config('enable_seqscan', 'off', true);
		SELECT count(*) INTO a FROM trunc_t WHERE id = k;
		PERFORM set_config('enable_seqscan', 'on', true);
		PERFORM set_config('enable_bitmapscan', 'off', true);
		SELECT count(*) INTO b FROM trunc_t WHERE id = k;
		PERFORM set_config('enable_bitmapscan', 'on', true);
		IF a <> b THEN
			bad := bad + 1;
		END IF;
	END LOOP;
	RETURN bad;
END
$$;

SELECT ranges = trunc_ranges() AS ranges_exist, trunc_ranges() > 30 AS many
FROM bloomskip_info('trunc_idx');

-- the second half deleted: VACUUM truncates the table to about half
DELETE FROM trunc_t WHERE id > 10000;
VACUUM trunc_t;
SELECT trunc_ranges() < 20 AS truncated;
SELECT ranges = trunc_ranges() AS ranges_exist,
	summarized_ranges <= trunc_ranges() AS summarized_exist
FROM bloomskip_info('trunc_idx');

-- an append rolled back, VACUUM (which truncates it away again), a new append
BEGIN;
INSERT INTO trunc_t SELECT g, repeat('y', 200) FROM generate_series(20001, 30000) g;
ROLLBACK;
VACUUM trunc_t;
INSERT INTO trunc_t SELECT g, repeat('z', 200) FROM generate_series(30001, 40000) g;
-- (the last range, still filling, may not be covered yet)
SELECT ranges <= trunc_ranges() AS ranges_exist FROM bloomskip_info('trunc_idx');

-- no wrong answer: kept rows, deleted ids, rolled-back ids, new rows, absent ids
SELECT trunc_disagree(array_agg(k)) AS disagreements
FROM (SELECT g * 97 AS k FROM generate_series(1, 420) g) s;

-- the pages read: the open last range (returned whole), the range
-- holding the key, rarely a false range; the ranges that were truncated
-- away hold none of their old keys (deleted ids, rolled-back ids), so a
-- lookup of one reads the open range and rarely another
SELECT max(trunc_lossy(k)) <= 64 AS max_few_ranges,
	avg(trunc_lossy(k)) <= 40 AS mean_about_two_ranges
FROM (SELECT 30000 + g * 97 AS k FROM generate_series(1, 100) g) s;
SELECT max(trunc_lossy(k)) <= 48 AS max_few_ranges,
	avg(trunc_lossy(k)) <= 24 AS mean_about_one_range
FROM (SELECT 10000 + g * 199 AS k FROM generate_series(1, 100) g) s;

-- the index's own check: every visible row's keys in its summarized range
SELECT bloomskip_check('trunc_idx') AS missing;

-- an idle table: a second VACUUM forgets the ranges the first truncated
DELETE FROM trunc_t WHERE id > 5000;
VACUUM trunc_t;
VACUUM trunc_t;
SELECT ranges = trunc_ranges() AS ranges_exist, open_ranges <= 1 AS last_open,
	summarized_ranges = trunc_ranges() - open_ranges AS summarized_exist
FROM bloomskip_info('trunc_idx');
SELECT trunc_disagree(array_agg(k)) AS disagreements
FROM (SELECT g * 97 AS k FROM generate_series(1, 420) g) s;
SELECT bloomskip_check('trunc_idx') AS missing;

DROP TABLE trunc_t;
DROP FUNCTION trunc_ranges(), trunc_lossy(int8), trunc_disagree(int8[]);
