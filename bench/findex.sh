# bench/findex.sh -- case group "findex" of bench/run.sh (the
# bit-sliced filter index, bloom_index_*), sourced by run.sh.  Opt-in:
# runs only when BENCH_GROUPS names it (its data is a few GB and the first
# run generates it for minutes), e.g.
#     BENCH_GROUPS=findex BENCH_OUT=bench/results/findex-latest.md bash bench/run.sh 1000
#
# Data, the same key universe 0 ... 10^9 - 1 in three shapes:
#  findex_100k(id bigint, f bloom): 100,000 filters bloom_agg(k, 10000, 0.01),
#      filter i holds the keys i*10,000 ... i*10,000 + 9,999 (13,256 bytes each);
#  findex_10k(id bigint, f bloom): 10,000 filters bloom_agg(k, 100000, 0.01),
#      filter i holds the keys i*100,000 ... i*100,000 + 99,999 (131,688 bytes each);
#  findex_brin(id bigint, k bigint): the keys 0 ... BRIN_ROWS - 1 one a row
#      (id = k / 10,000, the findex_100k filter holding k), BRIN bloom index
#      int8_bloom_ops(n_distinct_per_range = -1, false_positive_rate = 0.01),
#      16 pages a range (as in the lookup group).  BRIN_ROWS: 10^8 by
#      default (BENCH_FINDEX_BRIN_ROWS); all 10^9 keys would be ~45 GB.
# The keys looked up are below 10^8, so each is in every shape.
#
# The cache: the two filter tables are generated once (set-based SQL, one
# part of 10^8 key insertions at a time, with progress) as binary COPY files
# (bloom's send/recv form) in
#     ${BENCH_FINDEX_CACHE:-/var/cache/bloomset-bench}/findex-v<FINDEX_FORMAT>-pg<major>[-div<d>]/
# and every run COPYs them into its throwaway cluster (about 8 s a set here).
# Files, not a data directory: the run's cluster creates the extension anew
# from the sources under test, so the cache does not depend on any catalog.
# A part is written under a temporary name and renamed when complete: an
# interrupted generation resumes at the missing parts.  generated.txt says
# when and how long.  Clear it: rm -rf /var/cache/bloomset-bench/findex-*
# (bump FINDEX_FORMAT below when the key scheme or bloom's binary form
# changes).  findex_brin is made anew every run (generate_series, no hashing
# but the index build's).
#
# Rows (groups findex100k and findex10k, one per scale; medians of
# interleaved rounds, and shared buffers hit + read from the warm-up under
# EXPLAIN (ANALYZE, BUFFERS), as the lookup rows):
#  - one key, ten keys through the filter index: bloom_index_lookup(index,
#    key), bloom_index_lookup_any(index, keys) -- vs the sliced per-filter
#    lookup over the same filters: count(*) WHERE f @> key, f @> ANY (keys);
#  - the same through BRIN: count(*) FROM findex_brin WHERE k = key,
#    k = ANY (keys) -- vs the per-filter lookup;
#  - build (group findex-build): bloom_index_create over all filters vs
#    reading every filter once, whole (sum(length(bloom_to_bytea(f))):
#    detoast and one copy, the union group's floor); goal ratio <= 2;
#    and against copying every filter into a new table (CREATE TABLE AS:
#    the write floor of any build, no goal);
#  - append (group findex-append): bloom_index_add of one 10,000-key filter
#    into the 100,000-filter index vs INSERT of the same filter into a plain
#    table, interleaved (bench_group: all in one transaction); goal <= 50 ms;
#    the appended ids are removed after.
# Without bloom_index_create (a build without the filter index) only the per-filter and
# BRIN rows are measured.
#
# Environment: BENCH_FINDEX_CACHE, BENCH_FINDEX_BRIN_ROWS (above),
# BENCH_FINDEX_DIV (d: 1/d of the filters and BRIN rows, for trying the
# harness; its own cache directory), BENCH_FINDEX_BUILD_REPS (builds per
# scale, default 3), BENCH_FINDEX_APPENDS (timed appends, default 15),
# BENCH_FINDEX_KEEP_FREE_GB (disk left free for others, default 25).

