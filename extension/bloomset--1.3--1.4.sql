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
