#!/usr/bin/env bash
# test/parquet/run.sh -- Parquet interop, checked against an independent
# engine: DuckDB (npm @duckdb/node-api, pinned in package.json, installed
# into test/parquet/node_modules, which git ignores) and the reference probe
# in examples/parquet_probe.py (Debian's python3-xxhash).
#
# 1. DuckDB writes Parquet files with Bloom filters for int32, int64, date,
#    timestamp, double, text and uuid columns (duckdb_check.mjs: 100,000
#    rows of 10,000 distinct values in two row groups) and probes each
#    filter for the 10,000 members and 10,000 values not in the file.
# 2. bloomset imports every filter (bloom_from_parquet of the bytes at the
#    offsets parquet_metadata reports) and answers the same 40,000 probes
#    per type: the answers must equal DuckDB's (for uuid, whose probe is
#    wrong in DuckDB 1.5.6 -- it never excludes -- they must equal the
#    reference probe's, which follows the spec), and the reference probe
#    must agree with bloom_contains on every value of every type.
# 3. The other way: bloomset builds each first row group's filter from the
#    same values plus 1,000 others, in DuckDB's size; its bytes are spliced
#    into a copy of the file in place of DuckDB's, and DuckDB's probe of the
#    copy must answer exactly as bloom_contains, excluding the second row
#    group wherever bloomset says so.  And bloomset's filter of exactly the
#    row group's values sets no bit that DuckDB's filter lacks.
# 4. Lossless import: DuckDB writes a column of every type bloom_from_parquet
#    accepts (duckdb_check.mjs roundtrip); every filter imported and
#    exported again has the bytes DuckDB wrote (imported with the header or
#    without); bloomset finds every value in its row group's filter; and
#    where the float columns' filters hold one zero and one NaN encoding
#    each (-0.0 and 7ff8... in one row group, 0.0 and fff8... in the other,
#    as the spec's probe shows), 0.0, -0.0 and NaN probe "maybe" in both.
# Prints "SUITE parquet: N passed, M failed"; where npm cannot reach its
# registry the suite prints a loud SKIPPED line instead of passing.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../scripts/lib.sh
source "$HERE/../../scripts/lib.sh"
set +e

pass=0 fail=0
WORK=$(mktemp -d /tmp/bloomset-parquet.XXXXXX)
chmod 755 "$WORK"
PG_ON_EXIT="pg_stop; rm -rf $WORK"
check() {	# check NAME COMMAND...: pass when the command succeeds
	local name=$1; shift
	if "$@"; then echo "ok    $name"; pass=$((pass + 1))
	else echo "FAIL  $name"; fail=$((fail + 1)); fi
}
# differ A B: the number of the 20,000 lines where the first column of A and
# of B differ; "short" (never 0) when either has not 20,000 lines
differ() {
	if [ "$(wc -l < "$1")" != 20000 ] || [ "$(wc -l < "$2")" != 20000 ]; then
		echo "short"; return
	fi
	paste -d' ' <(cut -d' ' -f1 "$1") <(cut -d' ' -f1 "$2") | awk '$1 != $2' | wc -l
}
# differ2 A B: the same over both row-group columns ("t t" lines)
differ2() {
	if [ "$(wc -l < "$1")" != 20000 ] || [ "$(wc -l < "$2")" != 20000 ]; then
		echo "short"; return
	fi
	paste -d' ' "$1" "$2" | awk '$1 != $3 || $2 != $4' | wc -l
}
finish() {
	echo "SUITE parquet: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
}

ensure_packages python3-xxhash
# Node.js: the machine's own if it has one (the machines here ship 20), else Debian's
command -v node >/dev/null || ensure_packages nodejs
command -v npm >/dev/null || ensure_packages npm
if ! (cd "$HERE" && timeout 300 npm install --no-audit --no-fund --loglevel=error) > "$WORK/npm.log" 2>&1; then
	if grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network' "$WORK/npm.log"; then
		echo "SKIPPED: npm cannot reach its registry, so DuckDB is not installed and the Parquet interop is NOT checked"
		echo "SUITE parquet: skipped"
		exit 0
	fi
	cat "$WORK/npm.log"; fail=1; finish
