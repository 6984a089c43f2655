#!/usr/bin/env bash
# scripts/test.sh -- run every test suite of bloomset on throwaway clusters.
#
# Installs what it needs from Debian's archive, builds and installs the
# extension, then runs: the C unit tests of the core (both CPU paths), the
# pg_regress suite twice (run-time-selected kernels, then BLOOMSET_PORTABLE=1),
# the TAP durability and isolation tests, the resource-limit suite (memory
# bounds, HashAgg spilling, cancellation), and a short libFuzzer run of the
# decoders.  Prints one line per suite and a closing "N passed, N failed";
# exits non-zero if anything failed.
#
# Slow, separate suites (not run here): test/fuzz/run.sh (10 M executions),
# test/memcheck/run.sh (valgrind + ASan), bench/run.sh.
source "$(dirname "$0")/lib.sh"
set +e
cd "$REPO_ROOT"

ensure_base_packages
ensure_packages libipc-run-perl clang libclang-rt-14-dev
build_install || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

LOGDIR=$(mktemp -d /tmp/bloomset-test.XXXXXX)
total_pass=0
total_fail=0

# record NAME PASS FAIL
record() {
	printf '%-28s %4d passed, %d failed\n' "$1" "$2" "$3" >> "$LOGDIR/summary"
	total_pass=$((total_pass + $2))
	total_fail=$((total_fail + $3))
}

# run_suite NAME CMD...: a script that prints "SUITE ...: N passed, M failed"
# lines (summed); a non-zero exit counts as a failure either way.
run_suite() {
	local name=$1; shift
	echo "== $name"
	"$@" > "$LOGDIR/$name.log" 2>&1
	local rc=$? p=0 f=0 line
	grep -E '^SUITE ' "$LOGDIR/$name.log"
	while read -r line; do
		[ -z "$line" ] && continue
		p=$((p + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
		f=$((f + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
	done <<< "$(grep -E '^SUITE .*: [0-9]+ passed, [0-9]+ failed' "$LOGDIR/$name.log")"
	[ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
	[ $rc -eq 0 ] && [ "$p" = 0 ] && p=1
	record "$name" "$p" "$f"
	[ $rc -ne 0 ] && { echo "-- $name failed; log:"; tail -n 40 "$LOGDIR/$name.log"; }
}

unit_tests() {
	cc -O2 -Wall -o "$LOGDIR/test_core" test/unit/test_core.c src/bloom_core.c \
		-L"$("$PG_BIN/pg_config" --pkglibdir)" -lpgcommon -lpgport -lm || return 1
	"$LOGDIR/test_core" && "$LOGDIR/test_core" portable
}

# regress_suite NAME SERVER_ENV
regress_suite() {
	PG_SERVER_ENV=$2 pg_start "max_worker_processes = 8" "max_parallel_workers = 4"
	echo "kernels in use: $($PG_BIN/psql -X -Atqc "LOAD 'bloomset'; SHOW bloomset.simd")"
	make -s PG_CONFIG=$PG_BIN/pg_config installcheck \
		REGRESS_OPTS="--load-extension=bloomset --outputdir=$LOGDIR/$1" > "$LOGDIR/$1.out" 2>&1
	local rc=$? ok bad
	cat "$LOGDIR/$1.out"
	[ $rc -ne 0 ] && head -n 80 "$LOGDIR/$1/regression.diffs" 2>/dev/null
	ok=$(grep -cE '\.\.\. ok' "$LOGDIR/$1.out")
	bad=$(grep -cE 'FAILED' "$LOGDIR/$1.out")
	pg_stop
	[ $rc -ne 0 ] && [ "$bad" = 0 ] && bad=1
	echo "SUITE $1: $ok passed, $bad failed"
	return $rc
}

run_suite unit unit_tests
run_suite regress regress_suite regress ""
run_suite regress-portable regress_suite regress-portable BLOOMSET_PORTABLE=1
[ -f test/run_tap_isolation.sh ] && run_suite tap-isolation bash test/run_tap_isolation.sh
[ -f test/resources/run.sh ] && run_suite resources env SKIP_BUILD=1 bash test/resources/run.sh
[ -f test/fuzz/run.sh ] && run_suite fuzz-quick bash test/fuzz/run.sh 200000

echo
echo "== summary (logs in $LOGDIR)"
cat "$LOGDIR/summary"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
