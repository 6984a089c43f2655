-- The same verbs for the three kinds (1.2): batch add and probes, the
-- cardinality estimate, union and the union aggregate, for counting_bloom
-- and scalable_bloom as for bloom.  Each batch call agrees with the
-- one-value calls; an empty batch add leaves an empty filter that combines
-- with anything.

-- batch add: the same filter as one add per element (NULLs skipped)
SELECT counting_bloom_add_all(counting_bloom_empty(1000), ARRAY[1, 2, NULL, 3])::text
     = (counting_bloom_empty(1000) || 1 || 2 || 3)::text AS counting_same_as_adds,
       scalable_bloom_add_all(scalable_bloom_empty(), ARRAY[1, 2, NULL, 3])::text
     = (scalable_bloom_empty() || 1 || 2 || 3)::text AS scalable_same_as_adds,
       (counting_bloom_info(counting_bloom_add_all(counting_bloom_empty(1000), ARRAY[1, 2, NULL, 3]))).items AS counting_items;
-- a scalable filter grows through a batch add, with no false negative
SELECT count(*) AS sub_filters, sum(items) AS items
  FROM scalable_bloom_info(scalable_bloom_add_all(scalable_bloom_empty(100), ARRAY(SELECT generate_series(1, 5000))));
SELECT count(*) AS scalable_batch_false_negatives
  FROM (SELECT scalable_bloom_add_all(scalable_bloom_empty(100), ARRAY(SELECT generate_series(1, 5000))) AS f) s,
       generate_series(1, 5000) x WHERE NOT f @> x;
-- batch probes
SELECT counting_bloom_contains_any(f, ARRAY[7777, 8888, 2]) AS any_, counting_bloom_contains_all(f, ARRAY[1, 2]) AS all_,
       counting_bloom_contains_all(f, ARRAY[1, 9999]) AS not_all,
       counting_bloom_contains_each(f, ARRAY[1, NULL, 9999, 3]) AS each
  FROM (SELECT counting_bloom_add_all(counting_bloom_empty(1000), ARRAY[1, 2, 3]) AS f) s;
SELECT scalable_bloom_contains_any(f, ARRAY[7777, 8888, 2]) AS any_, scalable_bloom_contains_all(f, ARRAY[1, 2]) AS all_,
       scalable_bloom_contains_all(f, ARRAY[1, 9999]) AS not_all,
       scalable_bloom_contains_each(f, ARRAY[1, NULL, 9999, 3]) AS each
  FROM (SELECT scalable_bloom_add_all(scalable_bloom_empty(), ARRAY[1, 2, 3]) AS f) s;
-- batch probes agree with one-value probes (members and non-members)
SELECT count(*) FILTER (WHERE cf @> x <> (counting_bloom_contains_each(cf, ARRAY[x]))[1]) AS counting_disagree,
       count(*) FILTER (WHERE sf @> x <> (scalable_bloom_contains_each(sf, ARRAY[x]))[1]) AS scalable_disagree
  FROM (SELECT counting_bloom_agg(g, 2000, 0.01) AS cf, scalable_bloom_agg(g, 100, 0.01) AS sf
          FROM generate_series(1, 2000) g) s, generate_series(1, 4000) x;
-- stored filters (out of line: read in slices where the kind allows):
-- batch probes agree with one-value probes
CREATE TABLE vb_stored AS SELECT counting_bloom_agg(g, 200000, 0.01) AS cf, scalable_bloom_agg(g, 20000, 0.01) AS sf
  FROM generate_series(1, 100000) g;
SELECT count(*) FILTER (WHERE e.c <> (SELECT cf @> k FROM vb_stored)) AS counting_stored_disagree,
       count(*) FILTER (WHERE e.s <> (SELECT sf @> k FROM vb_stored)) AS scalable_stored_disagree,
       count(*) FILTER (WHERE k <= 100000 AND NOT (e.c AND e.s)) AS stored_false_negatives
  FROM (SELECT unnest(counting_bloom_contains_each(cf, ks)) AS c, unnest(scalable_bloom_contains_each(sf, ks)) AS s,
               unnest(ks) AS k
          FROM vb_stored, (SELECT array_agg(k) AS ks FROM generate_series(99001, 101000) k) a) e;
