#!/usr/bin/env bash
# test/run_tap_isolation.sh -- the durability TAP tests (test/t/*.pl) and the
# concurrency isolation tests (test/isolation/specs/*.spec) of bloomset.
#
#   test/run_tap_isolation.sh
#
# Installs what it needs (Debian packages, as root or through sudo), builds
# and installs the extension, then runs
#   - prove on test/t/*.pl with PostgreSQL::Test::Cluster (every test makes
#     its own throwaway clusters), and
#   - pg_isolation_regress --temp-instance on the specs,
# both as the postgres OS user when run as root (PostgreSQL refuses to run as
# root), otherwise as the current user, in a scratch copy of test/ under
# /tmp.  The scratch directory is removed on success and kept (its path is
# printed) on failure.  Needs no stdin or terminal.  Exits non-zero if any
# test failed; the last line of output is always
#   SUITE tap+isolation: N passed, M failed
# where N and M count TAP test cases (TODO tests for known bugs are reported
# separately and count as neither) plus isolation tests.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../scripts/lib.sh
source "$ROOT/scripts/lib.sh"	# set -euo pipefail, PG_BIN, ensure_packages ...

tap_pass=0 tap_fail=0 tap_todo=0 iso_pass=0 iso_fail=0
WORK=
summary_done=0

summary() {
	[ "$summary_done" = 1 ] && return 0
	summary_done=1
	echo "SUITE tap+isolation: $((tap_pass + iso_pass)) passed, $((tap_fail + iso_fail)) failed"
}

# Stop any server left running in the scratch directory (a test killed
# half-way), then print the summary line if it was not printed yet.
on_exit() {
	local rc=$? pidfile
	if [ -n "$WORK" ] && [ -d "$WORK" ]; then
		while IFS= read -r pidfile; do
			as_tester "$PG_BIN/pg_ctl" -D "$(dirname "$pidfile")" -m immediate -w stop >/dev/null 2>&1 || true
		done < <(find "$WORK" -name postmaster.pid 2>/dev/null)
	fi
	if [ "$summary_done" != 1 ]; then
		[ "$rc" = 0 ] || { [ $((tap_fail + iso_fail)) -gt 0 ] || tap_fail=1; }
		echo "== aborted (exit status $rc)"
		summary
	fi
}
trap on_exit EXIT

# Run a command as the user that runs the servers.
as_tester() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

export DEBIAN_FRONTEND=noninteractive
ensure_base_packages
ensure_packages perl libipc-run-perl

