# bench/skipam_report.sh -- the skipam group's report (sourced by
# bench/skipam.sh at its end, with its server still running): Markdown to
# stdout and SKIPAM_OUT, the growth figures to SKIPAM_TSV.

# the scale the goals are read at: 10 M rows if measured in full, else the
# largest full scale; the growth goal compares the largest scale with it
GOAL_SC=
for s in $SKIPAM_FULL; do GOAL_SC=$s; done
[[ " $SKIPAM_FULL " == *" 10000000 "* ]] && GOAL_SC=10000000
[ -n "$GOAL_SC" ] || for s in $SKIPAM_GROWTH; do GOAL_SC=$s; break; done
BIG_SC=$GOAL_SC
for s in $SKIPAM_GROWTH $SKIPAM_FULL; do [ "$s" -gt "$BIG_SC" ] && BIG_SC=$s; done

skipam_q() { skipam_sql -At -F $'\t' "$@"; }

FULL_TABLES=
for s in $SKIPAM_FULL; do
	FULL_TABLES+="### $(commas "$s") rows ($(echo "SELECT v FROM bench_info WHERE k = 'spans $s'" | skipam_q))"$'\n\n'
	FULL_TABLES+="| index | definition | size | build s | present ms | present buffers | absent ms | absent buffers | index pages present / absent | = ANY 10 ms | = ANY 1,000 ms | join 1,000 ms | 1 M inserts add ms (% of no index) | counts = seq scan |"$'\n'
	FULL_TABLES+="|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"$'\n'
	FULL_TABLES+="$(echo "SELECT skipam_table($s)" | skipam_q)"$'\n'
	FULL_TABLES+="$(skipam_q <<EOF
SELECT format('- 1,000,000 inserted rows without an index: median %s ms over %s rounds (%s ... %s ms), spread between the indexes'' blocks',
	skipam_f(ms, 0), runs, skipam_f(lo, 0), skipam_f(hi, 0))
  FROM skipam_sum WHERE scale = $s AND idx = 'none' AND kase = 'insert';
SELECT format('- %s: not built: %s', idx, err) FROM skipam_idx WHERE scale = $s AND err IS NOT NULL AND col = 'trace_id';
EOF
)"$'\n\n'
done

EVERY_ROWS=$(skipam_q <<EOF
SELECT format('| %s | %s | \`%s\` | %s | %s | %s | %s | %s |', to_char(c.scale, 'FM999,999,999'), c.idx, c.plan, skipam_f(c.ms, 1), skipam_f(q.ms, 1),
	skipam_f(c.ms / q.ms, 2), pg_size_pretty(i.bytes),
	CASE WHEN c.wrong + q.wrong = 0 THEN 'yes' ELSE 'NO' END)
  FROM skipam_sum c JOIN skipam_sum q ON q.scale = c.scale AND q.idx = c.idx AND q.kase = 'every-seq'
  JOIN skipam_idx i ON i.scale = c.scale AND i.idx = c.idx AND i.col = 'name'
 WHERE c.kase = 'every-chosen'
 ORDER BY c.scale, i.ctid;
SELECT format('| %s | %s | not built: %s | | | | | |', to_char(scale, 'FM999,999,999'), idx, err) FROM skipam_idx WHERE col = 'name' AND err IS NOT NULL;
EOF
)

GROWTH_ROWS=$(skipam_q <<'EOF'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |', to_char(i.scale, 'FM999,999,999'), i.idx, pg_size_pretty(i.bytes),
	skipam_f(skipam_get(i.scale, i.idx, 'present', 'idx_pages'), 0), skipam_f(skipam_get(i.scale, i.idx, 'absent', 'idx_pages'), 0),
	skipam_f(skipam_get(i.scale, i.idx, 'present', 'buffers'), 0), skipam_f(skipam_get(i.scale, i.idx, 'absent', 'buffers'), 0),
	skipam_f(skipam_get(i.scale, i.idx, 'present', 'ms'), 2), skipam_f(skipam_get(i.scale, i.idx, 'absent', 'ms'), 2),
	skipam_f(skipam_get(i.scale, i.idx, 'any10', 'ms'), 2))
  FROM skipam_idx i
 WHERE i.col = 'trace_id' AND i.err IS NULL AND i.idx IN ('btree', 'brin', 'bloomskip')
 ORDER BY i.idx, i.scale;
EOF
)

