#!/usr/bin/env bash
# test/format_compat/run.sh -- values stored by the released 1.0 and 1.1
# binaries are read by this build: the stored format is a contract.
#
#   test/format_compat/run.sh
#
# Builds bloomset 1.0 as released (commit RELEASE_1_0 below, from this
# repository's history) into a private copy of PostgreSQL 15, stores filters
# of every kind with it (bloom blocked/classic/auto, counting, scalable --
# whose stored format changed in 1.1 --, n-gram, token, enum and domain
# elements, and int8 keys with a shard in the high half, numerics of both
# signs), then installs 1.1 as released (RELEASE_1_1), updates to 1.1 and
# stores the same filters again with it, records the text and binary forms
# of both sets and the answers of probes, then installs this build over it;
# checks that while the database is still at 1.1 this library builds the
# very bits 1.1 built (hashing scheme 1: a database builds what its
# installed version builds until it is updated), that they combine with
# the stored ones, and that the hint of a scheme mismatch names no function
# 1.1 lacks; then runs ALTER EXTENSION bloomset UPDATE, and checks that the stored values
# still give the same text and binary forms and the same answers (members:
# all present, false positives the same: hashing scheme 1 is kept for
# them, bloom_scheme says 1), that adding to a stored 1.1 filter hashes with
# its scheme, that a stored filter does not combine with a new (scheme 4)
# one but does with one built with bloom_with_scheme(..., 1), and that
# adding to a stored 1.0 scalable filter works.  Between 1.1 and this build,
# installs 1.3 as released (RELEASE_1_3) and builds, in a database of its
# own, a bloomskip index of page format 3 on a spans-like table (ids written
# 8 at a time; the statistics of a large table emulated with n_distinct):
# this build plans its queries exactly as 1.3 did (the index keeps no
# statistics of its keys: the planner reads the column's), before and after
# the update, and REINDEX (format 4, which counts them) turns the join of a
# few incoming ids into a nested loop over the index.  Last line:
#   SUITE format-compat: N passed, M failed
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib.sh
source "$HERE/../../scripts/lib.sh"
set +e

RELEASE_1_0=f246e53		# the last commit of bloomset 1.0 (released)
RELEASE_1_1=15d4e8e		# the last commit of bloomset 1.1 (released)
RELEASE_1_3=8c4102d		# the last commit of bloomset 1.3 (released)
pass=0 fail=0
WORK=$(mktemp -d /tmp/bloomset-compat.XXXXXX)
chmod 755 "$WORK"
PG_ON_EXIT="pg_stop; rm -rf $WORK"
check() {	# check NAME COMMAND...
	local name=$1; shift
	if "$@"; then echo "ok    $name"; pass=$((pass + 1))
	else echo "FAIL  $name"; fail=$((fail + 1)); fi
}
finish() {
	echo "SUITE format-compat: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
}

ensure_base_packages
SYS_BIN=/usr/lib/postgresql/15/bin
PRIV=$WORK/pg
mkdir -p "$PRIV/usr/lib/postgresql" "$PRIV/usr/share/postgresql"
cp -a /usr/lib/postgresql/15 "$PRIV/usr/lib/postgresql/"
cp -a /usr/share/postgresql/15 "$PRIV/usr/share/postgresql/"
PG_BIN=$PRIV/usr/lib/postgresql/15/bin

# install_tree DIR: build the sources in DIR into the private copy
install_tree() {
	make -C "$1" -s -j2 PG_CONFIG=$SYS_BIN/pg_config >/dev/null 2>&1 &&
		make -C "$1" -s PG_CONFIG=$SYS_BIN/pg_config DESTDIR="$PRIV" install >/dev/null 2>&1
}

mkdir -p "$WORK/old" "$WORK/v11" "$WORK/v13" "$WORK/new"
git -C "$REPO_ROOT" archive "$RELEASE_1_0" Makefile bloomset.control 'bloomset--1.0.sql' src \
	| tar xf - -C "$WORK/old" || { echo "FAIL  cannot extract $RELEASE_1_0"; fail=1; finish; }
