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
-- The filter index's functions become C (src/bloom_index_sql.c): the same
-- signatures, results and comments, now STRICT where a NULL argument has
-- a NULL answer (lookups, bloom_index_info, bloom_index_remove), and the
-- 16 helpers the PL/pgSQL versions called are dropped -- no step of the
-- index is an SQL object a user could call with arbitrary bytes.  The
-- index tables are unchanged: indexes built under 1.2 answer as before.
-- CREATE OR REPLACE keeps the functions' oids, so users' views and
-- functions that call them keep working.

-- VOLATILE: creates a table; PARALLEL UNSAFE: writes.  Not STRICT: a NULL
-- name or query is an error (22004), not a silent no-op.
CREATE OR REPLACE FUNCTION @extschema@.bloom_index_create(name text, source text)
RETURNS regclass
AS 'MODULE_PATHNAME', 'bloom_index_create'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_create(text, text) IS
'creates the table name holding a bit-sliced index of the (id bigint, filter bloom) rows of the query source (filters of identical parameters), and returns it';

-- VOLATILE, PARALLEL UNSAFE: writes the index table.  Not STRICT: a NULL
-- index, id or filter is an error (22004).
CREATE OR REPLACE FUNCTION @extschema@.bloom_index_add(index regclass, id bigint, filter @extschema@.bloom)
RETURNS void
AS 'MODULE_PATHNAME', 'bloom_index_add'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_add(regclass, bigint, @extschema@.bloom) IS
'adds the filter with this id to the bloom index (into the last segment; an existing id is replaced)';

CREATE OR REPLACE FUNCTION @extschema@.bloom_index_add(index regclass, source text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_index_add_query'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_add(regclass, text) IS
'adds the (id bigint, filter bloom) rows of the query source to the bloom index (free slots of the last segment, then new segments; existing ids are replaced); returns how many';

CREATE OR REPLACE FUNCTION @extschema@.bloom_index_remove(index regclass, id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_index_remove'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_remove(regclass, bigint) IS
'removes the filter with this id from the bloom index (its slot is freed); false if there was none';

-- STABLE: reads the index table under the caller's snapshot.
CREATE OR REPLACE FUNCTION @extschema@.bloom_index_lookup(index regclass, key anyelement)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, anyelement) IS
'ids of the bloom index''s filters that may hold the key (bloom_contains true), as a set that joins back to the chunk table';

-- an untyped literal key ('42') is text, converted as bloom_contains converts it
CREATE OR REPLACE FUNCTION @extschema@.bloom_index_lookup(index regclass, key text)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, text) IS
'ids of the bloom index''s filters that may hold the key given as text (an untyped literal), converted to the filters'' element type as bloom_contains converts it';

CREATE OR REPLACE FUNCTION @extschema@.bloom_index_lookup_any(index regclass, keys anyarray)
RETURNS SETOF bigint
AS 'MODULE_PATHNAME', 'bloom_index_lookup_any'
LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup_any(regclass, anyarray) IS
'ids of the bloom index''s filters that may hold any of the keys (each id once)';

CREATE OR REPLACE FUNCTION @extschema@.bloom_index_info(index regclass,
	OUT filters bigint, OUT segments integer, OUT free_slots bigint, OUT stripe_rows bigint,
	OUT bytes bigint, OUT layout text, OUT nbits bigint, OUT nhashes integer, OUT seed bigint,
	OUT scheme integer, OUT element_family text)
AS 'MODULE_PATHNAME', 'bloom_index_info'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_info(regclass) IS
'the bloom index''s filters, segments, free slots, stripe rows, size on disk and the parameters its filters share';

