#!/usr/bin/env bash
# test/memcheck/run.sh [all|valgrind|asan]  -- memory-safety runs of the
# regression suite (slow: not part of the default test run).
#
#  valgrind  A throwaway cluster whose server runs under valgrind memcheck
#            (--trace-children=yes --leak-check=no, test/memcheck/
#            postgres.supp) runs the pg_regress tests of the Makefile's
#            REGRESS line that exist in sql/ (plus sql/mutation.sql).  Error
#            reports whose stack names bloomset (bloom_* functions or
#            bloomset.so) are counted; so are all others, for information.
#  asan      The extension built with gcc
#            PG_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
#            runs the same tests in a cluster whose server has libasan
#            preloaded (ASAN_OPTIONS=detect_leaks=0); AddressSanitizer and
#            UBSan reports are counted.
#
# Neither run touches the installed extension or the working tree: each
# builds a copy of the tree in a scratch directory, installs it with
# DESTDIR into a private copy of the PostgreSQL installation layout (the
# postgres binary copied, everything else symlinked; PostgreSQL finds its
# share and lib directories relative to the binary), and runs that server.
#
# Caveat: a stock server has no USE_VALGRIND build, so an overrun that stays
# inside one of palloc's malloc'd blocks is invisible to both tools; values
# larger than 8 kB get a block of their own, where overruns are caught.  The
# libFuzzer target (test/fuzz) checks the decoders with exact-size buffers.
#
#   MEMCHECK_TESTS="a b"   run these tests instead
#   MEMCHECK_SKIP="a b"    leave these tests out
#   MEMCHECK_TIMEOUT=S     stop a tool's test run after S seconds (counted as
#                          a failure; default 5400 valgrind, 1800 asan)
#   MEMCHECK_KEEP=1        keep the scratch directory (logs, diffs)
#   MEMCHECK_STRICT=1      also count pg_regress test failures as failures
#   MEMCHECK_SELFTEST=1    inject a read past the end of the filter in
#                          bloom_estimate_card into the copies (both tools
#                          must then report errors: checks the checkers)
#
# Ends with "SUITE memcheck: N passed, M failed".
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
source "$ROOT/scripts/lib.sh"

MODE=${1:-all}
case $MODE in all | valgrind | asan) ;; *) echo "usage: $0 [all|valgrind|asan]" >&2; exit 2 ;; esac

ensure_base_packages
ensure_packages valgrind

PG_CONFIG=$PG_BIN/pg_config
PG_LIBDIR=$($PG_CONFIG --pkglibdir)
PG_SHAREDIR=$($PG_CONFIG --sharedir)
PG_BINDIR=$($PG_CONFIG --bindir)
PG_REGRESS=$($PG_CONFIG --pgxs | sed 's|src/makefiles/pgxs.mk$|src/test/regress/pg_regress|')

WORK=$(mktemp -d /tmp/bloomset-memcheck.XXXXXX)
chmod 755 "$WORK"
SERVERS=()
cleanup() {
	local d
	for d in "${SERVERS[@]}"; do
		[ -f "$d/postmaster.pid" ] && as_pg $PG_BIN/pg_ctl -D "$d" -m immediate -w stop >/dev/null 2>&1 || true
	done
	if [ "${MEMCHECK_KEEP:-0}" = 1 ]; then
		echo "== memcheck: scratch directory kept: $WORK"
	else
		as_root rm -rf "$WORK"
	fi
}
trap cleanup EXIT

passed=0
failed=0
check() {	# check NAME OK(0/1) MESSAGE
	if [ "$2" = 1 ]; then
		passed=$((passed + 1)); echo "PASS: $1 -- $3"
	else
		failed=$((failed + 1)); echo "FAIL: $1 -- $3"
	fi
}