# the TSV the plot reads: one line per scale and index
{
	printf "rows\tindex\tindex_pages_present\tindex_pages_absent\tbuffers_present\tms_present\tms_absent\tsize_bytes\n"
	skipam_q <<'EOF'
SELECT i.scale, i.idx, skipam_get(i.scale, i.idx, 'present', 'idx_pages'), skipam_get(i.scale, i.idx, 'absent', 'idx_pages'),
	   skipam_get(i.scale, i.idx, 'present', 'buffers'), round(skipam_get(i.scale, i.idx, 'present', 'ms')::numeric, 3),
	   round(skipam_get(i.scale, i.idx, 'absent', 'ms')::numeric, 3), i.bytes
  FROM skipam_idx i
 WHERE i.col = 'trace_id' AND i.err IS NULL AND i.idx IN ('btree', 'brin', 'bloomskip')
 ORDER BY i.idx, i.scale;
EOF
} > "$SKIPAM_TSV"

GOAL_ROWS=$(skipam_q <<EOF
WITH g(ord, goal, target, x) AS (VALUES
 (1, 'point lookup (present key): bloomskip time / BRIN bloom time', 0.2,
	skipam_get($GOAL_SC, 'bloomskip', 'present', 'ms') / skipam_get($GOAL_SC, 'brin', 'present', 'ms')),
 (2, 'point lookup (present key): shared buffers', 100,
	skipam_get($GOAL_SC, 'bloomskip', 'present', 'buffers')),
 (3, 'point lookup (absent key): shared buffers', 30,
	skipam_get($GOAL_SC, 'bloomskip', 'absent', 'buffers')),
 (4, '= ANY of 10 keys: bloomskip time / BRIN bloom time', 0.2,
	skipam_get($GOAL_SC, 'bloomskip', 'any10', 'ms') / skipam_get($GOAL_SC, 'brin', 'any10', 'ms')),
 (5, 'size: bloomskip / btree', 0.2,
	(SELECT bytes FROM skipam_idx WHERE scale = $GOAL_SC AND idx = 'bloomskip' AND col = 'trace_id')::float8
	/ (SELECT bytes FROM skipam_idx WHERE scale = $GOAL_SC AND idx = 'btree' AND col = 'trace_id')),
 (6, '1 M inserts: time bloomskip adds / time btree adds', 0.5,
	skipam_insert_add($GOAL_SC, 'bloomskip') / skipam_insert_add($GOAL_SC, 'btree')),
 (7, 'index pages per lookup (present key): $(commas $BIG_SC) rows / $(commas $GOAL_SC) rows', 2,
	CASE WHEN $BIG_SC > $GOAL_SC THEN skipam_get($BIG_SC, 'bloomskip', 'present', 'idx_pages') / skipam_get($GOAL_SC, 'bloomskip', 'present', 'idx_pages') END),
 (8, 'a bloomskip index on name (values in every range): the planner picks the sequential scan itself, or its plan''s time / the forced sequential scan''s', 1.0,
	skipam_get($GOAL_SC, 'bloomskip', 'every-chosen', 'ms') / skipam_get($GOAL_SC, 'bloomskip', 'every-seq', 'ms'))),
-- goal 8 compares plans: the planner's own choice of the sequential scan
-- is the goal, two runs of that same plan differ by noise only
same(same_plan) AS (
	SELECT c.plan = q.plan
	  FROM skipam_sum c JOIN skipam_sum q ON q.scale = c.scale AND q.idx = c.idx AND q.kase = 'every-seq'
	 WHERE c.scale = $GOAL_SC AND c.idx = 'bloomskip' AND c.kase = 'every-chosen')
SELECT format('| %s | ≤ %s | %s | %s |', goal, target, skipam_f(x, 2),
	CASE WHEN x IS NULL THEN 'not measured'
		 WHEN ord = 8 AND (SELECT same_plan FROM same) THEN 'met (the same plan: the sequential scan)'
		 WHEN x <= target THEN 'met' ELSE 'missed' END)
  FROM g ORDER BY ord;
EOF
)

PLAN_ROWS=$(skipam_q <<'EOF'
SELECT format('- %s rows, %s, %s: `%s`', to_char(scale, 'FM999,999,999'), idx, kase, plan)
  FROM skipam_sum WHERE plan IS NOT NULL ORDER BY scale, idx, kase;
EOF
)
SKIP_INFO=$(skipam_q <<'EOF'
SELECT format('- %s rows, %s on %s: %s', to_char(scale, 'FM999,999,999'), idx, col, info)
  FROM skipam_idx WHERE info IS NOT NULL ORDER BY scale, ctid;
EOF
)
CHECKED=$(echo "SELECT format('- counts checked against the sequential scan: %s timed runs at all scales, %s differ', sum(runs) FILTER (WHERE kase NOT LIKE 'insert%'), sum(wrong)) FROM skipam_sum;" | skipam_q)
INFO=$(echo "SELECT format('- %s: %s', k, v) FROM bench_info WHERE k LIKE 'spans %' OR k LIKE 'skipam%' ORDER BY k;" | skipam_q)
PGVER=$(echo "SELECT version();" | skipam_q)
SETTINGS=$(bench_settings)

