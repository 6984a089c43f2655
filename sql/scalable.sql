-- scalable_bloom: grows with the data; the rate stays under the target
-- after growing 1000x; union; per-sub-filter info; round trips.

SELECT * FROM scalable_bloom_info(scalable_bloom_empty(100, 0.01));
SELECT (scalable_bloom_empty(100) || 'a' || 'b') @> 'a' AS has_a,
       (scalable_bloom_empty(100) || 'a' || 'b') @> 'c' AS has_c,
       (scalable_bloom_empty(100) || NULL::int) IS NOT NULL AS add_null_keeps,
       scalable_bloom_contains(scalable_bloom_add(scalable_bloom_empty(100), 5), 5) AS fn_add_contains;

-- grow 1000x: first sub-filter for 1,000 items, then 1,000,000 items
CREATE TEMP TABLE sc AS SELECT scalable_bloom_agg(x, 1000, 0.01) AS f FROM generate_series(1, 1000000) x;
SELECT sub, layout, capacity, items, target_fpr FROM sc, scalable_bloom_info(f);
SELECT (SELECT count(*) FROM generate_series(1, 1000000) x WHERE NOT f @> x) AS false_negatives,
       (SELECT count(*) FILTER (WHERE f @> x)::float8 / 1000000 FROM generate_series(-1000000, -1) x) AS measured_fpr_after_1000x,
       (SELECT count(*) FILTER (WHERE f @> x)::float8 / 1000000 FROM generate_series(-1000000, -1) x) <= 0.01 AS within_target,
       abs(scalable_bloom_estimate_card(f) - 1000000) / 1000000 < 0.03 AS card_within_3pct
FROM sc;
-- duplicates do not use up capacity
SELECT max(sub) AS subfilters FROM scalable_bloom_info((SELECT scalable_bloom_agg(x % 500, 1000, 0.01) FROM generate_series(1, 100000) x));

-- the two growth rules: a filter of scheme 4 counts a value against the
-- newest sub-filter when it sets a bit that sub-filter lacks; a filter of
-- scheme 2 (built before 1.5) keeps its rule, a value uses capacity unless
-- some sub-filter may hold it.  A stream that repeats its first 2,000 values
-- after 20,000 new ones: only the scheme-4 filter counts the repeats again.
CREATE TEMP TABLE grow AS
SELECT s AS scheme, (SELECT bloom_add_all(bloom_with_scheme(scalable_bloom_empty(1000, 0.01), s),
                            ARRAY(SELECT x FROM generate_series(1, 20000) x UNION ALL SELECT x FROM generate_series(1, 2000) x)))
                   AS f
FROM unnest(ARRAY[2, 4]) s;
SELECT scheme, (SELECT sum(items) FROM scalable_bloom_info(f)) BETWEEN 19800 AND 20000 AS counts_distinct_values,
       (SELECT sum(items) FROM scalable_bloom_info(f)) > 21000 AS counts_repeats,
       (SELECT count(*) FROM generate_series(1, 20000) x WHERE NOT f @> x) AS false_negatives,
       (SELECT count(*) FROM generate_series(100001, 200000) x WHERE f @> x) <= 1000 AS within_target
FROM grow ORDER BY scheme;

-- union of two scalable filters (sub-filter-wise OR), no false negatives
CREATE TEMP TABLE su AS SELECT
  (SELECT scalable_bloom_agg(x, 1000, 0.01) FROM generate_series(1, 50000) x) AS a,
  (SELECT scalable_bloom_agg(x, 1000, 0.01) FROM generate_series(40001, 60000) x) AS b;
SELECT count(*) AS union_false_negatives FROM (SELECT a | b AS u FROM su OFFSET 0) s, generate_series(1, 60000) x
WHERE NOT u @> x;
SELECT (scalable_bloom_empty(100, 0.01) || 1) | (scalable_bloom_empty(200, 0.01) || 1);
SELECT (scalable_bloom_empty(100) || 1) | (scalable_bloom_empty(100) || 'x');

-- parallel aggregation: same answers as serial
CREATE TABLE spar AS SELECT x FROM generate_series(1, 200000) x;
ANALYZE spar;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT scalable_bloom_agg(x, 1000, 0.01) FROM spar;
CREATE TEMP TABLE spar_f AS SELECT scalable_bloom_agg(x, 1000, 0.01) AS f FROM spar;
RESET max_parallel_workers_per_gather;
SELECT count(*) AS parallel_false_negatives FROM spar_f, generate_series(1, 200000) x WHERE NOT f @> x;
DROP TABLE spar;

