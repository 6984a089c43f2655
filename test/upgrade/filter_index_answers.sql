-- test/upgrade/filter_index_answers.sql -- the answers of filter_index.sql's
-- indexes, one line per index and way of asking: keys asked, keys whose
-- answer differs from the per-filter probe (bloom_contains over the chunk
-- table: must be 0), and a digest of every answer (equal before and after
-- the update); the user's view.
WITH k AS (SELECT (x * 97)::bigint AS x FROM generate_series(1, 1700) x),
a AS (SELECT k.x, ARRAY(SELECT bloom_index_lookup('fi_chunk_idx', k.x) AS i ORDER BY i) AS got,
             ARRAY(SELECT id FROM fi_chunk WHERE bloom_contains(f, k.x) ORDER BY id) AS want FROM k)
SELECT 'chunk lookup ' || count(*) || ' ' || count(*) FILTER (WHERE got IS DISTINCT FROM want)
       || ' ' || md5(string_agg(x || ':' || got::text, ',' ORDER BY x)) FROM a
UNION ALL
SELECT 'chunk lookup_any ' || count(*) || ' '
       || (ARRAY(SELECT bloom_index_lookup_any('fi_chunk_idx', array_agg(x)) AS i ORDER BY i) IS DISTINCT FROM
           ARRAY(SELECT id FROM fi_chunk WHERE bloom_contains_any(f, array_agg(x)) ORDER BY id))::int
FROM (SELECT (x * 101)::bigint AS x FROM generate_series(1, 300) x) k
UNION ALL
SELECT 'chunk info ' || filters || ' ' || segments || ' ' || free_slots || ' ' || stripe_rows || ' '
       || layout || ' ' || nbits || ' ' || element_family FROM bloom_index_info('fi_chunk_idx')
UNION ALL
(WITH k AS (SELECT md5(x::text) AS x FROM generate_series(1000, 71000, 53) x),
 a AS (SELECT k.x, ARRAY(SELECT bloom_index_lookup('fi_doc_idx', k.x) AS i ORDER BY i) AS got,
              ARRAY(SELECT id FROM fi_doc WHERE bloom_contains(f, k.x) ORDER BY id) AS want FROM k)
 SELECT 'doc lookup ' || count(*) || ' ' || count(*) FILTER (WHERE got IS DISTINCT FROM want)
        || ' ' || md5(string_agg(x || ':' || got::text, ',' ORDER BY x)) FROM a)
UNION ALL
SELECT 'view ' || ARRAY(SELECT id FROM fi_hits ORDER BY id)::text
       || ' ' || (ARRAY(SELECT id FROM fi_hits ORDER BY id) =
                  ARRAY(SELECT id FROM fi_chunk WHERE bloom_contains(f, 42042::bigint) ORDER BY id));