fi

echo "== DuckDB $(node -e 'console.log(require("'"$HERE"'/node_modules/@duckdb/node-api/package.json").version)') writes the Parquet files"
node "$HERE/duckdb_check.mjs" write "$WORK" || { fail=1; finish; }
chown -R postgres: "$WORK"

pg_start || { echo "FAIL  server start"; fail=1; finish; }
q() { psql_q -At "$@"; }
q -c "CREATE EXTENSION bloomset"

# name, PostgreSQL type, Parquet type for the reference probe
TYPES="int32:int4:INT32 int64:int8:INT64 date:date:DATE timestamp:timestamp:TIMESTAMP_MICROS
double:float8:DOUBLE text:text:BYTE_ARRAY uuid:uuid:FIXED_LEN_BYTE_ARRAY"
for spec in $TYPES; do
	IFS=: read -r name pgtype ptype <<< "$spec"
	file=$WORK/$name.parquet
	read -r _ off0 len0 < <(sed -n 1p "$WORK/$name.meta")
	read -r _ off1 len1 < <(sed -n 2p "$WORK/$name.meta")
	# the filters imported, the values, bloomset's answers ("t"/"f" per row group)
	q > "$WORK/$name.bloomset" <<-EOF
	CREATE TABLE v_$name (k serial, v text);
	COPY v_$name (v) FROM '$WORK/$name.values';
	CREATE TABLE f_$name AS SELECT
	  bloom_from_parquet(substring(b FROM $off0 + 1 FOR $len0), '$pgtype') AS f0,
	  bloom_from_parquet(substring(b FROM $off1 + 1 FOR $len1), '$pgtype') AS f1,
	  substring(b FROM $off0 + 1 FOR $len0) AS raw0
	  FROM pg_read_binary_file('$file') b;
	SELECT CASE WHEN f0 @> v::$pgtype THEN 't' ELSE 'f' END || ' ' ||
	       CASE WHEN f1 @> v::$pgtype THEN 't' ELSE 'f' END
	  FROM v_$name, f_$name ORDER BY k;
	EOF
	[ -s "$WORK/$name.bloomset" ] || { echo "FAIL  $name: no answers from bloomset"; fail=$((fail + 1)); continue; }
	# the reference probe over the first row group's filter bytes
	q -c "COPY (SELECT encode(raw0, 'hex') FROM f_$name) TO STDOUT" | xxd -r -p > "$WORK/$name.rg0.bin"
	/usr/bin/python3 "$REPO_ROOT/examples/parquet_probe.py" "$WORK/$name.rg0.bin" "$ptype" \
		< "$WORK/$name.values" > "$WORK/$name.python"

	members=$(awk 'NR <= 10000 && (($1 == "f" && NR <= 5000) || ($2 == "f" && NR > 5000))' "$WORK/$name.bloomset" | wc -l)
	check "$name: bloomset finds all 10,000 members in their row group's filter" test "$members" = 0
	excluded=$(awk 'NR > 10000 { e += ($1 == "f") + ($2 == "f") } END { print e + 0 }' "$WORK/$name.bloomset")
	check "$name: bloomset excludes $excluded of 20,000 (non-member, row group) pairs (at least 19,000)" \
		test "$excluded" -ge 19000
	if [ "$name" = uuid ]; then
		ddiff=$(differ2 "$WORK/$name.bloomset" "$WORK/$name.duckdb")
		echo "      uuid: DuckDB's probe disagrees on $ddiff of 20,000 values (DuckDB 1.5.6 never excludes a uuid; compared with the spec instead)"
	else
		ddiff=$(differ2 "$WORK/$name.bloomset" "$WORK/$name.duckdb")
		check "$name: bloomset and DuckDB agree on all 40,000 (value, row group) probes (disagreements: $ddiff)" \
			test "$ddiff" = 0
	fi
	pdiff=$(differ "$WORK/$name.bloomset" "$WORK/$name.python")
	check "$name: examples/parquet_probe.py agrees with bloom_contains on all 20,000 values (disagreements: $pdiff)" \
		test "$pdiff" = 0

	# the other way: bloomset's filter in DuckDB's file, of DuckDB's size
	nb=$(q -c "SELECT (bloom_info(f0)).bits / 8 FROM f_$name")
	# bloomset's filter of exactly the first row group's values: every bit it
	# sets is set in DuckDB's (same hash, same block and bit placement);
	# DuckDB's may hold more (its writer adds values beyond the row group's,
	# as its own probe shows)
	q > "$WORK/$name.same" <<-EOF
	SELECT bloom_maybe_subset(o, f0)::text || ' ' || (bloom_to_parquet(o) = raw0)::text || ' ' ||
	       (bloom_info(o)).bits_set || ' ' || (bloom_info(f0)).bits_set
	  FROM f_$name, (SELECT bloom_add_all(bloom_parquet_empty($nb, '$pgtype'), array_agg(v::$pgtype)) o
	                   FROM v_$name WHERE k <= 5000) s;
	EOF
	read -r subset same ours theirs < "$WORK/$name.same"
	check "$name: every bit of bloomset's filter of the row group's 5,000 values is set in DuckDB's ($ours of DuckDB's $theirs bits; identical bytes: $same)" \
		test "$subset" = true
	q -c "COPY (SELECT encode(bloom_to_parquet(bloom_add_all(bloom_parquet_empty($nb, '$pgtype'), array_agg(v::$pgtype))), 'hex')
	        FROM v_$name WHERE k <= 5000 OR k > 19000) TO STDOUT" | xxd -r -p > "$WORK/$name.ours.bin"
	check "$name: bloom_to_parquet writes a filter of DuckDB's length ($len0 bytes)" \
		test "$(stat -c %s "$WORK/$name.ours.bin")" = "$len0"
	cp "$file" "$WORK/$name.spliced.parquet"
	dd if="$WORK/$name.ours.bin" of="$WORK/$name.spliced.parquet" bs=1 seek="$off0" conv=notrunc status=none
	node "$HERE/duckdb_check.mjs" probe "$WORK" "$name" "$WORK/$name.spliced.parquet" > "$WORK/$name.spliced"
	q > "$WORK/$name.ours" <<-EOF
	SELECT CASE WHEN g @> v::$pgtype THEN 't' ELSE 'f' END
	  FROM v_$name, (SELECT bloom_add_all(bloom_parquet_empty($nb, '$pgtype'), array_agg(v::$pgtype)) g
	                   FROM v_$name WHERE k <= 5000 OR k > 19000) o ORDER BY k;
	EOF
	if [ "$name" = uuid ]; then
		sdiff=$(differ "$WORK/$name.spliced" "$WORK/$name.ours")
		echo "      uuid: DuckDB's probe of the spliced file disagrees on $sdiff values (its uuid probe never excludes)"
		/usr/bin/python3 "$REPO_ROOT/examples/parquet_probe.py" "$WORK/$name.ours.bin" "$ptype" \
			< "$WORK/$name.values" > "$WORK/$name.ours.python"
		sdiff=$(differ "$WORK/$name.ours.python" "$WORK/$name.ours")
		check "$name: the spec's probe of bloomset's exported filter agrees with bloom_contains (disagreements: $sdiff)" \
			test "$sdiff" = 0
	else
		sdiff=$(differ "$WORK/$name.spliced" "$WORK/$name.ours")
		skipped=$(awk '$1 == "f"' "$WORK/$name.spliced" | wc -l)
		check "$name: DuckDB reads bloomset's filter in its file: it skips the row group for exactly the $skipped values bloomset excludes (disagreements: $sdiff)" \
			test "$sdiff" = 0 -a "$skipped" -gt 8000
	fi
