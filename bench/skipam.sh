#!/usr/bin/env bash
# bench/skipam.sh -- case group "skipam" of bench/run.sh: the bloomskip
# index access method against btree and BRIN bloom on a "spans" table.
# Opt-in: runs only when BENCH_GROUPS names it (its data is about 10 GB
# and the first run generates it for minutes), e.g.
#     BENCH_GROUPS=skipam bash bench/run.sh
# (run.sh hands over to this script before loading its own data; it can
# also be run directly: bash bench/skipam.sh).  Its own throwaway cluster,
# configured as bench_setup's default (PostgreSQL's defaults for memory,
# see lib_bench.sh), and its own report, bench/results/skipam-latest.md,
# with bench/results/skipam.tsv (the growth figures bench/skipam_plot.sh
# draws).
#
# Data: spans(trace_id bigint, span_id bigint, ts timestamptz, name text,
# payload text), about 100 bytes and 75 rows a page, each trace's 8 spans
# consecutive (see skipam.sql), at 1 M, 10 M and 100 M rows (the first
# rows of one sequence).  The rows are generated once as binary COPY files of
# 1,000,000 rows each in
#     ${BENCH_SKIPAM_CACHE:-/var/cache/bloomset-bench}/skipam-v<FORMAT>-pg<major>/
# (a part is written under a temporary name and renamed when complete: an
# interrupted generation resumes at the missing parts) and every scale is
# COPYed FREEZE into a new table (no WAL: wal_level = minimal).  Clear it:
# rm -rf /var/cache/bloomset-bench/skipam-*.
#
# Indexes, each alone on the same table (create, measure, drop):
#  btree; brin: BRIN int8_bloom_ops with its defaults; brin-tuned: 16 pages
#  a range, n_distinct_per_range = 200, false_positive_rate = 0.001;
#  bloomskip with its defaults; bloomskip-tuned (BENCH_SKIPAM_TUNED: its
#  WITH clause, default pages_per_range = 4).  bloomskip rows are left out when the access method does
#  not exist.
# Per index, at the full scales (BENCH_SKIPAM_FULL, default 1 M and 10 M):
#  size and build time; point lookups of 21 present and 21 absent keys
#  (count(*), max(ts): the heap is read; enable_seqscan = off, so that each
#  index is measured even where the planner would rather scan the table, as
#  it would with BRIN bloom's defaults -- the unforced plan is recorded
#  beside), interleaved, BENCH_SKIPAM_REPS
#  timed rounds (default 3) after one under EXPLAIN (ANALYZE, BUFFERS):
#  medians of time, shared buffers hit + read, index pages (the Bitmap Index
#  Scan node's buffers, from the same query forced to a bitmap scan);
#  = ANY of 10 and of 1,000 keys and a join of 1,000 incoming ids forced to a
#  nested loop over a parameterized bitmap scan (BENCH_SKIPAM_MANY_REPS,
#  default 3); 1,000,000 inserted spans (INSERT ... SELECT, rolled back)
#  with the index against without (BENCH_SKIPAM_INSERT_REPS rounds, default
#  3; the no-index rounds are spread between the indexes); and an index of
#  the same kind on name (10 values, each in every range): the plan the
#  planner picks against a forced sequential scan.
# At the growth scales (BENCH_SKIPAM_GROWTH, default 100 M): size, build
#  time and point lookups of btree, brin and bloomskip only.
# Every count is checked against one sequential scan of each scale (the
# oracle, before any index): a mismatch is printed in the report.
#
# Environment: the above, BENCH_SKIPAM_OUT (the report), BENCH_SKIPAM_TSV
# (its figures), BENCH_SKIPAM_MANY_SCALES (growth scales that also run the
# = ANY and join cases), BENCH_SKIPAM_ONLY
# (space-separated index labels to run, default all),
# BENCH_SKIPAM_GENERATE_ONLY=1 (write the cache and stop),
# BENCH_SKIPAM_KEEP_FREE_GB (disk left free for others, default 25).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

SKIPAM_FORMAT=1
SKIPAM_PART=1000000
SKIPAM_CACHE=${BENCH_SKIPAM_CACHE:-/var/cache/bloomset-bench}/skipam-v$SKIPAM_FORMAT-pg$PG_MAJOR
SKIPAM_FULL=${BENCH_SKIPAM_FULL-1000000 10000000}
SKIPAM_GROWTH=${BENCH_SKIPAM_GROWTH-100000000}
SKIPAM_REPS=${BENCH_SKIPAM_REPS:-3}
SKIPAM_MANY_REPS=${BENCH_SKIPAM_MANY_REPS:-3}
SKIPAM_INSERT_REPS=${BENCH_SKIPAM_INSERT_REPS:-3}
SKIPAM_OUT=${BENCH_SKIPAM_OUT:-$BENCH_DIR/results/skipam-latest.md}
SKIPAM_TSV=${BENCH_SKIPAM_TSV:-$(dirname "$SKIPAM_OUT")/skipam.tsv}
# bloomskip tuned for this table: a trace's 8 spans share a heap page, so
# 4 pages a range (not 16) reads 4 heap pages for the true range; the
# default rate (1 / ranges) still keeps false ranges below one a lookup
SKIPAM_TUNED=${BENCH_SKIPAM_TUNED-pages_per_range = 4}

