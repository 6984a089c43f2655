#!/usr/bin/env bash
# test/format_compat/run.sh -- values stored by the released 1.0 binary are
# read by this build: the stored format is a contract.
#
#   test/format_compat/run.sh
#
# Builds bloomset 1.0 as released (commit RELEASE_1_0 below, from this
# repository's history) into a private copy of PostgreSQL 15, stores filters
# of every kind with it (bloom blocked/classic/auto, counting, scalable --
# whose stored format changed in 1.1 --, n-gram, token, enum and domain
# elements), records their text and binary forms and the answers of probes,
# then installs this build over it, runs ALTER EXTENSION bloomset UPDATE, and
# checks that the stored values still give the same text and binary forms and
# the same answers (members: all present), and that adding to a stored 1.0
# scalable filter works.  Last line:
#   SUITE format-compat: N passed, M failed
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib.sh
source "$HERE/../../scripts/lib.sh"
set +e

RELEASE_1_0=f246e53		# the last commit of bloomset 1.0 (released)
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

mkdir -p "$WORK/old" "$WORK/new"
git -C "$REPO_ROOT" archive "$RELEASE_1_0" Makefile bloomset.control 'bloomset--1.0.sql' src \
	| tar xf - -C "$WORK/old" || { echo "FAIL  cannot extract $RELEASE_1_0"; fail=1; finish; }
(cd "$REPO_ROOT" && tar cf - --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
	Makefile bloomset.control bloomset--*.sql src) | tar xf - -C "$WORK/new"
check "1.0 release builds and installs" install_tree "$WORK/old" || finish

pg_start
psql_q <<'SQL' > "$WORK/create.log" 2>&1
CREATE EXTENSION bloomset VERSION '1.0';
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE TABLE kinds (name text PRIMARY KEY, b bloom, c counting_bloom, s scalable_bloom);
ALTER TABLE kinds ALTER COLUMN s SET STORAGE EXTERNAL;	-- stored as is: sizes comparable
INSERT INTO kinds (name, b) SELECT 'blocked', bloom_agg(g, 1000, 0.01) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, b) SELECT 'classic', bloom_agg(g, 1000, 0.0001) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, b) SELECT 'auto', bloom_agg(g::text) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, b) SELECT 'explicit', bloom_agg(g, 2048, 5, 42) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, b) SELECT 'ngram', bloom_ngram_agg('line ' || g::text, 3) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, b) SELECT 'token', bloom_token_agg('word' || g::text || ' x') FROM generate_series(1, 500) g;
INSERT INTO kinds (name, b) SELECT 'enum', bloom_agg(m) FROM unnest(enum_range(NULL::mood)) m WHERE m <> 'sad';
INSERT INTO kinds (name, b) SELECT 'domain', bloom_agg(g::posint) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, c) SELECT 'counting', counting_bloom_agg(g, 1000, 0.01) FROM generate_series(1, 500) g;
INSERT INTO kinds (name, s) SELECT 'scalable', scalable_bloom_agg(g, 100, 0.01) FROM generate_series(1, 5000) g;
INSERT INTO kinds (name, s) SELECT 'scalable-empty', scalable_bloom_empty(100, 0.01, 2);
SQL
check "1.0 stores filters of every kind" bash -c "! grep -q ERROR '$WORK/create.log'" || { cat "$WORK/create.log"; finish; }

# what the stored values look like and answer, as a query run before and after
cat > "$WORK/observe.sql" <<'SQL'
SELECT name, md5(coalesce(b::text, c::text, s::text)) AS text_form,
       md5(coalesce(bloom_to_bytea(b), bloom_send(b), scalable_bloom_send(s), textsend(c::text))) AS wire_form
  FROM kinds ORDER BY name;
SELECT name,
       count(*) FILTER (WHERE CASE name
           WHEN 'auto' THEN b @> g::text
           WHEN 'ngram' THEN bloom_ngram_may_contain(b, 'line ' || g::text)
           WHEN 'token' THEN bloom_token_may_contain(b, 'word' || g::text)
           WHEN 'enum' THEN b @> (enum_range(NULL::mood))[1 + g % 3]
           WHEN 'domain' THEN b @> g::posint
           WHEN 'counting' THEN c @> g
           WHEN 'scalable' THEN s @> g
           WHEN 'scalable-empty' THEN s @> g
           ELSE b @> g END) AS maybe
  FROM kinds, generate_series(1, 10000) g GROUP BY name ORDER BY name;
SQL
psql_q -At -f "$WORK/observe.sql" > "$WORK/before.txt" 2>&1
grep -q '^scalable|' "$WORK/before.txt" || { echo "FAIL  observe under 1.0"; cat "$WORK/before.txt"; fail=$((fail + 1)); finish; }

# stop (keeping the data), install this build over 1.0, start again
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -m fast -w stop >/dev/null
check "this build installs over 1.0" install_tree "$WORK/new" || finish
as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -l "$PGTMP/server.log" -w start >/dev/null

# the new library reads what 1.0 stored, before and after the SQL update
psql_q -At -f "$WORK/observe.sql" > "$WORK/after-library.txt" 2>&1
check "1.0 values read by the new library: same forms and answers" \
	diff -u "$WORK/before.txt" "$WORK/after-library.txt"
psql_q -c "ALTER EXTENSION bloomset UPDATE" >/dev/null 2>&1
check "ALTER EXTENSION bloomset UPDATE reaches 1.1" \
	test "$(psql_q -Atc "SELECT extversion FROM pg_extension WHERE extname = 'bloomset'")" = 1.1
psql_q -At -f "$WORK/observe.sql" > "$WORK/after-update.txt" 2>&1
check "after the update: same forms and answers" \
	diff -u "$WORK/before.txt" "$WORK/after-update.txt"
# the stored 1.0 scalable values are still format 1 on disk (nothing
# rewrote them); rewriting one stores format 2, 8 bytes shorter
old_size=$(psql_q -Atc "SELECT pg_column_size(s) FROM kinds WHERE name = 'scalable-empty'")
psql_q -c "UPDATE kinds SET s = scalable_bloom_add(s, NULL::int) WHERE name = 'scalable-empty'" >/dev/null
new_size=$(psql_q -Atc "SELECT pg_column_size(s) FROM kinds WHERE name = 'scalable-empty'")
check "a 1.0 scalable value rewritten is stored in format 2 ($old_size -> $new_size bytes)" \
	test "$((old_size - new_size))" = 8
# growing a 1.0 scalable filter: members old and new all present
psql_q -c "UPDATE kinds SET s = scalable_bloom_add(scalable_bloom_add(s, 100001), 100002) WHERE name LIKE 'scalable%'" >/dev/null 2>&1
check "adding to a 1.0 scalable filter keeps every member" \
	test "$(psql_q -Atc "SELECT count(*) FROM kinds, generate_series(1, 5000) g WHERE name = 'scalable' AND NOT s @> g")$(psql_q -Atc "SELECT bool_and(s @> 100001 AND s @> 100002) FROM kinds WHERE name LIKE 'scalable%'")" = 0t
check "the server log has no crash" \
	bash -c "! grep -qE 'terminated by signal|PANIC' '$PGTMP/server.log'"
finish
