-- Filters that say when they are full (bloomset.full_filter): a filter a
-- call returns whose estimated rate is more than 1.5 times the rate it was
-- sized for raises one WARNING per statement (or an error, or nothing).
-- The rate it was sized for is recorded (bloom_info().target_fpr).

-- 100,000 values into a filter sized for 100: answers "maybe" for everything
SELECT round((bloom_info(f)).estimated_fpr::numeric, 2) AS estimated_fpr,
       (bloom_info(f)).target_fpr
  FROM (SELECT bloom_agg(g, 100, 0.01) AS f FROM generate_series(1, 100000) g) s;
-- within capacity: no warning, and the target is what was asked for
SELECT (bloom_info(f)).estimated_fpr < 0.02 AS within_twice_target, (bloom_info(f)).target_fpr
  FROM (SELECT bloom_agg(g, 100000, 0.01) AS f FROM generate_series(1, 100000) g) s;
SELECT (bloom_info(bloom_empty(1000, 0.0005))).target_fpr AS classic_target,
       (bloom_info(bloom_empty(1000, 0.123))).target_fpr AS odd_target,
       (bloom_info(bloom_agg(g))).target_fpr AS automatic_target
  FROM generate_series(1, 10) g;
-- explicit parameters have no target (NULL) and never warn
SELECT (bloom_info(f)).target_fpr IS NULL AS explicit_has_none,
       (bloom_info(f)).fill_ratio > 0.99 AS explicit_full
  FROM (SELECT bloom_agg(g, 64, 3, 0) AS f FROM generate_series(1, 10000) g) s;

-- one WARNING per statement, not one per group or per row
SELECT count(f) AS full_groups
  FROM (SELECT g % 5 AS k, bloom_agg(g, 10, 0.01) AS f FROM generate_series(1, 50000) g GROUP BY 1) s;
-- bloom_add (once for 100 rows) and bloom_add_all on full filters
SET bloomset.full_filter = off;
CREATE TEMP TABLE ff AS SELECT bloom_agg(g, 100, 0.01) AS f FROM generate_series(1, 10000) g;
RESET bloomset.full_filter;
SELECT count(f2) AS adds FROM (SELECT f || g AS f2 FROM ff, generate_series(10000, 10099) g) s;
SELECT (bloom_info(bloom_add_all(bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(1, 20000))))).target_fpr;
-- bloom_union and bloom_union_agg: chunk filters each sized for their chunk
-- fill up when unioned; sized for the union's capacity they do not
CREATE TEMP TABLE chunks AS
SELECT c, bloom_agg(g, 1000, 0.01) AS own_size, bloom_agg(g, 10000, 0.01) AS union_size
  FROM generate_series(1, 10000) g, LATERAL (SELECT g % 10 AS c) c GROUP BY c;
SELECT round((bloom_info(bloom_union_agg(own_size))).estimated_fpr::numeric, 2) AS own_size_union_fpr FROM chunks;
SELECT (bloom_info(bloom_union_agg(union_size))).estimated_fpr < 0.02 AS union_size_ok FROM chunks;
SELECT (bloom_info(a.own_size | b.own_size | c.own_size)).target_fpr
  FROM chunks a, chunks b, chunks c WHERE a.c = 1 AND b.c = 2 AND c.c = 3;
-- a union keeps the stricter target of its inputs
-- (b: the same filter with the target 0.005 recorded, code 1957 = 0x7a5)
SELECT (bloom_info(a | b)).target_fpr AS stricter, (bloom_info(b | a)).target_fpr AS either_order,
       (bloom_info(a | bloom_empty(1000, 8, 0))).target_fpr AS with_explicit
  FROM (SELECT bloom_empty(1000, 0.01) || 1 AS a,
               regexp_replace((bloom_empty(1000, 0.01) || 2)::text, 'flags=[0-9a-f]+', 'flags=7a50000')::bloom AS b) s;

-- error mode: 22023, nothing returned; off: silent
SET bloomset.full_filter = error;
SELECT bloom_agg(g, 100, 0.01) IS NOT NULL FROM generate_series(1, 100000) g;
DO $$
BEGIN
	PERFORM bloom_agg(g, 100, 0.01) FROM generate_series(1, 100000) g;
EXCEPTION WHEN invalid_parameter_value THEN
	RAISE NOTICE 'full filter raised 22023';
