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

-- the blocked counting layout ("blockcounting"): new filters at rates from
-- 0.0005 up get it (8 counters in one block of 256), lower rates keep the
-- counting layout; bloom_params sizes both
SELECT layout, hashes, bits FROM bloom_params(100000, 0.01, 'blockcounting');
SELECT layout, hashes, bits FROM bloom_params(100000, 0.01, 'counting');
-- "counting" advises what counting_bloom_empty builds for that capacity
-- and rate, whichever of the two layouts that is
SELECT c.rate, p.layout, p.bytes = i.bytes AS same_bytes, p.hashes = i.hashes AS same_hashes
FROM (VALUES (0.01), (0.001), (0.0001)) c(rate),
     LATERAL bloom_params(1000000, c.rate, 'counting') p,
     LATERAL counting_bloom_info(counting_bloom_empty(1000000, c.rate)) i;
SELECT split_part(counting_bloom_empty(1000, 0.01)::text, ' ', 2) AS at_1pct,
       split_part(counting_bloom_empty(1000, 0.001)::text, ' ', 2) AS at_01pct,
       split_part(counting_bloom_empty(1000, 0.0001)::text, ' ', 2) AS at_001pct;
CREATE TABLE cblk AS
SELECT counting_bloom_agg(g, 100000, 0.01) AS f1, counting_bloom_agg(g, 100000, 0.001) AS f01
FROM generate_series(1, 100000) g;
SELECT split_part(f1::text, ' ', 2) AS layout1, split_part(f01::text, ' ', 2) AS layout01 FROM cblk;
-- no false negatives on 100k keys; the measured rate within the promise
-- (at most 1.5 times it plus 3 standard errors, as rate_check)
SELECT (SELECT count(*) FROM generate_series(1, 100000) g WHERE NOT f1 @> g) AS false_negatives_1pct,
       (SELECT count(*) FROM generate_series(1, 100000) g WHERE NOT f01 @> g) AS false_negatives_01pct
FROM cblk;
SELECT (SELECT count(*) FROM generate_series(1000001, 1200000) g WHERE f1 @> g)::float8 / 200000
         <= 1.5 * 0.01 + 3 * sqrt(0.01 * 0.99 / 200000) AS rate_1pct_within_bound,
       (SELECT count(*) FROM generate_series(1000001, 1600000) g WHERE f01 @> g)::float8 / 600000
         <= 1.5 * 0.001 + 3 * sqrt(0.001 * 0.999 / 600000) AS rate_01pct_within_bound,
       (counting_bloom_info(f1)).estimated_fpr BETWEEN 0.005 AND 0.0101 AS info_rate_near_target,
       counting_bloom_estimate_card(f1) BETWEEN 97000 AND 103000 AS estimate_near_100k
FROM cblk;
-- the batched probes and the single probe agree
SELECT counting_bloom_contains_all(f1, ARRAY(SELECT generate_series(1, 1000))) AS all_in,
       (SELECT count(*) FROM unnest(counting_bloom_contains_each(f1, ARRAY(SELECT generate_series(1000001, 1010000)))) e
         WHERE e) = (SELECT count(*) FROM generate_series(1000001, 1010000) g WHERE f1 @> g) AS each_matches_single
FROM cblk;
-- removal: every removed key was added, the others stay (no false negatives)
CREATE TABLE cblk_rm AS
SELECT counting_bloom_remove_all(f1, ARRAY(SELECT generate_series(1, 100000, 2))) AS f FROM cblk;
SELECT (SELECT count(*) FROM generate_series(2, 100000, 2) g WHERE NOT f @> g) AS false_negatives_after_removal,
       (SELECT count(*) FROM generate_series(1, 100000, 2) g WHERE f @> g) < 5000 AS removed_mostly_gone,
       (counting_bloom_info(f)).items AS items
FROM cblk_rm;
-- saturation at 15 as the counting layout: 20 copies, 20 removals, still in
WITH s AS (SELECT counting_bloom_agg(x, 1000, 0.01) AS f FROM (SELECT 42 FROM generate_series(1, 20)) t(x))
SELECT (counting_bloom_info(f)).saturated_counters AS saturated,
       (SELECT counting_bloom_remove_all(f, array_fill(42, ARRAY[20]))) @> 42 AS saturated_stays
