-- Every SQL block of README.md, verbatim (scripts/check_readme_sql.py
-- fails when README and this file drift apart), run on data that makes it
-- meaningful; the claims around each block are asserted below it.  Blocks
-- run with their rows discarded (\o /dev/null; errors still show), the
-- assertions print.

-- the quick start block starts from CREATE EXTENSION
DROP EXTENSION bloomset CASCADE;
-- README block: the examples' tables
-- 10 chunks of 40,000 orders
CREATE TABLE orders AS
SELECT c AS chunk, c * 100000 + g AS customer_id
FROM generate_series(0, 9) c, generate_series(1, 40000) g;
-- 50,000 incoming keys: 25,000 already ordered, 25,000 new
CREATE TABLE incoming AS
SELECT customer_id FROM orders WHERE customer_id % 16 = 0 LIMIT 25000;
INSERT INTO incoming SELECT 10000000 + g FROM generate_series(1, 25000) g;
CREATE TABLE customers_new (customer_id int);
-- a dimension of 1,000 rows (4 of them in region EU), 100,000 fact rows
CREATE TABLE dim AS
SELECT g AS id, 'dim ' || g AS name, CASE WHEN g % 250 = 0 THEN 'EU' ELSE 'US' END AS region
FROM generate_series(1, 1000) g;
ALTER TABLE dim ADD PRIMARY KEY (id);
CREATE TABLE big_fact AS SELECT g AS id, 1 + g % 1000 AS dim_id FROM generate_series(1, 100000) g;
-- 20 chunks of 2,000 log lines, indexed by chunk; '%timeout%svc12%' matches
-- in chunks 4 and 11 only, the token 'denied' is in chunk 7 only
CREATE TABLE logs AS
SELECT c AS chunk, format('level=%s user=%s req=%s', (ARRAY['info', 'warn', 'error'])[1 + g % 3],
                          md5((c * 10000 + g)::text), g) AS line
FROM generate_series(0, 19) c, generate_series(1, 2000) g;
INSERT INTO logs VALUES (4, 'error timeout calling svc12 after 30s'), (11, 'warn timeout in svc12 queue'),
                        (7, 'access denied for user 12');
CREATE INDEX ON logs (chunk);
ANALYZE;
-- README block end
\o /dev/null
-- README block 1 begin
CREATE EXTENSION bloomset;
CREATE TABLE chunk_filter AS SELECT chunk, bloom_agg(customer_id) AS f FROM orders GROUP BY chunk;
SELECT chunk FROM chunk_filter WHERE f @> 42;          -- which chunks may hold customer 42?
-- README block 1 end
\o
SELECT array_agg(chunk ORDER BY chunk) @> ARRAY[0] AS chunk_0_may_hold_42,
       count(*) <= 2 AS few_other_chunks
  FROM chunk_filter WHERE f @> 42;
DROP TABLE chunk_filter;

\o /dev/null
-- README block 2 begin
-- one skip filter per chunk / partition, sized automatically (<= 1 % false positives)
CREATE TABLE chunk_filter AS
SELECT chunk, bloom_agg(customer_id) AS f FROM orders GROUP BY chunk;

-- which chunks may hold a key?  Only those need scanning.
SELECT chunk FROM chunk_filter WHERE bloom_contains(f, 332598);

