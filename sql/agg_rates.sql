-- Every aggregate of every kind gives filters of the same quality whatever
-- the plan: serial, parallel (partial states combined through
-- serialize/deserialize) and partitionwise (a partial aggregate per
-- partition, combined without workers).  Measured per filter: members
-- (40,000; no false negative on any plan) and the false-positive rate
-- (20,000 non-members): each plan's within a binomial tolerance (4 sigma of
-- a difference) of the serial plan's, and within the filter's promise
-- (its target) where it has one.  The scalable aggregate used to merge
-- partial filters sub-filter by sub-filter: 56-80 % instead of 1 %.

CREATE TABLE ar_part (k int, g int, t text) PARTITION BY LIST (k);
CREATE TABLE ar_part0 PARTITION OF ar_part FOR VALUES IN (0);
CREATE TABLE ar_part1 PARTITION OF ar_part FOR VALUES IN (1);
CREATE TABLE ar_part2 PARTITION OF ar_part FOR VALUES IN (2);
CREATE TABLE ar_part3 PARTITION OF ar_part FOR VALUES IN (3);
INSERT INTO ar_part SELECT g % 4, g, 'w' || g || ' ' || md5(g::text) FROM generate_series(1, 40000) g;
CREATE TABLE ar_plain AS SELECT * FROM ar_part;
-- filters to union, 8 groups, each built for the union's capacity
CREATE TABLE ar_fpart (k int, f bloom, cf counting_bloom, sf scalable_bloom) PARTITION BY LIST (k);
CREATE TABLE ar_fpart0 PARTITION OF ar_fpart FOR VALUES IN (0);
CREATE TABLE ar_fpart1 PARTITION OF ar_fpart FOR VALUES IN (1);
INSERT INTO ar_fpart SELECT grp % 2, bloom_agg(x, 40000, 0.01), counting_bloom_agg(x, 40000, 0.01),
  scalable_bloom_agg(x, 40000, 0.01)
  FROM (SELECT g % 8 AS grp, g AS x FROM generate_series(1, 40000) g) s GROUP BY grp;
CREATE TABLE ar_fplain AS SELECT * FROM ar_fpart;
ANALYZE ar_part, ar_plain;	-- not the filter tables: the planner then expects enough rows to split

\set aggs 'bloom_agg(g) a1, bloom_agg(g, 40000, 0.01) a2, bloom_agg(g, 65536, 7, 0) a3, bloom_ngram_agg(t) a4, bloom_token_agg(t) a5, counting_bloom_agg(g) c1, counting_bloom_agg(g, 40000, 0.01) c2, scalable_bloom_agg(g) s1, scalable_bloom_agg(g, 5000, 0.01) s2'
\set uaggs 'bloom_union_agg(f) u1, bloom_intersect_agg(f) u2, counting_bloom_union_agg(cf) u3, scalable_bloom_union_agg(sf) u4'

-- serial
SET max_parallel_workers_per_gather = 0;
CREATE TABLE ar_serial AS SELECT * FROM (SELECT :aggs FROM ar_plain) f, (SELECT :uaggs FROM ar_fplain) u;

-- parallel: every partial state is combined (the leader does not scan)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT :aggs FROM ar_plain;
EXPLAIN (COSTS OFF) SELECT :uaggs FROM ar_fplain;
CREATE TABLE ar_parallel AS SELECT * FROM (SELECT :aggs FROM ar_plain) f, (SELECT :uaggs FROM ar_fplain) u;
RESET parallel_leader_participation;

-- partitionwise: a partial aggregate per partition, no worker
SET max_parallel_workers_per_gather = 0;
SET enable_partitionwise_aggregate = on;
EXPLAIN (COSTS OFF) SELECT :aggs FROM ar_part;
EXPLAIN (COSTS OFF) SELECT :uaggs FROM ar_fpart;
CREATE TABLE ar_partitionwise AS SELECT * FROM (SELECT :aggs FROM ar_part) f, (SELECT :uaggs FROM ar_fpart) u;
RESET enable_partitionwise_aggregate;

CREATE TABLE ar_results AS
SELECT plan, agg, promise, fn, fp
FROM (SELECT 'serial' AS plan, * FROM ar_serial UNION ALL
      SELECT 'parallel', * FROM ar_parallel UNION ALL
      SELECT 'partitionwise', * FROM ar_partitionwise) b,
LATERAL (VALUES
  ('bloom_agg(x)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(a1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(a1, x))),
  ('bloom_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(a2, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(a2, x))),
  ('bloom_agg(x, size, hashes, seed)', NULL,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(a3, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(a3, x))),
  -- non-members: trigrams of letters no value has (one n-gram per probe)
  ('bloom_ngram_agg(t)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_ngram_may_contain(a4, md5(x::text))),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x
     WHERE bloom_ngram_may_contain(a4, translate(substr(md5(x::text), 1, 3), '0123456789abcdef', 'ghijklmnopqrsuvx')))),
  ('bloom_token_agg(t)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_token_may_contain(a5, 'w' || x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_token_may_contain(a5, 'w' || x))),
  ('counting_bloom_agg(x)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT counting_bloom_contains(c1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE counting_bloom_contains(c1, x))),
  ('counting_bloom_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT counting_bloom_contains(c2, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE counting_bloom_contains(c2, x))),
  ('scalable_bloom_agg(x)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT scalable_bloom_contains(s1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE scalable_bloom_contains(s1, x))),
  ('scalable_bloom_agg(x, capacity, fpr)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT scalable_bloom_contains(s2, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE scalable_bloom_contains(s2, x))),
  ('bloom_union_agg(f)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT bloom_contains(u1, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(u1, x))),
  ('counting_bloom_union_agg(f)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT counting_bloom_contains(u3, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE counting_bloom_contains(u3, x))),
  ('scalable_bloom_union_agg(f)', 0.01,
   (SELECT count(*) FROM generate_series(1, 40000) x WHERE NOT scalable_bloom_contains(u4, x)),
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE scalable_bloom_contains(u4, x))),
  ('bloom_intersect_agg(f)', NULL, 0::bigint,
   (SELECT count(*) FROM generate_series(1000001, 1020000) x WHERE bloom_contains(u2, x)))
) v(agg, promise, fn, fp);

-- one row per aggregate: all must be true
SELECT r.agg,
       bool_and(r.fn = 0) AS no_false_negatives,
       bool_and(abs(r.fp - s.fp) <= 4 * sqrt(2 * greatest(s.fp, 4) * (1 - s.fp / 20000.0))) AS rate_as_serial,
       bool_and(r.promise IS NULL OR
                r.fp / 20000.0 <= r.promise * 1.25 + 4 * sqrt(r.promise * (1 - r.promise) / 20000)) AS within_promise,
       count(*) AS plans
FROM ar_results r JOIN ar_results s ON s.agg = r.agg AND s.plan = 'serial'
GROUP BY r.agg ORDER BY r.agg;

DROP TABLE ar_part, ar_plain, ar_fpart, ar_fplain, ar_serial, ar_parallel, ar_partitionwise, ar_results;
RESET ALL;