# label|DDL of the index on trace_id (spans_ix); the one on name replaces
# "(trace_id int8_bloom_ops" by "(name text_bloom_ops" and "(trace_id" by "(name"
skipam_indexes() {
	cat <<EOF
btree|CREATE INDEX spans_ix ON spans (trace_id)
brin|CREATE INDEX spans_ix ON spans USING brin (trace_id int8_bloom_ops)
brin-tuned|CREATE INDEX spans_ix ON spans USING brin (trace_id int8_bloom_ops(n_distinct_per_range = 200, false_positive_rate = 0.001)) WITH (pages_per_range = 16)
bloomskip|CREATE INDEX spans_ix ON spans USING bloomskip (trace_id)
bloomskip-tuned|CREATE INDEX spans_ix ON spans USING bloomskip (trace_id)${SKIPAM_TUNED:+ WITH ($SKIPAM_TUNED)}
EOF
}
skipam_growth_set=" btree brin bloomskip "

skipam_want() {
	local label=$1 scale=$2
	[ -z "${BENCH_SKIPAM_ONLY:-}" ] || [[ " $BENCH_SKIPAM_ONLY " == *" $label "* ]] || return 1
	case $label in
		bloomskip*) $SKIPAM_HAS_AM || return 1 ;;
	esac
	[ "$label" != bloomskip-tuned ] || [ -n "$SKIPAM_TUNED" ] || return 1
	if [[ " $SKIPAM_FULL " != *" $scale "* ]]; then
		[[ "$skipam_growth_set" == *" $label "* ]] || return 1
	fi
	return 0
}

skipam_sql() { psql_q -v VERBOSITY=terse "$@"; }

# skipam_check_disk: cache (parts not there yet) + the largest table twice
# (table, a btree and WAL) must leave BENCH_SKIPAM_KEEP_FREE_GB free
skipam_check_disk() {
	local keep=${BENCH_SKIPAM_KEEP_FREE_GB:-25} avail need_mb largest=0 s have
	for s in $SKIPAM_FULL $SKIPAM_GROWTH; do [ "$s" -gt "$largest" ] && largest=$s; done
	mkdir -p "$SKIPAM_CACHE"
	have=$(find "$SKIPAM_CACHE" -name 'part-*.copy' | wc -l)
	avail=$(df -Pm "$SKIPAM_CACHE" | awk 'NR == 2 {print $4}')
	need_mb=$(( (largest / SKIPAM_PART - have) * 98 + largest / 1000000 * 105 * 3 / 2 + 2000 ))
	[ "$need_mb" -gt 0 ] || need_mb=2000
	say "skipam: disk free $(( avail / 1024 )) GB, this run needs about $(( need_mb / 1024 )) GB, keeping $keep GB free"
	if [ $(( avail - need_mb )) -lt $(( keep * 1024 )) ]; then
		echo "skipam: not enough disk for $largest rows (set BENCH_SKIPAM_GROWTH lower, or BENCH_SKIPAM_KEEP_FREE_GB)" >&2
		return 1
	fi
}

# skipam_generate ROWS: the missing parts of the first ROWS rows
skipam_generate() {
	local rows=$1 parts p t0 t1 made=0
	mkdir -p "$SKIPAM_CACHE"
	chown postgres "$SKIPAM_CACHE"
	parts=$(( (rows + SKIPAM_PART - 1) / SKIPAM_PART ))
	t0=$(date +%s)
	for p in $(seq 0 $(( parts - 1 ))); do
		local f
		f=$SKIPAM_CACHE/part-$(printf %04d "$p").copy
		[ -e "$f" ] && continue
		[ $(( p % 10 )) = 0 ] && say "skipam: generating part $(( p + 1 ))/$parts ($SKIPAM_PART rows each)"
		echo "COPY (SELECT * FROM skipam_rows($(( p * SKIPAM_PART )), $(( (p + 1) * SKIPAM_PART - 1 )))) TO '$f.tmp' (FORMAT binary);" | skipam_sql
		mv "$f.tmp" "$f"
		made=$(( made + 1 ))
	done
	t1=$(date +%s)
	if [ "$made" -gt 0 ]; then
		echo "$made parts generated $(date -u '+%Y-%m-%d %H:%M UTC') in $(( t1 - t0 )) s, load average $(cut -d' ' -f1-3 /proc/loadavg); $(du -sh "$SKIPAM_CACHE" | cut -f1) in all" \
			>> "$SKIPAM_CACHE/generated.txt"
	fi
}

