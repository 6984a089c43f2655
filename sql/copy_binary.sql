-- COPY round trips in text and binary format (what dump/restore, binary
-- COPY, replication tools and Citus rely on).

CREATE TABLE copy_src (id int, f bloom);
INSERT INTO copy_src
SELECT 1, bloom_agg(x, 100000, 0.01) FROM generate_series(1, 50000) x       -- TOASTed
UNION ALL SELECT 2, bloom_agg(md5(x::text)) FROM generate_series(1, 1000) x
UNION ALL SELECT 3, bloom_agg(x, 1024, 4, 17) FROM generate_series(1, 100) x
UNION ALL SELECT 4, bloom_empty(10)
UNION ALL SELECT 5, NULL;

-- scratch files named by the server's port: suites on other servers run at
-- the same time
SELECT format('/tmp/bloomset_regress_copy_%s', current_setting('port')) AS copyfile \gset
COPY copy_src TO :'copyfile';
CREATE TABLE copy_txt (LIKE copy_src);
COPY copy_txt FROM :'copyfile';
\set copybin :copyfile '.bin'
COPY copy_src TO :'copybin' WITH (FORMAT binary);
CREATE TABLE copy_bin (LIKE copy_src);
COPY copy_bin FROM :'copybin' WITH (FORMAT binary);

SELECT count(*) AS rows_differing_text FROM copy_src s JOIN copy_txt t USING (id)
WHERE s.f::text IS DISTINCT FROM t.f::text;
SELECT count(*) AS rows_differing_binary FROM copy_src s JOIN copy_bin t USING (id)
WHERE bloom_to_bytea(s.f) IS DISTINCT FROM bloom_to_bytea(t.f);
SELECT count(*) AS false_negatives_after_copy FROM copy_bin, generate_series(1, 50000) x
WHERE id = 1 AND NOT bloom_contains(f, x);
SELECT count(*) AS rows FROM copy_bin;

-- a corrupted binary COPY stream is rejected with a clean error
CREATE TABLE copy_bad (id int, f bloom);
\set copybad :copyfile '_bad.bin'
COPY (SELECT 1, overlay(bloom_to_bytea(bloom_empty(10) || 1) placing '\xff'::bytea from 4))
  TO :'copybad' WITH (FORMAT binary);
COPY copy_bad FROM :'copybad' WITH (FORMAT binary);
SELECT count(*) AS bad_rows_loaded FROM copy_bad;

DROP TABLE copy_src, copy_txt, copy_bin, copy_bad;
