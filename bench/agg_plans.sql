-- bench/agg_plans.sql -- every aggregate of every kind on three plans:
-- serial, forced parallel (partial states serialized by two workers,
-- deserialized and combined by the leader) and partitionwise (a partial
-- aggregate per partition of a table partitioned into 4, combined without
-- workers).  Per aggregate and plan: the false-positive rate over 20,000
-- certain non-members, the false negatives over the 40,000 members, and
-- whether the filter is the serial plan's to the byte.
--
--   psql -X -f bench/agg_plans.sql     (bloomset installed; 2 parallel workers free)
--
-- The EXPLAIN ANALYZE of each CREATE TABLE shows the plan that built the
-- filters (Partial Aggregate; Workers Launched on the parallel plan).
\set ON_ERROR_STOP 1
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomset;
DROP SCHEMA IF EXISTS agg_plans CASCADE;
CREATE SCHEMA agg_plans;
SET search_path = agg_plans, public;

-- 40,000 values (members g = 1 .. 40000), partitioned into 4 by g % 4
CREATE TABLE ap_part (k int, g int, t text) PARTITION BY LIST (k);
CREATE TABLE ap_part0 PARTITION OF ap_part FOR VALUES IN (0);
CREATE TABLE ap_part1 PARTITION OF ap_part FOR VALUES IN (1);
CREATE TABLE ap_part2 PARTITION OF ap_part FOR VALUES IN (2);
CREATE TABLE ap_part3 PARTITION OF ap_part FOR VALUES IN (3);
INSERT INTO ap_part SELECT g % 4, g, 'w' || g || ' ' || md5(g::text) FROM generate_series(1, 40000) g;
CREATE TABLE ap_plain AS SELECT * FROM ap_part;

-- filters to union: 64 groups of the same values, each built for the
-- union's capacity, partitioned into 4; the unpartitioned copy is spread
-- over pages (fillfactor 10) so that both workers get rows
CREATE TABLE ap_fpart (k int, f bloom, cf counting_bloom, sf scalable_bloom) PARTITION BY LIST (k);
CREATE TABLE ap_fpart0 PARTITION OF ap_fpart FOR VALUES IN (0);
CREATE TABLE ap_fpart1 PARTITION OF ap_fpart FOR VALUES IN (1);
CREATE TABLE ap_fpart2 PARTITION OF ap_fpart FOR VALUES IN (2);
CREATE TABLE ap_fpart3 PARTITION OF ap_fpart FOR VALUES IN (3);
INSERT INTO ap_fpart SELECT grp % 4, bloom_agg(x, 40000, 0.01), counting_bloom_agg(x, 40000, 0.01),
  scalable_bloom_agg(x, 40000, 0.01)
  FROM (SELECT g % 64 AS grp, g AS x FROM generate_series(1, 40000) g) s GROUP BY grp;
CREATE TABLE ap_fplain (k int, f bloom, cf counting_bloom, sf scalable_bloom) WITH (fillfactor = 10);
INSERT INTO ap_fplain SELECT * FROM ap_fpart;
ANALYZE ap_part, ap_plain;	-- not the filter tables: the planner then expects enough rows to split

\set aggs 'bloom_agg(g) a1, bloom_agg(g, 40000, 0.01) a2, bloom_agg(g, 65536, 7, 0) a3, bloom_parquet_agg(g, 40000, 0.01) a6, bloom_ngram_agg(t) a4, bloom_token_agg(t) a5, counting_bloom_agg(g) c1, counting_bloom_agg(g, 40000, 0.01) c2, scalable_bloom_agg(g) s1, scalable_bloom_agg(g, 5000, 0.01) s2'
\set uaggs 'bloom_union_agg(f) u1, bloom_intersect_agg(f) u2, counting_bloom_union_agg(cf) u3, scalable_bloom_union_agg(sf) u4'

-- serial
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ap_serial AS SELECT * FROM (SELECT :aggs FROM ap_plain) f, (SELECT :uaggs FROM ap_fplain) u;

-- forced parallel: every partial state is serialized by a worker and
-- combined by the leader (which does not scan)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'on', false) AS forced_parallel;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
CREATE TABLE ap_parallel AS SELECT * FROM (SELECT :aggs FROM ap_plain) f, (SELECT :uaggs FROM ap_fplain) u;
RESET parallel_leader_participation;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'off', false) AS forced_parallel;

