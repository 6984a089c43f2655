-- The filter index: many filters of identical parameters stored bit-sliced
-- (bloom_index_create, bloom_index_add, bloom_index_remove,
-- bloom_index_lookup, bloom_index_lookup_any, bloom_index_info).  The
-- property checked throughout: the index's answer is the per-filter answer
-- (bloom_contains) for every key -- never a false negative, and no other
-- positive either.

\set SHOW_CONTEXT never
-- 300 chunks of 100 integer keys each; blocked filters (1 %)
CREATE TABLE chunk AS
SELECT c::bigint AS chunk_id, bloom_agg(c::bigint * 1000 + k, 100, 0.01) AS f
FROM generate_series(1, 300) c, generate_series(1, 100) k GROUP BY c;
ALTER TABLE chunk ADD PRIMARY KEY (chunk_id);

SELECT bloom_index_create('chunk_idx', 'SELECT chunk_id, f FROM chunk');
SELECT filters, segments, free_slots, stripe_rows, layout, nbits, nhashes, seed, scheme, element_family
FROM bloom_index_info('chunk_idx');

-- a key's chunks, as the per-filter probe finds them
SELECT array_agg(id ORDER BY id) AS ids FROM bloom_index_lookup('chunk_idx', 42042::bigint) AS id;
SELECT array_agg(chunk_id ORDER BY chunk_id) AS ids FROM chunk WHERE bloom_contains(f, 42042::bigint);

-- the README's lookups: the set joins back to the chunk table
SELECT chunk_id FROM chunk WHERE chunk_id IN (SELECT bloom_index_lookup('chunk_idx', 42042::bigint)) ORDER BY 1;
SELECT chunk_id FROM chunk WHERE chunk_id IN (SELECT bloom_index_lookup_any('chunk_idx', ARRAY[42042, 7007]::bigint[])) ORDER BY 1;

-- the index answer is the per-filter answer for 1,500 keys (members and not)
CREATE FUNCTION idx_mismatches(idx regclass, keys bigint[]) RETURNS bigint
LANGUAGE sql AS $$
  SELECT count(*) FROM unnest(keys) AS x
  WHERE ARRAY(SELECT bloom_index_lookup(idx, x) AS id ORDER BY id) IS DISTINCT FROM
        ARRAY(SELECT chunk_id FROM chunk WHERE bloom_contains(f, x) ORDER BY chunk_id)
$$;
SELECT idx_mismatches('chunk_idx', ARRAY(SELECT x * 101 FROM generate_series(1, 1500) x)) AS mismatches;

-- any of several keys: the union of their answers, each id once
SELECT ARRAY(SELECT bloom_index_lookup_any('chunk_idx', ARRAY[42042, 7007, NULL, 250001]::bigint[]) AS id ORDER BY id)
     = ARRAY(SELECT chunk_id FROM chunk WHERE bloom_contains_any(f, ARRAY[42042, 7007, 250001]::bigint[]) ORDER BY chunk_id)
  AS any_equal;
SELECT count(*) AS duplicates FROM (
  SELECT id FROM bloom_index_lookup_any('chunk_idx', ARRAY(SELECT x::bigint FROM generate_series(1000, 9000) x)) AS id
  GROUP BY id HAVING count(*) > 1) d;
SELECT count(*) AS no_keys FROM bloom_index_lookup_any('chunk_idx', '{}'::bigint[]);
SELECT count(*) AS null_key FROM bloom_index_lookup('chunk_idx', NULL::bigint);

-- keys convert as bloom_contains converts them: int4, an untyped literal, text
SELECT array_agg(id ORDER BY id) AS int4_key FROM bloom_index_lookup('chunk_idx', 42042) AS id;
SELECT array_agg(id ORDER BY id) AS literal_key FROM bloom_index_lookup('chunk_idx', '42042') AS id;
SELECT array_agg(id ORDER BY id) AS text_keys FROM bloom_index_lookup_any('chunk_idx', ARRAY['42042', '7007']) AS id;
SELECT bloom_index_lookup('chunk_idx', 'forty-two');
SELECT bloom_index_lookup('chunk_idx', 1.5::float8);

