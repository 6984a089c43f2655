#!/usr/bin/env bash
# bench/joinfilter.sh -- case group "joinfilter" of bench/run.sh: how much
# faster do hash joins run with bloomset.runtime_filter on than off?
# Opt-in: BENCH_GROUPS=joinfilter bash bench/run.sh, or directly bash
# bench/joinfilter.sh.  Its own throwaway cluster, configured as
# bench_setup's default, with bloomset in shared_preload_libraries (the way
# runtime filters are enabled), and its own report,
# bench/results/joinfilter-latest.md.
#
# Data (bench/joinfilter.sql): a star schema generated in SQL, a fact table
# of BENCH_JOINFILTER_ROWS rows (default 5,000,000) in date order and its
# dimensions of dates, customers, suppliers and parts; the fact table's
# dates again with a bloomskip index.  Per case: EXPLAIN (ANALYZE, BUFFERS)
# in both settings (runtime filter nodes in the plan, rows they removed,
# temporary blocks written), then BENCH_JOINFILTER_ROUNDS timed rounds
# (default 5), each round every case off and on, the setting first in turn;
# medians; the planning time of the star query, 20 EXPLAINs per setting,
# interleaved.  Every round's answer is compared with the setting off's.
# The queries run serially (max_parallel_workers_per_gather = 0) unless the
# case says 2 workers.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

JF_ROWS=${BENCH_JOINFILTER_ROWS:-5000000}
JF_ROUNDS=${BENCH_JOINFILTER_ROUNDS:-5}
JF_OUT=${BENCH_JOINFILTER_OUT:-$BENCH_DIR/results/joinfilter-latest.md}
JF_CMDLINE=${JOINFILTER_CMDLINE:-bench/joinfilter.sh}

jf_sql() { psql_q -v VERBOSITY=terse "$@"; }
jf_q() { jf_sql -At -F $'\t' "$@"; }

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
# runtime filters need the library loaded at server start
echo "ALTER SYSTEM SET shared_preload_libraries = 'bloomset'" | jf_sql
as_pg env ${PG_SERVER_ENV:-} "$PG_BIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/server.log" -w restart >/dev/null
HAS_RF=$(jf_q -c "SELECT count(*) FROM pg_settings WHERE name = 'bloomset.runtime_filter'")
[ "$HAS_RF" = 1 ] || say "joinfilter: this build has no bloomset.runtime_filter: both settings run alike"
jf_sql -f "$BENCH_DIR/joinfilter.sql" >/dev/null
say "joinfilter: loading $JF_ROWS facts and the dimensions"
t0=$(date +%s)
jf_sql -c "SELECT jf_build($JF_ROWS)" >/dev/null
for t in jf_date jf_customer jf_supplier jf_part jf_fact jf_fact_s; do jf_sql -c "VACUUM ANALYZE $t"; done
LOAD_S=$(( $(date +%s) - t0 ))
jf_sql -c "SELECT jf_cases()" >/dev/null
say "joinfilter: plans (EXPLAIN ANALYZE, BUFFERS)"
jf_sql -c "SELECT jf_explain()" >/dev/null
say "joinfilter: planning time"
jf_sql -c "SELECT jf_planning(20)" >/dev/null
for r in $(seq 1 "$JF_ROUNDS"); do
	say "joinfilter: round $r of $JF_ROUNDS"
	jf_sql -c "SELECT jf_round($r)" >/dev/null
done
T_END=$(date +%s)