FINDEX_FORMAT=1
FINDEX_DIV=${BENCH_FINDEX_DIV:-1}
FINDEX_BRIN_ROWS=$(( ${BENCH_FINDEX_BRIN_ROWS:-100000000} / FINDEX_DIV ))
FINDEX_PART_KEYS=100000000	# key insertions per generated part
FINDEX_CACHE=${BENCH_FINDEX_CACHE:-/var/cache/bloomset-bench}/findex-v$FINDEX_FORMAT-pg$PG_MAJOR
[ "$FINDEX_DIV" = 1 ] || FINDEX_CACHE=$FINDEX_CACHE-div$FINDEX_DIV
# one key and ten keys, all below 10^8 (in the BRIN table too), ten filters apart
FINDEX_KEY=42000042
FINDEX_KEYS="ARRAY[1234567, 10934568, 20634569, 30334570, 40034571, 49734572, 59434573, 69134574, 78834575, 88534576]::bigint[]"

# findex_sets: "table filters keys_per_filter" for each set
findex_sets() {
	echo "findex_100k $(( 100000 / FINDEX_DIV )) 10000"
	echo "findex_10k $(( 10000 / FINDEX_DIV )) 100000"
}

# findex_check_disk: the data must fit with BENCH_FINDEX_KEEP_FREE_GB left
# free (other developers build and test on this disk).  Estimate: 1.25 GB
# per set in the cache (if not there yet), the same again for each set's
# table and for its index, 45 bytes a BRIN row, 2 GB of WAL and slack.
findex_check_disk() {
	local keep=${BENCH_FINDEX_KEEP_FREE_GB:-25} avail need_mb
	mkdir -p "$FINDEX_CACHE"
	avail=$(df -Pm "$(dirname "$FINDEX_CACHE")" | awk 'NR == 2 {print $4}')
	need_mb=$(( 2 * 2 * 1250 / FINDEX_DIV + FINDEX_BRIN_ROWS * 45 / 1000000 + 2000 ))
	[ -e "$FINDEX_CACHE/generated.txt" ] || need_mb=$(( need_mb + 2 * 1250 / FINDEX_DIV ))
	say "findex: disk free $(( avail / 1024 )) GB, this run needs about $(( need_mb / 1024 )) GB, keeping $keep GB free"
	if [ $(( avail - need_mb )) -lt $(( keep * 1024 )) ]; then
		echo "findex: not enough disk (set BENCH_FINDEX_BRIN_ROWS lower, or BENCH_FINDEX_KEEP_FREE_GB)" >&2
		return 1
	fi
}

# findex_parts N PER: the parts of a set of N filters of PER keys
findex_parts() { echo $(( ($1 + FINDEX_PART_KEYS / $2 - 1) / (FINDEX_PART_KEYS / $2) )); }

# findex_generate: write the missing parts of the cache
findex_generate() {
	local name n per nper part parts first last t0 t1
	mkdir -p "$FINDEX_CACHE"
	chown postgres "$FINDEX_CACHE"
	[ -e "$FINDEX_CACHE/generated.txt" ] && return 0
	t0=$(date +%s)
	while read -r name n per; do
		nper=$(( FINDEX_PART_KEYS / per ))
		parts=$(findex_parts "$n" "$per")
		for part in $(seq 0 $(( parts - 1 ))); do
			[ -e "$FINDEX_CACHE/$name.$part.copy" ] && continue
			first=$(( part * nper )); last=$(( first + nper - 1 < n - 1 ? first + nper - 1 : n - 1 ))
			say "findex: generating $name part $(( part + 1 ))/$parts (filters $first ... $last, $per keys each)"
			sql <<EOF
COPY (SELECT c AS id, (SELECT bloom_agg(c * $per + g, $per, 0.01) FROM generate_series(0::bigint, $per - 1) AS g) AS f
        FROM generate_series($first::bigint, $last) AS c)
  TO '$FINDEX_CACHE/$name.$part.copy.tmp' (FORMAT binary);
EOF
			mv "$FINDEX_CACHE/$name.$part.copy.tmp" "$FINDEX_CACHE/$name.$part.copy"
		done
	done < <(findex_sets)
	t1=$(date +%s)
	echo "generated $(date -u '+%Y-%m-%d %H:%M UTC') in $(( t1 - t0 )) s (parts not already there), bloomset $BUILD_REV, load average $(cut -d' ' -f1-3 /proc/loadavg); $(du -sh "$FINDEX_CACHE" | cut -f1)" \
		> "$FINDEX_CACHE/generated.txt"
}

# findex_load: the filter tables from the cache
findex_load() {
	local name n per part
	while read -r name n per; do
		say "findex: loading $name"
		{
			echo "BEGIN;"	# created and filled in one transaction: no WAL (wal_level = minimal)
			echo "CREATE TABLE $name (id bigint, f bloom);"
			for part in $(seq 0 $(( $(findex_parts "$n" "$per") - 1 ))); do
				echo "COPY $name FROM '$FINDEX_CACHE/$name.$part.copy' (FORMAT binary);"
			done
			echo "COMMIT;"
			echo "VACUUM ANALYZE $name;"
		} | sql
	done < <(findex_sets)
}

