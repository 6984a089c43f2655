#!/usr/bin/env bash
# bench/skipcheck.sh -- case group "skipcheck" of bench/run.sh: the time of
# bloomskip_check against the time of CREATE INDEX of the same index, for
# every class (int8 equality, the two n-gram classes on log lines,
# tsvector, text[] tags, jsonb attributes).  Opt-in: BENCH_GROUPS=skipcheck
# bash bench/run.sh, or directly bash bench/skipcheck.sh.  Its own
# throwaway cluster, configured as bench_setup's default, and its own
# report, bench/results/skipcheck-latest.md.
#
# Data, generated in SQL: a table per class of BENCH_SKIPCHECK_ROWS rows
# (default 1,000,000): the log lines of bench/skipngram.sql (and their
# to_tsvector('simple', ...)), the tags and attributes of
# bench/skiparray.sql, the row number.  A round builds the index on its
# table (CREATE INDEX, default options), runs bloomskip_check on it and
# drops it, both timed on the server's clock; BENCH_SKIPCHECK_REPS rounds
# (default 3), the classes interleaved within each round, medians.
#
# Before and after: BENCH_SKIPCHECK_BEFORE=<git revision> also builds that
# revision into a private PostgreSQL copy of its own, starts a second
# cluster configured alike, and times the same rounds there, interleaved
# with this tree's, on tables of BENCH_SKIPCHECK_BEFORE_ROWS rows (default
# 20,000: a check that reads pages per key is too slow for the large
# tables); this tree is timed at that size too, so the two compare row
# for row.  The machine may be shared: times carry the load average
# printed in the report.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

SKC_ROWS=${BENCH_SKIPCHECK_ROWS:-1000000}
SKC_REPS=${BENCH_SKIPCHECK_REPS:-3}
SKC_BEFORE=${BENCH_SKIPCHECK_BEFORE:-}
SKC_BROWS=${BENCH_SKIPCHECK_BEFORE_ROWS:-20000}
SKC_OUT=${BENCH_SKIPCHECK_OUT:-$BENCH_DIR/results/skipcheck-latest.md}
SKC_CMDLINE=${SKIPCHECK_CMDLINE:-bench/skipcheck.sh}
SKC_CLASSES=6

skc_sql() { psql_q -v VERBOSITY=terse "$@"; }
skc_q() { skc_sql -At -F $'\t' "$@"; }

