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
-- (objects of this part go here)

-- 1.3: the skip index access method bloomskip
--
-- (objects of this part go here)
