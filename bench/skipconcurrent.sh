#!/usr/bin/env bash
# bench/skipconcurrent.sh -- case group "skipconcurrent" of bench/run.sh:
# CREATE INDEX CONCURRENTLY and REINDEX CONCURRENTLY of bloomskip against
# the plain CREATE INDEX and REINDEX, for every operator class.  Opt-in:
# BENCH_GROUPS=skipconcurrent bash bench/run.sh, or directly bash
# bench/skipconcurrent.sh.  Its own throwaway cluster, configured as
# bench_setup's default, and its own report,
# bench/results/skipconcurrent-latest.md.
#
# Data (bench/skipconcurrent.sql, BENCH_SKIPCONCURRENT_ROWS, default
# 1,000,000 of each): Debian changelog-like lines and their tsvectors, and
# events with an int8 key, an int4[] of tags and a jsonb document.  Per
# class, each index alone on its table: CREATE INDEX, REINDEX, DROP, CREATE
# INDEX CONCURRENTLY, REINDEX CONCURRENTLY, DROP, timed by psql's \timing
# (the statement on the server, round trip included); after each build,
# bloomskip_check (keys missing) and a count through the index against the
# sequential scan's.  BENCH_SKIPCONCURRENT_REPS rounds (default 3), the
# classes interleaved within each round; the report keeps the medians and
# the ratios concurrent / plain.  The machine may be shared: the report
# prints the load average.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../scripts/lib.sh"
source "$BENCH_DIR/lib_bench.sh"

SCC_ROWS=${BENCH_SKIPCONCURRENT_ROWS:-1000000}
SCC_REPS=${BENCH_SKIPCONCURRENT_REPS:-3}
SCC_OUT=${BENCH_SKIPCONCURRENT_OUT:-$BENCH_DIR/results/skipconcurrent-latest.md}
SCC_CMDLINE=${SKIPCONCURRENT_CMDLINE:-bench/skipconcurrent.sh}

scc_q() { psql_q -v VERBOSITY=terse -At -F $'\t' "$@" 2>/dev/null; }

# class|table|column and operator class|a predicate the index serves
scc_classes() {
	cat <<'EOF2'
equality (int8)|scc_ev|k|k = (SELECT k FROM scc_ev WHERE id = 777)
n-gram|scc_log|line text_ngram_bloomskip_ops|line LIKE '%CVE-2021-1%'
n-gram ci|scc_log|line text_ngram_ci_bloomskip_ops|line ILIKE '%closes: #1234%'
tsvector|scc_log|tsv|tsv @@ 'openssl & fix'::tsquery
array|scc_ev|tags|tags @> ARRAY[42]
jsonb|scc_ev|doc|doc @> '{"pkg": "openssl"}'
EOF2
}

# scc_ms SQL: the statement's time in ms, as psql's \timing measures it
scc_ms() {
	psql_q -v VERBOSITY=terse -c '\timing on' -c "$1" 2>/dev/null |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}

# scc_record CLASS OP ROUND MS
scc_record() {
	echo "INSERT INTO scc_time VALUES ('$1', '$2', $3, $4);" | psql_q
}

# scc_verify CLASS OP ROUND TABLE PREDICATE: keys missing, index count - sequential count
scc_verify() {
	scc_q <<SQL >/dev/null
SELECT bloomskip_check('scc_ix') AS missing \gset
SET enable_seqscan = off; SET enable_indexscan = off;
SELECT count(*) AS by_index FROM $4 WHERE $5 \gset
SET enable_seqscan = on; SET enable_bitmapscan = off;
SELECT count(*) AS by_seq FROM $4 WHERE $5 \gset
RESET enable_bitmapscan; RESET enable_indexscan;
INSERT INTO scc_check VALUES ('$1', '$2', $3, :missing, :by_index - :by_seq);
SQL
}