mkdir -p "$(dirname "$SKIPAM_OUT")"
{
	echo "# bloomset benchmark: the bloomskip index access method (group skipam)"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- command: \`${SKIPAM_CMDLINE:-bash bench/skipam.sh}\`; full scales: $SKIPAM_FULL; growth scales: ${SKIPAM_GROWTH:-none}; rounds: $SKIPAM_REPS (point lookups), $SKIPAM_MANY_REPS (= ANY, join, name), $SKIPAM_INSERT_REPS (inserts)"
	echo "- nproc: $(nproc); CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); memory: $(free -g | awk '/^Mem:/ {print $2}') GiB"
	echo "- PostgreSQL: $PGVER"
	echo "- bloomset built from: $BUILD_REV; access method bloomskip present: $SKIPAM_HAS_AM"
	echo "- configuration: default (bench_setup's: PostgreSQL's defaults for memory, huge pages, JIT and maintenance_work_mem; autovacuum = off, wal_level = minimal, synchronous_commit = off, no checkpoint among the rounds); settings: $SETTINGS"
	echo "- load average (1/5/15 min) at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg); total run time $((T_END - T_START)) s. The machine's 2 cores are shared with other developers' builds and tests: every time is noisy (medians of interleaved rounds; buffers and pages are exact)"
	echo "- method: each index alone on the same table (CREATE INDEX timed, measured, dropped); point lookups \`SELECT count(*), max(ts) FROM spans WHERE trace_id = <key>\` for 21 present keys (8 rows each) and 21 absent ones, a present and an absent key in turn (A a B b ...), $SKIPAM_REPS timed rounds after one under EXPLAIN (ANALYZE, BUFFERS); point lookups and = ANY run with enable_seqscan = off, so each index is measured where the planner would rather scan the table (BRIN bloom with its defaults does: its unforced plans are under Plans, \"(unforced)\"); time = clock around a PL/pgSQL EXECUTE on the server (includes planning), median over keys and rounds; buffers = shared hit + read of the whole plan, median over the 21 keys; index pages = shared hit + read of the Bitmap Index Scan node with the query forced to a bitmap scan (for btree this equals the pages its Index Scan reads in the index); = ANY: 10 / 1,000 present keys; join: \`SELECT count(*), max(s.ts) FROM incoming i JOIN spans s ON s.trace_id = i.id\`, 1,000 present ids, forced to a nested loop over a parameterized bitmap scan (enable_hashjoin, _mergejoin, _material, _seqscan, _indexscan off); inserts: \`INSERT INTO spans SELECT ...\` of 1,000,000 new spans in a subtransaction rolled back after the clock stops, the table VACUUMed back to its size after; counts = seq scan: every timed run's count equals the one sequential scan's before any index (no false negatives, no wrong rows)"
	echo "- the table fits in neither shared_buffers (128 MB) nor, at 100 M rows, comfortably in the OS page cache with the others' work: 'buffers' counts hits and reads alike"
	echo
	echo "## Goals (bloomskip with its defaults at $(commas "$GOAL_SC") rows; BRIN bloom with its defaults)"
	echo
	echo "| goal | target | measured | |"
	echo "|---|---|---|---|"
	echo "$GOAL_ROWS"
	echo
	echo "## Indexes measured in full"
	echo
	echo "$FULL_TABLES"
	echo "## A column whose values are in every range (\`WHERE name = 'db.select'\`, 10 values, 10 % of the rows): the plan the planner picks against a forced sequential scan"
	echo
	echo "| rows | index on name | plan chosen | chosen ms | seq scan ms | chosen / seq | index size | counts = seq scan |"
	echo "|---|---|---|---|---|---|---|---|"
	echo "$EVERY_ROWS"
	echo
	echo "## Growth: index pages and time per point lookup against table size ($(basename "$SKIPAM_TSV"), drawn by bench/skipam_plot.sh)"
	echo
	echo "| rows | index | size | index pages present | index pages absent | buffers present | buffers absent | ms present | ms absent | = ANY 10 ms |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	echo "$GROWTH_ROWS"
	echo
	if [ -n "$SKIP_INFO" ]; then
		echo "## bloomskip indexes as built (bloomskip_info)"
		echo
		echo "$SKIP_INFO"
		echo
	fi
	echo "## Data"
	echo
	echo "$INFO"
	echo "$CHECKED"
	echo "- cache: $SKIPAM_CACHE: $(tail -1 "$SKIPAM_CACHE/generated.txt" 2>/dev/null || echo '?')"
	echo
	echo "## Plans (warm-up round; point lookups: key 1)"
	echo
	echo "$PLAN_ROWS"
} | tee "$SKIPAM_OUT"
say "skipam: done in $((T_END - T_START)) s; report in $SKIPAM_OUT, figures in $SKIPAM_TSV"
