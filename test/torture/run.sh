#!/bin/bash
# Crash/replication torture of the bloomskip index access method (bloomset extension).
# Usage (as root):   nice -n 19 bash test/torture/run.sh [cycles]
#   TORTURE_DIR   where clusters, logs and summary.txt go (default /tmp/bloomset-torture)
#   TORTURE_PG_BIN  the server's bin directory, bloomset installed (default Debian's 15)
# Clusters run as OS user postgres, unix sockets only (listen_addresses=''),
# ports 56042 (primary) / 56043 (standby).  Not part of the test command: a
# longer run (about 7 minutes for 15 cycles on 2 cores).
set -u
DIR=${TORTURE_DIR:-/tmp/bloomset-torture}
BIN=${TORTURE_PG_BIN:-/usr/lib/postgresql/15/bin}
CYCLES=${1:-15}

# --- re-exec as postgres (nice is inherited) --------------------------------
if [ "$(id -un)" != postgres ]; then
	mkdir -p $DIR && chown postgres: $DIR
	cp "$0" $DIR/torture.sh && chown postgres: $DIR/torture.sh
	exec su postgres -s /bin/bash -c "TORTURE_DIR=$DIR TORTURE_PG_BIN=$BIN nice -n 19 bash $DIR/torture.sh $CYCLES"
fi

PPORT=56042; SPORT=56043
PD=$DIR/primary; SD=$DIR/standby; L=$DIR/logs
export PGHOST=$DIR PGUSER=postgres PGDATABASE=postgres
psql_p() { $BIN/psql -X -q -A -t -p $PPORT -v ON_ERROR_STOP=1 "$@"; }
psql_s() { $BIN/psql -X -q -A -t -p $SPORT -v ON_ERROR_STOP=1 "$@"; }
say() { echo "[$(date -u +%T)] $*"; }

# --- clean start ---------------------------------------------------------------
for d in $PD $SD; do [ -f $d/postmaster.pid ] && $BIN/pg_ctl -D $d -m immediate stop >/dev/null 2>&1; done
rm -rf $PD $SD $L; mkdir -p $L $DIR/sql
: > $DIR/summary.txt

# --- pgbench scripts (3 clients in total run a weighted mix of these) ----------
# writer: a batch of 1..40 increasing keys from a sequence
cat > $DIR/sql/insert.sql <<'S'
\set n random(1, 40)
INSERT INTO t SELECT nextval('kseq'), repeat(md5(random()::text), 1 + (random()*3)::int) FROM generate_series(1, :n);
S
# deleter: a few rows from randomly sampled pages
cat > $DIR/sql/delete.sql <<'S'
DELETE FROM t WHERE ctid = ANY (ARRAY(SELECT ctid FROM t TABLESAMPLE SYSTEM (0.5) LIMIT 20));
S
# updater: new versions of a few rows (k unchanged: HOT or non-HOT as space allows)
cat > $DIR/sql/update.sql <<'S'
UPDATE t SET pad = pad || 'u' WHERE ctid = ANY (ARRAY(SELECT ctid FROM t TABLESAMPLE SYSTEM (0.5) LIMIT 3));
S
# rollback: inserts that abort (index entries for dead keys)
cat > $DIR/sql/rollback.sql <<'S'
\set n random(1, 60)
BEGIN;
INSERT INTO t SELECT nextval('kseq'), 'rolled back' FROM generate_series(1, :n);
ROLLBACK;
S
# reader: for a random existing key, count via the index (bitmap scan, seqscan off)
# and without any index, in one REPEATABLE READ snapshot; a difference is recorded.
cat > $DIR/sql/reader.sql <<'S'
SELECT coalesce((SELECT k FROM t TABLESAMPLE SYSTEM (1) LIMIT 1), 1) AS x \gset
BEGIN ISOLATION LEVEL REPEATABLE READ;
SET LOCAL enable_seqscan = off;
SELECT count(*) AS ci FROM t WHERE k = :x \gset
SET LOCAL enable_seqscan = on;
SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_indexscan = off;
SELECT count(*) AS cs FROM t WHERE k = :x \gset
COMMIT;
INSERT INTO mismatch SELECT now(), :x, :ci, :cs WHERE :ci <> :cs;
S
PGB_SCRIPTS="-f $DIR/sql/insert.sql@6 -f $DIR/sql/delete.sql@3 -f $DIR/sql/update.sql@1 -f $DIR/sql/rollback.sql@1 -f $DIR/sql/reader.sql@4"