git -C "$REPO_ROOT" archive "$RELEASE_1_1" Makefile bloomset.control 'bloomset--1.0.sql' \
	'bloomset--1.1.sql' 'bloomset--1.0--1.1.sql' src \
	| tar xf - -C "$WORK/v11" || { echo "FAIL  cannot extract $RELEASE_1_1"; fail=1; finish; }
git -C "$REPO_ROOT" archive "$RELEASE_1_3" Makefile bloomset.control src \
	$(git -C "$REPO_ROOT" ls-tree --name-only "$RELEASE_1_3" | grep '^bloomset--.*\.sql$') \
	| tar xf - -C "$WORK/v13" || { echo "FAIL  cannot extract $RELEASE_1_3"; fail=1; finish; }
(cd "$REPO_ROOT" && tar cf - --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
	Makefile bloomset.control extension src) | tar xf - -C "$WORK/new"
check "1.0 release builds and installs" install_tree "$WORK/old" || finish

pg_start
psql_q <<'SQL' > "$WORK/create.log" 2>&1
CREATE EXTENSION bloomset VERSION '1.0';
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE TABLE kinds (release text, name text, b bloom, c counting_bloom, s scalable_bloom,
                    PRIMARY KEY (release, name));
ALTER TABLE kinds ALTER COLUMN s SET STORAGE EXTERNAL;	-- stored as is: sizes comparable
SQL
# store_kinds RELEASE: filters of every kind, written by the installed binary
store_kinds() {
	sed "s/@R@/$1/g" <<'SQL' | psql_q >> "$WORK/create.log" 2>&1
INSERT INTO kinds (release, name, b) SELECT '@R@', 'blocked', bloom_agg(g, 1000, 0.01) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'classic', bloom_agg(g, 1000, 0.0001) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'auto', bloom_agg(g::text) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'explicit', bloom_agg(g, 2048, 5, 42) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'ngram', bloom_ngram_agg('line ' || g::text, 3) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'token', bloom_token_agg('word' || g::text || ' x') FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'enum', bloom_agg(m) FROM unnest(enum_range(NULL::mood)) m WHERE m <> 'sad';
INSERT INTO kinds (release, name, b) SELECT '@R@', 'domain', bloom_agg(g::posint) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'int8-shard', bloom_agg((1::int8 << 32) + g, 1000, 0.01) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, b) SELECT '@R@', 'numeric', bloom_agg(g::numeric / 10, 1000, 0.01) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, c) SELECT '@R@', 'counting', counting_bloom_agg(g, 1000, 0.01) FROM generate_series(1, 500) g;
INSERT INTO kinds (release, name, s) SELECT '@R@', 'scalable', scalable_bloom_agg(g, 100, 0.01) FROM generate_series(1, 5000) g;
INSERT INTO kinds (release, name, s) SELECT '@R@', 'scalable-empty', scalable_bloom_empty(100, 0.01, 2);
SQL
}
store_kinds 1.0
check "1.0 stores filters of every kind" bash -c "! grep -q ERROR '$WORK/create.log'" || { cat "$WORK/create.log"; finish; }

# what the stored values look like and answer, as a query run before and after
cat > "$WORK/observe.sql" <<'SQL'
SELECT release, name, md5(coalesce(b::text, c::text, s::text)) AS text_form,
       md5(coalesce(bloom_to_bytea(b), bloom_send(b), scalable_bloom_send(s), textsend(c::text))) AS wire_form
  FROM kinds ORDER BY release, name;
SELECT release, name,
       count(*) FILTER (WHERE CASE name
           WHEN 'auto' THEN b @> g::text
           WHEN 'ngram' THEN bloom_ngram_may_contain(b, 'line ' || g::text)
           WHEN 'token' THEN bloom_token_may_contain(b, 'word' || g::text)
           WHEN 'enum' THEN b @> (enum_range(NULL::mood))[1 + g % 3]
           WHEN 'domain' THEN b @> g::posint
           WHEN 'counting' THEN c @> g
           WHEN 'scalable' THEN s @> g
           WHEN 'scalable-empty' THEN s @> g
           WHEN 'int8-shard' THEN b @> (2::int8 << 32) + g OR b @> (1::int8 << 32) + g
           WHEN 'numeric' THEN b @> -g::numeric / 10 OR b @> g::numeric / 10
           ELSE b @> g END) AS maybe
  FROM kinds, generate_series(1, 10000) g GROUP BY release, name ORDER BY release, name;