# skipam_load ROWS: spans with the first ROWS rows, VACUUM ANALYZEd
skipam_load() {
	local rows=$1 p parts t0
	parts=$(( rows / SKIPAM_PART ))
	say "skipam: loading $rows rows"
	t0=$(date +%s)
	{
		echo "DROP TABLE IF EXISTS spans;"
		echo "BEGIN;"	# created and filled in one transaction: no WAL (wal_level = minimal)
		echo "CREATE TABLE spans (trace_id bigint, span_id bigint, ts timestamptz, name text, payload text);"
		for p in $(seq 0 $(( parts - 1 ))); do
			echo "COPY spans FROM '$SKIPAM_CACHE/part-$(printf %04d "$p").copy' (FORMAT binary, FREEZE);"
		done
		echo "COMMIT;"
		echo "VACUUM ANALYZE spans;"
		echo "SELECT skipam_make_keys($rows / 8);"
	} | skipam_sql >/dev/null
	echo "INSERT INTO bench_info VALUES ('spans $rows', format('%s pages, %s, loaded in $(( $(date +%s) - t0 )) s', pg_relation_size('spans') / 8192, pg_size_pretty(pg_relation_size('spans'))));" | skipam_sql
}

# skipam_noindex SCALE: one round of inserts without an index, then VACUUM
skipam_noindex() {
	echo "SELECT skipam_insert($1, 'none', 1);" | skipam_sql >/dev/null
	echo "VACUUM spans;" | skipam_sql
}

# skipam_measure SCALE LABEL DDL
skipam_measure() {
	local sc=$1 label=$2 ddl=$3 full=false ok nddl
	[[ " $SKIPAM_FULL " == *" $sc "* ]] && full=true
	say "skipam: $sc rows, $label: build"
	ok=$(printf "SELECT skipam_build(%s, '%s', 'trace_id', %s);\n" "$sc" "$label" "$(sqlq "$ddl")" | skipam_sql -At)
	if [ "$ok" != t ]; then
		say "skipam: $label not built: $(echo "SELECT err FROM skipam_idx WHERE scale = $sc AND idx = '$label' AND col = 'trace_id'" | skipam_sql -At)"
		return 0
	fi
	say "skipam: $sc rows, $label: point lookups"
	echo "SELECT skipam_points($sc, '$label', $SKIPAM_REPS);" | skipam_sql >/dev/null
	if $full || [[ " ${BENCH_SKIPAM_MANY_SCALES:-} " == *" $sc "* ]]; then
		say "skipam: $sc rows, $label: = ANY and join"
		echo "SELECT skipam_many($sc, '$label', $SKIPAM_MANY_REPS);" | skipam_sql >/dev/null
	fi
	if $full; then
		say "skipam: $sc rows, $label: inserts"
		echo "SELECT skipam_insert($sc, '$label', $SKIPAM_INSERT_REPS);" | skipam_sql >/dev/null
	fi
	echo "DROP INDEX spans_ix;" | skipam_sql
	if $full; then
		echo "VACUUM spans;" | skipam_sql
		skipam_noindex "$sc"
		say "skipam: $sc rows, $label: index on name (values in every range)"
		nddl=$(echo "$ddl" | sed -e 's/(trace_id int8_bloom_ops/(name text_bloom_ops/' -e 's/(trace_id/(name/')
		ok=$(printf "SELECT skipam_build(%s, '%s', 'name', %s);\n" "$sc" "$label" "$(sqlq "$nddl")" | skipam_sql -At)
		if [ "$ok" = t ]; then
			echo "SELECT skipam_every($sc, '$label', $SKIPAM_MANY_REPS);" | skipam_sql >/dev/null
			echo "DROP INDEX spans_ix;" | skipam_sql
		fi
	fi
}
sqlq() { printf "'%s'" "${1//\'/\'\'}"; }
# 100000000 -> 100,000,000
commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

skipam_scale() {
	local sc=$1 label ddl
	skipam_load "$sc"
	say "skipam: $sc rows: the oracle (one sequential scan)"
	echo "SELECT skipam_oracle($sc);" | skipam_sql >/dev/null
	[[ " $SKIPAM_FULL " == *" $sc "* ]] && skipam_noindex "$sc"
	while IFS='|' read -r label ddl; do
		skipam_want "$label" "$sc" || continue
		skipam_measure "$sc" "$label" "$ddl"
	done < <(skipam_indexes)
	echo "DROP TABLE spans;" | skipam_sql
}

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
skipam_sql -f "$BENCH_DIR/skipam.sql" >/dev/null
SKIPAM_HAS_AM=false
[ "$(echo "SELECT count(*) FROM pg_am WHERE amname = 'bloomskip'" | skipam_sql -At)" = 1 ] && SKIPAM_HAS_AM=true
say "skipam: access method bloomskip: $SKIPAM_HAS_AM"
skipam_check_disk
largest=0
for s in $SKIPAM_FULL $SKIPAM_GROWTH; do [ "$s" -gt "$largest" ] && largest=$s; done
skipam_generate "$largest"
[ "${BENCH_SKIPAM_GENERATE_ONLY:-0}" = 1 ] && { say "skipam: cache complete"; exit 0; }
for s in $SKIPAM_FULL $SKIPAM_GROWTH; do
	skipam_scale "$s"
done
T_END=$(date +%s)
source "$BENCH_DIR/skipam_report.sh"
