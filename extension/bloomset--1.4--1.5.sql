/* bloomset--1.4--1.5.sql: upgrade from 1.4 to 1.5 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.5'" to load this file. \quit

-- Every change to the SQL objects made after 1.4 is listed here, under the
-- heading of its feature; a fresh install of 1.5 gets the same objects (the
-- upgrade test compares both).  ADD EACH NEW OBJECT TWICE: here, and in
-- the section of its feature in extension/bloomset.sql, the source of
-- bloomset--1.5.sql (`make` warns about a CREATE here missing there).
--
-- The installed version is also read by the library: from 1.5 on, new
-- filters and new bloomskip indexes hash with scheme 4 (docs/format.md);
-- a database still at 1.4 keeps building scheme 2.

---------------------------------------------------------------------------
-- Hashing schemes: the functions that show a filter's scheme name scheme 4
---------------------------------------------------------------------------
COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.counting_bloom) IS
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.scalable_bloom) IS
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) IS
'the hashing scheme of the filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 3 (Parquet), 4 (new filters since 1.5)';

COMMENT ON FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) IS
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';

COMMENT ON FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) IS
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters from 1.2 to 1.4), 4 (new filters since 1.5)';
