#!/usr/bin/env bash
# scripts/demo.sh -- the main job: build and install bloomset, start a
# throwaway PostgreSQL 15 (as the postgres OS user, in a temp dir, removed on
# exit), load a small sample and let the filters answer real questions.
source "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"

cat <<EOF
== bloomset demo: what it does, where, and how long
   1. installs the Debian packages it needs that are missing (apt-get, as root):
      build-essential, libxxhash-dev, postgresql-$PG_MAJOR, postgresql-server-dev-$PG_MAJOR
   2. builds bloomset in this clone and installs it with 'make install' into the
      system PostgreSQL $PG_MAJOR's directories (those of $PG_BIN/pg_config)
   3. starts a throwaway PostgreSQL $PG_MAJOR cluster as the postgres OS user in a
      temporary directory (Unix socket only), loads sample data, asks the filters,
      and removes the cluster on exit; the installed extension stays
   About a minute or two on 2 cores with the packages there, the build included;
   on a fresh machine the packages' download and install add a few minutes.
EOF

ensure_base_packages
build_install
pg_start "jit = off"
echo "== throwaway PostgreSQL on socket $PGHOST port $PGPORT"

psql_q <<'SQL'
\pset footer off
CREATE EXTENSION bloomset;

\echo '-- a day of orders split into four chunks (partitions), 200,000 customer ids'
CREATE TABLE orders AS
SELECT g AS order_id, (g * 7919) % 1000003 AS customer_id, (g % 4) AS chunk
FROM generate_series(1, 200000) g;

\echo '-- one skip filter per chunk: bloom_agg sizes itself (<= 1 % false positives)'
CREATE TABLE chunk_filter AS
SELECT chunk, bloom_agg(customer_id) AS f FROM orders GROUP BY chunk;
SELECT chunk, (bloom_info(f)).bytes, round(bloom_estimate_card(f)) AS estimated_customers,
       (SELECT count(DISTINCT customer_id) FROM orders o WHERE o.chunk = c.chunk) AS exact
FROM chunk_filter c ORDER BY chunk;

\echo '-- which chunks may hold the customer of order 42? only those need a scan'
SELECT chunk, bloom_contains(f, 42 * 7919 % 1000003) AS may_hold FROM chunk_filter ORDER BY chunk;

\echo '-- ETL pre-check: of 100,000 incoming ids, which are certainly new?'
CREATE TABLE incoming AS SELECT (g::bigint * 104729) % 2000003 AS customer_id FROM generate_series(1, 100000) g;
WITH seen AS (SELECT bloom_agg(customer_id) AS f FROM orders)
SELECT count(*) FILTER (WHERE NOT bloom_contains(seen.f, i.customer_id)) AS certainly_new,
       count(*) FILTER (WHERE bloom_contains(seen.f, i.customer_id)) AS need_exact_check,
       (SELECT count(*) FROM incoming i2 WHERE NOT EXISTS
          (SELECT 1 FROM orders o WHERE o.customer_id = i2.customer_id)) AS exact_new
FROM incoming i, seen;

\echo '-- the union of the chunk filters also answers for the whole day, with no false'
\echo '-- negatives; it keeps the chunk filters'' size, so its rate rises: bloomset warns when it is'
\echo '-- over 1.5 times the rate the chunks were sized for, and bloom_info says by how much'
SELECT (bloom_info(u)).layout, (bloom_info(u)).bytes, round(bloom_estimate_card(u)) AS estimated_customers,
       round((bloom_info(u)).estimated_fpr::numeric, 5) AS current_fpr
FROM (SELECT bloom_union_agg(f) AS u FROM chunk_filter) s;

\echo '-- a data lake: 2,000 files, each with a filter of its 1,000 keys, all sized alike;'
\echo '-- a bit-sliced filter index answers "which files may hold key X?" for all of them'
\echo '-- at once (file 1234 holds it; about 1 % of the others answer "maybe")'
CREATE TABLE file_filter AS
SELECT file::bigint AS file, bloom_agg(file * 1000 + g, 1000, 0.01) AS f
FROM generate_series(1, 2000) file, generate_series(0, 999) g GROUP BY file;
SELECT bloom_index_create('file_idx', 'SELECT file, f FROM file_filter');
SELECT count(*) AS files_that_may_hold_it, bool_or(id = 1234) AS includes_file_1234,
       array_agg(id ORDER BY id) = (SELECT array_agg(file ORDER BY file) FROM file_filter
                                    WHERE f @> 1234567) AS same_as_asking_each_filter
FROM bloom_index_lookup('file_idx', 1234567) AS id;

\echo '-- operators: || adds, @> probes, | unions; any hashable type, untyped literals'
SELECT (bloom_empty(1000) || 'apple' || 'pear') @> 'apple' AS has_apple,
       (bloom_empty(1000) || 'apple' || 'pear') @> 'plum' AS has_plum;

\echo '-- sizing advice (ClickHouse calculationBestPractices analogue)'
SELECT * FROM bloom_params(10000000, 0.01);

\echo '-- bloomskip: a skip index the planner uses by itself; 1,000,000 spans, each'
\echo '-- trace''s 8 spans written together; a lookup reads a few index pages and the'
\echo '-- pages of the ranges that may hold the key (lossy, rechecked)'
CREATE TABLE spans AS
SELECT (g / 8) * 1000003 % 9999991 AS trace_id, g AS span_id, repeat('x', 60) AS payload
FROM generate_series(0::bigint, 999999) g;
CREATE INDEX spans_skip ON spans USING bloomskip (trace_id);
ANALYZE spans;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT count(*) FROM spans WHERE trace_id = 4200::bigint * 1000003 % 9999991;
CREATE INDEX spans_btree ON spans (trace_id);
SELECT pg_size_pretty(pg_relation_size('spans_skip')) AS bloomskip_size,
       pg_size_pretty(pg_relation_size('spans_btree')) AS btree_size;
DROP INDEX spans_btree;
SELECT ranges, bits_per_range, hashes, round(target_rate::numeric, 5) AS rate,
       summarized_ranges, open_ranges FROM bloomskip_info('spans_skip');

\echo '-- substring search: the n-gram operator class serves LIKE ''%needle%''; hex ids'
\echo '-- hold every 3-gram in every range, so they get 5-grams'
CREATE TABLE logs AS
SELECT g AS id, 'GET /api/items/' || g || ' status=' || (200 + g % 5) || ' trace=' || md5(g::text) AS line
FROM generate_series(1, 200000) g;
CREATE INDEX logs_ngram ON logs USING bloomskip (line text_ngram_bloomskip_ops (n = 5));
SELECT pg_size_pretty(pg_relation_size('logs')) AS table_size, pg_size_pretty(pg_relation_size('logs_ngram')) AS index_size;
ANALYZE logs;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT * FROM logs WHERE line LIKE '%trace=e10adc3949ba%';
SQL
echo "== demo finished in $((SECONDS / 60)) min $((SECONDS % 60)) s; the throwaway cluster is being removed"
