/* bloomset--1.3--1.4.sql: upgrade from 1.3 to 1.4 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.4'" to load this file. \quit

-- Every change to the SQL objects made after 1.3 is listed here, under the
-- heading of its feature; a fresh install of 1.4 gets the same objects (the
-- upgrade test compares both).  ADD EACH NEW OBJECT TWICE: here, and in
-- the section of its feature in extension/bloomset.sql, the source of
-- bloomset--1.4.sql (`make` warns about a CREATE here missing there).
