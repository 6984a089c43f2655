// test/parquet/duckdb_check.mjs -- DuckDB's side of the Parquet interop
// test (test/parquet/run.sh): DuckDB is the independent engine that writes
// Parquet files with split-block Bloom filters and probes them.
//
//   node duckdb_check.mjs write DIR
//     For every column type of TYPES: DIR/<name>.parquet, 100,000 rows of
//     10,000 distinct values in two row groups (values 0..4,999 in the
//     first, 5,000..9,999 in the second, each ten times), written with
//     Bloom filters; DIR/<name>.meta (the row groups' filter offsets and
//     lengths: "rg offset length" per line); DIR/<name>.values (the 10,000
//     members, then 10,000 values not in the file, as text, one per line);
//     DIR/<name>.duckdb (DuckDB's parquet_bloom_probe answer for each value
//     and row group: "t" may be present, "f" excluded; "rg0 rg1" per line).
//   node duckdb_check.mjs probe DIR NAME FILE
//     The same answers for the values of DIR/NAME.values against FILE (a
//     copy of DIR/NAME.parquet whose filters bloomset wrote), on stdout.
//   node duckdb_check.mjs roundtrip DIR
//     DIR/all.parquet: a column of every type bloom_from_parquet accepts
//     (COLUMNS), 4,096 rows in two row groups, written with Bloom filters;
//     the float columns hold -0.0 and the NaN of 'NaN' (7ff8...) in the
//     first row group, 0.0 and the NaN of 0/0 (fff8...) in the second.
//     DIR/all.meta: "column rg offset length" per filter; DIR/all.values:
//     "column rg value" for every other value, as text.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync, writeFileSync } from 'node:fs';

// name -> [DuckDB type, SQL expression of the i-th distinct value]; values
// i >= 10,000 are the non-members.  Negative numbers, dates before 1970 and
// 64-bit keys with bits in the high half are included on purpose.
const TYPES = {
  int32: ['INTEGER', 'CAST(i * 104729 - 1000000000 AS INTEGER)'],
  int64: ['BIGINT', 'CAST(i AS BIGINT) * 65536000007 - 4000000000000000000'],
  date: ['DATE', "DATE '1970-01-01' + CAST(i * 3 - 20000 AS INTEGER)"],
  timestamp: ['TIMESTAMP', 'make_timestamp(CAST(i AS BIGINT) * 3600000001 + 946684800000000)'],
  double: ['DOUBLE', 'CAST(i AS DOUBLE) * 0.5 - 2500.25'],
  text: ['VARCHAR', "'key-' || i || '-' || substr(md5(CAST(i AS VARCHAR)), 1, 6)"],
  uuid: ['UUID', "CAST(regexp_replace(md5(CAST(i AS VARCHAR)), " +
    "'(.{8})(.{4})(.{4})(.{4})(.{12})', '\\1-\\2-\\3-\\4-\\5') AS UUID)"],
};
const DISTINCT = 10000;
// DuckDB writes a Bloom filter only for a dictionary-encoded column chunk:
// the limit (bytes) must hold a row group's distinct values (5,000 of at
// most 36 bytes), and a larger one costs seconds per chunk
const DICT_LIMIT = 1000000;

// column -> [DuckDB type, SQL expression of row r's value]; the
// PostgreSQL types they are imported as are in run.sh
const RT_ROWS = 2048;	// per row group (DuckDB cuts row groups at multiples of 2,048)
const SPECIAL = `CASE r WHEN 0 THEN -0.0::DOUBLE WHEN 1 THEN 'NaN'::DOUBLE ` +
  `WHEN ${RT_ROWS} THEN 0.0::DOUBLE WHEN ${RT_ROWS + 1} THEN 0.0::DOUBLE / 0.0::DOUBLE ` +
  'ELSE r * 0.25 - 1000.125 END';
const COLUMNS = {
  i2: ['SMALLINT', 'CAST(r - 10000 AS SMALLINT)'],
  i4: ['INTEGER', 'CAST(r * 104729 - 1000000000 AS INTEGER)'],
  i8: ['BIGINT', 'CAST(r AS BIGINT) * 65536000007 - 4000000000000000000'],
  dt: ['DATE', "DATE '1970-01-01' + CAST(r * 3 - 20000 AS INTEGER)"],
  ts: ['TIMESTAMP', 'make_timestamp(CAST(r AS BIGINT) * 3600000001 + 946684800000000)'],
  tz: ['TIMESTAMPTZ', 'CAST(make_timestamp(CAST(r AS BIGINT) * 3600000001 - 946684800000000) AS TIMESTAMPTZ)'],
  f4: ['FLOAT', `CAST(${SPECIAL} AS FLOAT)`],
  f8: ['DOUBLE', SPECIAL],
  vc: ['VARCHAR', "'key-' || r || '-' || substr(md5(CAST(r AS VARCHAR)), 1, 6)"],
  bl: ['BLOB', "encode('blob-' || r)"],
  uu: ['UUID', "CAST(regexp_replace(md5(CAST(r AS VARCHAR)), " +
    "'(.{8})(.{4})(.{4})(.{4})(.{12})', '\\1-\\2-\\3-\\4-\\5') AS UUID)"],
};

