-- Aggregates: NULLs, empty input, automatic sizing at every scale,
-- GROUP BY, the explicit forms.

-- NULLs are skipped; zero rows or only NULLs give an empty filter, not NULL
SELECT bloom_agg(x) IS NOT NULL AS not_null, bloom_estimate_card(bloom_agg(x)) AS card
FROM (SELECT 1 WHERE false) s(x);
SELECT bloom_agg(x, 100, 0.01) IS NOT NULL AS sized_not_null FROM (SELECT 1 WHERE false) s(x);
SELECT bloom_agg(x, 64, 3, 0) IS NOT NULL AS explicit_not_null FROM (SELECT 1 WHERE false) s(x);
SELECT (bloom_info(f)).items, f @> 1 AS has_1 FROM (SELECT bloom_agg(x) AS f FROM (VALUES (NULL::int), (NULL)) v(x)) s;
SELECT (bloom_info(f)).items, f @> 1 AS has_1, f @> 2 AS has_2
FROM (SELECT bloom_agg(x) AS f FROM (VALUES (1), (NULL)) v(x)) s;
-- the empty result keeps NOT bloom_contains correct: every key is new
SELECT count(*) AS new_keys FROM generate_series(1, 100) k,
  (SELECT bloom_agg(x) AS f FROM (SELECT 1 WHERE false) s(x)) e WHERE NOT bloom_contains(f, k);

-- automatic sizing: <= 1.15 % false positives at 10, 10^4, 10^6, 5*10^6
-- distinct values (1,000,000 non-member probes each), no false negatives,
-- and size within 2.25x of the classic optimum (below 100 items the
-- one-block minimum of 256 bits dominates)
CREATE TEMP TABLE auto AS
SELECT n, bloom_agg(x) AS f
FROM (VALUES (10), (10000), (1000000), (5000000)) v(n), LATERAL generate_series(1, n) x
GROUP BY n;
SELECT n, (bloom_info(f)).layout, (bloom_info(f)).items,
       (SELECT count(*) FROM generate_series(1, n) x WHERE NOT bloom_contains(f, x)) AS false_negatives,
       (SELECT count(*) FILTER (WHERE bloom_contains(f, x))::float8 / 1000000
          FROM generate_series(-1000000, -1) x) <= 0.0115 AS fpr_ok,
       n < 100 OR (bloom_info(f)).bits / (n * -ln(0.01) / ln(2) ^ 2) <= 2.25 AS size_ok
FROM auto ORDER BY n;
-- duplicates do not inflate the sizing
SELECT (bloom_info(bloom_agg(x % 100))).bits AS bits_for_100_distinct
FROM generate_series(1, 100000) x;

-- GROUP BY: one filter per group
SELECT g, bloom_agg(x) @> g AS has_own, bloom_agg(x) @> g + 1 AS has_next
FROM (SELECT x % 3 AS g, x FROM generate_series(0, 29, 3) x
      UNION ALL SELECT 1, 1 UNION ALL SELECT 2, 2) s GROUP BY g ORDER BY g;
SELECT count(*) AS groups_with_false_negatives FROM (
  SELECT g, bloom_agg(x) AS f, array_agg(x) AS xs
  FROM (SELECT x % 1000 AS g, x FROM generate_series(1, 100000) x) s GROUP BY g) t
WHERE EXISTS (SELECT 1 FROM unnest(xs) x WHERE NOT bloom_contains(f, x));

-- the sizing arguments come from the first row; NULL sizing is an error
SELECT bloom_agg(x, NULL, 0.01) FROM generate_series(1, 3) x;
-- window use: the final function may run many times on one state
SELECT x, bloom_contains(bloom_agg(x) OVER (ORDER BY x), 3) AS has_3
FROM generate_series(1, 5) x;
-- 1.2: sizing arguments that change from row to row are an error (22023),
-- as a changing n-gram length is; the same arguments in every row (or one
-- filter per group) are fine
SELECT bloom_agg(g, g, 0.01) FROM generate_series(1, 10) g;
SELECT bloom_agg(g, 100, g / 10.0) FROM generate_series(1, 3) g;
SELECT bloom_agg(g, 64, 3, g) FROM generate_series(1, 3) g;
SELECT counting_bloom_agg(g, g, 0.01) FROM generate_series(1, 3) g;
SELECT scalable_bloom_agg(g, 1000, g / 100.0) FROM generate_series(1, 3) g;
SELECT k, bloom_agg(g, k, 0.01) IS NOT NULL AS per_group_ok
  FROM generate_series(1, 3) g, generate_series(10, 11) k GROUP BY k ORDER BY k;
DO $$
BEGIN
	PERFORM bloom_agg(g, 100 + g, 0.01) FROM generate_series(1, 3) g;
EXCEPTION WHEN invalid_parameter_value THEN
	RAISE NOTICE 'changing capacity raised 22023';
END $$;
-- ... and so are partial aggregates sized differently when they are
-- combined (one size per partition, partitionwise: each partial state saw
-- one size), for every kind, as the serial plan of the same query is
CREATE TABLE agg_sz (k int, g int) PARTITION BY LIST (k);
CREATE TABLE agg_sz0 PARTITION OF agg_sz FOR VALUES IN (0);
CREATE TABLE agg_sz1 PARTITION OF agg_sz FOR VALUES IN (1);
INSERT INTO agg_sz SELECT g % 2, g FROM generate_series(1, 1000) g;
ANALYZE agg_sz;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT bloom_agg(g, 1000 + k, 0.01) FROM agg_sz;
SELECT bloom_agg(g, 1000 + k, 0.01) FROM agg_sz;
SELECT counting_bloom_agg(g, 1000 + k, 0.01) FROM agg_sz;
SELECT scalable_bloom_agg(g, 1000 + k, 0.01) FROM agg_sz;
SELECT bloom_contains(bloom_agg(g, 1000, 0.01), 999) AS same_sizes_combine,
       counting_bloom_contains(counting_bloom_agg(g, 1000, 0.01), 999) AS counting_same_sizes_combine,
       scalable_bloom_contains(scalable_bloom_agg(g, 1000, 0.01), 999) AS scalable_same_sizes_combine
  FROM agg_sz;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;
DROP TABLE agg_sz;
