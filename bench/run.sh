#!/usr/bin/env bash
# bench/run.sh [rows] -- the bloomset benchmark.
#
# Builds bloomset, starts a throwaway PostgreSQL 15 cluster,
# loads t(id bigint, s text = md5(id::text)) with `rows` rows (default 10M),
# and times each case against its baselines, interleaved (A B A B ...), on
# the server (clock around PL/pgSQL EXECUTE, see bench_helpers.sql).  The
# extension is built from a snapshot of the sources and installed into a
# private copy of PostgreSQL (see lib_bench.sh): other developers' installs
# into the system PostgreSQL cannot change the build under test.
# Prints a Markdown report and writes it to bench/results/latest.md.
#
# Environment: BENCH_REPS (timed rounds per case, default 5),
#              BENCH_OUT (report file, default bench/results/latest.md),
#              BENCH_TUNED (1: the tuned server configuration -- shared_buffers
#              = BENCH_SHARED_BUFFERS, default 2GB, on huge pages, work_mem =
#              256MB, jit = off; default: PostgreSQL's defaults, as users run
#              it; see bench_setup in lib_bench.sh; the report's header
#              names the configuration and its settings),
#              BENCH_PERF (0: leave out the perf stat counters of the
#              probing cases, see bench_perf_stat in lib_bench.sh),
#              BENCH_GROUPS (space-separated case groups to run, default all:
#              agg-text agg-int agg-auto probe etl parallel multi (timed as
#              two groups, multi and multi13) lookup (point lookups over
#              100 and 1,000 stored filters and writes by storage, timed as
#              lookup100, lookup1k and lookwrite) union beyond space;
#              for quick experiments, the committed report runs them all;
#              opt-in, run only when named: findex -- the filter index of
#              bit-sliced filters over 10,000 and 100,000 stored filters against
#              per-filter and BRIN lookups, a few GB of data generated once
#              and cached in /var/cache/bloomset-bench, see bench/findex.sh:
#              BENCH_GROUPS=findex BENCH_OUT=bench/results/findex-latest.md
#              bash bench/run.sh 1000); skipam -- the bloomskip index access
#              method against btree and BRIN bloom on 1 M, 10 M and 100 M
#              spans (data cached as findex's), its own server and report
#              bench/results/skipam-latest.md, see bench/skipam.sh:
#              BENCH_GROUPS=skipam bash bench/run.sh); skipngram -- bloomskip's
#              n-gram operator class against pg_trgm's GIN index for
#              LIKE '%needle%' on 5 M log lines, its own server and report
#              bench/results/skipngram-latest.md, see bench/skipngram.sh:
#              BENCH_GROUPS=skipngram bash bench/run.sh); skiptext -- bloomskip's
#              n-gram classes for ILIKE, ~ and ~* against pg_trgm GIN, its own report
#              bench/results/skiptext-latest.md, see bench/skiptext.sh:
#              BENCH_GROUPS=skiptext bash bench/run.sh; skiparray -- bloomskip's
#              array and jsonb classes against GIN (own report,
#              bench/results/skiparray-latest.md, see bench/skiparray.sh:
#              BENCH_GROUPS=skiparray bash bench/run.sh); skipcheck --
#              bloomskip_check against CREATE INDEX for every class (own
#              report, bench/results/skipcheck-latest.md, see
#              bench/skipcheck.sh: BENCH_GROUPS=skipcheck bash bench/run.sh;
#              BENCH_SKIPCHECK_BEFORE=<revision> times that revision too);
#              skipconcurrent -- CREATE INDEX CONCURRENTLY and REINDEX
#              CONCURRENTLY of every bloomskip class against the plain
#              builds on 1 M changelog lines and events (own report,
#              bench/results/skipconcurrent-latest.md, see
#              bench/skipconcurrent.sh: BENCH_GROUPS=skipconcurrent bash
#              bench/run.sh); skipplan -- the planner's choice between
#              the sequential scan and bloomskip's bitmap scan for needles
#              from 1 row in 100,000 to 1 in 5 (own report,
#              bench/results/skipplan-latest.md, see bench/skipplan.sh:
#              BENCH_GROUPS=skipplan bash bench/run.sh); joinfilter -- hash
#              joins of a 5 M-row star schema with bloomset.runtime_filter
#              off and on (own report, bench/results/joinfilter-latest.md,
#              see bench/joinfilter.sh: BENCH_GROUPS=joinfilter bash
#              bench/run.sh; until the setting is built, both columns
#              time the same plan and the report says so).
# Progress goes to stderr; the report to stdout and the file.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"

CMDLINE="${BENCH_GROUPS:+BENCH_GROUPS=\"$BENCH_GROUPS\" }bench/run.sh${*:+ $*}"
N=${1:-10000000}
REPS=${BENCH_REPS:-5}
OUT=${BENCH_OUT:-$BENCH_DIR/results/latest.md}
case "$N" in ''|*[!0-9]*) echo "usage: bench/run.sh [rows]" >&2; exit 2 ;; esac
[ "$N" -ge 1000 ] || { echo "rows must be at least 1000" >&2; exit 2; }

# The groups with their own data, server and report (bench/<group>.sh):
# opt-in, only when BENCH_GROUPS names them, run before the groups' 10M-row
# table is loaded; when only they are named, nothing else runs.
#   skipam     the bloomskip index access method
#   skiparray  bloomskip's array and jsonb classes against GIN
#   skiptext   bloomskip's text-search classes against pg_trgm and tsvector GIN
#   skipngram  bloomskip's n-gram class
#   skipcheck  bloomskip_check against CREATE INDEX, per class
#   skipconcurrent  bloomskip's concurrent builds against plain ones
#   skipplan   the planner's choice for bloomskip's classes with queries, by needle frequency
#   joinfilter runtime join filters off and on over a star schema
for group in skipam skiparray skiptext skipngram skipcheck skipconcurrent skipplan joinfilter; do
	[[ " ${BENCH_GROUPS:-} " == *" $group "* ]] || continue
	env "${group^^}_CMDLINE=$CMDLINE" bash "$BENCH_DIR/$group.sh"
	BENCH_GROUPS=$(echo " $BENCH_GROUPS " | sed -e "s/ $group / /g" -e 's/^ *//' -e 's/ *$//')
	[ -n "$BENCH_GROUPS" ] || exit 0
done

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
source "$BENCH_DIR/lib_bench.sh"
bench_setup "$N"

