#!/usr/bin/env bash
# bench/ab.sh [options] REF_A REF_B -- two builds of bloomset side by side.
#
# Builds each git ref (a release commit, a branch, HEAD) in a temporary git
# worktree into a private copy of PostgreSQL 15 of its own (scripts/
# private_pg.sh), starts one throwaway cluster per build, loads the same rows
# into both -- t(id bigint, s text = md5(id)) -- and then
#
#  time mode (AB_MODE=time): runs the aggregate and probe rows of the
#    hot-path table in groups, alternating between the builds group by
#    group, each group in one backend of that build with its queries
#    interleaved round by round (bench/ab_helpers.sql), and prints the
#    ratios (query / its baseline, the median of the per-round ratios) of
#    both builds side by side.  Ratios, not milliseconds: the machine may be
#    shared; each ratio's two queries ran in the same backend, in the same
#    round.
#
#  profile mode (AB_MODE=profile): runs each aggregate and its baseline in a
#    single-user backend of each build under valgrind's callgrind, counting
#    instructions inside the executor (standard_ExecutorRun) on AB_PROF_ROWS
#    and on 2 x AB_PROF_ROWS rows; the difference divided by AB_PROF_ROWS is
#    the marginal instructions per row (start-up, library loading and the
#    filter's allocation cancel), in all and by function (self cost).  It
#    does not need a quiet machine.
#
#  AB_MODE=both: both (the default).
#
# Settings (environment):
#   AB_ROWS       rows of t (default 10000000; filters sized for them)
#   AB_ROUNDS     timed rounds per group and build (default 5)
#   AB_PASSES     passes over the groups; A first in odd, B first in even (default 1)
#   AB_GROUPS     groups to time (default: agg auto agg-int counting scalable sprobe probe parallel)
#   AB_PROF_ROWS  rows for the profile (default 100000)
#   AB_PROF_QUERIES  'name|SQL' lines to profile instead of the default ones
#   AB_TOP        functions listed per profiled query (default 15)
#   AB_CONF       extra postgresql.conf lines, ';'-separated
#                 (default: shared_buffers = 2GB; jit = off)
#   AB_KEEP=1     keep the work directory (builds, clusters' data) on exit
#   AB_OUT        also write the report to this file
# hll's rows are included when postgresql-15-hll is installed (Debian's
# archive has it; private_pg.sh copies it with the server).
#
# Example: the 1.2 and 1.3 releases (the last commits with default_version
# 1.2 and 1.3 in bloomset.control) against the branch:
#   bench/ab.sh 52c6f63 8c4102d
#   AB_MODE=profile bench/ab.sh 8c4102d HEAD
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/.." && pwd)
source "$REPO/scripts/lib.sh"

