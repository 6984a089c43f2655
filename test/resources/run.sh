#!/usr/bin/env bash
# test/resources/run.sh -- "resources under load": memory bounds, spilling,
# refusal of oversized filters before allocation, and interruptibility
# (statement_timeout, pg_cancel_backend) of bloomset's big operations.
#
#   bash test/resources/run.sh
#
# Builds and installs the extension (SKIP_BUILD=1 skips that), starts its own
# throwaway PostgreSQL 15 cluster (scripts/lib.sh pg_start), prints one line
# per check and ends with "SUITE resources: N passed, M failed"; exit status
# is non-zero if any check failed.  Needs no stdin; about 2-4 minutes on a
# 2-core machine.
#
# Options (environment):
#   SKIP_BUILD=1          do not run make / make install
#   RESOURCES_DENSE=0     skip the dense 256 MiB classic-filter checks (~40 s)
#   RESOURCES_DENSE_STRICT=0  report slow uninterruptible dense fold/shrink/
#                         unfold calls as FINDING lines instead of failures
#   RESOURCES_ONLY=cancel only section 5: cancel latency of every long
#                         operation on 256 MiB filters (table for the README)
#   RESOURCES_ONLY=index  only section 5's filter-index build and append
#   RESOURCES_ONLY=compare only section 6: sorting, grouping and joining
#                         stored filters in bounded memory
#   RESOURCES_PG_BIN=DIR  PostgreSQL binaries to use (a private copy where
#                         the extension is installed; with SKIP_BUILD=1)
#
# Memory is measured per backend:
#   VmHWM    peak resident set of the backend over its life, read by the
#            backend itself (pg_read_file('/proc/self/status')) right after
#            the query; every measured query runs in a fresh session, so the
#            peak is the query's.  It includes shared memory the backend
#            touched (shared_buffers pages, ~5 MiB here) and the binary.
#   RssAnon  private anonymous memory (palloc'd memory lives here), sampled
#            every 50 ms from /proc/<pid>/status by a background loop while
#            the query runs; the maximum is reported.
# The measured queries wrap the aggregate in a subquery and return a few
# numbers, not the filter itself: returning a 64 MiB filter to the client
# would add bloom_out's 128 MiB hex text and the protocol buffer's copy of it,
# which measures the text output function, not the aggregate.

set -uo pipefail
exec </dev/null

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib.sh
source "$HERE/../../scripts/lib.sh"
set +e      # lib.sh sets -e; a failed check must not end the suite

RESOURCES_DENSE=${RESOURCES_DENSE:-1}
RESOURCES_DENSE_STRICT=${RESOURCES_DENSE_STRICT:-1}
PG_BIN=${RESOURCES_PG_BIN:-$PG_BIN}	# e.g. a private copy of PostgreSQL (with SKIP_BUILD=1)
PSQL=$PG_BIN/psql
MIB=1024    # kB per MiB (/proc reports kB)

T_START=$(date +%s)
NPASS=0
NFAIL=0
FINDINGS=()

pass() { NPASS=$((NPASS + 1)); echo "PASS  $*"; }
fail() { NFAIL=$((NFAIL + 1)); echo "FAIL  $*"; }
info() { echo "      $*"; }
finding() { FINDINGS+=("$*"); echo "FINDING  $*"; }
# check "awk condition" "description": PASS/FAIL on a numeric condition
check() {
	if awk "BEGIN { exit !($1) }" </dev/null; then pass "$2"; else fail "$2   [violated: $1]"; fi
}
calc() { awk "BEGIN { printf \"%.${2:-1}f\", $1 }" </dev/null; }
mib() { calc "$1 / $MIB" 1; }                    # kB -> MiB
now_ms() { date +%s%3N; }

WORK=$(mktemp -d /tmp/bloomset-resources.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do      # our own background jobs still running
		kill "$p" 2>/dev/null
	done
	rm -rf "$WORK"
	pg_stop
}

echo "== resources suite (CI=${CI:-})"
ensure_base_packages
if [ "${SKIP_BUILD:-0}" != 1 ]; then
	build_install || { echo "FAIL  build/install"; echo "SUITE resources: 0 passed, 1 failed"; exit 1; }
fi
pg_start "shared_buffers = 256MB" "jit = off" "max_parallel_workers_per_gather = 0" \
	"work_mem = '4MB'" "log_min_messages = warning" "log_min_error_statement = panic"
trap cleanup EXIT
psql_q -c "CREATE EXTENSION bloomset" || { echo "FAIL  CREATE EXTENSION"; echo "SUITE resources: 0 passed, 1 failed"; exit 1; }
echo "== cluster on $PGHOST port $PGPORT; $(nproc) CPUs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

# sampler PIDFILE OUTFILE STOPFILE: max RssAnon / VmRSS (kB) of the backend
# whose pid psql writes to PIDFILE, sampled every 50 ms until STOPFILE exists.
sampler() {
	local pidf=$1 out=$2 stop=$3 pid="" maxanon=0 maxrss=0 n=0 k v _ i
	for i in $(seq 1 600); do
		[ -s "$pidf" ] && break
		[ -e "$stop" ] && break
		sleep 0.05
	done
	pid=$(tr -dc '0-9' <"$pidf" 2>/dev/null)
	while [ -n "$pid" ] && [ ! -e "$stop" ] && [ -r "/proc/$pid/status" ]; do
		while read -r k v _; do
			case $k in
				RssAnon:) [ "$v" -gt "$maxanon" ] && maxanon=$v ;;
				VmRSS:) [ "$v" -gt "$maxrss" ] && maxrss=$v ;;
			esac
		done <"/proc/$pid/status" 2>/dev/null
		n=$((n + 1))
		sleep 0.05
	done
	echo "$maxanon $maxrss $n" >"$out"
}

# measured TAG <<SQL: run the SQL (ON_ERROR_STOP) in one fresh session while
# sampling its backend; sets M_OK (psql status), M_HWM / M_ANON / M_RSS (kB),
# M_SAMPLES, M_MS (wall time of the whole session); output in $WORK/TAG.out,
# errors in $WORK/TAG.err.  Lines are unaligned, tuples only, '|'-separated.
measured() {
	local tag=$1 f=$WORK/$1 t0 t1 sp
	{
		echo "\\o $f.pid"
		echo "SELECT pg_backend_pid();"
		echo "\\o"
		cat
		echo "SELECT '@@HWM', (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\\s+(\\d+)'))[1];"
		echo "SELECT '@@SHMEM', (regexp_match(pg_read_file('/proc/self/status'), 'RssShmem:\\s+(\\d+)'))[1];"
	} >"$f.sql"
	rm -f "$f.pid" "$f.stop" "$f.samp"
	sampler "$f.pid" "$f.samp" "$f.stop" &
	sp=$!
	t0=$(now_ms)
	$PSQL -X -q -A -t -F'|' -v ON_ERROR_STOP=1 -f "$f.sql" >"$f.out" 2>"$f.err"
	M_OK=$?
	t1=$(now_ms)
	touch "$f.stop"
	wait "$sp"
	M_MS=$((t1 - t0))
	M_HWM=$(sed -n 's/^@@HWM|//p' "$f.out")
	M_SHMEM=$(sed -n 's/^@@SHMEM|//p' "$f.out")
	read -r M_ANON M_RSS M_SAMPLES <"$f.samp" 2>/dev/null
	: "${M_HWM:=0}" "${M_SHMEM:=0}" "${M_ANON:=0}" "${M_RSS:=0}" "${M_SAMPLES:=0}"
	if [ "$M_OK" != 0 ]; then
		info "[$tag] psql failed: $(head -3 "$f.err" | tr '\n' ' ')"
	fi
}

# field TAG KEY: the value of the output line "KEY|value" of session TAG
field() { sed -n "s/^$2|//p" "$WORK/$1.out" | head -1; }