# ---------------------------------------------------------------------------
# The cases: groups of queries timed interleaved, then report rows pairing a
# query with its baseline.
# ---------------------------------------------------------------------------
sql <<'EOF'
INSERT INTO bench_q (grp, ord, label, query, workers, fname, guc) VALUES
 ('agg-text', 1, 'SELECT bloom_agg(s, @N@, 0.01) FROM t', NULL, 0, NULL, NULL),
 ('agg-text', 2, 'SELECT count(s) FROM t', NULL, 0, NULL, NULL),
 ('agg-text', 3, 'SELECT hll_add_agg(hll_hash_text(s)) FROM t', NULL, 0, NULL, NULL),
 ('agg-int', 1, 'SELECT bloom_agg(id, @N@, 0.01) FROM t', NULL, 0, NULL, NULL),
 ('agg-int', 2, 'SELECT count(id) FROM t', NULL, 0, NULL, NULL),
 ('agg-int', 3, 'SELECT hll_add_agg(hll_hash_bigint(id)) FROM t', NULL, 0, NULL, NULL),
 ('agg-auto', 1, 'SELECT bloom_agg(s) FROM t', NULL, 0, NULL, NULL),
 ('agg-auto', 2, 'SELECT count(s) FROM t', NULL, 0, NULL, NULL),
 ('probe', 1, 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s)', NULL, 0, 'big', NULL),
 ('probe', 2, 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s)', NULL, 0, 'small', NULL),
 ('probe', 3, 'SELECT count(*) FROM t WHERE s <> ''''', NULL, 0, NULL, NULL),
 ('probe', 4, 'SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM filters WHERE name=''big''), s)', NULL, 0, NULL, NULL),
 ('probe', 5, 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE bloom_contains(filters.f, t.s)', NULL, 0, NULL, NULL),
 ('probe', 8, 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE t.s <> '''' /* the join itself */', NULL, 0, NULL, NULL),
 -- the batched probe (a BloomProbe node, on by default) against the plain
 -- probe; last in the group, so the library is loaded when bench_ms reads
 -- the setting to restore it
 ('probe', 9, 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s) /* bloomset.batched_probe = off */', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s)', 0, 'big', 'bloomset.batched_probe=off'),
 ('probe', 10, 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s) /* bloomset.batched_probe = off */', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s)', 0, 'small', 'bloomset.batched_probe=off'),
 ('probe', 11, 'SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM filters WHERE name=''big''), s) /* bloomset.batched_probe = off */', 'SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM filters WHERE name=''big''), s)', 0, NULL, 'bloomset.batched_probe=off'),
 ('probe', 12, 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE bloom_contains(filters.f, t.s) /* bloomset.batched_probe = off */', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE bloom_contains(filters.f, t.s)', 0, NULL, 'bloomset.batched_probe=off'),
 ('etl', 1, 'SELECT count(*) FROM staging WHERE NOT bloom_contains((SELECT f FROM filters WHERE name=''target''), key)', NULL, 0, NULL, NULL),
 ('etl', 2, 'SELECT count(*) FROM staging s WHERE NOT EXISTS (SELECT 1 FROM target t WHERE t.key = s.key)', NULL, 0, NULL, NULL),
 ('parallel', 1, 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 2 workers */', NULL, 2, NULL, NULL),
 ('parallel', 2, 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 0 workers */', NULL, 0, NULL, NULL),
 ('parallel', 3, 'SELECT count(s) FROM t /* 2 workers */', NULL, 2, NULL, NULL),
 ('parallel', 4, 'SELECT count(s) FROM t /* 0 workers */', NULL, 0, NULL, NULL),
 ('parallel', 5, 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 2 workers, parallel_leader_participation = off */', 'SELECT bloom_agg(s, @N@, 0.01) FROM t', 2, NULL, 'parallel_leader_participation=off'),
 ('parallel', 6, 'SELECT count(s) FROM t /* 2 workers, parallel_leader_participation = off */', 'SELECT count(s) FROM t', 2, NULL, 'parallel_leader_participation=off'),
 ('multi', 1, 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys, chunk_filter WHERE f @> k GROUP BY k) s', NULL, 0, NULL, NULL),
 ('multi', 2, 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM chunk_filter c CROSS JOIN LATERAL (SELECT k FROM keys WHERE c.f @> keys.k OFFSET 0) kk GROUP BY k) s', NULL, 0, NULL, NULL),
 ('multi', 3, 'SELECT count(*) FROM incoming o JOIN chunk_filter c USING (chunk) WHERE c.f @> o.customer_id', NULL, 0, NULL, NULL),
 ('multi', 4, 'SELECT count(*) FROM (SELECT * FROM incoming ORDER BY chunk OFFSET 0) o JOIN chunk_filter c USING (chunk) WHERE c.f @> o.customer_id', NULL, 0, NULL, NULL),
 ('multi', 5, 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys200, chunk_filter WHERE f @> k GROUP BY k) s', NULL, 0, NULL, NULL),
 -- last in its group: the library is loaded (by the queries above) before
 -- bench_ms reads the setting to restore it
 ('multi', 6, 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys200, chunk_filter WHERE f @> k GROUP BY k) s /* bloomset.probe_cache_size = 0 */', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys200, chunk_filter WHERE f @> k GROUP BY k) s', 0, NULL, 'bloomset.probe_cache_size=0'),
 ('multi13', 1, 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys, chunk_filter13 WHERE f @> k GROUP BY k) s', NULL, 0, NULL, NULL),
 ('multi13', 2, 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM chunk_filter13 c CROSS JOIN LATERAL (SELECT k FROM keys WHERE c.f @> keys.k OFFSET 0) kk GROUP BY k) s', NULL, 0, NULL, NULL),
 ('multi13', 3, 'SELECT count(*) FROM incoming o JOIN chunk_filter13 c USING (chunk) WHERE c.f @> o.customer_id', NULL, 0, NULL, NULL),
 ('multi13', 4, 'SELECT count(*) FROM (SELECT * FROM incoming ORDER BY chunk OFFSET 0) o JOIN chunk_filter13 c USING (chunk) WHERE c.f @> o.customer_id', NULL, 0, NULL, NULL),
 ('union', 1, 'SELECT bloom_union_agg(f) FROM ufilters /* 1000 x 1 MiB, STORAGE EXTERNAL */', NULL, 0, NULL, NULL),
 ('union', 2, 'SELECT sum(length(bloom_to_bytea(f))) FROM ufilters /* detoast + copy floor */', NULL, 0, NULL, NULL),
 ('union', 3, 'SELECT bloom_union_agg(f) FROM ufilters_z /* 1000 x 1 MiB, pglz-compressed */', NULL, 0, NULL, NULL),
 ('union', 4, 'SELECT sum(length(bloom_to_bytea(f))) FROM ufilters_z /* detoast + copy floor */', NULL, 0, NULL, NULL),
 ('beyond', 1, 'SELECT counting_bloom_agg(id, @N@, 0.01) FROM t', NULL, 0, NULL, NULL),
 ('beyond', 2, 'SELECT count(id) FROM t', NULL, 0, NULL, NULL),
 ('beyond', 3, 'SELECT counting_bloom_remove_all((SELECT f FROM cfilters), (SELECT array_agg(id) FROM t WHERE id <= 1000000)) IS NULL', NULL, 0, NULL, NULL),
 ('beyond', 4, 'SELECT array_length((SELECT array_agg(id) FROM t WHERE id <= 1000000), 1) /* array floor */', NULL, 0, NULL, NULL),
 ('beyond', 5, 'SELECT scalable_bloom_agg(id) FROM t', NULL, 0, NULL, NULL),
 ('beyond', 6, 'SELECT count(*) FROM t WHERE scalable_bloom_contains((SELECT f FROM sfilters), id)', NULL, 0, NULL, NULL),
 ('beyond', 7, 'SELECT count(*) FROM t WHERE id > 0', NULL, 0, NULL, NULL),
 ('beyond', 8, 'SELECT count(*) FROM logs6 l WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM grams6 WHERE bloom_ngram_may_contain(g, ''a6e23cf9''))) AND l.s LIKE ''%a6e23cf9%'' /* 6-gram chunk filters first */', NULL, 0, NULL, NULL),
 ('beyond', 9, 'SELECT count(*) FROM logs6 WHERE s LIKE ''%a6e23cf9%'' /* full scan */', NULL, 0, NULL, NULL),
 ('beyond', 12, 'SELECT count(*) FROM logs6 l WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM grams3 WHERE bloom_ngram_may_contain(g, ''a6e23cf9''))) AND l.s LIKE ''%a6e23cf9%'' /* 3-gram chunk filters first */', NULL, 0, NULL, NULL),
 ('beyond', 10, 'SELECT bloom_ngram_agg(s) FROM t WHERE id <= 1000000', NULL, 0, NULL, NULL),
 ('beyond', 11, 'SELECT count(s) FROM t WHERE id <= 1000000', NULL, 0, NULL, NULL);
UPDATE bench_q SET query = label WHERE query IS NULL;

-- note: the kind of figures to add (rows, speedup, gbps, etl, 'probes N');
-- txt: free text for the notes column
-- goal: 'ms X' (median <= X ms) or 'ratio X' (ratio <= X), reported against the median
CREATE TABLE bench_rows (ord serial, name text, grp text, label text, bgrp text, blabel text, note text, txt text, goal text);
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note) VALUES
 ('agg-text', 'agg-text', 'SELECT bloom_agg(s, @N@, 0.01) FROM t', 'agg-text', 'SELECT count(s) FROM t', 'rows'),
 ('agg-text', 'agg-text', 'SELECT bloom_agg(s, @N@, 0.01) FROM t', 'agg-text', 'SELECT hll_add_agg(hll_hash_text(s)) FROM t', 'rows'),
 ('agg-int', 'agg-int', 'SELECT bloom_agg(id, @N@, 0.01) FROM t', 'agg-int', 'SELECT count(id) FROM t', 'rows'),
 ('agg-int', 'agg-int', 'SELECT bloom_agg(id, @N@, 0.01) FROM t', 'agg-int', 'SELECT hll_add_agg(hll_hash_bigint(id)) FROM t', 'rows'),
 ('agg-auto', 'agg-auto', 'SELECT bloom_agg(s) FROM t', 'agg-auto', 'SELECT count(s) FROM t', 'rows'),
 ('probe-const', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s)', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('probe-const', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s)', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('probe-const (batched off)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s) /* bloomset.batched_probe = off */', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('probe-const (batched off)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s) /* bloomset.batched_probe = off */', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('probe-batched (on vs off)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s) /* bloomset.batched_probe = off */', 'rows'),
 ('probe-batched (on vs off)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* 1 MiB */, s) /* bloomset.batched_probe = off */', 'rows'),
 ('probe-stored', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM filters WHERE name=''big''), s)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s)', 'rows'),
 ('probe-stored', 'probe', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE bloom_contains(filters.f, t.s)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains($1 /* big */, s)', 'rows'),
 ('probe-stored (vs trivial)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM filters WHERE name=''big''), s)', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('probe-stored (vs trivial, batched off)', 'probe', 'SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM filters WHERE name=''big''), s) /* bloomset.batched_probe = off */', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('probe-join (vs the join floor)', 'probe', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE bloom_contains(filters.f, t.s)', 'probe', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE t.s <> '''' /* the join itself */', 'rows'),
 ('probe-join (vs the join floor, batched off)', 'probe', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE bloom_contains(filters.f, t.s) /* bloomset.batched_probe = off */', 'probe', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE t.s <> '''' /* the join itself */', 'rows'),
 ('probe-stored (join floor)', 'probe', 'SELECT count(*) FROM t JOIN filters ON name=''big'' WHERE t.s <> '''' /* the join itself */', 'probe', 'SELECT count(*) FROM t WHERE s <> ''''', 'rows'),
 ('etl-new-keys', 'etl', 'SELECT count(*) FROM staging WHERE NOT bloom_contains((SELECT f FROM filters WHERE name=''target''), key)', 'etl', 'SELECT count(*) FROM staging s WHERE NOT EXISTS (SELECT 1 FROM target t WHERE t.key = s.key)', 'etl'),
 ('parallel', 'parallel', 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 2 workers */', 'parallel', 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 0 workers */', 'speedup'),
 ('parallel', 'parallel', 'SELECT count(s) FROM t /* 2 workers */', 'parallel', 'SELECT count(s) FROM t /* 0 workers */', 'speedup'),
 ('parallel', 'parallel', 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 2 workers, parallel_leader_participation = off */', 'parallel', 'SELECT bloom_agg(s, @N@, 0.01) FROM t /* 0 workers */', 'speedup'),
 ('parallel', 'parallel', 'SELECT count(s) FROM t /* 2 workers, parallel_leader_participation = off */', 'parallel', 'SELECT count(s) FROM t /* 0 workers */', 'speedup');
-- stored filters probed in turn (case group multi).
-- bloomset 1.0 kept one detoasted filter per call site: when consecutive rows
-- probed different filters, every probe detoasted its filter, as with the
-- cache off.  Timed on 200 keys (2,000 probes), not 2,000: a detoast of
-- 1.3 MB from TOAST per probe makes the 2,000-key query take minutes.
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note, txt) VALUES
 ('multi keys x filters (1.3 MB)', 'multi', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys, chunk_filter WHERE f @> k GROUP BY k) s', 'multi', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM chunk_filter c CROSS JOIN LATERAL (SELECT k FROM keys WHERE c.f @> keys.k OFFSET 0) kk GROUP BY k) s', 'probes 20000', 'default plan vs filters as the outer side (each filter detoasted once per query)'),
 ('multi keys x filters (13 MB)', 'multi13', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys, chunk_filter13 WHERE f @> k GROUP BY k) s', 'multi13', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM chunk_filter13 c CROSS JOIN LATERAL (SELECT k FROM keys WHERE c.f @> keys.k OFFSET 0) kk GROUP BY k) s', 'probes 20000', 'default plan vs filters as the outer side (each filter detoasted once per query)'),
 ('multi interleaved chunks (1.3 MB)', 'multi', 'SELECT count(*) FROM incoming o JOIN chunk_filter c USING (chunk) WHERE c.f @> o.customer_id', 'multi', 'SELECT count(*) FROM (SELECT * FROM incoming ORDER BY chunk OFFSET 0) o JOIN chunk_filter c USING (chunk) WHERE c.f @> o.customer_id', 'probes 100000', 'incoming rows interleaved by chunk vs sorted by chunk'),
 ('multi interleaved chunks (13 MB)', 'multi13', 'SELECT count(*) FROM incoming o JOIN chunk_filter13 c USING (chunk) WHERE c.f @> o.customer_id', 'multi13', 'SELECT count(*) FROM (SELECT * FROM incoming ORDER BY chunk OFFSET 0) o JOIN chunk_filter13 c USING (chunk) WHERE c.f @> o.customer_id', 'probes 100000', 'incoming rows interleaved by chunk vs sorted by chunk'),
 ('multi no cache (1.0) (1.3 MB)', 'multi', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys200, chunk_filter WHERE f @> k GROUP BY k) s /* bloomset.probe_cache_size = 0 */', 'multi', 'SELECT count(*) FROM (SELECT k, array_agg(chunk) FROM keys200, chunk_filter WHERE f @> k GROUP BY k) s', 'probes 2000',
  '200 keys, not 2,000: with no cache every probe detoasts its 1.3 MB filter (the 2,000-key query would take 10x as long); baseline: the same query with the cache (default bloomset.probe_cache_size)');
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note) VALUES
 ('union', 'union', 'SELECT bloom_union_agg(f) FROM ufilters /* 1000 x 1 MiB, STORAGE EXTERNAL */', 'union', 'SELECT sum(length(bloom_to_bytea(f))) FROM ufilters /* detoast + copy floor */', 'gbps'),
 ('union', 'union', 'SELECT bloom_union_agg(f) FROM ufilters_z /* 1000 x 1 MiB, pglz-compressed */', 'union', 'SELECT sum(length(bloom_to_bytea(f))) FROM ufilters_z /* detoast + copy floor */', 'gbps'),
 ('counting-add', 'beyond', 'SELECT counting_bloom_agg(id, @N@, 0.01) FROM t', 'beyond', 'SELECT count(id) FROM t', 'rows'),
 ('counting-remove', 'beyond', 'SELECT counting_bloom_remove_all((SELECT f FROM cfilters), (SELECT array_agg(id) FROM t WHERE id <= 1000000)) IS NULL', 'beyond', 'SELECT array_length((SELECT array_agg(id) FROM t WHERE id <= 1000000), 1) /* array floor */', NULL),
 ('scalable-agg', 'beyond', 'SELECT scalable_bloom_agg(id) FROM t', 'beyond', 'SELECT count(id) FROM t', 'rows'),
 ('scalable-probe', 'beyond', 'SELECT count(*) FROM t WHERE scalable_bloom_contains((SELECT f FROM sfilters), id)', 'beyond', 'SELECT count(*) FROM t WHERE id > 0', 'rows'),
 ('substring-search (6-grams)', 'beyond', 'SELECT count(*) FROM logs6 l WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM grams6 WHERE bloom_ngram_may_contain(g, ''a6e23cf9''))) AND l.s LIKE ''%a6e23cf9%'' /* 6-gram chunk filters first */', 'beyond', 'SELECT count(*) FROM logs6 WHERE s LIKE ''%a6e23cf9%'' /* full scan */', NULL),
 ('substring-search (3-grams)', 'beyond', 'SELECT count(*) FROM logs6 l WHERE l.chunk = ANY (ARRAY(SELECT chunk FROM grams3 WHERE bloom_ngram_may_contain(g, ''a6e23cf9''))) AND l.s LIKE ''%a6e23cf9%'' /* 3-gram chunk filters first */', 'beyond', 'SELECT count(*) FROM logs6 WHERE s LIKE ''%a6e23cf9%'' /* full scan */', NULL),
 ('ngram-agg', 'beyond', 'SELECT bloom_ngram_agg(s) FROM t WHERE id <= 1000000', 'beyond', 'SELECT count(s) FROM t WHERE id <= 1000000', NULL);
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
ALTER DATABASE postgres SET parallel_setup_cost = 0;
ALTER DATABASE postgres SET parallel_tuple_cost = 0;
ALTER DATABASE postgres SET min_parallel_table_scan_size = 0;
EOF