# ---- which tests ----------------------------------------------------------
printf 'print-%%:\n\t@echo $($*)\n' >"$WORK/print.mk"
REGRESS_LINE=$(make -s --no-print-directory -C "$ROOT" -f Makefile -f "$WORK/print.mk" print-REGRESS PG_CONFIG=$PG_CONFIG)
REGRESS_OPTS=$(make -s --no-print-directory -C "$ROOT" -f Makefile -f "$WORK/print.mk" print-REGRESS_OPTS PG_CONFIG=$PG_CONFIG)
if [ -n "${MEMCHECK_TESTS:-}" ]; then
	TESTS=($MEMCHECK_TESTS)
else
	TESTS=()
	for t in $REGRESS_LINE; do
		if [ -f "$ROOT/sql/$t.sql" ]; then TESTS+=("$t"); else echo "== memcheck: REGRESS lists $t, but sql/$t.sql does not exist: skipped"; fi
	done
	case " ${TESTS[*]} " in *" mutation "*) ;; *) [ -f "$ROOT/sql/mutation.sql" ] && TESTS+=(mutation) ;; esac
fi
if [ -n "${MEMCHECK_SKIP:-}" ]; then
	kept=()
	for t in "${TESTS[@]}"; do
		case " $MEMCHECK_SKIP " in *" $t "*) echo "== memcheck: skipping $t (MEMCHECK_SKIP)" ;; *) kept+=("$t") ;; esac
	done
	TESTS=("${kept[@]}")
