#!/usr/bin/env bash
# test/upgrade/run.sh -- the extension upgrade paths: 1.0 -> default_version,
# and 1.4 -> default_version with stored scheme-2 filters and a bloomskip
# index.
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
#   - the installed SQL version, not the library, decides the hashing
#     scheme of new filters: under the 1.0 objects this library builds
#     scheme 1, as 1.0 and 1.1 did (text forms without "scheme="), and new
#     filters combine with the stored ones; from the update to 1.2 on (the
#     next statement of the same transaction) it builds scheme 2, and after
#     the update to the default version scheme 4, the same bits as a fresh
#     install of the default version builds.  These filters are
#     all built by the library under test: test/format_compat builds the
#     released 1.0 and 1.1 and compares their bits with this library's.
#   database "at14": CREATE EXTENSION bloomset VERSION '1.4', filters of
#     every kind and a bloomskip index (skip_index.sql) built under it, then
#     ALTER EXTENSION bloomset UPDATE: under 1.4 this library builds scheme
#     2 (filters and indexes), after the update scheme 4; the stored
#     filters are byte-for-byte unchanged and answer identically, the
#     index built under 1.4 keeps scheme 2 and answers as before and as a
#     sequential scan (skip_answers.sql), also after inserts, and a REINDEX
#     gives it scheme 4 with the same answers; a stored scheme-2 filter and
#     a new scheme-4 one refuse to combine (22023).
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

# ---- the hashing scheme follows the installed version
# (the filters appended to 1.2's filter indexes below are built with scheme
# 2, as theirs: since 1.5 bloom_agg builds scheme 4, which does not mix)
# under 1.0 (no bloom_scheme yet): the text form names every scheme but 1
check "filters built by this library under 1.0 have hashing scheme 1 (every kind)" \
	test "$(q upgraded -c "SELECT count(*) FILTER (WHERE t NOT LIKE '% scheme=%') || '/' || count(*)
		FROM (SELECT f::text AS t FROM ak_bloom WHERE f IS NOT NULL UNION ALL SELECT f::text FROM ak_counting
			  UNION ALL SELECT f::text FROM ak_scalable) x")" = 22/22
check "under 1.0, new filters combine with stored ones (union of every kind, members found)" \
	test "$(q upgraded -c "SELECT count(*) FROM ak_bloom b, ak_int i
		WHERE b.id = 1 AND NOT (b.f | (SELECT bloom_agg(x, 20000, 0.01) FROM ak_int WHERE x <= 10)) @> i.x" \
		-c "SELECT count(*) FROM ak_counting c, ak_int i WHERE c.id = 1 AND NOT
		counting_bloom_union(c.f, (SELECT counting_bloom_agg(x, 20000, 0.01) FROM ak_int WHERE x <= 10)) @> i.x" \
		-c "SELECT count(*) FROM ak_scalable s, ak_int i WHERE s.id = 1 AND NOT
		scalable_bloom_union(s.f, (SELECT scalable_bloom_agg(x, 1000, 0.01) FROM ak_int WHERE x <= 10)) @> i.x" \
		| tr '\n' ' ')" = "0 0 0 "

# the update to 1.2 (the first version of scheme 2), and in the same
# transaction the next statement's new filters are of scheme 2 (the one
# before: 1)
check "ALTER EXTENSION bloomset UPDATE TO '1.2'; the next statement of the transaction builds scheme 2 (the one before: 1)" \
	test "$(q upgraded -c "BEGIN" \
		-c "SELECT bloom_agg(x)::text LIKE '% scheme=%' FROM ak_int" \
		-c "ALTER EXTENSION bloomset UPDATE TO '1.2'" \
		-c "SELECT bloom_scheme(bloom_agg(x))::text || counting_bloom_scheme(counting_bloom_agg(x))
				|| scalable_bloom_scheme(scalable_bloom_agg(x)) FROM ak_int" \
		-c "COMMIT" | tr '\n' ' ')" = "f 222 "

# filter indexes built by 1.2's functions (1.3 replaced them) answer after the update
check "installed version is 1.2" \
	test "$(q upgraded -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomset'")" = 1.2
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
	q upgraded -o /dev/null -c "INSERT INTO fi_chunk SELECT c,
			bloom_add_all(bloom_with_scheme(bloom_empty(100, 0.01), 2), array_agg(c * 1000 + k))
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

# ---- filters built after the update are the bits a fresh install builds
check "filters of every kind built under $default" q fresh -f "$HERE/all_kinds.sql"
q fresh -f "$HERE/fingerprints.sql" > "$WORK/fp.fresh"
check "filters of every kind built in the updated database (schema after_update)" \
	q upgraded -c "CREATE SCHEMA after_update" -c "SET search_path = after_update, public" \
		-f "$HERE/all_kinds.sql" -f "$HERE/fingerprints.sql" -o "$WORK/fp.rebuilt"
check "filters built after the update and in the fresh $default database are identical" \
	same "$WORK/fp.rebuilt" "$WORK/fp.fresh"
check "filters built under 1.0 and under $default differ (scheme 1 and 2 set other bits)" \
	bash -c "! diff -q '$WORK/fp.before' '$WORK/fp.fresh' >/dev/null"