SQL
psql_q -At -f "$WORK/observe.sql" > "$WORK/before-1.0.txt" 2>&1
grep -q '^1.0|scalable|' "$WORK/before-1.0.txt" || { echo "FAIL  observe under 1.0"; cat "$WORK/before-1.0.txt"; fail=$((fail + 1)); finish; }

# stop (keeping the data), install 1.1 over 1.0, update, store the same
# filters with 1.1
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -m fast -w stop >/dev/null
check "1.1 release builds and installs over 1.0" install_tree "$WORK/v11" || finish
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -l "$PGTMP/server.log" -w start >/dev/null
psql_q -c "ALTER EXTENSION bloomset UPDATE TO '1.1'" >/dev/null 2>&1
psql_q -At -f "$WORK/observe.sql" > "$WORK/after-1.1.txt" 2>&1
check "1.0 values read by 1.1: same forms and answers" diff -u "$WORK/before-1.0.txt" "$WORK/after-1.1.txt"
store_kinds 1.1
check "1.1 stores filters of every kind" bash -c "! grep -q ERROR '$WORK/create.log'" || { cat "$WORK/create.log"; finish; }
psql_q -At -f "$WORK/observe.sql" > "$WORK/before.txt" 2>&1
grep -q '^1.1|scalable|' "$WORK/before.txt" || { echo "FAIL  observe under 1.1"; cat "$WORK/before.txt"; fail=$((fail + 1)); finish; }

# a bloomskip index of format 3, built by 1.3 in a database of its own
# (this one stays at 1.1): 300,000 spans, a trace's 8 rows together, 30
# incoming ids; n_distinct as ANALYZE's sample says at 100 M rows
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -m fast -w stop >/dev/null
check "1.3 release builds and installs" install_tree "$WORK/v13" || finish
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -l "$PGTMP/server.log" -w start >/dev/null
psql_q -c "CREATE DATABASE skip13" >/dev/null
psql_q -d skip13 > "$WORK/skip13.log" 2>&1 <<'SQL'
CREATE EXTENSION bloomset VERSION '1.3';
CREATE TABLE sp (trace_id bigint, ts timestamptz, name text, payload text) WITH (autovacuum_enabled = false);
INSERT INTO sp SELECT hashint8extended(r / 8, 1), timestamptz '2026-01-01 00:00:00+00' + r * interval '10 ms',
	'n' || r % 10, lpad(to_hex(hashint8extended(r, 3)), 56, '0') FROM generate_series(0, 299999) r;
CREATE INDEX sp_trace ON sp USING bloomskip (trace_id);
CREATE INDEX sp_name ON sp USING bloomskip (name);
ALTER TABLE sp ALTER trace_id SET (n_distinct = -0.004);
VACUUM ANALYZE sp;
CREATE TABLE sp_in AS SELECT hashint8extended(floor((j + 0.2) * 37500 / 30)::bigint, 1) AS id FROM generate_series(0, 29) j;
ANALYZE sp_in;
SQL
cat > "$WORK/skip13_plans.sql" <<'SQL'
SELECT format('trace_id = ANY (%L::bigint[])', array_agg(id)) AS any30 FROM sp_in \gset
EXPLAIN (COSTS OFF) SELECT count(*), max(s.ts) FROM sp_in i JOIN sp s ON s.trace_id = i.id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sp WHERE :any30;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sp WHERE trace_id = hashint8extended(4242, 1);
EXPLAIN (COSTS OFF) SELECT count(*) FROM sp WHERE name = 'n3';
SELECT (SELECT count(*) FROM sp_in i JOIN sp s ON s.trace_id = i.id) = 240 AS join_rows;
SQL
psql_q -d skip13 -At -f "$WORK/skip13_plans.sql" > "$WORK/skip13-1.3.txt" 2>&1
check "1.3 builds a format-3 bloomskip index and plans on it" \
	bash -c "! grep -q ERROR '$WORK/skip13.log' && grep -q 'Bitmap Index Scan on sp_trace' '$WORK/skip13-1.3.txt'" ||
	{ cat "$WORK/skip13.log" "$WORK/skip13-1.3.txt"; }