END $$;
SET bloomset.full_filter = off;
SELECT bloom_agg(g, 100, 0.01) IS NOT NULL AS silent FROM generate_series(1, 100000) g;
RESET bloomset.full_filter;
SHOW bloomset.full_filter;
SET bloomset.full_filter = loud;

-- the target survives the text and binary forms and the bytea cast
SELECT (bloom_info(f::text::bloom)).target_fpr AS via_text,
       (bloom_info(bloom_from_bytea(bloom_to_bytea(f)))).target_fpr AS via_bytea
  FROM (SELECT bloom_empty(1000, 0.02) || 1 AS f) s;
-- a filter written by 1.0 has none recorded (flags=0), except when sized
-- automatically (flags=1): that is the automatic rate, 1 %
SELECT (bloom_info(regexp_replace(f::text, 'flags=[0-9a-f]+', 'flags=0')::bloom)).target_fpr IS NULL AS v10_sized,
       (bloom_info(regexp_replace(f::text, 'flags=[0-9a-f]+', 'flags=1')::bloom)).target_fpr AS v10_auto
  FROM (SELECT bloom_empty(1000, 0.5) || 1 AS f) s;
-- a recorded target above 0.5 (code 255) is corrupt
SELECT regexp_replace((bloom_empty(1000, 0.5) || 1)::text, 'flags=[0-9a-f]+', 'flags=ff0000')::bloom;

-- 1.2: every kind says so.  A counting filter over capacity (100,000 values
-- into one sized for 10,000 answers "maybe" 99.5 % of the time)
SELECT counting_bloom_agg(i, 10000, 0.01) IS NOT NULL AS counting_full FROM generate_series(1, 100000) i;
SELECT counting_bloom_agg(i, 100000, 0.01) IS NOT NULL AS counting_within FROM generate_series(1, 100000) i;
SELECT count(f2) AS counting_adds
  FROM (SELECT f || g AS f2 FROM (SELECT counting_bloom_agg(i, 100, 0.01) AS f FROM generate_series(1, 100) i) s,
        generate_series(1000, 1099) g) t;
-- a scalable filter grows and keeps its rate; the union of two built on
-- halves of the data overfills its sub-filters and says so
SELECT scalable_bloom_agg(i) IS NOT NULL AS scalable_grows FROM generate_series(1, 100000) i;
SELECT scalable_bloom_union(a, b) IS NOT NULL AS scalable_union_full
  FROM (SELECT scalable_bloom_agg(i) FILTER (WHERE i <= 50000) AS a,
               scalable_bloom_agg(i) FILTER (WHERE i > 50000) AS b FROM generate_series(1, 100000) i) s;
SELECT scalable_bloom_union(scalable_bloom_agg(i), scalable_bloom_empty()) IS NOT NULL AS scalable_union_with_empty
  FROM generate_series(1, 100000) i;
-- a union keeps the stricter target: an automatically sized filter's is 1 %
-- (800 items) against a half-full filter sized for 5 %: the union records
-- 1 % and, measured at about 2.3 %, warns
SELECT (bloom_info(u)).target_fpr, round((bloom_info(u)).estimated_fpr::numeric, 2) AS estimated_fpr
  FROM (SELECT bloom_union((SELECT bloom_agg(i) FROM generate_series(1, 800) i),
                           (SELECT bloom_agg(i, 40783, 0.05) FROM generate_series(1, 20000) i)) AS u) s;
SELECT (bloom_info(bloom_agg(i) | bloom_agg(i))).target_fpr AS auto_union_target
  FROM generate_series(1, 10) i;
