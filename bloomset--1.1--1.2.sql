/* bloomset--1.1--1.2.sql: upgrade from 1.1 to 1.2 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.2'" to load this file. \quit

-- Every change to the SQL objects made after 1.1 is listed here, and the
-- same change is made in bloomset--1.2.sql (the fresh-install script); the
-- upgrade test checks that both give exactly the same objects.  Each part
-- below has its own heading; keep new objects under the heading of their
-- feature.

-- 1.2: hashing scheme 2 (full 64-bit integer keys, signed numerics)
--
-- New filters hash with scheme 2; filters written by 1.0 and 1.1 keep
-- scheme 1 and answer as before.  bloom_info's columns are unchanged (a
-- new column would mean DROP and CREATE, breaking users' views, as in the
-- 1.0 -> 1.1 update): the scheme has functions of its own.

CREATE FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) IS
'the hashing scheme of the filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

CREATE FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'counting_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) IS
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

CREATE FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'scalable_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) IS
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

CREATE FUNCTION @extschema@.bloom_with_scheme(@extschema@.bloom, scheme integer)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_with_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_with_scheme(@extschema@.bloom, integer) IS
'the empty filter with the given hashing scheme (1: to build filters that combine with filters stored by 1.0 or 1.1); a filter holding items cannot change';

CREATE FUNCTION @extschema@.counting_bloom_with_scheme(@extschema@.counting_bloom, scheme integer)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_with_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_with_scheme(@extschema@.counting_bloom, integer) IS
'the empty counting filter with the given hashing scheme (1: as bloomset 1.0 and 1.1); a filter holding items cannot change';

CREATE FUNCTION @extschema@.bloom_hash(value anycompatible, seed bigint, scheme integer)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_hash_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash(anycompatible, bigint, integer) IS
'the 64-bit element hash of a value under a hashing scheme (1 or 2; the two-argument form is scheme 1)';

-- 1.2: stored filters read in slices
-- The three types' default storage becomes external (out of line, never
-- compressed): a probe of a value stored so reads its header and the parts
-- its keys need, not the whole value, and writing a sparse filter does not
-- pay for compressing it.  This changes the default of columns created from
-- now on; existing columns keep their storage (ALTER TABLE ... ALTER COLUMN
-- ... SET STORAGE EXTERNAL changes one; values already stored keep theirs
-- until they are written again).
ALTER TYPE @extschema@.bloom SET (STORAGE = external);
ALTER TYPE @extschema@.counting_bloom SET (STORAGE = external);
ALTER TYPE @extschema@.scalable_bloom SET (STORAGE = external);

-- 1.2: the same verbs for the three kinds

-- batch calls, estimates and union aggregates of counting_bloom and
-- scalable_bloom, as bloom has them (one C mechanism per verb, see
-- src/bloom_batch.c)

CREATE FUNCTION @extschema@.counting_bloom_add_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add_all(@extschema@.counting_bloom, anycompatiblearray) IS
'a copy of the counting filter with every non-null array element added';

CREATE FUNCTION @extschema@.counting_bloom_contains_any(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains_any(@extschema@.counting_bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.counting_bloom_contains_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains_all(@extschema@.counting_bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.counting_bloom_contains_each(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'counting_bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains_each(@extschema@.counting_bloom, anycompatiblearray) IS
'counting_bloom_contains for each element (NULL for NULL elements)';

CREATE FUNCTION @extschema@.counting_bloom_estimate_card(@extschema@.counting_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'counting_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_estimate_card(@extschema@.counting_bloom) IS
'estimated number of distinct items, from the non-zero counters';

CREATE FUNCTION @extschema@.counting_bloom_union_trans(internal, @extschema@.counting_bloom)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_final(internal)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_union_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_union_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'counting_bloom_union_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_union_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) (
	SFUNC = @extschema@.counting_bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.counting_bloom_union_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_combine,
	SERIALFUNC = @extschema@.counting_bloom_union_serial,
	DESERIALFUNC = @extschema@.counting_bloom_union_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) IS
'union (counters added) of the non-null counting filters (an empty filter over no rows)';

CREATE FUNCTION @extschema@.scalable_bloom_add_all(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_add_all(@extschema@.scalable_bloom, anycompatiblearray) IS
'a copy of the scalable filter with every non-null array element added (growing as needed)';

CREATE FUNCTION @extschema@.scalable_bloom_contains_any(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains_any(@extschema@.scalable_bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.scalable_bloom_contains_all(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains_all(@extschema@.scalable_bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.scalable_bloom_contains_each(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains_each(@extschema@.scalable_bloom, anycompatiblearray) IS
'scalable_bloom_contains for each element (NULL for NULL elements)';

CREATE FUNCTION @extschema@.scalable_bloom_union_trans(internal, @extschema@.scalable_bloom)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_final(internal)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_union_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_union_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'scalable_bloom_union_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_union_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) (
	SFUNC = @extschema@.scalable_bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.scalable_bloom_union_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_combine,
	SERIALFUNC = @extschema@.scalable_bloom_union_serial,
	DESERIALFUNC = @extschema@.scalable_bloom_union_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) IS
'union (sub-filter-wise OR) of the non-null scalable filters (an empty filter over no rows; warns when over capacity)';

-- 1.2: Parquet filters

CREATE FUNCTION @extschema@.bloom_parquet_empty(size_bytes integer, element_type regtype)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_parquet_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_empty(integer, regtype) IS
'empty filter of the Parquet scheme (XXH64 of the PLAIN encoding) with a bitset of size_bytes (a multiple of 32), for values of element_type';

CREATE FUNCTION @extschema@.bloom_parquet_empty(capacity bigint, fpr float8, element_type regtype)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_parquet_empty_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_empty(bigint, float8, regtype) IS
'empty filter of the Parquet scheme sized as Parquet writers size theirs (a power of two of bytes) for capacity values of element_type at rate fpr';

CREATE FUNCTION @extschema@.bloom_from_parquet(filter bytea, element_type regtype)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_from_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_parquet(bytea, regtype) IS
'a Parquet split-block filter (the bytes at a column chunk''s bloom_filter_offset, or the bitset alone) as a filter for values of element_type';

CREATE FUNCTION @extschema@.bloom_to_parquet(@extschema@.bloom)
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_to_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_parquet(@extschema@.bloom) IS
'the bytes a Parquet writer puts in a file for a filter of the Parquet scheme: the Thrift BloomFilterHeader, then the bitset';

CREATE FUNCTION @extschema@.bloom_parquet_agg_trans(internal, anyelement, bigint, float8)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE @extschema@.bloom_parquet_agg(anyelement, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(anyelement, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

-- 1.2: one aggregate engine for the three kinds
--
-- counting_bloom_agg(x) keeps each distinct value once with its count
-- while it sizes the filter, so its limit counts distinct values.
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(anyelement) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';
