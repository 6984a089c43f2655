#!/usr/bin/env bash
# bench/skipngram.sh -- case group "skipngram" of bench/run.sh: bloomskip's
# n-gram operator class (text_ngram_bloomskip_ops) against pg_trgm's GIN
# index (gin_trgm_ops) and the sequential scan, for LIKE '%needle%' on log
# lines.  Opt-in: runs only when BENCH_GROUPS names it, e.g.
#     BENCH_GROUPS=skipngram bash bench/run.sh
# (or directly: bash bench/skipngram.sh).  Its own throwaway cluster,
# configured as bench_setup's default (PostgreSQL's defaults for memory,
# see lib_bench.sh), and its own report, bench/results/skipngram-latest.md.
#
# Data (bench/skipngram.sql): BENCH_SKIPNGRAM_ROWS log lines (default
# 5,000,000) of about 80 bytes, generated in SQL.  Indexes, each alone on
# the table (build, measure, drop): none; pg_trgm GIN (gin_trgm_ops, its
# defaults); bloomskip n-gram (its defaults: n = 3, 16 pages a range); the
# same with 4 pages a range (fewer heap pages read per range that matches).
# Cases: a needle in one line, a rare event in about one line in 10,000,
# a word in one line in 7 (every range).  Per index and case: one round under EXPLAIN
# (ANALYZE, BUFFERS) (the plan the planner chose, shared buffers hit +
# read), then BENCH_SKIPNGRAM_REPS timed rounds (default 5), median; every
# count checked against the sequential scan's (the oracle, before any
# index).
#
# Environment: BENCH_SKIPNGRAM_ROWS, BENCH_SKIPNGRAM_REPS,
# BENCH_SKIPNGRAM_OUT (the report).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

SNG_ROWS=${BENCH_SKIPNGRAM_ROWS:-5000000}
SNG_REPS=${BENCH_SKIPNGRAM_REPS:-5}
SNG_OUT=${BENCH_SKIPNGRAM_OUT:-$BENCH_DIR/results/skipngram-latest.md}
SNG_CMDLINE=${SKIPNGRAM_CMDLINE:-bench/skipngram.sh}

sng_sql() { psql_q -v VERBOSITY=terse "$@"; }
sng_q() { sng_sql -At -F $'\t' "$@"; }

# label|DDL of the index (none: no index)
sng_indexes() {
	cat <<'EOF2'
none|
pg_trgm GIN|CREATE INDEX logs_ix ON logs USING gin (msg gin_trgm_ops)
bloomskip n-gram|CREATE INDEX logs_ix ON logs USING bloomskip (msg text_ngram_bloomskip_ops)
bloomskip n-gram, 4 pages a range|CREATE INDEX logs_ix ON logs USING bloomskip (msg text_ngram_bloomskip_ops) WITH (pages_per_range = 4)
EOF2
}

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
sng_sql -f "$BENCH_DIR/skipngram.sql" >/dev/null
say "skipngram: loading $SNG_ROWS rows"
t0=$(date +%s)
echo "SELECT sng_load($SNG_ROWS);" | sng_sql >/dev/null
echo "VACUUM ANALYZE logs;" | sng_sql
LOAD_S=$(( $(date +%s) - t0 ))
say "skipngram: the oracle (sequential scans)"
echo "SELECT sng_oracle();" | sng_sql >/dev/null
while IFS='|' read -r label ddl; do
	say "skipngram: $label: build"
	if [ -n "$ddl" ]; then
		printf "SELECT sng_build('%s', '%s');\n" "$label" "${ddl//\'/\'\'}" | sng_sql >/dev/null
		echo "VACUUM ANALYZE logs;" | sng_sql
	else
		echo "SELECT sng_build('$label', NULL);" | sng_sql >/dev/null
	fi
	say "skipngram: $label: lookups"
	echo "SELECT sng_measure('$label', $SNG_REPS);" | sng_sql >/dev/null
	[ -z "$ddl" ] || echo "DROP INDEX logs_ix;" | sng_sql