const quote = (s) => "'" + s.replaceAll("'", "''") + "'";

async function values(con, name) {
  const [type, expr] = TYPES[name];
  const r = await con.runAndReadAll(
    `SELECT CAST(${expr} AS VARCHAR) FROM range(${2 * DISTINCT}) t(i) ORDER BY i`);
  return r.getRows().map((row) => row[0]);
}

// parquet_bloom_probe answers for every value; many probes per statement
async function probeAll(con, file, name, vals) {
  const type = TYPES[name][0];
  const out = [];
  const batch = 250;
  for (let lo = 0; lo < vals.length; lo += batch) {
    const parts = vals.slice(lo, lo + batch).map((v, j) =>
      `SELECT ${lo + j} AS k, row_group_id, bloom_filter_excludes FROM ` +
      `parquet_bloom_probe(${quote(file)}, 'v', CAST(${quote(v)} AS ${type}))`);
    const r = await con.runAndReadAll(parts.join(' UNION ALL '));
    for (const [k, rg, excl] of r.getRows()) {
      out[k] ??= ['t', 't'];
      out[k][Number(rg)] = excl ? 'f' : 't';
    }
  }
  return out.map((a) => a.join(' ')).join('\n') + '\n';
}

async function write(dir) {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  for (const [name, [type, expr]] of Object.entries(TYPES)) {
    const file = `${dir}/${name}.parquet`;
    await con.run(
      `COPY (SELECT ${expr} AS v FROM range(${DISTINCT * 10}) t(r), ` +
      `LATERAL (SELECT (r // 50000) * ${DISTINCT / 2} + r % ${DISTINCT / 2} AS i) ORDER BY r) ` +
      `TO ${quote(file)} (FORMAT parquet, ROW_GROUP_SIZE 50000, WRITE_BLOOM_FILTER true, ` +
      `BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01, DICTIONARY_SIZE_LIMIT ${DICT_LIMIT})`);
    const m = await con.runAndReadAll(
      `SELECT row_group_id, bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${quote(file)}) ` +
      "WHERE path_in_schema = 'v' ORDER BY row_group_id");
    const meta = m.getRows();
    if (meta.length !== 2 || meta.some((row) => row[1] === null))
      throw new Error(`${name}: expected two row groups with Bloom filters, got ${meta.length} filters`);
    writeFileSync(`${dir}/${name}.meta`, meta.map((row) => row.join(' ')).join('\n') + '\n');
    const vals = await values(con, name);
    writeFileSync(`${dir}/${name}.values`, vals.join('\n') + '\n');
    writeFileSync(`${dir}/${name}.duckdb`, await probeAll(con, file, name, vals));
    console.log(`${name}: ${type}, filters of ${meta.map((row) => row[2]).join(' and ')} bytes`);
  }
}

async function probe(dir, name, file) {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const vals = readFileSync(`${dir}/${name}.values`, 'utf8').trimEnd().split('\n');
  process.stdout.write(await probeAll(con, file, name, vals));
}

async function roundtrip(dir) {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const file = `${dir}/all.parquet`;
  const cols = Object.entries(COLUMNS).map(([c, [type, expr]]) => `CAST(${expr} AS ${type}) AS ${c}`);
  await con.run(
    `COPY (SELECT ${cols.join(', ')} FROM range(${2 * RT_ROWS}) t(r) ORDER BY r) ` +
    `TO ${quote(file)} (FORMAT parquet, ROW_GROUP_SIZE ${RT_ROWS}, WRITE_BLOOM_FILTER true, ` +
    `BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01, DICTIONARY_SIZE_LIMIT ${DICT_LIMIT})`);
  const m = await con.runAndReadAll(
    `SELECT path_in_schema, row_group_id, bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${quote(file)}) ` +
    'ORDER BY path_in_schema, row_group_id');
  const meta = m.getRows();
  if (meta.length !== 2 * Object.keys(COLUMNS).length || meta.some((row) => row[2] === null))
    throw new Error(`all.parquet: expected two row groups with Bloom filters per column, got ${meta.length} filters`);
  writeFileSync(`${dir}/all.meta`, meta.map((row) => row.join(' ')).join('\n') + '\n');
  const lines = [];
  for (const c of Object.keys(COLUMNS)) {
    const skip = c.startsWith('f') ? `WHERE NOT (isnan(${c}) OR ${c} = 0)` : '';
    const r = await con.runAndReadAll(
      `SELECT file_row_number // ${RT_ROWS}, CAST(${c} AS VARCHAR) ` +
      `FROM read_parquet(${quote(file)}, file_row_number = true) ${skip}`);
    for (const [rg, v] of r.getRows()) lines.push(`${c}\t${rg}\t${v}`);
  }
  writeFileSync(`${dir}/all.values`, lines.join('\n') + '\n');
  console.log(`all: ${meta.length} filters of ${Object.keys(COLUMNS).join(', ')}; ${lines.length} values`);
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'write') await write(args[0]);
else if (cmd === 'probe') await probe(args[0], args[1], args[2]);
else if (cmd === 'roundtrip') await roundtrip(args[0]);
else {
  console.error('usage: duckdb_check.mjs write DIR | probe DIR NAME FILE | roundtrip DIR');
  process.exit(2);
}