check "stored filters keep scheme 1, new ones get scheme 4 (bloom, counting, scalable)" \
	test "$(q upgraded -c "SELECT string_agg(s::text, ' ' ORDER BY s)
		FROM (SELECT DISTINCT bloom_scheme(f) + 10 * (n.nspname = 'after_update')::int AS s
				FROM (SELECT tableoid, f FROM public.ak_bloom UNION ALL SELECT tableoid, f FROM after_update.ak_bloom) b
				JOIN pg_class c ON c.oid = b.tableoid JOIN pg_namespace n ON n.oid = c.relnamespace
			   WHERE f IS NOT NULL
			  UNION SELECT counting_bloom_scheme(f) FROM public.ak_counting
			  UNION SELECT scalable_bloom_scheme(f) FROM public.ak_scalable
			  UNION SELECT 10 + counting_bloom_scheme(f) FROM after_update.ak_counting
			  UNION SELECT 10 + scalable_bloom_scheme(f) FROM after_update.ak_scalable) x")" = "1 14"
# ---- 1.4 with stored scheme-2 filters and a bloomskip index, then UPDATE
q postgres -c "CREATE DATABASE at14"
check "CREATE EXTENSION bloomset VERSION '1.4'" q at14 -c "CREATE EXTENSION bloomset VERSION '1.4'"
check "1.4: filters of every kind and a bloomskip index stored" \
	q at14 -o /dev/null -f "$HERE/all_kinds.sql" -f "$HERE/skip_index.sql"
skip_scheme() { q at14 -c "SELECT bloom_scheme(bloomskip_range_filter('sk_tn', 0, c)) FROM generate_series(1, 2) c" | tr '\n' ' '; }
check "under 1.4 this library builds scheme 2 (bloom, counting, scalable, text keys; the bloomskip index)" \
	test "$(q at14 -c "SELECT bloom_scheme(bloom_agg(t))::text || counting_bloom_scheme(counting_bloom_agg(t))
			|| scalable_bloom_scheme(scalable_bloom_agg(t)) || bloom_scheme(bloom_empty(10, 0.01) || 'x'::text)
			FROM ak_text")/$(skip_scheme)" = "2222/2 2 "
q at14 -f "$HERE/fingerprints.sql" > "$WORK/fp14.before"
q at14 -f "$HERE/answers.sql" > "$WORK/ans14.before"
q at14 -f "$HERE/skip_answers.sql" > "$WORK/skip14.before"
skip_sound() {	# skip_sound FILE: nothing missing, planned through the index, index = seq scan
	grep -qx 'missing 0' "$1" && grep -q 'Bitmap Index Scan on sk_tn' "$1" &&
	[ "$(grep '^index ' "$1" | sed 's/^index //')" = "$(grep '^seq ' "$1" | sed 's/^seq //')" ] &&
	[ "$(grep -c '^index ' "$1")" = 3 ]
}
check "1.4: the bloomskip index answers as a sequential scan" skip_sound "$WORK/skip14.before"
check "ALTER EXTENSION bloomset UPDATE (1.4 -> $default)" q at14 -c "ALTER EXTENSION bloomset UPDATE"
check "updated from 1.4 to the default version $default" \
	test "$(q at14 -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomset'")" = "$default"
q at14 -f "$HERE/fingerprints.sql" > "$WORK/fp14.after"
q at14 -f "$HERE/answers.sql" > "$WORK/ans14.after"
q at14 -f "$HERE/skip_answers.sql" > "$WORK/skip14.after"
check "filters stored under 1.4 byte-for-byte unchanged ($(wc -l < "$WORK/fp14.before") filters)" \
	same "$WORK/fp14.before" "$WORK/fp14.after"
check "filters stored under 1.4 answer identically, no false negative" \
	bash -c "diff -q '$WORK/ans14.before' '$WORK/ans14.after' > /dev/null &&
		awk 'NF != 5 || \$4 != 0 { bad = 1 } END { exit bad || NR < 20 }' '$WORK/ans14.after'"
check "the bloomskip index built under 1.4 keeps scheme 2 and answers identically" \
	bash -c "[ '$(skip_scheme)' = '2 2 ' ] && diff -q '$WORK/skip14.before' '$WORK/skip14.after' > /dev/null"
check "after the update new filters get scheme 4 (bloom, counting, scalable, text keys)" \
	test "$(q at14 -c "SELECT bloom_scheme(bloom_agg(t))::text || counting_bloom_scheme(counting_bloom_agg(t))
			|| scalable_bloom_scheme(scalable_bloom_agg(t)) || bloom_scheme(bloom_empty(10, 0.01) || 'x'::text)
			FROM ak_text")" = 4444
mixed_refused() {	# a union of scheme 2 and 4 is 22023, naming both schemes
	local out
	out=$(q at14 -c '\set VERBOSITY verbose' \
		-c "SELECT f | (SELECT bloom_agg(t) FROM ak_text) FROM ak_bloom WHERE id = 5" 2>&1)
	echo "$out" | grep -q 22023 && echo "$out" | grep -q 'hashing schemes (2 and 4)'
}
check "a stored scheme-2 filter and a new scheme-4 filter do not combine (22023)" mixed_refused
check "the bloomskip index built under 1.4 takes inserts and VACUUM after the update" \
	q at14 -c "INSERT INTO sk SELECT g, 'key-' || g, g::bigint * 1000003 FROM generate_series(40001, 50000) g" \
		-c "VACUUM sk"
q at14 -f "$HERE/skip_answers.sql" > "$WORK/skip14.inserted"
skip_kept() { [ "$(skip_scheme)" = "$1" ] && skip_sound "$2"; }
check "... keeps scheme 2 and answers as a sequential scan then" skip_kept "2 2 " "$WORK/skip14.inserted"
check "REINDEX in the updated database" q at14 -c "REINDEX INDEX sk_tn"
q at14 -f "$HERE/skip_answers.sql" > "$WORK/skip14.reindexed"
check "... gives the index scheme 4, with the same answers" \
	bash -c "[ '$(skip_scheme)' = '4 4 ' ] && diff -u '$WORK/skip14.inserted' '$WORK/skip14.reindexed'"
finish
