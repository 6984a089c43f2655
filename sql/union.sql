-- Union and intersection: functions, operators, aggregates; combining
-- different sizes by folding; mismatches are errors naming the mismatch.

CREATE TEMP TABLE parts AS
SELECT p, bloom_agg(x, 100000, 0.01) AS f, bloom_agg(x) AS auto_f
FROM (SELECT x % 4 AS p, x FROM generate_series(1, 100000) x) s GROUP BY p;

-- union of the parts equals the filter of the whole
SELECT bloom_union_agg(f) = (SELECT bloom_agg(x, 100000, 0.01) FROM generate_series(1, 100000) x)
  AS union_agg_equals_whole FROM parts;
SELECT (SELECT f FROM parts WHERE p = 0) | (SELECT f FROM parts WHERE p = 1) =
       bloom_union((SELECT f FROM parts WHERE p = 1), (SELECT f FROM parts WHERE p = 0)) AS operator_commutes;
SELECT (bloom_info(bloom_union_agg(f))).items FROM parts;

-- automatically sized filters of different sizes still combine, with no
-- false negatives, and bloom_info reports the real rate
SELECT count(DISTINCT (bloom_info(auto_f)).bits) AS distinct_sizes FROM parts;
CREATE TEMP TABLE mixed AS SELECT
  (SELECT bloom_agg(x) FROM generate_series(1, 1000) x) AS small,
  (SELECT bloom_agg(x) FROM generate_series(1001, 200000) x) AS big;
ALTER TABLE mixed ADD COLUMN u bloom;
UPDATE mixed SET u = small | big;
SELECT (bloom_info(small)).bits AS small_bits, (bloom_info(big)).bits AS big_bits,
       (bloom_info(u)).bits AS union_bits FROM mixed;
SELECT count(*) AS union_false_negatives FROM mixed, generate_series(1, 200000) x
WHERE NOT bloom_contains(u, x);
SELECT count(*) AS union_agg_false_negatives
FROM (SELECT bloom_union_agg(f) AS u FROM (SELECT small AS f FROM mixed UNION ALL SELECT big FROM mixed) s) s,
     generate_series(1, 200000) x WHERE NOT bloom_contains(u, x);
SELECT abs((bloom_info(u)).estimated_fpr -
           (SELECT count(*) FILTER (WHERE bloom_contains(u, x))::float8 / 200000
              FROM generate_series(-200000, -1) x)) < 0.003 AS reported_rate_is_real
FROM mixed;

-- intersection: a superset filter of the intersection
CREATE TEMP TABLE ab AS SELECT
  (SELECT bloom_agg(x, 10000, 0.01) FROM generate_series(1, 6000) x) AS a,
  (SELECT bloom_agg(x, 10000, 0.01) FROM generate_series(4001, 10000) x) AS b;
ALTER TABLE ab ADD COLUMN i bloom;
UPDATE ab SET i = a & b;
SELECT count(*) AS intersect_false_negatives FROM ab, generate_series(4001, 6000) x
WHERE NOT bloom_contains(i, x);
SELECT bloom_intersect(a, b) = (a & b) AS function_equals_operator,
       (SELECT bloom_intersect_agg(f) FROM (SELECT a AS f FROM ab UNION ALL SELECT b FROM ab) s) = (a & b) AS agg_equals
FROM ab;
SELECT count(*) FILTER (WHERE bloom_contains(i, x)) < 400 AS mostly_excludes_one_sided
FROM ab, generate_series(1, 4000) x;
SELECT bloom_intersect_agg(f) IS NULL AS intersect_of_nothing_is_null FROM (SELECT NULL::bloom WHERE false) s(f);
SELECT bloom_union_agg(f) IS NOT NULL AS union_of_nothing_is_empty FROM (SELECT NULL::bloom WHERE false) s(f);

-- an empty filter is the identity of union, whatever its shape
SELECT (bloom_empty(5, 0.1) | a) = a AS empty_is_identity FROM ab;

-- folding: never a false negative; folding an auto filter equals building
-- it at the smaller size
SELECT count(*) AS fold_false_negatives
FROM (SELECT bloom_fold(big, 8) AS folded FROM mixed OFFSET 0) m, generate_series(1001, 200000) x
WHERE NOT bloom_contains(folded, x);
SELECT bloom_fold(big, 4) = (SELECT bloom_fold(bloom_agg(x), 4) FROM generate_series(1001, 200000) x) AS fold_deterministic,
       (bloom_info(bloom_fold(big, 4))).bits * 4 = (bloom_info(big)).bits AS fold_size
FROM mixed;
SELECT bloom_fold(bloom_empty(64, 3, 0), 3);
SELECT bloom_fold(bloom_empty(64, 3, 0), 0);

-- mismatches: the detail names what differs
SELECT (bloom_empty(64, 3, 0) || 1) | (bloom_empty(64, 4, 0) || 1);
SELECT (bloom_empty(64, 3, 0) || 1) | (bloom_empty(64, 3, 1) || 1);
SELECT (bloom_empty(64, 3, 0) || 1) | (bloom_empty(72, 3, 0) || 1);
SELECT (bloom_empty(64, 3, 0) || 1) & (bloom_empty(1000) || 1);
SELECT (bloom_empty(1000) || 1) | (bloom_empty(1000) || 'a');
SELECT bloom_union_agg(f) FROM (VALUES (bloom_empty(64, 3, 0) || 1), (bloom_empty(64, 3, 9) || 1)) v(f);

-- equality compares parameters and bits, not the item counter
SELECT (bloom_empty(100) || 1 || 1) = (bloom_empty(100) || 1) AS same_bits_equal,
       (bloom_empty(100) || 1) <> (bloom_empty(100) || 2) AS different_bits,
       bloom_empty(100) <> bloom_empty(100000) AS different_sizes,
       bloom_eq(bloom_empty(100) || 1, bloom_empty(100) || 1) AS eq_function,
       bloom_ne(bloom_empty(100) || 1, bloom_empty(100) || 1) AS ne_function;