# stop (keeping the data), install this build over 1.1 (and 1.3's library), start again
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -m fast -w stop >/dev/null
check "this build installs over 1.1" install_tree "$WORK/new" || finish
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -l "$PGTMP/server.log" -w start >/dev/null

# under 1.3's objects this library builds bloomskip indexes of format 3,
# which 1.3's library reads (checked at the end): a database of its own,
# kept at 1.3; 200,000 spans indexed, 100,000 appended (summarized and
# staged by this library)
psql_q -c "CREATE DATABASE skip13lib" >/dev/null
psql_q -d skip13lib > "$WORK/skip13lib.log" 2>&1 <<'SQL'
CREATE EXTENSION bloomset VERSION '1.3';
CREATE TABLE sp (trace_id bigint, name text) WITH (autovacuum_enabled = false);
INSERT INTO sp SELECT hashint8extended(r / 8, 1), 'n' || r % 1000 FROM generate_series(0, 199999) r;
CREATE INDEX sp_trace ON sp USING bloomskip (trace_id);
CREATE INDEX sp_name ON sp USING bloomskip (name);
INSERT INTO sp SELECT hashint8extended(r / 8, 1), 'n' || r % 1000 FROM generate_series(200000, 299999) r;
VACUUM ANALYZE sp;
SQL
cat > "$WORK/skip13lib_probe.sql" <<'SQL'
SET enable_seqscan = off;
SET client_min_messages = warning;
SELECT count(*) FROM sp WHERE trace_id = ANY (ARRAY(SELECT hashint8extended(g * 977, 1) FROM generate_series(0, 30) g));
SELECT count(*) FROM sp WHERE name = ANY ('{n7,n123,n999,x}');
SELECT bloomskip_check('sp_trace') + bloomskip_check('sp_name') AS missing;
SQL
skip13lib_expect="248
900
0"
skip13lib_lib=$(psql_q -d skip13lib -At -f "$WORK/skip13lib_probe.sql")
check "under 1.3's objects, this library builds and appends to format-3 bloomskip indexes: answers as the scan" \
	test "$(grep -c ERROR "$WORK/skip13lib.log")|$skip13lib_lib" = "0|$skip13lib_expect" ||
	{ cat "$WORK/skip13lib.log"; echo "$skip13lib_lib"; }

# the new library reads what 1.0 and 1.1 stored, before and after the SQL update
psql_q -At -f "$WORK/observe.sql" > "$WORK/after-library.txt" 2>&1
check "1.0 and 1.1 values read by the new library: same forms and answers ($(wc -l < "$WORK/before.txt") lines)" \
	diff -u "$WORK/before.txt" "$WORK/after-library.txt"

# still at 1.1, the new library builds what 1.1 built: the same filters,
# bit for bit (the hex part of the text forms) and of scheme 1
store_kinds lib
check "this library under the 1.1 objects stores filters of every kind" bash -c "! grep -q ERROR '$WORK/create.log'"
check "this library under the 1.1 objects builds the bits 1.1 built, scheme 1 (13 kinds)" \
	test "$(psql_q -Atc "SELECT count(*) FILTER (WHERE split_part(coalesce(a.b::text, a.c::text, a.s::text), ' hex=', 2)
			= split_part(coalesce(l.b::text, l.c::text, l.s::text), ' hex=', 2)
			AND coalesce(l.b::text, l.c::text, l.s::text) NOT LIKE '% scheme=%') || '/' || count(*)
		FROM kinds a JOIN kinds l USING (name) WHERE a.release = '1.1' AND l.release = 'lib'")" = 13/13