-- which incoming keys are certainly new?  One filter of every key, built
-- for all of them (not the union of the per-chunk filters: each of those
-- is sized for its own chunk, and their union holds every chunk's keys in
-- one chunk's size).  A key reported new is new; about 1 % of the new keys
-- are reported "maybe seen" and go to the exact check.  The filter is
-- read once, by the scalar subquery.
CREATE TABLE seen AS SELECT bloom_agg(customer_id) AS f FROM orders;
INSERT INTO customers_new
SELECT i.* FROM incoming i WHERE NOT bloom_contains((SELECT f FROM seen), i.customer_id);

-- a cheap pre-filter before an expensive join: fact rows whose key cannot be
-- an EU dimension row are dropped before the join; the exact predicate stays
SELECT b.*, d.name FROM big_fact b JOIN dim d ON d.id = b.dim_id
WHERE d.region = 'EU'
  AND bloom_contains((SELECT bloom_agg(id) FROM dim WHERE region = 'EU'), b.dim_id);
-- README block 2 end
\o
-- chunk 3 holds 332598; few others answer "maybe"
SELECT array_agg(chunk ORDER BY chunk) @> ARRAY[3] AS chunk_3_found, count(*) <= 2 AS few_chunks
  FROM chunk_filter WHERE bloom_contains(f, 332598);
-- a key reported new is new; about 1 % of the new keys are not reported
SELECT count(*) FILTER (WHERE customer_id < 10000000) AS reported_but_seen,
       count(*) AS reported_new,
       round(100.0 * (25000 - count(*)) / 25000, 1) AS new_keys_missed_pct,
       (25000 - count(*)) <= 0.015 * 25000 AS about_one_percent
  FROM customers_new;
-- the pre-filtered join returns exactly the exact join's rows
SELECT (SELECT count(*) FROM (
          SELECT b.*, d.name FROM big_fact b JOIN dim d ON d.id = b.dim_id
          WHERE d.region = 'EU'
            AND bloom_contains((SELECT bloom_agg(id) FROM dim WHERE region = 'EU'), b.dim_id)) q)
     = (SELECT count(*) FROM big_fact b JOIN dim d ON d.id = b.dim_id WHERE d.region = 'EU') AS same_rows_as_exact_join,
       (SELECT count(*) FROM big_fact b JOIN dim d ON d.id = b.dim_id WHERE d.region = 'EU') AS exact_rows;

-- Runtime join filters: the guide's plan (the library is loaded: this
-- session has called its functions)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM big_fact f JOIN dim d ON d.id = f.dim_id WHERE d.region = 'EU';
SELECT count(*) FROM big_fact f JOIN dim d ON d.id = f.dim_id WHERE d.region = 'EU';
SET bloomset.runtime_filter = off;
SELECT count(*) FROM big_fact f JOIN dim d ON d.id = f.dim_id WHERE d.region = 'EU';
RESET bloomset.runtime_filter;
-- the rule for filters that are unioned: per-chunk filters built for the
-- union's capacity union into a 1 % filter; automatically sized ones do not
CREATE TABLE chunk_filter_u AS
SELECT chunk, bloom_agg(customer_id, 400000, 0.01) AS f FROM orders GROUP BY chunk;
SELECT round((100 * (bloom_info(u)).estimated_fpr)::numeric, 2) AS union_of_capacity_sized_pct,
       (bloom_info(u)).estimated_fpr <= 0.015 AS about_one_percent,
       (SELECT round((100 * (bloom_info(bloom_union_agg(f))).estimated_fpr)::numeric, 1) FROM chunk_filter) AS union_of_auto_sized_pct,
       (SELECT count(*) FROM incoming i WHERE i.customer_id < 10000000 AND NOT u @> i.customer_id) AS false_negatives
  FROM (SELECT bloom_union_agg(f) AS u FROM chunk_filter_u) s;
SELECT count(*) FILTER (WHERE NOT f @> customer_id) AS seen_filter_false_negatives FROM orders, seen;
-- small adds: a pending key answers "maybe" before the fold, the filter
-- after it, and the fold empties the pending table
SELECT (SELECT f FROM seen) @> 20000001 AS filter_has_new_key_before;
\o /dev/null
-- README block begin
CREATE TABLE pending (k int PRIMARY KEY);
-- keys arrive one at a time: record the key, not a new filter
INSERT INTO pending VALUES (20000001);
-- a key may have been seen if the filter or the pending keys say so
SELECT (SELECT f FROM seen) @> 20000001 OR EXISTS (SELECT 1 FROM pending WHERE k = 20000001);
-- every few hundred keys (or from a scheduled job): fold them in, atomically
WITH moved AS (DELETE FROM pending RETURNING k)
UPDATE seen SET f = bloom_add_all(f, ARRAY(SELECT k FROM moved));
-- README block end
\o
SELECT (SELECT f FROM seen) @> 20000001 AS filter_has_new_key_after,
       (SELECT count(*) FROM pending) AS pending_after_fold,
       (SELECT count(*) FROM orders o, seen WHERE NOT seen.f @> o.customer_id) AS false_negatives_after_fold;
SELECT (SELECT f FROM seen) @> 20000001 OR EXISTS (SELECT 1 FROM pending WHERE k = 20000001) AS maybe_seen;
DROP TABLE pending;
DROP TABLE chunk_filter, chunk_filter_u, seen;

\o /dev/null
-- README block 3 begin
CREATE TABLE log_chunk_filter AS
SELECT chunk, bloom_ngram_agg(line) AS grams, bloom_token_agg(line) AS tokens
FROM logs GROUP BY chunk;

-- only the chunks that may hold a match are scanned; never a missed match
SELECT l.* FROM logs l
WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM log_chunk_filter
                            WHERE bloom_may_like(grams, '%timeout%svc12%')))
  AND l.line LIKE '%timeout%svc12%';