-- partitionwise: a partial aggregate per partition, no worker
SET max_parallel_workers_per_gather = 0;
SET enable_partitionwise_aggregate = on;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
CREATE TABLE ap_partitionwise AS SELECT * FROM (SELECT :aggs FROM ap_part) f, (SELECT :uaggs FROM ap_fpart) u;
RESET ALL;
SET search_path = agg_plans, public;

CREATE TABLE ap_results AS
SELECT plan, kind, agg, promise, fn, fp, same
FROM (SELECT 'serial' AS plan, * FROM ap_serial UNION ALL
      SELECT 'parallel', * FROM ap_parallel UNION ALL
      SELECT 'partitionwise', * FROM ap_partitionwise) b,
     ap_serial s,
LATERAL (VALUES
  ('bloom', 'bloom_agg(x)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(b.a1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(b.a1, x)),
   b.a1::text = s.a1::text),
  ('bloom', 'bloom_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(b.a2, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(b.a2, x)),
   b.a2::text = s.a2::text),
  ('bloom', 'bloom_agg(x, size, hashes, seed)', NULL,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(b.a3, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(b.a3, x)),
   b.a3::text = s.a3::text),
  ('bloom', 'bloom_parquet_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(b.a6, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(b.a6, x)),
   b.a6::text = s.a6::text),
  -- non-members: trigrams of letters no value has (one n-gram per probe)
  ('bloom', 'bloom_ngram_agg(t)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_ngram_may_contain(b.a4, md5(x::text))),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x
     WHERE bloom_ngram_may_contain(b.a4, translate(substr(md5(x::text), 1, 3), '0123456789abcdef', 'ghijklmnopqrsuvx'))),
   b.a4::text = s.a4::text),
  ('bloom', 'bloom_token_agg(t)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_token_may_contain(b.a5, 'w' || x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_token_may_contain(b.a5, 'w' || x)),
   b.a5::text = s.a5::text),
  ('bloom', 'bloom_union_agg(f)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(b.u1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(b.u1, x)),
   b.u1::text = s.u1::text),
  ('bloom', 'bloom_intersect_agg(f)', NULL, 0::bigint,
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(b.u2, x)),
   b.u2::text = s.u2::text),
  ('counting_bloom', 'counting_bloom_agg(x)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT counting_bloom_contains(b.c1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE counting_bloom_contains(b.c1, x)),
   b.c1::text = s.c1::text),
  ('counting_bloom', 'counting_bloom_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT counting_bloom_contains(b.c2, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE counting_bloom_contains(b.c2, x)),
   b.c2::text = s.c2::text),
  ('counting_bloom', 'counting_bloom_union_agg(f)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT counting_bloom_contains(b.u3, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE counting_bloom_contains(b.u3, x)),
   b.u3::text = s.u3::text),
  ('scalable_bloom', 'scalable_bloom_agg(x)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT scalable_bloom_contains(b.s1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE scalable_bloom_contains(b.s1, x)),
   b.s1::text = s.s1::text),
  ('scalable_bloom', 'scalable_bloom_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT scalable_bloom_contains(b.s2, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE scalable_bloom_contains(b.s2, x)),
   b.s2::text = s.s2::text),
  ('scalable_bloom', 'scalable_bloom_union_agg(f)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT scalable_bloom_contains(b.u4, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE scalable_bloom_contains(b.u4, x)),
   b.u4::text = s.u4::text)
) v(kind, agg, promise, fn, fp, same);

-- the table: false-positive rate (%) over 20,000 non-members per plan,
-- false negatives over the members summed over the three plans, and
-- whether the parallel and partitionwise filters are the serial one
SELECT kind, agg,
       to_char(100 * max(fp) FILTER (WHERE plan = 'serial') / 20000.0, 'FM990.000') AS serial_pct,
       to_char(100 * max(fp) FILTER (WHERE plan = 'parallel') / 20000.0, 'FM990.000') AS parallel_pct,
       to_char(100 * max(fp) FILTER (WHERE plan = 'partitionwise') / 20000.0, 'FM990.000') AS partitionwise_pct,
       coalesce(to_char(100 * max(promise), 'FM990.0'), '-') AS target_pct,
       sum(fn) AS false_negatives,
       bool_and(same) AS same_filter
FROM ap_results GROUP BY kind, agg ORDER BY kind, agg;

DROP SCHEMA agg_plans CASCADE;