-- once per statement, where two statements sent as one query string are two
SELECT bloom_agg(g, 100, 0.01) IS NOT NULL AS first FROM generate_series(1, 10000) g \; SELECT bloom_agg(g, 100, 0.01) IS NOT NULL AS second FROM generate_series(1, 10000) g;
-- and a statement run inside another (a function) is part of it
CREATE FUNCTION ff_full(n int) RETURNS bloom LANGUAGE plpgsql AS
$$ BEGIN RETURN (SELECT bloom_agg(g, 10, 0.01) FROM generate_series(1, n) g); END $$;
SELECT count(ff_full(1000 + k)) AS nested_calls FROM generate_series(1, 5) k;
DROP FUNCTION ff_full(int);
-- folding keeps the target and raises the rate: bloom_fold says so
-- (found by the SQL fuzzer's rate oracle); bloom_shrink folds only as far
-- as the rate it is given and records it as the new target
SELECT bloom_fold(bloom_agg(g, 20000, 0.001), 8) IS NOT NULL AS folded_full FROM generate_series(1, 10000) g;
SELECT bloom_fold(bloom_agg(g, 20000, 0.001), 2) IS NOT NULL AS folded_within FROM generate_series(1, 2000) g;
SELECT (bloom_info(s)).target_fpr AS shrunk_target, (bloom_info(s)).estimated_fpr <= 0.05 AS within,
       (bloom_info(s)).bits < 20000 * 16 AS smaller
  FROM (SELECT bloom_shrink(bloom_agg(g, 20000, 0.001), 0.05) AS s FROM generate_series(1, 1000) g) x;
-- a batch add over capacity says so for counting filters too (found by the
-- rate oracle: the batch path ran the bloom check on counters)
SELECT counting_bloom_add_all(counting_bloom_empty(100, 0.01), ARRAY(SELECT generate_series(1, 5000))) IS NOT NULL
       AS counting_batch_full;
SELECT scalable_bloom_add_all(scalable_bloom_empty(100, 0.01), ARRAY(SELECT generate_series(1, 5000))) IS NOT NULL
       AS scalable_batch_grows;
-- removals that leave a counting filter over capacity, and the intersection
-- aggregate of over-full filters, say so too (every function or aggregate
-- that returns a filter is checked)
SET bloomset.full_filter = off;
CREATE TEMP TABLE ff_c AS SELECT counting_bloom_agg(i, 100, 0.01) AS cf, bloom_agg(i, 100, 0.01) AS f
  FROM generate_series(1, 5000) i;
RESET bloomset.full_filter;
SELECT counting_bloom_remove(cf, 1) IS NOT NULL AS removed_still_full FROM ff_c;
SELECT bloom_intersect_agg(f) IS NOT NULL AS intersection_of_full FROM ff_c, generate_series(1, 2);
DROP TABLE ff_c;

-- The threshold is 1.5 times the target, on every kind and path: each
-- filter below is estimated at about 1.6 times its 1 % target (and warns)
-- or about 1.4 times (and does not).  The ratio printed is the estimate
-- the check compares (bloom_info / counting_bloom_info / the sum of
-- scalable_bloom_info's sub-filters).  A bloom filter sized for 1,000 at
-- 1 % (42 blocks) reaches 1.62 with 1,130 values and 1.41 with 1,090.
SELECT round(((bloom_info(f)).estimated_fpr / 0.01)::numeric, 2) AS agg_ratio
  FROM (SELECT bloom_agg(g, 1000, 0.01) AS f FROM generate_series(1, 1130) g) s;
SELECT round(((bloom_info(f)).estimated_fpr / 0.01)::numeric, 2) AS agg_ratio
  FROM (SELECT bloom_agg(g, 1000, 0.01) AS f FROM generate_series(1, 1090) g) s;
SET bloomset.full_filter = off;
CREATE TEMP TABLE ff15 AS
SELECT n, bloom_agg(g, 1000, 0.01) AS f, bloom_agg(g, 1000, 0.01) FILTER (WHERE g < n) AS but_last,
       bloom_agg(g, 1000, 0.01) FILTER (WHERE g % 2 = 0) AS evens,
       bloom_agg(g, 1000, 0.01) FILTER (WHERE g % 2 = 1) AS odds,
       bloom_agg(g, 2030, 0.01) AS twice_size
  FROM (VALUES (1130), (1090)) v(n), generate_series(1, n) g
 GROUP BY n;
CREATE TEMP TABLE ff15c AS
SELECT n, counting_bloom_agg(g, 1000, 0.01) AS c,
       counting_bloom_agg(g, 1000, 0.01) FILTER (WHERE g < n) AS but_last,
       counting_bloom_agg(g, 1000, 0.01) FILTER (WHERE g % 2 = 0) AS evens,
       counting_bloom_agg(g, 1000, 0.01) FILTER (WHERE g % 2 = 1) AS odds
  FROM (VALUES (1130), (1090)) v(n), generate_series(1, n) g
 GROUP BY n;
ALTER TABLE ff15c ADD plus_zero counting_bloom;
UPDATE ff15c SET plus_zero = c || 0;
RESET bloomset.full_filter;
-- each statement below returns one filter; the WARNING comes only for 1.6
SELECT round(((bloom_info(f || n)).estimated_fpr / 0.01)::numeric, 2) AS add_ratio FROM (SELECT n, but_last AS f FROM ff15 WHERE n = 1130) s;
SELECT round(((bloom_info(f || n)).estimated_fpr / 0.01)::numeric, 2) AS add_ratio FROM (SELECT n, but_last AS f FROM ff15 WHERE n = 1090) s;
SELECT round(((bloom_info(bloom_add_all(bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(1, n))))).estimated_fpr / 0.01)::numeric, 2) AS add_all_ratio FROM ff15 WHERE n = 1130;
SELECT round(((bloom_info(bloom_add_all(bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(1, n))))).estimated_fpr / 0.01)::numeric, 2) AS add_all_ratio FROM ff15 WHERE n = 1090;
SELECT round(((bloom_info(evens | odds)).estimated_fpr / 0.01)::numeric, 2) AS union_ratio FROM ff15 WHERE n = 1130;
SELECT round(((bloom_info(evens | odds)).estimated_fpr / 0.01)::numeric, 2) AS union_ratio FROM ff15 WHERE n = 1090;
SELECT round(((bloom_info(bloom_union_agg(x))).estimated_fpr / 0.01)::numeric, 2) AS union_agg_ratio FROM ff15, LATERAL (VALUES (evens), (odds)) v(x) WHERE n = 1130;
SELECT round(((bloom_info(bloom_union_agg(x))).estimated_fpr / 0.01)::numeric, 2) AS union_agg_ratio FROM ff15, LATERAL (VALUES (evens), (odds)) v(x) WHERE n = 1090;
SELECT round(((bloom_info(f & f)).estimated_fpr / 0.01)::numeric, 2) AS intersect_ratio FROM ff15 WHERE n = 1130;
SELECT round(((bloom_info(f & f)).estimated_fpr / 0.01)::numeric, 2) AS intersect_ratio FROM ff15 WHERE n = 1090;
SELECT round(((bloom_info(bloom_intersect_agg(f))).estimated_fpr / 0.01)::numeric, 2) AS intersect_agg_ratio FROM ff15, generate_series(1, 2) WHERE n = 1130;
SELECT round(((bloom_info(bloom_intersect_agg(f))).estimated_fpr / 0.01)::numeric, 2) AS intersect_agg_ratio FROM ff15, generate_series(1, 2) WHERE n = 1090;
-- (84 blocks for 2,030 values, folded to 42)
SELECT round(((bloom_info(bloom_fold(twice_size, 2))).estimated_fpr / 0.01)::numeric, 2) AS fold_ratio FROM ff15 WHERE n = 1130;
SELECT round(((bloom_info(bloom_fold(twice_size, 2))).estimated_fpr / 0.01)::numeric, 2) AS fold_ratio FROM ff15 WHERE n = 1090;
-- importing a filter checks it too
SELECT round(((bloom_info(bloom_from_bytea(bloom_to_bytea(f)))).estimated_fpr / 0.01)::numeric, 2) AS import_ratio FROM ff15 WHERE n = 1130;
SELECT round(((bloom_info(bloom_from_bytea(bloom_to_bytea(f)))).estimated_fpr / 0.01)::numeric, 2) AS import_ratio FROM ff15 WHERE n = 1090;
-- counting filters (blocked: 42 blocks of 256 counters for 1,000 at 1 %,
-- as bloom's bits); converted to bloom they keep their target
SELECT round(((counting_bloom_info(counting_bloom_agg(g, 1000, 0.01))).estimated_fpr / 0.01)::numeric, 2) AS counting_agg_ratio FROM generate_series(1, 1130) g;
SELECT round(((counting_bloom_info(counting_bloom_agg(g, 1000, 0.01))).estimated_fpr / 0.01)::numeric, 2) AS counting_agg_ratio FROM generate_series(1, 1090) g;
SELECT round(((counting_bloom_info(but_last || n)).estimated_fpr / 0.01)::numeric, 2) AS counting_add_ratio FROM ff15c WHERE n = 1130;
SELECT round(((counting_bloom_info(but_last || n)).estimated_fpr / 0.01)::numeric, 2) AS counting_add_ratio FROM ff15c WHERE n = 1090;
SELECT round(((counting_bloom_info(counting_bloom_add_all(counting_bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(1, n))))).estimated_fpr / 0.01)::numeric, 2) AS counting_add_all_ratio FROM ff15c WHERE n = 1130;
SELECT round(((counting_bloom_info(counting_bloom_add_all(counting_bloom_empty(1000, 0.01), ARRAY(SELECT generate_series(1, n))))).estimated_fpr / 0.01)::numeric, 2) AS counting_add_all_ratio FROM ff15c WHERE n = 1090;
SELECT round(((counting_bloom_info(counting_bloom_remove(plus_zero, 0))).estimated_fpr / 0.01)::numeric, 2) AS counting_remove_ratio FROM ff15c WHERE n = 1130;
SELECT round(((counting_bloom_info(counting_bloom_remove(plus_zero, 0))).estimated_fpr / 0.01)::numeric, 2) AS counting_remove_ratio FROM ff15c WHERE n = 1090;
SELECT round(((counting_bloom_info(counting_bloom_union(evens, odds))).estimated_fpr / 0.01)::numeric, 2) AS counting_union_ratio FROM ff15c WHERE n = 1130;
SELECT round(((counting_bloom_info(counting_bloom_union(evens, odds))).estimated_fpr / 0.01)::numeric, 2) AS counting_union_ratio FROM ff15c WHERE n = 1090;
SELECT round(((counting_bloom_info(counting_bloom_union_agg(x))).estimated_fpr / 0.01)::numeric, 2) AS counting_union_agg_ratio FROM ff15c, LATERAL (VALUES (evens), (odds)) v(x) WHERE n = 1130;
SELECT round(((counting_bloom_info(counting_bloom_union_agg(x))).estimated_fpr / 0.01)::numeric, 2) AS counting_union_agg_ratio FROM ff15c, LATERAL (VALUES (evens), (odds)) v(x) WHERE n = 1090;
SELECT (bloom_info(counting_bloom_to_bloom(c))).target_fpr AS converted_target,
       round(((bloom_info(counting_bloom_to_bloom(c))).estimated_fpr / 0.01)::numeric, 2) AS converted_ratio FROM ff15c WHERE n = 1130;