fi
[ ${#TESTS[@]} -gt 0 ] || { echo "no tests to run" >&2; exit 2; }
echo "== memcheck: tests: ${TESTS[*]}"
echo "== memcheck: pg_regress options: $REGRESS_OPTS"

# ---- a private build and installation --------------------------------------

# build_tree NAME PG_CFLAGS: copy the tree, build with those flags, install
# into $WORK/NAME-root laid out like the real installation.
build_tree() {
	local name=$1 cflags=$2
	local src=$WORK/$name-src dest=$WORK/$name-root f
	mkdir -p "$src"
	tar -C "$ROOT" --exclude=.git --exclude='*.o' --exclude='*.bc' --exclude='*.so' \
		--exclude=results --exclude=log --exclude=tmp_check --exclude='test/fuzz/crashes' -cf - . |
		tar -C "$src" -xf -
	if [ "${MEMCHECK_SELFTEST:-0}" = 1 ]; then
		# a stack buffer overrun and an uninitialized read in bloom_estimate_card
		perl -0pi -e 's/(bloom_estimate_card\(PG_FUNCTION_ARGS\)\n\{\n)/$1\t{ volatile char probe[8]; volatile int idx = 8; static volatile int sink; if (probe[idx & 15] == 42) sink++; if (probe[3] == 42) sink++; } \/* selftest *\/\n/' "$src/src/bloom/bloom_type.c"
		grep -q selftest "$src/src/bloom/bloom_type.c" || { echo "selftest injection failed" >&2; exit 1; }
	fi
	echo "== memcheck[$name]: building a copy of the tree${cflags:+ with PG_CFLAGS=\"$cflags\"}"
	make -s -C "$src" PG_CONFIG=$PG_CONFIG clean >/dev/null
	# with no flags given, the Makefile's own PG_CFLAGS apply
	make -s -C "$src" PG_CONFIG=$PG_CONFIG ${cflags:+PG_CFLAGS="$cflags"} with_llvm=no >"$WORK/$name-build.log" 2>&1 ||
		{ cat "$WORK/$name-build.log"; exit 1; }
	make -s -C "$src" PG_CONFIG=$PG_CONFIG with_llvm=no DESTDIR="$dest" install >>"$WORK/$name-build.log" 2>&1 ||
		{ cat "$WORK/$name-build.log"; exit 1; }
	mkdir -p "$dest$PG_BINDIR" "$dest$PG_LIBDIR" "$dest$PG_SHAREDIR/extension"
	cp "$PG_BINDIR/postgres" "$dest$PG_BINDIR/postgres"
	for f in "$PG_LIBDIR"/*; do
		[ -e "$dest$PG_LIBDIR/$(basename "$f")" ] || ln -s "$f" "$dest$PG_LIBDIR/"
	done
	for f in "$PG_SHAREDIR"/*; do
		[ "$(basename "$f")" = extension ] || ln -s "$f" "$dest$PG_SHAREDIR/"
	done
	for f in "$PG_SHAREDIR"/extension/*; do
		case $(basename "$f") in bloomset*) ;; *) ln -s "$f" "$dest$PG_SHAREDIR/extension/" ;; esac
	done
}

# start_server NAME PREFIX-COMMAND...: initdb and start $WORK/NAME-root's
# postgres (run through the prefix command, e.g. valgrind) on a private socket.
start_server() {
	local name=$1; shift
	local data=$WORK/$name-data sock=$WORK/$name-sock port i
	port=$(free_port)
	mkdir -p "$sock" "$data"
	as_root chown postgres "$sock" "$data"
	chmod 700 "$data"
	as_pg $PG_BIN/initdb -D "$data" -A trust -U postgres --no-sync >/dev/null
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$sock'"
		echo "port = $port"
		echo "fsync = off"
		echo "jit = off"
		echo "max_worker_processes = 8"
	} | as_pg tee -a "$data/postgresql.conf" >/dev/null
	SERVERS+=("$data")
	as_pg "$@" "$WORK/$name-root$PG_BINDIR/postgres" -D "$data" >>"$WORK/$name-server.log" 2>&1 &
	for i in $(seq 1 600); do
		if $PG_BIN/pg_isready -q -h "$sock" -p "$port" 2>/dev/null; then
			break
		fi
		sleep 1
	done
	$PG_BIN/pg_isready -q -h "$sock" -p "$port" || { echo "server $name did not start"; tail -20 "$WORK/$name-server.log"; exit 1; }
	export PGHOST=$sock PGPORT=$port PGUSER=postgres
	# the server really loads our copy of the extension
	$PG_BIN/psql -X -q -At -d postgres -c "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'" | grep -q "^$WORK/$name-root" ||
		{ echo "server $name does not use the private installation"; exit 1; }
}

stop_server() {
	local name=$1
	as_pg $PG_BIN/pg_ctl -D "$WORK/$name-data" -m fast -w -t 900 stop >/dev/null 2>&1 ||
		as_pg $PG_BIN/pg_ctl -D "$WORK/$name-data" -m immediate -w stop >/dev/null 2>&1 || true
}

# run_tests NAME SECONDS: pg_regress; sets REG_TOTAL, REG_FAILED and
# REG_TIMEOUT (the test that was running when time ran out, or empty)
run_tests() {
	local name=$1 limit=$2
	local out=$WORK/$name-regress rc=0
	mkdir -p "$out"
	REG_TIMEOUT=
	# shellcheck disable=SC2086
	timeout "$limit" "$PG_REGRESS" --inputdir="$WORK/$name-src" --outputdir="$out" \
		$REGRESS_OPTS "${TESTS[@]}" >"$out/pg_regress.log" 2>&1 || rc=$?
	if [ "$rc" -eq 124 ]; then
		REG_TIMEOUT=$(sed -n 's/^test \([a-z_0-9]*\) *\.\.\. *$/\1/p' "$out/pg_regress.log" | tail -1)
		REG_TIMEOUT=${REG_TIMEOUT:-unknown}
		echo "   !! pg_regress stopped after ${limit}s, in test $REG_TIMEOUT"
	fi
	grep -E '^(test | *[a-z_]+ +\.\.\.|ok |not ok )' "$out/pg_regress.log" | sed 's/^/   /' || true
	REG_TOTAL=${#TESTS[@]}
	REG_FAILED=$(grep -cE '\.\.\. FAILED|^not ok' "$out/pg_regress.log" || true)
	if [ "$rc" -ne 0 ] && [ "$REG_FAILED" -eq 0 ]; then
		REG_FAILED=$REG_TOTAL	# pg_regress itself failed
		tail -5 "$out/pg_regress.log"
	fi
	if [ "$REG_FAILED" -gt 0 ] && [ -f "$out/regression.diffs" ]; then
		echo "   (first lines of regression.diffs)"
		head -40 "$out/regression.diffs" | sed 's/^/   | /'
	fi
}

# server_crashes NAME: backends killed by a signal, or crash restarts
server_crashes() {
	grep -cE 'terminated by signal|was terminated by exception|server process \(PID [0-9]+\) exited with exit code [^01]|terminating any other active server processes' \
		"$WORK/$1-server.log" || true
}

# ---- valgrind ---------------------------------------------------------------
run_valgrind() {
	local t0 t1 vglogs=$WORK/valgrind-logs total bloom crashes
	t0=$(date +%s)
	build_tree valgrind ""
	mkdir -p "$vglogs"
	as_root chown postgres "$vglogs"
	echo "== memcheck[valgrind]: starting the server under valgrind"
	start_server valgrind valgrind --quiet --tool=memcheck --trace-children=yes --leak-check=no \
		--error-exitcode=1 --error-limit=no --num-callers=40 --read-var-info=no \
		--suppressions="$HERE/postgres.supp" --gen-suppressions=all \
		--log-file="$vglogs/vg.%p.log"
	echo "== memcheck[valgrind]: running ${#TESTS[@]} tests (slow)"
	run_tests valgrind "${MEMCHECK_TIMEOUT:-5400}"
	stop_server valgrind
	t1=$(date +%s)
	# one report = a "==pid== <kind>" header up to the next "==pid== " blank
	read -r total bloom < <(cat "$vglogs"/vg.*.log 2>/dev/null | awk '
		/^==[0-9]+== [A-Z]/ && !inblk { inblk = 1; hit = 0; next }
		inblk && /^==[0-9]+== *$/ { total++; if (hit) bloom++; inblk = 0; next }
		inblk && /(bloom_[a-z_0-9]+|bloomset\.so)/ { hit = 1 }
		END { if (inblk) { total++; if (hit) bloom++ } print total + 0, bloom + 0 }')
	crashes=$(server_crashes valgrind)
	echo "valgrind: tests run: $REG_TOTAL, failed: $REG_FAILED, runtime $((t1 - t0))s"
	echo "valgrind: error reports: $total in all, $bloom naming bloomset functions; server crashes: $crashes"
	if [ "$bloom" -gt 0 ] || [ "${MEMCHECK_KEEP:-0}" = 1 ]; then
		cat "$vglogs"/vg.*.log 2>/dev/null | awk '
			/^==[0-9]+== [A-Z]/ && !inblk { inblk = 1; blk = $0 "\n"; hit = 0; next }
			inblk && /^==[0-9]+== *$/ { if (hit && shown++ < 5) printf "%s\n", blk; inblk = 0; next }
			inblk { blk = blk $0 "\n"; if ($0 ~ /(bloom_[a-z_0-9]+|bloomset\.so)/) hit = 1 }' | head -120 || true
	fi
	if [ "$total" -gt "$bloom" ]; then
		echo "   (reports not naming bloomset are PostgreSQL/libc false positives or unrelated; MEMCHECK_KEEP=1 keeps $vglogs)"
	fi
	check "valgrind: no error reports in bloomset code" $([ "$bloom" -eq 0 ] && echo 1 || echo 0) "$bloom reports"
	check "valgrind: no server crash" $([ "$crashes" -eq 0 ] && echo 1 || echo 0) "$crashes crash lines in the server log"
	check "valgrind: tests finished in time" $([ -z "$REG_TIMEOUT" ] && echo 1 || echo 0) "${REG_TIMEOUT:+stopped in test $REG_TIMEOUT}${REG_TIMEOUT:-all $REG_TOTAL tests ran}"
	if [ "${MEMCHECK_STRICT:-0}" = 1 ]; then
		check "valgrind: regression tests pass" $([ "$REG_FAILED" -eq 0 ] && echo 1 || echo 0) "$REG_FAILED of $REG_TOTAL failed"
	fi
}

# ---- AddressSanitizer + UBSan ----------------------------------------------
run_asan() {
	local t0 t1 libasan preload asan ubsan crashes
	t0=$(date +%s)
	libasan=$(gcc -print-file-name=libasan.so)
	[ -e "$libasan" ] || { echo "libasan not found (gcc -print-file-name=libasan.so)"; exit 1; }
	libasan=$(readlink -f "$libasan")
	build_tree asan "-fsanitize=address,undefined -fno-omit-frame-pointer"
	# grep without -q: it reads all of ldd's output (grep -q may exit at the
	# match while ldd still writes; with pipefail, ldd's SIGPIPE then fails
	# the pipeline and the check, about 1 time in 15)
	if ! ldd "$WORK/asan-root$PG_LIBDIR/bloomset.so" | grep libasan >/dev/null; then
		echo "the ASan build of bloomset.so is not linked with libasan"; exit 1
	fi
	# Preloading libasan alone into the stock server hangs it: libasan then
	# initializes lazily, on the first malloc, which happens inside a
	# library constructor (libgpg-error's bindtextdomain, p11-kit's
	# newlocale) that holds a glibc locale lock the initialization takes
	# again.  Preloading the server's own libraries first makes libasan the
	# first object initialized (verify_asan_link_order=0 allows the order;
	# none of those libraries defines malloc or the other intercepted
	# functions, libc comes after libasan).
	preload=$(ldd "$WORK/asan-root$PG_BINDIR/postgres" | awk '$3 ~ /^\// {print $3}' |
		grep -v -e '/libc\.so' -e '/ld-linux' | tr '\n' ':')
	echo "== memcheck[asan]: starting the server with $libasan preloaded"
	start_server asan env LD_PRELOAD="$preload$libasan" \
		ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:abort_on_error=0:detect_odr_violation=0:print_summary=1" \
		UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=0"
	echo "== memcheck[asan]: running ${#TESTS[@]} tests"
	run_tests asan "${MEMCHECK_TIMEOUT:-1800}"
	stop_server asan
	t1=$(date +%s)
	# the reports go to the server's stderr, i.e. its log
	asan=$(grep -c 'ERROR: AddressSanitizer' "$WORK/asan-server.log" || true)
	ubsan=$(grep -c 'runtime error:' "$WORK/asan-server.log" || true)
	crashes=$(server_crashes asan)
	echo "asan: tests run: $REG_TOTAL, failed: $REG_FAILED, runtime $((t1 - t0))s"
	echo "asan: AddressSanitizer reports: $asan, UBSan reports: $ubsan; server crashes: $crashes"
	if [ $((asan + ubsan)) -gt 0 ]; then
		{ grep -E 'ERROR: AddressSanitizer|runtime error:|^ *#[0-9]+ |^SUMMARY' "$WORK/asan-server.log" | head -60 | sed 's/^/   | /'; } || true
	fi
	check "asan: no AddressSanitizer reports" $([ "$asan" -eq 0 ] && echo 1 || echo 0) "$asan reports"
	check "asan: no UBSan reports" $([ "$ubsan" -eq 0 ] && echo 1 || echo 0) "$ubsan reports"
	check "asan: no server crash" $([ "$crashes" -eq 0 ] && echo 1 || echo 0) "$crashes crash lines in the server log"
	check "asan: tests finished in time" $([ -z "$REG_TIMEOUT" ] && echo 1 || echo 0) "${REG_TIMEOUT:+stopped in test $REG_TIMEOUT}${REG_TIMEOUT:-all $REG_TOTAL tests ran}"
	if [ "${MEMCHECK_STRICT:-0}" = 1 ]; then
		check "asan: regression tests pass" $([ "$REG_FAILED" -eq 0 ] && echo 1 || echo 0) "$REG_FAILED of $REG_TOTAL failed"
	fi
}

start=$(date +%s)
if [ "$MODE" = all ] || [ "$MODE" = asan ]; then run_asan; fi
if [ "$MODE" = all ] || [ "$MODE" = valgrind ]; then run_valgrind; fi
echo "memcheck: total runtime $(( $(date +%s) - start ))s"
echo "SUITE memcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
