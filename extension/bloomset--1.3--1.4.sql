/* bloomset--1.3--1.4.sql: upgrade from 1.3 to 1.4 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.4'" to load this file. \quit

-- Every change to the SQL objects made after 1.3 is listed here, under the
-- heading of its feature; a fresh install of 1.4 gets the same objects (the
-- upgrade test compares both).  ADD EACH NEW OBJECT TWICE: here, and in
-- the section of its feature in extension/bloomset.sql, the source of
-- bloomset--1.4.sql (`make` warns about a CREATE here missing there).

---------------------------------------------------------------------------
-- "char" values: bloom_add and || for every kind and bloom_index_lookup
-- have a text overload (so that an untyped literal is text); a "char"
-- value converts implicitly to text and also matches anycompatible, and
-- neither candidate wins ("is not unique").  Exact "char" overloads settle
-- it, on the C functions of the anycompatible ones: a "char" hashes as
-- bloom_agg and @> hash it.
---------------------------------------------------------------------------
CREATE FUNCTION @extschema@.bloom_add(@extschema@.bloom, "char")
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, "char") IS
'a copy of the filter with the "char" value added (NULL values are ignored)';
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.bloom, RIGHTARG = "char",
	FUNCTION = @extschema@.bloom_add
);

CREATE FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, "char")
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add(@extschema@.counting_bloom, "char") IS
'a copy with the "char" value added (its counters + 1, saturating at 15)';
CREATE FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, "char")
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.counting_bloom, "char") IS
'counting_bloom_add under the common name';
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.counting_bloom, RIGHTARG = "char",
	FUNCTION = @extschema@.counting_bloom_add
);

CREATE FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, "char")
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_add(@extschema@.scalable_bloom, "char") IS
'a copy with the "char" value added (a new sub-filter is appended when the newest is full)';
CREATE FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, "char")
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.scalable_bloom, "char") IS
'scalable_bloom_add under the common name';
CREATE OPERATOR @extschema@.|| (
	LEFTARG = @extschema@.scalable_bloom, RIGHTARG = "char",
	FUNCTION = @extschema@.scalable_bloom_add
);

CREATE FUNCTION @extschema@.bloom_index_lookup(index regclass, key "char")
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, "char") IS
'ids of the bloom index''s filters that may hold the "char" key (bloom_contains true)';

---------------------------------------------------------------------------
-- Equality and the binary form for counting_bloom and scalable_bloom, as
-- bloom has them: = compares parameters and contents (counters; for a
-- scalable filter its whole binary form), and the bytea casts are the send
-- form and its validated reverse.
---------------------------------------------------------------------------
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

CREATE FUNCTION @extschema@.counting_bloom_from_bytea(bytea) RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_from_bytea(bytea) IS
'a counting filter from its binary form, validated like binary input';
CREATE CAST (@extschema@.counting_bloom AS bytea)
	WITH FUNCTION @extschema@.counting_bloom_send(@extschema@.counting_bloom);
CREATE CAST (bytea AS @extschema@.counting_bloom)
	WITH FUNCTION @extschema@.counting_bloom_from_bytea(bytea);

CREATE FUNCTION @extschema@.scalable_bloom_from_bytea(bytea) RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_from_bytea(bytea) IS
'a scalable filter from its binary form, validated like binary input';
CREATE CAST (@extschema@.scalable_bloom AS bytea)
	WITH FUNCTION @extschema@.scalable_bloom_send(@extschema@.scalable_bloom);
CREATE CAST (bytea AS @extschema@.scalable_bloom)
	WITH FUNCTION @extschema@.scalable_bloom_from_bytea(bytea);

---------------------------------------------------------------------------
-- bloomskip_range_filter reads the index like a query and changes nothing:
-- STABLE, so that a WHERE clause evaluates it once, not per row.
---------------------------------------------------------------------------
ALTER FUNCTION @extschema@.bloomskip_range_filter(regclass, bigint, integer) STABLE;

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

-- 1.4: aggregates that split across the machines of a distributed database
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
-- 1.4: the other aggregates split too
--
-- scalable_bloom_agg and bloom_parquet_agg get per-type overloads over
-- bloom_agg_state, as bloom_agg did.  The aggregates of one signature
-- (bloom_ngram_agg, bloom_token_agg and the union and intersection
-- aggregates) cannot have an overload: CREATE OR REPLACE AGGREGATE gives
-- them the new state type in place.  It keeps the aggregate's identity, so
-- the views and functions of the user that call them stay as they are (a
-- DROP would fail on them, or drop them); the internal-state support
-- functions stay for aggregates of the user's own built on them.
---------------------------------------------------------------------------

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

CREATE OR REPLACE AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) (
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

CREATE OR REPLACE AGGREGATE @extschema@.bloom_intersect_agg(@extschema@.bloom) (
	SFUNC = @extschema@.bloom_intersect_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_intersect_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_intersect_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_intersect_agg(@extschema@.bloom) IS
'intersection (bitwise AND) of the non-null filters (NULL over no rows)';

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

CREATE OR REPLACE AGGREGATE @extschema@.bloom_ngram_agg(text) (
	SFUNC = @extschema@.bloom_ngram_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_ngram_agg(text) IS
'filter of the 3-grams (3 consecutive characters) of the values, for LIKE pre-checks';

CREATE OR REPLACE AGGREGATE @extschema@.bloom_ngram_agg(text, n integer) (
	SFUNC = @extschema@.bloom_ngram_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_ngram_agg(text, integer) IS
'filter of the n-grams (n = 1..8 characters) of the values';

CREATE OR REPLACE AGGREGATE @extschema@.bloom_token_agg(text) (
	SFUNC = @extschema@.bloom_token_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.bloom_agg_state_final,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_token_agg(text) IS
'filter of the tokens (runs of ASCII letters and digits or non-ASCII bytes) of the values';

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

CREATE OR REPLACE AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) (
	SFUNC = @extschema@.counting_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) IS
'union (counters added) of the non-null counting filters (an empty filter over no rows)';

CREATE OR REPLACE AGGREGATE @extschema@.bloom_union_agg(@extschema@.counting_bloom) (
	SFUNC = @extschema@.counting_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.counting_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.counting_bloom) IS
'union (counters added) of the non-null counting filters (an empty filter over no rows)';

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

CREATE OR REPLACE AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) (
	SFUNC = @extschema@.scalable_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) IS
'union (sub-filter-wise OR) of the non-null scalable filters (an empty filter over no rows; warns when over capacity)';

CREATE OR REPLACE AGGREGATE @extschema@.bloom_union_agg(@extschema@.scalable_bloom) (
	SFUNC = @extschema@.scalable_bloom_union_agg_state_add,
	STYPE = @extschema@.bloom_agg_state,
	FINALFUNC = @extschema@.scalable_bloom_union_agg_state_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_agg_state_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.scalable_bloom) IS
'union (sub-filter-wise OR) of the non-null scalable filters (an empty filter over no rows; warns when over capacity)';

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
-- bloomskip's planner reads what the index learnt of its keys (the distinct
-- keys of a range, the ranges a key lies in); bloomskip_info shows it.  A
-- function's result columns cannot change in place: dropped and created.
---------------------------------------------------------------------------
DROP FUNCTION @extschema@.bloomskip_info(regclass);
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