SELECT round(((bloom_info(counting_bloom_to_bloom(c))).estimated_fpr / 0.01)::numeric, 2) AS converted_ratio FROM ff15c WHERE n = 1090;
-- scalable filters grow instead of filling; the union of two built on
-- halves of the data overfills the first sub-filter: 1.60 with 1,335
-- values, 1.41 with 1,290 (the rate: the sum of the sub-filters')
SELECT round((sum(i.estimated_fpr) / 0.01)::numeric, 2) AS scalable_union_ratio
  FROM (SELECT scalable_bloom_union(scalable_bloom_agg(g) FILTER (WHERE g % 2 = 0),
                                    scalable_bloom_agg(g) FILTER (WHERE g % 2 = 1)) AS u
          FROM generate_series(1, 1335) g) s, scalable_bloom_info(u) i;
SELECT round((sum(i.estimated_fpr) / 0.01)::numeric, 2) AS scalable_union_ratio
  FROM (SELECT scalable_bloom_union(scalable_bloom_agg(g) FILTER (WHERE g % 2 = 0),
                                    scalable_bloom_agg(g) FILTER (WHERE g % 2 = 1)) AS u
          FROM generate_series(1, 1290) g) s, scalable_bloom_info(u) i;
SELECT round((sum(i.estimated_fpr) / 0.01)::numeric, 2) AS scalable_union_agg_ratio
  FROM (SELECT scalable_bloom_union_agg(x) AS u
          FROM (SELECT scalable_bloom_agg(g) AS x FROM generate_series(1, 1335) g GROUP BY g % 2) h) s,
       scalable_bloom_info(u) i;
SELECT round((sum(i.estimated_fpr) / 0.01)::numeric, 2) AS scalable_union_agg_ratio
  FROM (SELECT scalable_bloom_union_agg(x) AS u
          FROM (SELECT scalable_bloom_agg(g) AS x FROM generate_series(1, 1290) g GROUP BY g % 2) h) s,
       scalable_bloom_info(u) i;
DROP TABLE ff15, ff15c;
-- the union that 2 let pass: automatically sized filters of 100,000 and
-- of 1,000,000 other keys answer "maybe" for 1.75 % of non-members
-- (measured over 200,000), at a 1 % target
CREATE TEMP TABLE ff_big AS
SELECT bloom_union((SELECT bloom_agg(x) FROM generate_series(1, 100000) x),
                   (SELECT bloom_agg(x) FROM generate_series(100001, 1100000) x)) AS u;
SELECT round((bloom_info(u)).estimated_fpr::numeric, 4) AS estimated_fpr,
       round((SELECT count(*) FILTER (WHERE bloom_contains(u, x))::float8 / 200000
                FROM generate_series(-200000, -1) x)::numeric, 4) AS measured_fpr
  FROM ff_big;
DROP TABLE ff_big;
