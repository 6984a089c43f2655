-- The other aggregates over bloom_agg_state, so that a distributed engine
-- can split them: scalable_bloom_agg and bloom_parquet_agg per key type,
-- bloom_ngram_agg, bloom_token_agg and the union and intersection
-- aggregates of every kind.  Their results equal those of the 1.3
-- internal-state aggregates (the same C functions, which stay) byte for
-- byte, in serial and parallel plans and when partial states are combined
-- after a trip through their text form.
SET bloomset.full_filter = off;

-- the state of every aggregate of a fixed key type (internal only for the
-- polymorphic forms)
SELECT a.aggfnoid::regprocedure AS aggregate, a.aggtranstype::regtype AS state
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
 WHERE p.proname IN ('scalable_bloom_agg', 'bloom_parquet_agg', 'bloom_ngram_agg',
                     'bloom_token_agg', 'bloom_union_agg', 'bloom_intersect_agg',
                     'counting_bloom_union_agg', 'scalable_bloom_union_agg')
 ORDER BY a.aggfnoid::regprocedure::text COLLATE "C";
SELECT count(*) AS internal_state_fixed_types
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
  JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomset'
 WHERE a.aggtranstype = 'internal'::regtype
   AND NOT EXISTS (SELECT FROM unnest(p.proargtypes) t
                    WHERE t IN ('anyelement'::regtype, 'anycompatible'::regtype));