SELECT counting_bloom_contains_all(cf, ARRAY(SELECT generate_series(1, 5000))) AS counting_all_members,
       scalable_bloom_contains_all(sf, ARRAY(SELECT generate_series(1, 5000))) AS scalable_all_members
  FROM vb_stored;
DROP TABLE vb_stored;
-- element conversion as for bloom: untyped and text elements, and a type error
SELECT counting_bloom_contains_any(counting_bloom_empty(100) || 'a', ARRAY['b', 'a']) AS counting_text,
       scalable_bloom_contains_any(scalable_bloom_empty() || 1::bigint, ARRAY[1, 2]) AS scalable_int_family;
SELECT counting_bloom_contains_any(counting_bloom_empty(100) || 1, ARRAY['x']);
SELECT scalable_bloom_add_all(scalable_bloom_empty() || 1, ARRAY[true]);
-- empty filters answer false; empty arrays: any false, all true, each {}
SELECT counting_bloom_contains_any(counting_bloom_empty(10), ARRAY[1]) AS empty_any,
       scalable_bloom_contains_each(scalable_bloom_empty(), ARRAY[1, NULL]) AS empty_each,
       counting_bloom_contains_all(counting_bloom_empty(10) || 1, ARRAY[]::int[]) AS all_of_none,
       scalable_bloom_contains_each(scalable_bloom_empty() || 1, ARRAY[]::int[]) AS each_of_none;

-- an empty batch add fixes no element type: the filter still combines with
-- a filter of any type (as bloom_add_all, batch_estimates)
SELECT (counting_bloom_add_all(counting_bloom_empty(1000), '{NULL}'::int[]) | (counting_bloom_empty(1000) || 'x'::text)) @> 'x'::text AS counting_only_nulls,
       (counting_bloom_add_all(counting_bloom_empty(1000), '{}'::int[]) | (counting_bloom_empty(1000) || 'x'::text)) @> 'x'::text AS counting_combines,
       (scalable_bloom_add_all(scalable_bloom_empty(), '{}'::int[]) | (scalable_bloom_empty() || 'x'::text)) @> 'x'::text AS scalable_combines;

-- cardinality estimates
SELECT round(counting_bloom_estimate_card(counting_bloom_agg(g, 20000, 0.01))::numeric, -2) AS counting_card,
       round(scalable_bloom_estimate_card(scalable_bloom_agg(g))::numeric, -2) AS scalable_card
  FROM generate_series(1, 10000) g;
SELECT counting_bloom_estimate_card(counting_bloom_empty(100)) AS counting_empty_card;

-- union aggregates: the same filter as the pairwise unions, empty over no rows
CREATE TABLE vb AS
SELECT k, counting_bloom_agg(g, 10000, 0.01) AS cf, scalable_bloom_agg(g, 10000, 0.01) AS sf
  FROM (SELECT g % 4 AS k, g FROM generate_series(1, 8000) g) s GROUP BY k;
SELECT (SELECT counting_bloom_union_agg(cf) FROM vb)::text
     = (SELECT a.cf | b.cf | c.cf | d.cf FROM vb a, vb b, vb c, vb d WHERE a.k = 0 AND b.k = 1 AND c.k = 2 AND d.k = 3)::text
       AS counting_union_agg_same,
       (SELECT scalable_bloom_union_agg(sf) FROM vb)::text
     = (SELECT a.sf | b.sf | c.sf | d.sf FROM vb a, vb b, vb c, vb d WHERE a.k = 0 AND b.k = 1 AND c.k = 2 AND d.k = 3)::text
       AS scalable_union_agg_same;
SELECT (SELECT count(*) FROM generate_series(1, 8000) x WHERE NOT counting_bloom_contains(u, x)) AS counting_false_negatives,
       (counting_bloom_info(u)).items
  FROM (SELECT counting_bloom_union_agg(cf) AS u FROM vb) s;
SELECT (SELECT count(*) FROM generate_series(1, 8000) x WHERE NOT scalable_bloom_contains(u, x)) AS scalable_false_negatives
  FROM (SELECT scalable_bloom_union_agg(sf) AS u FROM vb) s;
