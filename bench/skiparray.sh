#!/usr/bin/env bash
# bench/skiparray.sh -- case group "skiparray" of bench/run.sh: bloomskip's
# array and jsonb classes (array_bloomskip_ops, jsonb_bloomskip_ops) against
# GIN (array_ops on text[] and bigint[]; jsonb_ops and jsonb_path_ops on
# jsonb) and the sequential scan.  Opt-in: BENCH_GROUPS=skiparray bash
# bench/run.sh, or directly bash bench/skiparray.sh.  Its own throwaway
# cluster, configured as bench_setup's default, and its own report,
# bench/results/skiparray-latest.md.
#
# Data: the events of bench/skiparray.sql (BENCH_SKIPARRAY_ROWS, default
# 1,000,000), a text[] of tags, a bigint[] of ids and a jsonb of
# attributes.  Indexes, each alone on its column: none; GIN; bloomskip at
# the default pages_per_range and at 4 (a rare value's heap pages against
# the index's size).
# Per index: the build (time, size); appends (BENCH_SKIPARRAY_APPEND events,
# default a fifth of the rows, made once into a table of their own, inserted
# in batches of 10,000 into the table with the index after a checkpoint
# and sync, the fastest of BENCH_SKIPARRAY_APPEND_ROUNDS rounds (default 3:
# one round's time moved by up to twice between runs on a shared machine),
# against the same appends into the table without it, run right before the
# build, the fastest of as many; deleted again and vacuumed away after each
# round, untimed; GIN's pending list is flushed as its inserts fill it, what
# is left pending at the end is not counted); the cases of
# its column: one round under EXPLAIN (ANALYZE, BUFFERS) (the planner's plan,
# shared buffers hit + read, split into the index scan's and the heap pages
# visited; for bloomskip, the ranges returned against those holding a
# matching row), then BENCH_SKIPARRAY_REPS timed rounds (default
# 3), median, every count checked against the sequential scan's; for
# bloomskip, the common cases also as a forced sequential scan and a forced
# bitmap scan, the three plans' rounds interleaved.  Last, the size sweep:
# for each d of BENCH_SKIPARRAY_KEYS (default "10 100 1000 5000"), a table
# of BENCH_SKIPARRAY_ROWS rows of 8 tags with d distinct tags in every
# range, and the size and build time of bloomskip and GIN on it.  The machine may be shared: sizes and buffers are exact,
# times carry the load average printed in the report.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

SKA_ROWS=${BENCH_SKIPARRAY_ROWS:-1000000}
SKA_APPEND=${BENCH_SKIPARRAY_APPEND:-$(( SKA_ROWS / 5 ))}
SKA_REPS=${BENCH_SKIPARRAY_REPS:-3}
SKA_APPEND_ROUNDS=${BENCH_SKIPARRAY_APPEND_ROUNDS:-3}
# the distinct tags per range of the size sweep (empty: no sweep)
SKA_KEYS=${BENCH_SKIPARRAY_KEYS-10 100 1000 5000}
SKA_OUT=${BENCH_SKIPARRAY_OUT:-$BENCH_DIR/results/skiparray-latest.md}
SKA_CMDLINE=${SKIPARRAY_CMDLINE:-bench/skiparray.sh}

ska_sql() { psql_q -v VERBOSITY=terse "$@"; }
ska_q() { ska_sql -At -F $'\t' "$@"; }

# Before a timed append: a checkpoint, then the operating system's
# writeback of what it and the last VACUUM (FULL) wrote (the cluster runs
# with fsync = off, so without sync that writeback ran during the timed
# append, and the same baseline moved by a half between runs)
ska_quiesce() {
	echo "CHECKPOINT;" | ska_sql
	sync
}

# ska_append_rounds LABEL BASELINE: SKA_APPEND_ROUNDS timed appends (ska_append
# keeps the fastest), each deleted and vacuumed away, untimed
ska_append_rounds() {
	for _ in $(seq "$SKA_APPEND_ROUNDS"); do
		ska_quiesce
		echo "SELECT ska_append('$1', $SKA_ROWS, $SKA_APPEND, $2);" | ska_sql >/dev/null
		echo "VACUUM ev;" | ska_sql
		bench_shrink_back ev "$LOADED_PAGES"
	done
}

