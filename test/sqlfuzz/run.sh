#!/usr/bin/env bash
# test/sqlfuzz/run.sh -- SQL-level fuzzing of bloomset, zero tolerance.
#
#   bash test/sqlfuzz/run.sh [quick]     fixed seeds, a few minutes (part of scripts/test.sh)
#   bash test/sqlfuzz/run.sh long [N]    N statements on bloomset objects (default 250000)
#
# Part A: sqlsmith (Debian package) narrowed to bloomset's objects, on a
#   cluster of its own: the role "smith" has search_path information_schema,
#   pg_catalog, public, and information_schema holds views pg_proc and
#   pg_operator restricted to the extension's functions, aggregates and
#   operators (sqlsmith reads pg_proc unqualified; it reads
#   "pg_catalog.pg_operator" qualified, so a private copy of the binary gets
#   that one string rewritten to an unqualified name of the same length).
#   Crashes and XX errors come from the server log (log_line_prefix has %e).
# Part B: sqlfuzz.py, a generator built from the extension's pg_depend
#   entries with oracles (no false negatives, round trips, parallel = serial,
#   fast_hash on = off, generic = custom plan), on a second cluster.
#
# A crash, an XX-class SQLSTATE or a wrong answer fails the run.  The last
# line is "SUITE sqlfuzz: P passed, F failed" (P = checks passed).
#
# Environment:
#   PG_BIN           PostgreSQL binaries (default: lib.sh's pg_bin_dir, i.e.
#                    $BLOOMSET_PG15_ROOT's copy when set, else /usr/lib/postgresql/15/bin);
#                    the extension must be installed there (scripts/test.sh does)
#   SQLFUZZ_PRIVATE=1  build the working tree's bloomset into a private copy of
#                    PostgreSQL 15 first (as bench/lib_bench.sh does), for
#                    development while others install into the system one;
#                    with SQLFUZZ_REV=<commit>, that commit's sources instead
#   SQLFUZZ_SEED     base seed (default 1)
#   SQLFUZZ_SMITH_QUERIES / SQLFUZZ_GEN_STATEMENTS  override the mode's sizes
#   SQLFUZZ_JOBS     generator sessions in parallel (quick 1, long 2; seeds SEED, SEED+1000, ...)
#   SQLFUZZ_PARTS    "A B" (default), "A" or "B"
#   SQLFUZZ_SECONDS  part B stops after this long (with its report; so does a
#                    SIGTERM to a generator process), say to end a long run by a deadline
#   SQLFUZZ_BATCH=N  part B sends its random calls N per round trip (default 1;
#                    see sqlfuzz.py's note on batches for why)
#   SQLFUZZ_EXT_VERSION  part B creates this version of the extension (say 1.2:
#                    its SQL objects over this build's library) instead of the default
#   SQLFUZZ_KEEP=DIR keep logs and queries in DIR
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ENV_PG_BIN=${PG_BIN:-}
source "$HERE/../../scripts/lib.sh"
PG_BIN=${ENV_PG_BIN:-$(pg_bin_dir "$PG_MAJOR")}
set +e
set -uo pipefail

MODE=${1:-quick}
SEED=${SQLFUZZ_SEED:-1}
case "$MODE" in
	quick)
		SMITH_SEEDS="$SEED $((SEED + 1)) $((SEED + 2))"
		SMITH_QUERIES=${SQLFUZZ_SMITH_QUERIES:-1500}
		GEN_STATEMENTS=${SQLFUZZ_GEN_STATEMENTS:-15000}
		CANCEL_WEIGHT=0.03
		DEFAULT_JOBS=1
		;;
	long)
		SMITH_SEEDS="$SEED $((SEED + 1)) $((SEED + 2)) $((SEED + 3)) $((SEED + 4))"
		SMITH_QUERIES=${SQLFUZZ_SMITH_QUERIES:-4000}
		GEN_STATEMENTS=${2:-${SQLFUZZ_GEN_STATEMENTS:-250000}}
		CANCEL_WEIGHT=0.1
		DEFAULT_JOBS=2
		;;
	*) echo "usage: $0 [quick | long [N]]" >&2; exit 2 ;;
