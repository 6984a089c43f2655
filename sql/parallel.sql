-- Parallel aggregation: a forced parallel plan (Partial Aggregate with
-- combine/serialize/deserialize) gives the same filters as the serial plan.

CREATE TABLE par AS SELECT x, md5(x::text) AS s FROM generate_series(1, 300000) x;
ANALYZE par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;

EXPLAIN (COSTS OFF) SELECT bloom_agg(s) FROM par;
CREATE TEMP TABLE par_parallel AS SELECT
  bloom_agg(s) AS auto_f, bloom_agg(s, 300000, 0.01) AS sized_f,
  bloom_agg(x, 65536, 6, 3) AS explicit_f, counting_bloom_agg(x, 300000, 0.01) AS counting_f FROM par;
CREATE TABLE par_unions AS
  SELECT x % 7 AS g, bloom_agg(x, 300000, 0.01) AS f FROM par GROUP BY 1;
EXPLAIN (COSTS OFF) SELECT bloom_union_agg(f), bloom_intersect_agg(f) FROM par_unions;
SELECT bloom_union_agg(f) AS u, bloom_intersect_agg(f) AS i INTO TEMP par_setops FROM par_unions;

-- automatic sizing past the exact phase (1,100,000 distinct), in parallel
CREATE TABLE par_big AS SELECT x FROM generate_series(1, 1100000) x;
ANALYZE par_big;
EXPLAIN (COSTS OFF) SELECT bloom_agg(x) FROM par_big;
CREATE TEMP TABLE par_big_f AS SELECT bloom_agg(x) AS f FROM par_big;

SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT bloom_agg(s) FROM par;
SELECT p.auto_f = s.auto_f AS auto_same, p.sized_f = s.sized_f AS sized_same,
       p.explicit_f = s.explicit_f AS explicit_same,
       (bloom_info(p.auto_f)).items = 300000 AS items_counted
FROM par_parallel p, (SELECT bloom_agg(s) AS auto_f, bloom_agg(s, 300000, 0.01) AS sized_f,
                             bloom_agg(x, 65536, 6, 3) AS explicit_f FROM par) s;
SELECT u = (SELECT bloom_union_agg(f) FROM par_unions) AS union_same,
       i = (SELECT bloom_intersect_agg(f) FROM par_unions) AS intersect_same
FROM par_setops;
SELECT f = (SELECT bloom_agg(x) FROM par_big) AS big_auto_same,
       (SELECT count(*) FROM par_big WHERE NOT bloom_contains(f, x)) AS false_negatives
FROM par_big_f;
SELECT count(*) AS parallel_false_negatives FROM par, par_parallel WHERE NOT bloom_contains(auto_f, s);
-- the filter-phase states (hashes waiting in the prefetch queue when a
-- worker's state is serialized, combined and finished) lose no key
SELECT count(*) FILTER (WHERE NOT bloom_contains(sized_f, s)) AS sized_parallel_false_negatives,
       count(*) FILTER (WHERE NOT bloom_contains(explicit_f, x)) AS explicit_parallel_false_negatives,
       count(*) FILTER (WHERE NOT counting_bloom_contains(counting_f, x)) AS counting_parallel_false_negatives
FROM par, par_parallel;
DROP TABLE par, par_big, par_unions;

-- partial aggregation where some partial states saw only NULLs: the family
-- must come across in combine (partitionwise aggregation, then parallel)
CREATE TABLE pw (k int, x int) PARTITION BY LIST (k);
CREATE TABLE pw_nulls PARTITION OF pw FOR VALUES IN (0);
CREATE TABLE pw_vals PARTITION OF pw FOR VALUES IN (1);
INSERT INTO pw SELECT 0, NULL FROM generate_series(1, 1000);
INSERT INTO pw SELECT 1, x FROM generate_series(1, 1000) x;
ANALYZE pw;
SET enable_partitionwise_aggregate = on;
EXPLAIN (COSTS OFF) SELECT bloom_agg(x) FROM pw;
SELECT (SELECT count(*) FROM generate_series(1, 1000) x WHERE NOT bloom_contains(f, x)) AS false_negatives,
       f::text::bloom = f AS text_roundtrip
FROM (SELECT bloom_agg(x) AS f FROM pw) s;
SET max_parallel_workers_per_gather = 2;
SELECT (SELECT count(*) FROM generate_series(1, 1000) x WHERE NOT bloom_contains(f, x)) AS parallel_false_negatives
FROM (SELECT bloom_agg(x) AS f FROM pw) s;
RESET enable_partitionwise_aggregate;
DROP TABLE pw;