-- the set drives an index scan of the chunk table
SET enable_hashjoin = off; SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT * FROM chunk WHERE chunk_id IN (SELECT bloom_index_lookup('chunk_idx', 42042::bigint));
RESET enable_hashjoin; RESET enable_mergejoin;

-- appends: one filter (into a free slot of the last segment), a replacement
-- (same id, its own slot), a batch (the last segment's free slots, then new
-- segments), removals
INSERT INTO chunk SELECT 301, bloom_agg(301000::bigint + k, 100, 0.01) FROM generate_series(1, 100) k;
SELECT bloom_index_add('chunk_idx', 301, (SELECT f FROM chunk WHERE chunk_id = 301));
UPDATE chunk SET f = (SELECT bloom_agg(900000::bigint + k, 100, 0.01) FROM generate_series(1, 100) k) WHERE chunk_id = 5;
SELECT bloom_index_add('chunk_idx', 5, (SELECT f FROM chunk WHERE chunk_id = 5));
SELECT filters, segments, free_slots, stripe_rows FROM bloom_index_info('chunk_idx');
INSERT INTO chunk SELECT c, bloom_agg(c * 1000 + k, 100, 0.01)
FROM generate_series(302, 500) c, generate_series(1, 100) k GROUP BY c;
UPDATE chunk SET f = (SELECT bloom_agg(800000::bigint + k, 100, 0.01) FROM generate_series(1, 100) k) WHERE chunk_id = 7;
SELECT bloom_index_add('chunk_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id >= 302 OR chunk_id = 7') AS added;
SELECT filters, segments, free_slots, stripe_rows FROM bloom_index_info('chunk_idx');
SELECT bloom_index_remove('chunk_idx', 11) AS removed, bloom_index_remove('chunk_idx', 11) AS again;
DELETE FROM chunk WHERE chunk_id = 11;
SELECT filters, segments, free_slots FROM bloom_index_info('chunk_idx');
SELECT idx_mismatches('chunk_idx', ARRAY(SELECT x * 97 FROM generate_series(1, 2500) x)
                                   || ARRAY[5001, 900050, 7001, 800050, 11011]::bigint[]) AS mismatches;
-- an empty batch adds nothing
SELECT bloom_index_add('chunk_idx', 'SELECT chunk_id, f FROM chunk WHERE false') AS added;

-- classic layout (a rate below 0.05 %), text keys
CREATE TABLE doc AS
SELECT d::bigint AS doc_id, bloom_agg(md5((d * 1000 + k)::text), 100, 0.0001) AS f
FROM generate_series(1, 130) d, generate_series(1, 100) k GROUP BY d;
SELECT bloom_index_create('public.doc_idx', $$SELECT doc_id, f FROM doc$$)::text AS created;
SELECT layout, nhashes, element_family FROM bloom_index_info('doc_idx');
SELECT count(*) AS mismatches FROM generate_series(1000, 131000, 37) x
WHERE ARRAY(SELECT bloom_index_lookup('doc_idx', md5(x::text)) AS id ORDER BY id) IS DISTINCT FROM
      ARRAY(SELECT doc_id FROM doc WHERE bloom_contains(f, md5(x::text)) ORDER BY doc_id);
SELECT ARRAY(SELECT bloom_index_lookup_any('doc_idx', ARRAY[md5('5005'), md5('77077'), md5('none')]) AS id ORDER BY id) AS any_ids;