# label|column|DDL of the index (none: no index, every column)
ska_indexes() {
	cat <<'EOF2'
none||
GIN array_ops tags|tags|CREATE INDEX ev_ix ON ev USING gin (tags)
bloomskip tags|tags|CREATE INDEX ev_ix ON ev USING bloomskip (tags)
GIN array_ops ids|ids|CREATE INDEX ev_ix ON ev USING gin (ids)
bloomskip ids|ids|CREATE INDEX ev_ix ON ev USING bloomskip (ids)
GIN jsonb_ops attrs|attrs|CREATE INDEX ev_ix ON ev USING gin (attrs)
GIN jsonb_path_ops attrs|attrs|CREATE INDEX ev_ix ON ev USING gin (attrs jsonb_path_ops)
bloomskip attrs|attrs|CREATE INDEX ev_ix ON ev USING bloomskip (attrs)
bloomskip tags, pages_per_range 4|tags|CREATE INDEX ev_ix ON ev USING bloomskip (tags) WITH (pages_per_range = 4)
bloomskip ids, pages_per_range 4|ids|CREATE INDEX ev_ix ON ev USING bloomskip (ids) WITH (pages_per_range = 4)
bloomskip attrs, pages_per_range 4|attrs|CREATE INDEX ev_ix ON ev USING bloomskip (attrs) WITH (pages_per_range = 4)
EOF2
}

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
ska_sql -f "$BENCH_DIR/skipngram.sql" >/dev/null
ska_sql -f "$BENCH_DIR/skiparray.sql" >/dev/null
say "skiparray: loading $SKA_ROWS rows"
t0=$(date +%s)
echo "SELECT ska_load($SKA_ROWS);" | ska_sql >/dev/null
echo "VACUUM ANALYZE ev;" | ska_sql
LOAD_S=$(( $(date +%s) - t0 ))
LOADED_PAGES=$(bench_pages ev)
echo "SELECT ska_prepare_appends($SKA_ROWS, $SKA_APPEND); CHECKPOINT;" | ska_sql >/dev/null
say "skiparray: the oracle (sequential scans)"
echo "SELECT ska_oracle();" | ska_sql >/dev/null
while IFS='|' read -r label col ddl; do
	if [ -n "$ddl" ]; then
		say "skiparray: $label: $SKA_APPEND appended events without an index (its baseline)"
		ska_append_rounds "$label" true
	fi
	say "skiparray: $label: build"
	if [ -n "$ddl" ]; then
		printf "SELECT ska_build('%s', '%s', '%s');\n" "$label" "$col" "${ddl//\'/\'\'}" | ska_sql >/dev/null
		echo "VACUUM ANALYZE ev;" | ska_sql
	else
		echo "SELECT ska_build('$label', NULL, NULL);" | ska_sql >/dev/null
	fi
	say "skiparray: $label: lookups"
	if [ -n "$col" ]; then
		echo "SELECT ska_measure('$label', '$col', $SKA_REPS);" | ska_sql >/dev/null
	else
		echo "SELECT ska_measure('$label', NULL, $SKA_REPS);" | ska_sql >/dev/null
	fi
	say "skiparray: $label: $SKA_APPEND appended events"
	ska_append_rounds "$label" false
	[ -z "$ddl" ] || echo "DROP INDEX ev_ix;" | ska_sql
done < <(ska_indexes)
for d in $SKA_KEYS; do
	say "skiparray: index size at $d distinct tags per range"
	echo "SELECT ska_kpr($SKA_ROWS, $d);" | ska_sql >/dev/null
done
T_END=$(date +%s)

# ---- the report ----
TABLE_INFO=$(echo "SELECT format('%s rows, %s pages, %s; loaded in $LOAD_S s', count(*), pg_relation_size('ev') / 8192, pg_size_pretty(pg_total_relation_size('ev'))) FROM ev" | ska_q)
CASES=$(ska_q <<'SQL'
SELECT format('- %s: `%s`, %s rows', kase, cond, expect) FROM ska_case ORDER BY ord;
SQL
)
INDEXES=$(ska_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s |', idx, coalesce(pg_size_pretty(bytes), '-'),
	coalesce(round((build_ms / 1000)::numeric, 1)::text, '-'),
	round((append_ms / 1000)::numeric, 1) || coalesce(' (without it: ' || round((b.base_ms / 1000)::numeric, 1)
		|| '; the index: ' || round(((append_ms - b.base_ms) / 1000)::numeric, 1) || ')', ''),
	coalesce(info, ''))
  FROM ska_idx LEFT JOIN ska_base b USING (idx) ORDER BY ord;
SQL
)
ROWS=$(ska_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s |', s.kase, s.idx, s.mode, s.buffers,
	coalesce(s.index_buffers || ' + ' || s.heap_pages, '-'),
	coalesce(g.returned || ' / ' || g.holding || ' (+' || g.tail_pages || ')', '-'),
	round(s.ms::numeric, 2), s.plan, CASE WHEN s.wrong = 0 THEN 'yes' ELSE 'NO' END)
  FROM ska_sum s JOIN ska_idx i ON i.idx = s.idx
	LEFT JOIN ska_ranges g ON g.idx = s.idx AND g.kase = s.kase AND s.mode = 'planner'
 ORDER BY s.ord, i.ord, s.mode DESC;