# findex_load_brin: findex_brin and its BRIN bloom index, made anew
findex_load_brin() {
	say "findex: building findex_brin ($FINDEX_BRIN_ROWS rows) and its BRIN bloom index"
	sql <<EOF
BEGIN;
CREATE TABLE findex_brin (id bigint, k bigint);
INSERT INTO findex_brin
	SELECT k / 10000, k FROM generate_series(0::bigint, $(( FINDEX_BRIN_ROWS / 10000 - 1 ))) AS c,
	  LATERAL (SELECT c * 10000 + g AS k FROM generate_series(0::bigint, 9999) AS g) AS s;
CREATE INDEX findex_brin_k ON findex_brin USING brin (k int8_bloom_ops(n_distinct_per_range = -1, false_positive_rate = 0.01))
	WITH (pages_per_range = 16);
COMMIT;
ANALYZE findex_brin;	-- no VACUUM: it would rewrite every page (hint bits), the lookups visit a few
EOF
}

findex_has_index() {
	[ "$(echo "SELECT to_regproc('bloom_index_create') IS NOT NULL" | psql_q -At)" = t ]
}

# findex_time GRP LABEL REP QUERY: one timed run (bench_once), with progress
findex_time() {
	printf "SELECT bench_once(%s, %s, %s, %s);\n" "$(sqlq "$1")" "$(sqlq "$2")" "$3" "$(sqlq "$4")" |
		psql_q -v VERBOSITY=terse >/dev/null 2> >(sed -n -e 's/^NOTICE:  /    /p' -e '/^ERROR/p' >&2)
}
sqlq() { printf "'%s'" "${1//\'/\'\'}"; }

# findex_build NAME TABLE: read every filter once (a warm-up, then timed),
# build the index, read again (BENCH_FINDEX_BUILD_REPS builds); the read's
# median is over the timed reads around the builds
findex_build() {
	local idx=$1 tab=$2 r reps=${BENCH_FINDEX_BUILD_REPS:-3}
	local readq="SELECT sum(length(bloom_to_bytea(f))) FROM $tab /* read every filter once */"
	local buildq="SELECT bloom_index_create('$idx', 'SELECT id, f FROM $tab')"
	local copyq="SELECT findex_copy('$tab', 'findex_copy') /* write floor: CREATE TABLE AS SELECT id, f FROM $tab */"
	findex_time findex-build "$readq" 0 "$readq"	# warm-up, not in the median
	findex_time findex-build "$readq" 1 "$readq"
	for r in $(seq 1 "$reps"); do
		echo "DROP TABLE IF EXISTS $idx;" | sql
		findex_time findex-build "$buildq" "$r" "$buildq"
		findex_time findex-build "$copyq" "$r" "$copyq"
		findex_time findex-build "$readq" $(( r + 1 )) "$readq"
	done
	echo "DROP TABLE findex_copy;" | sql
	sql <<EOF
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note, txt, goal) VALUES
 ('findex build, $(findex_scale "$tab")', 'findex-build', \$q\$$buildq\$q\$, 'findex-build', \$q\$$readq\$q\$, NULL,
  'index table $idx: ' || pg_size_pretty(pg_total_relation_size('$idx')) || ' (filters: ' || pg_size_pretty(pg_total_relation_size('$tab')) || ')'
  || '; backend on CPU (median) ' || bench_once_cpu_med('findex-build', \$q\$$buildq\$q\$) || ' s vs '
  || bench_once_cpu_med('findex-build', \$q\$$readq\$q\$) || ' s', 'ratio 2'),
 ('findex build, $(findex_scale "$tab")', 'findex-build', \$q\$$buildq\$q\$, 'findex-build', \$q\$$copyq\$q\$, NULL,
  'against copying every filter into a new table, the write floor of any build; backend on CPU (median) '
  || bench_once_cpu_med('findex-build', \$q\$$buildq\$q\$) || ' s vs '
  || bench_once_cpu_med('findex-build', \$q\$$copyq\$q\$) || ' s', NULL);
EOF
}

findex_scale() {
	case $1 in
		findex_100k) echo "$(commas $(( 100000 / FINDEX_DIV ))) filters of 10,000 keys" ;;
		findex_10k) echo "$(commas $(( 10000 / FINDEX_DIV ))) filters of 100,000 keys" ;;
	esac
}
# 100000000 -> 100,000,000
commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