-- keys of types with an implicit cast to text (char(n), name, varchar) take
-- the text form of bloom_index_lookup and are converted back to the
-- filters' type: the same answers as bloom_contains
CREATE TABLE ch AS
SELECT c::bigint AS id, bloom_agg(('c' || (c * 100 + k))::char(8), 100, 0.01) AS f
FROM generate_series(1, 70) c, generate_series(1, 100) k GROUP BY c;
SELECT bloom_index_create('ch_idx', 'SELECT id, f FROM ch')::text AS created;
SELECT element_family FROM bloom_index_info('ch_idx');
SELECT count(*) AS mismatches FROM generate_series(100, 7100, 23) x, LATERAL (SELECT ('c' || x)::char(8) AS k) k
WHERE ARRAY(SELECT bloom_index_lookup('ch_idx', k.k) AS id ORDER BY id) IS DISTINCT FROM
      ARRAY(SELECT id FROM ch WHERE bloom_contains(f, k.k) ORDER BY id)
   OR ARRAY(SELECT bloom_index_lookup('ch_idx', rtrim(k.k)::varchar) AS id ORDER BY id) IS DISTINCT FROM
      ARRAY(SELECT id FROM ch WHERE bloom_contains(f, rtrim(k.k)::varchar) ORDER BY id)
   OR ARRAY(SELECT bloom_index_lookup('ch_idx', k.k::name) AS id ORDER BY id) IS DISTINCT FROM
      ARRAY(SELECT id FROM ch WHERE bloom_contains(f, k.k::name) ORDER BY id);
DROP TABLE ch, ch_idx;

-- a name needing quotes, in another schema; an index made from no rows
-- takes its parameters from the first filter added, and filters nothing
-- was ever added to answer false
CREATE SCHEMA "Idx Schema";
SELECT bloom_index_create('"Idx Schema"."My Index"', 'SELECT 1::bigint, NULL::bloom WHERE false')::text AS created;
SELECT filters, segments, layout FROM bloom_index_info('"Idx Schema"."My Index"');
SELECT count(*) AS none FROM bloom_index_lookup('"Idx Schema"."My Index"', 1::bigint);
SELECT bloom_index_add('"Idx Schema"."My Index"', 1, bloom_empty(100, 0.01));
SELECT filters, layout, element_family FROM bloom_index_info('"Idx Schema"."My Index"');
SELECT bloom_index_add('"Idx Schema"."My Index"', 2, bloom_empty(100, 0.01) || 'x'::text);
SELECT filters, element_family FROM bloom_index_info('"Idx Schema"."My Index"');
SELECT array_agg(id) AS x_ids FROM bloom_index_lookup('"Idx Schema"."My Index"', 'x'::text) AS id;
-- the index is an ordinary table, owned by its creator
SELECT relkind, relpersistence, pg_get_userbyid(relowner) = current_user AS owned
FROM pg_class WHERE oid = '"Idx Schema"."My Index"'::regclass;
DROP SCHEMA "Idx Schema" CASCADE;

-- errors: filters of other parameters (22023, naming the parameter)
SELECT bloom_index_add('chunk_idx', 1000, bloom_agg(x::bigint, 100, 0.001)) FROM generate_series(1, 10) x;
SELECT bloom_index_add('chunk_idx', 1000, bloom_agg(x::bigint, 1000, 0.01)) FROM generate_series(1, 10) x;
SELECT bloom_index_add('chunk_idx', 1000, bloom_agg(x::text, 100, 0.01)) FROM generate_series(1, 10) x;
SELECT bloom_index_add('chunk_idx', 1000, bloom_with_scheme(bloom_empty(100, 0.01), 1) || 1::bigint);
SELECT bloom_index_add('doc_idx', 1000, bloom_empty(240, 13, 7) || 'a'::text);
SELECT bloom_index_add('doc_idx', 1000, bloom_empty(240, 12, 0) || 'a'::text);
SELECT bloom_index_add('chunk_idx', 'SELECT 1000, bloom_agg(x::text, 100, 0.01) FROM generate_series(1, 10) x');
-- NULLs and duplicate ids
SELECT bloom_index_add('chunk_idx', NULL, (SELECT f FROM chunk WHERE chunk_id = 1));
SELECT bloom_index_add('chunk_idx', 1000, NULL);
SELECT bloom_index_create('bad_idx', 'SELECT 1, f FROM chunk');
SELECT bloom_index_create('bad_idx', 'SELECT NULL::bigint, f FROM chunk');
SELECT bloom_index_add('chunk_idx', 'SELECT 1000, f FROM chunk WHERE chunk_id < 3');
-- not an index; a key of another type
SELECT bloom_index_lookup('chunk', 1::bigint);
SELECT * FROM bloom_index_info('pg_class');
SELECT bloom_index_lookup('doc_idx', 42::bigint);
-- the source query's own errors, and the table's name taken
SELECT bloom_index_create('bad_idx', 'SELECT no_such_column FROM chunk');
SELECT bloom_index_create('chunk_idx', 'SELECT chunk_id, f FROM chunk');
SELECT count(*) AS bad_idx_left FROM pg_class WHERE relname = 'bad_idx';

