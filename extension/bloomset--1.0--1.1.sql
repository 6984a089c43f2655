/* bloomset--1.0--1.1.sql: upgrade from 1.0 to 1.1 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.1'" to load this file. \quit

-- Every change to the SQL objects made after 1.0 is listed here, and the
-- same change is made in bloomset--1.1.sql (the fresh-install script); the
-- upgrade test checks that both give exactly the same objects.

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

-- bloom_to_bytea also writes out a value whose header is corrupt (salvage).
CREATE OR REPLACE FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) IS
'the binary (send) form of the filter as bytea; a corrupt value is written out field by field so it can be salvaged';

-- Planner support: one selectivity estimate for the contains functions
-- (support function) and the @> operators (restriction estimator), from a
-- constant filter's estimated items and rate against the column's
-- statistics (see src/bloom_planner.c).
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

ALTER FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anycompatible)
	SUPPORT @extschema@.bloom_contains_support;
ALTER FUNCTION @extschema@.counting_bloom_contains(@extschema@.counting_bloom, anycompatible)
	SUPPORT @extschema@.bloom_contains_support;
ALTER FUNCTION @extschema@.scalable_bloom_contains(@extschema@.scalable_bloom, anycompatible)
	SUPPORT @extschema@.bloom_contains_support;
ALTER OPERATOR @extschema@.@> (@extschema@.bloom, anycompatible)
	SET (RESTRICT = @extschema@.bloom_contains_restrict,
		 JOIN = @extschema@.bloom_contains_joinsel);
ALTER OPERATOR @extschema@.@> (@extschema@.counting_bloom, anycompatible)
	SET (RESTRICT = @extschema@.bloom_contains_restrict,
		 JOIN = @extschema@.bloom_contains_joinsel);
ALTER OPERATOR @extschema@.@> (@extschema@.scalable_bloom, anycompatible)
	SET (RESTRICT = @extschema@.bloom_contains_restrict,
		 JOIN = @extschema@.bloom_contains_joinsel);

-- bloom_info shows the rate the filter was sized for (target_fpr, NULL for
-- explicit parameters) and the name of a nondeterministic collation.  Its
-- result columns change, so it is dropped and created again (a view using
-- bloom_info must be dropped before the update and created after it).
DROP FUNCTION @extschema@.bloom_info(@extschema@.bloom);
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

-- counting_bloom_agg(x): the one-argument form, sized automatically (the
-- distinct values at 1 %), like bloom_agg(x).

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
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 values)';
