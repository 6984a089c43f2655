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
