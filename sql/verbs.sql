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