SQL
)
# bloomskip against each GIN of its column: size, build, appends' own cost,
# and per case buffers and time
RATIOS=$(ska_q <<'SQL'
SELECT format('| %s / %s | %s | %s | %s | %s |', b.idx, g.idx, round((b.bytes::numeric / g.bytes), 3),
	round((b.build_ms / g.build_ms)::numeric, 2),
	round(((b.append_ms - bb.base_ms) / nullif(g.append_ms - gb.base_ms, 0))::numeric, 2),
	(SELECT string_agg(format('%s: buffers %s / %s, ms %s / %s', sb.kase, sb.buffers, sg.buffers,
		round(sb.ms::numeric, 2), round(sg.ms::numeric, 2)), '; ' ORDER BY sb.ord)
	   FROM ska_sum sb JOIN ska_sum sg ON sg.kase = sb.kase AND sg.idx = g.idx AND sg.mode = 'planner'
	  WHERE sb.idx = b.idx AND sb.mode = 'planner'))
  FROM ska_idx b JOIN ska_idx g ON g.col = b.col AND g.idx LIKE 'GIN%'
	JOIN ska_base bb ON bb.idx = b.idx JOIN ska_base gb ON gb.idx = g.idx
 WHERE b.idx LIKE 'bloomskip%' ORDER BY b.ord, g.ord;
SQL
)
COMMON=$(ska_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', p.kase, p.idx,
	CASE p.plan WHEN s.plan THEN 'the sequential scan' WHEN f.plan THEN 'the bitmap scan' ELSE p.plan END,
	round(p.ms::numeric, 1), round(s.ms::numeric, 1),
	round(f.ms::numeric, 1), round((p.ms / least(s.ms, f.ms))::numeric, 2))
  FROM ska_sum p JOIN ska_sum s ON s.idx = p.idx AND s.kase = p.kase AND s.mode = 'seq forced'
	JOIN ska_sum f ON f.idx = p.idx AND f.kase = p.kase AND f.mode = 'index forced'
 WHERE p.mode = 'planner' ORDER BY p.ord;
SQL
)
KPR=$(ska_q <<'SQL'
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', b.d, round(b.keys_per_range), b.bits_per_range,
	pg_size_pretty(b.bytes), pg_size_pretty(g.bytes), round(b.bytes::numeric / g.bytes, 3),
	round((b.build_ms / 1000)::numeric, 1) || ' / ' || round((g.build_ms / 1000)::numeric, 1))
  FROM ska_kpr_r b JOIN ska_kpr_r g ON g.d = b.d AND g.idx LIKE 'GIN%'
 WHERE b.idx = 'bloomskip' ORDER BY b.d;
SQL
)
SETTINGS=$(bench_settings)
{
	echo "# bloomskip array and jsonb classes against GIN: tags, ids, attributes"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$SKA_CMDLINE\` (${SKA_REPS} timed rounds, median); $(( T_END - T_START )) s in all"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work: sizes and buffers are exact, times are not quiet)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | ska_q), bloomset $BUILD_REV; configuration: $BENCH_CONFIG ($SETTINGS)"
	echo "- table: $TABLE_INFO; appends: $SKA_APPEND events after the table's, made beforehand into a table of their own, inserted after a checkpoint and sync in batches of 10,000 into the table with the index, the fastest of $SKA_APPEND_ROUNDS rounds, as is its baseline (GIN: what its pending list holds at the end is not counted)"
	echo "- cases (the planner chooses the plan; counts checked against one sequential scan before any index):"
	echo "$CASES"
	echo
	echo "| index | size | build s | appends s (without the index, just before; the index's share) | parameters |"
	echo "|---|---|---|---|---|"
	echo "$INDEXES"
	echo
	echo "Buffers split: the bitmap index scan's buffers + the heap pages the bitmap heap scan visits (the buffers beyond the two: other pages the executor reads, such as the visibility map).  Ranges: the summarized ranges the bloomskip scan returned / how many of them hold a matching row (the rest are false positives of the filters), and (+n) the open tail's pages returned whole."
	echo
	echo "| case | index | plan chosen by | buffers | index + heap pages | ranges returned / holding a row | ms | plan | count = seq scan |"
	echo "|---|---|---|---|---|---|---|---|---|"
	echo "$ROWS"
	echo
	echo "| ratio | size | build | appends (index's share) | lookups (bloomskip / GIN) |"
	echo "|---|---|---|---|---|"
	echo "$RATIOS"
	echo
	echo "Where the planner's plan is one of the two forced ones (timed in rounds of its own) and the faster of them, the ratio is that plan against itself: its distance from 1.00 is the rounds' noise."
	echo
	echo "| common case | index | planner's plan | planner ms | seq scan ms | forced bitmap ms | planner / better |"
	echo "|---|---|---|---|---|---|---|"
	echo "$COMMON"
	if [ -n "$KPR" ]; then
		echo
		echo "Index size against distinct tags per range (BENCH_SKIPARRAY_KEYS): $SKA_ROWS rows of 8 tags each, k:0 .. k:(d - 1) in turn, bloomskip at the default 16 pages a range; design keys per range: what the build sized the filters for (bloomskip_info: 1.5 times the 95th percentile of the keys per range it saw)."
		echo
		echo "| distinct tags d | design keys per range | bits per range | bloomskip | GIN | bloomskip / GIN | build s (bloomskip / GIN) |"
		echo "|---|---|---|---|---|---|---|"
		echo "$KPR"
	fi
} | tee "$SKA_OUT"
