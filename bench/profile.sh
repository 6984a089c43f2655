#!/usr/bin/env bash
# bench/profile.sh rows 'SQL' ['SQL' ...] -- where does a query's time go?
#
# Loads the benchmark data of bench/run.sh (rows rows), then for each SQL
# statement runs it once to warm up and PROFILE_REPS times (default 3) in one
# backend with `perf record -g` attached to that backend only, and prints the
# top functions by self time, the split by shared object, and the callers of
# the hottest bloomset functions.  Reports are kept in bench/out/profile-*.txt.
#
# To profile a filter passed as a constant, as the benchmark does, time it
# through the benchmark's helper, e.g.
#   bench/profile.sh 10000000 \
#     "SELECT bench_ms('SELECT count(*) FROM t WHERE bloom_contains(\$1, s)', bench_filter('big'), 0)"
# PROFILE_FINDEX=1 also loads the findex group's filter tables (findex_100k,
# findex_10k: see bench/findex.sh; generated into its cache if missing), e.g.
#   PROFILE_FINDEX=1 bench/profile.sh 1000 \
#     "SELECT count(*) FROM findex_100k WHERE f @> 42000042::bigint"
# The server's postgres binary is stripped (Debian): its static functions
# show as addresses; exported ones and everything in bloomset.so are named.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

[ $# -ge 2 ] || { echo "usage: bench/profile.sh rows 'SQL' ['SQL' ...]" >&2; exit 2; }
ROWS=$1; shift
REPS=${PROFILE_REPS:-3}
OUTDIR=$BENCH_DIR/out
mkdir -p "$OUTDIR"

ensure_packages linux-perf
perf stat -e task-clock true >/dev/null 2>&1 || { echo "perf does not work here" >&2; exit 1; }
bench_setup "$ROWS"
if [ "${PROFILE_FINDEX:-0}" = 1 ]; then
	source "$BENCH_DIR/findex.sh"
	findex_check_disk
	findex_generate
	findex_load
fi

# Self time by function, with the unnamed (static) functions of the stripped
# postgres binary grouped by their unwind-table (FDE) address range, so that
# e.g. all samples of ExecInterpExpr add up to one line "postgres:static@<start>".
grouped_self() {
	local data=$1 tmp
	tmp=$(mktemp)
	perf report -i "$data" --stdio --no-children --sort dso,symbol -g none \
		--percent-limit 0 2>/dev/null | grep '%' | grep -v '^#' > "$tmp.rep" || true
	{
		readelf --debug-dump=frames "$PG_BIN/postgres" 2>/dev/null |
			sed -n 's/.* FDE .*pc=\([0-9a-f]*\)\.\.\([0-9a-f]*\).*/\1 F \2/p'
		nm -D --defined-only "$PG_BIN/postgres" 2>/dev/null | awk '$2 ~ /^[Tt]$/ { print $1, "N", $3 }'
		awk '$2 == "postgres" && $4 ~ /^0x/ { a = substr($4, 3); sub(/%/, "", $1);
			while (length(a) < 16) a = "0" a; print a, "S", $1 }' "$tmp.rep"
	} | LC_ALL=C sort -k1,1 -k2,2 |
		awk '$2 == "N" { near = $3; next }
			 $2 == "F" { cur = $1; end = $3; curnear = near; next }
			 { k = ($1 < end) ? "postgres:static@" cur "(after:" curnear ")" : "postgres:?"; s[k] += $3 }
			 END { for (k in s) printf "%.2f %s\n", s[k], k }' > "$tmp"
	awk '!($2 == "postgres" && $4 ~ /^0x/) { p = $1; sub(/%/, "", p); printf "%.2f %s:%s\n", p, $2, $4 }' \
		"$tmp.rep" >> "$tmp"
	sort -rn "$tmp" | awk '$1 >= 0.5 { printf "%7.2f%%  %s\n", $1, $2 }' | head -40
	rm -f "$tmp" "$tmp.rep"
}

i=0
for q in "$@"; do
	i=$((i + 1))
	data=$OUTDIR/profile-$i.data
	report=$OUTDIR/profile-$i.txt
	pidfile=$(mktemp)
	say "profiling [$i] $q"
	{
		echo "$q;"                         # warm-up
		echo "SELECT pg_backend_pid() \\g $pidfile"
		echo "SELECT pg_sleep(1.5);"       # let perf attach
		echo "\\timing on"
		for _ in $(seq "$REPS"); do echo "$q;"; done
	} | psql_q -At > "$OUTDIR/profile-$i.out" &
	psql_pid=$!
	while [ ! -s "$pidfile" ]; do sleep 0.1; done
	backend=$(cat "$pidfile")
	perf record -F 1999 -g -p "$backend" -o "$data" 2>"$OUTDIR/profile-$i.perf.log" &
	perf_pid=$!
	wait "$psql_pid"
	kill -TERM "$perf_pid" 2>/dev/null || true
	wait "$perf_pid" 2>/dev/null || true
	rm -f "$pidfile"
	set +o pipefail
	{
		echo "# query: $q"
		echo "# rows: $ROWS, $REPS runs, bloomset built from $BUILD_REV; psql timings:"
		grep '^Time:' "$OUTDIR/profile-$i.out" | sed 's/^/#   /'
		echo
		echo "## self time by function (static functions of the stripped postgres grouped by address range)"
		grouped_self "$data"
		echo
		echo "## self time by shared object"
		perf report -i "$data" --stdio --no-children --sort dso -g none \
			--percent-limit 0.5 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
		echo
		echo "## call chains into bloomset (caller graph, self time)"
		perf report -i "$data" --stdio --no-children --dso bloomset.so --sort symbol \
			-g caller,0.5,callee,function,percent --percent-limit 2 2>/dev/null \
			| grep -v '^#' | grep -v '^$' | head -80
	} > "$report"
	set -o pipefail
	cat "$report"
done
