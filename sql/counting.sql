-- counting_bloom: add, remove, contains, aggregate, union, conversion.

SELECT counting_bloom_empty(10);
SELECT (counting_bloom_empty(100) || 'abc') @> 'abc' AS added,
       ((counting_bloom_empty(100) || 'abc') - 'abc'::text) @> 'abc' AS removed,
       ((counting_bloom_empty(100) || 5 || 5) - 5) @> 5 AS added_twice_removed_once;
-- note: binary - binds tighter than ||, so write (f || x) - y
SELECT * FROM counting_bloom_info(counting_bloom_empty(1000) || 1 || 2);
-- the function forms of the operators
SELECT counting_bloom_contains(counting_bloom_add(counting_bloom_empty(100), 7), 7) AS fn_add_contains,
       counting_bloom_contains(counting_bloom_union(counting_bloom_empty(100) || 1, counting_bloom_empty(100) || 2), 2) AS fn_union;

-- 100,000 items, then a disjoint half removed: zero false negatives for the
-- other half, and the removed half is mostly gone
CREATE TEMP TABLE cb AS SELECT counting_bloom_agg(x, 100000, 0.01) AS f FROM generate_series(1, 100000) x;
UPDATE cb SET f = counting_bloom_remove_all(f, (SELECT array_agg(x) FROM generate_series(1, 100000, 2) x));
SELECT (SELECT count(*) FROM generate_series(2, 100000, 2) x WHERE NOT f @> x) AS false_negatives_after_removal,
       (SELECT count(*) FILTER (WHERE f @> x)::float8 / 50000 FROM generate_series(1, 100000, 2) x) < 0.02 AS removed_mostly_gone,
       (SELECT count(*) FILTER (WHERE f @> x)::float8 / 100000 FROM generate_series(-100000, -1) x) < 0.015 AS fpr_ok,
       (counting_bloom_info(f)).items
FROM cb;

-- removing something never added is an error and changes nothing
SELECT (counting_bloom_empty(100) || 1) - 2;
SELECT counting_bloom_remove(counting_bloom_empty(100), 1);

-- saturation: a counter at 15 is never decremented, so no false negatives
CREATE TEMP TABLE sat AS SELECT counting_bloom_agg(x % 3, 64, 0.5) AS f FROM generate_series(1, 100) x;
SELECT saturated_counters > 0 AS has_saturated FROM sat, counting_bloom_info(f);
SELECT (f - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0 - 0) @> 1 AS others_kept
FROM sat;

-- union adds counters; conversion to bloom maps exactly onto a classic filter
SELECT (a | b) @> 1 AS has_a, (a | b) @> 2 AS has_b, ((a | b) - 1) @> 2 AS still_b
FROM (SELECT counting_bloom_empty(1000) || 1 AS a, counting_bloom_empty(1000) || 2 AS b) s;
SELECT count(*) AS bloom_false_negatives
FROM (SELECT counting_bloom_to_bloom(f) AS bf FROM cb OFFSET 0) s, generate_series(2, 100000, 2) x
WHERE NOT bloom_contains(bf, x);
SELECT (f::bloom = counting_bloom_to_bloom(f)) AS cast_equals_function, (bloom_info(f::bloom)).layout
FROM cb;
SELECT (counting_bloom_empty(1000) || 1) | (counting_bloom_empty(2000) || 1);
SELECT (counting_bloom_empty(1000) || 1) | (counting_bloom_empty(1000) || 'a');

-- parallel aggregation gives the same filter
CREATE TABLE cpar AS SELECT x FROM generate_series(1, 200000) x;
ANALYZE cpar;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT counting_bloom_agg(x, 200000, 0.01) FROM cpar;
CREATE TEMP TABLE cpar_f AS SELECT counting_bloom_agg(x, 200000, 0.01) AS f FROM cpar;
RESET max_parallel_workers_per_gather;
SELECT f::text = (SELECT counting_bloom_agg(x, 200000, 0.01) FROM cpar)::text AS parallel_same FROM cpar_f;

-- counting_bloom_agg(x): sized automatically for the distinct values at 1 %;
-- a value added twice needs two removals; parallel = serial
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT counting_bloom_agg(x % 50000) FROM cpar;
CREATE TEMP TABLE cauto_par AS SELECT counting_bloom_agg(x % 50000) AS f FROM cpar;
RESET max_parallel_workers_per_gather;
CREATE TEMP TABLE cauto AS SELECT counting_bloom_agg(x % 50000) AS f FROM cpar;
SELECT f::text = (SELECT f::text FROM cauto_par) AS auto_parallel_same,
       (counting_bloom_info(f)).counters = (counting_bloom_info(counting_bloom_empty(50000, 0.01))).counters AS sized_for_distinct,
       (counting_bloom_info(f)).items AS items,
       (SELECT count(*) FROM generate_series(0, 49999) g WHERE NOT f @> g) AS false_negatives,
       (SELECT count(*) FROM generate_series(1000000, 1099999) g WHERE f @> g) BETWEEN 500 AND 1500 AS rate_near_1pct,
       (f - 7 - 7 - 7) @> 7 AS three_removals_leave_the_fourth_copy
  FROM cauto;
SELECT counting_bloom_agg(x) IS NOT NULL AS auto_empty_input FROM (SELECT 1 WHERE false) s(x);
SELECT counting_bloom_agg(x) FROM generate_series(1, 4194305) x;
DROP TABLE cpar, cauto, cauto_par;

-- round trips; the two types do not accept each other's values
SELECT f::text::counting_bloom::text = f::text AS text_roundtrip FROM cb;
SELECT counting_bloom_agg(x, 0, 0.01) FROM generate_series(1, 3) x;
SELECT (counting_bloom_empty(10) || 1)::text::bloom;
SELECT (bloom_empty(10) || 1)::text::counting_bloom;
SELECT counting_bloom_agg(x, 10, 0.01) IS NOT NULL AS empty_input_gives_filter FROM (SELECT 1 WHERE false) s(x);
