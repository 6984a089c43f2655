/* bloomset--1.0--1.1.sql: upgrade from 1.0 to 1.1 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.1'" to load this file. \quit

-- Every change to the SQL objects made after 1.0 is listed here, and the
-- same change is made in bloomset--1.1.sql (the fresh-install script); the
-- upgrade test checks that both give exactly the same objects.
