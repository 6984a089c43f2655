/* bloomset.sql: the source of the current version's install script.
 *
 * `make` copies this file to bloomset--<default_version>.sql (DATA_built);
 * edit this file, never the built one.  Ordered by feature, not by history.
 *
 * A NEW OR CHANGED SQL OBJECT GOES INTO TWO PLACES: the update script of the
 * version being built (extension/bloomset--1.3--1.4.sql, for databases
 * already installed) and the section of its feature below (for fresh
 * installs).  test/upgrade/run.sh fails until both create the same objects.
 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bloomset" to load this file. \quit

-- Every object is created in, and every reference qualified with,
-- @extschema@, so the script is safe whatever the search_path.

---------------------------------------------------------------------------
-- The type
---------------------------------------------------------------------------

CREATE TYPE @extschema@.bloom;

CREATE FUNCTION @extschema@.bloom_in(cstring) RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_out(@extschema@.bloom) RETURNS cstring
AS 'MODULE_PATHNAME', 'bloom_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_recv(internal) RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_send(@extschema@.bloom) RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.bloom (
	INPUT = @extschema@.bloom_in,
	OUTPUT = @extschema@.bloom_out,
	RECEIVE = @extschema@.bloom_recv,
	SEND = @extschema@.bloom_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external,	-- stored filters read in slices (see below)
	PREFERRED = true	-- see "One verb for every kind"
);

-- The binary (send/recv) form as bytea, for storage in other systems or
-- bytea columns; the reverse cast validates like bloom_recv.
CREATE FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) IS
'the binary (send) form of the filter as bytea; a corrupt value is written out field by field so it can be salvaged';

CREATE FUNCTION @extschema@.bloom_from_bytea(bytea) RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_bytea(bytea) IS
'a filter from its binary form, validated like binary input';

CREATE CAST (@extschema@.bloom AS bytea)
	WITH FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom);
CREATE CAST (bytea AS @extschema@.bloom)
	WITH FUNCTION @extschema@.bloom_from_bytea(bytea);

COMMENT ON TYPE @extschema@.bloom IS
'Bloom filter: a versioned header (layout, hashes, seed, size, element family, items) and a bit array';

---------------------------------------------------------------------------
-- Constructors and sizing
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_empty(capacity bigint, fpr float8 DEFAULT 0.01)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty(bigint, float8) IS
'empty filter sized for capacity items at false-positive rate fpr';

CREATE FUNCTION @extschema@.bloom_empty(size_bytes integer, hashes integer, seed bigint)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_empty_explicit' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty(integer, integer, bigint) IS
'empty classic filter with explicit parameters, as ClickHouse''s BloomFilterParameters(filter_size, filter_hashes, seed)';

CREATE FUNCTION @extschema@.bloom_params(capacity bigint, fpr float8 DEFAULT 0.01,
	layout text DEFAULT NULL,
	OUT layout text, OUT bits bigint, OUT bytes bigint, OUT hashes integer,
	OUT expected_fpr float8, OUT bits_per_item float8)
RETURNS record
AS 'MODULE_PATHNAME', 'bloom_params' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_params(bigint, float8, text) IS
'the sizing bloomset chooses for capacity items at rate fpr (layout NULL = automatic choice)';

---------------------------------------------------------------------------
-- Adding and probing
---------------------------------------------------------------------------

-- Not STRICT: adding NULL returns the filter unchanged.
CREATE FUNCTION @extschema@.bloom_add(@extschema@.bloom, anycompatible)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, anycompatible) IS
'a copy of the filter with the value added (NULL values are ignored)';

-- Planner support: one selectivity estimate for the contains functions
-- (support function) and the @> operators (restriction estimator), from a
-- constant filter's estimated items and rate against the column's
-- statistics (see src/probe/bloom_planner.c).
CREATE FUNCTION @extschema@.bloom_contains_support(internal) RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_contains_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_support(internal) IS
'planner support of the contains functions: selectivity';

CREATE FUNCTION @extschema@.bloom_contains_restrict(internal, oid, internal, integer) RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_contains_restrict' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_restrict(internal, oid, internal, integer) IS
'restriction selectivity estimator of the @> operators';

CREATE FUNCTION @extschema@.bloom_contains_joinsel(internal, oid, internal, smallint, internal) RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_contains_joinsel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_joinsel(internal, oid, internal, smallint, internal) IS
'join selectivity estimator of the @> operators';

CREATE FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anycompatible)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.bloom_contains_support;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anycompatible) IS
'false if the value is certainly not in the set; true if it may be';

CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = anycompatible,
	FUNCTION = @extschema@.bloom_add
);

-- bloom || text would be ambiguous with the built-in anynonarray || text;
-- an exact (bloom, text) operator settles it.  Same C function.
CREATE FUNCTION @extschema@.bloom_add(@extschema@.bloom, text)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, text) IS
'a copy of the filter with the text value added';

CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = text,
	FUNCTION = @extschema@.bloom_add
);

-- a "char" matches both the text overload (by its implicit cast) and the
-- anycompatible one, and neither wins: its own overload, hashed as
-- bloom_agg hashes it
CREATE FUNCTION @extschema@.bloom_add(@extschema@.bloom, "char")
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, "char") IS
'a copy of the filter with the "char" value added (NULL values are ignored)';
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.bloom, RIGHTARG = "char",
	FUNCTION = @extschema@.bloom_add
);

CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = anycompatible,
	FUNCTION = @extschema@.bloom_contains,
	RESTRICT = @extschema@.bloom_contains_restrict,
	JOIN = @extschema@.bloom_contains_joinsel
);

CREATE FUNCTION @extschema@.bloom_hash(value anycompatible, seed bigint DEFAULT 0)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash(anycompatible, bigint) IS
'the 64-bit element hash a filter with this seed uses for the value';

---------------------------------------------------------------------------
-- Set operations, equality, resizing
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_union' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom) IS
'filter of the union of both sets (sizes may differ by a whole factor)';

CREATE FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_intersect' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom) IS
'filter that answers true for every member of both sets (bitwise AND)';

CREATE OPERATOR @extschema@.| (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_union,
	COMMUTATOR = OPERATOR(@extschema@.|)
);

CREATE OPERATOR @extschema@.& (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_intersect,
	COMMUTATOR = OPERATOR(@extschema@.&)
);

CREATE FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom) IS
'same parameters and same bits (the item counter is not compared)';

CREATE FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom) IS
'not bloom_eq';

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_eq,
	COMMUTATOR = OPERATOR(@extschema@.=),
	NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel,
	JOIN = eqjoinsel
);

CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>),
	NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel,
	JOIN = neqjoinsel
);

-- Equality that groups: a hash operator class, so DISTINCT, GROUP BY and
-- UNION work on bloom values (hashing exactly what = compares).
CREATE FUNCTION @extschema@.bloom_hash_value(@extschema@.bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'bloom_hash_value' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash_value(@extschema@.bloom) IS
'hash of a filter for the hash operator class (what = compares: parameters, element type, bits)';

CREATE FUNCTION @extschema@.bloom_hash_value_extended(@extschema@.bloom, bigint) RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_hash_value_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash_value_extended(@extschema@.bloom, bigint) IS
'seeded 64-bit hash of a filter for the hash operator class';

CREATE OPERATOR CLASS @extschema@.bloom_hash_ops
DEFAULT FOR TYPE @extschema@.bloom USING hash AS
	OPERATOR 1 @extschema@.= (@extschema@.bloom, @extschema@.bloom),
	FUNCTION 1 @extschema@.bloom_hash_value(@extschema@.bloom),
	FUNCTION 2 @extschema@.bloom_hash_value_extended(@extschema@.bloom, bigint);

-- An order for sorting (count(DISTINCT f), merge joins): parameters, then
-- element type, then the bits; it means nothing beyond being consistent
-- with =.
CREATE FUNCTION @extschema@.bloom_cmp(@extschema@.bloom, @extschema@.bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'bloom_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_cmp(@extschema@.bloom, @extschema@.bloom) IS
'-1, 0 or 1: the btree order of filters (consistent with =, otherwise arbitrary)';

CREATE FUNCTION @extschema@.bloom_lt(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_lt(@extschema@.bloom, @extschema@.bloom) IS
'bloom_cmp < 0';
CREATE FUNCTION @extschema@.bloom_le(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_le(@extschema@.bloom, @extschema@.bloom) IS
'bloom_cmp <= 0';
CREATE FUNCTION @extschema@.bloom_gt(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_gt(@extschema@.bloom, @extschema@.bloom) IS
'bloom_cmp > 0';
CREATE FUNCTION @extschema@.bloom_ge(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_ge(@extschema@.bloom, @extschema@.bloom) IS
'bloom_cmp >= 0';

CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS @extschema@.bloom_btree_ops
DEFAULT FOR TYPE @extschema@.bloom USING btree AS
	OPERATOR 1 @extschema@.< (@extschema@.bloom, @extschema@.bloom),
	OPERATOR 2 @extschema@.<= (@extschema@.bloom, @extschema@.bloom),
	OPERATOR 3 @extschema@.= (@extschema@.bloom, @extschema@.bloom),
	OPERATOR 4 @extschema@.>= (@extschema@.bloom, @extschema@.bloom),
	OPERATOR 5 @extschema@.> (@extschema@.bloom, @extschema@.bloom),
	FUNCTION 1 @extschema@.bloom_cmp(@extschema@.bloom, @extschema@.bloom);

CREATE FUNCTION @extschema@.bloom_fold(@extschema@.bloom, factor integer)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_fold' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_fold(@extschema@.bloom, integer) IS
'the filter folded to 1/factor of its size (never a false negative; higher rate)';

---------------------------------------------------------------------------
-- Estimates and introspection
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_estimate_card(@extschema@.bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_estimate_card(@extschema@.bloom) IS
'estimated number of distinct items, from the fraction of bits set';

CREATE FUNCTION @extschema@.bloom_info(@extschema@.bloom,
	OUT layout text, OUT bits bigint, OUT bytes bigint, OUT hashes integer,
	OUT seed bigint, OUT items bigint, OUT bits_set bigint,
	OUT fill_ratio float8, OUT estimated_card float8,
	OUT estimated_fpr float8, OUT element_family text,
	OUT format_version integer, OUT target_fpr float8, OUT collation text)
RETURNS record
AS 'MODULE_PATHNAME', 'bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.bloom) IS
'parameters and state of a filter, with its estimated cardinality, current and target false-positive rate and collation';

---------------------------------------------------------------------------
-- Batch calls (RedisBloom's MADD / MEXISTS)
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_add_all(@extschema@.bloom, anycompatiblearray)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add_all(@extschema@.bloom, anycompatiblearray) IS
'a copy of the filter with every non-null array element added';

CREATE FUNCTION @extschema@.bloom_contains_any(@extschema@.bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_any(@extschema@.bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.bloom_contains_all(@extschema@.bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_all(@extschema@.bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.bloom_contains_each(@extschema@.bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_each(@extschema@.bloom, anycompatiblearray) IS
'bloom_contains for each element (NULL for NULL elements)';

---------------------------------------------------------------------------
-- Estimates over two filters, shrinking
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_union_card(@extschema@.bloom, @extschema@.bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_union_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union_card(@extschema@.bloom, @extschema@.bloom) IS
'estimated size of the union of the two sets';

CREATE FUNCTION @extschema@.bloom_intersect_card(@extschema@.bloom, @extschema@.bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_intersect_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect_card(@extschema@.bloom, @extschema@.bloom) IS
'estimated size of the intersection, |A| + |B| - |A u B|';

CREATE FUNCTION @extschema@.bloom_jaccard(@extschema@.bloom, @extschema@.bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_jaccard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_jaccard(@extschema@.bloom, @extschema@.bloom) IS
'estimated Jaccard similarity |A n B| / |A u B|';

CREATE FUNCTION @extschema@.bloom_maybe_subset(@extschema@.bloom, @extschema@.bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_maybe_subset' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_maybe_subset(@extschema@.bloom, @extschema@.bloom) IS
'false if the first set is certainly not a subset of the second';

CREATE FUNCTION @extschema@.bloom_shrink(@extschema@.bloom, fpr float8 DEFAULT 0.01)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_shrink' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_shrink(@extschema@.bloom, float8) IS
'the filter folded to the smallest size whose actual rate stays at or under fpr';

---------------------------------------------------------------------------
-- Aggregates
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_agg_trans(internal, anyelement)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_agg_trans_sized(internal, anyelement, bigint, float8)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_agg_trans_sized' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_agg_trans_explicit(internal, anyelement, integer, integer, bigint)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_agg_trans_explicit' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_agg_final(internal)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_agg_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_agg_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_agg_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_agg_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_agg_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_agg_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.bloom_agg(anyelement) (
	SFUNC = @extschema@.bloom_agg_trans,
	STYPE = internal,
	SSPACE = 1024,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(anyelement, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_trans_sized,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(anyelement, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_trans_explicit,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE FUNCTION @extschema@.bloom_union_trans(internal, @extschema@.bloom)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_intersect_trans(internal, @extschema@.bloom)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_intersect_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_union_final(internal)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_union_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_intersect_final(internal)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_intersect_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_union_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_union_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_intersect_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_intersect_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_setop_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_setop_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_setop_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_setop_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Aggregates that split across the machines of a distributed database
--
-- Citus runs a custom aggregate as partial aggregates on the shards and a
-- combine on the coordinator only when its state type is a real type (not
-- `internal`) with a combine function; the transition function is then
-- called without an expression, so it must know the key type from its own
-- declaration.  bloom_agg_state is that type (the serialized state: hex as
-- text, the bytes as the binary form), and bloom_agg gets one overload per
-- common key type over it.  Every type that converts implicitly to one of
-- these key types has its own overload too (smallint for the integers;
-- "char", name, character and varchar for text), so no call that resolved to
-- bloom_agg(anyelement) in 1.3 changes its hashing; bloom_agg(anyelement)
-- stays for every other type.  The filters are the same, byte for byte.

CREATE TYPE @extschema@.bloom_agg_state;

CREATE FUNCTION @extschema@.bloom_agg_state_in(cstring)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_in(cstring) IS
'input function of bloom_agg_state: \x and the serialized state in hex, validated';

CREATE FUNCTION @extschema@.bloom_agg_state_out(@extschema@.bloom_agg_state)
RETURNS cstring
AS 'MODULE_PATHNAME', 'bloom_agg_state_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_out(@extschema@.bloom_agg_state) IS
'output function of bloom_agg_state: \x and the serialized state in hex';

CREATE FUNCTION @extschema@.bloom_agg_state_recv(internal)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_recv(internal) IS
'binary input function of bloom_agg_state: the serialized state, validated';

CREATE FUNCTION @extschema@.bloom_agg_state_send(@extschema@.bloom_agg_state)
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_agg_state_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_send(@extschema@.bloom_agg_state) IS
'binary output function of bloom_agg_state: the serialized state';

CREATE TYPE @extschema@.bloom_agg_state (
	INPUT = @extschema@.bloom_agg_state_in,
	OUTPUT = @extschema@.bloom_agg_state_out,
	RECEIVE = @extschema@.bloom_agg_state_recv,
	SEND = @extschema@.bloom_agg_state_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = extended
);
COMMENT ON TYPE @extschema@.bloom_agg_state IS
'partial state of the per-type bloom_agg aggregates, as it crosses the nodes of a distributed database';

-- The transition functions: not STRICT (the first row starts the state,
-- NULL values are skipped), IMMUTABLE as the 1.0 ones.  One C entry point
-- serves every key type: the declared argument says the type when Citus
-- calls it without an expression.  Outside an aggregate they are an error.

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, smallint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, smallint) IS
'transition function of bloom_agg(smallint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8) IS
'transition function of bloom_agg(smallint, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, integer, integer, bigint) IS
'transition function of bloom_agg(smallint, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, integer)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, integer) IS
'transition function of bloom_agg(integer)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8) IS
'transition function of bloom_agg(integer, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, integer, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, integer, integer, integer, bigint) IS
'transition function of bloom_agg(integer, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bigint) IS
'transition function of bloom_agg(bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8) IS
'transition function of bloom_agg(bigint, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, integer, integer, bigint) IS
'transition function of bloom_agg(bigint, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, text)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, text) IS
'transition function of bloom_agg(text)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8) IS
'transition function of bloom_agg(text, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, text, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, text, integer, integer, bigint) IS
'transition function of bloom_agg(text, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, varchar)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, varchar) IS
'transition function of bloom_agg(varchar)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8) IS
'transition function of bloom_agg(varchar, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, integer, integer, bigint) IS
'transition function of bloom_agg(varchar, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar) IS
'transition function of bloom_agg(bpchar)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8) IS
'transition function of bloom_agg(bpchar, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, integer, integer, bigint) IS
'transition function of bloom_agg(bpchar, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, name)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, name) IS
'transition function of bloom_agg(name)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8) IS
'transition function of bloom_agg(name, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, name, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, name, integer, integer, bigint) IS
'transition function of bloom_agg(name, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, "char")
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, "char") IS
'transition function of bloom_agg("char")';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8) IS
'transition function of bloom_agg("char", bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, "char", integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, "char", integer, integer, bigint) IS
'transition function of bloom_agg("char", integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, uuid)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, uuid) IS
'transition function of bloom_agg(uuid)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8) IS
'transition function of bloom_agg(uuid, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, integer, integer, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, integer, integer, bigint) IS
'transition function of bloom_agg(uuid, integer, integer, bigint)';

CREATE FUNCTION @extschema@.bloom_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of the per-type bloom_agg aggregates: merges two partial states';

CREATE FUNCTION @extschema@.bloom_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of the per-type bloom_agg aggregates: the filter of a state';

CREATE AGGREGATE @extschema@.bloom_agg(smallint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(smallint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(smallint, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(integer) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(integer, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(integer, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(bigint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(bigint, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(text) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(text) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(text, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(text, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(text, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(text, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(varchar) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(varchar) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(varchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(varchar, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(varchar, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(varchar, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(bpchar) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bpchar) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(bpchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bpchar, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(bpchar, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bpchar, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(name) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(name) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(name, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(name, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(name, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(name, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg("char") (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg("char") IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg("char", capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg("char", bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg("char", size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg("char", integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

CREATE AGGREGATE @extschema@.bloom_agg(uuid) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid) IS
'filter of the non-null values, sized automatically for at most 1 % false positives';

CREATE AGGREGATE @extschema@.bloom_agg(uuid, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid, bigint, float8) IS
'filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.bloom_agg(uuid, size_bytes integer, hashes integer, seed bigint) (
	SFUNC = @extschema@.bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid, integer, integer, bigint) IS
'filter of the non-null values with explicit parameters (size in bytes, hashes, seed)';

-- bloom_union_agg and bloom_intersect_agg over the same state type (the
-- result so far, a filter), so that they split too.

CREATE FUNCTION @extschema@.bloom_union_agg_state_add(@extschema@.bloom_agg_state, @extschema@.bloom)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_union_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union_agg_state_add(@extschema@.bloom_agg_state, @extschema@.bloom) IS
'transition function of bloom_union_agg(bloom)';

CREATE FUNCTION @extschema@.bloom_union_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_union_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of bloom_union_agg(bloom): merges two partial states';

CREATE FUNCTION @extschema@.bloom_union_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_union_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of bloom_union_agg(bloom): the result of a state';

CREATE AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) (
	SFUNC = @extschema@.bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) IS
'union of the non-null filters (an empty filter over no rows)';

CREATE FUNCTION @extschema@.bloom_intersect_agg_state_add(@extschema@.bloom_agg_state, @extschema@.bloom)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_intersect_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect_agg_state_add(@extschema@.bloom_agg_state, @extschema@.bloom) IS
'transition function of bloom_intersect_agg(bloom)';

CREATE FUNCTION @extschema@.bloom_intersect_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_intersect_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of bloom_intersect_agg(bloom): merges two partial states';

CREATE FUNCTION @extschema@.bloom_intersect_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_intersect_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of bloom_intersect_agg(bloom): the result of a state';

CREATE AGGREGATE @extschema@.bloom_intersect_agg(@extschema@.bloom) (
	SFUNC = @extschema@.bloom_intersect_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_intersect_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_intersect_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_intersect_agg(@extschema@.bloom) IS
'intersection (bitwise AND) of the non-null filters (NULL over no rows)';

---------------------------------------------------------------------------
-- Substring and token pre-checks (ClickHouse ngrambf_v1 / tokenbf_v1)
---------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_ngram_agg_trans(internal, text)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_ngram_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_ngram_agg_trans(internal, text, integer)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_ngram_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_token_agg_trans(internal, text)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_token_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The aggregates' state is bloom_agg_state, so that they split; the
-- internal-state transition functions above stay for aggregates of the
-- user's own built on them.

CREATE FUNCTION @extschema@.bloom_ngram_agg_state_add(@extschema@.bloom_agg_state, text)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_ngram_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_ngram_agg_state_add(@extschema@.bloom_agg_state, text) IS
'transition function of bloom_ngram_agg(text)';

CREATE FUNCTION @extschema@.bloom_ngram_agg_state_add(@extschema@.bloom_agg_state, text, integer)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_ngram_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_ngram_agg_state_add(@extschema@.bloom_agg_state, text, integer) IS
'transition function of bloom_ngram_agg(text, integer)';

CREATE FUNCTION @extschema@.bloom_token_agg_state_add(@extschema@.bloom_agg_state, text)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_token_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_token_agg_state_add(@extschema@.bloom_agg_state, text) IS
'transition function of bloom_token_agg(text)';

CREATE AGGREGATE @extschema@.bloom_ngram_agg(text) (
	SFUNC = @extschema@.bloom_ngram_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_ngram_agg(text) IS
'filter of the 3-grams (3 consecutive characters) of the values, for LIKE pre-checks';

CREATE AGGREGATE @extschema@.bloom_ngram_agg(text, n integer) (
	SFUNC = @extschema@.bloom_ngram_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_ngram_agg(text, integer) IS
'filter of the n-grams (n = 1..8 characters) of the values';

CREATE AGGREGATE @extschema@.bloom_token_agg(text) (
	SFUNC = @extschema@.bloom_token_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_token_agg(text) IS
'filter of the tokens (runs of ASCII letters and digits or non-ASCII bytes) of the values';

CREATE FUNCTION @extschema@.bloom_ngram_may_contain(@extschema@.bloom, needle text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_ngram_may_contain' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_ngram_may_contain(@extschema@.bloom, text) IS
'false if no value in the n-gram filter contains needle (LIKE ''%needle%'')';

CREATE FUNCTION @extschema@.bloom_may_like(@extschema@.bloom, pattern text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_may_like' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_may_like(@extschema@.bloom, text) IS
'false if no value in the n-gram filter can match the LIKE pattern';

CREATE FUNCTION @extschema@.bloom_token_may_contain(@extschema@.bloom, tokens text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_token_may_contain' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_token_may_contain(@extschema@.bloom, text) IS
'false if no value in the token filter contains every token of the argument';

---------------------------------------------------------------------------

-- counting_bloom: 4-bit counters, supports removal
---------------------------------------------------------------------------

CREATE TYPE @extschema@.counting_bloom;

CREATE FUNCTION @extschema@.counting_bloom_in(cstring) RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_out(@extschema@.counting_bloom) RETURNS cstring
AS 'MODULE_PATHNAME', 'bloom_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_recv(internal) RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_send(@extschema@.counting_bloom) RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.counting_bloom (
	INPUT = @extschema@.counting_bloom_in,
	OUTPUT = @extschema@.counting_bloom_out,
	RECEIVE = @extschema@.counting_bloom_recv,
	SEND = @extschema@.counting_bloom_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external	-- stored filters read in slices (see below)
);
COMMENT ON TYPE @extschema@.counting_bloom IS
'counting Bloom filter: 4-bit saturating counters (same header as bloom, layout counting); supports removal';

-- the binary form as bytea (the send form, and its validated reverse)
CREATE FUNCTION @extschema@.counting_bloom_from_bytea(bytea) RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_from_bytea(bytea) IS
'a counting filter from its binary form, validated like binary input';
CREATE CAST (@extschema@.counting_bloom AS bytea)
	WITH FUNCTION @extschema@.counting_bloom_send(@extschema@.counting_bloom);
CREATE CAST (bytea AS @extschema@.counting_bloom)
	WITH FUNCTION @extschema@.counting_bloom_from_bytea(bytea);

-- equality: the same parameters and counters
CREATE FUNCTION @extschema@.counting_bloom_eq(@extschema@.counting_bloom, @extschema@.counting_bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_eq(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
'same parameters and same counters (the item counter is not compared)';
CREATE FUNCTION @extschema@.counting_bloom_ne(@extschema@.counting_bloom, @extschema@.counting_bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_ne(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
'not counting_bloom_eq';
CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = @extschema@.counting_bloom,
	FUNCTION = @extschema@.counting_bloom_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = @extschema@.counting_bloom,
	FUNCTION = @extschema@.counting_bloom_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);

CREATE FUNCTION @extschema@.counting_bloom_empty(capacity bigint, fpr float8 DEFAULT 0.01)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_empty(bigint, float8) IS
'empty counting filter for capacity items at rate fpr (4 bits per classic bit)';

-- Not STRICT: adding NULL returns the filter unchanged.
CREATE FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, anycompatible)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, anycompatible) IS
'a copy with the value added (its counters + 1, saturating at 15)';

CREATE FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, text)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, text) IS
'a copy with the text value added';

CREATE FUNCTION @extschema@.counting_bloom_remove(@extschema@.counting_bloom, anycompatible)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_remove' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_remove(@extschema@.counting_bloom, anycompatible) IS
'a copy with the value removed; an error if it was certainly never added';

CREATE FUNCTION @extschema@.counting_bloom_remove_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_remove_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_remove_all(@extschema@.counting_bloom, anycompatiblearray) IS
'a copy with every non-null element removed; an error if one was certainly never added';

CREATE FUNCTION @extschema@.counting_bloom_contains(@extschema@.counting_bloom, anycompatible)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.bloom_contains_support;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains(@extschema@.counting_bloom, anycompatible) IS
'false if the value is certainly not in the set';

CREATE FUNCTION @extschema@.counting_bloom_union(@extschema@.counting_bloom, @extschema@.counting_bloom)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_union' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
'multiset union: counters added, saturating at 15';

CREATE FUNCTION @extschema@.counting_bloom_to_bloom(@extschema@.counting_bloom)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'counting_bloom_to_bloom' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_to_bloom(@extschema@.counting_bloom) IS
'the classic bloom filter of the non-zero counters (a quarter of the size)';

CREATE CAST (@extschema@.counting_bloom AS @extschema@.bloom)
	WITH FUNCTION @extschema@.counting_bloom_to_bloom(@extschema@.counting_bloom);

CREATE FUNCTION @extschema@.counting_bloom_info(@extschema@.counting_bloom,
	OUT counters bigint, OUT hashes integer, OUT items bigint,
	OUT nonzero_counters bigint, OUT saturated_counters bigint,
	OUT estimated_fpr float8, OUT element_family text, OUT bytes bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'counting_bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_info(@extschema@.counting_bloom) IS
'parameters and state of a counting filter';

CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.counting_bloom_add
);
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = text,
	FUNCTION = @extschema@.counting_bloom_add
);
CREATE FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, "char")
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, "char") IS
'a copy with the "char" value added (its counters + 1, saturating at 15)';
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = "char",
	FUNCTION = @extschema@.counting_bloom_add
);
CREATE OPERATOR @extschema@.- (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.counting_bloom_remove
);
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.counting_bloom_contains,
	RESTRICT = @extschema@.bloom_contains_restrict, JOIN = @extschema@.bloom_contains_joinsel
);
CREATE OPERATOR @extschema@.| (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = @extschema@.counting_bloom,
	FUNCTION = @extschema@.counting_bloom_union,
	COMMUTATOR = OPERATOR(@extschema@.|)
);

CREATE FUNCTION @extschema@.counting_bloom_agg_trans(internal, anyelement, bigint, float8)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_agg_final(internal)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_agg_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_agg_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_agg_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'counting_bloom_agg_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_agg_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_agg_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.counting_bloom_agg(anyelement, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.counting_bloom_agg_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_combine,
	SERIALFUNC = @extschema@.counting_bloom_agg_serial,
	DESERIALFUNC = @extschema@.counting_bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(anyelement, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE FUNCTION @extschema@.counting_bloom_agg_auto_trans(internal, anyelement)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_agg_auto_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_agg_auto_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'counting_bloom_agg_auto_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_agg_auto_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_agg_auto_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.counting_bloom_agg(anyelement) (
	SFUNC = @extschema@.counting_bloom_agg_auto_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.counting_bloom_agg_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_combine,
	SERIALFUNC = @extschema@.counting_bloom_agg_auto_serial,
	DESERIALFUNC = @extschema@.counting_bloom_agg_auto_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(anyelement) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

-- counting_bloom_agg per key type, over the same state type (its tag says
-- the kind): the automatic and the sized forms.

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint) IS
'transition function of counting_bloom_agg(smallint)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8) IS
'transition function of counting_bloom_agg(smallint, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, integer)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, integer) IS
'transition function of counting_bloom_agg(integer)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8) IS
'transition function of counting_bloom_agg(integer, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint) IS
'transition function of counting_bloom_agg(bigint)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8) IS
'transition function of counting_bloom_agg(bigint, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, text)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, text) IS
'transition function of counting_bloom_agg(text)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8) IS
'transition function of counting_bloom_agg(text, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar) IS
'transition function of counting_bloom_agg(varchar)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8) IS
'transition function of counting_bloom_agg(varchar, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar) IS
'transition function of counting_bloom_agg(bpchar)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8) IS
'transition function of counting_bloom_agg(bpchar, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, name)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, name) IS
'transition function of counting_bloom_agg(name)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8) IS
'transition function of counting_bloom_agg(name, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, "char")
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, "char") IS
'transition function of counting_bloom_agg("char")';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8) IS
'transition function of counting_bloom_agg("char", bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid) IS
'transition function of counting_bloom_agg(uuid)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8) IS
'transition function of counting_bloom_agg(uuid, bigint, float8)';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of the per-type counting_bloom_agg aggregates: merges two partial states';

CREATE FUNCTION @extschema@.counting_bloom_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of the per-type counting_bloom_agg aggregates: the counting filter of a state';

CREATE AGGREGATE @extschema@.counting_bloom_agg(smallint) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(smallint) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(smallint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(smallint, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(integer) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(integer) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(integer, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(integer, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(bigint) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(bigint) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(bigint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(bigint, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(text) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(text) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(text, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(text, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(varchar) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(varchar) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(varchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(varchar, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(bpchar) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(bpchar) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(bpchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(bpchar, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(name) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(name) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(name, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(name, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg("char") (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg("char") IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg("char", capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg("char", bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

CREATE AGGREGATE @extschema@.counting_bloom_agg(uuid) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(uuid) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

CREATE AGGREGATE @extschema@.counting_bloom_agg(uuid, capacity bigint, fpr float8) (
	SFUNC = @extschema@.counting_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(uuid, bigint, float8) IS
'counting filter of the non-null values, sized for capacity items at rate fpr';

---------------------------------------------------------------------------

-- batch calls, estimates and the union aggregate (one C mechanism per verb
-- for the three kinds, see src/probe/bloom_batch.c)

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

CREATE FUNCTION @extschema@.counting_bloom_union_agg_state_add(@extschema@.bloom_agg_state, @extschema@.counting_bloom)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_union_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union_agg_state_add(@extschema@.bloom_agg_state, @extschema@.counting_bloom) IS
'transition function of counting_bloom_union_agg(counting_bloom) and bloom_union_agg(counting_bloom)';

CREATE FUNCTION @extschema@.counting_bloom_union_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'counting_bloom_union_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of counting_bloom_union_agg(counting_bloom) and bloom_union_agg(counting_bloom): merges two partial states';

CREATE FUNCTION @extschema@.counting_bloom_union_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_union_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_union_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of counting_bloom_union_agg(counting_bloom) and bloom_union_agg(counting_bloom): the result of a state';

CREATE AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) (
	SFUNC = @extschema@.counting_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) IS
'union (counters added) of the non-null counting filters (an empty filter over no rows)';

-- scalable_bloom: grows with the data (sub-filters of growing capacity)
---------------------------------------------------------------------------

CREATE TYPE @extschema@.scalable_bloom;

CREATE FUNCTION @extschema@.scalable_bloom_in(cstring) RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_out(@extschema@.scalable_bloom) RETURNS cstring
AS 'MODULE_PATHNAME', 'scalable_bloom_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_recv(internal) RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_send(@extschema@.scalable_bloom) RETURNS bytea
AS 'MODULE_PATHNAME', 'scalable_bloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.scalable_bloom (
	INPUT = @extschema@.scalable_bloom_in,
	OUTPUT = @extschema@.scalable_bloom_out,
	RECEIVE = @extschema@.scalable_bloom_recv,
	SEND = @extschema@.scalable_bloom_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external	-- stored filters read in slices (see below)
);
COMMENT ON TYPE @extschema@.scalable_bloom IS
'scalable Bloom filter: a chain of sub-filters of growing capacity and tightening rate (layout scalable)';

-- the binary form as bytea (the send form, and its validated reverse)
CREATE FUNCTION @extschema@.scalable_bloom_from_bytea(bytea) RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_from_bytea(bytea) IS
'a scalable filter from its binary form, validated like binary input';
CREATE CAST (@extschema@.scalable_bloom AS bytea)
	WITH FUNCTION @extschema@.scalable_bloom_send(@extschema@.scalable_bloom);
CREATE CAST (bytea AS @extschema@.scalable_bloom)
	WITH FUNCTION @extschema@.scalable_bloom_from_bytea(bytea);

-- equality: the same binary form
CREATE FUNCTION @extschema@.scalable_bloom_eq(@extschema@.scalable_bloom, @extschema@.scalable_bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_eq(@extschema@.scalable_bloom, @extschema@.scalable_bloom) IS
'same binary form: the same parameters and sub-filters, bits and item counters';
CREATE FUNCTION @extschema@.scalable_bloom_ne(@extschema@.scalable_bloom, @extschema@.scalable_bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_ne(@extschema@.scalable_bloom, @extschema@.scalable_bloom) IS
'not scalable_bloom_eq';
CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = @extschema@.scalable_bloom,
	FUNCTION = @extschema@.scalable_bloom_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = @extschema@.scalable_bloom,
	FUNCTION = @extschema@.scalable_bloom_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);

CREATE FUNCTION @extschema@.scalable_bloom_empty(capacity bigint DEFAULT 1000,
	fpr float8 DEFAULT 0.01, growth integer DEFAULT 2)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_empty(bigint, float8, integer) IS
'empty scalable filter: first sub-filter for capacity items, overall rate below fpr, each next sub-filter growth times larger';

-- Not STRICT: adding NULL returns the filter unchanged.
CREATE FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, anycompatible)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, anycompatible) IS
'a copy with the value added (a new sub-filter is appended when the newest is full)';

CREATE FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, text)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, text) IS
'a copy with the text value added';

CREATE FUNCTION @extschema@.scalable_bloom_contains(@extschema@.scalable_bloom, anycompatible)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.bloom_contains_support;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains(@extschema@.scalable_bloom, anycompatible) IS
'false if the value is certainly not in the set';

CREATE FUNCTION @extschema@.scalable_bloom_union(@extschema@.scalable_bloom, @extschema@.scalable_bloom)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_union' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_union(@extschema@.scalable_bloom, @extschema@.scalable_bloom) IS
'union: sub-filter-wise OR of two scalable filters with the same parameters';

CREATE FUNCTION @extschema@.scalable_bloom_estimate_card(@extschema@.scalable_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'scalable_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_estimate_card(@extschema@.scalable_bloom) IS
'estimated distinct items (sum over the sub-filters)';

CREATE FUNCTION @extschema@.scalable_bloom_info(@extschema@.scalable_bloom,
	OUT sub integer, OUT layout text, OUT bits bigint, OUT hashes integer,
	OUT capacity bigint, OUT items bigint, OUT target_fpr float8, OUT estimated_fpr float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'scalable_bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_info(@extschema@.scalable_bloom) IS
'one row per sub-filter: layout, size, capacity, items, target and current rate';

CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.scalable_bloom_add
);
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = text,
	FUNCTION = @extschema@.scalable_bloom_add
);
CREATE FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, "char")
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, "char") IS
'a copy with the "char" value added (a new sub-filter is appended when the newest is full)';
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = "char",
	FUNCTION = @extschema@.scalable_bloom_add
);
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.scalable_bloom_contains,
	RESTRICT = @extschema@.bloom_contains_restrict, JOIN = @extschema@.bloom_contains_joinsel
);
CREATE OPERATOR @extschema@.| (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = @extschema@.scalable_bloom,
	FUNCTION = @extschema@.scalable_bloom_union,
	COMMUTATOR = OPERATOR(@extschema@.|)
);

CREATE FUNCTION @extschema@.scalable_bloom_agg_trans(internal, anyelement)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_agg_trans(internal, anyelement, bigint, float8)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_agg_final(internal)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_agg_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_agg_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_agg_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.scalable_bloom_agg(anyelement) (
	SFUNC = @extschema@.scalable_bloom_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.scalable_bloom_agg_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_combine,
	SERIALFUNC = @extschema@.scalable_bloom_agg_serial,
	DESERIALFUNC = @extschema@.scalable_bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(anyelement) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(anyelement, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.scalable_bloom_agg_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_combine,
	SERIALFUNC = @extschema@.scalable_bloom_agg_serial,
	DESERIALFUNC = @extschema@.scalable_bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(anyelement, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

-- scalable_bloom_agg per key type, over bloom_agg_state (its tag says the
-- kind), so that it splits: the default and the sized forms.

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint) IS
'transition function of scalable_bloom_agg(smallint)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8) IS
'transition function of scalable_bloom_agg(smallint, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, integer)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, integer) IS
'transition function of scalable_bloom_agg(integer)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8) IS
'transition function of scalable_bloom_agg(integer, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint) IS
'transition function of scalable_bloom_agg(bigint)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8) IS
'transition function of scalable_bloom_agg(bigint, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, text)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, text) IS
'transition function of scalable_bloom_agg(text)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8) IS
'transition function of scalable_bloom_agg(text, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar) IS
'transition function of scalable_bloom_agg(varchar)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8) IS
'transition function of scalable_bloom_agg(varchar, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar) IS
'transition function of scalable_bloom_agg(bpchar)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8) IS
'transition function of scalable_bloom_agg(bpchar, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, name)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, name) IS
'transition function of scalable_bloom_agg(name)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8) IS
'transition function of scalable_bloom_agg(name, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, "char")
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, "char") IS
'transition function of scalable_bloom_agg("char")';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8) IS
'transition function of scalable_bloom_agg("char", bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid) IS
'transition function of scalable_bloom_agg(uuid)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8) IS
'transition function of scalable_bloom_agg(uuid, bigint, float8)';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of the per-type scalable_bloom_agg aggregates: merges two partial states';

CREATE FUNCTION @extschema@.scalable_bloom_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of the per-type scalable_bloom_agg aggregates: the scalable filter of a state';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(smallint) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(smallint) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(smallint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(smallint, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(integer) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(integer) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(integer, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(integer, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(bigint) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(bigint) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(bigint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(bigint, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(text) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(text) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(text, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(text, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(varchar) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(varchar) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(varchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(varchar, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(bpchar) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(bpchar) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(bpchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(bpchar, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(name) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(name) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(name, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(name, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg("char") (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg("char") IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg("char", capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg("char", bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(uuid) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(uuid) IS
'scalable filter of the non-null values (first sub-filter 1000 items, overall rate below 1 %)';

CREATE AGGREGATE @extschema@.scalable_bloom_agg(uuid, capacity bigint, fpr float8) (
	SFUNC = @extschema@.scalable_bloom_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_agg(uuid, bigint, float8) IS
'scalable filter of the non-null values with the given first capacity and overall rate';

---------------------------------------------------------------------------

-- batch calls and the union aggregate (one C mechanism per verb for the
-- three kinds, see src/probe/bloom_batch.c)

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

CREATE FUNCTION @extschema@.scalable_bloom_union_agg_state_add(@extschema@.bloom_agg_state, @extschema@.scalable_bloom)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_union_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_union_agg_state_add(@extschema@.bloom_agg_state, @extschema@.scalable_bloom) IS
'transition function of scalable_bloom_union_agg(scalable_bloom) and bloom_union_agg(scalable_bloom)';

CREATE FUNCTION @extschema@.scalable_bloom_union_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'scalable_bloom_union_agg_state_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_union_agg_state_combine(@extschema@.bloom_agg_state, @extschema@.bloom_agg_state) IS
'combine function of scalable_bloom_union_agg(scalable_bloom) and bloom_union_agg(scalable_bloom): merges two partial states';

CREATE FUNCTION @extschema@.scalable_bloom_union_agg_state_final(@extschema@.bloom_agg_state)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_union_agg_state_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_union_agg_state_final(@extschema@.bloom_agg_state) IS
'final function of scalable_bloom_union_agg(scalable_bloom) and bloom_union_agg(scalable_bloom): the result of a state';

CREATE AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) (
	SFUNC = @extschema@.scalable_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) IS
'union (sub-filter-wise OR) of the non-null scalable filters (an empty filter over no rows; warns when over capacity)';

---------------------------------------------------------------------------
-- One verb for every kind
---------------------------------------------------------------------------

-- The verbs of a filter take all three kinds under one name, as pgvector's
-- l2_distance takes vector and halfvec: bloom_contains(counting_bloom, x)
-- is counting_bloom_contains(counting_bloom, x) under the shared name (the
-- same C function, volatility, strictness, parallel marking and argument
-- names; the prefixed names stay as released).  The functions that make a
-- filter from nothing keep their kind's name (bloom_empty,
-- counting_bloom_agg, scalable_bloom_agg ...): no argument tells the kind.
-- A filter argument given as an untyped literal or NULL (a driver's
-- untyped parameter, a literal a client interpolated) would match the
-- three kinds alike and be ambiguous (42725); bloom is the preferred type
-- of its category, so such an argument resolves to bloom, as it did when
-- only bloom had these names.  The three types are the only ones of the
-- category with these names, so no other resolution changes.

-- counting_bloom

-- Not STRICT: adding NULL returns the filter unchanged.
CREATE FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, anycompatible)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, anycompatible) IS
'a copy with the value added (its counters + 1, saturating at 15; NULL values are ignored)';

CREATE FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, text)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, text) IS
'a copy with the text value added';

CREATE FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, "char")
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, "char") IS
'counting_bloom_add under the common name';

CREATE FUNCTION @extschema@.bloom_add_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add_all(@extschema@.counting_bloom, anycompatiblearray) IS
'a copy of the counting filter with every non-null array element added';

CREATE FUNCTION @extschema@.bloom_remove(@extschema@.counting_bloom, anycompatible)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_remove' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_remove(@extschema@.counting_bloom, anycompatible) IS
'a copy with the value removed; an error if it was certainly never added (counting filters only)';

CREATE FUNCTION @extschema@.bloom_remove_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_remove_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_remove_all(@extschema@.counting_bloom, anycompatiblearray) IS
'a copy with every non-null element removed; an error if one was certainly never added (counting filters only)';

CREATE FUNCTION @extschema@.bloom_contains(@extschema@.counting_bloom, anycompatible)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.bloom_contains_support;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.counting_bloom, anycompatible) IS
'false if the value is certainly not in the set; true if it may be';

CREATE FUNCTION @extschema@.bloom_contains_any(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_any(@extschema@.counting_bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.bloom_contains_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_all(@extschema@.counting_bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.bloom_contains_each(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'counting_bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_each(@extschema@.counting_bloom, anycompatiblearray) IS
'bloom_contains for each element (NULL for NULL elements)';

CREATE FUNCTION @extschema@.bloom_estimate_card(@extschema@.counting_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'counting_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_estimate_card(@extschema@.counting_bloom) IS
'alias of bloom_card: estimated number of distinct items, from the non-zero counters';

CREATE FUNCTION @extschema@.bloom_union(@extschema@.counting_bloom, @extschema@.counting_bloom)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_union' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.counting_bloom, @extschema@.counting_bloom) IS
'multiset union: counters added, saturating at 15';

CREATE AGGREGATE @extschema@.bloom_union_agg(@extschema@.counting_bloom) (
	SFUNC = @extschema@.counting_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.counting_bloom) IS
'union (counters added) of the non-null counting filters (an empty filter over no rows)';

CREATE FUNCTION @extschema@.bloom_info(@extschema@.counting_bloom,
	OUT counters bigint, OUT hashes integer, OUT items bigint,
	OUT nonzero_counters bigint, OUT saturated_counters bigint,
	OUT estimated_fpr float8, OUT element_family text, OUT bytes bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'counting_bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.counting_bloom) IS
'parameters and state of a counting filter';

CREATE FUNCTION @extschema@.bloom_scheme(@extschema@.counting_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'counting_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.counting_bloom) IS
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

CREATE FUNCTION @extschema@.bloom_with_scheme(@extschema@.counting_bloom, scheme integer)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_with_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_with_scheme(@extschema@.counting_bloom, integer) IS
'the empty counting filter with the given hashing scheme (1: as bloomset 1.0 and 1.1); a filter holding items cannot change';

-- scalable_bloom

-- Not STRICT: adding NULL returns the filter unchanged.
CREATE FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, anycompatible)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, anycompatible) IS
'a copy with the value added (a new sub-filter is appended when the newest is full; NULL values are ignored)';

CREATE FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, text)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, text) IS
'a copy with the text value added';

CREATE FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, "char")
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, "char") IS
'scalable_bloom_add under the common name';

CREATE FUNCTION @extschema@.bloom_add_all(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add_all(@extschema@.scalable_bloom, anycompatiblearray) IS
'a copy of the scalable filter with every non-null array element added (growing as needed)';

CREATE FUNCTION @extschema@.bloom_contains(@extschema@.scalable_bloom, anycompatible)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.bloom_contains_support;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.scalable_bloom, anycompatible) IS
'false if the value is certainly not in the set; true if it may be';

CREATE FUNCTION @extschema@.bloom_contains_any(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_any(@extschema@.scalable_bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.bloom_contains_all(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_all(@extschema@.scalable_bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.bloom_contains_each(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_each(@extschema@.scalable_bloom, anycompatiblearray) IS
'bloom_contains for each element (NULL for NULL elements)';

CREATE FUNCTION @extschema@.bloom_estimate_card(@extschema@.scalable_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'scalable_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_estimate_card(@extschema@.scalable_bloom) IS
'alias of bloom_card: estimated distinct items (sum over the sub-filters)';

CREATE FUNCTION @extschema@.bloom_union(@extschema@.scalable_bloom, @extschema@.scalable_bloom)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_union' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.scalable_bloom, @extschema@.scalable_bloom) IS
'union: sub-filter-wise OR of two scalable filters with the same parameters';

CREATE AGGREGATE @extschema@.bloom_union_agg(@extschema@.scalable_bloom) (
	SFUNC = @extschema@.scalable_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.scalable_bloom) IS
'union (sub-filter-wise OR) of the non-null scalable filters (an empty filter over no rows; warns when over capacity)';

CREATE FUNCTION @extschema@.bloom_info(@extschema@.scalable_bloom,
	OUT sub integer, OUT layout text, OUT bits bigint, OUT hashes integer,
	OUT capacity bigint, OUT items bigint, OUT target_fpr float8, OUT estimated_fpr float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'scalable_bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.scalable_bloom) IS
'one row per sub-filter: layout, size, capacity, items, target and current rate';

CREATE FUNCTION @extschema@.bloom_scheme(@extschema@.scalable_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'scalable_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.scalable_bloom) IS
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

-- new: a scalable filter had no way to take scheme 1 (to combine with a
-- filter stored by 1.0 or 1.1); no prefixed name, the verb is enough
CREATE FUNCTION @extschema@.bloom_with_scheme(@extschema@.scalable_bloom, scheme integer)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_with_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_with_scheme(@extschema@.scalable_bloom, integer) IS
'the empty scalable filter with the given hashing scheme (1: as bloomset 1.0 and 1.1); a filter holding items cannot change';

-- names: bloom_card is the estimate's name, consistent with
-- bloom_union_card and bloom_intersect_card; bloom_estimate_card stays as
-- its alias.  bloom_may_be_subset joins bloom_may_like and the
-- *_may_contain pre-checks; bloom_maybe_subset stays as its alias.

CREATE FUNCTION @extschema@.bloom_card(@extschema@.bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_card(@extschema@.bloom) IS
'estimated number of distinct items, from the fraction of bits set';

CREATE FUNCTION @extschema@.bloom_card(@extschema@.counting_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'counting_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_card(@extschema@.counting_bloom) IS
'estimated number of distinct items, from the non-zero counters';

CREATE FUNCTION @extschema@.bloom_card(@extschema@.scalable_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'scalable_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_card(@extschema@.scalable_bloom) IS
'estimated distinct items (sum over the sub-filters)';

CREATE FUNCTION @extschema@.bloom_may_be_subset(@extschema@.bloom, @extschema@.bloom)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_maybe_subset' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_may_be_subset(@extschema@.bloom, @extschema@.bloom) IS
'false if the first set is certainly not a subset of the second';

COMMENT ON FUNCTION @extschema@.bloom_estimate_card(@extschema@.bloom) IS
'alias of bloom_card: estimated number of distinct items, from the fraction of bits set';
COMMENT ON FUNCTION @extschema@.bloom_maybe_subset(@extschema@.bloom, @extschema@.bloom) IS
'alias of bloom_may_be_subset: false if the first set is certainly not a subset of the second';

---------------------------------------------------------------------------
-- Hashing schemes
---------------------------------------------------------------------------

-- New filters hash with scheme 4 (scheme 2's full 64-bit integer keys
-- and signed numerics, XXH3 over the bytes of text-like keys; a database
-- at 1.2 to 1.4 builds scheme 2); filters written by 1.0 and 1.1 keep
-- scheme 1, those of 1.2 to 1.4 scheme 2, and answer as before.  bloom_info's columns are unchanged (a
-- new column would mean DROP and CREATE, breaking users' views, as in the
-- 1.0 -> 1.1 update): the scheme has functions of its own.

CREATE FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) IS
'the hashing scheme of the filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 3 (Parquet), 4 (new filters since 1.5)';

CREATE FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'counting_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) IS
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

CREATE FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'scalable_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) IS
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

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

---------------------------------------------------------------------------
-- Stored filters read in slices
---------------------------------------------------------------------------

-- The three types' default storage is external (out of line, never
-- compressed; set in their CREATE TYPE above): a probe of a value stored so
-- reads its header and the parts its keys need, not the whole value, and
-- writing a sparse filter does not pay for compressing it.  Columns created
-- by 1.1 keep their storage (ALTER TABLE ... ALTER COLUMN ... SET STORAGE
-- EXTERNAL moves them; values already stored keep theirs until rewritten).

---------------------------------------------------------------------------
-- Parquet filters
---------------------------------------------------------------------------

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

-- bloom_parquet_agg per key type, over bloom_agg_state, so that it splits
-- (bpchar, name and "char" are refused as by the polymorphic form: they
-- have overloads so that they do not convert to text).

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, smallint, bigint, float8) IS
'transition function of bloom_parquet_agg(smallint, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, integer, bigint, float8) IS
'transition function of bloom_parquet_agg(integer, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, bigint, bigint, float8) IS
'transition function of bloom_parquet_agg(bigint, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, text, bigint, float8) IS
'transition function of bloom_parquet_agg(text, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, varchar, bigint, float8) IS
'transition function of bloom_parquet_agg(varchar, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, bpchar, bigint, float8) IS
'transition function of bloom_parquet_agg(bpchar, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, name, bigint, float8) IS
'transition function of bloom_parquet_agg(name, bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, "char", bigint, float8) IS
'transition function of bloom_parquet_agg("char", bigint, float8)';

CREATE FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8)
RETURNS @extschema@.bloom_agg_state
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_state_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_agg_state_add(@extschema@.bloom_agg_state, uuid, bigint, float8) IS
'transition function of bloom_parquet_agg(uuid, bigint, float8)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(smallint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(smallint, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(integer, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(integer, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(bigint, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(bigint, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(text, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(text, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(varchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(varchar, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(bpchar, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(bpchar, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(name, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(name, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg("char", capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg("char", bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

CREATE AGGREGATE @extschema@.bloom_parquet_agg(uuid, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(uuid, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

---------------------------------------------------------------------------
-- A filter index for many filters
---------------------------------------------------------------------------

-- Many filters of identical parameters stored bit-sliced in an ordinary
-- table (one row per segment of 64 filters and group of 256 bits), so one
-- key reads its positions across every filter at once (src/findex/findex.c
-- explains the layout).  The functions are C (src/findex/) and
-- run their statements on the table through SPI; their steps are not SQL
-- objects.  Lookups and bloom_index_info read under the caller's snapshot
-- (STABLE, one snapshot for all their statements); writers serialize on a
-- SHARE UPDATE EXCLUSIVE lock of the index table, which does not block
-- lookups.  The extension's own statements run with search_path pinned to
-- pg_catalog, pg_temp; only the caller's text (the name given to
-- bloom_index_create, the source queries) is read under the caller's path.

-- VOLATILE: creates a table; PARALLEL UNSAFE: writes.  Not STRICT: a NULL
-- name or query is an error (22004), not a silent no-op.
CREATE FUNCTION @extschema@.bloom_index_create(name text, source text)
RETURNS regclass
AS 'MODULE_PATHNAME', 'bloom_index_create'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_create(text, text) IS
'creates the table name holding a bit-sliced index of the (id bigint, filter bloom) rows of the query source (filters of identical parameters), and returns it';

-- VOLATILE, PARALLEL UNSAFE: writes the index table.  Not STRICT: a NULL
-- index, id or filter is an error (22004).
CREATE FUNCTION @extschema@.bloom_index_add(index regclass, id bigint, filter @extschema@.bloom)
RETURNS void
AS 'MODULE_PATHNAME', 'bloom_index_add'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_add(regclass, bigint, @extschema@.bloom) IS
'adds the filter with this id to the bloom index (into the last segment; an existing id is replaced)';

CREATE FUNCTION @extschema@.bloom_index_add(index regclass, source text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_index_add_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_add(regclass, text) IS
'adds the (id bigint, filter bloom) rows of the query source to the bloom index (free slots of the last segment, then new segments; existing ids are replaced); returns how many';

CREATE FUNCTION @extschema@.bloom_index_remove(index regclass, id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_index_remove'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_remove(regclass, bigint) IS
'removes the filter with this id from the bloom index (its slot is freed); false if there was none';

-- STABLE: reads the index table under the caller's snapshot.
CREATE FUNCTION @extschema@.bloom_index_lookup(index regclass, key anyelement)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, anyelement) IS
'ids of the bloom index''s filters that may hold the key (bloom_contains true), as a set that joins back to the chunk table';

-- an untyped literal key ('42') is text, converted as bloom_contains converts it
CREATE FUNCTION @extschema@.bloom_index_lookup(index regclass, key text)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, text) IS
'ids of the bloom index''s filters that may hold the key given as text (an untyped literal), converted to the filters'' element type as bloom_contains converts it';

CREATE FUNCTION @extschema@.bloom_index_lookup(index regclass, key "char")
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, "char") IS
'ids of the bloom index''s filters that may hold the "char" key (bloom_contains true)';

CREATE FUNCTION @extschema@.bloom_index_lookup_any(index regclass, keys anyarray)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup_any'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup_any(regclass, anyarray) IS
'ids of the bloom index''s filters that may hold any of the keys (each id once)';

CREATE FUNCTION @extschema@.bloom_index_info(index regclass,
	OUT filters bigint, OUT segments integer, OUT free_slots bigint, OUT stripe_rows bigint,
	OUT bytes bigint, OUT layout text, OUT nbits bigint, OUT nhashes integer, OUT seed bigint,
	OUT scheme integer, OUT element_family text)
AS 'MODULE_PATHNAME', 'bloom_index_info'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_info(regclass) IS
'the bloom index''s filters, segments, free slots, stripe rows, size on disk and the parameters its filters share';

---------------------------------------------------------------------------

---------------------------------------------------------------------------
-- The skip index access method bloomskip
---------------------------------------------------------------------------

-- An index access method the planner uses by itself for =, = ANY and IN:
-- each block range of the table gets a Bloom filter, stored bit-sliced
-- (see src/skip/README).  The handler takes internal: users cannot
-- call it.
CREATE FUNCTION @extschema@.bloomskip_handler(internal)
RETURNS index_am_handler
AS 'MODULE_PATHNAME', 'bloomskip_handler'
LANGUAGE C STRICT;
COMMENT ON FUNCTION @extschema@.bloomskip_handler(internal) IS
'handler of the bloomskip index access method (called by the server, not by users)';

CREATE ACCESS METHOD bloomskip TYPE INDEX HANDLER @extschema@.bloomskip_handler;
COMMENT ON ACCESS METHOD bloomskip IS
'skip index: a Bloom filter per block range, bit-sliced so that a lookup reads k pages whatever the table size; serves =, = ANY and IN through bitmap scans';

-- one family for the integers, with the cross-type operators, so that
-- int8col = 42 uses the index (int2, int4 and int8 hash alike)
CREATE OPERATOR FAMILY @extschema@.integer_bloomskip_ops USING bloomskip;
COMMENT ON OPERATOR FAMILY @extschema@.integer_bloomskip_ops USING bloomskip IS
'bloomskip equality on int2, int4 and int8, across the three types';
CREATE OPERATOR CLASS @extschema@.int2_bloomskip_ops DEFAULT FOR TYPE int2
	USING bloomskip FAMILY @extschema@.integer_bloomskip_ops AS
	OPERATOR 1 = (int2, int2);
CREATE OPERATOR CLASS @extschema@.int4_bloomskip_ops DEFAULT FOR TYPE int4
	USING bloomskip FAMILY @extschema@.integer_bloomskip_ops AS
	OPERATOR 1 = (int4, int4);
CREATE OPERATOR CLASS @extschema@.int8_bloomskip_ops DEFAULT FOR TYPE int8
	USING bloomskip FAMILY @extschema@.integer_bloomskip_ops AS
	OPERATOR 1 = (int8, int8);
ALTER OPERATOR FAMILY @extschema@.integer_bloomskip_ops USING bloomskip ADD
	OPERATOR 1 = (int2, int4),
	OPERATOR 1 = (int2, int8),
	OPERATOR 1 = (int4, int2),
	OPERATOR 1 = (int4, int8),
	OPERATOR 1 = (int8, int2),
	OPERATOR 1 = (int8, int4);
COMMENT ON OPERATOR CLASS @extschema@.int2_bloomskip_ops USING bloomskip IS 'bloomskip equality on int2';
COMMENT ON OPERATOR CLASS @extschema@.int4_bloomskip_ops USING bloomskip IS 'bloomskip equality on int4';
COMMENT ON OPERATOR CLASS @extschema@.int8_bloomskip_ops USING bloomskip IS 'bloomskip equality on int8';

-- text serves varchar columns too (binary coercible, the same hashing)
CREATE OPERATOR CLASS @extschema@.text_bloomskip_ops DEFAULT FOR TYPE text
	USING bloomskip AS OPERATOR 1 = (text, text);
COMMENT ON OPERATOR CLASS @extschema@.text_bloomskip_ops USING bloomskip IS
'bloomskip equality on text and varchar, under the column''s collation';
CREATE OPERATOR CLASS @extschema@.bytea_bloomskip_ops DEFAULT FOR TYPE bytea
	USING bloomskip AS OPERATOR 1 = (bytea, bytea);
COMMENT ON OPERATOR CLASS @extschema@.bytea_bloomskip_ops USING bloomskip IS 'bloomskip equality on bytea';
CREATE OPERATOR CLASS @extschema@.uuid_bloomskip_ops DEFAULT FOR TYPE uuid
	USING bloomskip AS OPERATOR 1 = (uuid, uuid);
COMMENT ON OPERATOR CLASS @extschema@.uuid_bloomskip_ops USING bloomskip IS 'bloomskip equality on uuid';
CREATE OPERATOR CLASS @extschema@.date_bloomskip_ops DEFAULT FOR TYPE date
	USING bloomskip AS OPERATOR 1 = (date, date);
COMMENT ON OPERATOR CLASS @extschema@.date_bloomskip_ops USING bloomskip IS 'bloomskip equality on date';
CREATE OPERATOR CLASS @extschema@.timestamp_bloomskip_ops DEFAULT FOR TYPE timestamp
	USING bloomskip AS OPERATOR 1 = (timestamp, timestamp);
COMMENT ON OPERATOR CLASS @extschema@.timestamp_bloomskip_ops USING bloomskip IS 'bloomskip equality on timestamp';
CREATE OPERATOR CLASS @extschema@.timestamptz_bloomskip_ops DEFAULT FOR TYPE timestamptz
	USING bloomskip AS OPERATOR 1 = (timestamptz, timestamptz);
COMMENT ON OPERATOR CLASS @extschema@.timestamptz_bloomskip_ops USING bloomskip IS 'bloomskip equality on timestamptz';
CREATE OPERATOR CLASS @extschema@.numeric_bloomskip_ops DEFAULT FOR TYPE numeric
	USING bloomskip AS OPERATOR 1 = (numeric, numeric);
COMMENT ON OPERATOR CLASS @extschema@.numeric_bloomskip_ops USING bloomskip IS
'bloomskip equality on numeric (1.0 and 1.00 are equal)';

-- LIKE on text and varchar by n-grams (ClickHouse's ngrambf_v1 as an
-- index): not the default class of text, whose = stays with
-- text_bloomskip_ops.  Support function 1 declares the option n.
CREATE FUNCTION @extschema@.bloomskip_ngram_options(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'bloomskip_ngram_options'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_ngram_options(internal) IS
'the option n of operator class text_ngram_bloomskip_ops (called by the server, not by users)';
CREATE OPERATOR CLASS @extschema@.text_ngram_bloomskip_ops FOR TYPE text
	USING bloomskip AS OPERATOR 2 ~~ (text, text),
	FUNCTION 1 @extschema@.bloomskip_ngram_options(internal);

-- bloomskip operator classes declare their operations (support function 2),
-- and the n-gram classes serve ILIKE and regular expressions

CREATE FUNCTION @extschema@.bloomskip_equal_class(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloomskip_equal_class'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_equal_class(internal) IS
'the operations of the bloomskip equality classes: one key per value (support function 2, called by the server, not by users)';
CREATE FUNCTION @extschema@.bloomskip_ngram_class(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloomskip_ngram_class'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_ngram_class(internal) IS
'the operations of operator class text_ngram_bloomskip_ops: a value''s n-grams; LIKE, ~ and ~* (support function 2, called by the server, not by users)';
CREATE FUNCTION @extschema@.bloomskip_ngram_ci_class(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloomskip_ngram_ci_class'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_ngram_ci_class(internal) IS
'the operations of operator class text_ngram_ci_bloomskip_ops: the n-grams of lower(value); ILIKE and ~* (support function 2, called by the server, not by users)';

-- The classes of 1.3 get their support function 2; they hash as before, so
-- the pages of existing indexes are read unchanged.
ALTER OPERATOR FAMILY @extschema@.integer_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (int2, int2) @extschema@.bloomskip_equal_class(internal),
	FUNCTION 2 (int4, int4) @extschema@.bloomskip_equal_class(internal),
	FUNCTION 2 (int8, int8) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.text_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (text, text) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.bytea_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (bytea, bytea) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.uuid_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (uuid, uuid) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.date_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (date, date) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.timestamp_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (timestamp, timestamp) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.timestamptz_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (timestamptz, timestamptz) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.numeric_bloomskip_ops USING bloomskip ADD
	FUNCTION 2 (numeric, numeric) @extschema@.bloomskip_equal_class(internal);
ALTER OPERATOR FAMILY @extschema@.text_ngram_bloomskip_ops USING bloomskip ADD
	OPERATOR 4 ~ (text, text),
	OPERATOR 5 ~* (text, text),
	FUNCTION 2 (text, text) @extschema@.bloomskip_ngram_class(internal);
COMMENT ON OPERATOR CLASS @extschema@.text_ngram_bloomskip_ops USING bloomskip IS
'bloomskip LIKE, ~ and ~* (and SIMILAR TO) on text and varchar: a range''s keys are its values'' n-grams of n characters (option n, default 3); a pattern''s literal strings of n characters or more must have their n-grams in a range';

CREATE OPERATOR CLASS @extschema@.text_ngram_ci_bloomskip_ops FOR TYPE text
	USING bloomskip AS
	OPERATOR 3 ~~* (text, text),
	OPERATOR 5 ~* (text, text),
	FUNCTION 1 @extschema@.bloomskip_ngram_options(internal),
	FUNCTION 2 @extschema@.bloomskip_ngram_ci_class(internal);
COMMENT ON OPERATOR CLASS @extschema@.text_ngram_ci_bloomskip_ops USING bloomskip IS
'bloomskip ILIKE and ~* on text and varchar: a range''s keys are the n-grams of lower(value) under the column''s collation (option n, default 3), as ILIKE folds case';

-- bloomskip full-text search: tsvector @@ tsquery
CREATE FUNCTION @extschema@.bloomskip_tsvector_class(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloomskip_tsvector_class'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_tsvector_class(internal) IS
'the operations of operator class tsvector_bloomskip_ops: a document''s lexemes; @@ tsquery (support function 2, called by the server, not by users)';
CREATE OPERATOR CLASS @extschema@.tsvector_bloomskip_ops DEFAULT FOR TYPE tsvector
	USING bloomskip AS
	OPERATOR 6 @@ (tsvector, tsquery),
	FUNCTION 2 @extschema@.bloomskip_tsvector_class(internal);
COMMENT ON OPERATOR CLASS @extschema@.tsvector_bloomskip_ops USING bloomskip IS
'bloomskip full-text search on tsvector: a range''s keys are its documents'' lexemes; a tsquery''s required lexemes (& and phrases: all, |: one of each side, ! and prefixes: none) must be in a range';

-- bloomskip tags and attributes: arrays (@>, &&, <@, =) and jsonb
CREATE FUNCTION @extschema@.bloomskip_array_class(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloomskip_array_class'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_array_class(internal) IS
'the operations of operator class array_bloomskip_ops: an array''s elements; @>, &&, = and <@ (support function 2, called by the server, not by users)';
CREATE OPERATOR CLASS @extschema@.array_bloomskip_ops DEFAULT FOR TYPE anyarray
	USING bloomskip AS
	OPERATOR 1 = (anyarray, anyarray),
	OPERATOR 7 @> (anyarray, anyarray),
	OPERATOR 8 && (anyarray, anyarray),
	OPERATOR 9 <@ (anyarray, anyarray),
	FUNCTION 2 @extschema@.bloomskip_array_class(internal);
COMMENT ON OPERATOR CLASS @extschema@.array_bloomskip_ops USING bloomskip IS
'bloomskip @>, && and = on arrays of any type bloomskip hashes: a range''s keys are its arrays'' non-NULL elements, hashed as the element type''s equality class hashes them; @> and = need every element of the query in a range, && one of them; <@ reads every range';
CREATE FUNCTION @extschema@.bloomskip_jsonb_class(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloomskip_jsonb_class'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_jsonb_class(internal) IS
'the operations of operator class jsonb_bloomskip_ops: a document''s top-level keys and path-and-value pairs; ?, ?|, ?&, @>, @? and @@ (support function 2, called by the server, not by users)';
CREATE OPERATOR CLASS @extschema@.jsonb_bloomskip_ops DEFAULT FOR TYPE jsonb
	USING bloomskip AS
	OPERATOR 7 @> (jsonb, jsonb),
	OPERATOR 10 ? (jsonb, text),
	OPERATOR 11 ?| (jsonb, text[]),
	OPERATOR 12 ?& (jsonb, text[]),
	OPERATOR 13 @? (jsonb, jsonpath),
	OPERATOR 14 @@ (jsonb, jsonpath),
	FUNCTION 2 @extschema@.bloomskip_jsonb_class(internal);
COMMENT ON OPERATOR CLASS @extschema@.jsonb_bloomskip_ops USING bloomskip IS
'bloomskip ?, ?|, ?& and @> on jsonb: a range''s keys are its documents'' top-level keys (what ? finds) and every scalar''s path of keys with its value, paired as jsonb_path_ops pairs them (numbers by numeric equality); @> needs every pair of the query in a range; @? and @@ read every range';

CREATE FUNCTION @extschema@.bloomskip_info(index regclass,
	OUT pages_per_range integer, OUT ranges bigint, OUT segments integer,
	OUT bits_per_range integer, OUT hashes integer, OUT target_rate double precision,
	OUT design_keys_per_range double precision, OUT index_pages bigint,
	OUT mean_fill double precision, OUT max_fill double precision,
	OUT estimated_rate double precision, OUT outgrown_ranges bigint,
	OUT summarized_ranges bigint, OUT open_ranges bigint, OUT staged_ranges bigint,
	OUT keys_per_range double precision, OUT ranges_per_key double precision)
RETURNS record
AS 'MODULE_PATHNAME', 'bloomskip_info'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_info(regclass) IS
'a bloomskip index''s parameters, ranges, segments, size, how full its summarized ranges are, their estimated false-positive rate, the summarized and open ranges, the summarized ranges still staged (not yet sliced into their segments), and what the planner reads: the distinct keys of a range and the ranges a key lies in, on average (NULL for an index that does not count them)';

CREATE FUNCTION @extschema@.bloomskip_check(index regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloomskip_check'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.bloomskip_check(regclass) IS
'keys of visible rows in summarized ranges that a bloomskip index does not find in their range (0 for a sound index; the first is reported as a warning; open ranges are returned whole by every scan and not checked)';

-- STABLE: it reads the index like a query and changes nothing, so a WHERE
-- clause evaluates it once, not per row
CREATE FUNCTION @extschema@.bloomskip_range_filter(index regclass, range bigint, col integer DEFAULT 1)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloomskip_range_filter'
LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_range_filter(regclass, bigint, integer) IS
'one block range''s filter of a bloomskip index for its column col (1 by default) as a bloom value, answering bloom_contains (bloom_may_like for an n-gram column) as the index does';