# findex_lookups GRP TABLE INDEX: the lookup queries of one scale and their rows
findex_lookups() {
	local g=$1 tab=$2 idx=$3 has=$4 brin
	brin=$(commas "$FINDEX_BRIN_ROWS")
	sql <<EOF
INSERT INTO bench_q (grp, ord, label) VALUES
 ('$g', 1, 'SELECT count(*) FROM $tab WHERE f @> $FINDEX_KEY::bigint /* per-filter, sliced */'),
 ('$g', 2, 'SELECT count(*) FROM findex_brin WHERE k = $FINDEX_KEY::bigint /* BRIN int8_bloom_ops, $brin keys */'),
 ('$g', 4, 'SELECT count(*) FROM $tab WHERE f @> ANY ($FINDEX_KEYS) /* per-filter, sliced */'),
 ('$g', 5, 'SELECT count(*) FROM findex_brin WHERE k = ANY ($FINDEX_KEYS) /* BRIN int8_bloom_ops, $brin keys */');
INSERT INTO bench_q (grp, ord, label) SELECT * FROM (VALUES
 ('$g', 3, 'SELECT count(*) FROM bloom_index_lookup(''$idx'', $FINDEX_KEY::bigint) /* filter index */'),
 ('$g', 6, 'SELECT count(*) FROM bloom_index_lookup_any(''$idx'', $FINDEX_KEYS) /* filter index */')) AS v
 WHERE $has;
UPDATE bench_q SET query = label, workers = 0 WHERE query IS NULL;
-- rows: the filter index and BRIN, each against the per-filter lookup
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note, goal)
SELECT 'findex, $(findex_scale "$tab"), ' || CASE WHEN q.ord < 4 THEN 'one key' ELSE 'ten keys' END,
	   q.grp, q.label, b.grp, b.label, 'buffers lookup',
	   CASE WHEN q.ord = 3 AND '$tab' = 'findex_100k' THEN 'ms 10' END
  FROM bench_q q JOIN bench_q b ON b.grp = q.grp AND b.ord = CASE WHEN q.ord < 4 THEN 1 ELSE 4 END
 WHERE q.grp = '$g' AND q.ord IN (3, 2, 6, 5)
 ORDER BY q.ord / 4, q.ord DESC;
EOF
}

# findex_append: one filter appended to the 100,000-filter index, interleaved
# with the same filter inserted into a plain table; then removed again
findex_append() {
	sql <<'EOF'
CREATE SEQUENCE findex_app_id START 1000000000;
CREATE TABLE findex_app_plain (id bigint, f bloom);
INSERT INTO filters SELECT 'findex_app', f FROM findex_100k WHERE id = (SELECT max(id) / 2 FROM findex_100k);
INSERT INTO bench_q (grp, ord, label, query, workers, fname) VALUES
 ('findex-append', 1, 'SELECT bloom_index_add(''fi_100k'', nextval(''findex_app_id''), $1) /* one 10,000-key filter */', NULL, 0, 'findex_app'),
 ('findex-append', 2, 'INSERT INTO findex_app_plain VALUES (nextval(''findex_app_id''), $1) RETURNING id /* plain table */', NULL, 0, 'findex_app');
UPDATE bench_q SET query = label WHERE query IS NULL;
INSERT INTO bench_rows (name, grp, label, bgrp, blabel, note, goal)
SELECT 'findex append, ' || to_char((SELECT count(*) FROM findex_100k), 'FM999,999,990') || ' filters of 10,000 keys', 'findex-append', a.label, 'findex-append', b.label, 'buffers append', 'ms 50'
  FROM bench_q a, bench_q b WHERE a.grp = 'findex-append' AND b.grp = a.grp AND a.ord = 1 AND b.ord = 2;
EOF
	echo "SELECT bench_group('findex-append', ${BENCH_FINDEX_APPENDS:-15});" |
		psql_q -v VERBOSITY=terse >/dev/null 2> >(sed -n -e 's/^NOTICE:  /    /p' -e '/^ERROR/p' >&2)
	sql <<'EOF'
INSERT INTO bench_info
SELECT 'findex_append_removed', format('%s appended ids removed again (bloom_index_remove true), lookup of key 42000042 after: %s ids',
	count(*) FILTER (WHERE bloom_index_remove('fi_100k', i)),
	(SELECT count(*) FROM bloom_index_lookup('fi_100k', 42000042::bigint)))
  FROM generate_series(1000000000, (SELECT last_value FROM findex_app_id)) AS i;
DROP TABLE findex_app_plain;
EOF
}

