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
-- (objects of this part go here)
