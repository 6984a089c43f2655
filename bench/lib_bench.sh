# bench/lib_bench.sh -- shared by bench/run.sh and bench/profile.sh (sourced
# after scripts/lib.sh).  bench_setup N: build, install privately, start a throwaway
# cluster and load the benchmark data (t, filters, target, staging) with N
# rows; sql: psql with @N@ / @NTARGET@ substituted in the script on stdin.

say() { echo "[$(date +%H:%M:%S)] $*" >&2; }

sql() {
	sed -e "s/@N@/$N/g" -e "s/@NTARGET@/$NTARGET/g" | psql_q -v VERBOSITY=terse "$@"
}

# bench_build: build and install bloomset where nothing else can touch it.
# The work tree and the system's PostgreSQL lib directory are shared with
# other developers' builds and test runs (which install their own
# bloomset.so at any moment), so the benchmark
#  - builds from a snapshot of the sources (src/, Makefile, SQL, control),
#  - installs into a private copy of PostgreSQL 15 (PostgreSQL finds its
#    lib and share directories relative to its binaries), and
#  - runs that copy's server, so every backend loads this very build.
# Sets BENCH_ROOT, PG_BIN (the private copy) and BUILD_REV.
bench_build() {
	local root=$BENCH_DIR/.. snap sys_bin=$PG_BIN src_root
	BENCH_ROOT=$(mktemp -d /tmp/bloomset-bench.XXXXXX)
	chmod 755 "$BENCH_ROOT"
	snap=$BENCH_ROOT/src
	mkdir -p "$snap" "$BENCH_ROOT/pg/usr/lib/postgresql" "$BENCH_ROOT/pg/usr/share/postgresql"
	(cd "$root" && tar cf - --exclude='*.o' --exclude='*.bc' --exclude='*.so' \
		Makefile ./*.control extension src) | tar xf - -C "$snap"
	BUILD_REV=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')
	if [ -n "$(git -C "$root" status --porcelain -- src Makefile extension bloomset.control 2>/dev/null)" ]; then
		BUILD_REV="$BUILD_REV + uncommitted changes"
	fi
	BUILD_REV="$BUILD_REV (source snapshot hash $(cd "$snap" && cat Makefile $(find extension -name "*.sql" | sort) $(find src -name "*.[ch]" | sort) | sha1sum | cut -c1-10))"
	# the PostgreSQL that PG_BIN belongs to (Debian's, or a private copy:
	# BLOOMSET_PG15_ROOT), copied
	src_root=$(cd "$sys_bin/../../../.." && pwd)
	cp -a "$src_root/lib/postgresql/$PG_MAJOR" "$BENCH_ROOT/pg/usr/lib/postgresql/"
	cp -a "$src_root/share/postgresql/$PG_MAJOR" "$BENCH_ROOT/pg/usr/share/postgresql/"
	say "building bloomset $BUILD_REV into $BENCH_ROOT"
	make -C "$snap" -s -j2 PG_CONFIG="$sys_bin/pg_config" >/dev/null
	# staged, then copied into the copy's lib and extension directories
	# (DESTDIR prefixes the installing PostgreSQL's own paths, which differ
	# from the copy's)
	make -C "$snap" -s PG_CONFIG="$sys_bin/pg_config" DESTDIR="$BENCH_ROOT/stage" install >/dev/null
	PG_BIN=$BENCH_ROOT/pg/usr/lib/postgresql/$PG_MAJOR/bin
	cp "$BENCH_ROOT/stage$("$sys_bin/pg_config" --pkglibdir)/bloomset.so" "$("$PG_BIN/pg_config" --pkglibdir)/"
	cp "$BENCH_ROOT/stage$("$sys_bin/pg_config" --sharedir)"/extension/bloomset* "$("$PG_BIN/pg_config" --sharedir)/extension/"
	# the JIT's bitcode of this build, not the copied one
	if [ -d "$BENCH_ROOT/stage$("$sys_bin/pg_config" --pkglibdir)/bitcode" ]; then
		rm -rf "$("$PG_BIN/pg_config" --pkglibdir)/bitcode/bloomset" "$("$PG_BIN/pg_config" --pkglibdir)/bitcode/bloomset.index.bc"
		cp -r "$BENCH_ROOT/stage$("$sys_bin/pg_config" --pkglibdir)/bitcode/." "$("$PG_BIN/pg_config" --pkglibdir)/bitcode/"
	fi
	cmp -s "$snap/bloomset.so" "$("$PG_BIN/pg_config" --pkglibdir)/bloomset.so" ||
		{ echo "the benchmark's copy of PostgreSQL does not have this build of bloomset" >&2; exit 1; }
}

# Huge pages for the server's shared memory, for the tuned configuration only
# (BENCH_TUNED=1; the PostgreSQL documentation recommends them for large
# shared_buffers): with 4 kB pages every parallel worker takes a page fault
# on each 4 kB of shared_buffers it touches for the first time (~100 ms per
# worker for this table).  Reserves just enough 2 MB pages (vm.nr_hugepages,
# root only) and gives them back on exit; without them the server runs with
# huge_pages = off.  BENCH_HUGE_PAGES=0 skips this.
BENCH_HUGEPAGES_OLD=
bench_hugepages() {
	local sb_mb pages
	HUGE_SETTING="huge_pages = off"
	[ "${BENCH_HUGE_PAGES:-1}" = 1 ] && [ "$(id -u)" = 0 ] || return 0
	case "$SB" in
		*GB) sb_mb=$(( ${SB%GB} * 1024 )) ;;
		*MB) sb_mb=${SB%MB} ;;
		*) return 0 ;;
	esac
	pages=$(( sb_mb / 2 + 256 ))
	BENCH_HUGEPAGES_OLD=$(cat /proc/sys/vm/nr_hugepages)
	echo "$(( BENCH_HUGEPAGES_OLD + pages ))" > /proc/sys/vm/nr_hugepages
	if [ "$(cat /proc/sys/vm/nr_hugepages)" -ge $(( BENCH_HUGEPAGES_OLD + pages )) ]; then
		HUGE_SETTING="huge_pages = on"
	else
		say "could not reserve $pages huge pages; running with huge_pages = off"
		echo "$BENCH_HUGEPAGES_OLD" > /proc/sys/vm/nr_hugepages
		BENCH_HUGEPAGES_OLD=
	fi
}

bench_cleanup() {
	pg_stop
	if [ -n "$BENCH_HUGEPAGES_OLD" ]; then
		echo "$BENCH_HUGEPAGES_OLD" > /proc/sys/vm/nr_hugepages
		BENCH_HUGEPAGES_OLD=
	fi
	[ -n "${BENCH_ROOT:-}" ] && rm -rf "$BENCH_ROOT"
	BENCH_ROOT=
}

# The server's configuration.  Default (what the committed report runs, "a
# default-configured server as users run it"): PostgreSQL's defaults for
# memory, huge pages and JIT (shared_buffers = 128MB, work_mem = 4MB,
# huge_pages = try, jit = on), and only what the measurement method needs:
#  - max_parallel_workers_per_gather = 0: every case sets its workers per
#    query (bench_ms); this keeps loading and the space section serial,
#  - autovacuum = off: no autovacuum or autoanalyze runs among the timed
#    rounds (the tables are VACUUM ANALYZEd once after loading),
#  - wal_level = minimal, max_wal_senders = 0, synchronous_commit = off:
#    faster loading only (the timed queries write no WAL),
#  - max_wal_size = 20GB, checkpoint_timeout = 1h: no checkpoint among the
#    timed rounds.
# BENCH_TUNED=1: the tuned configuration beside it -- shared_buffers =
# BENCH_SHARED_BUFFERS (2GB) on huge pages, work_mem = 256MB,
# maintenance_work_mem = 1GB, jit = off.  Sets BENCH_CONFIG (the name) and
# SB (shared_buffers as set, or "default").
bench_setup() {
	local conf
	N=$1
	NTARGET=$(( N < 1000000 ? N : 1000000 ))
	ensure_base_packages
	ensure_packages postgresql-$PG_MAJOR-hll
	bench_build
	PG_ON_EXIT=bench_cleanup	# pg_start's exit trap: also frees the huge pages
	trap bench_cleanup EXIT
	conf=("max_parallel_workers_per_gather = 0" "autovacuum = off"
		"wal_level = minimal" "max_wal_senders = 0" "max_wal_size = 20GB"
		"checkpoint_timeout = 1h" "synchronous_commit = off")
	if [ "${BENCH_TUNED:-0}" = 1 ]; then
		BENCH_CONFIG=tuned
		SB=${BENCH_SHARED_BUFFERS:-2GB}
		bench_hugepages
		conf+=("shared_buffers = $SB" "$HUGE_SETTING" "jit = off"
			"work_mem = 256MB" "maintenance_work_mem = 1GB")
	else
		BENCH_CONFIG=default
		SB=default
	fi
	say "configuration: $BENCH_CONFIG"
	pg_start "${conf[@]}"
	[ "$(echo "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'" | psql_q -At)" = \
	  "$BENCH_ROOT/pg/usr/lib/postgresql/$PG_MAJOR/lib" ] || { echo "private PostgreSQL copy not in use" >&2; exit 1; }
say "loading $N rows"
sql <<'EOF'
CREATE EXTENSION bloomset;
CREATE EXTENSION hll;
CREATE EXTENSION pg_prewarm;
CREATE TABLE t AS SELECT id::bigint AS id, md5(id::text) AS s FROM generate_series(1, @N@) AS id;
CREATE TABLE filters (name text PRIMARY KEY, f bloom);
EOF
psql_q -f "$BENCH_DIR/bench_helpers.sql" >/dev/null

say "building the stored filters"
sql <<'EOF'
-- the largest capacity whose 1 % filter fits in 1 MiB, capped at the rows
SELECT least(max(c), @N@) AS nsmall
  FROM generate_series(100000, 2000000, 1000) AS c
 WHERE (bloom_params(c, 0.01)).bytes <= 1048576 \gset
INSERT INTO bench_info VALUES ('nsmall', :nsmall);
INSERT INTO filters SELECT 'big', bloom_agg(s, @N@, 0.01) FROM t;
INSERT INTO filters SELECT 'small', bloom_agg(s, :nsmall, 0.01) FROM t WHERE id <= :nsmall;
EOF

say "loading the ETL tables"
sql <<'EOF'
-- target: @NTARGET@ keys; staging: @N@ keys, every other one already in target
CREATE TABLE target AS SELECT md5(i::text) AS key FROM generate_series(1, @NTARGET@) AS i;
CREATE TABLE staging AS
	SELECT md5(CASE WHEN i % 2 = 0 THEN (i / 2) % @NTARGET@ + 1 ELSE @NTARGET@ + i END::text) AS key
	  FROM generate_series(1, @N@) AS i;
INSERT INTO filters SELECT 'target', bloom_agg(key, @NTARGET@, 0.01) FROM target;
VACUUM ANALYZE t;
VACUUM ANALYZE filters;
VACUUM ANALYZE target;
VACUUM ANALYZE staging;
SET parallel_setup_cost = 0;
SELECT pg_prewarm('t') + pg_prewarm('staging') + pg_prewarm('target') AS blocks \gset
INSERT INTO bench_info
SELECT 'etl_bloom', count(*) FROM staging WHERE NOT bloom_contains((SELECT f FROM filters WHERE name = 'target'), key);
INSERT INTO bench_info
SELECT 'etl_exact', count(*) FROM staging s WHERE NOT EXISTS (SELECT 1 FROM target t WHERE t.key = s.key);
INSERT INTO bench_info
SELECT 'filter_sizes', string_agg(format('%s %s B stored as %s B', name, (bloom_info(f)).bytes, pg_column_size(f)), ', ' ORDER BY name)
  FROM filters;
EOF

}

# bench_pages TABLE: its size in pages.
bench_pages() {
	echo "SELECT pg_relation_size('$1') / 8192" | psql_q -At
}

# bench_shrink_back TABLE PAGES: TABLE back to the PAGES it was loaded
# with, after appended rows were deleted and VACUUM ran.  VACUUM truncates
# the emptied tail, but not always all of it; then the table is rewritten
# (VACUUM FULL keeps the rows' order), so that the next index's appends go
# to the table's end, as appends do, and not into free space in the middle.
bench_shrink_back() {
	local pages
	pages=$(bench_pages "$1")
	if [ "$pages" -gt "$2" ]; then
		say "$1: $pages pages after VACUUM where $2 were loaded: VACUUM FULL"
		echo "VACUUM FULL $1;" | psql_q >/dev/null
	fi
}

# bench_settings: the server's settings that shape the timings, as it reports
# them (for the report's header), and whether its shared memory is on huge
# pages (PostgreSQL 15 does not say: a 2 MB KernelPageSize mapping in a
# backend's smaps is the shared memory on huge pages).
bench_settings() {
	psql_q -At <<'SQL'
LOAD 'bloomset';
SELECT string_agg(format('%s = %s', n, current_setting(n)), ', ' ORDER BY o)
	|| format(' (huge pages in use: %s)',
			  CASE WHEN pg_read_file('/proc/self/smaps') ~ 'KernelPageSize: +2048 kB' THEN 'yes' ELSE 'no' END)
  FROM unnest(ARRAY['shared_buffers', 'huge_pages', 'work_mem', 'hash_mem_multiplier',
					'maintenance_work_mem', 'effective_cache_size', 'jit',
					'max_parallel_workers_per_gather', 'autovacuum', 'wal_level',
					'max_wal_size', 'checkpoint_timeout', 'synchronous_commit',
					'bloomset.probe_cache_size']) WITH ORDINALITY AS u(n, o);
SQL
}

# bench_perf_stat grp label: run the case (grp, label) of bench_q once more,
# in a backend of its own watched by `perf stat -p` (that backend only, from
# before the query starts to after it ends), and print the counters as one
# Markdown table cell: dTLB load misses and cache misses per row of N (the
# probe rows' question: is the time a TLB miss and a cache miss per row?),
# page faults and CPU time.  Hardware counters read "not supported" where
# the CPU's performance-monitoring unit is not exposed (many virtual
# machines: the kernel says "PMU not available due to virtualization").
bench_perf_stat() {
	local out pidf
	out=$(mktemp) pidf=$(mktemp)
	psql_q -At >/dev/null <<EOF
SELECT pg_backend_pid() AS pid \gset
\setenv BENCH_PERF_PID :pid
\! perf stat -x ';' -e dTLB-load-misses,cache-misses,page-faults,task-clock -p "\$BENCH_PERF_PID" -o $out & echo \$! > $pidf
SELECT pg_sleep(0.5);
SELECT bench_ms(query, bench_filter(fname), workers, false, guc) FROM bench_q WHERE grp = '$1' AND label = \$q\$$2\$q\$;
\! kill -INT \$(cat $pidf); sleep 0.5
EOF
	awk -F';' -v n="$N" '
		/^#/ || NF < 3 { next }
		$3 ~ /task-clock/ { printf "%sCPU %.0f ms", sep, $1; sep = ", "; next }
		$1 ~ /not (supported|counted)/ { printf "%s%s %s", sep, $3, "not supported"; sep = ", "; next }
		$3 ~ /page-faults/ { printf "%spage faults %d", sep, $1; sep = ", "; next }
		{ printf "%s%s %.2f per row", sep, $3, $1 / n; sep = ", " }
		END { print "" }' "$out"
	rm -f "$out" "$pidf"
}
