#!/usr/bin/env bash
# bench/skip_checks_callgrind.sh OLD_ROOT NEW_ROOT -- the cost of bloomskip's
# self-checks in instructions, immune to a shared machine's noise: the same
# 500,000-row table and default bloomskip index built by each build (OLD_ROOT
# and NEW_ROOT: relocated PostgreSQL 15 copies from scripts/private_pg.sh,
# each with its bloomset installed), then a single-user backend under
# callgrind runs 20 warm-up lookups and then 0 or 400 measured ones (point
# lookups of a present key, and = ANY of 10 present keys, the same seeded
# keys in both); per-lookup instructions = (Ir(400) - Ir(0)) / 400.
# Prints one line per run: server, calls, = ANY or not, Ir.
set -u
BIN_OLD=$1/usr/lib/postgresql/15/bin
BIN_NEW=$2/usr/lib/postgresql/15/bin
source "$(dirname "$0")/../scripts/lib.sh"
declare -A BIN; BIN[old]=$BIN_OLD; BIN[new]=$BIN_NEW
w=$(mktemp -d /tmp/ss-cg.XXXXXX); chmod 777 $w; P=$(( 29000 + RANDOM % 900 ))
for s in old new; do
  as_pg ${BIN[$s]}/initdb -D $w/$s -A trust >/dev/null
  as_pg ${BIN[$s]}/pg_ctl -D $w/$s -l $w/$s.log -w -o "-k $w -p $P -c listen_addresses='' -c autovacuum=off" start >/dev/null
  as_pg ${BIN[$s]}/psql -X -q -h $w -p $P -d postgres <<'SQL'
CREATE EXTENSION bloomset;
CREATE TABLE t (k int8, pad text);
INSERT INTO t SELECT i, md5(i::text) FROM generate_series(1, 500000) i;
CREATE INDEX t_k ON t USING bloomskip (k);
SQL
  as_pg ${BIN[$s]}/psql -X -q -h $w -p $P -d postgres -c "VACUUM ANALYZE t" -c "CHECKPOINT"
  as_pg ${BIN[$s]}/psql -X -q -h $w -p $P -d postgres <<'SQL'
CREATE FUNCTION lookups(calls int, many bool) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint; t bigint := 0; keys int8[]; key int8;
BEGIN
	PERFORM setseed(0.5);
	PERFORM set_config('enable_seqscan', 'off', true);
	FOR i IN 1 .. calls LOOP
		IF many THEN
			keys := ARRAY(SELECT 1 + (random() * 499999)::int8 FROM generate_series(1, 10));
			SELECT count(*) INTO n FROM t WHERE k = ANY (keys);
		ELSE
			key := 1 + (random() * 499999)::int8;
			SELECT count(*) INTO n FROM t WHERE k = key;
		END IF;
		t := t + n;
	END LOOP;
	RETURN t;
END $$;
SQL
  as_pg ${BIN[$s]}/pg_ctl -D $w/$s -w stop >/dev/null
done
for run in "0 false" "0 true" "400 false" "400 true"; do
  set -- $run
  for s in old new; do
    # warm once inside the same backend (caches, plan), then the measured part is the difference of two runs
    out=$(echo "SELECT lookups(20, $2); SELECT lookups($1, $2)" | as_pg valgrind --tool=callgrind --callgrind-out-file=/dev/null ${BIN[$s]}/postgres --single -D $w/$s postgres 2>&1)
    ir=$(echo "$out" | grep -oE "Collected : [0-9]+" | awk '{print $3}')
    echo "$s calls=$1 many=$2 Ir=$ir"
  done
done
rm -rf $w