want() { [ -z "${BENCH_GROUPS:-}" ] || [[ " $BENCH_GROUPS " == *" $1 "* ]]; }

run_group() {
	want "$1" || return 0
	bench_run "$1"
}
bench_run() {
	say "case $1"
	echo "SELECT bench_group('$1', $REPS);" | psql_q -v VERBOSITY=terse >/dev/null 2> >(sed -n -e 's/^NOTICE:  /    /p' -e '/^ERROR/p' -e '/^psql/p' >&2)
}
run_group agg-text
run_group agg-int
run_group agg-auto
run_group probe
run_group etl
sql <<'EOF'
DROP TABLE staging, target;   -- free shared_buffers and the page cache for the cases below
EOF
run_group parallel

if want multi; then
say "building the per-chunk filters (10 x 1.3 MB, 10 x 13 MB), keys and incoming rows"
sql <<'EOF'
-- stored filters probed in turn (the ETL shapes): one filter per chunk,
-- stored out of line uncompressed (STORAGE EXTERNAL)
CREATE TABLE chunk_filter (chunk int, f bloom);
ALTER TABLE chunk_filter ALTER COLUMN f SET STORAGE EXTERNAL;
INSERT INTO chunk_filter
	SELECT c, (SELECT bloom_agg(c * 1000000 + g, 1000000, 0.01) FROM generate_series(1, 100000) AS g)
	  FROM generate_series(0, 9) AS c;
