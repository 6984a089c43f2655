#!/usr/bin/env bash
# test/sqlfuzz/joinfuzz.sh -- the join fuzzer of the runtime join filters
# (joinfuzz.py), zero tolerance.
#
#   bash test/sqlfuzz/joinfuzz.sh [quick]     fixed seed, a few thousand queries, at most ~3 minutes
#                                             (part of scripts/test.sh)
#   bash test/sqlfuzz/joinfuzz.sh long [N]    N queries (default 100000), two sessions
#
# A throwaway cluster with bloomset in shared_preload_libraries (the way
# runtime filters are enabled); every query runs with
# bloomset.runtime_filter off and on and the answers are compared as
# multisets (see joinfuzz.py).  A difference, a crash, an XX error, or no
# query with a runtime filter in its plan fails the run.  The last line is
# "SUITE joinfuzz: P passed, F failed".
#
# Environment:
#   PG_BIN            PostgreSQL binaries (default: lib.sh's pg_bin_dir, i.e.
#                     $BLOOMSET_PG15_ROOT's copy when set); bloomset must be
#                     installed there (scripts/test.sh does)
#   JOINFUZZ_SEED     base seed (default 1)
#   JOINFUZZ_QUERIES  override the mode's number of queries
#   JOINFUZZ_SECONDS  stop after this long (quick: 170)
#   JOINFUZZ_JOBS     sessions in parallel (quick 1, long 2; seeds SEED, SEED+1000, ...)
#   JOINFUZZ_FACT_ROWS  rows of the fact tables (default 15000; fewer: more queries a second)
#   JOINFUZZ_TIMEOUT  statement_timeout of a query, in seconds (default 5); a query
#                     that times out in one mode is not run in the others
#   JOINFUZZ_MAX_ROWS  queries estimated to return more rows are drawn again (default 100000)
#   JOINFUZZ_VERBOSE=1  print the slowest queries
#   JOINFUZZ_KEEP=DIR keep the reports and the server log in DIR
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ENV_PG_BIN=${PG_BIN:-}
source "$HERE/../../scripts/lib.sh"
PG_BIN=${ENV_PG_BIN:-$(pg_bin_dir "$PG_MAJOR")}
set +e
set -uo pipefail

MODE=${1:-quick}
SEED=${JOINFUZZ_SEED:-1}
case "$MODE" in
	quick) QUERIES=${JOINFUZZ_QUERIES:-2500}; SECONDS_CAP=${JOINFUZZ_SECONDS:-170}; DEFAULT_JOBS=1 ;;
	long) QUERIES=${2:-${JOINFUZZ_QUERIES:-100000}}; SECONDS_CAP=${JOINFUZZ_SECONDS:-0}; DEFAULT_JOBS=2 ;;
	*) echo "usage: $0 [quick | long [N]]" >&2; exit 2 ;;
esac
JOBS=${JOINFUZZ_JOBS:-$DEFAULT_JOBS}

say() { echo "[$(date +%H:%M:%S)] $*"; }
WORK=$(mktemp -d /tmp/bloomset-joinfuzz.XXXXXX)
chmod 755 "$WORK"
PASSED=0
FAILED=0
T_START=$(date +%s)

cleanup() {
	[ -n "${PGTMP:-}" ] && cp "$PGTMP/server.log" "$WORK/server.log" 2>/dev/null
	pg_stop
	if [ -n "${JOINFUZZ_KEEP:-}" ]; then mkdir -p "$JOINFUZZ_KEEP" && cp -a "$WORK"/. "$JOINFUZZ_KEEP"/; fi
	rm -rf "$WORK"
}
PG_ON_EXIT=cleanup
trap cleanup EXIT

finish() {
	say "total wall time $(( $(date +%s) - T_START )) s"
	echo "SUITE joinfuzz: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
	exit $?
}

ensure_packages python3-psycopg2
if [ ! -f "$("$PG_BIN/pg_config" --sharedir)/extension/bloomset.control" ]; then
	echo "bloomset is not installed for $PG_BIN (run scripts/test.sh or make install)"
	FAILED=1; finish
fi

pg_start "shared_preload_libraries = 'bloomset'" "log_line_prefix = '%m [%p] %e %a: '" \
	"max_worker_processes = 8" "max_parallel_workers = 4" "restart_after_crash = on" \
	"log_min_messages = warning" "log_checkpoints = off" "autovacuum = off"
say "join fuzzer ($MODE): $QUERIES queries in $JOBS session(s), seed $SEED (PostgreSQL $(psql_q -At -c 'SHOW server_version'))"
pids=()
for j in $(seq 1 "$JOBS"); do
	psql_q -d postgres -c "CREATE DATABASE joinfuzz$j" >/dev/null
	n=$(( QUERIES / JOBS + (j <= QUERIES % JOBS ? 1 : 0) ))
	/usr/bin/python3 "$HERE/joinfuzz.py" --dsn "host=$PGHOST port=$PGPORT dbname=joinfuzz$j user=postgres" \
		--seed $(( SEED + 1000 * (j - 1) )) --queries "$n" --seconds "$SECONDS_CAP" \
		--fact-rows "${JOINFUZZ_FACT_ROWS:-15000}" --timeout "${JOINFUZZ_TIMEOUT:-5}" \
		--max-rows "${JOINFUZZ_MAX_ROWS:-100000}" \
		--log "$PGTMP/server.log" ${JOINFUZZ_VERBOSE:+--verbose} --progress $(( n >= 10000 ? 5000 : 1000 )) \
		> "$WORK/report_$j.txt" 2>&1 &
	pids+=($!)
done
[ "$JOBS" -eq 1 ] && tail -f "$WORK/report_1.txt" --pid="${pids[0]}" 2>/dev/null
for p in "${pids[@]}"; do wait "$p"; done
for j in $(seq 1 "$JOBS"); do
	[ "$JOBS" -gt 1 ] && { echo "-- session $j"; cat "$WORK/report_$j.txt"; }
	line=$(grep -E '^RESULT ' "$WORK/report_$j.txt" | tail -n 1)
	if [ -z "$line" ]; then
		echo "session $j: no RESULT line (the fuzzer did not finish)"; tail -n 20 "$WORK/report_$j.txt"
		FAILED=$((FAILED + 1)); continue
	fi
	PASSED=$(( PASSED + $(echo "$line" | sed -E 's/.*passed=([0-9]+).*/\1/') ))
	FAILED=$(( FAILED + $(echo "$line" | sed -E 's/.*failed=([0-9]+).*/\1/') ))
done
if grep -qE 'terminated by signal|PANIC:' "$PGTMP/server.log"; then
	echo "crashes in the server log:"; grep -E 'terminated by signal|PANIC:' "$PGTMP/server.log" | head
	FAILED=$((FAILED + 1))
fi
finish