# The second cluster, of revision SKC_BEFORE: B_HOST, B_PORT, B_TMP, B_ROOT.
B_TMP= B_ROOT= B_PORT=
skc_before_cleanup() {
	if [ -n "$B_TMP" ]; then
		as_pg "$B_BIN/pg_ctl" -D "$B_TMP/data" -m immediate -w stop >/dev/null 2>&1 || true
		server_log_crashes "$B_TMP/server.log"
		as_root rm -rf "$B_TMP"
		[ -n "$B_PORT" ] && rm -rf "/tmp/bloomset-port.$B_PORT"
	fi
	[ -n "$B_ROOT" ] && rm -rf "$B_ROOT"
	B_TMP= B_ROOT=
}
skc_cleanup() {
	skc_before_cleanup
	bench_cleanup
}
skc_before_start() {
	local rev=$1 sys_bin=$2 src_root stage env
	B_ROOT=$(mktemp -d /tmp/bloomset-skc-before.XXXXXX)
	chmod 755 "$B_ROOT"
	mkdir -p "$B_ROOT/src" "$B_ROOT/pg/usr/lib/postgresql" "$B_ROOT/pg/usr/share/postgresql"
	git -C "$BENCH_DIR/.." archive "$rev" Makefile bloomset.control extension src | tar xf - -C "$B_ROOT/src"
	B_REV=$(git -C "$BENCH_DIR/.." rev-parse --short "$rev")
	src_root=$(cd "$sys_bin/../../../.." && pwd)
	cp -a "$src_root/lib/postgresql/$PG_MAJOR" "$B_ROOT/pg/usr/lib/postgresql/"
	cp -a "$src_root/share/postgresql/$PG_MAJOR" "$B_ROOT/pg/usr/share/postgresql/"
	say "skipcheck: building bloomset $B_REV (before) into $B_ROOT"
	make -C "$B_ROOT/src" -s -j2 PG_CONFIG="$sys_bin/pg_config" >/dev/null
	make -C "$B_ROOT/src" -s PG_CONFIG="$sys_bin/pg_config" DESTDIR="$B_ROOT/stage" install >/dev/null
	B_BIN=$B_ROOT/pg/usr/lib/postgresql/$PG_MAJOR/bin
	stage=$B_ROOT/stage
	cp "$stage$("$sys_bin/pg_config" --pkglibdir)/bloomset.so" "$("$B_BIN/pg_config" --pkglibdir)/"
	cp "$stage$("$sys_bin/pg_config" --sharedir)"/extension/bloomset* "$("$B_BIN/pg_config" --sharedir)/extension/"
	rm -rf "$("$B_BIN/pg_config" --pkglibdir)/bitcode/bloomset" "$("$B_BIN/pg_config" --pkglibdir)/bitcode/bloomset.index.bc"
	if [ -d "$stage$("$sys_bin/pg_config" --pkglibdir)/bitcode" ]; then
		cp -r "$stage$("$sys_bin/pg_config" --pkglibdir)/bitcode/." "$("$B_BIN/pg_config" --pkglibdir)/bitcode/"
	fi
	# pg_start in a subshell: its variables and exit trap stay there
	env=$(PG_ON_EXIT=true PG_BIN=$B_BIN; pg_start "${SKC_CONF[@]}"; trap - EXIT
		echo "B_HOST=$PGHOST B_PORT=$PGPORT B_TMP=$PGTMP")
	eval "$env"
}
# run psql against the second cluster
b_sql() { PGHOST=$B_HOST PGPORT=$B_PORT skc_sql "$@"; }

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
SYS_BIN=$PG_BIN
bench_setup 1000
trap skc_cleanup EXIT
# bench_setup's default configuration, for the second cluster
SKC_CONF=("max_parallel_workers_per_gather = 0" "autovacuum = off"
	"wal_level = minimal" "max_wal_senders = 0" "max_wal_size = 20GB"
	"checkpoint_timeout = 1h" "synchronous_commit = off")
[ "${BENCH_TUNED:-0}" = 1 ] && { echo "skipcheck runs the default configuration only" >&2; exit 2; }
skc_setup() {
	"$@" -f "$BENCH_DIR/skipngram.sql" >/dev/null
	"$@" -f "$BENCH_DIR/skiparray.sql" >/dev/null
	"$@" -f "$BENCH_DIR/skipcheck.sql" >/dev/null
}
skc_setup skc_sql
if [ -n "$SKC_BEFORE" ]; then
	skc_before_start "$SKC_BEFORE" "$SYS_BIN"
	echo "CREATE EXTENSION bloomset;" | b_sql
	skc_setup b_sql
fi
say "skipcheck: loading $SKC_CLASSES tables of $SKC_ROWS rows${SKC_BEFORE:+ (and of $SKC_BROWS rows on both clusters)}"
t0=$(date +%s)
for c in $(seq 1 $SKC_CLASSES); do
	echo "SELECT skc_load($c, $SKC_ROWS); VACUUM ANALYZE skc_${c}_$SKC_ROWS;" | skc_sql >/dev/null
	if [ -n "$SKC_BEFORE" ]; then
		echo "SELECT skc_load($c, $SKC_BROWS); VACUUM ANALYZE skc_${c}_$SKC_BROWS;" | skc_sql >/dev/null
		echo "SELECT skc_load($c, $SKC_BROWS); VACUUM ANALYZE skc_${c}_$SKC_BROWS;" | b_sql >/dev/null
	fi