CREATE TABLE chunk_filter13 (chunk int, f bloom);
ALTER TABLE chunk_filter13 ALTER COLUMN f SET STORAGE EXTERNAL;
INSERT INTO chunk_filter13
	SELECT c, (SELECT bloom_agg(c * 1000000 + g, 10000000, 0.01) FROM generate_series(1, 100000) AS g)
	  FROM generate_series(0, 9) AS c;
-- keys of every chunk (key g is in chunk g % 10)
CREATE TABLE keys AS SELECT (g % 10) * 1000000 + g AS k FROM generate_series(1, 2000) AS g;
CREATE TABLE keys200 AS SELECT (g % 10) * 1000000 + g AS k FROM generate_series(1, 200) AS g;
-- incoming rows, interleaved by chunk (0 1 2 ... 9 0 1 ...)
CREATE TABLE incoming AS
	SELECT g % 10 AS chunk, (g % 10) * 1000000 + g / 10 AS customer_id FROM generate_series(1, 100000) AS g;
VACUUM ANALYZE chunk_filter;
VACUUM ANALYZE chunk_filter13;
VACUUM ANALYZE keys;
VACUUM ANALYZE keys200;
VACUUM ANALYZE incoming;
SELECT sum(pg_prewarm(c.oid) + pg_prewarm(c.reltoastrelid)) AS b FROM pg_class c
 WHERE relname IN ('chunk_filter', 'chunk_filter13') \gset
SELECT pg_prewarm('keys') + pg_prewarm('keys200') + pg_prewarm('incoming') AS b \gset
INSERT INTO bench_info
SELECT 'multi_sizes', format('chunk_filter: 10 filters of %s B stored as %s B (toast %s); chunk_filter13: 10 of %s B stored as %s B (toast %s); keys 2000, keys200 200, incoming 100000 rows',
	(SELECT max((bloom_info(f)).bytes) FROM chunk_filter), (SELECT max(pg_column_size(f)) FROM chunk_filter),
	pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'chunk_filter'))),
	(SELECT max((bloom_info(f)).bytes) FROM chunk_filter13), (SELECT max(pg_column_size(f)) FROM chunk_filter13),
	pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'chunk_filter13'))));
INSERT INTO bench_info
SELECT 'multi_matches', format('keys x chunk_filter %s, keys x chunk_filter13 %s (of 2000 keys in 1 chunk each), incoming in chunk_filter %s (of 100000)',
	(SELECT count(*) FROM keys, chunk_filter WHERE f @> k), (SELECT count(*) FROM keys, chunk_filter13 WHERE f @> k),
	(SELECT count(*) FROM incoming o JOIN chunk_filter c USING (chunk) WHERE c.f @> o.customer_id));
EOF
# two interleaving groups: the 13 MB filters' TOAST (130 MB) is larger than
# the default shared_buffers, so their queries evict the 1.3 MB filters' --
# interleaved with them, the first 1.3 MB query of each round would pay for
# reading it back and its pair would not
run_group multi
bench_run multi13
echo "DROP TABLE chunk_filter, chunk_filter13, keys, keys200, incoming;" | sql
fi

