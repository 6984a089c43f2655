-- The scan lookahead (bloom_lookahead.c) prefetches for the next tuples of
-- the page a probed value lies in.  It must never change an answer: every
-- query below is run with it on and off and must give the same rows, and
-- members must all be found.

-- fixed layout (the lookahead predicts every row), deleted tuples, values
-- stored compressed and out of line, NULLs
CREATE TABLE la_fixed (id bigint, s text, b bytea, v varchar);
INSERT INTO la_fixed
SELECT g, md5(g::text), decode(md5(g::text), 'hex'), md5(g::text)
  FROM generate_series(1, 200000) g;
UPDATE la_fixed SET s = repeat(md5(id::text), 200) WHERE id % 1000 = 0;
UPDATE la_fixed SET s = NULL, b = NULL WHERE id % 1000 = 500;
DELETE FROM la_fixed WHERE id % 7 = 0;
-- variable-width and NULL columns before the probed one: the offset of s in
-- its tuple changes from row to row
CREATE TABLE la_varying (id int, pre text, s text);
INSERT INTO la_varying
SELECT g, CASE WHEN g % 3 = 0 THEN NULL ELSE repeat('x', g % 17) END, md5(g::text)
  FROM generate_series(1, 200000) g;

-- filters of the even ids, large enough (>= 4 MiB) for the lookahead
CREATE TABLE la_f AS
SELECT (SELECT bloom_agg(s, 4000000, 0.01) FROM la_fixed WHERE id % 2 = 0) AS fs,
       (SELECT bloom_agg(b, 4000000, 0.01) FROM la_fixed WHERE id % 2 = 0) AS fb,
       (SELECT bloom_agg(s, 4000000, 0.01) FROM la_varying WHERE id % 2 = 0) AS fv;
SELECT (bloom_info(fs)).bits / 8 >= 4194304 AS text_filter_large,
       (bloom_info(fb)).bits / 8 >= 4194304 AS bytea_filter_large
  FROM la_f;

-- the probes, as seq scans over shared buffers
CREATE FUNCTION la_probe_rows() RETURNS TABLE (q text, id bigint)
LANGUAGE sql AS $$
	SELECT 'text', t.id FROM la_fixed t, la_f WHERE bloom_contains(la_f.fs, t.s)
	UNION ALL
	SELECT 'bytea', t.id FROM la_fixed t, la_f WHERE bloom_contains(la_f.fb, t.b)
	UNION ALL
	SELECT 'varchar', t.id FROM la_fixed t, la_f WHERE la_f.fs @> t.v
	UNION ALL
	SELECT 'varying', t.id FROM la_varying t, la_f WHERE bloom_contains(la_f.fv, t.s)
	UNION ALL
	SELECT 'filtered', t.id FROM la_fixed t, la_f
	 WHERE t.id % 5 <> 0 AND bloom_contains(la_f.fs, t.s)
$$;
SET bloomset.lookahead = on;
CREATE TEMP TABLE r_on AS SELECT * FROM la_probe_rows();
SET bloomset.lookahead = off;
CREATE TEMP TABLE r_off AS SELECT * FROM la_probe_rows();
RESET bloomset.lookahead;
SELECT (SELECT count(*) FROM r_on) = (SELECT count(*) FROM r_off) AS same_count,
       (SELECT count(*) FROM (SELECT * FROM r_on EXCEPT ALL SELECT * FROM r_off) d) AS only_with_lookahead,
       (SELECT count(*) FROM (SELECT * FROM r_off EXCEPT ALL SELECT * FROM r_on) d) AS only_without;

-- no false negatives: every even id that has a value is answered
SELECT q, count(*) FILTER (WHERE id % 2 = 0) AS members_found
  FROM r_on GROUP BY q ORDER BY q;
SELECT count(*) AS expected_members FROM la_fixed WHERE id % 2 = 0 AND s IS NOT NULL;
SELECT count(*) AS expected_members_varchar FROM la_fixed WHERE id % 2 = 0 AND s = v;
SELECT count(*) AS expected_members_varying FROM la_varying WHERE id % 2 = 0;

-- a parallel scan: each worker has its own lookahead and sees its own pages
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM la_fixed t WHERE bloom_contains((SELECT fs FROM la_f), t.s);
SELECT count(*) AS parallel_count FROM la_fixed t WHERE bloom_contains((SELECT fs FROM la_f), t.s);
SELECT count(*) AS serial_count FROM r_off WHERE q = 'text';
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- an index scan visits tuples out of page order: answers still exact
CREATE INDEX ON la_fixed (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS index_scan_members
  FROM la_fixed t, la_f WHERE t.id BETWEEN 1 AND 100000 AND t.id % 2 = 0
   AND bloom_contains(la_f.fs, t.s);
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS expected FROM la_fixed WHERE id BETWEEN 1 AND 100000 AND id % 2 = 0 AND s IS NOT NULL;

DROP FUNCTION la_probe_rows();
DROP TABLE la_fixed, la_varying, la_f;
