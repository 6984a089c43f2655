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
      'BLOOM_FILTER_FALSE_POSITIVE_RATIO 0.01, DICTIONARY_SIZE_LIMIT 10000000)');
    const m = await con.runAndReadAll(
      `SELECT row_group_id, bloom_filter_offset, bloom_filter_length FROM parquet_metadata(${quote(file)}) ` +
      "WHERE path_in_schema = 'v' ORDER BY row_group_id");
    const meta = m.getRows();
    if (meta.length !== 2 || meta.some((row) => row[1] === null))
      throw new Error(`${name}: expected two row groups with Bloom filters, got ${JSON.stringify(meta)}`);
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

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'write') await write(args[0]);
else if (cmd === 'probe') await probe(args[0], args[1], args[2]);
else {
  console.error('usage: duckdb_check.mjs write DIR | probe DIR NAME FILE');
  process.exit(2);
}