# exact check: a sample of live keys (2,000 random + the 2,000 newest; all if < 20,000 rows),
# each looked up through the index by a parameterized subplan (seqscan off);
# prints "checked|missing".  The plan is verified to use the bloomskip bitmap scan.
cat > $DIR/sql/check.sql <<'S'
SET enable_seqscan = off; SET enable_indexscan = off; SET enable_hashjoin = off;
SET enable_mergejoin = off; SET enable_material = off;
WITH s AS MATERIALIZED (
  SELECT k FROM t WHERE (SELECT count(*) FROM t) < 20000
  UNION
  (SELECT k FROM t ORDER BY random() LIMIT 2000)
  UNION
  (SELECT k FROM t ORDER BY k DESC LIMIT 2000))
SELECT count(*) || '|' || count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM t i WHERE i.k = s.k)) FROM s;
S
check_plan() {  # $1 = port
	$BIN/psql -X -A -t -p $1 -c "SET enable_seqscan=off; SET enable_indexscan=off; SET enable_hashjoin=off; SET enable_mergejoin=off; SET enable_material=off;
	  EXPLAIN WITH s AS MATERIALIZED (SELECT k FROM t LIMIT 10)
	  SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM t i WHERE i.k = s.k)) FROM s" > $L/plan_$1.txt 2>&1
	grep -q 'Bitmap Index Scan on t_k_idx' $L/plan_$1.txt && ! grep -q 'hashed SubPlan' $L/plan_$1.txt
}

# --- primary -------------------------------------------------------------------
say "initdb primary"
$BIN/initdb -D $PD -U postgres -A trust -E UTF8 --no-sync >$L/initdb.log 2>&1 || { cat $L/initdb.log; exit 1; }
cat >> $PD/postgresql.conf <<C
listen_addresses = ''
unix_socket_directories = '$DIR'
port = $PPORT
wal_level = replica
max_wal_senders = 5
max_replication_slots = 5
hot_standby = on
hot_standby_feedback = off
shared_buffers = 32MB
max_connections = 30
log_line_prefix = '%m [%p] %e %a: '
log_min_messages = warning
log_error_verbosity = default
restart_after_crash = on
checkpoint_timeout = 45s
C
$BIN/pg_ctl -D $PD -l $L/primary.log -w start >/dev/null || exit 1
psql_p <<'S'
CREATE SCHEMA bloomset;
CREATE EXTENSION bloomset SCHEMA bloomset;
CREATE SEQUENCE kseq;
CREATE TABLE t (k bigint, pad text);
CREATE INDEX t_k_idx ON t USING bloomskip (k) WITH (pages_per_range = 4);
CREATE TABLE mismatch (at timestamptz, x bigint, ci bigint, cs bigint);
INSERT INTO t SELECT nextval('kseq'), md5(g::text) FROM generate_series(1, 20000) g;
VACUUM t;
S
[ $? = 0 ] || { say "setup failed"; tail -20 $L/primary.log; exit 1; }
check_plan $PPORT || { say "check plan does not use the index:"; cat $L/plan_$PPORT.txt; exit 1; }

# --- streaming standby (slot so crashes never cost it WAL) ---------------------
say "pg_basebackup standby"
$BIN/pg_basebackup -p $PPORT -D $SD -R -C -S standby1 -X stream >$L/basebackup.log 2>&1 || { cat $L/basebackup.log; exit 1; }
sed -i "s/^port = $PPORT/port = $SPORT/" $SD/postgresql.conf
$BIN/pg_ctl -D $SD -l $L/standby.log -w start >/dev/null || exit 1