-- corrupted rows are a clear error (XX001), never a wrong answer
CREATE TABLE broken AS SELECT * FROM chunk_idx;
ALTER TABLE broken ADD PRIMARY KEY (blk, seg);
SELECT count(*) AS intact FROM bloom_index_lookup('broken', 42042::bigint);
UPDATE broken SET bits = substr(bits, 1, 100) WHERE seg = 0 AND blk = 0;
SELECT bloom_index_lookup_any('broken', ARRAY(SELECT x::bigint FROM generate_series(1000, 3000) x));
DELETE FROM broken WHERE seg = 0 AND blk = 0;
SELECT bloom_index_lookup_any('broken', ARRAY(SELECT x::bigint FROM generate_series(1000, 3000) x));
-- one key at a time: a key whose block is the missing stripe is XX001,
-- never its filters left out; every other key answers as the per-filter probe
CREATE FUNCTION damaged_answers(idx regclass, keys bigint[], OUT wrong bigint, OUT refused bigint)
LANGUAGE plpgsql AS $$
DECLARE
  x bigint;
BEGIN
  wrong := 0; refused := 0;
  FOREACH x IN ARRAY keys LOOP
    BEGIN
      IF ARRAY(SELECT bloom_index_lookup(idx, x) AS id ORDER BY id) IS DISTINCT FROM
         ARRAY(SELECT chunk_id FROM chunk WHERE bloom_contains(f, x) ORDER BY chunk_id) THEN
        wrong := wrong + 1;
      END IF;
    EXCEPTION WHEN data_corrupted THEN
      refused := refused + 1;
    END;
  END LOOP;
END
$$;
SELECT wrong, refused > 0 AS some_refused FROM damaged_answers('broken', ARRAY(SELECT x * 101 FROM generate_series(1, 300) x));
-- a stripe of a segment that has no slot map
INSERT INTO broken SELECT 99, blk, NULL, bits FROM chunk_idx WHERE seg = 0 AND blk >= 0;
SELECT bloom_index_lookup('broken', 42042::bigint);
DELETE FROM broken WHERE seg = 99;
DELETE FROM broken WHERE blk >= 0; INSERT INTO broken SELECT * FROM chunk_idx WHERE blk >= 0;
UPDATE broken SET ids = ids[1:10] WHERE seg = 0 AND blk = -1;
SELECT bloom_index_lookup_any('broken', ARRAY(SELECT x::bigint FROM generate_series(1000, 3000) x));
DELETE FROM broken WHERE seg = 0 AND blk = -1;
SELECT bloom_index_lookup_any('broken', ARRAY(SELECT x::bigint FROM generate_series(1000, 3000) x));
UPDATE broken SET bits = '\x0102'::bytea WHERE seg = -1 AND blk = -1;
SELECT bloom_index_lookup('broken', 1::bigint);
DELETE FROM broken WHERE seg = -1 AND blk = -1;
SELECT bloom_index_lookup('broken', 1::bigint);
DROP TABLE broken;

-- no step of the index is an SQL object: the functions are the eight a
-- user calls, and none is SECURITY DEFINER or sets search_path
SELECT p.oid::regprocedure AS function, p.provolatile, p.proisstrict, p.proparallel, p.prorows,
       p.prosecdef, p.proconfig
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomset'
WHERE p.proname ~ '^bloom_index' ORDER BY p.oid::regprocedure::text COLLATE "C";