done
LOAD_S=$(( $(date +%s) - t0 ))
for rep in $(seq 1 "$SKC_REPS"); do
	for c in $(seq 1 $SKC_CLASSES); do
		say "skipcheck: round $rep, class $c"
		echo "SELECT skc_round('after', $c, $SKC_ROWS, $rep);" | skc_sql >/dev/null
		if [ -n "$SKC_BEFORE" ]; then
			echo "SELECT skc_round('after', $c, $SKC_BROWS, $rep);" | skc_sql >/dev/null
			echo "SELECT skc_round('before', $c, $SKC_BROWS, $rep);" | b_sql >/dev/null
		fi
	done
done
T_END=$(date +%s)

# ---- the report: the before rounds are copied into this cluster's table ----
if [ -n "$SKC_BEFORE" ]; then
	b_sql -c "COPY skc_r TO STDOUT" | skc_sql -c "COPY skc_r FROM STDIN"
fi
ROWS=$(skc_q <<'SQL'
WITH m AS (
	SELECT server, class, nrows, percentile_cont(0.5) WITHIN GROUP (ORDER BY build_ms) AS build,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY check_ms) AS chk,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY check_ms / build_ms) AS ratio,
		max(missing) AS missing, max(index_bytes) AS bytes, count(*) AS n
	  FROM skc_r GROUP BY 1, 2, 3)
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s |', m.class, m.server, m.nrows,
	pg_size_pretty(m.bytes), round((m.build / 1000)::numeric, 2), round((m.chk / 1000)::numeric, 2),
	round((m.nrows / (m.chk / 1000))::numeric), round(m.ratio::numeric, 2) || CASE WHEN m.ratio <= 2 THEN ' (met)' ELSE ' (missed)' END,
	m.missing)
  FROM m JOIN skc_class c ON c.class = m.class ORDER BY c.ord, m.nrows DESC, m.server DESC;
SQL
)
SPEEDUP=$(skc_q <<'SQL'
WITH m AS (
	SELECT server, class, nrows, percentile_cont(0.5) WITHIN GROUP (ORDER BY check_ms) AS chk
	  FROM skc_r GROUP BY 1, 2, 3)
SELECT format('| %s | %s | %s | %s | x%s |', a.class, a.nrows, round(b.chk::numeric), round(a.chk::numeric),
	round((b.chk / a.chk)::numeric, 1))
  FROM m a JOIN m b ON b.class = a.class AND b.nrows = a.nrows AND b.server = 'before'
	JOIN skc_class c ON c.class = a.class
 WHERE a.server = 'after' ORDER BY c.ord;
SQL
)
TABLES=$(skc_q <<SQL
SELECT string_agg(format('%s %s pages', c.class, pg_relation_size(skc_table(c.ord, $SKC_ROWS)) / 8192), ', ' ORDER BY c.ord)
  FROM skc_class c;
SQL
)
SETTINGS=$(bench_settings)
{
	echo "# bloomskip_check against CREATE INDEX, per class"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$SKC_CMDLINE\` (${SKC_REPS} rounds, classes and clusters interleaved within a round, medians); $(( T_END - T_START )) s in all, $LOAD_S s of loading"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work: times are not quiet)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | skc_q); after: bloomset $BUILD_REV${SKC_BEFORE:+; before: bloomset $B_REV, a second cluster configured alike}; configuration: $BENCH_CONFIG ($SETTINGS)"
	echo "- tables of $SKC_ROWS rows: $TABLES; indexes with default options"
	echo "- goal: bloomskip_check within 2x CREATE INDEX (check / build <= 2)"
	if [ -n "$SKC_BEFORE" ]; then
		echo "- before ($B_REV) is timed on the $SKC_BROWS-row tables only: it reads k index pages, each checksummed, for every key of every row; this tree is timed on both sizes"
	fi
	echo
	echo "| class | bloomset | rows | index size | build s | check s | check rows/s | check / build | keys missing |"
	echo "|---|---|---|---|---|---|---|---|---|"
	echo "$ROWS"
	if [ -n "$SKC_BEFORE" ]; then
		echo
		echo "| class | rows | check ms before | check ms after | faster by |"
		echo "|---|---|---|---|---|"
		echo "$SPEEDUP"
	fi
} | tee "$SKC_OUT"
