#!/usr/bin/env bash
# bench/skiptext.sh -- case group "skiptext" of bench/run.sh: bloomskip's
# classes for text search (ILIKE through text_ngram_ci_bloomskip_ops, ~ and
# ~* through text_ngram_bloomskip_ops and ~* through the ci class too)
# against pg_trgm's GIN index (gin_trgm_ops, which serves all of them), and
# tsvector_bloomskip_ops (@@) against GIN on tsvector, and the sequential
# scan.  Opt-in: BENCH_GROUPS=skiptext bash bench/run.sh, or directly bash
# bench/skiptext.sh.  Its own throwaway cluster, configured as
# bench_setup's default, and its own report, bench/results/skiptext-latest.md.
#
# Data: the log lines of bench/skipngram.sql (BENCH_SKIPTEXT_ROWS, default
# 1,000,000), and their to_tsvector('simple', ...) in a table of their own.
# Indexes, each alone on its table: none; pg_trgm GIN; bloomskip n-gram;
# bloomskip n-gram ci; on the tsvector table none, GIN and bloomskip.  Cases:
# a needle in one line by LIKE, ILIKE, ~, ~* and @@ (its lexemes); a rare
# event (one line in 10,007) by LIKE, ILIKE, ~ and @@; a common word (one
# line in 7) by LIKE, ~*, ILIKE and @@ (for bloomskip also forced both ways: a sequential
# scan and the bitmap scan over the index).  Per index and case: one round under EXPLAIN (ANALYZE,
# BUFFERS) (the planner's plan, shared buffers hit + read), then
# BENCH_SKIPTEXT_REPS timed rounds (default 3), median; every count checked
# against the sequential scan's.  Then BENCH_SKIPTEXT_APPEND lines (default
# as many as the table has, at most 1,000,000) are appended through each
# index (GIN with fastupdate on, its default): the time and what the index
# grew by; they are deleted again before the next index.
# The machine may be shared: sizes and buffers are exact, times carry the
# load average printed in the report.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

STX_ROWS=${BENCH_SKIPTEXT_ROWS:-1000000}
STX_REPS=${BENCH_SKIPTEXT_REPS:-3}
STX_APPEND=${BENCH_SKIPTEXT_APPEND:-$(( STX_ROWS < 1000000 ? STX_ROWS : 1000000 ))}
STX_OUT=${BENCH_SKIPTEXT_OUT:-$BENCH_DIR/results/skiptext-latest.md}
STX_CMDLINE=${SKIPTEXT_CMDLINE:-bench/skiptext.sh}

stx_sql() { psql_q -v VERBOSITY=terse "$@"; }
stx_q() { stx_sql -At -F $'\t' "$@"; }

# label|table|DDL of the index (none: no index)
stx_indexes() {
	cat <<'EOF2'
none|logs|
pg_trgm GIN|logs|CREATE INDEX logs_ix ON logs USING gin (msg gin_trgm_ops)
bloomskip n-gram|logs|CREATE INDEX logs_ix ON logs USING bloomskip (msg text_ngram_bloomskip_ops)
bloomskip n-gram ci|logs|CREATE INDEX logs_ix ON logs USING bloomskip (msg text_ngram_ci_bloomskip_ops)
none (tsvector)|logs_ts|
tsvector GIN|logs_ts|CREATE INDEX logs_ix ON logs_ts USING gin (tsv)
bloomskip tsvector|logs_ts|CREATE INDEX logs_ix ON logs_ts USING bloomskip (tsv)
EOF2
}

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
stx_sql -f "$BENCH_DIR/skipngram.sql" >/dev/null
stx_sql -f "$BENCH_DIR/skiptext.sql" >/dev/null
say "skiptext: loading $STX_ROWS rows"
t0=$(date +%s)
echo "SELECT sng_load($STX_ROWS); SELECT stx_load_more($STX_ROWS, $STX_APPEND); SELECT stx_cases($STX_ROWS);" | stx_sql >/dev/null
echo "VACUUM ANALYZE logs; VACUUM ANALYZE logs_ts;" | stx_sql
LOAD_S=$(( $(date +%s) - t0 ))
declare -A LOADED_PAGES
for t in logs logs_ts; do
	LOADED_PAGES[$t]=$(bench_pages "$t")
done
say "skiptext: the oracle (sequential scans)"
echo "SELECT stx_oracle();" | stx_sql >/dev/null
while IFS='|' read -r label tbl ddl; do
	say "skiptext: $label: build"
	if [ -n "$ddl" ]; then
		printf "SELECT sng_build('%s', '%s');\n" "$label" "${ddl//\'/\'\'}" | stx_sql >/dev/null
		echo "VACUUM ANALYZE $tbl;" | stx_sql
	else
		echo "SELECT sng_build('$label', NULL);" | stx_sql >/dev/null
	fi
	say "skiptext: $label: lookups"
	echo "SELECT stx_measure('$label', $STX_REPS);" | stx_sql >/dev/null
	[ -n "$ddl" ] || continue
	say "skiptext: $label: appends"
	echo "SELECT stx_append_rows('$label');" | stx_sql >/dev/null
	echo "DROP INDEX logs_ix; DELETE FROM $tbl WHERE id > $STX_ROWS;" | stx_sql
	echo "VACUUM $tbl;" | stx_sql
	bench_shrink_back "$tbl" "${LOADED_PAGES[$tbl]}"
