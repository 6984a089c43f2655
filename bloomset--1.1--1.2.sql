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

-- 1.2: the same verbs for the three kinds

-- 1.2: Parquet filters
