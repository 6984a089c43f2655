/* bloomset--1.3--1.4.sql: upgrade from 1.3 to 1.4 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.4'" to load this file. \quit

-- Every change to the SQL objects made after 1.3 is listed here, under the
-- heading of its feature; a fresh install of 1.4 gets the same objects (the
-- upgrade test compares both).

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
