/* bloomset--1.2--1.3.sql: upgrade from 1.2 to 1.3 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.3'" to load this file. \quit

-- Every change to the SQL objects made after 1.2 is listed here, and the
-- same change is made in bloomset--1.3.sql (the fresh-install script); the
-- upgrade test checks that both give exactly the same objects.  Each part
-- below has its own heading; keep new objects under the heading of their
-- feature.

-- 1.3: the filter index without SQL helpers
--
-- (changes of this part go here)

-- 1.3: one verb for every kind
--
-- (objects of this part go here)

-- 1.3: the skip index access method bloomskip
--
-- An index access method the planner uses by itself for =, = ANY and IN:
-- each block range of the table gets a Bloom filter, stored bit-sliced
-- (see src/skip/skip_utils.c).  The handler takes internal: users cannot
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

CREATE FUNCTION @extschema@.bloomskip_info(index regclass,
	OUT pages_per_range integer, OUT ranges bigint, OUT segments integer,
	OUT bits_per_range integer, OUT hashes integer, OUT target_rate double precision,
	OUT design_keys_per_range double precision, OUT index_pages bigint,
	OUT mean_fill double precision, OUT max_fill double precision,
	OUT estimated_rate double precision, OUT outgrown_ranges bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'bloomskip_info'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_info(regclass) IS
'a bloomskip index''s parameters, ranges, segments, size, how full its ranges are and their estimated false-positive rate';

CREATE FUNCTION @extschema@.bloomskip_check(index regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloomskip_check'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.bloomskip_check(regclass) IS
'keys of visible rows that a bloomskip index does not find in their range (0 for a sound index; the first is reported as a warning)';

CREATE FUNCTION @extschema@.bloomskip_range_filter(index regclass, range bigint)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloomskip_range_filter'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_range_filter(regclass, bigint) IS
'one block range''s filter of a bloomskip index (first column) as a bloom value, answering bloom_contains as the index does';