T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
bench_setup 1000
psql_q -f "$BENCH_DIR/skipconcurrent.sql" >/dev/null
echo "CREATE TABLE scc_time (cls text, op text, round int, ms float8);" | psql_q
say "skipconcurrent: loading $SCC_ROWS lines and events"
t0=$(date +%s)
echo "SELECT scc_load($SCC_ROWS);" | psql_q >/dev/null
echo "VACUUM ANALYZE scc_log; VACUUM ANALYZE scc_ev;" | psql_q
LOAD_S=$(( $(date +%s) - t0 ))
for round in $(seq 1 "$SCC_REPS"); do
	while IFS='|' read -r cls tbl col pred; do
		say "skipconcurrent: round $round: $cls"
		ddl="INDEX scc_ix ON $tbl USING bloomskip ($col)"
		scc_record "$cls" create "$round" "$(scc_ms "CREATE $ddl")"
		scc_record "$cls" reindex "$round" "$(scc_ms "REINDEX INDEX scc_ix")"
		echo "DROP INDEX scc_ix;" | psql_q
		scc_record "$cls" "create concurrently" "$round" "$(scc_ms "CREATE INDEX CONCURRENTLY ${ddl#INDEX }")"
		scc_verify "$cls" "create concurrently" "$round" "$tbl" "$pred"
		scc_record "$cls" "reindex concurrently" "$round" "$(scc_ms "REINDEX INDEX CONCURRENTLY scc_ix")"
		scc_verify "$cls" "reindex concurrently" "$round" "$tbl" "$pred"
		echo "DROP INDEX scc_ix;" | psql_q
	done < <(scc_classes)
done
T_END=$(date +%s)

# ---- the report ----
TABLE_INFO=$(scc_q -v load_s="$LOAD_S" <<'SQL'
SELECT format('changelog lines: %s rows, %s, mean line %s bytes (with their tsvectors); events: %s rows, %s; loaded in %s s',
	(SELECT count(*) FROM scc_log), pg_size_pretty(pg_relation_size('scc_log')),
	(SELECT round(avg(octet_length(line))) FROM scc_log),
	(SELECT count(*) FROM scc_ev), pg_size_pretty(pg_relation_size('scc_ev')), :'load_s')
SQL
)
SAMPLE=$(scc_q <<'SQL'
SELECT string_agg(format('    %s', line), E'\n' ORDER BY id) FROM scc_log WHERE id BETWEEN 1 AND 8
SQL
)
ROWS=$(scc_q <<'SQL'
WITH m AS (
	SELECT cls, op, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) / 1000 AS s,
		   string_agg(round((ms / 1000)::numeric, 2)::text, ' ' ORDER BY round) AS each
	  FROM scc_time GROUP BY cls, op),
c AS (SELECT cls, max(missing) AS missing, max(abs(diff)) AS diff FROM scc_check GROUP BY cls),
o AS (SELECT cls, min(ctid) AS ord FROM scc_time GROUP BY cls)
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s |', o.cls,
	round(cr.s::numeric, 2), round(cc.s::numeric, 2), round((cc.s / cr.s)::numeric, 2),
	round(ri.s::numeric, 2), round(rc.s::numeric, 2), round((rc.s / ri.s)::numeric, 2),
	CASE WHEN cc.s / cr.s <= 3 AND rc.s / ri.s <= 3 THEN 'met' ELSE 'MISSED' END,
	CASE WHEN c.missing = 0 AND c.diff = 0 THEN '0 / 0' ELSE format('%s / %s', c.missing, c.diff) END)
  FROM o JOIN c USING (cls)
	JOIN m cr ON cr.cls = o.cls AND cr.op = 'create'
	JOIN m cc ON cc.cls = o.cls AND cc.op = 'create concurrently'
	JOIN m ri ON ri.cls = o.cls AND ri.op = 'reindex'
	JOIN m rc ON rc.cls = o.cls AND rc.op = 'reindex concurrently'
 ORDER BY o.ord;
SQL
)
EACH=$(scc_q <<'SQL'
SELECT format('| %s | %s | %s |', cls, op, string_agg(round((ms / 1000)::numeric, 2)::text, ', ' ORDER BY round))
  FROM scc_time GROUP BY cls, op ORDER BY min(ctid);
SQL
)
SETTINGS=$(bench_settings)
{
	echo "# bloomskip: CREATE INDEX CONCURRENTLY and REINDEX CONCURRENTLY against plain builds"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); command: \`$SCC_CMDLINE\` ($SCC_REPS rounds, the classes interleaved in each, median); $(( T_END - T_START )) s in all"
	echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo) RAM, load average at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg) (shared with other work: the times are not quiet, hence the medians of interleaved rounds)"
	echo "- PostgreSQL $(echo 'SHOW server_version' | scc_q), bloomset $BUILD_REV; configuration: $BENCH_CONFIG ($SETTINGS)"
	echo "- data: $TABLE_INFO; the first lines:"
	echo
	echo "$SAMPLE"
	echo
	echo "- the goal: concurrent within 3 x plain (CREATE INDEX CONCURRENTLY / CREATE INDEX, REINDEX CONCURRENTLY / REINDEX); checks: the most keys \`bloomskip_check\` found missing after any concurrent build / the largest difference between a count through the index and the sequential scan's (both must be 0)"
	echo
	echo "| class | CREATE INDEX s | CONCURRENTLY s | ratio | REINDEX s | REINDEX CONCURRENTLY s | ratio | 3 x goal | missing / count diff |"
	echo "|---|---|---|---|---|---|---|---|---|"
	echo "$ROWS"
	echo
	echo "Every round's time (s):"
	echo
	echo "| class | statement | rounds |"
	echo "|---|---|---|"
	echo "$EACH"
} | tee "$SCC_OUT"
say "skipconcurrent: report in $SCC_OUT"