done

echo "== lossless import: every type bloom_from_parquet accepts"
node "$HERE/duckdb_check.mjs" roundtrip "$WORK" || { fail=$((fail + 1)); finish; }
chown -R postgres: "$WORK"
q <<-EOF
CREATE TABLE rt_meta (col text, rg int, off int, len int);
COPY rt_meta FROM '$WORK/all.meta' (DELIMITER ' ');
CREATE TABLE rt_values (col text, rg int, v text);
COPY rt_values FROM '$WORK/all.values';
CREATE TABLE rt_raw AS SELECT col, rg, substring(b FROM off + 1 FOR len) AS raw
  FROM rt_meta, pg_read_binary_file('$WORK/all.parquet') b;
EOF
# column:PostgreSQL type[:Parquet type of the float columns, for the spec's probe]
RT="i2:int2 i4:int4 i8:int8 dt:date ts:timestamp tz:timestamptz f4:float4:FLOAT f8:float8:DOUBLE
vc:text vc:varchar bl:bytea uu:uuid"
for spec in $RT; do
	IFS=: read -r col pgtype ptype <<< "$spec"
	# filters, identical exports (header given, bitset alone), values, false negatives
	read -r nf same bare nv fn < <(q -F' ' <<-EOF
	SELECT count(*), count(*) FILTER (WHERE bloom_to_parquet(f) = raw),
	       count(*) FILTER (WHERE bloom_to_parquet(bloom_from_parquet(substring(raw FROM length(raw) - nbytes + 1),
	                                                                 '$pgtype')) = raw),
	       (SELECT count(*) FROM rt_values WHERE col = '$col'),
	       (SELECT count(*) FROM rt_values v JOIN rt_raw r USING (col, rg)
	         WHERE col = '$col' AND NOT bloom_from_parquet(r.raw, '$pgtype') @> v.v::$pgtype)
	  FROM rt_raw, LATERAL (SELECT bloom_from_parquet(raw, '$pgtype') AS f) s,
	       LATERAL (SELECT ((bloom_info(f)).bits / 8)::int AS nbytes) b
	 WHERE col = '$col';
	EOF
	)
	check "$col as $pgtype: bloom_to_parquet(bloom_from_parquet(x)) = x byte for byte for DuckDB's ${nf:-0} filters (from the bytes with the header: ${same:-0}, from the bitset alone: ${bare:-0})" \
		test "${nf:-0}" = 2 -a "${same:-0}" = 2 -a "${bare:-0}" = 2
	check "$col as $pgtype: bloomset finds all ${nv:-0} values in their row group's filter (false negatives: ${fn:-?})" \
		test "${nv:-0}" -ge 4000 -a "${fn:-1}" = 0
	[ -n "$ptype" ] || continue
	# the encodings each row group's filter holds, by the spec's probe of the
	# raw bytes for 0.0, -0.0 and NaN (Python's: 7ff8... / 7fc0...)
	spec_ans=""
	for rg in 0 1; do
		q -c "COPY (SELECT encode(raw, 'hex') FROM rt_raw WHERE col = '$col' AND rg = $rg) TO STDOUT" |
			xxd -r -p > "$WORK/rt.$col.$rg.bin"
		spec_ans+="$(printf '0.0\n-0.0\nnan\n' |
			/usr/bin/python3 "$REPO_ROOT/examples/parquet_probe.py" "$WORK/rt.$col.$rg.bin" "$ptype" | tr -d '\n') "
	done
	check "$col: DuckDB's filters hold one encoding of each class: -0.0 and NaN 7ff8 in row group 0, 0.0 and NaN fff8 in row group 1 (the spec's probe of 0.0 -0.0 NaN: ${spec_ans% })" \
		test "$spec_ans" = "ftt tff "
	ours=$(q -c "SELECT string_agg(CASE WHEN f @> 0.0::$pgtype THEN 't' ELSE 'f' END ||
	                               CASE WHEN f @> '-0'::$pgtype THEN 't' ELSE 'f' END ||
	                               CASE WHEN f @> 'NaN'::$pgtype THEN 't' ELSE 'f' END, ' ' ORDER BY rg)
	             FROM (SELECT rg, bloom_from_parquet(raw, '$pgtype') f FROM rt_raw WHERE col = '$col') s")
	check "$col: bloomset's probes of 0.0, -0.0 and NaN answer maybe in both row groups ($ours)" \
		test "$ours" = "ttt ttt"
done
finish
