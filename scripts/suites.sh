# scripts/suites.sh -- the suites of the test command (sourced by
# scripts/test.sh, after scripts/lib.sh).  Each suite is a command that
# prints "SUITE <name>: N passed, M failed" lines; run_suite runs one, keeps
# its log in $LOGDIR and records its counts in $SUMMARY.

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
	core=$(sed -n '1,40p' test/unit/test_core.c | grep -oE 'src/core/[A-Za-z0-9_]+\.c' | sort -u)
	cc -O2 -Wall -o "$LOGDIR/test_core" test/unit/test_core.c ${core:-src/core/bloom_core.c} \
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
	server_log_crashes "$work"/tmp_check/log/*.log "$work"/output_iso/log/*.log
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

# citus_suite: test/citus/ (a coordinator and two workers with Citus
# preloaded) through PGXS's prove_installcheck.  Citus is built once from
# the vendored source by scripts/citusbuild.sh and installed into PG_MAJOR's
# server after the version's other suites ran (citus.so and its extension
# files stay inert there: no other suite preloads it).  Without the source
# the suite says so and is skipped.
citus_suite() {
	local work rc pass fail
	bash scripts/citusbuild.sh
	rc=$?
	if [ $rc -eq 3 ]; then
		echo "SUITE citus-$PG_MAJOR: skipped"
		return 0
	fi
	[ $rc -eq 0 ] || { echo "SUITE citus-$PG_MAJOR: 0 passed, 1 failed"; return 1; }
	work=$(mktemp -d /tmp/bloomset-citus.XXXXXX)
	cp -R Makefile bloomset.control test "$work/"
	chmod 755 "$work"; chown -R postgres: "$work"
	as_pg env -C "$work" PATH="$PG_BIN:$PATH" make PG_CONFIG="$PG_BIN/pg_config" installcheck \
		REGRESS= ISOLATION= PROVE_TESTS='test/citus/*.pl' PROVE_FLAGS=--verbose </dev/null > "$work/out" 2>&1
	rc=$?
	server_log_crashes "$work"/tmp_check/log/*.log
	grep -E '^(ok|not ok) [0-9]+|^# |^t/|^test/|^Result' "$work/out"
	pass=$(grep -E '^ok [0-9]+' "$work/out" | grep -vcE '# (TODO|skip)')
	fail=$(grep -E '^not ok [0-9]+' "$work/out" | grep -vc '# TODO')
	if [ $rc -ne 0 ]; then
		[ "$fail" = 0 ] && fail=1
		tail -n 40 "$work/out"
		for log in "$work"/tmp_check/log/regress_log_*; do
			[ -e "$log" ] && { echo "---- tail of $log"; tail -n 40 "$log"; }
		done
		echo "kept for inspection: $work"
	else
		rm -rf "$work"
	fi
	echo "SUITE citus-$PG_MAJOR: $pass passed, $fail failed"
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