# timed TAG PRE STMT: run STMT (one statement) after PRE (SETs) in a fresh
# session with \timing; sets T_MS (server round trip of STMT, from \timing),
# T_STATE (its SQLSTATE, 00000 on success), T_OUT (its first output line),
# T_ERR (first error line).
timed() {
	local tag=$1 pre=$2 stmt=$3 f=$WORK/$1
	printf '%s\n\\timing on\n%s\n\\timing off\n\\echo @@STATE :SQLSTATE\n' "$pre" "$stmt" >"$f.sql"
	$PSQL -X -q -A -t -F'|' -f "$f.sql" >"$f.out" 2>"$f.err"
	T_MS=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$f.out" | tail -1)
	T_STATE=$(sed -n 's/^@@STATE //p' "$f.out")
	T_OUT=$(grep -v '^Time: \|^@@STATE' "$f.out" | head -1)
	T_ERR=$(grep -m1 'ERROR' "$f.err")
	: "${T_MS:=-1}" "${T_STATE:=?}"
}

# ---------------------------------------------------------------------------
# 5. cancel latency of every long operation on 256 MiB filters
# ---------------------------------------------------------------------------
# Each operation runs R times in one statement on in-memory 256 MiB inputs:
# uncorrelated scalar subqueries (init plans, evaluated once per statement)
# read the stored filters (bloom_from_bytea of a stored bytea, text || '',
# counting_bloom_add(f, 0): values in memory, not toast pointers, so the
# loop does not detoast again on every row).  Reading them is measured
# first (the same statement with pg_column_size instead of the operation)
# and the timeout set to that time + 1 s, so it expires while the
# operation loop runs; the latency is the time from the start of the
# statement to the 57014 error minus the timeout, and must be <= 1 s.  It
# is the longest stretch without an interrupt check: in bloomset's loops
# (every 256 KiB of filter data, bloom_chunk_end) or in PostgreSQL's own
# non-interruptible work (allocating and page-faulting a 256 MiB result,
# a memcpy).  The Markdown table is printed at the end (README).
# The limit on the latency: 1 s when this section runs alone
# (RESOURCES_ONLY=cancel: the measurement for the README's table, on a quiet
# machine), 5 s inside the test command, where other suites may share the
# CPUs -- a correctness check there (the operation is cancelled at all, not
# after the many seconds of an uninterruptible loop), not a timing
# assertion.  RESOURCES_CANCEL_LIMIT_MS overrides either.
CANCEL_LIMIT_MS=${RESOURCES_CANCEL_LIMIT_MS:-$([ "${RESOURCES_ONLY:-}" = cancel ] && echo 1000 || echo 5000)}
cancel_latency_section() {
	local R=200 ok base to_ms lat
	CANCEL_ROWS=()
	echo "== 5. cancel latency, 256 MiB filters, statement_timeout = reading the inputs + 1 s"
	psql_q <<'SQL' || { fail "5 setup of the 256 MiB tables"; return; }
SET statement_timeout = 0;
DROP TABLE IF EXISTS c256_bytea, c256_text, c256_cnt;
-- three sparse 256 MiB classic filters (2^31 bits, k = 8), one item each,
-- in their binary form (lz4: about 1 MiB each on disk)
CREATE UNLOGGED TABLE c256_bytea (n int, b bytea);
ALTER TABLE c256_bytea ALTER COLUMN b SET COMPRESSION lz4;
INSERT INTO c256_bytea SELECT i, bloom_to_bytea(bloom_empty(268435456, 8, 0) || i) FROM generate_series(1, 3) i;
-- a dense 128 MiB one (every bit set): unfolding it sets 2^31 bits
DO $$
DECLARE b bytea := decode(repeat('ff', 1048576), 'hex');
BEGIN
	FOR i IN 1 .. 7 LOOP b := b || b; END LOOP;		-- 128 MiB of 0xff
	INSERT INTO c256_bytea VALUES (128, overlay(bloom_to_bytea(
		bloom_empty(134217728, 8, 0) || 1) PLACING b FROM 69));
END $$;
CREATE UNLOGGED TABLE c256_text (t text);
ALTER TABLE c256_text ALTER COLUMN t SET COMPRESSION lz4;
INSERT INTO c256_text SELECT bloom_from_bytea(b)::text FROM c256_bytea WHERE n = 1;
-- the largest counting filters: 2^29 counters of 4 bits = 256 MiB
CREATE UNLOGGED TABLE c256_cnt (n int, f counting_bloom);
ALTER TABLE c256_cnt ALTER COLUMN f SET STORAGE EXTENDED, ALTER COLUMN f SET COMPRESSION lz4;	-- compressed, as the test means (1.2 types default to external)
INSERT INTO c256_cnt SELECT i, counting_bloom_add(counting_bloom_empty(56000000, 0.01), i) FROM generate_series(1, 2) i;
SQL
	local F1="(SELECT bloom_from_bytea(b) FROM c256_bytea WHERE n = 1)"
	local F2="(SELECT bloom_from_bytea(b) FROM c256_bytea WHERE n = 2)"
	local D128="(SELECT bloom_from_bytea(b) FROM c256_bytea WHERE n = 128)"
	local T1="(SELECT t || '' FROM c256_text)"
	local B1="(SELECT b || ''::bytea FROM c256_bytea WHERE n = 1)"
	local C1="(SELECT counting_bloom_add(f, 0) FROM c256_cnt WHERE n = 1)"
	local C2="(SELECT counting_bloom_add(f, 0) FROM c256_cnt WHERE n = 2)"
	local G="generate_series(1, $R) g"
	# cancel_op LABEL SELECT-LIST INPUT...: SELECT-LIST over R rows; INPUTs
	# are the init plans it uses, read by the baseline statement
	cancel_op() {
		local label=$1 expr=$2 inputs="" i
		shift 2
		for i in "$@"; do inputs="$inputs + pg_column_size($i)"; done
		timed clbase "SET statement_timeout = 0;" "SELECT sum(0 $inputs) FROM generate_series(1, 1) g;"
		base=$T_MS
		to_ms=$(calc "$base + 1000" 0)
		timed cl "SET statement_timeout = $to_ms;" "SELECT $expr FROM $G;"
		lat=$(calc "$T_MS - $to_ms" 0)
		# a shared machine: reading the inputs may take longer than in the
		# baseline, and the timeout then hits PostgreSQL's detoasting; over
		# the limit once, measure again (baseline too) and keep the better
		if awk "BEGIN { exit !($lat > $CANCEL_LIMIT_MS) }" </dev/null; then
			local lat1=$lat st1=$T_STATE base1=$base
			timed clbase "SET statement_timeout = 0;" "SELECT sum(0 $inputs) FROM generate_series(1, 1) g;"
			base=$T_MS
			to_ms=$(calc "$base + 1000" 0)
			timed cl "SET statement_timeout = $to_ms;" "SELECT $expr FROM $G;"
			lat=$(calc "$T_MS - $to_ms" 0)
			if awk "BEGIN { exit !($lat1 < $lat) }" </dev/null; then
				lat=$lat1 T_STATE=$st1 base=$base1
			fi
		fi
		ok=$(awk "BEGIN { print ($lat <= $CANCEL_LIMIT_MS) }" </dev/null)
		CANCEL_ROWS+=("| $label | $(calc "$lat / 1000" 2) | $(calc "$base / 1000" 2) | $T_STATE |")
		if [ "$T_STATE" = 00000 ]; then
			# all R calls done before the timeout: no long uninterruptible stretch
			pass "5 cancel: $label: all $R calls completed before the $(calc "$to_ms / 1000" 2) s timeout"
		elif [ "$T_STATE" = 57014 ] && [ "$ok" = 1 ]; then
			pass "5 cancel: $label: 57014 $(calc "$lat / 1000" 2) s after the timeout (<= $(calc "$CANCEL_LIMIT_MS / 1000" 0) s; inputs read in $(calc "$base / 1000" 2) s)"
		else
			fail "5 cancel: $label: $T_STATE $(calc "$lat / 1000" 2) s after the timeout (want 57014 within $(calc "$CANCEL_LIMIT_MS / 1000" 0) s; inputs read in $(calc "$base / 1000" 2) s) $T_ERR"
		fi
	}
	cancel_op "bloom ::text output (bloom_out, hex encode)" "count(octet_length($F1::text))" "$F1"
	cancel_op "text input of that text (bloom_in, hex decode)" "count(($T1::bloom) IS NOT NULL)" "$T1"
	cancel_op "bloom_send" "count(octet_length(bloom_send($F1)))" "$F1"
	cancel_op "bloom_to_bytea" "count(octet_length(bloom_to_bytea($F1)))" "$F1"
	cancel_op "bloom_from_bytea" "count(bloom_from_bytea($B1) IS NOT NULL)" "$B1"
	cancel_op "bloom_union (same size)" "count(bloom_union($F1, $F2) IS NOT NULL)" "$F1" "$F2"
	cancel_op "bloom_union_agg ($R x 256 MiB)" "bloom_union_agg($F1) IS NOT NULL" "$F1"
	cancel_op "bloom_intersect (same size)" "count(bloom_intersect($F1, $F2) IS NOT NULL)" "$F1" "$F2"
	cancel_op "bloom_info (popcount)" "count(bloom_info($F1) IS NOT NULL)" "$F1"
	cancel_op "bloom_estimate_card (popcount)" "count(bloom_estimate_card($F1))" "$F1"
	cancel_op "bloom_fold(f, 2)" "count(bloom_fold($F1, 2) IS NOT NULL)" "$F1"
	cancel_op "bloom_union(sparse 256 MiB, dense 128 MiB) (unfold)" "count(bloom_union($F1, $D128) IS NOT NULL)" "$F1" "$D128"
	cancel_op "= (equal filters)" "count(NULLIF($F1 = $F1, false))" "$F1" "$F1"
	cancel_op "counting_bloom_to_bloom" "count(counting_bloom_to_bloom($C1) IS NOT NULL)" "$C1"
	cancel_op "counting_bloom_union" "count(counting_bloom_union($C1, $C2) IS NOT NULL)" "$C1" "$C2"
	psql_q -c "DROP TABLE c256_bytea, c256_text, c256_cnt" >/dev/null 2>&1
	cancel_lookup_check
	cancel_index_check
	cancel_batched_check
}