-- The 1.3 definitions, as the oracle.
CREATE AGGREGATE scal13(anyelement) (
	SFUNC = scalable_bloom_agg_trans, STYPE = internal, FINALFUNC = scalable_bloom_agg_final,
	COMBINEFUNC = scalable_bloom_agg_combine, SERIALFUNC = scalable_bloom_agg_serial,
	DESERIALFUNC = scalable_bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE scal13(anyelement, bigint, float8) (
	SFUNC = scalable_bloom_agg_trans, STYPE = internal, FINALFUNC = scalable_bloom_agg_final,
	COMBINEFUNC = scalable_bloom_agg_combine, SERIALFUNC = scalable_bloom_agg_serial,
	DESERIALFUNC = scalable_bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE parq13(anyelement, bigint, float8) (
	SFUNC = bloom_parquet_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE ngram13(text) (
	SFUNC = bloom_ngram_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE ngram13(text, integer) (
	SFUNC = bloom_ngram_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE token13(text) (
	SFUNC = bloom_token_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE union13(bloom) (
	SFUNC = bloom_union_trans, STYPE = internal, FINALFUNC = bloom_union_final,
	COMBINEFUNC = bloom_union_combine, SERIALFUNC = bloom_setop_serial,
	DESERIALFUNC = bloom_setop_deserial, PARALLEL = SAFE);
CREATE AGGREGATE inter13(bloom) (
	SFUNC = bloom_intersect_trans, STYPE = internal, FINALFUNC = bloom_intersect_final,
	COMBINEFUNC = bloom_intersect_combine, SERIALFUNC = bloom_setop_serial,
	DESERIALFUNC = bloom_setop_deserial, PARALLEL = SAFE);
CREATE AGGREGATE cunion13(counting_bloom) (
	SFUNC = counting_bloom_union_trans, STYPE = internal, FINALFUNC = counting_bloom_union_final,
	COMBINEFUNC = counting_bloom_union_combine, SERIALFUNC = counting_bloom_union_serial,
	DESERIALFUNC = counting_bloom_union_deserial, PARALLEL = SAFE);
CREATE AGGREGATE sunion13(scalable_bloom) (
	SFUNC = scalable_bloom_union_trans, STYPE = internal, FINALFUNC = scalable_bloom_union_final,
	COMBINEFUNC = scalable_bloom_union_combine, SERIALFUNC = scalable_bloom_union_serial,
	DESERIALFUNC = scalable_bloom_union_deserial, PARALLEL = SAFE);

CREATE TABLE sk AS
SELECT g::smallint AS i2, g AS i4, g::bigint * 7919 AS i8, md5(g::text) AS t,
       md5(g::text)::varchar AS vc, rpad(md5(g::text), 40)::char(40) AS bc,
       md5(g::text)::name AS nm, chr(65 + g % 26)::"char" AS ch,
       md5(g::text)::uuid AS u, g % 5 AS grp,
       'svc' || g % 50 || ' request ' || md5(g::text) AS line
  FROM generate_series(1, 20000) g;
INSERT INTO sk (i4) VALUES (NULL);
CREATE TABLE sf AS
SELECT grp, bloom_agg(i8, 30000, 0.01) AS f, bloom_agg(t) AS fa,
       counting_bloom_agg(i8, 30000, 0.01) AS cf, scalable_bloom_agg(i4, 1000, 0.01) AS sf
  FROM sk WHERE i8 IS NOT NULL GROUP BY grp;
INSERT INTO sf (grp) VALUES (9);
ANALYZE sk;
ANALYZE sf;

CREATE VIEW split_vs_13 AS
	SELECT 'scalable int2' AS what, scalable_bloom_agg(i2)::text = scal13(i2)::text AS same FROM sk
	UNION ALL SELECT 'scalable int4', scalable_bloom_agg(i4)::text = scal13(i4)::text FROM sk
	UNION ALL SELECT 'scalable int8 sized', scalable_bloom_agg(i8, 500, 0.001)::text = scal13(i8, 500, 0.001)::text FROM sk
	UNION ALL SELECT 'scalable text', scalable_bloom_agg(t)::text = scal13(t)::text FROM sk
	UNION ALL SELECT 'scalable bpchar', scalable_bloom_agg(bc)::text = scal13(bc)::text FROM sk
	UNION ALL SELECT 'scalable name', scalable_bloom_agg(nm, 2000, 0.01)::text = scal13(nm, 2000, 0.01)::text FROM sk
	UNION ALL SELECT 'scalable char', scalable_bloom_agg(ch)::text = scal13(ch)::text FROM sk
	UNION ALL SELECT 'scalable uuid', scalable_bloom_agg(u)::text = scal13(u)::text FROM sk
	UNION ALL SELECT 'scalable varchar grouped', scalable_bloom_agg(vc)::text = scal13(vc)::text FROM sk GROUP BY grp
	UNION ALL SELECT 'parquet int2', bloom_parquet_agg(i2, 30000, 0.01)::text = parq13(i2, 30000, 0.01)::text FROM sk
	UNION ALL SELECT 'parquet int4', bloom_parquet_agg(i4, 30000, 0.01)::text = parq13(i4, 30000, 0.01)::text FROM sk
	UNION ALL SELECT 'parquet int8', bloom_parquet_agg(i8, 30000, 0.01)::text = parq13(i8, 30000, 0.01)::text FROM sk
	UNION ALL SELECT 'parquet text', bloom_parquet_agg(t, 30000, 0.01)::text = parq13(t, 30000, 0.01)::text FROM sk
	UNION ALL SELECT 'parquet varchar', bloom_parquet_agg(vc, 30000, 0.01)::text = parq13(vc, 30000, 0.01)::text FROM sk
	UNION ALL SELECT 'parquet uuid grouped', bloom_parquet_agg(u, 5000, 0.01)::text = parq13(u, 5000, 0.01)::text FROM sk GROUP BY grp
	UNION ALL SELECT 'ngram', bloom_ngram_agg(line)::text = ngram13(line)::text FROM sk
	UNION ALL SELECT 'ngram 4', bloom_ngram_agg(line, 4)::text = ngram13(line, 4)::text FROM sk
	UNION ALL SELECT 'ngram filter', bloom_ngram_agg(line) FILTER (WHERE i4 % 3 = 0)::text
	                              = ngram13(line) FILTER (WHERE i4 % 3 = 0)::text FROM sk
	UNION ALL SELECT 'token', bloom_token_agg(line)::text = token13(line)::text FROM sk
	UNION ALL SELECT 'token grouped', bloom_token_agg(line)::text = token13(line)::text FROM sk GROUP BY grp
	UNION ALL SELECT 'token no rows', bloom_token_agg(line)::text = token13(line)::text FROM sk WHERE false
	UNION ALL SELECT 'union', bloom_union_agg(f)::text = union13(f)::text FROM sf
	UNION ALL SELECT 'union automatic', bloom_union_agg(fa)::text = union13(fa)::text FROM sf
	UNION ALL SELECT 'union no rows', bloom_union_agg(f)::text = union13(f)::text FROM sf WHERE false
	UNION ALL SELECT 'intersect', bloom_intersect_agg(f)::text = inter13(f)::text FROM sf
	UNION ALL SELECT 'intersect no rows', bloom_intersect_agg(f) IS NULL AND inter13(f) IS NULL FROM sf WHERE false
	UNION ALL SELECT 'counting union', counting_bloom_union_agg(cf)::text = cunion13(cf)::text FROM sf
	UNION ALL SELECT 'counting union (one verb)', bloom_union_agg(cf)::text = cunion13(cf)::text FROM sf
	UNION ALL SELECT 'scalable union', scalable_bloom_union_agg(sf)::text = sunion13(sf)::text FROM sf
	UNION ALL SELECT 'scalable union (one verb)', bloom_union_agg(sf)::text = sunion13(sf)::text FROM sf
	UNION ALL SELECT 'union grouped', bloom_union_agg(f)::text = union13(f)::text FROM sf GROUP BY grp % 2;

-- serial plans: mismatches 0
SELECT count(*) FILTER (WHERE same IS NOT TRUE) AS mismatches, count(*) AS compared FROM split_vs_13;
SELECT what FROM split_vs_13 WHERE same IS NOT TRUE;

-- the members of the scalable filter, and the Parquet filter read back by
-- its own scheme
SELECT count(*) AS false_negatives FROM sk, (SELECT scalable_bloom_agg(t) s,
       bloom_parquet_agg(u, 30000, 0.01) p, bloom_ngram_agg(line) n FROM sk) a
 WHERE t IS NOT NULL AND NOT (a.s @> sk.t AND a.p @> sk.u AND bloom_ngram_may_contain(a.n, sk.line));
-- bpchar, name and "char" have no Parquet encoding, as before
SELECT bloom_parquet_agg(nm, 100, 0.01) FROM sk;

-- parallel plans: the states travel between processes flattened
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_ngram_agg(line) FROM sk;
SELECT count(*) FILTER (WHERE same IS NOT TRUE) AS parallel_mismatches, count(*) AS compared
  FROM split_vs_13;
-- the scalable kind in a parallel plan: its members and its rate
SELECT count(*) AS false_negatives FROM sk, (SELECT scalable_bloom_agg(i8) s FROM sk) a
 WHERE i8 IS NOT NULL AND NOT a.s @> sk.i8;
-- (the estimate from the bits set is within a quarter of each sub-filter's
-- target, serial or parallel alike; the items counted are the 20,000
-- distinct keys less those a stage already answered "maybe" for, which
-- depends on how the workers split the rows: a bound, not a count)
SELECT count(*) AS subfilters, bool_and(estimated_fpr <= 1.25 * target_fpr) AS within_rate,
       sum(items) BETWEEN 0.97 * 20000 AND 20000 AS items_near_distinct
  FROM scalable_bloom_info((SELECT scalable_bloom_agg(i8) FROM sk));
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- What a distributed engine does: partial states (aggregates without a
-- final function return the state) through their text form, combined.
CREATE AGGREGATE partial_union(bloom) (SFUNC = bloom_union_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_union(bloom_agg_state) (
	SFUNC = bloom_union_agg_state_combine, STYPE = bloom_agg_state,
	FINALFUNC = bloom_union_agg_state_final);
CREATE AGGREGATE partial_inter(bloom) (SFUNC = bloom_intersect_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_inter(bloom_agg_state) (
	SFUNC = bloom_intersect_agg_state_combine, STYPE = bloom_agg_state,
	FINALFUNC = bloom_intersect_agg_state_final);
CREATE AGGREGATE partial_cunion(counting_bloom) (SFUNC = counting_bloom_union_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_cunion(bloom_agg_state) (
	SFUNC = counting_bloom_union_agg_state_combine, STYPE = bloom_agg_state,
	FINALFUNC = counting_bloom_union_agg_state_final);
CREATE AGGREGATE partial_sunion(scalable_bloom) (SFUNC = scalable_bloom_union_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_sunion(bloom_agg_state) (
	SFUNC = scalable_bloom_union_agg_state_combine, STYPE = bloom_agg_state,
	FINALFUNC = scalable_bloom_union_agg_state_final);
CREATE AGGREGATE partial_token(text) (SFUNC = bloom_token_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE partial_ngram(text, integer) (SFUNC = bloom_ngram_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE partial_parquet(uuid, bigint, float8) (SFUNC = bloom_parquet_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_bloom(bloom_agg_state) (
	SFUNC = bloom_agg_state_combine, STYPE = bloom_agg_state, FINALFUNC = bloom_agg_state_final);
SELECT (SELECT combine_union(p::text::bloom_agg_state)::text
          FROM (SELECT partial_union(f) p FROM sf GROUP BY grp % 3) s)
       = (SELECT bloom_union_agg(f)::text FROM sf) AS union_combined,
       (SELECT combine_inter(p::text::bloom_agg_state)::text
          FROM (SELECT partial_inter(f) p FROM sf GROUP BY grp % 3) s)
       = (SELECT bloom_intersect_agg(f)::text FROM sf) AS intersect_combined,
       (SELECT combine_cunion(p::text::bloom_agg_state)::text
          FROM (SELECT partial_cunion(cf) p FROM sf GROUP BY grp % 3) s)
       = (SELECT bloom_union_agg(cf)::text FROM sf) AS counting_union_combined,
       (SELECT combine_sunion(p::text::bloom_agg_state)::text
          FROM (SELECT partial_sunion(sf) p FROM sf GROUP BY grp % 3) s)
       = (SELECT bloom_union_agg(sf)::text FROM sf) AS scalable_union_combined,
       (SELECT combine_bloom(p::text::bloom_agg_state)::text
          FROM (SELECT partial_token(line) p FROM sk GROUP BY grp) s)
       = (SELECT bloom_token_agg(line)::text FROM sk) AS token_combined,
       (SELECT combine_bloom(p::text::bloom_agg_state)::text
          FROM (SELECT partial_ngram(line, 2) p FROM sk GROUP BY grp) s)
       = (SELECT bloom_ngram_agg(line, 2)::text FROM sk) AS ngram_combined,
       (SELECT combine_bloom(p::text::bloom_agg_state)::text
          FROM (SELECT partial_parquet(u, 30000, 0.01) p FROM sk GROUP BY grp) s)
       = (SELECT bloom_parquet_agg(u, 30000, 0.01)::text FROM sk) AS parquet_combined;

-- Hostile states: an error with the right code, never a wrong filter.
CREATE FUNCTION split_sqlstate(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE TABLE hostile AS
SELECT (SELECT partial_token(line)::text FROM sk WHERE i4 < 10) AS exact_token,
       (SELECT partial_ngram(line, 3)::text FROM sk WHERE i4 < 10) AS exact_ngram,
       (SELECT partial_cunion(cf)::text FROM sf WHERE grp = 1) AS counting,
       (SELECT partial_union(f)::text FROM sf WHERE grp = 1) AS plain;
-- a value aggregate's exact set is not a union's state
SELECT split_sqlstate(format('SELECT combine_union(%L::bloom_agg_state)', exact_token)) FROM hostile;
-- a counting state is not a bloom union's, nor a bloom state a counting union's
SELECT split_sqlstate(format('SELECT combine_union(%L::bloom_agg_state)', counting)) FROM hostile;
SELECT split_sqlstate(format('SELECT combine_cunion(%L::bloom_agg_state)', plain)) FROM hostile;
SELECT split_sqlstate(format('SELECT combine_sunion(%L::bloom_agg_state)', plain)) FROM hostile;
-- an n-gram state is not a token state, nor one of another n-gram length
-- (an aggregate that starts from a given state)
SELECT split_sqlstate(format('CREATE AGGREGATE token_from(text) (SFUNC = bloom_token_agg_state_add,
	STYPE = bloom_agg_state, FINALFUNC = bloom_agg_state_final, INITCOND = %L)', exact_ngram)),
       split_sqlstate(format('CREATE AGGREGATE ngram_from(text, integer) (SFUNC = bloom_ngram_agg_state_add,
	STYPE = bloom_agg_state, FINALFUNC = bloom_agg_state_final, INITCOND = %L)', exact_ngram))
  FROM hostile;
SELECT split_sqlstate('SELECT token_from(line) FROM sk WHERE i4 = 1') AS token_into_ngram,
       split_sqlstate('SELECT ngram_from(line, 4) FROM sk WHERE i4 = 1') AS other_length,
       split_sqlstate('SELECT ngram_from(line, 3) FROM sk WHERE i4 = 1') AS same_length;
-- every single-digit corruption of a union state: rejected or valid, and
-- a valid one combines (no other class of error)
SELECT count(*) FILTER (WHERE code = 'ok') AS still_valid,
       count(*) FILTER (WHERE left(code, 5) IN ('22P02', '22P03', '22023')) AS rejected,
       count(*) FILTER (WHERE code <> 'ok' AND left(code, 5) NOT IN ('22P02', '22P03', '22023')) AS other
  FROM hostile, generate_series(3, 160) pos,
       LATERAL (SELECT split_sqlstate(format('SELECT combine_cunion(%L::bloom_agg_state)',
			overlay(counting placing (CASE WHEN substr(counting, pos, 1) = 'f' THEN '0' ELSE 'f' END)
			        from pos for 1))) AS code) c;

-- the support functions outside an aggregate
SELECT bloom_union_agg_state_add(NULL, NULL::bloom);
SELECT scalable_bloom_agg_state_add(NULL::bloom_agg_state, 1);
SELECT bloom_parquet_agg_state_add(NULL::bloom_agg_state, 1, 10, 0.01);
SELECT bloom_token_agg_state_add(NULL, 'x');
SELECT counting_bloom_union_agg_state_final(NULL);

RESET bloomset.full_filter;
DROP VIEW split_vs_13;
DROP TABLE sk, sf, hostile;
DROP AGGREGATE scal13(anyelement), scal13(anyelement, bigint, float8),
	parq13(anyelement, bigint, float8), ngram13(text), ngram13(text, integer), token13(text),
	union13(bloom), inter13(bloom), cunion13(counting_bloom), sunion13(scalable_bloom),
	partial_union(bloom), combine_union(bloom_agg_state), partial_inter(bloom),
	combine_inter(bloom_agg_state), partial_cunion(counting_bloom), combine_cunion(bloom_agg_state),
	partial_sunion(scalable_bloom), combine_sunion(bloom_agg_state), partial_token(text),
	partial_ngram(text, integer), partial_parquet(uuid, bigint, float8), combine_bloom(bloom_agg_state),
	token_from(text), ngram_from(text, integer);
DROP FUNCTION split_sqlstate(text);