[ $# -eq 2 ] || { sed -n '2,40p' "$0" >&2; exit 2; }
ROWS=${AB_ROWS:-10000000}
ROUNDS=${AB_ROUNDS:-5}
PASSES=${AB_PASSES:-1}
MODE=${AB_MODE:-both}
PROF_ROWS=${AB_PROF_ROWS:-100000}
TOP=${AB_TOP:-15}
GROUPS_=${AB_GROUPS:-agg auto agg-int counting scalable sprobe probe parallel}
IFS=';' read -r -a CONF <<< "${AB_CONF:-shared_buffers = 2GB;jit = off}"

say() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

ensure_packages valgrind postgresql-15-hll >&2 || true
HAVE_HLL=0
[ -f /usr/lib/postgresql/15/lib/hll.so ] && HAVE_HLL=1

W=$(mktemp -d /tmp/bloomset-ab.XXXXXX)
chmod 755 "$W"
LABELS=(A B)
declare -A REF SHA DESC BIN HOST PORT DATA

cleanup() {
	local l
	for l in "${LABELS[@]}"; do
		if [ -n "${DATA[$l]:-}" ] && [ -f "${DATA[$l]}/postmaster.pid" ]; then
			as_pg "${BIN[$l]}/pg_ctl" -D "${DATA[$l]}" -m immediate -w stop >/dev/null 2>&1 || true
		fi
		[ -n "${PORT[$l]:-}" ] && [ "$(cat "/tmp/bloomset-port.${PORT[$l]}/pid" 2>/dev/null)" = $$ ] &&
			rm -rf "/tmp/bloomset-port.${PORT[$l]}"
		[ -d "$W/$l/src" ] && git -C "$REPO" worktree remove --force "$W/$l/src" >/dev/null 2>&1 || true
	done
	if [ "${AB_KEEP:-0}" != 1 ]; then rm -rf "$W"; else say "kept $W"; fi
}
trap cleanup EXIT

REF[A]=$1 REF[B]=$2

# build REF[l] into a private copy of PostgreSQL 15 at $W/l/pg
ab_build() {
	local l=$1
	SHA[$l]=$(git -C "$REPO" rev-parse --short "${REF[$l]}^{commit}")
	DESC[$l]="${REF[$l]} = ${SHA[$l]} (default_version $(git -C "$REPO" show "${SHA[$l]}:bloomset.control" | sed -n "s/^default_version = '\(.*\)'/\1/p"))"
	say "build $l: ${DESC[$l]}"
	git -C "$REPO" worktree add --detach "$W/$l/src" "${SHA[$l]}" >/dev/null 2>&1
	bash "$REPO/scripts/private_pg.sh" "$W/$l/pg" >/dev/null
	BIN[$l]=$W/$l/pg/usr/lib/postgresql/15/bin
	# no JIT bitcode (the clusters run with jit = off unless AB_CONF says
	# otherwise): half the build's time
	make -C "$W/$l/src" -s -j2 PG_CONFIG="${BIN[$l]}/pg_config" with_llvm=no >/dev/null 2>"$W/$l/build.err" ||
		{ cat "$W/$l/build.err" >&2; exit 1; }
	make -C "$W/$l/src" -s PG_CONFIG="${BIN[$l]}/pg_config" with_llvm=no install >/dev/null
	cmp -s "$W/$l/src/bloomset.so" "$("${BIN[$l]}/pg_config" --pkglibdir)/bloomset.so" ||
		{ echo "build $l is not installed in its copy" >&2; exit 1; }
}

ab_start() {
	local l=$1 line
	DATA[$l]=$W/$l/data HOST[$l]=$W/$l
	PORT[$l]=$(free_port)
	chown postgres "$W/$l"
	as_pg "${BIN[$l]}/initdb" -D "${DATA[$l]}" -A trust -U postgres --no-sync >/dev/null
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '${HOST[$l]}'"
		echo "port = ${PORT[$l]}"
		echo "fsync = off"
		echo "autovacuum = off"
		echo "max_parallel_workers_per_gather = 0"
		echo "wal_level = minimal"
		echo "max_wal_senders = 0"
		echo "max_wal_size = 20GB"
		echo "checkpoint_timeout = 1h"
		echo "synchronous_commit = off"
		for line in "${CONF[@]}"; do echo "$line"; done
	} | as_pg tee -a "${DATA[$l]}/postgresql.conf" >/dev/null
	as_pg "${BIN[$l]}/pg_ctl" -D "${DATA[$l]}" -l "$W/$l/server.log" -w start >/dev/null
}

ab_stop() {
	as_pg "${BIN[$1]}/pg_ctl" -D "${DATA[$1]}" -m fast -w stop >/dev/null
}

# psql against build l
q() {
	local l=$1; shift
	"${BIN[$l]}/psql" -X -q -v ON_ERROR_STOP=1 -h "${HOST[$l]}" -p "${PORT[$l]}" -U postgres -d postgres "$@"
}