FROM s;
SELECT counting_bloom_remove(counting_bloom_empty(1000, 0.01) || 1, 2);
-- the cast maps onto the blocked bloom filter of the non-zero counters:
-- every key of the counting filter is in it, and it is the same filter as
-- counting_bloom_to_bloom's
CREATE TABLE cblk_b AS SELECT f1::bloom AS b, counting_bloom_to_bloom(f1) AS b2 FROM cblk;
SELECT (bloom_info(b)).layout, b = b2 AS cast_equals_function,
       (SELECT count(*) FROM generate_series(1, 100000) g WHERE NOT b @> g) AS bloom_false_negatives,
       b = (SELECT bloom_agg(g, 100000, 0.01) FROM generate_series(1, 100000) g) AS same_bits_as_bloom_agg
FROM cblk_b;
-- union of blocked filters adds counters; union with the counting layout is
-- an error with a hint, both ways; = is false across layouts
SELECT (counting_bloom_info(counting_bloom_union(f1, f1))).items AS union_items,
       counting_bloom_union(f1, counting_bloom_empty(100000, 0.01)) = f1 AS empty_is_identity
FROM cblk;
CREATE TABLE cblk_old AS SELECT counting_bloom_agg(g, 100000, 0.0004) AS o FROM generate_series(1, 1000) g;
SELECT counting_bloom_union(f1, o) FROM cblk, cblk_old;
SELECT counting_bloom_union(o, f1) FROM cblk, cblk_old;
SELECT counting_bloom_union_agg(f) FROM (SELECT f1 FROM cblk UNION ALL SELECT o FROM cblk_old) s(f);
SELECT f1 = o AS equal_across_layouts FROM cblk, cblk_old;
SELECT counting_bloom_union(counting_bloom_empty(1000, 0.01) || 1, counting_bloom_empty(2000, 0.01) || 1);
-- stored values of the layout are validated as strictly as the others'
SELECT 'bloom:v1 layout=blockcounting scheme=2 k=7 seed=0 bits=1024 items=0 flags=0 coll=0 family= hex='::counting_bloom;
SELECT 'bloom:v1 layout=blockcounting scheme=2 k=8 seed=0 bits=1280 items=0 flags=0 coll=0 family= hex='::counting_bloom;
SELECT (counting_bloom_empty(10, 0.01) || 1)::text::bloom;
SELECT (bloom_empty(10, 0.01) || 1)::text::counting_bloom;
SELECT f1::text::counting_bloom = f1 AS text_roundtrip, counting_bloom_from_bytea(f1::bytea) = f1 AS binary_roundtrip FROM cblk;
DROP TABLE cblk, cblk_rm, cblk_b, cblk_old;

-- a database on 1.3 keeps building the counting layout; its filters keep
-- their layout and answers after the update, and combine with one another,
-- not with the blocked filters the updated database builds
\set SHOW_CONTEXT never
SET client_min_messages = warning;
DROP EXTENSION bloomset CASCADE;
CREATE EXTENSION bloomset VERSION '1.3';
CREATE TABLE c13 AS
SELECT counting_bloom_agg(g, 10000, 0.01) AS f, counting_bloom_agg(g + 5000, 10000, 0.01) AS f2
FROM generate_series(1, 5000) g;
CREATE TABLE c13_text AS SELECT f::text AS t FROM c13;
SELECT split_part(f::text, ' ', 2) AS layout_13 FROM c13;
ALTER EXTENSION bloomset UPDATE;
\c
SET client_min_messages = warning;
SELECT split_part(f::text, ' ', 2) AS layout_after_update, f::text = (SELECT t FROM c13_text) AS unchanged,
       (SELECT count(*) FROM generate_series(1, 5000) g WHERE NOT f @> g) AS false_negatives,
       (SELECT count(*) FROM generate_series(1, 10000) g WHERE NOT u @> g) AS union_false_negatives,
       (SELECT count(*) FROM generate_series(2, 5000, 2) g WHERE NOT r @> g) AS removal_false_negatives,
       (bloom_info(f::bloom)).layout AS cast_layout
FROM c13, LATERAL (SELECT counting_bloom_union(f, f2) AS u,
                          counting_bloom_remove_all(f, ARRAY(SELECT generate_series(1, 5000, 2))) AS r) x;
SELECT split_part(counting_bloom_agg(g, 10000, 0.01)::text, ' ', 2) AS layout_new FROM generate_series(1, 10) g;
SELECT counting_bloom_union(f, (SELECT counting_bloom_agg(g, 10000, 0.01) FROM generate_series(1, 10) g)) FROM c13;
DROP TABLE c13, c13_text;
