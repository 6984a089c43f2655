#!/usr/bin/env bash
# test/upgrade/run.sh -- the extension upgrade path: 1.0 -> default_version.
#
#   PG_MAJOR=17 test/upgrade/run.sh        (default 15; SKIP_BUILD=1: the
#                                           extension is already installed)
#
# On a throwaway cluster of PG_MAJOR (scripts/lib.sh pg_start):
#   database "upgraded": CREATE EXTENSION bloomset VERSION '1.0', filters of
#     every kind (all_kinds.sql), an update to 1.2 and filter indexes built
#     by its functions (filter_index.sql), then ALTER EXTENSION bloomset
#     UPDATE;
#   database "fresh":    CREATE EXTENSION bloomset (the default version).
# Checks that
#   - the update reaches the default version of bloomset.control,
#   - both databases have exactly the same extension objects with the same
#     properties and comments (describe.sql: derived from pg_depend, so new
#     objects of later scripts are compared without changes here),
#   - the stored filters are byte-for-byte unchanged (fingerprints.sql) and
#     answer every probe identically (answers.sql), with no false negative;
#     the filter indexes answer identically and as the per-filter probe
#     (filter_index_answers.sql), and take appends after the update.
#   - the library, not the installed SQL version, decides the bits: filters
#     built by this library under the 1.0 objects and under the default
#     version's are identical.  Both are built by the library under test, so
#     this is not a check of values written by released binaries: since 1.2
#     they hash with scheme 2 (bloom_scheme says so), where 1.0 and 1.1
#     wrote scheme 1 -- test/format_compat builds the released 1.0 and 1.1
#     and checks that their stored values answer identically.
# Prints one line per check, the number of objects compared and
#   SUITE upgrade-<major>: N passed, M failed
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib.sh
source "$HERE/../../scripts/lib.sh"
set +e

pass=0 fail=0
WORK=$(mktemp -d /tmp/bloomset-upgrade.XXXXXX)
PG_ON_EXIT="pg_stop; rm -rf $WORK"
check() {	# check NAME COMMAND...: pass when the command succeeds
	local name=$1; shift
	if "$@"; then echo "ok    $name"; pass=$((pass + 1))
	else echo "FAIL  $name"; fail=$((fail + 1)); fi
}
finish() {
	echo "SUITE upgrade-$PG_MAJOR: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
}
same() {	# same FILE1 FILE2: identical and not empty
	[ -s "$1" ] && diff -u "$1" "$2" > "$WORK/diff" && return 0
	head -n 40 "$WORK/diff"; return 1
}

if [ "${SKIP_BUILD:-0}" != 1 ]; then
	ensure_base_packages
	build_install || { echo "FAIL  build"; fail=1; finish; }
fi
pg_start || { echo "FAIL  server start"; fail=1; finish; }
q() { local db=$1; shift; psql_q -At -d "$db" "$@"; }

default=$(q postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'bloomset'")
echo "PostgreSQL $($PG_BIN/pg_config --version | sed 's/PostgreSQL //'), bloomset default_version $default"
q postgres -c "CREATE DATABASE upgraded" -c "CREATE DATABASE fresh"

# ---- 1.0 with stored filters, then UPDATE
check "CREATE EXTENSION bloomset VERSION '1.0'" \
	q upgraded -c "CREATE EXTENSION bloomset VERSION '1.0'"
check "installed version is 1.0" \
	test "$(q upgraded -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomset'")" = 1.0
check "filters of every kind stored under 1.0" q upgraded -f "$HERE/all_kinds.sql"
q upgraded -f "$HERE/fingerprints.sql" > "$WORK/fp.before"
q upgraded -f "$HERE/answers.sql" > "$WORK/ans.before"
check "1.0: no false negatives ($(wc -l < "$WORK/ans.before") filters probed)" \
	awk 'NF != 5 || $4 != 0 { bad = 1; print "  " $0 } END { exit bad || NR < 20 }' "$WORK/ans.before"

# filter indexes built by 1.2's functions (1.3 replaced them) answer after the update
check "ALTER EXTENSION bloomset UPDATE TO '1.2'" q upgraded -c "ALTER EXTENSION bloomset UPDATE TO '1.2'"
check "filter indexes built under 1.2" q upgraded -o /dev/null -f "$HERE/filter_index.sql"
q upgraded -f "$HERE/filter_index_answers.sql" > "$WORK/fi.before"
fi_exact() {	# fi_exact FILE: every lookup line answers as the per-filter probe
	awk '$2 ~ /^lookup/ && $4 != 0 { bad = 1; print "  " $0 } END { exit bad || NR < 4 }' "$1"
}
check "1.2: filter index answers are the per-filter answers" fi_exact "$WORK/fi.before"

