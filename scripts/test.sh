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
# Per version (suffix -15, -17, -18): build and install the extension for
# it, the pg_regress suite twice (run-time-selected kernels, then
# BLOOMSET_PORTABLE=1), the TAP durability and isolation tests with that
# version's TAP modules, and the extension upgrade test (1.0 -> default
# version, test/upgrade/run.sh).  Once, on 15: the C unit tests of the core
# (both CPU paths), the 1.0 stored-format compatibility test, the
# resource-limit suite, a short libFuzzer run of the
# decoders and the SQL fuzzer's quick mode.  Across versions (cross-15-NN):
# filters written on 15 restored into 17 and 18 with pg_dump/pg_restore and
# a pg_upgrade of a 15 cluster to 17 and to 18 (test/t/007, 008).
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

# record NAME PASS FAIL
record() {
	printf '%-28s %4d passed, %d failed\n' "$1" "$2" "$3" >> "$SUMMARY"
}

# run_suite NAME CMD...: a script that prints "SUITE ...: N passed, M failed"
# lines (summed); a non-zero exit counts as a failure either way.
run_suite() {
	local name=$1; shift
	local t0=$SECONDS
	echo "== $name"
	"$@" > "$LOGDIR/$name.log" 2>&1
	local rc=$? p=0 f=0 line
	grep -E '^SUITE ' "$LOGDIR/$name.log"
	# a suite that could not run says so loudly and counts as neither
	if grep -qE '^SUITE .*: skipped' "$LOGDIR/$name.log"; then
		grep -E '^SKIPPED' "$LOGDIR/$name.log"
		printf '%-28s skipped (see above)\n' "$name" >> "$SUMMARY"
		return
	fi
	while read -r line; do
		[ -z "$line" ] && continue
		p=$((p + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
		f=$((f + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
	done <<< "$(grep -E '^SUITE .*: [0-9]+ passed, [0-9]+ failed' "$LOGDIR/$name.log")"
	[ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
	[ $rc -eq 0 ] && [ "$p" = 0 ] && p=1
	record "$name" "$p" "$f"
	echo "   ($((SECONDS - t0)) s)"
	[ $rc -ne 0 ] && { echo "-- $name failed; log:"; tail -n 40 "$LOGDIR/$name.log"; }
}

# use_version MAJOR: the server the following suites run against
use_version() {
	export PG_MAJOR=$1
	export PG_BIN=$(pg_bin_dir "$1")
}

# the PostgreSQL-free core files the unit test links, as named by the build
# line in test_core.c's header comment
unit_tests() {
	local core
	core=$(sed -n '1,40p' test/unit/test_core.c | grep -oE 'src/[A-Za-z0-9_]+\.c' | sort -u)
	cc -O2 -Wall -o "$LOGDIR/test_core" test/unit/test_core.c ${core:-src/bloom_core.c} \
		-L"$("$PG_BIN/pg_config" --pkglibdir)" -lpgcommon -lpgport -lm || return 1
	"$LOGDIR/test_core" && "$LOGDIR/test_core" portable
}

# regress_suite NAME SERVER_ENV
regress_suite() {
	PG_SERVER_ENV=$2 pg_start "max_worker_processes = 8" "max_parallel_workers = 4"
	echo "PostgreSQL $("$PG_BIN/pg_config" --version)"
	echo "kernels in use: $($PG_BIN/psql -X -Atqc "LOAD 'bloomset'; SHOW bloomset.simd")"
	# the pg_regress part only (ISOLATION and TAP_TESTS: pgxs_suite)
	make -s PG_CONFIG=$PG_BIN/pg_config installcheck ISOLATION= TAP_TESTS= \
		REGRESS_OPTS="--load-extension=bloomset --outputdir=$LOGDIR/$1" > "$LOGDIR/$1.out" 2>&1
	local rc=$? ok bad
	cat "$LOGDIR/$1.out"
	[ $rc -ne 0 ] && head -n 80 "$LOGDIR/$1/regression.diffs" 2>/dev/null
	ok=$(grep -cE '\.\.\. ok|^ok ' "$LOGDIR/$1.out")
	bad=$(grep -cE 'FAILED|^not ok ' "$LOGDIR/$1.out")
	pg_stop
	[ $rc -ne 0 ] && [ "$bad" = 0 ] && bad=1
	echo "SUITE $1: $ok passed, $bad failed"
	return $rc
}

# pgxs_suite: the isolation and TAP tests through PGXS (`make installcheck`
# with REGRESS emptied: ISOLATION and TAP_TESTS of the Makefile), as the
# postgres OS user in a scratch copy of the Makefile and test/ (the harness
# writes tmp_check/ and output_iso/ beside the Makefile).  The isolation
# specs run against a throwaway cluster; every TAP test starts its own.
# Counts TAP test cases (TODO tests for known bugs count as neither) and
# isolation tests.
pgxs_suite() {
	local work rc pass fail todo
	work=$(mktemp -d /tmp/bloomset-pgxs.XXXXXX)
	cp -R Makefile bloomset.control test "$work/"
	chmod 755 "$work"; chown -R postgres: "$work"
	pg_start
	as_pg env -C "$work" PATH="$PG_BIN:$PATH" PGHOST="$PGHOST" PGPORT="$PGPORT" \
		PGISOLATIONTIMEOUT=60 make PG_CONFIG="$PG_BIN/pg_config" installcheck REGRESS= \
		PROVE_FLAGS=--verbose </dev/null > "$work/out" 2>&1
	rc=$?
	pg_stop
	grep -E '^(ok|not ok) [0-9]+|^test .* \.\.\. |^t/|^Result|^\+\+\+' "$work/out"
	pass=$(grep -E '^ok [0-9]+|^test .* \.\.\. ok' "$work/out" | grep -vcE '# (TODO|skip)')
	fail=$(grep -E '^not ok [0-9]+|^test .* \.\.\. FAILED' "$work/out" | grep -vc '# TODO')
	todo=$(grep -cE '^(not )?ok [0-9]+.*# TODO' "$work/out")
	echo "todo (known bugs, expected to fail): $todo"
	if [ $rc -ne 0 ]; then
		[ "$fail" = 0 ] && fail=1
		tail -n 60 "$work/out"
		head -n 100 "$work/output_iso/regression.diffs" 2>/dev/null
		for log in "$work"/tmp_check/log/regress_log_*; do
			[ -e "$log" ] && { echo "---- tail of $log"; tail -n 25 "$log"; }
		done
		echo "kept for inspection: $work"
	else
		rm -rf "$work"
	fi
	echo "SUITE tap-isolation-$PG_MAJOR: $pass passed, $fail failed"
	[ $rc -eq 0 ]
}

# build_suite: build and install the extension for PG_MAJOR
build_suite() {
	build_install && echo "SUITE build-$PG_MAJOR: 1 passed, 0 failed"
}

# cross_suite NEW: test/t/007 and 008 with the TAP modules of NEW, the old
# cluster on 15 (PostgreSQL::Test::Cluster install_path)
cross_suite() {
	local new=$1 newbin work rc perl_lib pass fail
	newbin=$(pg_bin_dir "$new")
	perl_lib=$(dirname "$(dirname "$("$newbin/pg_config" --pgxs)")")/test/perl
	work=$(mktemp -d /tmp/bloomset-cross.XXXXXX)
	cp -R test/t test/upgrade "$work/"
	chmod 755 "$work"; chown -R postgres: "$work"
	as_pg env -C "$work" PATH="$newbin:$PATH" PERL5LIB="$perl_lib:$work/t" \
		PG_REGRESS="$(dirname "$perl_lib")/regress/pg_regress" TESTDIR="$work" \
		TESTDATADIR="$work/tmp_check" TESTLOGDIR="$work/tmp_check/log" \
		BLOOMSET_OLD_INSTALL="$(dirname "$(pg_bin_dir 15)")" \
		BLOOMSET_FIXTURES="$work/upgrade" \
		prove -v t/007_cross_version_dump.pl t/008_cross_version_pg_upgrade.pl \
		</dev/null > "$work/tap.out" 2>&1
	rc=$?
	grep -vE '^#' "$work/tap.out"
	# TODO tests (a known PostgreSQL problem, see 007) count as neither
	pass=$(grep -E '^ok [0-9]+' "$work/tap.out" | grep -vcE '# (TODO|skip)')
	fail=$(grep -E '^not ok [0-9]+' "$work/tap.out" | grep -vc '# TODO')
	echo "todo (known PostgreSQL problems): $(grep -cE '^(not )?ok [0-9]+.*# TODO' "$work/tap.out")"
	if grep -qE '^ok [0-9]+ # skip|skipped:' "$work/tap.out"; then
		echo "a cross-version test was skipped"; fail=$((fail + 1))
	fi
	if [ $rc -ne 0 ]; then
		[ "$fail" = 0 ] && fail=1
		grep -E '^#' "$work/tap.out" | tail -n 60
		for log in $(find "$work" -name 'regress_log_*'); do
			echo "---- tail of $log"; tail -n 30 "$log"
		done
		echo "kept for inspection: $work"
	else
		rm -rf "$work"
	fi
	echo "SUITE cross-15-$new: $pass passed, $fail failed"
	[ $rc -eq 0 ] && [ "$fail" = 0 ]
}

ensure_base_packages
ensure_packages perl libipc-run-perl clang libclang-rt-14-dev python3 binutils

# the other servers build while the 15 suites run (-j2 by default; niced so
# that the timing checks of the 15 suites keep their CPU)
if [ ${#OTHER_VERSIONS[@]} -gt 0 ]; then
	ensure_packages "${PGBUILD_PACKAGES[@]}"	# not concurrently with later installs
	echo "== building PostgreSQL ${OTHER_VERSIONS[*]} in the background (log: $LOGDIR/pgbuild.log)"
	nice -n 19 bash scripts/pgbuild.sh "${OTHER_VERSIONS[@]}" > "$LOGDIR/pgbuild.log" 2>&1 &
	PGBUILD_PID=$!
fi

# ---- PostgreSQL 15 ----------------------------------------------------------
use_version 15
build_install || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
run_suite unit unit_tests
# every README sql block is in sql/readme_examples.sql (which runs them)
run_suite readme-sql python3 scripts/check_readme_sql.py
# who calls whom in src/, from the objects just built: no cycles
run_suite import-graph python3 scripts/import_graph.py
run_suite regress-15 regress_suite regress-15 ""
run_suite regress-portable-15 regress_suite regress-portable-15 BLOOMSET_PORTABLE=1
run_suite tap-isolation-15 pgxs_suite
run_suite upgrade-15 env SKIP_BUILD=1 bash test/upgrade/run.sh
# values stored by the released 1.0 binary read by this build
[ -f test/format_compat/run.sh ] && run_suite format-compat bash test/format_compat/run.sh
[ -f test/resources/run.sh ] && run_suite resources env SKIP_BUILD=1 bash test/resources/run.sh
[ -f test/fuzz/run.sh ] && run_suite fuzz-quick bash test/fuzz/run.sh 200000
# Parquet filters against DuckDB and the reference probe (examples/)
run_suite parquet bash test/parquet/run.sh
# the SQL fuzzer expects the extension installed in PG 15 and PG_BIN set
[ -f test/sqlfuzz/run.sh ] && run_suite sqlfuzz bash test/sqlfuzz/run.sh quick

# ---- PostgreSQL 17, 18 ------------------------------------------------------
if [ ${#OTHER_VERSIONS[@]} -gt 0 ]; then
	echo "== waiting for the PostgreSQL builds"
	wait "$PGBUILD_PID"
	pgbuild_rc=$?
	cat "$LOGDIR/pgbuild.log"
	if [ $pgbuild_rc -eq 0 ]; then record pgbuild 1 0; else record pgbuild 0 1; fi
fi
# version_stage MAJOR: every suite on that server, then the cross-version
# tests from 15 to it
version_stage() {
	local v=$1
	use_version "$v"
	if [ ! -x "$PG_BIN/pg_config" ]; then
		echo "== PostgreSQL $v: not available"
		record "postgresql-$v" 0 1
		return
	fi
	run_suite "build-$v" build_suite
	grep -q "^build-$v .* 0 failed" "$SUMMARY" || return
	run_suite "regress-$v" regress_suite "regress-$v" ""
	run_suite "regress-portable-$v" regress_suite "regress-portable-$v" BLOOMSET_PORTABLE=1
	run_suite "tap-isolation-$v" pgxs_suite
	run_suite "upgrade-$v" env SKIP_BUILD=1 bash test/upgrade/run.sh
	run_suite "cross-15-$v" cross_suite "$v"
}

# The stages of 17 and 18 run side by side (BLOOMSET_SERIAL_VERSIONS=1: one
# after the other): each server mostly keeps one core busy, and separate
# clusters, build directories and scratch directories keep them apart.
if [ "${BLOOMSET_SERIAL_VERSIONS:-0}" = 1 ] || [ ${#OTHER_VERSIONS[@]} -lt 2 ]; then
	for v in "${OTHER_VERSIONS[@]}"; do
		SUMMARY=$LOGDIR/summary-$v version_stage "$v"
	done
else
	stage_pids=()
	for v in "${OTHER_VERSIONS[@]}"; do
		echo "== PostgreSQL $v suites (in parallel; output follows when done)"
		( SUMMARY=$LOGDIR/summary-$v; version_stage "$v" ) > "$LOGDIR/stage-$v.out" 2>&1 &
		stage_pids+=($!)
	done
	for pid in "${stage_pids[@]}"; do wait "$pid"; done
	for v in "${OTHER_VERSIONS[@]}"; do cat "$LOGDIR/stage-$v.out"; done
fi

echo
echo "== summary (logs in $LOGDIR)"
summaries=("$LOGDIR/summary")
for v in "${OTHER_VERSIONS[@]}"; do summaries+=("$LOGDIR/summary-$v"); done
cat "${summaries[@]}" 2>/dev/null
read -r total_pass total_fail < <(cat "${summaries[@]}" 2>/dev/null | awk '{p += $2; f += $4} END {print p + 0, f + 0}')
elapsed=$(( $(date +%s) - T0 ))
skipped=$(cat "${summaries[@]}" 2>/dev/null | grep -c ' skipped ')
[ "$skipped" -gt 0 ] && echo "SKIPPED: $skipped suite(s) could not run here (listed above): not checked"
echo "$total_pass passed, $total_fail failed in $((elapsed / 60)) min $((elapsed % 60)) s"
[ "$total_fail" -eq 0 ]