crash_primary() {  # kill -9 the postmaster and all its children at once (a machine crash)
	local pm kids
	pm=$(head -1 $PD/postmaster.pid)
	kids=$(pgrep -P $pm | tr '\n' ' ')
	kill -9 $pm $kids 2>/dev/null
	for p in $pm $kids; do while kill -0 $p 2>/dev/null; do sleep 0.1; done; done
}

TOTAL_TX=0; TOTAL_CHECKED=0; ALL_MISSING=0; CYC_LINES=""
# --- crash cycles ---------------------------------------------------------------
for c in $(seq 1 $CYCLES); do
	dur=$((14 + RANDOM % 9))           # 14..22 s of writes before the crash
	vac=$((3 + RANDOM % (dur - 3)))    # one VACUUM at a random point (may be killed mid-way)
	$BIN/pgbench -n -p $PPORT -c 3 -j 1 -T 120 $PGB_SCRIPTS >$L/pgbench_$c.out 2>&1 &
	pb=$!
	( sleep $vac; psql_p -c 'VACUUM t' ) >>$L/vacuum.log 2>&1 &
	vp=$!
	sleep $dur
	crash_primary
	wait $pb; wait $vp 2>/dev/null
	tx=$(grep -o 'number of transactions actually processed: [0-9]*' $L/pgbench_$c.out | grep -o '[0-9]*$')
	tx=${tx:-0}; TOTAL_TX=$((TOTAL_TX + tx))
	t0=$(date +%s.%N)
	$BIN/pg_ctl -D $PD -l $L/primary.log -w -t 120 start >/dev/null || { say "restart failed in cycle $c"; tail -30 $L/primary.log; exit 1; }
	rec=$(echo "$(date +%s.%N) - $t0" | bc)
	r=$(psql_p -f $DIR/sql/check.sql 2>&1)
	chk=$(psql_p -c "SET client_min_messages = warning" -c "SELECT bloomset.bloomskip_check('t_k_idx')" 2>&1)
	rows=$(psql_p -c "SELECT count(*) FROM t" 2>&1)
	checked=${r%|*}; missing=${r#*|}
	TOTAL_CHECKED=$((TOTAL_CHECKED + checked)); ALL_MISSING=$((ALL_MISSING + missing))
	line=$(printf "cycle %2d: %2ss writes, tx=%6s, restart %.1fs, rows=%7s, keys checked=%5s, missing=%s, bloomskip_check=%s" $c $dur $tx $rec $rows $checked $missing "$chk")
	say "$line"; CYC_LINES+="$line"$'\n'
done

# --- final clean phase: writes without a crash, VACUUM, let the standby catch up ---
say "final uncrashed run"
$BIN/pgbench -n -p $PPORT -c 3 -j 1 -T 15 $PGB_SCRIPTS >$L/pgbench_final.out 2>&1
tx=$(grep -o 'number of transactions actually processed: [0-9]*' $L/pgbench_final.out | grep -o '[0-9]*$'); TOTAL_TX=$((TOTAL_TX + ${tx:-0}))
psql_p -c 'VACUUM t' -c 'CHECKPOINT'
P_FINAL=$(psql_p -f $DIR/sql/check.sql 2>&1)
P_CHK=$(psql_p -c "SET client_min_messages = warning" -c "SELECT bloomset.bloomskip_check('t_k_idx')" 2>&1)
P_ROWS=$(psql_p -c "SELECT count(*) FROM t")
MISMATCH=$(psql_p -c "SELECT count(*) FROM mismatch")
MISMATCH_ROWS=$(psql_p -c "SELECT * FROM mismatch LIMIT 20")
INFO_P=$(psql_p -c "SELECT * FROM bloomset.bloomskip_info('t_k_idx')" 2>&1)
lsn=$(psql_p -c "SELECT pg_current_wal_lsn()")
for i in $(seq 1 600); do
	ok=$(psql_s -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn" 2>/dev/null)
	[ "$ok" = t ] && break; sleep 0.5
done
say "standby caught up: $ok"
check_plan $SPORT && S_PLAN=index || S_PLAN="NOT index: $(cat $L/plan_$SPORT.txt)"
S_FINAL=$(psql_s -f $DIR/sql/check.sql 2>&1)
S_CHK=$(psql_s -c "SET client_min_messages = warning" -c "SELECT bloomset.bloomskip_check('t_k_idx')" 2>&1)
S_ROWS=$(psql_s -c "SELECT count(*) FROM t")

# --- promote the standby (primary stopped first) ---------------------------------
$BIN/pg_ctl -D $PD -m fast -w stop >/dev/null
$BIN/pg_ctl -D $SD -w promote >/dev/null
PR_FINAL=$(psql_s -f $DIR/sql/check.sql 2>&1)
PR_CHK=$(psql_s -c "SET client_min_messages = warning" -c "SELECT bloomset.bloomskip_check('t_k_idx')" 2>&1)
PR_NEW=$(psql_s -c "INSERT INTO t SELECT nextval('kseq'), 'after promote' FROM generate_series(1,500) RETURNING k" | tail -1)
PR_LOOK=$(psql_s -c "SET enable_seqscan=off; SELECT count(*) FROM t WHERE k = $PR_NEW" 2>&1)
PR_LOOK_PLAN=$(psql_s -c "SET enable_seqscan=off; EXPLAIN SELECT count(*) FROM t WHERE k = $PR_NEW" | grep -o 'Bitmap Index Scan on [a-z_]*')
psql_s -c 'VACUUM t' >/dev/null
PR_FINAL2=$(psql_s -f $DIR/sql/check.sql 2>&1)
PR_CHK2=$(psql_s -c "SET client_min_messages = warning" -c "SELECT bloomset.bloomskip_check('t_k_idx')" 2>&1)
$BIN/pg_ctl -D $SD -m fast -w stop >/dev/null

# --- summary ------------------------------------------------------------------
{
echo "==== bloomskip torture summary ($(date -u)) ===="
echo "crash cycles: $CYCLES   pgbench transactions (committed/processed): $TOTAL_TX"
echo "keys checked after crashes: $TOTAL_CHECKED   missing in total: $ALL_MISSING"
echo -n "$CYC_LINES"
echo "primary final (uncrashed + VACUUM): rows=$P_ROWS checked|missing=$P_FINAL bloomskip_check=$P_CHK"
echo "reader mismatches (index count <> no-index count): $MISMATCH"
[ "$MISMATCH" != 0 ] && echo "$MISMATCH_ROWS"
echo "standby (caught up=$ok, plan=$S_PLAN): rows=$S_ROWS checked|missing=$S_FINAL bloomskip_check=$S_CHK"
echo "promoted: checked|missing=$PR_FINAL bloomskip_check=$PR_CHK; insert 500 + lookup of key $PR_NEW via $PR_LOOK_PLAN -> count=$PR_LOOK"
echo "promoted after VACUUM: checked|missing=$PR_FINAL2 bloomskip_check=$PR_CHK2"
echo "bloomskip_info (primary, final): $INFO_P"
echo "log lines with XX000:         $(cat $L/primary.log $L/standby.log | grep -c 'XX000')"
echo "log lines with XX002/index_corrupted: $(cat $L/primary.log $L/standby.log | grep -c -E 'XX002|index_corrupted')"
echo "log ERROR/PANIC/FATAL/WARNING lines by SQLSTATE (primary+standby; 57P01/57P03 are restart noise):"
cat $L/primary.log $L/standby.log | grep -E ' (ERROR|PANIC|FATAL|WARNING): ' | sed -E 's/^.*\] ([0-9A-Z]{5}) [^:]*: ([A-Z]+): +(.{0,90}).*$/\1 \2 \3/' | sort | uniq -c | sort -rn | head -20
echo "pgbench aborted-client/error lines (other than the expected crash disconnects):"
grep -h -E 'error|aborted' $L/pgbench_*.out | grep -v -E 'server closed the connection|terminating connection|connection to server|Run was aborted|is aborted|no connection|could not send|SSL|lost synchronization|perhaps the backend died' | sort | uniq -c | head -10
} | tee $DIR/summary.txt