check "ALTER EXTENSION bloomset UPDATE" q upgraded -c "ALTER EXTENSION bloomset UPDATE"
q upgraded -f "$HERE/filter_index_answers.sql" > "$WORK/fi.after"
check "filter indexes built under 1.2 answer identically after the update" \
	same "$WORK/fi.before" "$WORK/fi.after"
check "filter indexes built under 1.2 take appends and removals after the update" \
	q upgraded -o /dev/null -c "INSERT INTO fi_chunk SELECT c, bloom_agg(c * 1000 + k, 100, 0.01)
		FROM generate_series(151, 230) c, generate_series(1, 100) k GROUP BY c" \
	-c "SELECT bloom_index_add('fi_chunk_idx', 'SELECT id, f FROM fi_chunk WHERE id > 150')" \
	-c "SELECT bloom_index_add('fi_chunk_idx', 9, (SELECT f FROM fi_chunk WHERE id = 8))" \
	-c "INSERT INTO fi_chunk SELECT 9, f FROM fi_chunk WHERE id = 8" \
	-c "DELETE FROM fi_chunk WHERE id = 12" -c "SELECT bloom_index_remove('fi_chunk_idx', 12)"
q upgraded -f "$HERE/filter_index_answers.sql" > "$WORK/fi.appended"
check "... and answer as the per-filter probe then" fi_exact "$WORK/fi.appended"
check "updated to the default version $default" \
	test "$(q upgraded -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomset'")" = "$default"
check "update path 1.0 -> $default exists in one step or more" \
	test -n "$(q postgres -c "SELECT path FROM pg_extension_update_paths('bloomset') WHERE source = '1.0' AND target = '$default'")"

# 1.2 made external the types' default storage: columns created before the
# update keep theirs (ALTER TYPE ... SET (STORAGE) changes only the default
# for new columns), new ones get external
check "columns created under 1.0 keep their storage (extended); new ones are external" \
	test "$(q upgraded -c "CREATE TEMP TABLE ak_new (f bloom, c counting_bloom, s scalable_bloom)" \
		-c "SELECT string_agg(attrelid::regclass || '.' || attname || '=' || attstorage::text, ' '
					ORDER BY attrelid::regclass::text, attname)
			  FROM pg_attribute WHERE attrelid IN ('ak_bloom'::regclass, 'ak_counting'::regclass,
			  'ak_scalable'::regclass, 'ak_new'::regclass) AND attname IN ('f', 'c', 's')")" = \
		"ak_bloom.f=x ak_counting.f=x ak_new.c=e ak_new.f=e ak_new.s=e ak_scalable.f=x"

# ---- objects: upgraded vs fresh
check "CREATE EXTENSION bloomset (fresh $default)" q fresh -c "CREATE EXTENSION bloomset"
q upgraded -f "$HERE/describe.sql" > "$WORK/objects.upgraded"
q fresh -f "$HERE/describe.sql" > "$WORK/objects.fresh"
n=$(wc -l < "$WORK/objects.fresh")
echo "objects compared: $n ($(awk -F' [|] ' '{print $1}' "$WORK/objects.fresh" | sort | uniq -c |
	awk '{c = $1; $1 = ""; printf "%s%s%s", sep, c, $0; sep = ", "}'))"
check "same objects, properties and comments as a fresh install ($n objects; diff: -upgraded +fresh)" \
	same "$WORK/objects.upgraded" "$WORK/objects.fresh"
check "the comparison sees every object (>= 100)" test "$n" -ge 100

# ---- stored filters
q upgraded -f "$HERE/fingerprints.sql" > "$WORK/fp.after"
q upgraded -f "$HERE/answers.sql" > "$WORK/ans.after"
check "stored filters byte-for-byte unchanged ($(wc -l < "$WORK/fp.before") filters)" \
	same "$WORK/fp.before" "$WORK/fp.after"
check "stored filters answer identically ($(awk '{s += $2} END {print s}' "$WORK/ans.before") probes)" \
	same "$WORK/ans.before" "$WORK/ans.after"

# ---- the same filters built under the new version are the same bits
check "filters of every kind built under $default" q fresh -f "$HERE/all_kinds.sql"
q fresh -f "$HERE/fingerprints.sql" > "$WORK/fp.fresh"
check "filters built by this library under the 1.0 objects and under $default are identical" \
	same "$WORK/fp.before" "$WORK/fp.fresh"
if [ "$(printf '%s\n' "$default" 1.2 | sort -V | head -1)" = 1.2 ]; then
	check "filters built by this library report hashing scheme 2 in both databases" \
		test "$(q upgraded -c "SELECT count(*) FILTER (WHERE bloom_scheme(f) = 2) || '/' || count(f) FROM ak_bloom")" = \
			"$(q fresh -c "SELECT count(f) || '/' || count(f) FROM ak_bloom")"
fi
finish