# findex_info: sizes and answers (every method gives the same filters)
findex_info() {
	local has=$1
	sql <<EOF
INSERT INTO bench_info SELECT 'findex_sizes', format('findex_100k %s rows, %s; findex_10k %s rows, %s; filter bytes %s / %s; findex_brin %s rows, %s, BRIN index %s',
	(SELECT count(*) FROM findex_100k), pg_size_pretty(pg_total_relation_size('findex_100k')),
	(SELECT count(*) FROM findex_10k), pg_size_pretty(pg_total_relation_size('findex_10k')),
	(SELECT (bloom_info(f)).bytes FROM findex_100k LIMIT 1), (SELECT (bloom_info(f)).bytes FROM findex_10k LIMIT 1),
	(SELECT reltuples::bigint FROM pg_class WHERE relname = 'findex_brin'),
	pg_size_pretty(pg_relation_size('findex_brin')), pg_size_pretty(pg_relation_size('findex_brin_k')));
INSERT INTO bench_info VALUES ('findex_data', '$FINDEX_CACHE: $(cat "$FINDEX_CACHE/generated.txt")');
INSERT INTO bench_info SELECT 'findex_matches', format('key $FINDEX_KEY: per-filter %s of findex_100k, %s of findex_10k, BRIN %s rows (filter id %s); ten keys: per-filter %s / %s, BRIN %s distinct ids',
	(SELECT count(*) FROM findex_100k WHERE f @> $FINDEX_KEY::bigint), (SELECT count(*) FROM findex_10k WHERE f @> $FINDEX_KEY::bigint),
	(SELECT count(*) FROM findex_brin WHERE k = $FINDEX_KEY::bigint), (SELECT min(id) FROM findex_brin WHERE k = $FINDEX_KEY::bigint),
	(SELECT count(*) FROM findex_100k WHERE f @> ANY ($FINDEX_KEYS)), (SELECT count(*) FROM findex_10k WHERE f @> ANY ($FINDEX_KEYS)),
	(SELECT count(DISTINCT id) FROM findex_brin WHERE k = ANY ($FINDEX_KEYS)));
EOF
	$has || return 0
	sql <<EOF
INSERT INTO bench_info SELECT 'findex_index_matches', format('filter index: key $FINDEX_KEY %s of fi_100k, %s of fi_10k; ten keys %s / %s (the same as per-filter: %s)',
	(SELECT count(*) FROM bloom_index_lookup('fi_100k', $FINDEX_KEY::bigint)), (SELECT count(*) FROM bloom_index_lookup('fi_10k', $FINDEX_KEY::bigint)),
	(SELECT count(*) FROM bloom_index_lookup_any('fi_100k', $FINDEX_KEYS)), (SELECT count(*) FROM bloom_index_lookup_any('fi_10k', $FINDEX_KEYS)),
	(SELECT array_agg(i ORDER BY i) FROM bloom_index_lookup('fi_100k', $FINDEX_KEY::bigint) AS i)
	  = (SELECT array_agg(id ORDER BY id) FROM findex_100k WHERE f @> $FINDEX_KEY::bigint)
	AND (SELECT array_agg(i ORDER BY i) FROM bloom_index_lookup_any('fi_10k', $FINDEX_KEYS) AS i)
	  = (SELECT array_agg(id ORDER BY id) FROM findex_10k WHERE f @> ANY ($FINDEX_KEYS)));
EOF
}

# findex_run: the whole group
findex_run() {
	local has=false
	findex_check_disk || return 0
	psql_q -f "$BENCH_DIR/findex.sql" >/dev/null
	findex_generate
	findex_load
	findex_load_brin
	findex_has_index && has=true
	if $has; then
		findex_build fi_100k findex_100k
		findex_build fi_10k findex_10k
	else
		say "findex: bloom_index_create does not exist (a build without the filter index): per-filter and BRIN rows only"
	fi
	findex_info $has
	findex_lookups findex100k findex_100k fi_100k $has
	findex_lookups findex10k findex_10k fi_10k $has
	# each scale alone: the filters' TOAST exceeds shared_buffers
	bench_run findex100k
	bench_run findex10k
	$has && findex_append
	echo "DROP TABLE findex_100k, findex_10k, findex_brin;" | sql
	$has && echo "DROP TABLE fi_100k, fi_10k;" | sql
	return 0
}
