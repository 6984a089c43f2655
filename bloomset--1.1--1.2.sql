/* bloomset--1.1--1.2.sql: upgrade from 1.1 to 1.2 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.2'" to load this file. \quit

-- Every change to the SQL objects made after 1.1 is listed here, and the
-- same change is made in bloomset--1.2.sql (the fresh-install script); the
-- upgrade test checks that both give exactly the same objects.  Each part
-- below has its own heading; keep new objects under the heading of their
-- feature.

-- 1.2: hashing scheme 2 (full 64-bit integer keys, signed numerics)

-- 1.2: stored filters read in slices
-- The three types' default storage becomes external (out of line, never
-- compressed): a probe of a value stored so reads its header and the parts
-- its keys need, not the whole value, and writing a sparse filter does not
-- pay for compressing it.  This changes the default of columns created from
-- now on; existing columns keep their storage (ALTER TABLE ... ALTER COLUMN
-- ... SET STORAGE EXTERNAL changes one; values already stored keep theirs
-- until they are written again).
ALTER TYPE @extschema@.bloom SET (STORAGE = external);
ALTER TYPE @extschema@.counting_bloom SET (STORAGE = external);
ALTER TYPE @extschema@.scalable_bloom SET (STORAGE = external);

-- 1.2: the same verbs for the three kinds

-- 1.2: Parquet filters