if want lookup; then
say "building the lookup cases: 100 and 1,000 stored filters of 1,000,000 keys, their bytes as bytea, a BRIN bloom index over the same keys"
sql <<'EOF'
-- point lookups over stored filters (the skip index: one filter per chunk):
-- filters of 1,000,000 keys at 1 % (1.3 MB), stored with the type's
-- default storage (external since 1.2); lk1000 holds lk100's filters ten
-- times over (the cost of a lookup does not depend on which keys they hold)
CREATE TABLE lk100 (chunk int, f bloom);
INSERT INTO lk100
	SELECT c, (SELECT bloom_agg(c::bigint * 1000000 + g, 1000000, 0.01) FROM generate_series(1, 1000000) AS g)
	  FROM generate_series(0, 99) AS c;
CREATE TABLE lk1000 (chunk int, f bloom);
INSERT INTO lk1000 SELECT r * 100 + chunk, f FROM lk100, generate_series(0, 9) AS r;
-- the slice floor: the same bytes as bytea, STORAGE external, read with
-- two substring slices per value (a header, one 32-byte block)
CREATE TABLE lk100b (chunk int, b bytea);
ALTER TABLE lk100b ALTER b SET STORAGE EXTERNAL;
INSERT INTO lk100b SELECT chunk, bloom_to_bytea(f) FROM lk100;
CREATE TABLE lk1000b (chunk int, b bytea);
ALTER TABLE lk1000b ALTER b SET STORAGE EXTERNAL;
INSERT INTO lk1000b SELECT chunk, bloom_to_bytea(f) FROM lk1000;
-- PostgreSQL's own skip index over the same keys in one table: BRIN bloom,
-- sized for distinct keys (its defaults, 128 pages a range and distinct
-- values 10 % of the rows, saturate every range's filter: the lookup reads
-- the whole table); 16 pages (about 3,000 rows) a range keeps each range's
-- filter at 1 % within an index page
CREATE TABLE lkbrin (chunk int, k bigint);
INSERT INTO lkbrin SELECT c, c::bigint * 1000000 + g FROM generate_series(0, 99) AS c, generate_series(1, 1000000) AS g;
CREATE INDEX lkbrin_k ON lkbrin USING brin (k int8_bloom_ops(n_distinct_per_range = -1, false_positive_rate = 0.01))
	WITH (pages_per_range = 16);
-- writes: 20 sparse filters (100,000 keys each, sized for the union of 20
-- chunks: 2,000,000 keys) and 20 full ones (1,000,000 keys), copied from
-- tables where they are stored uncompressed into tables with the type's
-- default storage, STORAGE extended (pglz: 1.1's default) and STORAGE
-- external
CREATE TABLE lw_src_sparse (chunk int, f bloom);
ALTER TABLE lw_src_sparse ALTER f SET STORAGE EXTERNAL;
INSERT INTO lw_src_sparse SELECT c, bloom_agg(c::bigint * 1000000 + g, 2000000, 0.01)
  FROM generate_series(0, 19) AS c, generate_series(1, 100000) AS g GROUP BY c;
CREATE TABLE lw_src_full (chunk int, f bloom);
ALTER TABLE lw_src_full ALTER f SET STORAGE EXTERNAL;
INSERT INTO lw_src_full SELECT chunk, f FROM lk100 WHERE chunk < 20;
CREATE TABLE lw_sparse_default (chunk int, f bloom);
CREATE TABLE lw_sparse_extended (chunk int, f bloom);
ALTER TABLE lw_sparse_extended ALTER f SET STORAGE EXTENDED, ALTER f SET COMPRESSION pglz;
CREATE TABLE lw_sparse_external (chunk int, f bloom);
ALTER TABLE lw_sparse_external ALTER f SET STORAGE EXTERNAL;
CREATE TABLE lw_full_default (LIKE lw_sparse_default INCLUDING STORAGE);
CREATE TABLE lw_full_extended (LIKE lw_sparse_extended INCLUDING STORAGE INCLUDING COMPRESSION);
CREATE TABLE lw_full_external (LIKE lw_sparse_external INCLUDING STORAGE);
VACUUM ANALYZE lk100;
VACUUM ANALYZE lk1000;
VACUUM ANALYZE lk100b;
VACUUM ANALYZE lk1000b;
VACUUM ANALYZE lkbrin;
INSERT INTO bench_info
SELECT 'lookup_sizes', format('lk100: 100 filters of %s B stored as %s B (storage %s, toast %s); lk1000: 1,000 (toast %s); lkbrin: %s rows, BRIN bloom index %s',
	(SELECT max((bloom_info(f)).bytes) FROM lk100), (SELECT max(pg_column_size(f)) FROM lk100),
	(SELECT attstorage FROM pg_attribute WHERE attrelid = 'lk100'::regclass AND attname = 'f'),
	pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'lk100'))),
	pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'lk1000'))),
	(SELECT count(*) FROM lkbrin), pg_size_pretty(pg_relation_size('lkbrin_k')));
INSERT INTO bench_info
SELECT 'lookup_matches', format('@> 42000042: %s of 100, %s of 1,000; = ANY (3 keys): %s of 100; BRIN k = 42000042: %s rows',
	(SELECT count(*) FROM lk100 WHERE f @> 42000042), (SELECT count(*) FROM lk1000 WHERE f @> 42000042),
	(SELECT count(*) FROM lk100 WHERE f @> ANY (ARRAY[42000042, 17000017, 63000063])),
	(SELECT count(*) FROM lkbrin WHERE k = 42000042::bigint));
INSERT INTO bench_q (grp, ord, label, query, workers, fname, guc) VALUES
 ('lookup100', 1, 'SELECT count(*) FROM lk100 WHERE f @> 42000042', NULL, 0, NULL, NULL),
 ('lookup100', 2, 'SELECT count(*) FROM lk100 WHERE bloom_contains(f, 17000017::bigint)', NULL, 0, NULL, NULL),
 ('lookup100', 3, 'SELECT count(*) FROM lk100 WHERE f @> ANY (ARRAY[42000042, 17000017, 63000063])', NULL, 0, NULL, NULL),
 ('lookup100', 4, 'SELECT count(*) FROM lk100 WHERE bloom_contains(f, ''63000063'')', NULL, 0, NULL, NULL),
 ('lookup100', 5, 'SELECT count(*) FROM lk100b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 650001 FOR 32), 1) < 0 /* slice floor */', NULL, 0, NULL, NULL),
 ('lookup100', 6, 'SELECT count(*) FROM lk100 WHERE f @> 42000042 /* bloomset.sliced_reads = off (1.1) */', 'SELECT count(*) FROM lk100 WHERE f @> 42000042', 0, NULL, 'bloomset.sliced_reads=off'),
 ('lookup100', 7, 'SELECT count(*) FROM lkbrin WHERE k = 42000042::bigint /* BRIN int8_bloom_ops */', NULL, 0, NULL, NULL),
 ('lookup100', 8, 'SELECT count(*) FROM lk100b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 217001 FOR 32), 1) + get_byte(substring(b FROM 650001 FOR 32), 1) + get_byte(substring(b FROM 1083001 FOR 32), 1) < 0 /* slice floor, 3 keys */', NULL, 0, NULL, NULL),
 ('lookup1k', 1, 'SELECT count(*) FROM lk1000 WHERE f @> 42000042', NULL, 0, NULL, NULL),
 ('lookup1k', 2, 'SELECT count(*) FROM lk1000 WHERE bloom_contains(f, 17000017::bigint)', NULL, 0, NULL, NULL),
 ('lookup1k', 3, 'SELECT count(*) FROM lk1000 WHERE f @> ANY (ARRAY[42000042, 17000017, 63000063])', NULL, 0, NULL, NULL),
 ('lookup1k', 4, 'SELECT count(*) FROM lk1000 WHERE bloom_contains(f, ''63000063'')', NULL, 0, NULL, NULL),
 ('lookup1k', 5, 'SELECT count(*) FROM lk1000b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 650001 FOR 32), 1) < 0 /* slice floor */', NULL, 0, NULL, NULL),
 ('lookup1k', 6, 'SELECT count(*) FROM lk1000 WHERE f @> 42000042 /* bloomset.sliced_reads = off (1.1) */', 'SELECT count(*) FROM lk1000 WHERE f @> 42000042', 0, NULL, 'bloomset.sliced_reads=off'),
 ('lookup1k', 7, 'SELECT count(*) FROM lk1000b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 217001 FOR 32), 1) + get_byte(substring(b FROM 650001 FOR 32), 1) + get_byte(substring(b FROM 1083001 FOR 32), 1) < 0 /* slice floor, 3 keys */', NULL, 0, NULL, NULL),
 ('lookwrite', 1, 'SELECT bench_write(''lw_sparse_default'', ''lw_src_sparse'') /* 20 sparse, default storage */', NULL, 0, NULL, NULL),
 ('lookwrite', 2, 'SELECT bench_write(''lw_sparse_external'', ''lw_src_sparse'') /* 20 sparse, STORAGE external */', NULL, 0, NULL, NULL),
 ('lookwrite', 3, 'SELECT bench_write(''lw_sparse_extended'', ''lw_src_sparse'') /* 20 sparse, STORAGE extended, pglz (1.1) */', NULL, 0, NULL, NULL),
 ('lookwrite', 4, 'SELECT bench_write(''lw_full_default'', ''lw_src_full'') /* 20 full, default storage */', NULL, 0, NULL, NULL),
 ('lookwrite', 5, 'SELECT bench_write(''lw_full_external'', ''lw_src_full'') /* 20 full, STORAGE external */', NULL, 0, NULL, NULL),
 ('lookwrite', 6, 'SELECT bench_write(''lw_full_extended'', ''lw_src_full'') /* 20 full, STORAGE extended, pglz (1.1) */', NULL, 0, NULL, NULL);