done < <(sng_indexes)
T_END=$(date +%s)

# ---- the report ----
f1() { printf "%s" "$1"; }
TABLE_INFO=$(echo "SELECT format('%s rows, %s pages, %s, mean line %s bytes; loaded in $LOAD_S s', count(*), pg_relation_size('logs') / 8192, pg_size_pretty(pg_relation_size('logs')), round(avg(octet_length(msg)))) FROM logs" | sng_q)
CASES=$(sng_q <<'SQL'
SELECT format('- %s: `LIKE ''%s''`, %s rows', kase, pattern, expect) FROM sng_case ORDER BY ord;
SQL
)
ROWS=$(sng_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s |', i.idx,
	coalesce(pg_size_pretty(i.bytes), '-'), coalesce(round((i.build_ms / 1000)::numeric, 1)::text, '-'),
	(SELECT string_agg(format('%s ms, %s buf', round(s.ms::numeric, 1), s.buffers), ' | ' ORDER BY s.ord)
	   FROM sng_sum s WHERE s.idx = i.idx AND s.ord <= 2),
	(SELECT round(s.ms::numeric, 1) FROM sng_sum s WHERE s.idx = i.idx AND s.ord = 3),
	(SELECT s.buffers FROM sng_sum s WHERE s.idx = i.idx AND s.ord = 3),
	(SELECT string_agg(format('%s: `%s`', split_part(s.kase, ' ', 1), s.plan), '; ' ORDER BY s.ord)
	   FROM sng_sum s WHERE s.idx = i.idx),
	(SELECT CASE WHEN sum(s.wrong) = 0 THEN 'yes' ELSE 'NO' END FROM sng_sum s WHERE s.idx = i.idx),
	coalesce(i.info, ''))
  FROM sng_idx i ORDER BY i.ord;
SQL
)
RATIOS=$(sng_q <<'SQL'
WITH b AS (SELECT * FROM sng_idx WHERE idx LIKE 'bloomskip%'),
	 g AS (SELECT * FROM sng_idx WHERE idx = 'pg_trgm GIN')
SELECT format('| %s / pg_trgm GIN | %s | %s | %s |', b.idx, round((b.bytes::numeric / g.bytes), 3),
	round((b.build_ms / g.build_ms)::numeric, 2),
	(SELECT string_agg(format('%s ms x%s, buffers x%s', split_part(sb.kase, ' ', 1),
		round((sb.ms / sg.ms)::numeric, 2), round(sb.buffers::numeric / nullif(sg.buffers, 0), 2)), '; ' ORDER BY sb.ord)
	   FROM sng_sum sb JOIN sng_sum sg ON sg.kase = sb.kase AND sg.idx = g.idx WHERE sb.idx = b.idx))
  FROM b, g ORDER BY b.ord;
SQL
)
SETTINGS=$(bench_settings)
{
	echo "# bloomskip n-gram opclass against pg_trgm GIN: LIKE '%needle%'"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$SNG_CMDLINE\` (${SNG_REPS} timed rounds, median); $(( T_END - T_START )) s in all"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | sng_q), bloomset $BUILD_REV, pg_trgm $(echo "SELECT extversion FROM pg_extension WHERE extname = 'pg_trgm'" | sng_q); configuration: $BENCH_CONFIG ($SETTINGS)"
	echo "- table: $TABLE_INFO"
	echo "- cases (the planner chooses the plan; counts checked against one sequential scan before any index):"
	echo "$CASES"
	echo
	echo "| index | size | build s | rare | medium | common ms | common buffers | plans | counts = seq scan | parameters |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	echo "$ROWS"
	echo
	echo "| ratio | size | build | lookups |"
	echo "|---|---|---|---|"
	echo "$RATIOS"
} | tee "$SNG_OUT"
