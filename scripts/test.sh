#!/usr/bin/env bash
# scripts/test.sh -- run every test suite of bloomset on throwaway clusters,
# on PostgreSQL 15, 17 and 18.
#
# Installs what it needs from Debian's archive.  PostgreSQL 15 is Debian's
# binary package; 17 and 18 are built from Debian's source packages by
# scripts/pgbuild.sh into /var/cache/bloomset-pg (once; reused by later runs,
# rebuilt when the archive has a new version).  Those builds start in the
# background first thing and run while the 15 suites do.
#
# What runs where is listed below (per_version_suites, once_suites,
# version_stage); the suites themselves are in scripts/suites.sh.  Per
# version (suffix -15, -17, -18): the pg_regress suite twice (run-time-
# selected kernels, then BLOOMSET_PORTABLE=1), the TAP and isolation tests
# through PGXS, the extension upgrade test.  Once, on 15: the core's unit
# tests, the README and import-graph checks, the stored-format test (1.0 and
# 1.1 as released), the resource suite, a short libFuzzer run, the Parquet
# interop test against DuckDB, the SQL fuzzer's quick mode.  Across
# versions (cross-15-NN): filters written on 15 carried to 17 and 18 by
# pg_dump/pg_restore and pg_upgrade (test/t/007, 008).  On 17 and 18, last:
# a Citus cluster (citus-NN: test/citus/, Citus built from ../shared/vendor;
# skipped, saying so, where that source is absent).
#
# Prints one line per suite and a closing "N passed, N failed" with the
# elapsed time; exits non-zero if anything failed.
#   BLOOMSET_PG_VERSIONS="15 17"   restrict the versions (15 is always run)
#
# Slow, separate suites (not run here): test/fuzz/run.sh (10 M executions),
# test/memcheck/run.sh (valgrind + ASan), bench/run.sh.
source "$(dirname "$0")/lib.sh"
set +e
cd "$REPO_ROOT"
T0=$(date +%s)

OTHER_VERSIONS=()
for v in ${BLOOMSET_PG_VERSIONS:-15 17 18}; do
	[ "$v" = 15 ] || OTHER_VERSIONS+=("$v")
done

LOGDIR=$(mktemp -d /tmp/bloomset-test.XXXXXX)
SUMMARY=$LOGDIR/summary		# one per version stage when they run in parallel
# every server log of every suite is searched for crashes (scripts/lib.sh
# server_log_crashes); a crash fails the run even where its test passed
export BLOOMSET_CRASH_LOG=$LOGDIR/crashes
: > "$BLOOMSET_CRASH_LOG"

source "$REPO_ROOT/scripts/suites.sh"

# ---- what runs where ----------------------------------------------------------
# The suites keep about one core busy each (a pg_regress session, one TAP
# cluster at a time), so on 15 they run in two lanes side by side, balanced
# by their run time, then the resource suite alone, and 17 and 18 side by
# side after them.  Each suite has its own cluster, port (scripts/lib.sh
# free_port), scratch directory and log; nothing in one lane installs into
# the server the other lane uses (format-compat and sqlfuzz install old
# releases into private copies).  BLOOMSET_SERIAL_VERSIONS=1: one lane.

# on every version, after building the extension for it
regress_suites() {
	local v=$PG_MAJOR
	run_suite "regress-$v" regress_suite "regress-$v" ""
	run_suite "regress-portable-$v" regress_suite "regress-portable-$v" BLOOMSET_PORTABLE=1
}
tap_suites() {
	run_suite "tap-isolation-$PG_MAJOR" pgxs_suite
}
upgrade_suites() {
	run_suite "upgrade-$PG_MAJOR" env SKIP_BUILD=1 bash test/upgrade/run.sh
}
per_version_suites() {
	regress_suites
	tap_suites
	upgrade_suites
}
# once, on 15; the first lane's share
once_suites_a() {
	run_suite unit unit_tests
	run_suite readme-sql python3 scripts/check_readme_sql.py	# every README sql block runs in a test
	run_suite import-graph python3 scripts/import_graph.py		# who calls whom in src/: no cycles
	run_suite docs-no-run-logs python3 scripts/check_docs.py	# no dates, UTC times or commit ids in README, docs/, src/
	run_suite format-compat bash test/format_compat/run.sh		# values stored by 1.0 and 1.1
	run_suite fuzz-quick bash test/fuzz/run.sh 200000
}
# the second lane's share
once_suites_b() {
	run_suite parquet bash test/parquet/run.sh					# against DuckDB
	run_suite sqlfuzz bash test/sqlfuzz/run.sh quick
	run_suite joinfuzz bash test/sqlfuzz/joinfuzz.sh quick		# runtime join filters
}
# 15's two lanes (about 10 and 11 minutes): pg_regress twice, the upgrade
# test, the checks, the stored-format test and the libFuzzer run; the TAP and
# isolation tests, the Parquet test and the SQL fuzzer
lane_15_a() {
	regress_suites
	upgrade_suites
	once_suites_a
}
lane_15_b() {
	tap_suites
	once_suites_b
}
# then alone: the resource suite measures in wall-clock time how soon a long
# call ends after its timeout (parallel workers and its memory sampler run
# beside the backend); a suite beside it on 2 cores stretches those times
# past its limits
resources_suite() {
	run_suite resources env SKIP_BUILD=1 bash test/resources/run.sh
}
# 17 and 18: build, the per-version suites, then filters carried from 15
version_stage() {
	use_version "$1"
	[ -x "$PG_BIN/pg_config" ] || { echo "== PostgreSQL $1: not available"; record "postgresql-$1" 0 1; return; }
	run_suite "build-$1" build_suite
	grep -q "^build-$1 .* 0 failed" "$SUMMARY" || return
	per_version_suites
	run_suite "cross-15-$1" cross_suite "$1"
	# last: it installs Citus into this version's server (scripts/suites.sh)
	run_suite "citus-$1" citus_suite
}