UPDATE bench_q SET query = label WHERE query IS NULL;
-- one key against the floor of two slices (header, one block); three keys
-- (= ANY) against the floor of four (header, three blocks: the fewest TOAST
-- chunk fetches any reader of those bits makes)
CREATE TEMP VIEW lk_floor AS SELECT * FROM (VALUES
 ('lookup100', 1, 'SELECT count(*) FROM lk100b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 650001 FOR 32), 1) < 0 /* slice floor */', 'filters 100'),
 ('lookup1k', 1, 'SELECT count(*) FROM lk1000b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 650001 FOR 32), 1) < 0 /* slice floor */', 'filters 1000'),
 ('lookup100', 3, 'SELECT count(*) FROM lk100b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 217001 FOR 32), 1) + get_byte(substring(b FROM 650001 FOR 32), 1) + get_byte(substring(b FROM 1083001 FOR 32), 1) < 0 /* slice floor, 3 keys */', 'filters 100'),
 ('lookup1k', 3, 'SELECT count(*) FROM lk1000b WHERE length(substring(b FROM 1 FOR 68)) + get_byte(substring(b FROM 217001 FOR 32), 1) + get_byte(substring(b FROM 650001 FOR 32), 1) + get_byte(substring(b FROM 1083001 FOR 32), 1) < 0 /* slice floor, 3 keys */', 'filters 1000')) AS v(grp, nkeys, label, note);
-- every lookup against its group's slice floor
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note, txt)
SELECT CASE q.grp WHEN 'lookup100' THEN 'lookup, 100 filters' ELSE 'lookup, 1,000 filters' END,
	   q.grp, q.label, fl.grp, fl.label, fl.note,
	   CASE WHEN q.label LIKE '%BRIN%' THEN 'the same 100,000,000 keys in one table, BRIN int8_bloom_ops (n_distinct_per_range = -1, 16 pages a range): buffers per 1,000,000 keys' END
  FROM bench_q q JOIN lk_floor fl
	ON fl.grp = q.grp AND fl.nkeys = CASE WHEN q.label LIKE '%ANY (ARRAY%' THEN 3 ELSE 1 END
 WHERE q.label NOT LIKE '%slice floor%'
    OR (q.label LIKE '%floor, 3 keys%' AND fl.nkeys = 1)
 ORDER BY q.grp DESC, q.ord;
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note, txt) VALUES
 ('write 20 sparse filters (2.5 MB)', 'lookwrite', 'SELECT bench_write(''lw_sparse_default'', ''lw_src_sparse'') /* 20 sparse, default storage */', 'lookwrite', 'SELECT bench_write(''lw_sparse_external'', ''lw_src_sparse'') /* 20 sparse, STORAGE external */', NULL, 'default storage vs STORAGE external'),
 ('write 20 sparse filters (2.5 MB)', 'lookwrite', 'SELECT bench_write(''lw_sparse_extended'', ''lw_src_sparse'') /* 20 sparse, STORAGE extended, pglz (1.1) */', 'lookwrite', 'SELECT bench_write(''lw_sparse_external'', ''lw_src_sparse'') /* 20 sparse, STORAGE external */', NULL, '1.1''s default storage (extended, pglz) vs STORAGE external'),
 ('write 20 full filters (1.3 MB)', 'lookwrite', 'SELECT bench_write(''lw_full_default'', ''lw_src_full'') /* 20 full, default storage */', 'lookwrite', 'SELECT bench_write(''lw_full_external'', ''lw_src_full'') /* 20 full, STORAGE external */', NULL, 'default storage vs STORAGE external'),
 ('write 20 full filters (1.3 MB)', 'lookwrite', 'SELECT bench_write(''lw_full_extended'', ''lw_src_full'') /* 20 full, STORAGE extended, pglz (1.1) */', 'lookwrite', 'SELECT bench_write(''lw_full_external'', ''lw_src_full'') /* 20 full, STORAGE external */', NULL, '1.1''s default storage (extended, pglz) vs STORAGE external');
EOF
# three interleaving groups, each alone: the 1,000 filters' TOAST (1.3 GB)
# is larger than the default shared_buffers
bench_run lookup100
bench_run lookup1k
bench_run lookwrite
echo "DROP TABLE lk100, lk1000, lk100b, lk1000b, lkbrin, lw_src_sparse, lw_src_full, lw_sparse_default, lw_sparse_extended, lw_sparse_external, lw_full_default, lw_full_extended, lw_full_external;" | sql
fi

# the filter index: opt-in, only when BENCH_GROUPS names it
if [[ " ${BENCH_GROUPS:-} " == *" findex "* ]]; then
	source "$BENCH_DIR/findex.sh"
	findex_run
fi

if want union; then
say "building 2 x 1000 filters of 1 MiB"
sql <<'EOF'
CREATE TABLE ufilters (i int, f bloom);
ALTER TABLE ufilters ALTER COLUMN f SET STORAGE EXTERNAL;
INSERT INTO ufilters
	SELECT i, bloom_add(bloom_add(bloom_add(bloom_empty(1048576, 7, 0), i), i + 1000), i + 2000)
	  FROM generate_series(1, 1000) AS i;