# cancel_verdict label: record and judge the statement just timed (T_MS,
# T_STATE, T_ERR) under a 1 s statement_timeout: it must stop with 57014
# within CANCEL_LIMIT_MS of the timeout.
cancel_verdict() {
	local lat
	lat=$(calc "$T_MS - 1000" 0)
	CANCEL_ROWS+=("| $1 | $(calc "$lat / 1000" 2) | 0 | $T_STATE |")
	if [ "$T_STATE" = 57014 ] && awk "BEGIN { exit !($lat <= $CANCEL_LIMIT_MS) }" </dev/null; then
		pass "5 cancel: $1: 57014 $(calc "$lat / 1000" 2) s after the timeout"
	else
		fail "5 cancel: $1: $T_STATE $(calc "$lat / 1000" 2) s after the timeout (want 57014 within $(calc "$CANCEL_LIMIT_MS / 1000" 0) s) $T_ERR"
	fi
}

# A lookup over many large stored filters (40 of 8 MiB, stored out of line
# uncompressed, the types' default): the keys of a generate_series probed
# against each, read in slices and then kept (bloomset.sliced_reads = on),
# or read whole on every probe past the cache's budget (off, 1.1): the
# statement must stop with 57014 within the limit of a 1 s timeout (its
# longest stretch without an interrupt check is reading one filter).
cancel_lookup_check() {
	local mode
	psql_q <<'SQL' || { fail "5 setup of the lookup table"; return; }
SET statement_timeout = 0;
DROP TABLE IF EXISTS clk;
CREATE UNLOGGED TABLE clk (n int, f bloom);
INSERT INTO clk SELECT i, bloom_empty(8388608, 7, 0) || i FROM generate_series(1, 40) i;
VACUUM ANALYZE clk;
SQL
	for mode in on off; do
		timed clk "SET statement_timeout = 1000; SET bloomset.sliced_reads = $mode; SET bloomset.probe_cache_size = '64MB';" \
			"SELECT count(*) FROM generate_series(1, 2000000) g, clk WHERE clk.f @> g;"
		cancel_verdict "lookup over 40 stored 8 MiB filters, bloomset.sliced_reads = $mode"
	done
	psql_q -c "DROP TABLE clk" >/dev/null 2>&1
}

# A scan run by the batched probe (the BloomProbe node, bloomset.batched_probe):
# 500,000 rows probed against a 4 MiB filter, rescanned for 100 outer rows
# with the filter changing between them (50 M probes, several seconds): the
# statement must stop with 57014 within the limit of a 1 s timeout (the
# child scan checks for interrupts per row, the node once per batch).
cancel_batched_check() {
	local plan
	psql_q <<'SQL' || { fail "5 setup of the batched-probe table"; return; }
SET statement_timeout = 0;
DROP TABLE IF EXISTS cbp, cbpf;
CREATE UNLOGGED TABLE cbp AS SELECT g AS id, md5(g::text) AS s FROM generate_series(1, 500000) g;
CREATE UNLOGGED TABLE cbpf AS SELECT n, bloom_agg(s, 3000000, 0.01) AS f FROM cbp, generate_series(0, 1) n WHERE id % 2 = n GROUP BY n;
VACUUM ANALYZE cbp, cbpf;
SQL
	local q="SELECT sum(c) FROM generate_series(1, 100) g, LATERAL (SELECT count(*) AS c FROM cbp WHERE bloom_contains((SELECT f FROM cbpf WHERE n = g % 2), s)) x;"
	plan=$($PSQL -X -At -c "SET max_parallel_workers_per_gather = 0;" -c "EXPLAIN (COSTS OFF) $q" 2>&1)
	if [[ "$plan" != *"Custom Scan (BloomProbe)"* ]]; then
		fail "5 cancel: batched probe: the plan does not use the BloomProbe node: $plan"
	else
		timed cbp "SET statement_timeout = 1000; SET max_parallel_workers_per_gather = 0;" "$q"
		cancel_verdict "batched probe (BloomProbe) of 500,000 rows x 100 rescans, 4 MiB filter"
	fi
	psql_q -c "DROP TABLE cbp, cbpf" >/dev/null 2>&1
}

# Building a filter index over many large filters (320 of 1 MiB, stored out
# of line: 320 MiB to transpose, several seconds) and a batch append of as
# many: each statement must stop with 57014 within the limit of a 1 s
# timeout (its longest stretch without an interrupt check is reading one
# filter or transposing 128 stripes), and leave no table behind.
cancel_index_check() {
	local op
	psql_q <<'SQL' || { fail "5 setup of the index table"; return; }
SET statement_timeout = 0;
DROP TABLE IF EXISTS cix, cix_idx;
CREATE UNLOGGED TABLE cix (id bigint, f bloom);
INSERT INTO cix SELECT i, bloom_empty(1048576, 7, 0) || i FROM generate_series(1, 320) i;
DO $$ BEGIN PERFORM bloom_index_create('cix_idx', 'SELECT id, f FROM cix WHERE id <= 64'); END $$;
SQL
	for op in "SELECT bloom_index_create('cix_idx2', 'SELECT id, f FROM cix');" \
			"SELECT bloom_index_add('cix_idx', 'SELECT id + 1000, f FROM cix');"; do
		timed cix "SET statement_timeout = 1000;" "$op"
		cancel_verdict "${op%%(*} over 320 stored 1 MiB filters"
	done
	if [ "$($PSQL -X -At -c "SELECT (to_regclass('cix_idx2') IS NULL) AND (SELECT filters FROM bloom_index_info('cix_idx')) = 64")" = t ]; then
		pass "5 cancel: the cancelled build left no table, the cancelled append no filter"
	else
		fail "5 cancel: a cancelled build or append left something behind"
	fi
	psql_q -c "DROP TABLE cix, cix_idx" >/dev/null 2>&1
}