done < <(stx_indexes)
T_END=$(date +%s)

# ---- the report ----
TABLE_INFO=$(echo "SELECT format('%s rows, %s pages, %s, mean line %s bytes; their tsvectors %s pages, %s; loaded in $LOAD_S s', count(*), pg_relation_size('logs') / 8192, pg_size_pretty(pg_relation_size('logs')), round(avg(octet_length(msg))), pg_relation_size('logs_ts') / 8192, pg_size_pretty(pg_relation_size('logs_ts'))) FROM logs" | stx_q)
CASES=$(stx_q <<'SQL'
SELECT format('- %s: `%s`, %s rows', kase, cond, expect) FROM stx_case ORDER BY ord;
SQL
)
INDEXES=$(stx_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', i.idx, coalesce(pg_size_pretty(i.bytes), '-'),
	coalesce(round((i.build_ms / 1000)::numeric, 1)::text, '-'),
	coalesce(round((a.ms / 1000)::numeric, 1)::text, '-'),
	coalesce(pg_size_pretty(a.bytes_after - a.bytes_before), '-'),
	coalesce(a.rows::text, '-'), coalesce(i.info, ''))
  FROM sng_idx i LEFT JOIN stx_append a ON a.idx = i.idx ORDER BY i.ord;
SQL
)
ROWS=$(stx_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', s.kase, s.idx, s.mode, s.buffers, round(s.ms::numeric, 1), s.plan,
	CASE WHEN s.wrong = 0 THEN 'yes' ELSE 'NO' END)
  FROM stx_sum s JOIN sng_idx i ON i.idx = s.idx
 ORDER BY s.ord, i.ord, array_position(ARRAY['seq forced', 'planner', 'index forced'], s.mode);
SQL
)
RATIOS=$(stx_q <<'SQL'
SELECT format('| %s / %s | %s | %s | %s | %s |', b.idx, g.idx, round((b.bytes::numeric / g.bytes), 3),
	round((b.build_ms / g.build_ms)::numeric, 2),
	(SELECT format('time x%s, growth x%s', round((ab.ms / ag.ms)::numeric, 2),
		round((ab.bytes_after - ab.bytes_before)::numeric / nullif(ag.bytes_after - ag.bytes_before, 0), 3))
	   FROM stx_append ab, stx_append ag WHERE ab.idx = b.idx AND ag.idx = g.idx),
	(SELECT string_agg(format('%s: buffers x%s, ms x%s', sb.kase,
		round(sb.buffers::numeric / nullif(sg.buffers, 0), 2), round((sb.ms / nullif(sg.ms, 0))::numeric, 2)), '; ' ORDER BY sb.ord)
	   FROM stx_sum sb JOIN stx_sum sg ON sg.kase = sb.kase AND sg.idx = g.idx AND sg.mode = 'planner'
	  WHERE sb.idx = b.idx AND sb.mode = 'planner'))
  FROM stx_anchor x JOIN sng_idx b ON b.idx = x.idx JOIN sng_idx g ON g.idx = x.anchor ORDER BY b.ord;
SQL
)
# (a needle the class does not serve -- ILIKE on the case-sensitive class --
# runs as a sequential scan however it is forced: no row)
COMMON=$(stx_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s |', p.kase, p.idx, round(p.ms::numeric, 1), round(s.ms::numeric, 1),
	round(f.ms::numeric, 1), round((p.ms / least(s.ms, f.ms))::numeric, 2))
  FROM stx_sum p JOIN stx_sum s ON s.idx = p.idx AND s.kase = p.kase AND s.mode = 'seq forced'
	JOIN stx_sum f ON f.idx = p.idx AND f.kase = p.kase AND f.mode = 'index forced'
	JOIN sng_idx i ON i.idx = p.idx
 WHERE p.mode = 'planner' AND f.plan LIKE '%Index Scan%' ORDER BY p.ord, i.ord;
SQL
)
SETTINGS=$(bench_settings)
{
	echo "# bloomskip for text search against GIN: ILIKE, ~, ~* (pg_trgm), @@ (tsvector)"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$STX_CMDLINE\` (${STX_REPS} timed rounds, median); $(( T_END - T_START )) s in all"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work: sizes and buffers are exact, times are not quiet)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | stx_q), bloomset $BUILD_REV, pg_trgm $(echo "SELECT extversion FROM pg_extension WHERE extname = 'pg_trgm'" | stx_q); configuration: $BENCH_CONFIG ($SETTINGS)"
	echo "- table: $TABLE_INFO"
	echo "- cases (the planner chooses the plan; counts checked against one sequential scan before any index):"
	echo "$CASES"
	echo
	echo "| index | size | build s | append s | index grew by | rows appended | parameters |"
	echo "|---|---|---|---|---|---|---|"
	echo "$INDEXES"
	echo
	echo "| case | index | plan chosen by | buffers | ms | plan | count = seq scan |"
	echo "|---|---|---|---|---|---|---|"
	echo "$ROWS"
	echo
	echo "| ratio | size | build | appends | lookups |"
	echo "|---|---|---|---|---|"
	echo "$RATIOS"
	echo
	echo "| common needle | index | planner ms | seq scan ms | forced bitmap ms | planner / better |"
	echo "|---|---|---|---|---|---|"
	echo "$COMMON"
} | tee "$STX_OUT"