-- the same filters compressed (STORAGE extended, 1.1's default): pglz
CREATE TABLE ufilters_z (i int, f bloom);
ALTER TABLE ufilters_z ALTER COLUMN f SET STORAGE EXTENDED;
INSERT INTO ufilters_z SELECT * FROM ufilters;
VACUUM ANALYZE ufilters;
VACUUM ANALYZE ufilters_z;
SELECT pg_prewarm('ufilters') + pg_prewarm(reltoastrelid) AS b FROM pg_class WHERE relname = 'ufilters' \gset
SELECT pg_prewarm('ufilters_z') + pg_prewarm(reltoastrelid) AS b FROM pg_class WHERE relname = 'ufilters_z' \gset
INSERT INTO bench_info
SELECT 'union_sizes', format('ufilters: %s (toast %s), ufilters_z: %s (toast %s); stored per filter %s B / %s B',
	pg_size_pretty(pg_total_relation_size('ufilters')), pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'ufilters'))),
	pg_size_pretty(pg_total_relation_size('ufilters_z')), pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'ufilters_z'))),
	(SELECT avg(pg_column_size(f))::bigint FROM ufilters), (SELECT avg(pg_column_size(f))::bigint FROM ufilters_z));
INSERT INTO bench_info SELECT 'union_bytes', sum((bloom_info(f)).bits / 8) FROM ufilters;
EOF
run_group union
echo "DROP TABLE ufilters, ufilters_z;" | sql
fi

if want beyond; then

say "building the filters of the counting, scalable and substring cases"
sql <<'EOF'
CREATE TABLE cfilters AS SELECT counting_bloom_agg(id, @N@, 0.01) AS f FROM t;
CREATE TABLE sfilters AS SELECT scalable_bloom_agg(id) AS f FROM t;
-- substring search: 1,000,000 md5 lines in 100 chunks of 10,000 (an index
-- on the chunk), a filter per chunk of its 3-, 4- and 6-grams; the needle
-- 'a6e23cf9' is in line 424242 (chunk 42) only
CREATE TABLE logs6 AS SELECT id / 10000 AS chunk, s FROM t WHERE id < 1000000;
CREATE INDEX ON logs6 (chunk);
CREATE TABLE grams3 AS SELECT chunk, bloom_ngram_agg(s, 3) AS g FROM logs6 GROUP BY chunk;
CREATE TABLE grams4 AS SELECT chunk, bloom_ngram_agg(s, 4) AS g FROM logs6 GROUP BY chunk;
CREATE TABLE grams6 AS SELECT chunk, bloom_ngram_agg(s, 6) AS g FROM logs6 GROUP BY chunk;
VACUUM ANALYZE cfilters;
VACUUM ANALYZE sfilters;
VACUUM ANALYZE logs6;
VACUUM ANALYZE grams3;
VACUUM ANALYZE grams4;
VACUUM ANALYZE grams6;
-- how much each n prunes: 200 needles of 8 hex characters (md5 of strings
-- that are not in t) against the 100 chunks; the 6-gram "maybe" pairs are
-- checked with LIKE (true matches are not false positives)
INSERT INTO bench_info
SELECT 'substring_pruning', format('200 needles of 8 hex characters x 100 chunks: "maybe" for %s %% of the pairs with 3-grams, %s %% with 4-grams, %s %% with 6-grams (%s pairs, %s of them true matches); 6-gram filters %s in all (3-grams %s); needle a6e23cf9: %s of 100 chunks maybe with 6-grams, %s with 3-grams',
	round(100.0 * avg(m3::int), 1), round(100.0 * avg(m4::int), 1), round(100.0 * avg(m6::int), 2),
	count(*) FILTER (WHERE m6),
	count(*) FILTER (WHERE m6 AND EXISTS (SELECT 1 FROM logs6 l WHERE l.chunk = x.chunk AND l.s LIKE '%' || x.n || '%')),
	(SELECT pg_size_pretty(sum(pg_column_size(g))) FROM grams6), (SELECT pg_size_pretty(sum(pg_column_size(g))) FROM grams3),
	(SELECT count(*) FROM grams6 WHERE bloom_ngram_may_contain(g, 'a6e23cf9')),
	(SELECT count(*) FROM grams3 WHERE bloom_ngram_may_contain(g, 'a6e23cf9')))
  FROM (SELECT nd.n, g3.chunk, bloom_ngram_may_contain(g3.g, nd.n) AS m3,
			   bloom_ngram_may_contain(g4.g, nd.n) AS m4, bloom_ngram_may_contain(g6.g, nd.n) AS m6
		  FROM (SELECT substring(md5('needle ' || i) FROM 1 FOR 8) AS n FROM generate_series(1, 200) i) nd,
			   grams3 g3 JOIN grams4 g4 USING (chunk) JOIN grams6 g6 USING (chunk)) x;
EOF
run_group beyond
fi

# perf stat of every probing case (counters of the backend over one more
# run of the query; see bench_perf_stat in lib_bench.sh)
PERF_ROWS=
if [ "${BENCH_PERF:-1}" = 1 ] && { want probe || want beyond; }; then
	say "perf stat of the probing cases"
	ensure_packages linux-perf
	while IFS=$'\t' read -r grp label; do
		PERF_ROWS+="| $grp | \`$label\` | $(bench_perf_stat "$grp" "$label") |"$'\n'
	done < <(psql_q -At -F $'\t' -c "SELECT grp, label FROM bench_q WHERE label ~ '_contains|@>' AND grp IN ('probe', 'beyond') ORDER BY grp, ord")
fi

SPACE_ROWS=
if want space; then
say "space"
SPACE_SQL=$(cat <<'EOF'
-- bits per item: bloomset's sizing vs the classic optimum and the floor;
-- measured rate: 1M values that are not in t, probed against real filters.
CREATE TEMP TABLE absent AS SELECT md5(g::text) AS s FROM generate_series(@N@ + 1, @N@ + 1000000) AS g;
CREATE TEMP TABLE sp AS
SELECT p, lay, (bloom_params(@N@, p, lay)).*
  FROM (VALUES (0.01), (0.001)) AS v(p), (VALUES (NULL), ('classic')) AS l(lay);
INSERT INTO filters
SELECT 'p' || p || '/' || coalesce(lay, 'auto'),
	   CASE WHEN lay IS NULL THEN (SELECT bloom_agg(s, @N@, p) FROM t)
	   ELSE (SELECT bloom_agg(s, bytes::int, hashes, 0) FROM t) END
  FROM sp;
\pset footer off
SELECT format('| %s %% | %s | %s | %s | %s | %s | %s | %s | %s |',
	   (p * 100)::text, sp.layout, round(sp.bits_per_item::numeric, 2), sp.hashes,
	   round((-ln(p) / ln(2) ^ 2)::numeric, 2),
	   round((ln(1 / p) / ln(2))::numeric, 2),
	   to_char(100 * (sp.bits_per_item / (-ln(p) / ln(2) ^ 2) - 1), 'FM990.0') || ' %',
	   to_char(100 * sp.expected_fpr, 'FM0.0000') || ' %',
	   to_char(100 * (SELECT avg(bloom_contains(f.f, a.s)::int) FROM absent a), 'FM0.0000') || ' %')
  FROM sp JOIN filters f ON f.name = 'p' || p || '/' || coalesce(lay, 'auto')
 ORDER BY p DESC, lay NULLS FIRST;
EOF
)
SPACE_ROWS=$(echo "$SPACE_SQL" | sql -At)
fi