# the cancel-latency table for the README
print_cancel_table() {
	[ ${#CANCEL_ROWS[@]} -gt 0 ] || return 0
	echo "== cancel latency ($(date -u '+%Y-%m-%d'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg); command: RESOURCES_ONLY=cancel bash test/resources/run.sh)"
	echo "| operation (256 MiB filters) | seconds from the timeout to the error | seconds reading the inputs (before the timeout) | SQLSTATE |"
	echo "|---|---|---|---|"
	printf '%s\n' "${CANCEL_ROWS[@]}"
}

# ---------------------------------------------------------------------------
# 6. statements that compare or hash stored filters, row by row
# ---------------------------------------------------------------------------
# Sorts, DISTINCT, sorted GROUP BY, merge joins, window partitions and hash
# builds call the type's btree and hash support once per comparison, in a
# context PostgreSQL resets only at the end of the sort or build: a support
# function that keeps what it detoasted holds every copy until then (1.4:
# 1.6 GB for the first statement below).  Each statement runs over 3,000
# rows that point at one stored 263 kB filter (one more with other
# parameters, so the headers decide some comparisons), at work_mem = 4MB,
# in a fresh session.  Bound: 200 MB of the backend's own memory, both as
# the largest RssAnon sampled and as VmHWM less the shared buffers it had
# touched by the end (RssShmem: reading the 3,000 values touches most of
# shared_buffers, which is not the backend's).  The answers are checked too.
compare_check() {	# compare_check LABEL EXPECTED SETTINGS SQL
	local label=$1 want=$2 pre=$3 sql=$4 got own
	measured cmp <<SQL
SET work_mem = '4MB';
$pre
SELECT 'r', ($sql);
SQL
	got=$(field cmp r)
	if [ "$M_OK" != 0 ]; then
		fail "6 $label: failed: $(head -2 "$WORK/cmp.err" | tr '\n' ' ')"
		return
	fi
	own=$((M_HWM - M_SHMEM))
	check "$own <= 200 * 1000 * 1000 / 1024 && $M_ANON <= 200 * 1000 * 1000 / 1024 && \"$got\" == \"$want\"" \
		"6 $label: backend peak $(mib "$own") MiB (VmHWM $(mib "$M_HWM") less shared $(mib "$M_SHMEM")), RssAnon max $(mib "$M_ANON") MiB ($M_SAMPLES samples) <= 200 MB; answer $got = $want ($(calc "$M_MS / 1000" 1) s)"
}
compare_section() {
	echo "== 6. comparing and hashing stored filters, 3,000 rows of a 263 kB value, work_mem = 4MB"
	$PSQL -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
CREATE TABLE stored_bf AS SELECT 1 AS id, bloom_agg(x, 200000, 0.01) AS f FROM generate_series(1, 1000) x
	 UNION ALL SELECT 2, bloom_agg(x, 200001, 0.01) FROM generate_series(1, 1000) x;
CREATE TABLE stored_cb AS SELECT counting_bloom_agg(x, 20000, 0.01) AS c FROM generate_series(1, 1000) x;
CREATE TABLE stored_sb AS SELECT scalable_bloom_agg(x) AS s FROM generate_series(1, 20000) x;
-- 3,000 counting (105 kB) and scalable (76 kB) filters, one equal to the
-- first table's: a nested loop compares every pair without returning a
-- row, in a context reset only when one is returned
CREATE TABLE rows_cb AS SELECT CASE WHEN g = 1500 THEN c ELSE c || -g END AS c
  FROM stored_cb, generate_series(1, 3000) g;
CREATE TABLE rows_sb AS SELECT CASE WHEN g = 1500 THEN s ELSE s || -g END AS s
  FROM stored_sb, generate_series(1, 3000) g;
CREATE TABLE rows_bf AS SELECT f FROM stored_bf, generate_series(1, 1500) ORDER BY random();
SQL
	compare_check "ORDER BY f" 3000 "" "SELECT count(*) FROM (SELECT f FROM rows_bf ORDER BY f) s"
	compare_check "count(DISTINCT f)" 2 "" "SELECT count(DISTINCT f) FROM rows_bf"
	compare_check "sorted GROUP BY f" 2 "SET enable_hashagg = off;" "SELECT count(*) FROM (SELECT f FROM rows_bf GROUP BY f) s"
	compare_check "hashed GROUP BY f" 2 "SET enable_sort = off;" "SELECT count(*) FROM (SELECT f FROM rows_bf GROUP BY f) s"
	compare_check "window PARTITION BY f" 3000 "" "SELECT count(*) FILTER (WHERE r = 1) FROM (SELECT rank() OVER (PARTITION BY f ORDER BY f) AS r FROM rows_bf) s"
	compare_check "merge join on f" 3000 "SET enable_hashjoin = off; SET enable_nestloop = off;" \
		"SELECT count(*) FROM rows_bf a JOIN stored_bf b USING (f)"
	compare_check "hash join on f" 3000 "SET enable_mergejoin = off; SET enable_nestloop = off;" \
		"SELECT count(*) FROM rows_bf a JOIN stored_bf b USING (f)"
	compare_check "ORDER BY f::bytea" 3000 "" "SELECT count(*) FROM (SELECT f::bytea FROM rows_bf ORDER BY 1) s"
	# per-row probes, estimates and casts run in per-row contexts: bounded too
	compare_check "bloom_contains per row" 3000 "" "SELECT count(*) FROM rows_bf WHERE bloom_contains(f, 5)"
	compare_check "bloom_card and ::text per row" 3000 "" \
		"SELECT count(*) FILTER (WHERE bloom_card(f) > 900 AND length(f::text) > 500000) FROM rows_bf"
	compare_check "ORDER BY counting_bloom::bytea" 3000 "" \
		"SELECT count(*) FROM (SELECT c::bytea FROM rows_cb ORDER BY 1) s"
	compare_check "counting_bloom = in a nested loop" 1 "" \
		"SELECT count(*) FROM stored_cb a JOIN rows_cb b ON a.c = b.c"
	# some of the 2,999 changes add a key the filter already answered for
	# (a false positive), leaving it equal: the binary forms are the oracle
	compare_check "scalable_bloom = in a nested loop" \
		"$($PSQL -X -A -t -c "SELECT count(*) FROM stored_sb a JOIN rows_sb b ON a.s::bytea = b.s::bytea")" "" \
		"SELECT count(*) FROM stored_sb a JOIN rows_sb b ON a.s = b.s"
	compare_check "counting_bloom <> in a nested loop" 2999 "" \
		"SELECT count(*) FROM stored_cb a JOIN rows_cb b ON a.c <> b.c"
}

if [ "${RESOURCES_ONLY:-}" = compare ]; then
	compare_section
	echo "SUITE resources: $NPASS passed, $NFAIL failed"
	[ "$NFAIL" -eq 0 ]
	exit
fi

if [ "${RESOURCES_ONLY:-}" = index ]; then
	cancel_index_check
	print_cancel_table
	echo "SUITE resources: $NPASS passed, $NFAIL failed"
	[ "$NFAIL" -eq 0 ]
	exit
fi

if [ "${RESOURCES_ONLY:-}" = cancel ]; then
	TO="SET statement_timeout = '1s';"
	cancel_latency_section
	print_cancel_table
	echo "== runtime $(($(date +%s) - T_START)) s"
	echo "SUITE resources: $NPASS passed, $NFAIL failed"
	[ "$NFAIL" -eq 0 ]
	exit
fi

# ---------------------------------------------------------------------------
# 1. bloom_agg over 50 million distinct values
# ---------------------------------------------------------------------------
echo "== 1. bloom_agg over 50,000,000 distinct values"

# Bound for automatic sizing, from the design (src/agg/bloom_agg.c):
#  - exact phase: open-addressing set of <= 2^21 slots x 8 bytes = 16 MiB
#    (2^20 distinct hashes at <= 1/2 load); while it doubles, old + new =
#    8 + 16 = 24 MiB;
#  - list phase: the set's hashes start a list of 2^21 hashes (16 MiB)
#    while the set exists (32 MiB), which doubles up to 2^24 hashes
#    (128 MiB; old + new while it grows: 64 + 128 = 192 MiB);
#  - past 2^24 rows: the 128 MiB filter is filled while the 128 MiB list
#    still exists: 256 MiB, then the list is freed;
#  - final: the 128 MiB state stays alive while the result filter is built
#    (the smallest power-of-two blocked filter for the estimated count; at
#    most 128 MiB, 64 MiB for 50 M): 128 + result bytes (2 MiB spare);
#  - PostgreSQL's own: backend text/data/catalog caches/shared memory
#    touched (~16-20 MiB measured for an idle backend), generate_series'
#    tuplestores (work_mem 4 MiB each), the 100,000-element probe array of
#    this query (~3 MiB) -> allowance 64 MiB.
#  => bound = max(256, 130 + result) MiB + 64 MiB, i.e. 320 MiB for a
#     64 MiB result and 322 MiB in the worst case (128 MiB result).
# The result is probed in the same statement, through the per-row operator
# (the filter reaches it as a Param: in memory, never copied): 2,000,000
# non-members (negative integers) for the false-positive rate, every 25th
# member (2,000,000) for false negatives, and every 500th member (100,000)
# through bloom_contains_each.  (Big probe arrays would not do: array_agg's
# state and bloom_contains_each's element/answer arrays cost ~36 bytes per
# element, ~140 MiB for two 2 M-element arrays, and would dominate the peak.)
measured auto <<'SQL'
SELECT 'r', i.layout, i.bits, i.bytes, i.items, i.estimated_fpr,
       (SELECT count(*) FROM generate_series(-2000000, -1) j WHERE r.f @> j),
       (SELECT count(*) FROM generate_series(1, 50000000, 25) j WHERE NOT r.f @> j),
       (SELECT count(*) FROM unnest(bloom_contains_each(r.f,
            (SELECT array_agg(j) FROM generate_series(7, 50000000, 500) j))) b WHERE NOT b)
FROM (SELECT bloom_agg(x) AS f FROM generate_series(1, 50000000) x) r,
     LATERAL bloom_info(r.f) i;
SQL
IFS='|' read -r _ A_LAYOUT A_BITS A_BYTES A_ITEMS A_EFPR A_FP A_FN A_FN2 <<<"$(grep '^r|' "$WORK/auto.out")"
if [ "$M_OK" = 0 ] && [ -n "${A_BYTES:-}" ]; then
	A_BOUND=$(calc "(130 * 1024 + $A_BYTES / 1024 > 256 * 1024 ? 130 * 1024 + $A_BYTES / 1024 : 256 * 1024) + 64 * 1024" 0)
	A_FPR=$(calc "$A_FP / 2000000 * 100" 4)
	info "auto: $(calc "$M_MS / 1000" 1) s; result $A_LAYOUT, $A_BITS bits = $(calc "$A_BYTES / 1048576" 1) MiB, items $A_ITEMS, bloom_info estimated_fpr $(calc "$A_EFPR * 100" 3) %"
	info "auto: VmHWM $(mib "$M_HWM") MiB, max sampled RssAnon $(mib "$M_ANON") MiB, VmRSS $(mib "$M_RSS") MiB ($M_SAMPLES samples); bound $(mib "$A_BOUND") MiB = max(256 MiB list + filter, 130 MiB state + $(calc "$A_BYTES / 1048576" 1) MiB result) + 64 MiB"
	check "$M_HWM <= $A_BOUND" "1a auto bloom_agg(x) 50M: backend VmHWM $(mib "$M_HWM") MiB <= $(mib "$A_BOUND") MiB (design bound)"
	check "$M_ANON > 0 && $M_ANON <= $A_BOUND" "1a auto bloom_agg(x) 50M: max RssAnon $(mib "$M_ANON") MiB <= $(mib "$A_BOUND") MiB"
	check "$A_FP / 2000000 <= 0.01" "1b auto bloom_agg(x) 50M: false positives $A_FP / 2,000,000 non-members = $A_FPR % <= 1 %"
	check "$A_FN == 0 && $A_FN2 == 0" "1c auto bloom_agg(x) 50M: false negatives $A_FN / 2,000,000 sampled members (operator) and $A_FN2 / 100,000 (bloom_contains_each) = 0"
else
	fail "1a-c auto bloom_agg(x) 50M: query failed: $(head -2 "$WORK/auto.err" | tr '\n' ' ')"
fi

# Fixed size, bloom_agg(x, 50000000, 0.01): a blocked filter of ~63 MiB.
# The first transition builds it (bloom_new_sized, current context) and
# copies it into the aggregate context (bloom_copy_large), then frees the
# first; the final function copies the state.  Peak: 2 x filter (+2 MiB
# alignment padding) + the same 64 MiB PostgreSQL/probe allowance.
measured fixed <<'SQL'
SELECT 'r', i.layout, i.bits, i.bytes, i.items, i.estimated_fpr,
       (SELECT count(*) FROM generate_series(-2000000, -1) j WHERE r.f @> j),
       (SELECT count(*) FROM generate_series(1, 50000000, 25) j WHERE NOT r.f @> j)
FROM (SELECT bloom_agg(x, 50000000, 0.01) AS f FROM generate_series(1, 50000000) x) r,
     LATERAL bloom_info(r.f) i;
SQL
IFS='|' read -r _ F_LAYOUT F_BITS F_BYTES F_ITEMS F_EFPR F_FP F_FN <<<"$(grep '^r|' "$WORK/fixed.out")"
if [ "$M_OK" = 0 ] && [ -n "${F_BYTES:-}" ]; then
	F_BOUND=$(calc "2 * $F_BYTES / 1024 + 2 * 1024 + 64 * 1024" 0)
	info "fixed: $(calc "$M_MS / 1000" 1) s; result $F_LAYOUT, $F_BITS bits = $(calc "$F_BYTES / 1048576" 1) MiB, bloom_info estimated_fpr $(calc "$F_EFPR * 100" 3) %"
	info "fixed: VmHWM $(mib "$M_HWM") MiB, max sampled RssAnon $(mib "$M_ANON") MiB, VmRSS $(mib "$M_RSS") MiB ($M_SAMPLES samples); bound $(mib "$F_BOUND") MiB = 2 x $(calc "$F_BYTES / 1048576" 1) MiB + 2 + 64 MiB"
	check "$M_HWM <= $F_BOUND" "1d bloom_agg(x, 50000000, 0.01): backend VmHWM $(mib "$M_HWM") MiB <= $(mib "$F_BOUND") MiB (2 x filter + overhead)"
	check "$M_ANON > 0 && $M_ANON <= $F_BOUND" "1d bloom_agg(x, 50000000, 0.01): max RssAnon $(mib "$M_ANON") MiB <= $(mib "$F_BOUND") MiB"
	# README: a 1 % target is met within 15 % at capacity
	check "$F_FP / 2000000 <= 0.0115 && $F_FN == 0" "1e bloom_agg(x, 50000000, 0.01): false positives $(calc "$F_FP / 20000" 4) % ($F_FP / 2,000,000) <= 1.15 %, false negatives $F_FN / 2,000,000 = 0"
else
	fail "1d-e bloom_agg(x, 50000000, 0.01): query failed: $(head -2 "$WORK/fixed.err" | tr '\n' ' ')"
fi

# ---------------------------------------------------------------------------
# 2. GROUP BY with 100,000 groups under work_mem = 4MB
# ---------------------------------------------------------------------------
echo "== 2. GROUP BY, 100,000 groups of bloom_agg(x), work_mem = 4MB, enable_sort = off"
# Held in memory, each group's state is ~1.2 KiB (state struct with its
# 16-hash queue, type info, 72-byte header, a 64-slot set): ~120 MiB for
# 100,000 groups, so HashAggregate must spill (or the planner must choose
# GroupAggregate).  Bound: 300 MB of backend RSS.
measured group <<'SQL'
SET work_mem = '4MB';
SET enable_sort = off;
SELECT '@@T0', extract(epoch FROM clock_timestamp());
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
CREATE TEMP TABLE grp AS
SELECT g, bloom_agg(x) AS f
FROM (SELECT i % 100000 AS g, i AS x FROM generate_series(1, 2000000) i) s
GROUP BY g;
SELECT '@@T1', extract(epoch FROM clock_timestamp());
SELECT 'groups', count(*) FROM grp;
SELECT 'fn', count(*) FROM grp JOIN generate_series(1, 2000000) i ON i % 100000 = grp.g
 WHERE NOT grp.f @> i;
SELECT 'fp', count(*) FROM grp JOIN generate_series(1, 2000000) i ON i % 100000 = grp.g
 WHERE grp.f @> -i;
SQL
G_PLAN=$(grep -E 'Aggregate|Batches|Disk Usage|Memory Usage' "$WORK/group.out" | sed 's/^ *//' | tr '\n' ';')
G_SECS=$(calc "$(field group @@T1) - $(field group @@T0)" 1)
G_GROUPS=$(field group groups)
G_FN=$(field group fn)
G_FP=$(field group fp)
if [ "$M_OK" = 0 ] && [ -n "$G_GROUPS" ]; then
	info "group: plan: $G_PLAN"
	info "group: aggregate ${G_SECS} s; VmHWM $(mib "$M_HWM") MiB, max sampled RssAnon $(mib "$M_ANON") MiB ($M_SAMPLES samples)"
	G_BATCHES=$(grep -o 'Batches: [0-9]*' "$WORK/group.out" | head -1 | tr -dc '0-9')
	if grep -q 'GroupAggregate' "$WORK/group.out"; then
		pass "2a GROUP BY 100k groups: planned as GroupAggregate"
	elif [ "${G_BATCHES:-0}" -gt 1 ] || grep -q 'Disk Usage' "$WORK/group.out"; then
		pass "2a GROUP BY 100k groups: HashAggregate spilled (Batches: $G_BATCHES, $(grep -o 'Disk Usage: [0-9]*kB' "$WORK/group.out" | head -1))"
	else
		fail "2a GROUP BY 100k groups: HashAggregate did not spill under work_mem = 4MB ($G_PLAN)"
	fi
	check "$M_HWM < 300 * 1000 * 1000 / 1024" "2b GROUP BY 100k groups: backend VmHWM $(mib "$M_HWM") MiB < 300 MB (RssAnon max $(mib "$M_ANON") MiB)"
	check "$G_GROUPS == 100000 && $G_FN == 0" "2c GROUP BY 100k groups: $G_GROUPS groups, false negatives $G_FN over all 2,000,000 members"
	info "group: false positives $G_FP / 2,000,000 non-members ($(calc "$G_FP / 20000" 3) %; 20 items per minimum-size 256-bit filter)"
else
	fail "2 GROUP BY 100k groups: failed (out of memory?): $(head -3 "$WORK/group.err" | tr '\n' ' ')"
fi
# Where the aggregate's time goes: the final function sizes every group's
# filter with bloom_size_for(), whose bloom_blocked_max_load() bisects the
# Poisson model (100 steps x a few hundred pow() calls) on every call.
timed sizing "" "SELECT count(*) FROM generate_series(1, 2000) n, bloom_params(n, 0.01);"
S_US=$(calc "$T_MS * 1000 / 2000" 0)
timed groupx "SET work_mem = '4MB'; SET enable_sort = off;" \
	"SELECT count(*) FROM (SELECT g, bloom_agg(x, 256, 7, 0) AS f FROM (SELECT i % 100000 AS g, i AS x FROM generate_series(1, 2000000) i) s GROUP BY g) t WHERE f IS NOT NULL;"
info "group: same GROUP BY with explicit sizing bloom_agg(x, 256, 7, 0): $(calc "$T_MS / 1000" 1) s; one bloom_params(n, 0.01) call: $S_US us"
if awk "BEGIN { exit !($G_SECS > 10 && $S_US > 50) }" </dev/null; then
	finding "GROUP BY of 100,000 bloom_agg(x) groups takes ${G_SECS} s (explicit-size aggregate: $(calc "$T_MS / 1000" 1) s): bloom_agg_final -> bloom_auto_result -> bloom_auto_bits -> bloom_size_for -> bloom_blocked_max_load re-solves the sizing model on every call (~$S_US us per call, measured via bloom_params); bloom_agg(x, capacity, fpr) pays the same once per group in its first transition (bloom_new_sized)"
fi

# ---------------------------------------------------------------------------
# 3. oversized requests fail before allocating
# ---------------------------------------------------------------------------
echo "== 3. requests beyond the 256 MiB limit"
measured limits <<'SQL'
SELECT 'warm', bloom_contains(bloom_empty(1000, 0.01) || 1, 1), (SELECT bloom_agg(x, 1000, 0.01) IS NOT NULL FROM generate_series(1, 10) x);
SELECT 'hwm0', (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+)'))[1];
\set ON_ERROR_STOP 0
\timing on
SELECT bloom_empty(1073741824, 3, 0) IS NOT NULL;
\echo e1| :SQLSTATE
SELECT bloom_empty(2000000000, 0.0001) IS NOT NULL;
\echo e2| :SQLSTATE
SELECT bloom_agg(x, 4000000000, 0.001) IS NOT NULL FROM generate_series(1, 10) x;
\echo e3| :SQLSTATE
\timing off
\set ON_ERROR_STOP 1
SQL
L_HWM0=$(field limits hwm0)
L_DELTA=$((M_HWM - ${L_HWM0:-0}))
mapfile -t L_TIMES < <(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$WORK/limits.out")
mapfile -t L_ERRS < <(grep 'ERROR' "$WORK/limits.err")
i=0
for spec in "e1|bloom_empty(1073741824, 3, 0)|22023" "e2|bloom_empty(2000000000, 0.0001)|54000" \
	"e3|bloom_agg(x, 4000000000, 0.001)|54000"; do
	IFS='|' read -r key call want <<<"$spec"
	got=$(field limits "$key" | tr -d ' ')
	info "$call -> SQLSTATE $got in ${L_TIMES[$i]:-?} ms: ${L_ERRS[$i]:-no error}"
	check "\"$got\" == \"$want\" && ${L_TIMES[$i]:-9999} < 100" "3 $call fails with SQLSTATE $want (got $got) in ${L_TIMES[$i]:-?} ms"
	i=$((i + 1))
done
check "${L_HWM0:-0} > 0 && $L_DELTA < 8 * 1024" "3 oversized requests: backend VmHWM $(mib "${L_HWM0:-0}") -> $(mib "$M_HWM") MiB (+$(mib "$L_DELTA") MiB < 8 MiB: nothing allocated)"

# ---------------------------------------------------------------------------
# 4. statement_timeout and pg_cancel_backend
# ---------------------------------------------------------------------------
echo "== 4. interrupts: statement_timeout = 1s, pg_cancel_backend"
TO="SET statement_timeout = '1s';"

# timeout_check LABEL SQL: must end with SQLSTATE 57014 in < 2.5 s
timeout_check() {
	timed to "$TO" "$2"
	check "\"$T_STATE\" == \"57014\" && $T_MS < 2500" "4 statement_timeout 1s: $1 interrupted after $(calc "$T_MS / 1000" 2) s < 2.5 s (SQLSTATE $T_STATE)"
}
# a streaming source (ProjectSet): every row reaches the transition function
# while the timer runs.  FROM generate_series(...) first materializes all
# 200 M rows in a tuplestore, so the timeout would hit generate_series, not
# bloom_agg; it is checked too, for completeness.
timeout_check "bloom_agg(x) over 200 M streamed rows" \
	"SELECT bloom_agg(g) IS NOT NULL FROM (SELECT generate_series(1, 200000000) g) s;"
timeout_check "bloom_agg(x, 200000000, 0.01) over 200 M streamed rows" \
	"SELECT bloom_agg(g, 200000000, 0.01) IS NOT NULL FROM (SELECT generate_series(1, 200000000) g) s;"
timeout_check "bloom_agg(x) FROM generate_series(1, 200000000)" \
	"SELECT bloom_agg(x) IS NOT NULL FROM generate_series(1, 200000000) x;"

# 300 filters of 16 MiB (classic, one item each; lz4-compressed to ~64 KiB
# on disk), unioned 20 times over (6,000 detoast + OR of 16 MiB each).
psql_q <<'SQL'
CREATE UNLOGGED TABLE big16 (i int, f bloom);
ALTER TABLE big16 ALTER COLUMN f SET STORAGE EXTENDED, ALTER COLUMN f SET COMPRESSION lz4;	-- compressed, as the test means (1.2 types default to external)
INSERT INTO big16 SELECT i, bloom_empty(16777216, 7, 0) || i FROM generate_series(1, 300) i;
SQL
timed union300 "" "SELECT bloom_estimate_card(bloom_union_agg(f)) FROM big16;"
info "bloom_union_agg over the 300 filters of 16 MiB, no timeout: $(calc "$T_MS / 1000" 2) s (estimated card $T_OUT)"
# memory of the union aggregate: one 16 MiB state; each input is detoasted
# into per-row memory, which must be released row by row (a leak would be
# 300 x 16 MiB = 4.7 GiB).  Bound: state + final copy + one input + 64 MiB.
measured union_mem <<'SQL'
SELECT 'card', bloom_estimate_card(bloom_union_agg(f)) FROM big16;
SQL
check "$M_OK == 0 && $M_HWM <= (3 * 16 + 64) * 1024" "4 bloom_union_agg over 300 x 16 MiB filters: backend VmHWM $(mib "$M_HWM") MiB <= 112 MiB (RssAnon max $(mib "$M_ANON") MiB; $(calc "$M_MS / 1000" 2) s)"
timeout_check "bloom_union_agg over 300 x 16 MiB filters x 20" \
	"SELECT bloom_union_agg(f) IS NOT NULL FROM big16, generate_series(1, 20) r;"

# cancel_check LABEL SQL: run SQL in the background, pg_cancel_backend it
# from a second session after 1 s of execution; must end within 1 s.
cancel_check() {
	local label=$1 sql=$2 app bg pid="" t0 t1 i lat
	app="rs_cancel_$RANDOM"
	PGAPPNAME=$app $PSQL -X -q -c "$sql" >"$WORK/cancel.out" 2>"$WORK/cancel.err" &
	bg=$!
	for i in $(seq 1 100); do
		pid=$($PSQL -X -A -t -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'")
		[ -n "$pid" ] && break
		sleep 0.05
	done
	if [ -z "$pid" ]; then
		fail "4 pg_cancel_backend: $label: the statement never showed as active: $(head -1 "$WORK/cancel.err")"
		kill "$bg" 2>/dev/null; wait "$bg"
		return
	fi
	sleep 1
	t0=$(now_ms)
	$PSQL -X -A -t -c "SELECT pg_cancel_backend($pid)" >/dev/null
	wait "$bg"
	t1=$(now_ms)
	lat=$((t1 - t0))
	if grep -q 'canceling statement due to user request' "$WORK/cancel.err" && [ "$lat" -lt 1000 ]; then
		pass "4 pg_cancel_backend: $label cancelled $lat ms after the cancel request (< 1 s)"
	else
		fail "4 pg_cancel_backend: $label: $lat ms after the cancel request; client saw: $(head -1 "$WORK/cancel.err")"
	fi
}
cancel_check "bloom_agg(x) over 200 M streamed rows" \
	"SELECT bloom_agg(g) IS NOT NULL FROM (SELECT generate_series(1, 200000000) g) s;"
cancel_check "bloom_agg(x, 200000000, 0.01) over 200 M streamed rows" \
	"SELECT bloom_agg(g, 200000000, 0.01) IS NOT NULL FROM (SELECT generate_series(1, 200000000) g) s;"
cancel_check "bloom_union_agg over 300 x 16 MiB filters x 20" \
	"SELECT bloom_union_agg(f) IS NOT NULL FROM big16, generate_series(1, 20) r;"

# bloomskip_check over 1 M lines of the n-gram class (about 70 keys a row):
# a single call of several seconds, which must answer the timeout and the
# cancel from inside its walk over the table (it checks for interrupts at
# every range, the heap scan at every row, the segment reads at every page)
psql_q <<'SQL'
CREATE UNLOGGED TABLE skc (s text) WITH (autovacuum_enabled = off);
INSERT INTO skc SELECT md5(g::text) || ' ' || md5((g * 7)::text) FROM generate_series(1, 1000000) g;
CREATE INDEX skc_ng ON skc USING bloomskip (s text_ngram_bloomskip_ops);
SQL
timed skipcheck "SET client_min_messages = warning;" "SELECT bloomskip_check('skc_ng');"
info "bloomskip_check over 1 M n-gram rows, no timeout: $(calc "$T_MS / 1000" 2) s (missing $T_OUT)"
check "\"$T_OUT\" == \"0\"" "4 bloomskip_check over 1 M n-gram rows finds every key (missing $T_OUT)"
timeout_check "bloomskip_check over 1 M n-gram rows" "SELECT bloomskip_check('skc_ng');"
cancel_check "bloomskip_check over 1 M n-gram rows" "SELECT bloomskip_check('skc_ng');"
psql_q -c "DROP TABLE skc;"

# The largest filters: 256 MiB classic (2^31 bits), one item, as in
#   bloom_empty(268435456, 7, 0) || 1
# First as literal expressions (the statement builds its inputs: palloc0 +
# copy of 256 MiB each), then from a table (lz4, detoasted per statement) so
# the function's own time shows against a baseline.  A call is "cancellable"
# if a statement that outlives the 1 s timeout ends soon after it; a single
# C call running longer without CHECK_FOR_INTERRUPTS shows as a statement
# that ends long after 1 s (limit: 3 s of the call's own time).  Note that
# PostgreSQL does not check for interrupts between the nested function calls
# of one expression either, so a literal expression's input building
# (bloom_empty, ||) runs to completion with the call: that time is measured
# separately and allowed for.
echo "== 4. the largest filters (256 MiB classic), statement_timeout = 1s"
big_call() {   # big_call LABEL SQL [strict [INPUT_MS]]
	# INPUT_MS: time the statement spends building its inputs (literal
	# forms), allowed on top of the 3 s limit; the rest is the call itself
	local label=$1 sql=$2 strict=${3:-1} input_ms=${4:-0} verdict late own msg first=""
	timed big "$TO" "$sql"
	# a shared machine: over the limit once, try again and keep the faster run
	if awk "BEGIN { exit !($T_MS - $input_ms > 3000) }" </dev/null; then
		local ms1=$T_MS st1=$T_STATE err1=$T_ERR
		timed big "$TO" "$sql"
		first=" (best of 2; first run $(calc "$ms1 / 1000" 2) s)"
		if awk "BEGIN { exit !($ms1 < $T_MS) }" </dev/null; then
			T_MS=$ms1 T_STATE=$st1 T_ERR=$err1
		fi
	fi
	if [ "$T_STATE" = 57014 ]; then verdict="cancelled by the timeout"
	elif [ "$T_STATE" = 00000 ]; then verdict="completed"
	else verdict="error $T_STATE: $T_ERR"; fi
	own=$(calc "$T_MS - $input_ms" 0)
	msg="4 $label: $(calc "$T_MS / 1000" 2) s$first, $verdict"
	[ "$input_ms" != 0 ] && msg="$msg (~$(calc "$own / 1000" 2) s beyond building the inputs)"
	late=$(calc "$T_MS / 1000 - 1" 1)
	if awk "BEGIN { exit !($T_MS > 1500) }" </dev/null; then
		if [ "$input_ms" != 0 ]; then
			msg="$msg -- ended $late s after the 1 s timeout (no interrupt check between the expression's calls)"
		else
			msg="$msg -- ended $late s after the 1 s timeout: no interrupt check while the call ran"
		fi
	fi
	if [ "$T_STATE" != 00000 ] && [ "$T_STATE" != 57014 ]; then
		fail "$msg"
	elif awk "BEGIN { exit !($own <= 3000) }" </dev/null; then
		pass "$msg (<= 3 s)"
		if awk "BEGIN { exit !($own > 1500) }" </dev/null; then
			FINDINGS+=("$label: $(calc "$T_MS / 1000" 2) s with statement_timeout = 1s ($verdict; within the 3 s limit)")
		fi
	elif [ "$strict" = 1 ]; then
		fail "$msg (> 3 s)"
		FINDINGS+=("$label: $(calc "$T_MS / 1000" 2) s with statement_timeout = 1s ($verdict)")
	else
		finding "$msg (> 3 s; not counted, RESOURCES_DENSE_STRICT=0)"
	fi
}

timed construct "" "SELECT bloom_estimate_card(bloom_empty(268435456, 7, 0) || 1);"
C_MS=$T_MS
info "baseline: building bloom_empty(268435456, 7, 0) || 1 and counting its bits: $(calc "$T_MS / 1000" 2) s"
big_call "literal bloom_fold(bloom_empty(268435456, 7, 0) || 1, 2)" \
	"SELECT bloom_estimate_card(bloom_fold(bloom_empty(268435456, 7, 0) || 1, 2));" 1 "$C_MS"
big_call "literal bloom_shrink(bloom_empty(268435456, 7, 0) || 1)" \
	"SELECT bloom_estimate_card(bloom_shrink(bloom_empty(268435456, 7, 0) || 1));" 1 "$C_MS"
big_call "literal bloom_union(bloom_empty(268435456, 7, 0) || 1, bloom_empty(268435456, 7, 0) || 2)" \
	"SELECT bloom_estimate_card(bloom_union(bloom_empty(268435456, 7, 0) || 1, bloom_empty(268435456, 7, 0) || 2));" 1 "$(calc "2 * $C_MS" 0)"

psql_q <<'SQL'
CREATE UNLOGGED TABLE s256 (n int, f bloom);
ALTER TABLE s256 ALTER COLUMN f SET STORAGE EXTENDED, ALTER COLUMN f SET COMPRESSION lz4;	-- compressed, as the test means (1.2 types default to external)
INSERT INTO s256 VALUES (1, bloom_empty(268435456, 7, 0) || 1), (2, bloom_empty(268435456, 7, 0) || 2),
                        (3, bloom_empty(134217728, 7, 0) || 3);
SQL
timed base "" "SELECT bloom_estimate_card(f) FROM s256 WHERE n = 1;"
info "baseline: detoasting the stored 256 MiB filter and counting its bits: $(calc "$T_MS / 1000" 2) s"
big_call "stored 256 MiB: bloom_fold(f, 2)" "SELECT bloom_estimate_card(bloom_fold(f, 2)) FROM s256 WHERE n = 1;"
big_call "stored 256 MiB: bloom_fold(f, 1024)" "SELECT bloom_estimate_card(bloom_fold(f, 1024)) FROM s256 WHERE n = 1;"
big_call "stored 256 MiB: bloom_shrink(f)" "SELECT bloom_estimate_card(bloom_shrink(f)) FROM s256 WHERE n = 1;"
big_call "stored 256 MiB: bloom_union(f1, f2) (same size)" \
	"SELECT bloom_estimate_card(bloom_union(a.f, b.f)) FROM s256 a, s256 b WHERE a.n = 1 AND b.n = 2;"
big_call "stored 256 MiB: bloom_union(f256, f128) (unfold)" \
	"SELECT bloom_estimate_card(bloom_union(a.f, b.f)) FROM s256 a, s256 b WHERE a.n = 1 AND b.n = 3;"

# Worst case for the classic layout: every bit set (2^31 set bits).  Folding
# and unfolding a classic filter visit its set bits one by one
# (bloom_resize_into), so the cost grows with the fill, not the size.
if [ "$RESOURCES_DENSE" = 1 ]; then
	echo "== 4. dense 256 MiB / 128 MiB classic filters (all bits set), statement_timeout = 1s"
	psql_q <<'SQL'
CREATE UNLOGGED TABLE dense (n int, f bloom);
ALTER TABLE dense ALTER COLUMN f SET STORAGE EXTENDED, ALTER COLUMN f SET COMPRESSION lz4;	-- compressed, as the test means (1.2 types default to external)
DO $$
DECLARE b bytea := decode(repeat('ff', 1048576), 'hex');
BEGIN
	FOR i IN 1 .. 7 LOOP b := b || b; END LOOP;             -- 128 MiB of 0xff
	INSERT INTO dense VALUES (128, bloom_from_bytea(overlay(bloom_to_bytea(
		bloom_empty(134217728, 7, 0) || 1) PLACING b FROM 69)));
	b := b || b;                                            -- 256 MiB
	INSERT INTO dense VALUES (256, bloom_from_bytea(overlay(bloom_to_bytea(
		bloom_empty(268435456, 7, 0) || 1) PLACING b FROM 69)));
END $$;
SQL
	timed base "" "SELECT bloom_estimate_card(f) FROM dense WHERE n = 256;"
	info "baseline: detoasting the dense 256 MiB filter and counting its bits: $(calc "$T_MS / 1000" 2) s"
	big_call "dense 256 MiB: bloom_fold(f, 2)" "SELECT bloom_estimate_card(bloom_fold(f, 2)) FROM dense WHERE n = 256;" "$RESOURCES_DENSE_STRICT"
	big_call "dense 256 MiB: bloom_shrink(f)" "SELECT bloom_estimate_card(bloom_shrink(f)) FROM dense WHERE n = 256;" "$RESOURCES_DENSE_STRICT"
	big_call "dense 256 MiB: bloom_union(sparse f256, dense f128) (unfold)" \
		"SELECT bloom_estimate_card(bloom_union(a.f, b.f)) FROM s256 a, dense b WHERE a.n = 1 AND b.n = 128;" "$RESOURCES_DENSE_STRICT"
	big_call "dense 256 MiB: bloom_union(dense f256, sparse f256) (same size)" \
		"SELECT bloom_estimate_card(bloom_union(a.f, b.f)) FROM dense a, s256 b WHERE a.n = 256 AND b.n = 2;"
	if printf '%s\n' "${FINDINGS[@]}" | grep -Eq '^(4 )?dense.*(fold|shrink|unfold)'; then
		finding "slow dense classic resize: bloom_resize_into (src/core/bloom_algebra.c, classic branch; used by bloom_fold, bloom_shrink via bloom_folded, bloom_combine's unfold, bloom_maybe_subset) visits the set bits one at a time, with a 64-bit division i / (nsrc / ndst) per bit when folding and a loop of factor bytes per bit when unfolding, and never checks for interrupts: its cost grows with the number of set bits (2^31 here), so statement_timeout / pg_cancel_backend wait for it; bloom_shrink checks for interrupts only between trial folds"
	fi
fi

compare_section
cancel_latency_section

# ---------------------------------------------------------------------------
print_cancel_table
echo "== findings"
if [ ${#FINDINGS[@]} -eq 0 ]; then echo "      (none)"; fi
for f in "${FINDINGS[@]}"; do echo "  - $f"; done
echo "== runtime $(($(date +%s) - T_START)) s"
echo "SUITE resources: $NPASS passed, $NFAIL failed"
[ "$NFAIL" -eq 0 ]