# ---- the report ----
TABLE_INFO=$(jf_q <<SQL
SELECT format('%s facts in date order (%s pages), %s dates, %s customers, %s suppliers, %s parts; a copy of the facts'' dates and quantities (%s pages) with a bloomskip index on the date (%s); loaded in $LOAD_S s',
	(SELECT count(*) FROM jf_fact), pg_relation_size('jf_fact') / 8192, (SELECT count(*) FROM jf_date),
	(SELECT count(*) FROM jf_customer), (SELECT count(*) FROM jf_supplier), (SELECT count(*) FROM jf_part),
	pg_relation_size('jf_fact_s') / 8192, pg_size_pretty(pg_relation_size('jf_fact_s_date')))
SQL
)
# ratio of a case: median on / median off
ROWS=$(jf_q <<'SQL'
WITH s AS (
	SELECT f.ord, f.name, f.goal, f.ms AS off_ms, o.ms AS on_ms, o.ms / f.ms AS ratio,
		   o.has_filter, o.removed, f.temp_written AS off_temp, o.temp_written AS on_temp,
		   (SELECT count(DISTINCT answer) FROM jf_r r WHERE r.ord = f.ord AND r.rnd > 0) = 1 AS same
	  FROM jf_sum f JOIN jf_sum o ON o.ord = f.ord AND o.rf = 'on' WHERE f.rf = 'off'),
g AS (
	SELECT s.*, CASE s.ord
		WHEN 1 THEN s.ratio <= 0.85 WHEN 2 THEN s.ratio <= 0.65
		WHEN 3 THEN s.ratio <= 0.6 AND coalesce(s.on_temp, 0) <= 0.2 * s.off_temp
		WHEN 4 THEN s.ratio <= 0.2 WHEN 5 THEN s.ratio <= 1.05 WHEN 6 THEN s.ratio <= 1.05
		WHEN 7 THEN abs(s.ratio - (SELECT ratio FROM s s1 WHERE s1.ord = 1)) <= 0.1
		WHEN 8 THEN abs(s.ratio - (SELECT ratio FROM s s2 WHERE s2.ord = 2)) <= 0.1
		WHEN 9 THEN s.ratio <= 1.05 END AS met
	  FROM s)
SELECT format('| %s | %s | %s | %s | %s | %s%s | %s | %s | %s | %s |',
	ord, name, round(off_ms::numeric), round(on_ms::numeric), round(ratio::numeric, 2),
	goal,
	CASE ord WHEN 3 THEN format('; temp blocks written %s -> %s (%s %%, goal -80 %%)', off_temp, coalesce(on_temp, 0),
							 round(100.0 * (coalesce(on_temp, 0) - off_temp) / nullif(off_temp, 0)))
			 WHEN 7 THEN format(' (%s)', round((ratio - (SELECT ratio FROM s s1 WHERE s1.ord = 1))::numeric, 2))
			 WHEN 8 THEN format(' (%s)', round((ratio - (SELECT ratio FROM s s2 WHERE s2.ord = 2))::numeric, 2))
			 ELSE '' END,
	CASE WHEN met THEN 'met' ELSE 'missed' END,
	CASE WHEN same THEN 'yes' ELSE 'NO' END,
	CASE WHEN has_filter THEN 'yes' ELSE 'no' END, removed)
  FROM g ORDER BY ord;
SQL
)
PLANNING=$(jf_q <<'SQL'
SELECT format('| P | planning time of the star (20 EXPLAINs per setting, median) | %s | %s | %s%s ms | <= 1 ms | %s | | | |',
	round(f::numeric, 2), round(o::numeric, 2), CASE WHEN o >= f THEN '+' ELSE '' END, round((o - f)::numeric, 2), CASE WHEN o - f <= 1 THEN 'met' ELSE 'missed' END)
  FROM (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY planning_ms) FILTER (WHERE rf = 'off') AS f,
			   percentile_cont(0.5) WITHIN GROUP (ORDER BY planning_ms) FILTER (WHERE rf = 'on') AS o
		  FROM jf_r WHERE ord = -2) p;
SQL
)
SUMMARY=$(jf_q <<'SQL'
SELECT format('answers: %s of %s cases the same in every round with the setting off and on',
	count(*) FILTER (WHERE n = 1), count(*))
  FROM (SELECT ord, count(DISTINCT answer) AS n FROM jf_r WHERE rnd > 0 AND ord > 0 GROUP BY ord) a;
SQL
)
STAR_PLAN=$(jf_q -c "SELECT jf_explain_text(2, 'on')")
SETTINGS=$(bench_settings)
RF_DEFAULT=$(jf_q -c "SELECT coalesce((SELECT boot_val FROM pg_settings WHERE name = 'bloomset.runtime_filter'), 'absent from this build')")
{
	echo "# Runtime join filters: hash joins of a star schema with bloomset.runtime_filter off and on"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$JF_CMDLINE\` ($JF_ROUNDS interleaved timed rounds, median); $(( T_END - T_START )) s in all"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work: plans, rows and blocks are exact, times are not quiet)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | jf_q), bloomset $BUILD_REV, in shared_preload_libraries; bloomset.runtime_filter's default: $RF_DEFAULT; configuration: $BENCH_CONFIG ($SETTINGS)"
	echo "- data: $TABLE_INFO"
	echo "- $SUMMARY"
	echo
	echo "Per case: the median times with the setting off and on, their ratio (on / off) against the goal, whether every round gave the same answer (count and sum of the rows) in both settings, and, from EXPLAIN (ANALYZE, BUFFERS) with the setting on, whether the plan had a runtime filter and the rows it removed.  Cases 7 and 8 are 1 and 2 with 2 workers: their goal is a ratio within 0.1 of the serial one.  Case 4 turns nested loops off (in both settings): left to itself the planner joins a week of dates by a nested loop over the bloomskip index, case 9, already fast with the setting off."
	echo
	echo "| case | query | off ms | on ms | on / off | goal | met | same answer | filter in plan | rows removed by runtime filter |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	echo "$ROWS"
	echo "$PLANNING"
	echo
	echo "The star (case 2) with the setting on: EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF)"
	echo
	echo '```'
	echo "$STAR_PLAN"
	echo '```'
} | tee "$JF_OUT"