esac

say() { echo "[$(date +%H:%M:%S)] $*"; }
PY=/usr/bin/python3
WORK=$(mktemp -d /tmp/bloomset-sqlfuzz.XXXXXX)
chmod 755 "$WORK"
PASSED=0
FAILED=0
T_START=$(date +%s)

cleanup() {
	pg_stop
	if [ -n "${SQLFUZZ_KEEP:-}" ]; then mkdir -p "$SQLFUZZ_KEEP" && cp -a "$WORK"/. "$SQLFUZZ_KEEP"/; fi
	rm -rf "$WORK"
	[ -n "${BENCH_ROOT:-}" ] && rm -rf "$BENCH_ROOT"
	BENCH_ROOT=
}
PG_ON_EXIT=cleanup
trap cleanup EXIT

finish() {
	say "total wall time $(( $(date +%s) - T_START )) s"
	echo "SUITE sqlfuzz: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
	exit $?
}

# add the "RESULT passed=P failed=F" line of a report to the totals
add_result() {
	local line p f
	line=$(grep -E '^RESULT ' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "no RESULT line in $1 (the part did not finish)"; tail -n 20 "$1"
		FAILED=$((FAILED + 1)); return
	fi
	p=$(echo "$line" | sed -E 's/.*passed=([0-9]+).*/\1/')
	f=$(echo "$line" | sed -E 's/.*failed=([0-9]+).*/\1/')
	PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
}

ensure_packages postgresql-$PG_MAJOR sqlsmith python3-psycopg2

# private_build: bloomset built from a snapshot of the sources (the working
# tree, or commit $SQLFUZZ_REV via git archive) and installed into a private
# copy of PostgreSQL, whose server then loads exactly this build (the approach
# of bench/lib_bench.sh's bench_build).  Sets PG_BIN to the copy.
private_build() {
	local sys_bin=$PG_BIN snap rev
	BENCH_ROOT=$(mktemp -d /tmp/bloomset-sqlfuzz-pg.XXXXXX)
	chmod 755 "$BENCH_ROOT"
	snap=$BENCH_ROOT/src
	mkdir -p "$snap" "$BENCH_ROOT/pg/usr/lib/postgresql" "$BENCH_ROOT/pg/usr/share/postgresql"
	if [ -n "${SQLFUZZ_REV:-}" ]; then
		rev=$(git -C "$REPO_ROOT" rev-parse --short "$SQLFUZZ_REV") || return 1
		# the SQL scripts: at the top until 1.3, in extension/ since
		git -C "$REPO_ROOT" archive "$rev" -- Makefile src \
			$(git -C "$REPO_ROOT" ls-tree --name-only "$rev" | grep -E '\.(control|sql)$|^extension$') | tar xf - -C "$snap"
		BUILD_REV="$rev (git archive)"
	else
		(cd "$REPO_ROOT" && tar cf - --exclude='*.o' --exclude='*.bc' --exclude='*.so' \
			Makefile ./*.control extension src) | tar xf - -C "$snap"
		BUILD_REV=$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
		[ -n "$(git -C "$REPO_ROOT" status --porcelain -- src Makefile extension bloomset.control 2>/dev/null)" ] &&
			BUILD_REV="$BUILD_REV + uncommitted changes"
	fi
	BUILD_REV="$BUILD_REV (source snapshot hash $(cd "$snap" && cat Makefile $(find . -name "*.sql" | sort) $(find src -name "*.[ch]" | sort) | sha1sum | cut -c1-10))"
	cp -a "/usr/lib/postgresql/$PG_MAJOR" "$BENCH_ROOT/pg/usr/lib/postgresql/"
	cp -a "/usr/share/postgresql/$PG_MAJOR" "$BENCH_ROOT/pg/usr/share/postgresql/"
	make -C "$snap" -s -j2 PG_CONFIG="$sys_bin/pg_config" >/dev/null || return 1
	make -C "$snap" -s PG_CONFIG="$sys_bin/pg_config" DESTDIR="$BENCH_ROOT/pg" install >/dev/null || return 1
	PG_BIN=$BENCH_ROOT/pg/usr/lib/postgresql/$PG_MAJOR/bin
}

if [ "${SQLFUZZ_PRIVATE:-0}" = 1 ]; then
	ensure_packages build-essential postgresql-server-dev-$PG_MAJOR
	PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
	if ! private_build; then echo "private build failed"; FAILED=1; finish; fi
	say "private build of bloomset $BUILD_REV in $BENCH_ROOT"
else
	if [ ! -f "$("$PG_BIN/pg_config" --sharedir)/extension/bloomset.control" ]; then
		echo "bloomset is not installed for $PG_BIN (run scripts/test.sh, make install, or SQLFUZZ_PRIVATE=1)"
		FAILED=1; finish
	fi
	say "using the installed bloomset of $PG_BIN ($(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'))"
fi

# the settings both clusters share: every error logged with its SQLSTATE
CONF=("log_line_prefix = '%m [%p] %e %a: '" "log_min_error_statement = error"
      "max_worker_processes = 8" "max_parallel_workers = 4" "restart_after_crash = on"
      "shared_buffers = 128MB" "log_min_messages = warning" "log_checkpoints = off")

# ---------------------------------------------------------------------------
# A. sqlsmith narrowed to bloomset
# ---------------------------------------------------------------------------
PARTS=${SQLFUZZ_PARTS:-A B}
: > "$WORK/smith_report.txt"; : > "$WORK/gen_report.txt"
if [[ " $PARTS " == *" A "* ]]; then
say "part A: sqlsmith, seeds $SMITH_SEEDS, $SMITH_QUERIES queries each"
SMITH=$WORK/sqlsmith
if ! $PY - "$(command -v sqlsmith)" "$SMITH" <<'EOF'
import sys
data = open(sys.argv[1], 'rb').read()
old = b'from pg_catalog.pg_operator '
new = b'from ' + b' ' * len(b'pg_catalog.') + b'pg_operator '
n = data.count(old)
if n != 1:
    print('sqlsmith binary: %d occurrences of the operator query (expected 1); operators not narrowed' % n)
    open(sys.argv[2], 'wb').write(data)
else:
    open(sys.argv[2], 'wb').write(data.replace(old, new))
EOF
then echo "could not copy sqlsmith"; FAILED=$((FAILED + 1)); finish; fi
chmod 755 "$SMITH"

pg_start "${CONF[@]}"
psql_q -d postgres -c "CREATE DATABASE smith" >/dev/null
if ! psql_q -d smith -f "$HERE/sqlsmith_setup.sql" > "$WORK/smith_setup.log" 2>&1; then
	cat "$WORK/smith_setup.log"; FAILED=$((FAILED + 1)); finish
fi
SMITH_DSN="host=$PGHOST port=$PGPORT dbname=smith user=smith"

# narrowing check: what sqlsmith will see through the views
echo "  catalog as the role smith sees it: $(psql_q -At -U smith -d smith -c "
	SELECT count(*) || ' functions/aggregates (' || count(*) FILTER (WHERE p.oid IN (
	         SELECT objid FROM pg_catalog.pg_depend WHERE deptype = 'e')) || ' of the extension), '
	    || (SELECT count(*) FROM pg_operator) || ' operators; pg_catalog.pg_proc has '
	    || (SELECT count(*) FROM pg_catalog.pg_proc) || ' rows'
	  FROM pg_proc p")"

: > "$WORK/smith_queries.sql"
T_A=$(date +%s)
for s in $SMITH_SEEDS; do
	timeout $(( SMITH_QUERIES / 10 + 120 )) "$SMITH" --target="$SMITH_DSN" --exclude-catalog --seed="$s" \
		--max-queries="$SMITH_QUERIES" --dump-all-queries --verbose \
		>> "$WORK/smith_queries.sql" 2> "$WORK/smith_$s.err"
	rc=$?
	echo "  seed $s: exit $rc; $(grep -E '^queries:|^error rate' "$WORK/smith_$s.err" | tail -n 2 | tr '\n' ' ')"
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then tail -n 5 "$WORK/smith_$s.err"; fi
done
T_A=$(( $(date +%s) - T_A ))
sleep 1
$PY "$HERE/sqlfuzz.py" smith-report --queries "$WORK/smith_queries.sql" --log "$PGTMP/server.log" \
	--seconds "$T_A" | tee "$WORK/smith_report.txt"
add_result "$WORK/smith_report.txt"
cp "$PGTMP/server.log" "$WORK/smith_server.log" 2>/dev/null
pg_stop
fi

# ---------------------------------------------------------------------------
# B. the generator with oracles
# ---------------------------------------------------------------------------
if [[ " $PARTS " == *" B "* ]]; then
JOBS=${SQLFUZZ_JOBS:-$DEFAULT_JOBS}
say "part B: generator, $GEN_STATEMENTS statements in $JOBS session(s), seed $SEED"
pg_start "${CONF[@]}"
T_B=$(date +%s)
pids=()
for j in $(seq 1 "$JOBS"); do
	psql_q -d postgres -c "CREATE DATABASE fuzz$j" >/dev/null
	n=$(( GEN_STATEMENTS / JOBS + (j <= GEN_STATEMENTS % JOBS ? 1 : 0) ))
	$PY "$HERE/sqlfuzz.py" gen --dsn "host=$PGHOST port=$PGPORT dbname=fuzz$j user=postgres" \
		--seed $(( SEED + 1000 * (j - 1) )) --statements "$n" --cancel-weight "$CANCEL_WEIGHT" \
		--log "$PGTMP/server.log" ${SQLFUZZ_VERBOSE:+--verbose} ${SQLFUZZ_EXT_VERSION:+--ext-version "$SQLFUZZ_EXT_VERSION"} --batch "${SQLFUZZ_BATCH:-1}" \
		${SQLFUZZ_SECONDS:+--seconds "$SQLFUZZ_SECONDS"} \
		> "$WORK/gen_report_$j.txt" 2>&1 &
	pids+=($!)
done
[ "$JOBS" -eq 1 ] && tail -f "$WORK/gen_report_1.txt" --pid="${pids[0]}" 2>/dev/null
for p in "${pids[@]}"; do wait "$p"; done
T_B=$(( $(date +%s) - T_B ))
: > "$WORK/gen_report.txt"
for j in $(seq 1 "$JOBS"); do
	[ "$JOBS" -gt 1 ] && { echo "-- session $j"; cat "$WORK/gen_report_$j.txt"; }
	add_result "$WORK/gen_report_$j.txt"
	cat "$WORK/gen_report_$j.txt" >> "$WORK/gen_report.txt"
done
B_STMTS=$(grep -hoE '^part B \(generator\): [0-9]+' "$WORK"/gen_report_*.txt | awk '{s += $4} END {print s + 0}')
echo "part B total: $B_STMTS statements on bloomset objects in $T_B s wall ($(( B_STMTS / (T_B > 0 ? T_B : 1) )) statements/s)"
cp "$PGTMP/server.log" "$WORK/gen_server.log" 2>/dev/null
pg_stop
fi

echo
echo "summary: part A $(grep -E '^RESULT' "$WORK/smith_report.txt" | cut -c8-), part B $(grep -E '^RESULT' "$WORK/gen_report.txt" | cut -c8- | tr '\n' ' ')"
finish