# PGXS has no header dependency tracking: objects compiled before a header
# changed would be linked unchanged (struct layouts out of step, crashes).
# Remove those stale objects (build outputs only) so build_install rebuilds.
newest_h=
for h in "$ROOT"/src/*.h; do
	[ -e "$h" ] || continue
	if [ -z "$newest_h" ] || [ "$h" -nt "$newest_h" ]; then newest_h=$h; fi
done
if [ -n "$newest_h" ]; then
	stale=0
	for o in "$ROOT"/src/*.o; do
		[ -e "$o" ] || continue
		if [ "$o" -ot "$newest_h" ]; then
			rm -f "$o" "${o%.o}.bc"
			stale=1
		fi
	done
	if [ "$stale" = 1 ]; then
		echo "== objects older than $(basename "$newest_h"): rebuilding them"
		rm -f "$ROOT/bloomset.so"
	fi
fi
# shellcheck disable=SC2119
build_install

PGXS_SRC=$(dirname "$(dirname "$("$PG_BIN/pg_config" --pgxs)")")	# .../pgxs/src
PERL_LIB=$PGXS_SRC/test/perl
PG_REGRESS_BIN=$PGXS_SRC/test/regress/pg_regress
ISO_REGRESS=$PGXS_SRC/test/isolation/pg_isolation_regress
for f in "$PERL_LIB/PostgreSQL/Test/Cluster.pm" "$PG_REGRESS_BIN" "$ISO_REGRESS"; do
	[ -e "$f" ] || { echo "missing $f (postgresql-server-dev-$PG_MAJOR)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/bloomset-tap.XXXXXX)
cp -R "$ROOT/test/t" "$ROOT/test/isolation" "$WORK/"
rm -rf "$WORK/t/tmp_check" "$WORK/isolation/out" "$WORK/isolation/tmp_instance"
chmod 755 "$WORK"
if [ "$(id -u)" = 0 ]; then chown -R postgres: "$WORK"; fi

start=$(date +%s)

# ---- TAP ------------------------------------------------------------------
tap_files=()
for f in "$WORK"/t/*.pl; do tap_files+=("t/$(basename "$f")"); done
echo "== TAP: ${tap_files[*]}"
set +e
# TESTDATADIR/TESTLOGDIR: PostgreSQL 17+ TAP modules place data and logs
# there (relative "tmp_check" otherwise, which server-side COPY rejects)
as_tester env -C "$WORK" \
	PATH="$PG_BIN:$PATH" PERL5LIB="$PERL_LIB:$WORK/t" \
	PG_REGRESS="$PG_REGRESS_BIN" TESTDIR="$WORK" \
	TESTDATADIR="$WORK/tmp_check" TESTLOGDIR="$WORK/tmp_check/log" \
	prove -v "${tap_files[@]}" </dev/null >"$WORK/tap.out" 2>&1
tap_rc=$?
set -e
# the per-test lines, without the diagnostics (kept in the logs)
grep -vE '^#' "$WORK/tap.out" || true
tap_pass=$(grep -E '^ok [0-9]+' "$WORK/tap.out" | grep -vc '# TODO' || true)
tap_fail=$(grep -E '^not ok [0-9]+' "$WORK/tap.out" | grep -vc '# TODO' || true)
tap_todo=$(grep -cE '^(not )?ok [0-9]+.*# TODO' "$WORK/tap.out" || true)
# a script that died or broke its plan without a failing test case: prove's
# summary lists it with a non-zero wait status and "Failed: 0"
tap_died=$(grep -cE '^t/[^ ]+ +\(Wstat: [1-9][0-9]* .*Failed: 0\)' "$WORK/tap.out" || true)
tap_fail=$((tap_fail + tap_died))
if [ "$tap_rc" != 0 ] && [ "$tap_fail" = 0 ]; then
	tap_fail=1
fi
if [ "$tap_rc" != 0 ]; then
	echo "== TAP failed; diagnostics:"
	grep -E '^#' "$WORK/tap.out" | grep -vE 'background psql|background_psql|^# *[{}]|^# *'"'"'(stdout|stderr)' | tail -n 60 || true
	for log in "$WORK"/tmp_check/log/regress_log_*; do
		[ -e "$log" ] || continue
		echo "---- tail of $log"
		tail -n 25 "$log"
	done
fi
echo "== TAP: $tap_pass passed, $tap_fail failed, $tap_todo todo (known bugs, expected to fail)"

# ---- isolation ------------------------------------------------------------
iso_tests=()
for f in "$WORK"/isolation/specs/*.spec; do iso_tests+=("$(basename "$f" .spec)"); done
echo "== isolation: ${iso_tests[*]}"
set +e
# PGISOLATIONTIMEOUT: a step still running after 60 s is cancelled (and the
# test fails) instead of after the default 300 s.
as_tester env -C "$WORK/isolation" PATH="$PG_BIN:$PATH" PGISOLATIONTIMEOUT=60 \
	"$ISO_REGRESS" --temp-instance="$WORK/isolation/tmp_instance" \
	--bindir="$PG_BIN" --inputdir=. --outputdir=out \
	--load-extension=bloomset "${iso_tests[@]}" </dev/null >"$WORK/iso.out" 2>&1
iso_rc=$?
set -e
grep -E '^(test |     |ok |not ok )|tests (passed|failed)' "$WORK/iso.out" || true
iso_pass=$(grep -cE '^test .*\.\.\. ok' "$WORK/iso.out" || true)
iso_fail=$(grep -cE '^test .*\.\.\. FAILED' "$WORK/iso.out" || true)
if [ "$iso_rc" != 0 ] && [ "$iso_fail" = 0 ]; then
	iso_fail=1
fi
if [ "$iso_rc" != 0 ]; then
	echo "== isolation failed:"
	tail -n 30 "$WORK/iso.out"
	if [ -f "$WORK/isolation/out/regression.diffs" ]; then
		head -n 200 "$WORK/isolation/out/regression.diffs"
	fi
	if [ -f "$WORK/isolation/out/log/postmaster.log" ]; then
		tail -n 30 "$WORK/isolation/out/log/postmaster.log"
	fi
fi

echo "== runtime: $(( $(date +%s) - start )) s"
failed=$((tap_fail + iso_fail))
if [ "$failed" = 0 ]; then
	rm -rf "$WORK"
	WORK=
else
	echo "== kept for inspection: $WORK"
fi
summary
[ "$failed" = 0 ]