SELECT (counting_bloom_info(counting_bloom_union_agg(cf))).items AS counting_no_rows,
       (SELECT count(*) FROM scalable_bloom_info(scalable_bloom_union_agg(sf))) AS scalable_no_rows
  FROM vb WHERE false;
SELECT counting_bloom_union_agg(cf) IS NOT NULL AS nulls_skipped FROM (VALUES (NULL::counting_bloom)) v(cf);
-- mismatched sizes: an error naming them
SELECT counting_bloom_union_agg(cf) FROM (VALUES (counting_bloom_empty(100) || 1), (counting_bloom_empty(1000) || 2)) v(cf);
SELECT scalable_bloom_union_agg(sf) FROM (VALUES (scalable_bloom_empty(100) || 1), (scalable_bloom_empty(1000) || 2)) v(sf);
-- in parallel, the same filters as serially
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT counting_bloom_union_agg(cf), scalable_bloom_union_agg(sf) FROM vb;
CREATE TABLE vb_par AS SELECT counting_bloom_union_agg(cf) AS cu, scalable_bloom_union_agg(sf) AS su FROM vb;
RESET ALL;
SELECT cu::text = (SELECT counting_bloom_union_agg(cf) FROM vb)::text AS counting_parallel_same,
       su::text = (SELECT scalable_bloom_union_agg(sf) FROM vb)::text AS scalable_parallel_same
  FROM vb_par;