DROP FUNCTION @extschema@.bloom_index_search(regclass, bigint[]);
DROP FUNCTION @extschema@.bloom_index_last(regclass);
DROP FUNCTION @extschema@.bloom_index_fill(regclass, bytea, integer, integer[], bigint[], @extschema@.bloom[]);
DROP FUNCTION @extschema@.bloom_index_meta(regclass);
DROP FUNCTION @extschema@.bloom_index_expect(bigint, bigint);
DROP FUNCTION @extschema@.bloom_index_match_stripe(integer, bytea, bigint[]);
DROP FUNCTION @extschema@.bloom_index_ids(bigint, bigint[]);
DROP AGGREGATE @extschema@.bloom_index_match(integer, bytea, bigint[]);
DROP FUNCTION @extschema@.bloom_index_match_final(internal);
DROP FUNCTION @extschema@.bloom_index_match_trans(internal, integer, bytea, bigint[]);
DROP FUNCTION @extschema@.bloom_index_probe_any(bytea, anycompatiblearray);
DROP FUNCTION @extschema@.bloom_index_probe(bytea, anycompatible);
DROP FUNCTION @extschema@.bloom_index_rows(refcursor, bytea, integer, bigint);
DROP FUNCTION @extschema@.bloom_index_put(bytea, integer, integer[], @extschema@.bloom[]);
DROP FUNCTION @extschema@.bloom_index_header(bytea);
DROP FUNCTION @extschema@.bloom_index_check(bytea, @extschema@.bloom);

-- 1.3: one verb for every kind
--
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
--
-- CREATE TYPE sets this for a fresh install; an existing type can only
-- have its catalog row changed (as contrib's update scripts have done for
-- properties ALTER cannot reach).
UPDATE pg_catalog.pg_type SET typispreferred = true
 WHERE oid = '@extschema@.bloom'::pg_catalog.regtype;

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
	SFUNC = @extschema@.counting_bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.counting_bloom_union_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_combine,
	SERIALFUNC = @extschema@.counting_bloom_union_serial,
	DESERIALFUNC = @extschema@.counting_bloom_union_deserial,
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
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

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
	SFUNC = @extschema@.scalable_bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.scalable_bloom_union_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_combine,
	SERIALFUNC = @extschema@.scalable_bloom_union_serial,
	DESERIALFUNC = @extschema@.scalable_bloom_union_deserial,
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
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

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
COMMENT ON OPERATOR CLASS @extschema@.text_ngram_bloomskip_ops USING bloomskip IS
'bloomskip LIKE on text and varchar: a range''s keys are its values'' n-grams of n characters (option n, default 3); a pattern''s literal fragments of n characters or more must have all their n-grams in a range';

CREATE FUNCTION @extschema@.bloomskip_info(index regclass,
	OUT pages_per_range integer, OUT ranges bigint, OUT segments integer,
	OUT bits_per_range integer, OUT hashes integer, OUT target_rate double precision,
	OUT design_keys_per_range double precision, OUT index_pages bigint,
	OUT mean_fill double precision, OUT max_fill double precision,
	OUT estimated_rate double precision, OUT outgrown_ranges bigint,
	OUT summarized_ranges bigint, OUT open_ranges bigint, OUT staged_ranges bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'bloomskip_info'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_info(regclass) IS
'a bloomskip index''s parameters, ranges, segments, size, how full its summarized ranges are, their estimated false-positive rate, the summarized and open ranges, and the summarized ranges still staged (not yet sliced into their segments)';

CREATE FUNCTION @extschema@.bloomskip_check(index regclass)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloomskip_check'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.bloomskip_check(regclass) IS
'keys of visible rows in summarized ranges that a bloomskip index does not find in their range (0 for a sound index; the first is reported as a warning; open ranges are returned whole by every scan and not checked)';

CREATE FUNCTION @extschema@.bloomskip_range_filter(index regclass, range bigint, col integer DEFAULT 1)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloomskip_range_filter'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloomskip_range_filter(regclass, bigint, integer) IS
'one block range''s filter of a bloomskip index for its column col (1 by default) as a bloom value, answering bloom_contains (bloom_may_like for an n-gram column) as the index does';