-- NULL for each argument: lookups, bloom_index_info and bloom_index_remove
-- answer NULL (STRICT); writers refuse (22004)
SELECT count(*) AS null_index FROM bloom_index_lookup(NULL, 42042::bigint);
SELECT count(*) AS null_key FROM bloom_index_lookup('chunk_idx', NULL::bigint);
SELECT count(*) AS null_text_key FROM bloom_index_lookup('chunk_idx', NULL::text);
SELECT count(*) AS null_index_any FROM bloom_index_lookup_any(NULL, ARRAY[42042]::bigint[]);
SELECT count(*) AS null_keys FROM bloom_index_lookup_any('chunk_idx', NULL::bigint[]);
SELECT * FROM bloom_index_info(NULL);
SELECT bloom_index_remove(NULL, 1) AS null_index, bloom_index_remove('chunk_idx', NULL) AS null_id;
SELECT bloom_index_create(NULL, 'SELECT chunk_id, f FROM chunk');
SELECT bloom_index_create('null_idx', NULL);
SELECT bloom_index_add(NULL, 1, (SELECT f FROM chunk WHERE chunk_id = 1));
SELECT bloom_index_add(NULL, 'SELECT chunk_id, f FROM chunk');
SELECT bloom_index_add('chunk_idx', NULL::text);
SELECT count(*) AS null_idx_left FROM pg_class WHERE relname = 'null_idx';

-- objects that are not filter indexes (42809), a relation that does not
-- exist (42P01), bad names (42602, 42601)
CREATE SEQUENCE not_an_index_seq;
CREATE VIEW not_an_index_view AS SELECT * FROM chunk_idx;
SELECT bloom_index_lookup('not_an_index_seq', 1::bigint);
SELECT bloom_index_lookup_any('chunk_pkey', ARRAY[1]::bigint[]);
SELECT * FROM bloom_index_info('chunk_idx_pkey');
SELECT bloom_index_add('not_an_index_view', 1, (SELECT f FROM chunk WHERE chunk_id = 1));
SELECT bloom_index_remove('pg_class', 1);
SELECT bloom_index_add('chunk', 'SELECT chunk_id, f FROM chunk');
SELECT bloom_index_lookup(1::regclass, 1::bigint);
SELECT bloom_index_create('a.b.c.d', 'SELECT chunk_id, f FROM chunk');
SELECT bloom_index_create('"unterminated', 'SELECT chunk_id, f FROM chunk');
DROP VIEW not_an_index_view;
DROP SEQUENCE not_an_index_seq;

-- the table is the one created, even with a temporary table of the same
-- name first in the path
CREATE TEMP TABLE shadow_idx (seg int4, blk int4, ids int8[], bits bytea);
SELECT bloom_index_create('shadow_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id < 10')::oid AS created \gset
SELECT :created = 'public.shadow_idx'::regclass::oid AS created_in_public,
       (SELECT count(*) FROM pg_temp.shadow_idx) AS temp_rows,
       (SELECT filters FROM bloom_index_info('public.shadow_idx')) AS filters;
DROP TABLE pg_temp.shadow_idx, public.shadow_idx;