say "report"
REPORT_SQL=$(cat <<'EOF'
SELECT format('| %s | `%s` | %s | `%s` | %s | %s | %s |',
	   r.name, r.label, to_char(m.med, 'FM999999990.0'), r.blabel,
	   to_char(b.med, 'FM999999990.0'), to_char(m.med / b.med, 'FM9990.00'),
	   concat_ws('; ',
		   CASE r.note
			 WHEN 'rows' THEN to_char(m.med * 1e6 / @N@, 'FM9990.0') || ' vs ' || to_char(b.med * 1e6 / @N@, 'FM9990.0') || ' ns/row'
			 WHEN 'speedup' THEN 'speedup ' || to_char(b.med / m.med, 'FM990.00') || 'x, workers launched ' || m.launched
				|| ' (warm-up under EXPLAIN ANALYZE: ' || to_char(m.explain_ms, 'FM999999990') || ' vs ' || to_char(b.explain_ms, 'FM999999990') || ' ms)'
			 WHEN 'gbps' THEN to_char((SELECT v::numeric FROM bench_info WHERE k = 'union_bytes') / (m.med / 1000) / 1e9, 'FM990.00') || ' GB/s of bits (floor ' ||
				to_char((SELECT v::numeric FROM bench_info WHERE k = 'union_bytes') / (b.med / 1000) / 1e9, 'FM990.00') || ' GB/s)'
			 WHEN 'etl' THEN 'new keys: bloom ' || (SELECT v FROM bench_info WHERE k = 'etl_bloom') || ', exact ' || (SELECT v FROM bench_info WHERE k = 'etl_exact')
		   END,
		   CASE WHEN r.note LIKE 'filters %' THEN
			   'shared buffers per filter ' || to_char(m.buffers::numeric / split_part(r.note, ' ', 2)::numeric, 'FM999990.0')
			   || ' vs ' || to_char(b.buffers::numeric / split_part(r.note, ' ', 2)::numeric, 'FM999990.0')
			   || ' (per lookup ' || m.buffers || ' vs ' || b.buffers || ')'
		   END,
		   CASE WHEN r.note LIKE 'buffers %' THEN
			   'shared buffers per ' || split_part(r.note, ' ', 2) || ' ' || coalesce(m.buffers::text, '?') || ' vs ' || coalesce(b.buffers::text, '?')
		   END,
		   CASE split_part(r.goal, ' ', 1)
			 WHEN 'ms' THEN 'goal ≤ ' || split_part(r.goal, ' ', 2) || ' ms: median / goal = '
				|| to_char(m.med / split_part(r.goal, ' ', 2)::numeric, 'FM99990.00')
				|| ' (fastest round ' || to_char(m.lo, 'FM999999990.0') || ' ms)'
			 WHEN 'ratio' THEN 'goal ratio ≤ ' || split_part(r.goal, ' ', 2) || ': ratio / goal = '
				|| to_char(m.med / b.med / split_part(r.goal, ' ', 2)::numeric, 'FM99990.00')
		   END,
		   CASE WHEN r.note LIKE 'probes %' THEN
			   to_char(m.med * 1000 / split_part(r.note, ' ', 2)::numeric, 'FM999990.000') || ' vs '
			   || to_char(b.med * 1000 / split_part(r.note, ' ', 2)::numeric, 'FM999990.000') || ' µs/probe ('
			   || split_part(r.note, ' ', 2) || ' probes)'
		   END,
		   r.txt,
		   'spread ' || to_char(100 * (m.hi - m.lo) / m.med, 'FM990') || ' % / ' || to_char(100 * (b.hi - b.lo) / b.med, 'FM990') || ' %'))
  FROM bench_rows r
  JOIN bench_med m ON m.grp = r.grp AND m.label = r.label
  JOIN bench_med b ON b.grp = r.bgrp AND b.label = r.blabel
 ORDER BY r.ord;
EOF
)
TABLE_ROWS=$(echo "$REPORT_SQL" | sql -At)
PLANS=$(psql_q -At <<'EOF'
SELECT format('- %s `%s`: %s', grp, label, plan) FROM bench_med ORDER BY grp, label;
EOF
)
INFO=$(echo "SELECT format('- %s: %s', k, v) FROM bench_info ORDER BY k;" | psql_q -At)
PGVER=$(echo "SELECT version();" | psql_q -At)
SIMD=$(printf "LOAD 'bloomset';\nSHOW bloomset.simd;\n" | psql_q -At 2>/dev/null || echo "?")
SETTINGS=$(bench_settings)
T_END=$(date +%s)

mkdir -p "$(dirname "$OUT")"
{
	echo "# bloomset benchmark"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- command: \`$CMDLINE\` (BENCH_REPS=$REPS)"
	echo "- nproc: $(nproc); CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); memory: $(free -g | awk '/^Mem:/ {print $2}') GiB"
	echo "- PostgreSQL: $PGVER"
	echo "- bloomset built from: $BUILD_REV; bloomset.simd = $SIMD"
	if [ "$BENCH_CONFIG" = tuned ]; then
		echo "- configuration: tuned (BENCH_TUNED=1: shared_buffers = $SB on huge pages, work_mem = 256MB, maintenance_work_mem = 1GB, jit = off); the committed report runs the default configuration"
	else
		echo "- configuration: default -- PostgreSQL's defaults for memory, huge pages and JIT, as users run it; set only for the method: max_parallel_workers_per_gather = 0 (each case sets its workers per query), autovacuum = off, no checkpoint among the timed rounds (max_wal_size, checkpoint_timeout), faster loading (wal_level = minimal, synchronous_commit = off); BENCH_TUNED=1 runs the tuned configuration"
	fi
	echo "- settings: $SETTINGS; max_parallel_workers_per_gather = 0 unless stated; tables VACUUM ANALYZEd and pg_prewarm'ed (what exceeds shared_buffers is read from the OS page cache)"
	echo "- rows: $N; each query run once to warm up, then $REPS timed rounds, the queries of a case interleaved (A B C A B C ...)"
	echo "- timing: on the server, clock_timestamp() around a PL/pgSQL EXECUTE ... INTO of the query (includes parse and plan, ~0.1 ms; no result goes to the client; no per-row instrumentation), see bench/bench_helpers.sql; median of the rounds; ratio = median / baseline median; spread = (max - min) / median; the warm-up run is an EXPLAIN ANALYZE, which gives the plans and workers below"
	echo "- total run time: $((T_END - T_START)) s; load average (1/5/15 min) at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg); the backend's on-CPU share of each case's timed rounds is under Data (cpu_share; leader only for parallel)"
	echo
	echo "## Cases"
	echo
	echo "| case | query | median ms | baseline | baseline median ms | ratio | notes |"
	echo "|---|---|---|---|---|---|---|"
	echo "$TABLE_ROWS"
	echo
	if [ -n "$PERF_ROWS" ]; then
		echo "## Counters of the probing cases (perf stat -p of the backend, one run)"
		echo
		echo "| case | query | counters |"
		echo "|---|---|---|"
		printf '%s' "$PERF_ROWS"
		echo
	fi
	echo "## Space (capacity $N)"
	echo
	echo "| rate | layout | bits/item | k | classic optimum −ln p/(ln 2)² | floor log2(1/p) | over optimum | model FPR | measured FPR (1M absent) |"
	echo "|---|---|---|---|---|---|---|---|---|"
	echo "$SPACE_ROWS"
	echo
	echo "## Data"
	echo
	echo "$INFO"
	echo
	echo "## Plans (node types, [parent relationship], children in parentheses)"
	echo
	echo "$PLANS"
} | tee "$OUT"
say "done in $((T_END - T_START)) s; report in $OUT"