-- text and binary round trips; bad input
SELECT a::text::scalable_bloom::text = a::text AS text_roundtrip FROM su;
SELECT format('/tmp/bloomset_regress_scalable_%s.bin', current_setting('port')) AS scalablefile \gset
COPY (SELECT a FROM su) TO :'scalablefile' WITH (FORMAT binary);
CREATE TEMP TABLE su2 (f scalable_bloom);
COPY su2 FROM :'scalablefile' WITH (FORMAT binary);
SELECT su2.f::text = su.a::text AS binary_roundtrip FROM su, su2;
SELECT (bloom_empty(10) || 1)::text::scalable_bloom;
SELECT replace((scalable_bloom_empty(100) || 1)::text, 'k=1 ', 'k=2 ')::scalable_bloom;
SELECT scalable_bloom_empty(0);
SELECT scalable_bloom_empty(100, 0.01, 1);
SELECT (scalable_bloom_empty(100) || 1)::text::bloom;

-- probes of different filters in turn (with as many stages, of other sizes):
-- the stages each probe finds are the
-- filter's own, whether it is at the address of the filter probed before
-- (a fresh value per row, in memory reset between rows) or not (two
-- stored filters alternating)
CREATE TEMP TABLE salt AS
  SELECT 1 AS k, scalable_bloom_agg(x, 100, 0.01) AS f FROM generate_series(1, 2000) x
  UNION ALL
  SELECT 2, scalable_bloom_agg(x, 200, 0.05) FROM generate_series(1, 5000) x;
SELECT k, (SELECT count(*) FROM scalable_bloom_info(f)) AS stages FROM salt ORDER BY k;
SELECT count(*) AS alternate_false_negatives
FROM generate_series(1, 2000) v, salt
WHERE NOT scalable_bloom_contains(salt.f, v);
SELECT count(*) FILTER (WHERE scalable_bloom_contains(salt.f, v)) AS alternate_hits
FROM generate_series(5001, 15000) v, salt;
SELECT count(*) AS fresh_value_false_negatives
FROM generate_series(1, 4000) v
WHERE NOT scalable_bloom_contains(
  scalable_bloom_add((SELECT f FROM salt WHERE k = 1 + v % 2), v + 100000),
  CASE WHEN v % 4 < 2 THEN v + 100000 ELSE v % 2000 + 1 END);
DROP TABLE salt;

-- a probe finds the stages of a filter the probe cache keeps once (the plan
-- constant, a cached stored filter) and keeps them beside it: answers after
-- adds and unions, with stored filters of different stage counts probed in
-- turn, kept, evicted and read again (a cache of one filter: each change of
-- filter frees the last one and its stages)
CREATE TEMP TABLE smemo AS
  SELECT k, scalable_bloom_agg(x, 100, 0.01) AS f
    FROM generate_series(1, 3) k, generate_series(1, 3000 * k) x GROUP BY k;
UPDATE smemo SET f = scalable_bloom_add(f, -k) WHERE k = 2;
SET bloomset.full_filter = off;	-- the union overfills the first stage
UPDATE smemo SET f = scalable_bloom_union(f, (SELECT scalable_bloom_agg(x, 100, 0.01)
                                               FROM generate_series(20001, 20050) x))
 WHERE k = 3;
RESET bloomset.full_filter;
SELECT k, (SELECT count(*) FROM scalable_bloom_info(f)) AS stages,
       pg_column_size(f) > 2048 AS over_2kb
  FROM smemo ORDER BY k;
SELECT count(*) AS cached_false_negatives
  FROM smemo, generate_series(1, 9000) v
 WHERE v <= 3000 * k AND NOT scalable_bloom_contains(f, v);
SET bloomset.probe_cache_size = '20kB';	-- holds one of the filters at most
SELECT count(*) AS evicted_false_negatives
  FROM (SELECT v, 1 + v % 3 AS k FROM generate_series(1, 9000) v) p JOIN smemo USING (k)
 WHERE v <= 3000 * k AND NOT scalable_bloom_contains(f, v);
RESET bloomset.probe_cache_size;
SELECT count(*) AS added_and_union_false_negatives
  FROM smemo, (SELECT -2 AS v UNION ALL SELECT generate_series(20001, 20050)) p
 WHERE (k = 2 AND v = -2 OR k = 3 AND v > 0) AND NOT scalable_bloom_contains(f, v);
SELECT count(*) AS constant_false_negatives
  FROM generate_series(1, 9000) v
 WHERE NOT scalable_bloom_contains((SELECT f FROM smemo WHERE k = 3), v);
DO $$
DECLARE
	n bigint;
	sf scalable_bloom;
BEGIN
	-- a variable holds the value detoasted, and a parameter of EXECUTE
	-- ... USING becomes a plan constant
	SELECT f INTO sf FROM smemo WHERE k = 3;
	EXECUTE 'SELECT count(*) FROM generate_series(1, 9000) v WHERE NOT scalable_bloom_contains($1, v)'
		INTO n USING sf;
	RAISE NOTICE 'plan constant false negatives: %', n;
END $$;
DROP TABLE smemo;
