-- Batch calls, set estimates over two filters, subset test, shrinking.

-- batch add and probes (MADD / MEXISTS)
SELECT bloom_add_all(bloom_empty(1000), ARRAY[1, 2, NULL, 3]) @> 3 AS added,
       (bloom_info(bloom_add_all(bloom_empty(1000), ARRAY[1, 2, NULL, 3]))).items AS items_skip_nulls;
SELECT bloom_add_all(bloom_empty(1000), ARRAY[1, 2, 3]) = (bloom_empty(1000) || 1 || 2 || 3) AS same_as_adds;
SELECT bloom_contains_any(f, ARRAY[7, 8, 2]) AS any_, bloom_contains_all(f, ARRAY[1, 2]) AS all_,
       bloom_contains_all(f, ARRAY[1, 9999]) AS not_all, bloom_contains_each(f, ARRAY[1, NULL, 9999, 3]) AS each
FROM (SELECT bloom_add_all(bloom_empty(1000), ARRAY[1, 2, 3]) AS f) s;
SELECT bloom_contains_any(bloom_empty(100) || 'a', ARRAY['b', 'a']) AS untyped_text_array;
SELECT bloom_contains_each(bloom_empty(100) || 1, ARRAY[]::int[]) AS empty_array;
-- an empty batch add fixes no element type: the filter still combines with
-- a filter of any type (1.1 took the array's element type)
SELECT (bloom_info(bloom_add_all(bloom_empty(1000, 0.01), '{}'::int[]))).element_family = '' AS no_family,
       (bloom_add_all(bloom_empty(1000, 0.01), '{}'::int[]) | (bloom_empty(1000, 0.01) || 'x'::text)) @> 'x'::text AS combines,
       (bloom_add_all(bloom_empty(1000, 0.01), '{NULL}'::int[]) | (bloom_empty(1000, 0.01) || 'x'::text)) @> 'x'::text AS only_nulls_combines;
SELECT bloom_contains_any(bloom_empty(100) || 1, ARRAY['x']);
-- zero false negatives over 100,000 items through the batch paths
SELECT count(*) AS batch_false_negatives
FROM (SELECT bloom_add_all(bloom_empty(100000, 0.01), array_agg(x)) AS f, array_agg(x) AS xs
      FROM generate_series(1, 100000) x) s,
     LATERAL unnest(bloom_contains_each(f, xs)) b WHERE NOT b;

-- set estimates: relative error against the exact value, sizes 10^3 .. 10^6,
-- overlaps 0 %, 1 %, 50 %, 100 % (auto-sized filters)
CREATE TEMP TABLE est AS
SELECT n, overlap,
       (SELECT bloom_agg(x) FROM generate_series(1, n) x) AS a,
       (SELECT bloom_agg(x) FROM generate_series(n - (n * overlap)::int + 1, 2 * n - (n * overlap)::int) x) AS b
FROM (VALUES (1000), (10000), (100000), (1000000)) v(n),
     (VALUES (0.0), (0.01), (0.5), (1.0)) o(overlap);
CREATE TEMP TABLE est_err AS
SELECT n, overlap,
       bloom_union_card(a, b) / (2 * n - n * overlap) - 1 AS union_err,
       (bloom_intersect_card(a, b) - n * overlap) / n AS inter_err_of_n,
       bloom_jaccard(a, b) - overlap / (2 - overlap) AS jaccard_err,
       bloom_maybe_subset(a, b) AS maybe_subset
FROM est;
SELECT n, overlap, round(union_err::numeric, 4) AS union_rel_err,
       round(inter_err_of_n::numeric, 4) AS intersect_err_over_n,
       round(jaccard_err::numeric, 4) AS jaccard_abs_err, maybe_subset
FROM est_err ORDER BY n, overlap;
SELECT bool_and(abs(union_err) < 0.03) AS union_within_3pct,
       bool_and(abs(inter_err_of_n) < 0.06) AS intersect_within_6pct_of_n,
       bool_and(abs(jaccard_err) < 0.05) AS jaccard_within_005,
       bool_and(maybe_subset = (overlap = 1.0)) AS subset_only_when_equal
FROM est_err;
-- the union behind the estimates keeps every member (1,500,000 at 10^6, 50 %)
SELECT count(*) AS union_false_negatives
FROM (SELECT a | b AS u FROM est WHERE n = 1000000 AND overlap = 0.5 OFFSET 0) s,
     generate_series(1, 1500000) x WHERE NOT bloom_contains(u, x);
SELECT bloom_maybe_subset(small, big) AS subset_smaller_size, bloom_maybe_subset(big, small) AS superset
FROM (SELECT (SELECT bloom_agg(x) FROM generate_series(1, 100) x) AS small,
             (SELECT bloom_agg(x) FROM generate_series(1, 100000) x) AS big) s;
-- across very different sizes the larger filter is folded to the smaller
-- one's size, where it may fill up: then no set can be told apart from a
-- subset and the answer is true ("maybe"), never a false "no"; filters
-- built with the same capacity and rate keep the check sharp
SELECT bloom_may_be_subset(small, big_other) AS disjoint_across_sizes,
       (bloom_info(bloom_fold(big_other, ((bloom_info(big_other)).bits / (bloom_info(small)).bits)::int))).fill_ratio > 0.99 AS folded_full,
       bloom_may_be_subset(small_sized, big_sized) AS disjoint_same_size
FROM (SELECT (SELECT bloom_agg(x) FROM generate_series(1, 100) x) AS small,
             (SELECT bloom_agg(x) FROM generate_series(200001, 300000) x) AS big_other,
             (SELECT bloom_agg(x, 100000, 0.01) FROM generate_series(1, 100) x) AS small_sized,
             (SELECT bloom_agg(x, 100000, 0.01) FROM generate_series(200001, 300000) x) AS big_sized) s;

-- shrink: the smallest fold that keeps the rate; never a false negative
CREATE TEMP TABLE sh AS SELECT bloom_agg(x, 5000000, 0.01) AS f FROM generate_series(1, 100000) x;
SELECT (bloom_info(f)).bits AS before_bits, (bloom_info(bloom_shrink(f, 0.01))).bits AS after_bits,
       (bloom_info(bloom_shrink(f, 0.01))).estimated_fpr <= 0.01 AS rate_kept
FROM sh;
SELECT count(*) AS shrink_false_negatives FROM (SELECT bloom_shrink(f, 0.01) AS s FROM sh OFFSET 0) s,
       generate_series(1, 100000) x WHERE NOT bloom_contains(s, x);
SELECT bloom_shrink(f, (bloom_info(f)).estimated_fpr / 2) = f AS unchanged_when_impossible FROM sh;
SELECT bloom_shrink(f, 0) FROM sh;