SELECT chunk FROM log_chunk_filter WHERE bloom_token_may_contain(tokens, 'denied');
-- README block 3 end
\o
-- the filters prune: the rows come from the allowed chunks only, and they
-- are exactly the rows LIKE finds in the whole table (never a missed match)
SELECT (SELECT count(*) FROM log_chunk_filter WHERE bloom_may_like(grams, '%timeout%svc12%')) AS chunks_scanned,
       (SELECT count(*) FROM log_chunk_filter) AS chunks,
       (SELECT count(*) FROM logs l
         WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM log_chunk_filter
                                     WHERE bloom_may_like(grams, '%timeout%svc12%')))
           AND l.line LIKE '%timeout%svc12%') AS rows_found,
       (SELECT count(*) FROM logs WHERE line LIKE '%timeout%svc12%') AS rows_exact;
SELECT array_agg(chunk ORDER BY chunk) @> ARRAY[7] AS denied_chunk_found,
       count(*) <= 3 AS few_chunks
  FROM log_chunk_filter WHERE bloom_token_may_contain(tokens, 'denied');
-- the plan uses the index on chunk, with the filters' answer as its key
CREATE FUNCTION re_plan_has(q text, node text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%' || node || '%' THEN RETURN true; END IF;
	END LOOP;
	RETURN false;
END $$;
SET enable_seqscan = off;
SELECT re_plan_has($q$SELECT l.* FROM logs l
WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM log_chunk_filter
                            WHERE bloom_may_like(grams, '%timeout%svc12%')))
  AND l.line LIKE '%timeout%svc12%'$q$, 'Index Cond') AS prunes_by_index;
RESET enable_seqscan;
DROP FUNCTION re_plan_has(text, text);
DROP TABLE log_chunk_filter, customers_new, incoming, big_fact, dim, orders;

