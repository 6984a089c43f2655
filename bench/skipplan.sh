#!/usr/bin/env bash
# bench/skipplan.sh -- case group "skipplan" of bench/run.sh: does the
# planner choose the faster of the sequential scan and the bitmap scan of a
# bloomskip index, for needles from one row in 100,000 to one in 5?
# Classes: text_ngram_bloomskip_ops (LIKE), text_ngram_ci_bloomskip_ops
# (ILIKE), tsvector_bloomskip_ops (@@), array_bloomskip_ops (@>),
# jsonb_bloomskip_ops (@>).  Opt-in: BENCH_GROUPS=skipplan bash
# bench/run.sh, or directly bash bench/skipplan.sh.  Its own throwaway
# cluster, configured as bench_setup's default, and its own report,
# bench/results/skipplan-latest.md.
#
# Data: BENCH_SKIPPLAN_ROWS rows (default 1,000,000) of real text, two
# lines a row of the changelogs this machine has in /usr/share/doc (the
# whole set again if there are fewer lines), and their words as tsvector,
# text[] and jsonb, each in a table of its own with its index
# (bench/skipplan.sql).  Needles: per frequency, the word whose rows are
# nearest to it, asked of every class.  Per needle and class: EXPLAIN
# ANALYZE of the planner's plan and of each forced one (enable_bitmapscan
# and enable_indexscan off: the sequential scan; enable_seqscan off: the
# bitmap scan), then BENCH_SKIPPLAN_ROUNDS timed rounds (default 5), each
# round every case in every mode, so the rounds interleave and a burst of
# load on the shared machine falls on all alike; medians.  The queries run
# with PostgreSQL's default max_parallel_workers_per_gather = 2, as users
# run them.  Every count is checked against a sequential scan's.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

SPL_ROWS=${BENCH_SKIPPLAN_ROWS:-1000000}
SPL_ROUNDS=${BENCH_SKIPPLAN_ROUNDS:-5}
SPL_OUT=${BENCH_SKIPPLAN_OUT:-$BENCH_DIR/results/skipplan-latest.md}
SPL_CMDLINE=${SKIPPLAN_CMDLINE:-bench/skipplan.sh}

spl_sql() { psql_q -v VERBOSITY=terse "$@"; }
spl_q() { spl_sql -At -F $'\t' "$@"; }

# spl_text_lines N: N non-empty lines of the machine's changelogs, in the
# order of their files, as COPY text (backslashes doubled, tabs and
# carriage returns as spaces); the whole set again if there are fewer
spl_text_lines() {
	local n=$1 files tmp have f
	files=$(find /usr/share/doc -mindepth 2 -maxdepth 2 -type f -name 'changelog*' | sort)
	[ -n "$files" ] || { echo "skipplan: no changelogs in /usr/share/doc" >&2; return 1; }
	tmp=$(mktemp)
	for f in $files; do zcat -f "$f" 2>/dev/null || true; done | iconv -c -f utf-8 -t utf-8 |
		sed -e 's/\\/\\\\/g' -e 's/[\t\r]/ /g' -e 's/^ *//' -e 's/ *$//' | grep -v '^$' > "$tmp" || true
	have=$(wc -l < "$tmp")
	[ "$have" -gt 0 ] || { echo "skipplan: the changelogs hold no text" >&2; return 1; }
	SPL_DISTINCT_LINES=$have
	while [ "$n" -gt 0 ]; do head -n "$n" "$tmp"; n=$(( n - have )); done
	rm -f "$tmp"
}

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
spl_sql -f "$BENCH_DIR/skipplan.sql" >/dev/null
say "skipplan: loading $SPL_ROWS rows (two changelog lines each)"
t0=$(date +%s)
spl_text_lines $(( 2 * SPL_ROWS )) > "$PGTMP/lines.txt"
SPL_DISTINCT_LINES=$(sort -u "$PGTMP/lines.txt" | wc -l)
spl_sql -c "\\copy spl_lines(line) FROM '$PGTMP/lines.txt'"
rm -f "$PGTMP/lines.txt"
say "skipplan: tables and indexes"
spl_sql -c "SELECT spl_build($SPL_ROWS)" >/dev/null
spl_sql -c "TRUNCATE spl_lines"
for t in spl_text spl_ts spl_arr spl_js; do spl_sql -c "VACUUM ANALYZE $t"; done
LOAD_S=$(( $(date +%s) - t0 ))
say "skipplan: needles and the oracle (sequential scans)"
spl_sql -c "SELECT spl_cases($SPL_ROWS)" -c "SELECT spl_oracle()" >/dev/null
say "skipplan: plans (EXPLAIN ANALYZE)"
spl_sql -c "SELECT spl_explain()" >/dev/null
for r in $(seq 1 "$SPL_ROUNDS"); do
	say "skipplan: round $r of $SPL_ROUNDS"
	spl_sql -c "SELECT spl_round($r)" >/dev/null