-- what the source query must return (42601 for its shape, 42804 for its
-- types); a comment at its end is fine
SELECT bloom_index_create('x', 'SELECT 1');
SELECT bloom_index_create('x', 'SELECT 1, 2');
SELECT bloom_index_create('x', 'SELECT f, chunk_id FROM chunk');
-- only conversions without a cast: a numeric id would be rounded (6001.7 to
-- 6002) and a text or bytea column parsed as a filter; smallint and
-- integer ids are taken
SELECT bloom_index_create('x', 'SELECT 6001.7::numeric, f FROM chunk');
SELECT bloom_index_create('x', 'SELECT chunk_id, f::text FROM chunk');
SELECT bloom_index_create('x', 'SELECT chunk_id, f::bytea FROM chunk');
SELECT bloom_index_add('chunk_idx', 'SELECT 6001.7::numeric, f FROM chunk WHERE chunk_id = 1');
SELECT bloom_index_create('small_id_idx', 'SELECT chunk_id::int2, f FROM chunk WHERE chunk_id < 10')::text AS created;
SELECT filters FROM bloom_index_info('small_id_idx');
DROP TABLE small_id_idx;
SELECT bloom_index_create('x', 'SELECT 1; SELECT 2');
SELECT bloom_index_create('x', '');
SELECT bloom_index_create('x', 'DELETE FROM chunk RETURNING chunk_id, f');
SELECT bloom_index_add('chunk_idx', 'SELECT chunk_id FROM chunk');
SELECT count(*) AS x_left FROM pg_class WHERE relname = 'x';
SELECT bloom_index_create('commented_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id < 70 -- ends in a comment')::text AS created;
SELECT filters FROM bloom_index_info('commented_idx');
DROP TABLE commented_idx;

-- a write that reads a damaged row refuses it (XX001) and changes nothing
CREATE TABLE broken AS SELECT * FROM chunk_idx;
ALTER TABLE broken ADD PRIMARY KEY (blk, seg);
UPDATE broken SET bits = substr(bits, 1, 100) WHERE seg = (SELECT max(seg) FROM broken) AND blk = 1;
SELECT bloom_index_add('broken', 1000, (SELECT f FROM chunk WHERE chunk_id = 1));
SELECT count(*) AS unchanged FROM broken b JOIN chunk_idx i USING (seg, blk)
WHERE b.ids IS NOT DISTINCT FROM i.ids AND (b.bits IS NOT DISTINCT FROM i.bits OR b.blk = 1);
SELECT count(*) AS rows FROM chunk_idx;
UPDATE broken SET ids = ARRAY[ids] WHERE seg = (SELECT max(seg) FROM broken) AND blk = -1;
SELECT bloom_index_add('broken', 'SELECT 2000, f FROM chunk WHERE chunk_id = 1');
SELECT * FROM bloom_index_info('broken');
UPDATE broken SET bits = overlay(bits PLACING '\xff'::bytea FROM 1) WHERE seg = -1 AND blk = -1;
SELECT bloom_index_remove('broken', 1);
DROP TABLE broken;

-- a slot map numbered far beyond the table (refused before anything is
-- sized by it); a stripe stored twice (the primary key dropped)
CREATE TABLE broken AS SELECT * FROM chunk_idx;
UPDATE broken SET seg = 2000000000 WHERE seg = (SELECT max(seg) FROM chunk_idx) AND blk = -1;
SELECT bloom_index_lookup('broken', 42042::bigint);
UPDATE broken SET seg = (SELECT max(seg) FROM chunk_idx) WHERE seg = 2000000000;
INSERT INTO broken SELECT * FROM chunk_idx WHERE seg = 1 AND blk >= 0;
SELECT bloom_index_lookup_any('broken', ARRAY(SELECT x::bigint FROM generate_series(1000, 3000) x));
DROP TABLE broken;

-- a key added, replaced and removed by one writer after another leaves
-- the answers of a fresh build
CREATE TABLE three AS SELECT * FROM chunk WHERE chunk_id <= 3;
SELECT bloom_index_create('three_idx', 'SELECT chunk_id, f FROM three')::text AS created;
SELECT bloom_index_add('three_idx', 42, (SELECT f FROM chunk WHERE chunk_id = 42));
SELECT bloom_index_add('three_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id IN (2, 43)') AS added;
SELECT bloom_index_remove('three_idx', 1) AS removed;
SELECT (SELECT ids[1:6] FROM three_idx WHERE blk = -1 AND seg = 0) AS slot_map,
       ARRAY(SELECT bloom_index_lookup('three_idx', 42042::bigint)) AS ids_42042,
       ARRAY(SELECT bloom_index_lookup_any('three_idx', ARRAY[2002, 43043, 1001]::bigint[]) AS id ORDER BY id) AS ids_any;