-- A skip index for big tables: 200,000 spans, each trace's 8 spans written
-- together, so a trace lies in one block range
CREATE TABLE spans AS
SELECT (g / 8) * 7919 + 4200000000 AS trace_id, g AS span_id, repeat('x', 60) AS payload
FROM generate_series(0, 199999) g;
ANALYZE spans;
\o /dev/null
CREATE INDEX ON spans USING bloomskip (trace_id);
SELECT * FROM spans WHERE trace_id = 4200007919;
SELECT * FROM spans WHERE trace_id = ANY (ARRAY[4200007919, 1700000017]);
\o
-- the planner picks the index by itself, and it finds what a sequential
-- scan finds, for present and absent keys
CREATE FUNCTION re_plan_has(q text, node text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%' || node || '%' THEN RETURN true; END IF;
	END LOOP;
	RETURN false;
END $$;
SELECT re_plan_has('SELECT * FROM spans WHERE trace_id = 4200007919', 'Bitmap Index Scan on spans_trace_id_idx') AS index_used,
       re_plan_has('SELECT * FROM spans WHERE trace_id = ANY (ARRAY[4200007919, 1700000017])', 'Bitmap Index Scan on spans_trace_id_idx') AS any_index_used;
CREATE TEMP TABLE re_keys AS SELECT 4200000000 + 7919 * k AS k FROM generate_series(-10, 25010, 70) k;
SET enable_seqscan = off;	-- the index for trace_id = k; trace_id + 0 = k is scanned
SELECT count(*) AS keys,
       count(*) FILTER (WHERE (SELECT count(*) FROM spans s WHERE s.trace_id = re_keys.k) <>
                              (SELECT count(*) FROM (SELECT * FROM spans s2 WHERE s2.trace_id + 0 = re_keys.k) x)) AS disagreements
  FROM re_keys;
RESET enable_seqscan;
SET client_min_messages = warning;	-- its notice counts ranges, which differ by version
SELECT bloomskip_check('spans_trace_id_idx') AS missing_keys;
RESET client_min_messages;

-- Substring search: 100,000 log lines with hex trace ids, and one line with
-- the needle (replacing the chunked logs above); the n-gram class serves
-- the LIKE, reads few of the table's pages, and finds what a sequential
-- scan finds
DROP TABLE IF EXISTS logs;
CREATE TABLE logs AS
SELECT g AS id, 'GET /api/items/' || g || ' status=200 trace=' || md5(g::text) AS line
FROM generate_series(1, 100000) g;
INSERT INTO logs VALUES (0, 'GET /api/items/0 status=500 trace=z1UoG7ceL1');
ANALYZE logs;
\o /dev/null
CREATE INDEX ON logs USING bloomskip (line text_ngram_bloomskip_ops);
SELECT * FROM logs WHERE line LIKE '%trace=z1UoG7ceL1%';
\o
SELECT re_plan_has($q$SELECT * FROM logs WHERE line LIKE '%trace=z1UoG7ceL1%'$q$,
                   'Bitmap Index Scan on logs_line_idx') AS index_used;
CREATE FUNCTION re_lossy(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::bigint;
END $$;
SELECT re_lossy($q$SELECT * FROM logs WHERE line LIKE '%trace=z1UoG7ceL1%'$q$) * 20 <
       pg_relation_size('logs') / current_setting('block_size')::int AS reads_under_5_percent;
SELECT (SELECT count(*) FROM logs WHERE line LIKE '%trace=z1UoG7ceL1%') AS found,
       (SELECT count(*) FROM logs WHERE line || '' LIKE '%trace=z1UoG7ceL1%') AS seq_scan_finds;
DROP FUNCTION re_lossy(text);

-- Full text: 100,000 notes, four about a quokka; the README's setup and
-- block, then what the index finds against the sequential scan
CREATE TABLE docs AS
SELECT g AS id, to_tsvector('english', 'note ' || g || ' from host web' || g % 40 ||
       CASE WHEN g % 25000 = 0 THEN ' about a quokka, a marsupial' ELSE '' END) AS tsv
FROM generate_series(1, 100000) g;
ANALYZE docs;
\o /dev/null
CREATE INDEX ON docs USING bloomskip (tsv);
SELECT * FROM docs WHERE tsv @@ to_tsquery('english', 'quokka & marsupial');
\o
SELECT re_plan_has($q$SELECT * FROM docs WHERE tsv @@ to_tsquery('english', 'quokka & marsupial')$q$,
                   'Bitmap Index Scan on docs_tsv_idx') AS index_used;
SELECT (SELECT count(*) FROM docs WHERE tsv @@ to_tsquery('english', 'quokka & marsupial')) AS found,
       (SELECT count(*) FROM docs WHERE tsv || '' @@ to_tsquery('english', 'quokka & marsupial')) AS seq_scan_finds;

-- Tags and attributes: 200,000 events of three tags, rare:quokka on four,
-- and 200,000 documents, rare_key on four; the README's setup and blocks
CREATE TABLE ev AS
SELECT g AS id, ARRAY['env:' || g % 3, 'user:' || g % 10007, 'svc:' || g % 50] ||
       CASE WHEN g % 50000 = 0 THEN ARRAY['rare:quokka'] ELSE '{}' END AS tags
FROM generate_series(1, 200000) g;
ANALYZE ev;
CREATE TABLE att AS
SELECT g AS id, jsonb_build_object('user', jsonb_build_object('id', g % 10000, 'tier', g % 3),
                                   'status', (ARRAY[200, 404, 500])[1 + g % 3]) ||
       CASE WHEN g % 50000 = 0 THEN '{"rare_key": true}'::jsonb ELSE '{}' END AS doc
FROM generate_series(1, 200000) g;
ANALYZE att;
\o /dev/null
CREATE INDEX ON ev USING bloomskip (tags);
SELECT * FROM ev WHERE tags @> ARRAY['rare:quokka', 'env:0'];
SELECT * FROM ev WHERE tags && ARRAY['rare:quokka', 'user:5'];
CREATE INDEX ON att USING bloomskip (doc);
SELECT * FROM att WHERE doc @> '{"user": {"id": 3001}}';
SELECT * FROM att WHERE doc ? 'rare_key';
\o
SELECT re_plan_has($q$SELECT * FROM ev WHERE tags @> ARRAY['rare:quokka', 'env:0']$q$,
                   'Bitmap Index Scan on ev_tags_idx') AS tags_index_used,
       re_plan_has($q$SELECT * FROM att WHERE doc ? 'rare_key'$q$,
                   'Bitmap Index Scan on att_doc_idx') AS doc_index_used;
SELECT (SELECT count(*) FROM ev WHERE tags @> ARRAY['rare:quokka', 'env:0']) AS all_of,
       (SELECT count(*) FROM ev WHERE tags || '{}' @> ARRAY['rare:quokka', 'env:0']) AS all_of_seq,
       (SELECT count(*) FROM ev WHERE tags && ARRAY['rare:quokka', 'user:5']) AS any_of,
       (SELECT count(*) FROM ev WHERE tags || '{}' && ARRAY['rare:quokka', 'user:5']) AS any_of_seq,
       (SELECT count(*) FROM att WHERE doc @> '{"user": {"id": 3001}}') AS pair,
       (SELECT count(*) FROM att WHERE doc || '{}' @> '{"user": {"id": 3001}}') AS pair_seq,
       (SELECT count(*) FROM att WHERE doc ? 'rare_key') AS key,
       (SELECT count(*) FROM att WHERE doc || '{}' ? 'rare_key') AS key_seq;
\o /dev/null
CREATE INDEX ON ev USING bloomskip (tags) WITH (pages_per_range = 4);
\o
SELECT pages_per_range FROM bloomskip_info('ev_tags_idx1');
DROP FUNCTION re_plan_has(text, text);
DROP TABLE spans, re_keys, logs, docs, ev, att;