done
T_END=$(date +%s)

# ---- the report ----
TABLE_INFO=$(spl_q <<SQL
SELECT format('%s rows (%s distinct changelog lines, two a row), mean %s bytes; text %s pages, tsvector %s, text[] %s, jsonb %s; loaded and indexed in $LOAD_S s',
	(SELECT count(*) FROM spl_text), $SPL_DISTINCT_LINES, (SELECT round(avg(octet_length(line))) FROM spl_text),
	pg_relation_size('spl_text') / 8192, pg_relation_size('spl_ts') / 8192,
	pg_relation_size('spl_arr') / 8192, pg_relation_size('spl_js') / 8192)
SQL
)
INDEXES=$(spl_q <<'SQL'
SELECT format('| %s | %s | %s | %s |', i.indexrelid::regclass, c.relname, pg_size_pretty(pg_relation_size(i.indexrelid)),
	(SELECT format('%s ranges, %s summarized', ranges, summarized_ranges) FROM bloomskip_info(i.indexrelid::regclass)))
  FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname LIKE 'spl\_%' ORDER BY 1::text;
SQL
)
ROWS=$(spl_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |',
	p.freq, p.cls, p.word, round(p.est_rows), p.expect,
	CASE WHEN p.plan LIKE '%Bitmap%' THEN 'bitmap' ELSE 'seq' END,
	f.heap_pages, round(p.ms::numeric, 1), round(s.ms::numeric, 1), round(f.ms::numeric, 1),
	round((p.ms / least(s.ms, f.ms))::numeric, 2),
	CASE WHEN p.wrong + s.wrong + f.wrong > 0 THEN 'WRONG COUNT'
		 WHEN p.ms / least(s.ms, f.ms) <= 1.3 THEN 'yes' ELSE 'MISS' END)
  FROM spl_sum p JOIN spl_sum s ON s.ord = p.ord AND s.mode = 'seq forced'
	JOIN spl_sum f ON f.ord = p.ord AND f.mode = 'index forced'
 WHERE p.mode = 'planner' ORDER BY p.ord;
SQL
)
SUMMARY=$(spl_q <<'SQL'
SELECT format('%s of %s cases within 1.3 x of the better plan; worst ratio %s (%s, %s); counts wrong: %s',
	count(*) FILTER (WHERE p.ms / least(s.ms, f.ms) <= 1.3), count(*),
	round(max(p.ms / least(s.ms, f.ms))::numeric, 2),
	(array_agg(p.cls ORDER BY p.ms / least(s.ms, f.ms) DESC))[1],
	(array_agg(p.freq ORDER BY p.ms / least(s.ms, f.ms) DESC))[1],
	sum(p.wrong + s.wrong + f.wrong))
  FROM spl_sum p JOIN spl_sum s ON s.ord = p.ord AND s.mode = 'seq forced'
	JOIN spl_sum f ON f.ord = p.ord AND f.mode = 'index forced'
 WHERE p.mode = 'planner';
SQL
)
SETTINGS=$(bench_settings)
{
	echo "# bloomskip: the planner's choice between the sequential scan and the index, by needle frequency"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$SPL_CMDLINE\` ($SPL_ROUNDS interleaved timed rounds, median); $(( T_END - T_START )) s in all"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work: plans, rows and pages are exact, times are not quiet)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | spl_q), bloomset $BUILD_REV; configuration: $BENCH_CONFIG ($SETTINGS); the queries run with max_parallel_workers_per_gather = 2 (PostgreSQL's default)"
	echo "- data: $TABLE_INFO"
	echo "- $SUMMARY"
	echo
	echo "| index | table | size | ranges |"
	echo "|---|---|---|---|"
	echo "$INDEXES"
	echo
	echo "Per needle: the planner's row estimate and the rows counted, the plan it chose, the heap pages the bitmap scan read (of the table's), the median times of the chosen plan and of each forced one, and the chosen plan's time over the better one's (goal: at most 1.3; below 1 is noise: the chosen plan is one of the forced ones, timed apart)."
	echo
	echo "| frequency | class | needle | estimated rows | rows | chosen | bitmap heap pages | chosen ms | seq scan ms | bitmap ms | chosen / better | within 1.3 |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	echo "$ROWS"
} | tee "$SPL_OUT"