ab_load() {
	local l=$1
	say "load $l: $ROWS rows"
	q "$l" -v N="$ROWS" -v P="$PROF_ROWS" -v hll="$HAVE_HLL" <<'EOF'
CREATE EXTENSION bloomset;
\if :hll
CREATE EXTENSION hll;
\endif
CREATE EXTENSION pg_prewarm;
CREATE TABLE t AS SELECT id::bigint AS id, md5(id::text) AS s FROM generate_series(1, :N) AS id;
-- the profile's tables: P and 2 P rows
CREATE TABLE tp1 AS SELECT * FROM t WHERE id <= :P;
CREATE TABLE tp2 AS SELECT id::bigint AS id, md5(id::text) AS s FROM generate_series(1, 2 * :P) AS id;
CREATE TABLE filters (name text PRIMARY KEY, f bloom);
-- the largest capacity whose 1 % filter fits in 1 MiB, capped at the rows
SELECT least(max(c), :N) AS nsmall
  FROM generate_series(100000, 2000000, 1000) AS c
 WHERE (bloom_params(c, 0.01)).bytes <= 1048576 \gset
INSERT INTO filters SELECT 'big', bloom_agg(s, :N, 0.01) FROM t;
INSERT INTO filters SELECT 'small', bloom_agg(s, :nsmall, 0.01) FROM t WHERE id <= :nsmall;
CREATE TABLE sfilters AS SELECT scalable_bloom_agg(id) AS f FROM t;
-- hint bits: with synchronous_commit = off a scan sets none until the
-- loading transactions' WAL is flushed, and the first scan to set them
-- would pay for it (in a profile, in one of its two runs): flush, then
-- freeze every row
CHECKPOINT;
VACUUM (FREEZE, ANALYZE) t; VACUUM (FREEZE, ANALYZE) tp1; VACUUM (FREEZE, ANALYZE) tp2;
VACUUM (FREEZE, ANALYZE) filters; VACUUM (FREEZE, ANALYZE) sfilters;
CHECKPOINT;
SELECT pg_prewarm('t') AS blocks \gset
EOF
	q "$l" -f "$BENCH_DIR/ab_helpers.sql" >/dev/null
	# the cases: group, order, name, query, workers, filter passed as $1
	q "$l" -v N="$ROWS" <<'EOF'
INSERT INTO ab_q (grp, ord, name, query, workers, fname) VALUES
 ('agg', 1, 'bloom_agg(s)', 'SELECT bloom_agg(s, ' || :N || ', 0.01) FROM t', 0, NULL),
 ('agg', 2, 'count(s)', 'SELECT count(s) FROM t', 0, NULL),
 ('agg', 3, 'hll(s)', 'SELECT hll_add_agg(hll_hash_text(s)) FROM t', 0, NULL),
 ('auto', 1, 'bloom_agg(s) auto', 'SELECT bloom_agg(s) FROM t', 0, NULL),
 ('auto', 2, 'bloom_agg(s) sized', 'SELECT bloom_agg(s, ' || :N || ', 0.01) FROM t', 0, NULL),
 ('auto', 3, 'count(s)', 'SELECT count(s) FROM t', 0, NULL),
 ('agg-int', 1, 'bloom_agg(id)', 'SELECT bloom_agg(id, ' || :N || ', 0.01) FROM t', 0, NULL),
 ('agg-int', 2, 'count(id)', 'SELECT count(id) FROM t', 0, NULL),
 ('agg-int', 3, 'hll(id)', 'SELECT hll_add_agg(hll_hash_bigint(id)) FROM t', 0, NULL),
 ('counting', 1, 'counting_bloom_agg(id)', 'SELECT counting_bloom_agg(id, ' || :N || ', 0.01) FROM t', 0, NULL),
 ('counting', 2, 'count(id)', 'SELECT count(id) FROM t', 0, NULL),
 ('scalable', 1, 'scalable_bloom_agg(id)', 'SELECT scalable_bloom_agg(id) FROM t', 0, NULL),
 ('scalable', 2, 'count(id)', 'SELECT count(id) FROM t', 0, NULL),
 ('sprobe', 1, 'scalable probe', 'SELECT count(*) FROM t WHERE scalable_bloom_contains((SELECT f FROM sfilters), id)', 0, NULL),
 ('sprobe', 2, 'id > 0', 'SELECT count(*) FROM t WHERE id > 0', 0, NULL),
 ('probe', 1, 'probe big', 'SELECT count(*) FROM t WHERE bloom_contains($1, s)', 0, 'big'),
 ('probe', 2, 'probe 1 MiB', 'SELECT count(*) FROM t WHERE bloom_contains($1, s)', 0, 'small'),
 ('probe', 3, 's <> ''''', 'SELECT count(*) FROM t WHERE s <> ''''', 0, NULL),
 ('probe', 4, 'probe join', 'SELECT count(*) FROM t JOIN filters ON name = ''big'' WHERE bloom_contains(filters.f, t.s)', 0, NULL),
 ('probe', 5, 'join floor', 'SELECT count(*) FROM t JOIN filters ON name = ''big'' WHERE t.s <> ''''', 0, NULL),
 ('parallel', 1, 'bloom_agg(s) 2w', 'SELECT bloom_agg(s, ' || :N || ', 0.01) FROM t', 2, NULL),
 ('parallel', 2, 'bloom_agg(s) 0w', 'SELECT bloom_agg(s, ' || :N || ', 0.01) FROM t', 0, NULL),
 ('parallel', 3, 'count(s) 2w', 'SELECT count(s) FROM t', 2, NULL),
 ('parallel', 4, 'count(s) 0w', 'SELECT count(s) FROM t', 0, NULL);
EOF
	[ "$HAVE_HLL" = 1 ] || q "$l" -c "DELETE FROM ab_q WHERE name LIKE 'hll%'"
}

# the report's rows: label, numerator, denominator (names in ab_q), goal
RATIOS="bloom_agg(s, N, 0.01) / hll_add_agg(hll_hash_text(s))|agg|bloom_agg(s)|hll(s)|0.9
same / count(s)|agg|bloom_agg(s)|count(s)|1.3
bloom_agg(s) (automatic sizing) / the sized aggregate|auto|bloom_agg(s) auto|bloom_agg(s) sized|-
bloom_agg(s) (automatic sizing) / count(s)|auto|bloom_agg(s) auto|count(s)|-
bloom_agg(id, N, 0.01) / count(id)|agg-int|bloom_agg(id)|count(id)|1.25
bloom_agg(id, N, 0.01) / hll_add_agg(hll_hash_bigint(id))|agg-int|bloom_agg(id)|hll(id)|-
counting_bloom_agg(id, N, 0.01) / count(id)|counting|counting_bloom_agg(id)|count(id)|1.8
scalable_bloom_agg(id) / count(id)|scalable|scalable_bloom_agg(id)|count(id)|2.5
scalable probe / id > 0|sprobe|scalable probe|id > 0|2.0
probe of a stored BIG filter (constant) / s <> ''|probe|probe big|s <> ''|1.4
probe, 1 MiB filter (constant) / s <> ''|probe|probe 1 MiB|s <> ''|1.15
probe through a join / the join's floor|probe|probe join|join floor|1.1"

ab_time() {
	local pass g l order
	for pass in $(seq 1 "$PASSES"); do
		if [ $((pass % 2)) = 1 ]; then order="A B"; else order="B A"; fi
		for g in $GROUPS_; do
			for l in $order; do
				say "pass $pass, group $g, build $l"
				q "$l" -c "SELECT ab_group('$g', $ROUNDS, $(( (pass - 1) * ROUNDS + 1 )))" >/dev/null
			done
		done
	done
}

# the ratio rows of build l as 'label|median|min|max' lines
ab_ratios() {
	local l=$1
	# one line per row of RATIOS, empty for a group not run (the report
	# pairs them by position)
	echo "$RATIOS" | while IFS='|' read -r label g num den goal; do
		echo "$(q "$l" -At -F'|' -v g="$g" -v num="$num" -v den="$den" <<'EOF'
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a.ms / b.ms)::numeric(6,2),
	   min(a.ms / b.ms)::numeric(6,2), max(a.ms / b.ms)::numeric(6,2),
	   (percentile_cont(0.5) WITHIN GROUP (ORDER BY a.ms))::numeric(10,0),
	   (percentile_cont(0.5) WITHIN GROUP (ORDER BY b.ms))::numeric(10,0),
	   (avg(a.cpu_share) * 100)::numeric(4,0),
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY a.cpu_ms / b.cpu_ms)::numeric(6,2),
	   min(a.cpu_ms / b.cpu_ms)::numeric(6,2), max(a.cpu_ms / b.cpu_ms)::numeric(6,2)
  FROM ab_r a JOIN ab_r b USING (grp, round)
 WHERE grp = :'g' AND a.name = :'num' AND b.name = :'den'
HAVING count(*) > 0
EOF
)"
	done
}

# parallel efficiency: (bloom_agg 0w / 2w) / (count 0w / 2w) per round
ab_parallel() {
	q "$1" -At -F'|' <<'EOF'
WITH r AS (SELECT round, max(ms) FILTER (WHERE name = 'bloom_agg(s) 0w') / max(ms) FILTER (WHERE name = 'bloom_agg(s) 2w') AS sb,
				  max(ms) FILTER (WHERE name = 'count(s) 0w') / max(ms) FILTER (WHERE name = 'count(s) 2w') AS sc
			 FROM ab_r WHERE grp = 'parallel' GROUP BY round)
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY sb / sc)::numeric(6,2), min(sb / sc)::numeric(6,2),
	   max(sb / sc)::numeric(6,2), percentile_cont(0.5) WITHIN GROUP (ORDER BY sb)::numeric(6,2),
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY sc)::numeric(6,2)
  FROM r HAVING count(*) > 0
EOF
}

ab_time_report() {
	local i=0 la lb
	mapfile -t RA < <(ab_ratios A)
	mapfile -t RB < <(ab_ratios B)
	echo "| row | A: ${DESC[A]} | B: ${DESC[B]} | B / A | A, CPU time | B, CPU time | B / A, CPU | goal |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	while IFS='|' read -r label g num den goal; do
		la=${RA[$i]:-} lb=${RB[$i]:-}
		i=$((i + 1))
		[ -n "$la$lb" ] || continue
		label=${label//BIG/$(q A -At -c "SELECT pg_size_pretty(length(bloom_to_bytea(f))::bigint) FROM filters WHERE name = 'big'")}
		label=${label//, N,/, $ROWS,}
		echo "| \`$label\` | $(fmt "$la") | $(fmt "$lb") | $(rel "$la" "$lb") | $(fmtc "$la") | $(fmtc "$lb") | $(relc "$la" "$lb") | ≤ $goal |"
	done <<< "$RATIOS"
	la=$(ab_parallel A) lb=$(ab_parallel B)
	if [ -n "$la$lb" ]; then
		echo "| parallel efficiency (2 workers) against count(s)'s | $(fmt "$la") | $(fmt "$lb") | $(rel "$la" "$lb") | | | | ≥ 0.95 |"
	fi
	echo
	echo "Each cell: median of the per-round ratios [min–max] (ms of the two medians; CPU share of the numerator's backend). CPU time: the same ratios of the backend's CPU time (/proc/self/schedstat), which other work on the machine disturbs far less than wall time."
	echo "Parallel efficiency: bloom_agg's speedup with 2 workers divided by count(s)'s speedup [min–max] (the two speedups)."
}

# 'median|min|max|ms_a|ms_b|cpu' -> '1.52 [1.50–1.60] (2010/1320 ms, 97 %)'
fmt() {
	[ -n "$1" ] || { echo "–"; return; }
	IFS='|' read -r m lo hi x y c _ <<< "$1"
	if [ -n "$c" ]; then echo "$m [$lo–$hi] ($x/$y ms, $c % CPU)"
	else echo "$m [$lo–$hi] (speedups $x/$y)"; fi
}
# the CPU-time ratio of an ab_ratios line: '1.40 [1.35–1.52]'
fmtc() {
	local m lo hi x y c cm clo chi
	[ -n "$1" ] || { echo "–"; return; }
	IFS='|' read -r m lo hi x y c cm clo chi <<< "$1"
	[ -n "$cm" ] && echo "$cm [$clo–$chi]" || echo "–"
}
relc() {
	local a b
	[ -n "$1" ] && [ -n "$2" ] || { echo "–"; return; }
	a=$(echo "$1" | cut -d'|' -f7) b=$(echo "$2" | cut -d'|' -f7)
	[ -n "$a" ] && [ -n "$b" ] || { echo "–"; return; }
	awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "–" }'
}
rel() {
	[ -n "$1" ] && [ -n "$2" ] || { echo "–"; return; }
	awk -v a="${1%%|*}" -v b="${2%%|*}" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "–" }'
}

# ---------------------------------------------------------------------------
# profile mode
# ---------------------------------------------------------------------------
PROF_QUERIES=${AB_PROF_QUERIES:-"bloom_agg(s, N, p)|SELECT bloom_agg(s, $ROWS, 0.01) FROM T
bloom_agg(id, N, p)|SELECT bloom_agg(id, $ROWS, 0.01) FROM T
count(s)|SELECT count(s) FROM T
count(id)|SELECT count(id) FROM T
counting_bloom_agg(id, N, p)|SELECT counting_bloom_agg(id, $ROWS, 0.01) FROM T
scalable_bloom_agg(id)|SELECT scalable_bloom_agg(id) FROM T
scalable probe|SELECT count(*) FROM T WHERE scalable_bloom_contains((SELECT f FROM sfilters), id)
id > 0|SELECT count(*) FROM T WHERE id > 0"}

# callgrind one statement (T replaced by table tab) in a single-user backend
# of build l; prints the output file's path
ab_callgrind() {
	local l=$1 name=$2 sql=$3 tab=$4 out
	out=$W/$l/cg.$(echo "$name" | md5sum | cut -c1-8).$tab
	chown postgres "$W/$l"
	echo "${sql//FROM T/FROM $tab};" |
		as_pg valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
			--toggle-collect=standard_ExecutorRun \
			"${BIN[$l]}/postgres" --single -D "${DATA[$l]}" -c shared_buffers=128MB -c jit=off \
			-c max_parallel_workers_per_gather=0 postgres >/dev/null 2>"$out.log" ||
		{ cat "$out.log" >&2; exit 1; }
	echo "$out"
}

# marginal instructions per row: total, and self cost by function (top TOP)
ab_profile_one() {
	local l=$1 name=$2 sql=$3 o1 o2
	o1=$(ab_callgrind "$l" "$name" "$sql" tp1)
	o2=$(ab_callgrind "$l" "$name" "$sql" tp2)
	python3 - "$o1" "$o2" "$PROF_ROWS" "$TOP" <<'PY'
import subprocess, sys, re
def costs(path):
	out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100", path], capture_output=True, text=True).stdout
	total, fns = 0, {}
	for line in out.splitlines():
		m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$", line)
		if not m:
			continue
		n = int(m.group(1).replace(",", ""))
		rest = m.group(2)
		if "PROGRAM TOTALS" in rest:
			total = n
			continue
		if ":" in rest:
			obj = rest.split(" [")[-1].rstrip("]").split("/")[-1] if " [" in rest else ""
			f = re.sub(r" \([\d,]+x\)", "", rest.split(" [")[0].split(":", 1)[1]).strip()
			# a function's own code and the header code inlined into it
			# (listed under the header's file) are one line
			key = f + (" [postgres]" if obj == "postgres" else "")
			fns[key] = fns.get(key, 0) + n
	return total, fns
t1, f1 = costs(sys.argv[1]); t2, f2 = costs(sys.argv[2])
rows, top = int(sys.argv[3]), int(sys.argv[4])
print("total %.1f instructions per row" % ((t2 - t1) / rows))
d = {k: (f2.get(k, 0) - f1.get(k, 0)) / rows for k in set(f1) | set(f2)}
for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]:
	if v >= 0.5:
		print("%9.1f  %s" % (v, k))
PY
}

ab_profile() {
	local l name sql
	for l in A B; do ab_stop "$l"; done
	echo "### Instructions per row (callgrind, marginal cost between $PROF_ROWS and $((2 * PROF_ROWS)) rows, inside the executor)"
	echo
	while IFS='|' read -r name sql; do
		[ -n "$name" ] || continue
		for l in A B; do
			say "callgrind $l: $name"
			echo "#### $name -- $l: ${DESC[$l]}"
			echo '```'
			ab_profile_one "$l" "$name" "$sql"
			echo '```'
		done
	done <<< "$PROF_QUERIES"
}

# ---------------------------------------------------------------------------
for l in A B; do ab_build "$l"; done
for l in A B; do ab_start "$l"; ab_load "$l"; done
{
	echo "## bench/ab.sh: A = ${DESC[A]}, B = ${DESC[B]}"
	echo
	echo "- rows: $ROWS of t(id bigint, s text = md5(id)); configuration: ${CONF[*]}; jit as set; autovacuum off; no checkpoint among the rounds"
	echo "- machine: $(nproc) cores, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- hll: $([ "$HAVE_HLL" = 1 ] && echo "postgresql-15-hll $(dpkg-query -W -f='${Version}' postgresql-15-hll)" || echo "not installed: hll rows left out")"
	echo
	if [ "$MODE" = time ] || [ "$MODE" = both ]; then
		ab_time
		echo "### Ratios (time; $ROUNDS rounds x $PASSES pass(es) per build, queries interleaved in one backend, groups alternating between the builds)"
		echo
		ab_time_report
		echo
		echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo
	fi
	if [ "$MODE" = profile ] || [ "$MODE" = both ]; then
		ab_profile
	fi
} | tee "${AB_OUT:-/dev/null}"