ensure_base_packages
ensure_packages perl libipc-run-perl clang libclang-rt-14-dev python3 binutils
# the other servers build in the background while 15's suites run (niced,
# so that the timing checks of the 15 suites keep their CPU)
if [ ${#OTHER_VERSIONS[@]} -gt 0 ]; then
	ensure_packages "${PGBUILD_PACKAGES[@]}"	# not concurrently with later installs
	echo "== building PostgreSQL ${OTHER_VERSIONS[*]} in the background (log: $LOGDIR/pgbuild.log)"
	nice -n 19 bash scripts/pgbuild.sh "${OTHER_VERSIONS[@]}" > "$LOGDIR/pgbuild.log" 2>&1 &
	PGBUILD_PID=$!
fi

use_version 15
build_install || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
if [ "${BLOOMSET_SERIAL_VERSIONS:-0}" = 1 ]; then
	lane_15_a
	lane_15_b
else
	# the second lane's output is printed when both are done
	( SUMMARY=$LOGDIR/summary-15b; lane_15_b ) > "$LOGDIR/lane-15b.out" 2>&1 &
	lane_b_pid=$!
	lane_15_a
	wait "$lane_b_pid"
	cat "$LOGDIR/lane-15b.out"
fi
resources_suite

if [ ${#OTHER_VERSIONS[@]} -gt 0 ]; then
	echo "== waiting for the PostgreSQL builds"
	wait "$PGBUILD_PID" && record pgbuild 1 0 || record pgbuild 0 1
	cat "$LOGDIR/pgbuild.log"
fi
# 17 and 18 side by side (BLOOMSET_SERIAL_VERSIONS=1: one after the other):
# each mostly keeps one core busy; separate clusters, build and scratch
# directories keep them apart
stage_pids=()
for v in "${OTHER_VERSIONS[@]}"; do
	if [ "${BLOOMSET_SERIAL_VERSIONS:-0}" = 1 ]; then
		SUMMARY=$LOGDIR/summary-$v version_stage "$v" > "$LOGDIR/stage-$v.out" 2>&1
	else
		( SUMMARY=$LOGDIR/summary-$v; version_stage "$v" ) > "$LOGDIR/stage-$v.out" 2>&1 &
		stage_pids+=($!)
	fi
done
for pid in "${stage_pids[@]}"; do wait "$pid"; done
for v in "${OTHER_VERSIONS[@]}"; do cat "$LOGDIR/stage-$v.out"; done

if [ -s "$BLOOMSET_CRASH_LOG" ]; then
	echo "== server crashes found in the suites' server logs:"
	head -n 20 "$BLOOMSET_CRASH_LOG"
	record server-logs 0 "$(wc -l < "$BLOOMSET_CRASH_LOG")"
else
	record server-logs 1 0
fi
echo
echo "== summary (logs in $LOGDIR)"
summaries=("$LOGDIR/summary")
[ -e "$LOGDIR/summary-15b" ] && summaries+=("$LOGDIR/summary-15b")
for v in "${OTHER_VERSIONS[@]}"; do summaries+=("$LOGDIR/summary-$v"); done
cat "${summaries[@]}" 2>/dev/null
read -r total_pass total_fail < <(cat "${summaries[@]}" 2>/dev/null | awk '{p += $2; f += $4} END {print p + 0, f + 0}')
skipped=$(cat "${summaries[@]}" 2>/dev/null | grep -c ' skipped ')
[ "$skipped" -gt 0 ] && echo "SKIPPED: $skipped suite(s) could not run here (listed above): not checked"
elapsed=$(( $(date +%s) - T0 ))
echo "$total_pass passed, $total_fail failed in $((elapsed / 60)) min $((elapsed % 60)) s"
[ "$total_fail" -eq 0 ]
