-- bloom_agg over a real state type (bloom_agg_state): the per-key-type
-- aggregates a distributed engine can split into partial aggregates and a
-- combine.  Their filters equal those of the internal-state aggregate of
-- 1.3 byte for byte, in serial and parallel plans and when the partial
-- states are combined after a trip through their text and binary forms.
SET bloomset.full_filter = off;

-- Which aggregate a call resolves to: the key types with an aggregate of
-- their own, and every other type still bloom_agg(anyelement).
SELECT a.aggfnoid::regprocedure AS aggregate, a.aggtranstype::regtype AS state
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
 WHERE p.proname IN ('bloom_agg', 'counting_bloom_agg')
 ORDER BY a.aggfnoid::regprocedure::text COLLATE "C";

-- The 1.3 definitions of bloom_agg(anyelement) (internal state), as the
-- oracle: the same C functions 1.3 used.
CREATE AGGREGATE agg13(anyelement) (
	SFUNC = bloom_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE agg13(anyelement, bigint, float8) (
	SFUNC = bloom_agg_trans_sized, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE agg13(anyelement, integer, integer, bigint) (
	SFUNC = bloom_agg_trans_explicit, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE counting13(anyelement) (
	SFUNC = counting_bloom_agg_auto_trans, STYPE = internal, FINALFUNC = counting_bloom_agg_final,
	COMBINEFUNC = counting_bloom_agg_combine, SERIALFUNC = counting_bloom_agg_auto_serial,
	DESERIALFUNC = counting_bloom_agg_auto_deserial, PARALLEL = SAFE);
CREATE AGGREGATE counting13(anyelement, bigint, float8) (
	SFUNC = counting_bloom_agg_trans, STYPE = internal, FINALFUNC = counting_bloom_agg_final,
	COMBINEFUNC = counting_bloom_agg_combine, SERIALFUNC = counting_bloom_agg_serial,
	DESERIALFUNC = counting_bloom_agg_deserial, PARALLEL = SAFE);

CREATE TABLE ak AS
SELECT g::smallint AS i2, g AS i4, g::bigint * 7919 AS i8, md5(g::text) AS t,
       md5(g::text)::varchar AS vc, rpad(md5(g::text), 40)::char(40) AS bc,
       md5(g::text)::name AS nm, chr(65 + g % 26)::"char" AS ch,
       md5(g::text)::uuid AS u, g % 5 AS grp
  FROM generate_series(1, 30000) g;
INSERT INTO ak (i4) VALUES (NULL);
ANALYZE ak;

-- every overload against the 1.3 aggregate, in the three forms: mismatches 0
SELECT count(*) FILTER (WHERE NOT same) AS mismatches, count(*) AS compared
  FROM (
	SELECT bloom_agg(i2)::text = agg13(i2)::text AS same FROM ak
	UNION ALL SELECT bloom_agg(i4)::text = agg13(i4)::text FROM ak
	UNION ALL SELECT bloom_agg(i8)::text = agg13(i8)::text FROM ak
	UNION ALL SELECT bloom_agg(t)::text = agg13(t)::text FROM ak
	UNION ALL SELECT bloom_agg(vc)::text = agg13(vc)::text FROM ak
	UNION ALL SELECT bloom_agg(bc)::text = agg13(bc)::text FROM ak
	UNION ALL SELECT bloom_agg(nm)::text = agg13(nm)::text FROM ak
	UNION ALL SELECT bloom_agg(ch)::text = agg13(ch)::text FROM ak
	UNION ALL SELECT bloom_agg(u)::text = agg13(u)::text FROM ak
	UNION ALL SELECT bloom_agg(i8, 40000, 0.01)::text = agg13(i8, 40000, 0.01)::text FROM ak
	UNION ALL SELECT bloom_agg(t, 40000, 0.01)::text = agg13(t, 40000, 0.01)::text FROM ak
	UNION ALL SELECT bloom_agg(bc, 40000, 0.01)::text = agg13(bc, 40000, 0.01)::text FROM ak
	UNION ALL SELECT bloom_agg(i2, 4096, 5, 42)::text = agg13(i2, 4096, 5, 42)::text FROM ak
	UNION ALL SELECT bloom_agg(u, 4096, 5, 42)::text = agg13(u, 4096, 5, 42)::text FROM ak
	UNION ALL SELECT bloom_agg(i4) FILTER (WHERE i4 % 3 = 0)::text
	                 = agg13(i4) FILTER (WHERE i4 % 3 = 0)::text FROM ak
	UNION ALL SELECT bloom_agg(i8)::text = agg13(i8)::text FROM ak WHERE false
	UNION ALL SELECT bloom_agg(i8)::text = agg13(i8)::text FROM ak GROUP BY grp
	UNION ALL SELECT bloom_agg(t, 10000, 0.01)::text = agg13(t, 10000, 0.01)::text FROM ak GROUP BY grp
	UNION ALL SELECT counting_bloom_agg(i2)::text = counting13(i2)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(i8)::text = counting13(i8)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(t)::text = counting13(t)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(bc)::text = counting13(bc)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(u)::text = counting13(u)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(i4, 40000, 0.01)::text = counting13(i4, 40000, 0.01)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(nm, 40000, 0.01)::text = counting13(nm, 40000, 0.01)::text FROM ak
	UNION ALL SELECT counting_bloom_agg(i8 % 100)::text = counting13(i8 % 100)::text FROM ak GROUP BY grp
  ) s;

-- the element family follows the key type as before (char(n) keeps bpchar_ops)
SELECT (bloom_info(bc)).element_family AS bpchar, (bloom_info(nm)).element_family AS name,
       (bloom_info(ch)).element_family AS "char", (bloom_info(i2)).element_family AS int2,
       (bloom_info(vc)).element_family AS varchar
  FROM (SELECT bloom_agg(bc) bc, bloom_agg(nm) nm, bloom_agg(ch) ch, bloom_agg(i2) i2,
               bloom_agg(vc) vc FROM ak) s;
-- no false negatives
SELECT count(*) AS false_negatives FROM ak, (SELECT bloom_agg(t) f FROM ak) a
 WHERE t IS NOT NULL AND NOT bloom_contains(a.f, ak.t);

-- parallel plans: the state travels between processes flattened
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_agg(i8, 40000, 0.01) FROM ak;
SELECT bloom_agg(i8, 40000, 0.01)::text = agg13(i8, 40000, 0.01)::text AS sized,
       bloom_agg(t)::text = agg13(t)::text AS automatic,
       bloom_agg(u, 4096, 5, 42)::text = agg13(u, 4096, 5, 42)::text AS explicit,
       counting_bloom_agg(i8 % 1000)::text = counting13(i8 % 1000)::text AS counting,
       counting_bloom_agg(t, 40000, 0.01)::text = counting13(t, 40000, 0.01)::text AS counting_sized
  FROM ak;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- What a distributed engine does: partial states per shard (an aggregate
-- with no final function returns the state), shipped in their text or
-- binary form, read back and combined into the final filter.
CREATE AGGREGATE partial_bloom(bigint, bigint, float8) (
	SFUNC = bloom_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE partial_bloom(text) (
	SFUNC = bloom_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_bloom(bloom_agg_state) (
	SFUNC = bloom_agg_state_combine, STYPE = bloom_agg_state,
	FINALFUNC = bloom_agg_state_final);
CREATE AGGREGATE partial_counting(bigint) (
	SFUNC = counting_bloom_agg_state_add, STYPE = bloom_agg_state);
CREATE AGGREGATE combine_counting(bloom_agg_state) (
	SFUNC = counting_bloom_agg_state_combine, STYPE = bloom_agg_state,
	FINALFUNC = counting_bloom_agg_state_final);
SELECT (SELECT combine_counting(p::text::bloom_agg_state)::text
          FROM (SELECT partial_counting(i8 % 1000) p FROM ak GROUP BY grp) s)
       = (SELECT counting_bloom_agg(i8 % 1000)::text FROM ak) AS counting_combined;
CREATE TABLE shard_states AS
SELECT grp, partial_bloom(i8, 40000, 0.01) AS sized, partial_bloom(t) AS auto
  FROM ak GROUP BY grp;
SELECT (SELECT combine_bloom(sized)::text FROM shard_states)
       = (SELECT bloom_agg(i8, 40000, 0.01)::text FROM ak) AS sized_combined,
       (SELECT combine_bloom(sized::text::bloom_agg_state)::text FROM shard_states)
       = (SELECT bloom_agg(i8, 40000, 0.01)::text FROM ak) AS sized_through_text,
       (SELECT combine_bloom(auto)::text FROM shard_states)
       = (SELECT bloom_agg(t)::text FROM ak) AS auto_combined,
       (SELECT combine_bloom(bloom_agg_state_recv_test)::text
          FROM (SELECT auto AS bloom_agg_state_recv_test FROM shard_states) s)
       = (SELECT bloom_agg(t)::text FROM ak) AS auto_again;
-- the binary form: COPY out and back in
SELECT format('/tmp/bloomset_agg_state_%s.bin', current_setting('port')) AS copyfile \gset
COPY shard_states TO :'copyfile' WITH (FORMAT binary);
CREATE TABLE shard_states2 (LIKE shard_states);
COPY shard_states2 FROM :'copyfile' WITH (FORMAT binary);
SELECT (SELECT combine_bloom(auto)::text FROM shard_states2)
       = (SELECT bloom_agg(t)::text FROM ak) AS through_binary_copy;
-- a state over no rows, and none at all
SELECT bloom_info(combine_bloom(sized)) FROM shard_states WHERE false;
SELECT (SELECT combine_bloom(s)::text FROM (VALUES (NULL::bloom_agg_state)) v(s))
       = (SELECT bloom_agg(i8, 40000, 0.01)::text FROM ak WHERE false) AS null_states;

-- Hostile values: every malformed state is a clean error (22P02 for the
-- text syntax, 22P03 for the bytes), never a crash or a wrong filter.
CREATE FUNCTION state_sqlstate(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
CREATE TABLE good AS SELECT sized::text AS s FROM shard_states WHERE grp = 1;
SELECT length(s) > 100 AS long_enough, left(s, 6) AS starts FROM good;
SELECT state_sqlstate(format('SELECT %L::bloom_agg_state', v)) AS code, label
  FROM (VALUES
	('', 'empty'),
	('\x', 'no bytes'),
	('62', 'no \x'),
	('\x6', 'odd digits'),
	('\xzz', 'not hex'),
	('\x00', 'one byte'),
	('\x6266000000000000000000', 'truncated filter'),
	('\x78660000000000000000000000', 'unknown kind'),
	('\x62790000000000000000000000', 'unknown phase'),
	('\x626c0000000000000000000000', 'list phase never travels'),
	('\x62660000000000000000090000', 'too many sizing arguments'),
	('\x6278000000000000000000', 'exact header truncated')
  ) v(v, label);
-- a sizing argument of a type the aggregates never take (text)
SELECT state_sqlstate(format('SELECT %L::bloom_agg_state',
	replace(s, '0200000014', '0200000019'))) AS wrong_argument_type,
       position('0200000014' in s) > 0 AS found FROM good;
-- every single-byte corruption of a real state: an error or a valid state,
-- never a crash; the valid ones combine (0 server errors of class XX)
SELECT count(*) FILTER (WHERE code = 'ok') AS still_valid,
       count(*) FILTER (WHERE code IN ('22P02', '22P03', '22023', '42804')) AS rejected,
       count(*) FILTER (WHERE code NOT IN ('ok', '22P02', '22P03', '22023', '42804')) AS other
  FROM good, generate_series(3, 200) pos,
       LATERAL (SELECT state_sqlstate(format(
			'SELECT combine_bloom(%L::bloom_agg_state)',
			overlay(s placing (CASE WHEN substr(s, pos, 1) = 'f' THEN '0' ELSE 'f' END) from pos for 1)))
			AS code) c;
-- truncations at every length
SELECT count(*) FILTER (WHERE code = 'ok') AS accepted,
       count(*) FILTER (WHERE code = '22P03') AS rejected
  FROM good, generate_series(2, 120, 2) len,
       LATERAL (SELECT state_sqlstate(format('SELECT %L::bloom_agg_state', left(s, len))) AS code) c;
-- a state of another kind (a counting filter's) is refused by the bloom
-- aggregate's combine
SELECT state_sqlstate(format('SELECT combine_bloom(%L::bloom_agg_state)',
	'\x6366' || substr(s, 7))) AS other_kind FROM good;

-- and a bloom state is refused by the counting aggregate's
SELECT state_sqlstate(format('SELECT combine_counting(%L::bloom_agg_state)', s)) AS bloom_into_counting
  FROM good;

-- the support functions outside an aggregate
SELECT bloom_agg_state_add(NULL::bloom_agg_state, 1::bigint);
SELECT bloom_agg_state_combine(NULL, NULL);
SELECT bloom_agg_state_final(NULL);
SELECT counting_bloom_agg_state_add(NULL::bloom_agg_state, 'x'::text);

RESET bloomset.full_filter;
-- leave nothing behind that depends on the extension
DROP TABLE ak, shard_states, shard_states2, good;
DROP AGGREGATE agg13(anyelement), agg13(anyelement, bigint, float8),
	agg13(anyelement, integer, integer, bigint), counting13(anyelement),
	counting13(anyelement, bigint, float8), partial_bloom(bigint, bigint, float8),
	partial_bloom(text), combine_bloom(bloom_agg_state), partial_counting(bigint),
	combine_counting(bloom_agg_state);
DROP FUNCTION state_sqlstate(text);