DROP TABLE vb, vb_par;
-- the deserialize functions reject what is not their state (one kind's
-- state given to another's, in a parallel plan): an error, no crash
CREATE TABLE vb_cross AS SELECT counting_bloom_empty(100) || g AS cf, scalable_bloom_empty() || g AS sf
  FROM generate_series(1, 1000) g;
CREATE AGGREGATE vb_cross_cs(counting_bloom) (SFUNC = counting_bloom_union_trans, STYPE = internal,
	FINALFUNC = counting_bloom_union_final, COMBINEFUNC = counting_bloom_union_combine,
	SERIALFUNC = counting_bloom_union_serial, DESERIALFUNC = scalable_bloom_union_deserial, PARALLEL = SAFE);
CREATE AGGREGATE vb_cross_sc(scalable_bloom) (SFUNC = scalable_bloom_union_trans, STYPE = internal,
	FINALFUNC = scalable_bloom_union_final, COMBINEFUNC = scalable_bloom_union_combine,
	SERIALFUNC = scalable_bloom_union_serial, DESERIALFUNC = counting_bloom_union_deserial, PARALLEL = SAFE);
CREATE AGGREGATE vb_cross_sa(scalable_bloom) (SFUNC = scalable_bloom_union_trans, STYPE = internal,
	FINALFUNC = scalable_bloom_union_final, COMBINEFUNC = scalable_bloom_union_combine,
	SERIALFUNC = scalable_bloom_union_serial, DESERIALFUNC = scalable_bloom_agg_deserial, PARALLEL = SAFE);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT vb_cross_cs(cf) IS NOT NULL FROM vb_cross;
SELECT vb_cross_sc(sf) IS NOT NULL FROM vb_cross;
SELECT vb_cross_sa(sf) IS NOT NULL FROM vb_cross;
RESET ALL;
DROP AGGREGATE vb_cross_cs(counting_bloom);
DROP AGGREGATE vb_cross_sc(scalable_bloom);
DROP AGGREGATE vb_cross_sa(scalable_bloom);
DROP TABLE vb_cross;

-- One verb for every kind (1.3): bloom_contains, bloom_add and the other
-- verbs take counting_bloom and scalable_bloom as they take bloom, and
-- answer exactly as the kind's prefixed function (kept as released).

-- the catalog: each overload is its prefixed function under the shared
-- name -- same C function, volatility, strictness, parallel marking,
-- argument names, result and planner support; the aggregates the same
-- support functions (pairs found: a count, then the differences: none)
CREATE TEMP VIEW vb_pairs AS
SELECT v.oid::regprocedure AS verb, p.oid::regprocedure AS prefixed, v.prokind,
       (v.prosrc, v.provolatile, v.proisstrict, v.proparallel, v.proargnames, v.proallargtypes,
        v.proargmodes, v.prorettype, v.proretset, v.prosupport, v.probin)
       IS NOT DISTINCT FROM
       (p.prosrc, p.provolatile, p.proisstrict, p.proparallel, p.proargnames, p.proallargtypes,
        p.proargmodes, p.prorettype, p.proretset, p.prosupport, p.probin) AS same_function,
       (SELECT (a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn, a.aggtranstype)
               IS NOT DISTINCT FROM
               (b.aggtransfn, b.aggfinalfn, b.aggcombinefn, b.aggserialfn, b.aggdeserialfn, b.aggtranstype)
          FROM pg_aggregate a, pg_aggregate b WHERE a.aggfnoid = v.oid AND b.aggfnoid = p.oid) AS same_aggregate
  FROM pg_proc v
  JOIN pg_proc p ON p.proname = replace(format_type(v.proargtypes[0], NULL), 'bloom', '') || v.proname
               AND p.proargtypes = v.proargtypes AND p.pronamespace = v.pronamespace
 WHERE v.proname LIKE 'bloom\_%' AND v.proargtypes[0] IN ('counting_bloom'::regtype, 'scalable_bloom'::regtype);
SELECT count(*) AS pairs, count(*) FILTER (WHERE prokind = 'a') AS aggregate_pairs,
       count(*) FILTER (WHERE NOT same_function OR same_aggregate IS FALSE) AS differences
  FROM vb_pairs;
-- the overloads without a prefixed twin of the same name: the estimate's
-- new name, and the scheme change of a scalable filter (new in 1.3)
SELECT v.oid::regprocedure AS without_twin
  FROM pg_proc v
 WHERE v.proname LIKE 'bloom\_%' AND v.proargtypes[0] IN ('counting_bloom'::regtype, 'scalable_bloom'::regtype)
   AND v.oid NOT IN (SELECT verb FROM vb_pairs)
 ORDER BY v.oid::regprocedure::text;
SELECT count(*) FILTER (WHERE obj_description(v.oid, 'pg_proc') IS NULL) AS without_comment
  FROM pg_proc v WHERE v.proname LIKE 'bloom\_%'
   AND v.proargtypes[0] IN ('counting_bloom'::regtype, 'scalable_bloom'::regtype);
DROP VIEW vb_pairs;

-- the call the prefixed names made necessary now works
SELECT bloom_contains(counting_bloom_agg(g), 5) AS counting, bloom_contains(scalable_bloom_agg(g), 5) AS scalable,
       bloom_contains(bloom_agg(g), 5) AS bloom
  FROM generate_series(1, 10) g;

-- probes: the same answer as the prefixed function for members and
-- non-members, one value or many, and no false negative
CREATE TABLE vk AS
SELECT counting_bloom_agg(g, 2000, 0.01) AS cf, scalable_bloom_agg(g, 100, 0.01) AS sf
  FROM generate_series(1, 2000) g;
SELECT count(*) FILTER (WHERE bloom_contains(cf, x) <> counting_bloom_contains(cf, x)) AS counting_disagree,
       count(*) FILTER (WHERE bloom_contains(sf, x) <> scalable_bloom_contains(sf, x)) AS scalable_disagree,
       count(*) FILTER (WHERE x <= 2000 AND NOT (bloom_contains(cf, x) AND bloom_contains(sf, x))) AS false_negatives,
       count(*) FILTER (WHERE bloom_contains(cf, x)) > 2000 AS some_false_positives_counted
  FROM vk, generate_series(1, 20000) x;
SELECT count(*) FILTER (WHERE bloom_contains_any(cf, a) <> counting_bloom_contains_any(cf, a)
                           OR bloom_contains_all(cf, a) <> counting_bloom_contains_all(cf, a)
                           OR bloom_contains_each(cf, a) <> counting_bloom_contains_each(cf, a)) AS counting_batch_disagree,
       count(*) FILTER (WHERE bloom_contains_any(sf, a) <> scalable_bloom_contains_any(sf, a)
                           OR bloom_contains_all(sf, a) <> scalable_bloom_contains_all(sf, a)
                           OR bloom_contains_each(sf, a) <> scalable_bloom_contains_each(sf, a)) AS scalable_batch_disagree,
       count(*) FILTER (WHERE bloom_contains_all(cf, a)) AS counting_all_true,
       count(*) FILTER (WHERE bloom_contains_any(sf, a)) AS scalable_any_true
  FROM vk, generate_series(1, 4000, 3) x, LATERAL (SELECT ARRAY[x, x + 1, NULL, x + 3000]) s(a);
-- the operator and the verb agree
SELECT count(*) FILTER (WHERE (cf @> x) <> bloom_contains(cf, x) OR (sf @> x) <> bloom_contains(sf, x)) AS operator_disagree
  FROM vk, generate_series(1, 4000) x;

-- adds and removals: the same filter as the prefixed function
SELECT count(*) FILTER (WHERE bloom_add(cf, x)::text <> counting_bloom_add(cf, x)::text) AS counting_add_disagree,
       count(*) FILTER (WHERE bloom_add(sf, x)::text <> scalable_bloom_add(sf, x)::text) AS scalable_add_disagree,
       count(*) FILTER (WHERE bloom_remove(cf, x)::text <> counting_bloom_remove(cf, x)::text) AS remove_disagree,
       count(*) FILTER (WHERE bloom_remove_all(cf, ARRAY[x, x + 7])::text
                           <> counting_bloom_remove_all(cf, ARRAY[x, x + 7])::text) AS remove_all_disagree,
       count(*) FILTER (WHERE bloom_add_all(cf, ARRAY[x, 5000 + x])::text
                           <> counting_bloom_add_all(cf, ARRAY[x, 5000 + x])::text) AS counting_add_all_disagree,
       count(*) FILTER (WHERE bloom_add_all(sf, ARRAY[x, 5000 + x])::text
                           <> scalable_bloom_add_all(sf, ARRAY[x, 5000 + x])::text) AS scalable_add_all_disagree
  FROM vk, generate_series(1, 300) x;
-- a removed value is gone; a value never added cannot be removed
SELECT bloom_contains(bloom_remove(counting_bloom_empty(100) || 7, 7), 7) AS removed_is_gone,
       bloom_contains(bloom_remove_all(counting_bloom_empty(100) || 7 || 8, ARRAY[7]), 8) AS other_stays;
SELECT bloom_remove(counting_bloom_empty(100) || 7, 8);
-- removal is for counting filters only: no such function for the others
SELECT bloom_remove(scalable_bloom_empty() || 7, 7);
SELECT bloom_remove(bloom_empty(100) || 7, 7);

-- estimates, union, the union aggregate, info and scheme: the prefixed
-- function's answer
SELECT bloom_estimate_card(cf) = counting_bloom_estimate_card(cf) AS counting_card_same,
       bloom_estimate_card(sf) = scalable_bloom_estimate_card(sf) AS scalable_card_same,
       bloom_card(cf) = counting_bloom_estimate_card(cf) AS counting_bloom_card_same,
       bloom_card(sf) = scalable_bloom_estimate_card(sf) AS scalable_bloom_card_same,
       bloom_info(cf) IS NOT DISTINCT FROM counting_bloom_info(cf) AS counting_info_same,
       (SELECT array_agg(i) FROM bloom_info(sf) i) IS NOT DISTINCT FROM
       (SELECT array_agg(i) FROM scalable_bloom_info(sf) i) AS scalable_info_same,
       (SELECT count(*) FROM bloom_info(sf)) AS scalable_info_rows,
       bloom_scheme(cf) = counting_bloom_scheme(cf) AND bloom_scheme(sf) = scalable_bloom_scheme(sf) AS scheme_same
  FROM vk;
CREATE TABLE vk_parts AS
SELECT k, counting_bloom_agg(g, 4000, 0.01) AS cf, scalable_bloom_agg(g, 3000, 0.01) AS sf
  FROM (SELECT g % 3 AS k, g FROM generate_series(1, 3000) g) s GROUP BY k;
SELECT bloom_union(a.cf, b.cf)::text = counting_bloom_union(a.cf, b.cf)::text AS counting_union_same,
       bloom_union(a.sf, b.sf)::text = scalable_bloom_union(a.sf, b.sf)::text AS scalable_union_same
  FROM vk_parts a, vk_parts b WHERE a.k = 0 AND b.k = 1;
SELECT (SELECT bloom_union_agg(cf) FROM vk_parts)::text = (SELECT counting_bloom_union_agg(cf) FROM vk_parts)::text
       AS counting_union_agg_same,
       (SELECT bloom_union_agg(sf) FROM vk_parts)::text = (SELECT scalable_bloom_union_agg(sf) FROM vk_parts)::text
       AS scalable_union_agg_same,
       (SELECT count(*) FROM generate_series(1, 3000) x, (SELECT bloom_union_agg(cf) AS c, bloom_union_agg(sf) AS s FROM vk_parts) u
         WHERE NOT (bloom_contains(u.c, x) AND bloom_contains(u.s, x))) AS union_agg_false_negatives;
SELECT bloom_union_agg(cf) IS NOT NULL AS counting_no_rows_empty, bloom_union_agg(sf) IS NOT NULL AS scalable_no_rows_empty
  FROM vk_parts WHERE false;
-- a mixed union is refused, as a bloom | counting_bloom is
SELECT bloom_union(counting_bloom_empty(100), scalable_bloom_empty());
DROP TABLE vk_parts;

-- element conversion, untyped literals and NULLs, as for bloom: the
-- filter's type picks the overload, the value converts as before
SELECT bloom_contains(counting_bloom_empty(100) || 42, '42') AS counting_untyped,
       bloom_contains(scalable_bloom_empty() || 42, '42') AS scalable_untyped,
       bloom_contains(bloom_empty(100) || 42, '42') AS bloom_untyped,
       bloom_contains(bloom_empty(100) || 'abc', 'abc') AS bloom_untyped_text,
       bloom_contains(bloom_add(counting_bloom_empty(100), 'abc'), 'abc') AS counting_text_add,
       bloom_contains(bloom_add(scalable_bloom_empty(), 'abc'), 'abd') AS scalable_text_other;
SELECT bloom_contains(counting_bloom_empty(100) || 1, NULL) IS NULL AS counting_null_value,
       bloom_contains(scalable_bloom_empty() || 1, NULL::int) IS NULL AS scalable_null_value,
       bloom_contains(bloom_empty(100) || 1, NULL) IS NULL AS bloom_null_value,
       bloom_contains(NULL::counting_bloom, 1) IS NULL AS null_counting_filter,
       bloom_add(counting_bloom_empty(100), NULL)::text = counting_bloom_empty(100)::text AS counting_add_null_keeps,
       bloom_add(scalable_bloom_empty(), NULL::int)::text = scalable_bloom_empty()::text AS scalable_add_null_keeps,
       bloom_add(NULL::scalable_bloom, 1) IS NULL AS null_scalable_filter,
       bloom_union(NULL, counting_bloom_empty(100)) IS NULL AS union_with_null,
       bloom_contains_each(NULL::scalable_bloom, ARRAY[1]) IS NULL AS each_null_filter;
-- a value of another element type: the kind's error
SELECT bloom_contains(counting_bloom_empty(100) || 1, 'x'::text);
-- an untyped NULL or literal filter fits all three kinds; bloom is the
-- preferred type, so it resolves to bloom as in 1.2 (a cast picks another)
SELECT bloom_contains(NULL, 5) IS NULL AS untyped_null_filter,
       bloom_contains('bloom:v1 layout=blocked scheme=2 k=8 seed=0 bits=256 items=0 flags=6a50000 coll=0 family= hex=0000000000000000000000000000000000000000000000000000000000000000', 5) AS untyped_literal_filter,
       pg_typeof(bloom_add(NULL, 5)) AS untyped_null_add,
       bloom_contains(NULL::bloom, 5) IS NULL AS cast_null_filter;

-- bloom_with_scheme on a scalable filter (new): an empty filter takes
-- scheme 1 in its header and every sub-filter, keeps it as it grows, finds
-- every value added, survives a text round trip, and unions with a filter
-- of the same scheme (the union is over capacity: no warning wanted here)
SET bloomset.full_filter = off;
CREATE TABLE vk_s1 AS
SELECT bloom_add_all(bloom_with_scheme(scalable_bloom_empty(100), 1), ARRAY(SELECT generate_series(1, 5000))) AS s1,
       bloom_add_all(bloom_with_scheme(scalable_bloom_empty(100), 1), ARRAY(SELECT generate_series(5001, 6000))) AS s1b,
       bloom_add_all(scalable_bloom_empty(100), ARRAY(SELECT generate_series(1, 5000))) AS s2;
SELECT bloom_scheme(s1) AS scheme, (SELECT count(*) FROM bloom_info(s1)) AS sub_filters,
       bloom_contains_all(s1, ARRAY(SELECT generate_series(1, 5000))) AS no_false_negative,
       bloom_scheme(s1::text::scalable_bloom) AS text_round_trip,
       bloom_contains_all(bloom_union(s1, s1b), ARRAY(SELECT generate_series(1, 6000))) AS union_finds_all,
       bloom_scheme(bloom_with_scheme(scalable_bloom_empty(), 4)) AS scheme4_no_op,
       bloom_with_scheme(bloom_with_scheme(scalable_bloom_empty(), 1), 4)::text = scalable_bloom_empty()::text AS back_to_4
  FROM vk_s1;
RESET bloomset.full_filter;
-- the hashing changed, not only the label: for the same members, the
-- scheme-1 and scheme-2 filters answer differently for some non-members
SELECT count(*) FILTER (WHERE bloom_contains(s1, x) <> bloom_contains(s2, x)) > 0 AS answers_differ,
       count(*) FILTER (WHERE x <= 5000 AND NOT (bloom_contains(s1, x) AND bloom_contains(s2, x))) AS false_negatives
  FROM vk_s1, generate_series(1, 20000) x;
-- schemes do not mix; a filter holding items keeps its scheme; unknown
-- schemes are refused
SELECT bloom_union(s1, scalable_bloom_empty(100) || 1) FROM vk_s1;
SELECT bloom_with_scheme(scalable_bloom_empty() || 1, 1);
SELECT bloom_with_scheme(scalable_bloom_empty(), 3);
SELECT bloom_with_scheme(scalable_bloom_empty(), 0);
-- counting and bloom as before, through the verb
SELECT bloom_scheme(bloom_with_scheme(counting_bloom_empty(100), 1)) AS counting_scheme1,
       bloom_with_scheme(counting_bloom_empty(100), 1)::text = counting_bloom_with_scheme(counting_bloom_empty(100), 1)::text
       AS counting_same,
       bloom_scheme(bloom_with_scheme(bloom_empty(100), 1)) AS bloom_scheme1;
DROP TABLE vk_s1;

-- names and aliases: bloom_card is the estimate (bloom_estimate_card its
-- alias), bloom_may_be_subset the subset pre-check (bloom_maybe_subset its
-- alias); each pair gives the same answer
CREATE TABLE vk_b AS SELECT g % 5 AS k, bloom_agg(g, 2000, 0.01) AS f FROM generate_series(1, 4000) g GROUP BY g % 5
UNION ALL SELECT 5, bloom_agg(g, 2000, 0.01) FROM generate_series(1, 400) g;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE bloom_may_be_subset(a.f, b.f) <> bloom_maybe_subset(a.f, b.f)) AS subset_disagree,
       count(*) FILTER (WHERE bloom_may_be_subset(a.f, b.f)) AS may_be_subset,
       count(*) FILTER (WHERE bloom_card(a.f) <> bloom_estimate_card(a.f)) AS card_disagree
  FROM vk_b a, vk_b b;
SELECT bloom_may_be_subset(bloom_agg(g) FILTER (WHERE g <= 10), bloom_agg(g)) AS subset,
       bloom_may_be_subset(bloom_agg(g), bloom_agg(g) FILTER (WHERE g <= 10)) AS superset
  FROM generate_series(1, 100) g;
DROP TABLE vk_b, vk;

-- the manual's example: one name for every kind
SELECT bloom_contains(b, 42) AS in_bloom, bloom_contains(c, 42) AS in_counting,
       bloom_contains(s, 42) AS in_scalable, round(bloom_card(c)) AS distinct_values
  FROM (SELECT bloom_agg(x) AS b, counting_bloom_agg(x) AS c, scalable_bloom_agg(x) AS s
          FROM generate_series(1, 1000) x) t;