DROP TABLE three, three_idx;

-- search_path: decoys ahead of pg_catalog in the caller's path are not
-- called (the functions pin pg_catalog; the two that run a query text of
-- the caller's run only that query under the caller's path), and the source
-- query still sees the caller's tables
CREATE SCHEMA regress_evil;
CREATE TABLE regress_evil.hits (what text);
CREATE FUNCTION regress_evil.eq(integer, integer) RETURNS boolean
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('=') RETURNING $1 OPERATOR(pg_catalog.=) $2 $$;
CREATE OPERATOR regress_evil.= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = regress_evil.eq);
CREATE FUNCTION regress_evil.format(text, regclass) RETURNS text
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('format') RETURNING $1 $$;
CREATE FUNCTION regress_evil.quote_ident(text) RETURNS text
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('quote_ident') RETURNING $1 $$;
CREATE FUNCTION regress_evil.cardinality(anyarray) RETURNS integer
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('cardinality') RETURNING 0 $$;
CREATE FUNCTION regress_evil.contains(bigint[], bigint[]) RETURNS boolean
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('@>') RETURNING true $$;
CREATE OPERATOR regress_evil.@> (LEFTARG = bigint[], RIGHTARG = bigint[], FUNCTION = regress_evil.contains);
CREATE FUNCTION regress_evil.array_replace(bigint[], bigint, bigint) RETURNS bigint[]
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('array_replace') RETURNING $1 $$;
CREATE FUNCTION regress_evil.unnest(integer[], integer[], bytea[]) RETURNS SETOF record
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('unnest') RETURNING NULL::record $$;
CREATE FUNCTION regress_evil.max_step(integer, integer) RETURNS integer
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('max') RETURNING $2 $$;
CREATE AGGREGATE regress_evil.max(integer) (SFUNC = regress_evil.max_step, STYPE = integer);
SET search_path = regress_evil, public, pg_catalog;
SELECT bloom_index_create('evil_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id <= 100')::text AS created;
SELECT relnamespace::regnamespace AS created_in FROM pg_class WHERE relname = 'evil_idx';
SELECT bloom_index_add('evil_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id > 100') AS added;
SELECT bloom_index_add('evil_idx', 1, (SELECT f FROM chunk WHERE chunk_id = 1));
SELECT bloom_index_remove('evil_idx', 2);
SELECT bloom_index_add('evil_idx', 2, (SELECT f FROM chunk WHERE chunk_id = 2));
SELECT count(*) AS found FROM bloom_index_lookup('evil_idx', 42042::bigint);
SELECT count(*) AS found_any FROM bloom_index_lookup_any('evil_idx', ARRAY[42042, 7007]::bigint[]);
SELECT filters FROM bloom_index_info('evil_idx');
SELECT count(*) AS decoys_called FROM regress_evil.hits;
SELECT current_setting('search_path') AS search_path_after;
RESET search_path;
DROP TABLE regress_evil.evil_idx;
DROP SCHEMA regress_evil CASCADE;

DROP FUNCTION idx_mismatches(regclass, bigint[]);
DROP FUNCTION damaged_answers(regclass, bigint[]);
DROP TABLE chunk, chunk_idx, doc, doc_idx;

-- the slot map of the only segment gone: XX001 naming the index, never an
-- empty answer
CREATE TABLE bi_one AS SELECT (g % 5)::bigint AS id, bloom_agg(g, 100, 0.01) AS f FROM generate_series(1, 240) g GROUP BY 1;
SELECT bloom_index_create('bi_one_idx', 'SELECT id, f FROM bi_one') IS NOT NULL AS created;
SELECT count(*) AS found FROM bloom_index_lookup('bi_one_idx', 7);
DELETE FROM bi_one_idx WHERE blk = -1 AND seg = 0;
SELECT count(*) FROM bloom_index_lookup('bi_one_idx', 7);
SELECT count(*) FROM bloom_index_lookup_any('bi_one_idx', ARRAY[7, 8]);
DROP TABLE bi_one, bi_one_idx;
