/* bloomset--1.0.sql: the bloom type, its functions, operators and aggregates */

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
	STORAGE = extended
);

-- The binary (send/recv) form as bytea, for storage in other systems or
-- bytea columns; the reverse cast validates like bloom_recv.
CREATE FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) IS
'the filter in its binary (send) form';

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

CREATE FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anycompatible)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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

CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.bloom,
	RIGHTARG = anycompatible,
	FUNCTION = @extschema@.bloom_contains,
	RESTRICT = contsel,
	JOIN = contjoinsel
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
	OUT format_version integer)
RETURNS record
AS 'MODULE_PATHNAME', 'bloom_info' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.bloom) IS
'parameters and state of a filter, with its estimated cardinality and current false-positive rate';

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

CREATE AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) (
	SFUNC = @extschema@.bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_union_final,
	COMBINEFUNC = @extschema@.bloom_union_combine,
	SERIALFUNC = @extschema@.bloom_setop_serial,
	DESERIALFUNC = @extschema@.bloom_setop_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) IS
'union of the non-null filters (an empty filter over no rows)';

CREATE AGGREGATE @extschema@.bloom_intersect_agg(@extschema@.bloom) (
	SFUNC = @extschema@.bloom_intersect_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_intersect_final,
	COMBINEFUNC = @extschema@.bloom_intersect_combine,
	SERIALFUNC = @extschema@.bloom_setop_serial,
	DESERIALFUNC = @extschema@.bloom_setop_deserial,
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

CREATE AGGREGATE @extschema@.bloom_ngram_agg(text) (
	SFUNC = @extschema@.bloom_ngram_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_ngram_agg(text) IS
'filter of the 3-grams (3 consecutive characters) of the values, for LIKE pre-checks';

CREATE AGGREGATE @extschema@.bloom_ngram_agg(text, n integer) (
	SFUNC = @extschema@.bloom_ngram_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_ngram_agg(text, integer) IS
'filter of the n-grams (n = 1..8 characters) of the values';

CREATE AGGREGATE @extschema@.bloom_token_agg(text) (
	SFUNC = @extschema@.bloom_token_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
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
	STORAGE = extended
);
COMMENT ON TYPE @extschema@.counting_bloom IS
'counting Bloom filter: 4-bit saturating counters (same header as bloom, layout counting); supports removal';

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
AS 'MODULE_PATHNAME', 'counting_bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
CREATE OPERATOR @extschema@.- (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.counting_bloom_remove
);
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.counting_bloom_contains,
	RESTRICT = contsel, JOIN = contjoinsel
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

---------------------------------------------------------------------------
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
	STORAGE = extended
);
COMMENT ON TYPE @extschema@.scalable_bloom IS
'scalable Bloom filter: a chain of sub-filters of growing capacity and tightening rate (layout scalable)';

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
AS 'MODULE_PATHNAME', 'scalable_bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = anycompatible,
	FUNCTION = @extschema@.scalable_bloom_contains,
	RESTRICT = contsel, JOIN = contjoinsel
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
