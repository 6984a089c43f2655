#!/usr/bin/env bash
# bench/skip_checks.sh OLD_ROOT NEW_ROOT -- what bloomskip's self-checks cost
# a lookup: two servers side by side, one with the build under OLD_ROOT
# (e.g. the last commit before the checks, installed into a relocated copy
# of PostgreSQL made by scripts/private_pg.sh), one with NEW_ROOT's, the same
# table and index in both, timed interleaved.
#
# Data: t(k int8, pad text), BENCH_CHECKS_ROWS rows (default 1,000,000), k
# in insertion order, about 60 rows a page; a bloomskip index on k with its
# defaults (16 pages a range).  Cases: a point lookup of a present key
# (count(*), so the heap pages of the range(s) found are read) and = ANY of
# 10 present keys, both forced to the bitmap scan.  Each round runs, in
# each server in turn, BENCH_CHECKS_CALLS lookups (default 300) inside one
# plpgsql call that times them with clock_timestamp(), keys drawn from the
# same seeded sequence in both; BENCH_CHECKS_ROUNDS rounds (default 31),
# medians of the per-lookup time.  The machine this runs on may be shared:
# the rounds interleave the servers so that load hits both alike, and the
# spread (the quartiles) is printed next to the medians.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
[ $# -eq 2 ] || { echo "usage: $0 OLD_ROOT NEW_ROOT" >&2; exit 2; }
ROWS=${BENCH_CHECKS_ROWS:-1000000}
CALLS=${BENCH_CHECKS_CALLS:-300}
ROUNDS=${BENCH_CHECKS_ROUNDS:-31}
work=$(mktemp -d /tmp/bloomset-checks.XXXXXX)
chmod 777 "$work"
declare -A BIN PORT
BIN[old]=$1/usr/lib/postgresql/15/bin
BIN[new]=$2/usr/lib/postgresql/15/bin
PORT[old]=$(( 20000 + RANDOM % 5000 ))
PORT[new]=$(( PORT[old] + 1 ))

q() { as_pg "${BIN[$1]}/psql" -X -Atq -h "$work" -p "${PORT[$1]}" -d postgres -c "$2"; }
cleanup() {
	for s in old new; do
		as_pg "${BIN[$s]}/pg_ctl" -D "$work/$s" -m immediate stop >/dev/null 2>&1 || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

for s in old new; do
	as_pg "${BIN[$s]}/initdb" -D "$work/$s" -A trust >/dev/null
	as_pg "${BIN[$s]}/pg_ctl" -D "$work/$s" -l "$work/$s.log" -w \
		-o "-k $work -p ${PORT[$s]} -c listen_addresses='' -c autovacuum=off -c jit=off" start >/dev/null
	q $s "CREATE EXTENSION bloomset;
CREATE TABLE t (k int8, pad text);
INSERT INTO t SELECT i, md5(i::text) FROM generate_series(1, $ROWS) i;
CREATE INDEX t_k ON t USING bloomskip (k);
CREATE FUNCTION lookups(calls int, many bool) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE
	t0 timestamptz;
	n bigint;
	keys int8[];
	key int8;
BEGIN
	PERFORM setseed(0.5);
	PERFORM set_config('enable_seqscan', 'off', true);
	t0 := clock_timestamp();
	FOR i IN 1 .. calls LOOP
		IF many THEN
			keys := ARRAY(SELECT 1 + (random() * ($ROWS - 1))::int8 FROM generate_series(1, 10));
			SELECT count(*) INTO n FROM t WHERE k = ANY (keys);
		ELSE
			key := 1 + (random() * ($ROWS - 1))::int8;
			SELECT count(*) INTO n FROM t WHERE k = key;
		END IF;
	END LOOP;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / calls;
END
\$\$;"
	q $s "VACUUM ANALYZE t"
	q $s "SELECT lookups(50, false), lookups(50, true)" >/dev/null	# warm
done
plan=$(q new "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT count(*) FROM t WHERE k = 5")
echo "plan: $(echo "$plan" | tr '\n' ' ' | tr -s ' ')"
q old CHECKPOINT; q new CHECKPOINT
echo "format: old $(q old "SELECT get_byte(pg_read_binary_file(pg_relation_filepath('t_k'), 28, 1), 0)"), new $(q new "SELECT get_byte(pg_read_binary_file(pg_relation_filepath('t_k'), 28, 1), 0)")"
for r in $(seq 1 "$ROUNDS"); do
	for case in point any10; do
		many=$([ $case = any10 ] && echo true || echo false)
		for s in old new; do
			echo "$case $s $(q $s "SELECT lookups($CALLS, $many)")" >> "$work/times"
		done
	done
done
echo "rows $ROWS, $ROUNDS rounds of $CALLS lookups per case and server, microseconds per lookup"
echo "case    server  q1      median  q3"
for case in point any10; do
	for s in old new; do
		grep "^$case $s " "$work/times" | awk '{print $3}' | sort -g | awk -v c=$case -v s=$s \
			'{v[NR]=$1} END {printf "%-7s %-7s %.1f\t%.1f\t%.1f\n", c, s, v[int(NR/4)+1], v[int(NR/2)+1], v[int(3*NR/4)+1]}'
	done
done
# the paired difference per round (new - old) / old, median: the figure reported
for case in point any10; do
	paste <(grep "^$case old " "$work/times" | awk '{print $3}') <(grep "^$case new " "$work/times" | awk '{print $3}') |
		awk '{print ($2 - $1) / $1 * 100}' | sort -g |
		awk -v c=$case '{v[NR]=$1} END {printf "%s: median paired difference new vs old %+.1f %% (quartiles %+.1f %%, %+.1f %%)\n", c, v[int(NR/2)+1], v[int(NR/4)+1], v[int(3*NR/4)+1]}'
done
