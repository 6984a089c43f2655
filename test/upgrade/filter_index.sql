-- test/upgrade/filter_index.sql -- filter indexes built, appended to and
-- removed from by the functions of the installed version (run.sh runs it
-- under 1.2, before the update to the default version): blocked integer
-- filters (a build, a batch, a replacement, a removal) and classic text
-- filters.
CREATE TABLE fi_chunk AS
SELECT c::bigint AS id, bloom_agg(c::bigint * 1000 + k, 100, 0.01) AS f
FROM generate_series(1, 150) c, generate_series(1, 100) k GROUP BY c;
SELECT bloom_index_create('fi_chunk_idx', 'SELECT id, f FROM fi_chunk WHERE id <= 120') IS NOT NULL;
SELECT bloom_index_add('fi_chunk_idx', 'SELECT id, f FROM fi_chunk WHERE id > 120') = 30;
UPDATE fi_chunk SET f = (SELECT bloom_agg(900000::bigint + k, 100, 0.01) FROM generate_series(1, 100) k) WHERE id = 7;
SELECT bloom_index_add('fi_chunk_idx', 7, (SELECT f FROM fi_chunk WHERE id = 7));
DELETE FROM fi_chunk WHERE id = 9;
SELECT bloom_index_remove('fi_chunk_idx', 9);
CREATE TABLE fi_doc AS
SELECT d::bigint AS id, bloom_agg(md5((d * 1000 + k)::text), 100, 0.0001) AS f
FROM generate_series(1, 70) d, generate_series(1, 100) k GROUP BY d;
SELECT bloom_index_create('fi_doc_idx', 'SELECT id, f FROM fi_doc') IS NOT NULL;
-- a user's view over a lookup keeps working through the update
CREATE VIEW fi_hits AS SELECT id FROM bloom_index_lookup('fi_chunk_idx', 42042::bigint) AS id;