check "under 1.1, a new filter unions with a stored 1.1 filter and finds both sets" \
	test "$(psql_q -Atc "SELECT count(*) FROM kinds, (SELECT bloom_agg(g, 1000, 0.01) AS n FROM generate_series(501, 900) g) x,
		generate_series(1, 900) g WHERE release = '1.1' AND name = 'blocked' AND NOT (b | n) @> g")" = 0
hint_11=$(psql_q -Atc "SELECT b | replace(bloom_agg(g, 1000, 0.01)::text, ' k=', ' scheme=2 k=')::bloom
	FROM kinds, generate_series(1, 10) g WHERE release = '1.1' AND name = 'blocked' GROUP BY b" 2>&1)
check "under 1.1, the hint of a scheme mismatch names no function 1.1 lacks" \
	bash -c "grep -q 'HINT:.*scheme 1' <<< \"\$1\" && ! grep -q '_scheme' <<< \"\$1\"" _ "$hint_11"
psql_q -c "DELETE FROM kinds WHERE release = 'lib'" >/dev/null

default=$(psql_q -Atc "SELECT default_version FROM pg_available_extensions WHERE name = 'bloomset'")
psql_q -c "ALTER EXTENSION bloomset UPDATE" >/dev/null 2>&1
check "ALTER EXTENSION bloomset UPDATE reaches $default" \
	test "$(psql_q -Atc "SELECT extversion FROM pg_extension WHERE extname = 'bloomset'")" = "$default"
psql_q -At -f "$WORK/observe.sql" > "$WORK/after-update.txt" 2>&1
check "after the update: same forms and answers" \
	diff -u "$WORK/before.txt" "$WORK/after-update.txt"
# hashing scheme 1 is kept by every stored value, and by adding to one
check "every stored 1.0 and 1.1 value reports hashing scheme 1" \
	test "$(psql_q -Atc "SELECT count(*) FILTER (WHERE coalesce(bloom_scheme(b), counting_bloom_scheme(c), scalable_bloom_scheme(s)) = 1) || '/' || count(*) FROM kinds")" = 26/26
check "adding to a stored 1.1 filter hashes with scheme 1 (old members and the new one found)" \
	test "$(psql_q -Atc "SELECT bloom_scheme(b || 777777) || count(*) FILTER (WHERE NOT (b || 777777) @> g)::text || bool_and((b || 777777) @> 777777)::text FROM kinds, generate_series(1, 500) g WHERE release = '1.1' AND name = 'blocked' GROUP BY b")" = 10true
refuses_schemes() {	# refuses_schemes SQL: the statement fails naming the schemes
	local out
	out=$(psql_q -v VERBOSITY=verbose -Atc "$1" 2>&1)
	grep -q '22023.*incompatible' <<< "$out" && grep -q 'different hashing schemes (1 and 4)' <<< "$out"
}
check "a stored 1.1 filter and a new scheme-4 filter refuse to combine (22023)" \
	refuses_schemes "SELECT b | bloom_agg(g, 1000, 0.01) FROM kinds, generate_series(1, 10) g WHERE release = '1.1' AND name = 'blocked' GROUP BY b"
check "a stored 1.1 filter unions with one built with bloom_with_scheme(..., 1) and finds both sets" \
	test "$(psql_q -Atc "SELECT count(*) FROM kinds, (SELECT bloom_add_all(bloom_with_scheme(bloom_empty(1000, 0.01), 1), array_agg(g)) AS n FROM generate_series(501, 900) g) x, generate_series(1, 900) g WHERE release = '1.1' AND name = 'blocked' AND NOT (b | n) @> g")" = 0

# the stored 1.0 scalable values are still format 1 on disk (nothing
# rewrote them); rewriting one stores format 2, 8 bytes shorter
old_size=$(psql_q -Atc "SELECT pg_column_size(s) FROM kinds WHERE release = '1.0' AND name = 'scalable-empty'")
psql_q -c "UPDATE kinds SET s = scalable_bloom_add(s, NULL::int) WHERE release = '1.0' AND name = 'scalable-empty'" >/dev/null
new_size=$(psql_q -Atc "SELECT pg_column_size(s) FROM kinds WHERE release = '1.0' AND name = 'scalable-empty'")
check "a 1.0 scalable value rewritten is stored in format 2 ($old_size -> $new_size bytes)" \
	test "$((old_size - new_size))" = 8
# growing a 1.0 scalable filter: members old and new all present
psql_q -c "UPDATE kinds SET s = scalable_bloom_add(scalable_bloom_add(s, 100001), 100002) WHERE name LIKE 'scalable%'" >/dev/null 2>&1
check "adding to a 1.0 or 1.1 scalable filter keeps every member" \
	test "$(psql_q -Atc "SELECT count(*) FROM kinds, generate_series(1, 5000) g WHERE name = 'scalable' AND NOT s @> g")$(psql_q -Atc "SELECT bool_and(s @> 100001 AND s @> 100002) FROM kinds WHERE name LIKE 'scalable%'")" = 0t
# the format-3 index: the plans 1.3 made, under 1.3's objects and after
# the update; it counts nothing (bloomskip_info's new columns NULL); after
# REINDEX (format 4) the join of 30 ids is a nested loop over the index
psql_q -d skip13 -At -f "$WORK/skip13_plans.sql" > "$WORK/skip13-lib.txt" 2>&1
check "a format-3 bloomskip index: this library plans as 1.3 did (join, = ANY, point, a value in every range)" \
	diff -u "$WORK/skip13-1.3.txt" "$WORK/skip13-lib.txt"
psql_q -d skip13 -c "ALTER EXTENSION bloomset UPDATE" >/dev/null 2>&1
psql_q -d skip13 -At -f "$WORK/skip13_plans.sql" > "$WORK/skip13-updated.txt" 2>&1
check "a format-3 bloomskip index: the same plans after the update" \
	diff -u "$WORK/skip13-1.3.txt" "$WORK/skip13-updated.txt"
check "a format-3 bloomskip index counts no keys (keys_per_range, ranges_per_key NULL)" \
	test "$(psql_q -d skip13 -Atc "SELECT keys_per_range IS NULL AND ranges_per_key IS NULL FROM bloomskip_info('sp_trace')")" = t
psql_q -d skip13 -c "REINDEX INDEX sp_trace" >/dev/null 2>&1
reindexed_nested_loop() {
	test "$(psql_q -d skip13 -Atc "SELECT ranges_per_key BETWEEN 1 AND 1.1 FROM bloomskip_info('sp_trace')")" = t &&
		psql_q -d skip13 -At -f "$WORK/skip13_plans.sql" | grep -A3 'Nested Loop' | grep -q 'Bitmap Heap Scan on sp s'
}
check "after REINDEX (format 4): keys counted, the join a nested loop over the index" reindexed_nested_loop

# the indexes this library built under 1.3's objects: format 3 (the
# special space of its pages is format 3's 8 bytes, format 4's is 16),
# read by 1.3's library
check "under 1.3's objects, this library builds format 3 (the 8-byte special space of format 3 on its first two pages)" \
	test "$(psql_q -d skip13lib -Atc "CREATE EXTENSION pageinspect; SELECT string_agg((8192 - special)::text, ',' ORDER BY b) FROM unnest('{0,1}'::int[]) b, page_header(get_raw_page('sp_trace', b))" | tail -1)" = 8,8
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -m fast -w stop >/dev/null
check "1.3's library installs again" install_tree "$WORK/v13"
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -l "$PGTMP/server.log" -w start >/dev/null
skip13lib_13=$(psql_q -d skip13lib -At -f "$WORK/skip13lib_probe.sql")
check "1.3's library reads the format-3 indexes this library built: answers as the scan, bloomskip_check 0" \
	test "$skip13lib_13" = "$skip13lib_expect" || echo "$skip13lib_13"

check "the server log has no crash" \
	bash -c "! grep -qE 'terminated by signal|PANIC' '$PGTMP/server.log'"
finish
