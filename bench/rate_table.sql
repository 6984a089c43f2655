-- bench/rate_table.sql -- the README's hashing table: for each key set, the
-- promised false-positive rate and the rate measured with hashing scheme 1
-- (bloomset 1.0, 1.1: bloom_with_scheme(..., 1)) and scheme 2 (new filters
-- since 1.2), the same filter size for both (bloom_empty(capacity, rate)
-- and bloom_add_all), probed with the same non-members.
--   psql -X -f bench/rate_table.sql   (in a database with bloomset 1.2)
-- Prints one row per key set: keyset | promise | probes | scheme 1 | scheme 2.
\set QUIET on
SET extra_float_digits = 0;
CREATE TEMP TABLE rt_out (ord serial, keyset text, promise float8, probes bigint,
                          scheme1 float8, scheme2 float8);

CREATE FUNCTION pg_temp.rt(set_name text, members text, nonmembers text,
                           capacity bigint, fpr float8 DEFAULT 0.01) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  f1 bloom;
  f2 bloom;
  fp1 bigint;
  fp2 bigint;
  n bigint;
BEGIN
  -- array keys: array_agg would flatten them, so an aggregate over bloom_add
  -- starting from the empty filter of each scheme
  IF set_name ~ '\[\]' THEN
    EXECUTE format('CREATE AGGREGATE pg_temp.rt_add1(anycompatible) (sfunc = bloom_add, stype = bloom, initcond = %L)',
                   bloom_with_scheme(bloom_empty(capacity, fpr), 1)::text);
    EXECUTE format('CREATE AGGREGATE pg_temp.rt_add2(anycompatible) (sfunc = bloom_add, stype = bloom, initcond = %L)',
                   bloom_empty(capacity, fpr)::text);
    EXECUTE format('SELECT pg_temp.rt_add1(k), pg_temp.rt_add2(k) FROM (%s) m', members) INTO f1, f2;
    DROP AGGREGATE pg_temp.rt_add1(anycompatible);
    DROP AGGREGATE pg_temp.rt_add2(anycompatible);
  ELSE
    EXECUTE format('SELECT bloom_add_all(bloom_with_scheme(bloom_empty(%s, %s), 1), array_agg(k)),
                           bloom_add_all(bloom_empty(%s, %s), array_agg(k)) FROM (%s) m',
                   capacity, fpr, capacity, fpr, members) INTO f1, f2;
  END IF;
  EXECUTE format('SELECT count(*) FILTER (WHERE $1 @> k), count(*) FILTER (WHERE $2 @> k), count(*) FROM (%s) q',
                 nonmembers) INTO fp1, fp2, n USING f1, f2;
  INSERT INTO rt_out (keyset, promise, probes, scheme1, scheme2)
    VALUES (set_name, fpr, n, fp1::float8 / n, fp2::float8 / n);
END $$;

CREATE TYPE pg_temp.rt_pair AS (a int8, b text);

-- the rows of the scheme comparison (docs/format.md)
SELECT pg_temp.rt('bigint, shard in the high half: (1 << 32) + i, probed (2 << 32) + i',
  'SELECT (1::int8 << 32) + i AS k FROM generate_series(1, 100000) i',
  'SELECT (2::int8 << 32) + i AS k FROM generate_series(1, 200000) i', 100000);
SELECT pg_temp.rt('bigint, 1,000,000 random keys at 1e-5',
  'SELECT (''x'' || left(md5(i::text), 16))::bit(64)::int8 AS k FROM generate_series(1, 1000000) i',
  'SELECT (''x'' || left(md5((-i)::text), 16))::bit(64)::int8 AS k FROM generate_series(1, 2000000) i', 1000000, 1e-5);
SELECT pg_temp.rt('timestamptz, 1,000,000 random instants at 1e-5',
  'SELECT timestamptz ''2000-01-01 00:00+00'' + ((''x'' || left(md5(i::text), 12))::bit(48)::int8 % 3000000000000000) * interval ''1 microsecond'' AS k FROM generate_series(1, 1000000) i',
  'SELECT timestamptz ''2000-01-01 00:00+00'' + ((''x'' || left(md5((-i)::text), 12))::bit(48)::int8 % 3000000000000000) * interval ''1 microsecond'' AS k FROM generate_series(1, 2000000) i', 1000000, 1e-5);
SELECT pg_temp.rt('numeric i, probed -i',
  'SELECT i::numeric AS k FROM generate_series(1, 100000) i',
  'SELECT -i::numeric AS k FROM generate_series(1, 200000) i', 100000);
SELECT pg_temp.rt('jsonb {"id": i}, probed {"id": -i}',
  'SELECT jsonb_build_object(''id'', i) AS k FROM generate_series(1, 100000) i',
  'SELECT jsonb_build_object(''id'', -i) AS k FROM generate_series(1, 200000) i', 100000);
-- capacity 10 at 1e-5 (classic): 200 filters of 10 keys, 10,000 probes each
INSERT INTO rt_out (keyset, promise, probes, scheme1, scheme2)
SELECT 'bigint, capacity 10 at 1e-5 (classic, k = 17), 200 filters', 1e-5, count(*),
       count(*) FILTER (WHERE f1 @> (1000000 + g * 10000 + j)::int8) / count(*)::float8,
       count(*) FILTER (WHERE f2 @> (1000000 + g * 10000 + j)::int8) / count(*)::float8
FROM (SELECT g, bloom_add_all(bloom_with_scheme(bloom_empty(10, 1e-5), 1), array_agg(g * 10 + i::int8)) AS f1,
             bloom_add_all(bloom_empty(10, 1e-5), array_agg(g * 10 + i::int8)) AS f2
      FROM generate_series(1, 200) g, generate_series(1, 10) i GROUP BY g) s,
     generate_series(1, 10000) j;
-- bloom_shrink(explicit 1 MiB, k = 20, 100 keys, 1e-6): 50 filters, 100,000 probes each
INSERT INTO rt_out (keyset, promise, probes, scheme1, scheme2)
SELECT 'bloom_shrink(1 MiB k=20 of 100 keys, 1e-6), 50 filters', 1e-6, count(*),
       count(*) FILTER (WHERE f1 @> (10000000 + g * 100000 + j)::int8) / count(*)::float8,
       count(*) FILTER (WHERE f2 @> (10000000 + g * 100000 + j)::int8) / count(*)::float8
FROM (SELECT g, bloom_shrink(bloom_add_all(bloom_with_scheme(bloom_empty(1048576, 20, 0), 1), array_agg(g * 100 + i::int8)), 1e-6) AS f1,
             bloom_shrink(bloom_add_all(bloom_empty(1048576, 20, 0), array_agg(g * 100 + i::int8)), 1e-6) AS f2
      FROM generate_series(1, 50) g, generate_series(1, 100) i GROUP BY g) s,
     generate_series(1, 100000) j;

-- every hashable built-in type family (100,000 members at 1 %, 200,000 probes)
SELECT pg_temp.rt(v.keyset, v.members, v.nonmembers, 100000) FROM (VALUES
  ('int2 / int4 / int8 (integer_ops): int4 i, probed -i', 'SELECT i AS k FROM generate_series(1, 100000) i', 'SELECT -i AS k FROM generate_series(1, 200000) i'),
  ('integer_ops: int4 probes of an int8 filter with a shard in the high half', 'SELECT (3::int8 << 32) + i AS k FROM generate_series(1, 100000) i', 'SELECT i::int4 AS k FROM generate_series(1, 200000) i'),
  ('int8, epoch in the high half, fixed low half', 'SELECT (i::int8 << 32) + 12345 AS k FROM generate_series(1, 100000) i', 'SELECT (i::int8 << 32) + 54321 AS k FROM generate_series(1, 200000) i'),
  ('int8, dense low bits', 'SELECT i::int8 AS k FROM generate_series(1, 100000) i', 'SELECT i::int8 AS k FROM generate_series(100001, 300000) i'),
  ('numeric (numeric_ops): i / 100, probed -i / 100', 'SELECT (i / 100.0)::numeric AS k FROM generate_series(1, 100000) i', 'SELECT (-i / 100.0)::numeric AS k FROM generate_series(1, 200000) i'),
  ('float4 / float8 (float_ops): i, probed -i', 'SELECT i::float8 AS k FROM generate_series(1, 100000) i', 'SELECT -i::float8 AS k FROM generate_series(1, 200000) i'),
  ('text / varchar / name (text_ops): dense', 'SELECT ''key-'' || i AS k FROM generate_series(1, 100000) i', 'SELECT ''key-'' || i AS k FROM generate_series(100001, 300000) i'),
  ('char(n) (bpchar_ops): dense', 'SELECT (''c'' || i)::char(12) AS k FROM generate_series(1, 100000) i', 'SELECT (''c'' || i)::char(12) AS k FROM generate_series(100001, 300000) i'),
  ('bytea (bytea_ops): dense', 'SELECT int8send(i) AS k FROM generate_series(1, 100000) i', 'SELECT int8send(i) AS k FROM generate_series(100001, 300000) i'),
  ('uuid (uuid_ops): random', 'SELECT md5(i::text)::uuid AS k FROM generate_series(1, 100000) i', 'SELECT md5((-i)::text)::uuid AS k FROM generate_series(1, 200000) i'),
  ('date (date_ops): dense', 'SELECT date ''2000-01-01'' + i AS k FROM generate_series(1, 100000) i', 'SELECT date ''2000-01-01'' - i AS k FROM generate_series(1, 200000) i'),
  ('timestamp (timestamp_ops): an epoch (2^32 us) apart', 'SELECT timestamp ''2000-01-01'' + ((1::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 100000) i', 'SELECT timestamp ''2000-01-01'' + ((2::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 200000) i'),
  ('timestamptz (timestamptz_ops): an epoch (2^32 us) apart', 'SELECT timestamptz ''2000-01-01 00:00+00'' + ((5::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 100000) i', 'SELECT timestamptz ''2000-01-01 00:00+00'' + ((6::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 200000) i'),
  ('timestamptz: seconds, probed before', 'SELECT timestamptz ''2020-01-01 00:00+00'' + i * interval ''1 s'' AS k FROM generate_series(1, 100000) i', 'SELECT timestamptz ''2020-01-01 00:00+00'' - i * interval ''1 s'' AS k FROM generate_series(1, 200000) i'),
  ('time (time_ops): an epoch (2^32 us) apart', 'SELECT time ''00:00'' + ((1::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 100000) i', 'SELECT time ''00:00'' + ((2::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 200000) i'),
  ('timetz (timetz_ops): an epoch (2^32 us) apart', 'SELECT (time ''00:00'' + ((1::int8 << 32) + i) * interval ''1 microsecond'')::timetz AS k FROM generate_series(1, 100000) i', 'SELECT (time ''00:00'' + ((2::int8 << 32) + i) * interval ''1 microsecond'')::timetz AS k FROM generate_series(1, 200000) i'),
  ('interval (interval_ops): an epoch (2^32 us) apart', 'SELECT ((1::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 100000) i', 'SELECT ((2::int8 << 32) + i) * interval ''1 microsecond'' AS k FROM generate_series(1, 200000) i'),
  ('oid (oid_ops): dense', 'SELECT i::oid AS k FROM generate_series(1, 100000) i', 'SELECT i::oid AS k FROM generate_series(100001, 300000) i'),
  ('xid (xid_ops): dense', 'SELECT i::text::xid AS k FROM generate_series(1, 100000) i', 'SELECT i::text::xid AS k FROM generate_series(100001, 300000) i'),
  ('xid8 (xid8_ops): epoch in the high half', 'SELECT ((1::int8 << 32) + i)::text::xid8 AS k FROM generate_series(1, 100000) i', 'SELECT ((2::int8 << 32) + i)::text::xid8 AS k FROM generate_series(1, 200000) i'),
  ('pg_lsn (pg_lsn_ops): segment in the high half', 'SELECT (''1/'' || to_hex(i))::pg_lsn AS k FROM generate_series(1, 100000) i', 'SELECT (''2/'' || to_hex(i))::pg_lsn AS k FROM generate_series(1, 200000) i'),
  ('inet / cidr (network_ops): dense', 'SELECT (''10.0.0.0''::inet + i) AS k FROM generate_series(1, 100000) i', 'SELECT (''10.128.0.0''::inet + i) AS k FROM generate_series(1, 200000) i'),
  ('macaddr (macaddr_ops): dense', 'SELECT (''08:00:2b:'' || lpad(to_hex(i >> 16), 2, ''0'') || '':'' || lpad(to_hex((i >> 8) & 255), 2, ''0'') || '':'' || lpad(to_hex(i & 255), 2, ''0''))::macaddr AS k FROM generate_series(1, 100000) i', 'SELECT (''08:00:2c:'' || lpad(to_hex(i >> 16), 2, ''0'') || '':'' || lpad(to_hex((i >> 8) & 255), 2, ''0'') || '':'' || lpad(to_hex(i & 255), 2, ''0''))::macaddr AS k FROM generate_series(1, 200000) i'),
  ('macaddr8 (macaddr8_ops): dense', 'SELECT (''08:00:2b:01:02:'' || lpad(to_hex(i >> 16), 2, ''0'') || '':'' || lpad(to_hex((i >> 8) & 255), 2, ''0'') || '':'' || lpad(to_hex(i & 255), 2, ''0''))::macaddr8 AS k FROM generate_series(1, 100000) i', 'SELECT (''08:00:2b:01:03:'' || lpad(to_hex(i >> 16), 2, ''0'') || '':'' || lpad(to_hex((i >> 8) & 255), 2, ''0'') || '':'' || lpad(to_hex(i & 255), 2, ''0''))::macaddr8 AS k FROM generate_series(1, 200000) i'),
  ('tid (tid_ops): dense', 'SELECT (''('' || i || '',1)'')::tid AS k FROM generate_series(1, 100000) i', 'SELECT (''('' || i || '',2)'')::tid AS k FROM generate_series(1, 200000) i'),
  ('jsonb (jsonb_ops): [i, [i + 1]], probed [[i], i + 1]', 'SELECT jsonb_build_array(i, jsonb_build_array(i + 1)) AS k FROM generate_series(1, 100000) i', 'SELECT jsonb_build_array(jsonb_build_array(i), i + 1) AS k FROM generate_series(1, 200000) i'),
  ('int4range (range_ops): dense', 'SELECT int4range(i, i + 10) AS k FROM generate_series(1, 100000) i', 'SELECT int4range(i, i + 11) AS k FROM generate_series(1, 200000) i'),
  ('int8range: shard in the high half', 'SELECT int8range((1::int8 << 32) + i, (1::int8 << 32) + i + 1) AS k FROM generate_series(1, 100000) i', 'SELECT int8range((2::int8 << 32) + i, (2::int8 << 32) + i + 1) AS k FROM generate_series(1, 200000) i'),
  ('int8multirange (multirange_ops): shard in the high half', 'SELECT int8multirange(int8range((1::int8 << 32) + i, (1::int8 << 32) + i + 1)) AS k FROM generate_series(1, 100000) i', 'SELECT int8multirange(int8range((2::int8 << 32) + (i # 3), (2::int8 << 32) + (i # 3) + 1)) AS k FROM generate_series(1, 200000) i'),
  ('text[] (array_ops): dense', 'SELECT ARRAY[''a'' || i, ''b''] AS k FROM generate_series(1, 100000) i', 'SELECT ARRAY[''b'', ''a'' || i] AS k FROM generate_series(1, 200000) i'),
  ('int8[]: shard in the high half', 'SELECT ARRAY[(1::int8 << 32) + i] AS k FROM generate_series(1, 100000) i', 'SELECT ARRAY[(2::int8 << 32) + i] AS k FROM generate_series(1, 200000) i'),
  ('composite (record_ops) (int8, text): dense', 'SELECT ROW(i, ''x'')::pg_temp.rt_pair AS k FROM generate_series(1, 100000) i', 'SELECT ROW(i, ''y'')::pg_temp.rt_pair AS k FROM generate_series(1, 200000) i'),
  ('composite (int8, text): shard in the high half', 'SELECT ROW((1::int8 << 32) + i, ''x'')::pg_temp.rt_pair AS k FROM generate_series(1, 100000) i', 'SELECT ROW((2::int8 << 32) + i, ''x'')::pg_temp.rt_pair AS k FROM generate_series(1, 200000) i')
) v(keyset, members, nonmembers);

\set QUIET off
SELECT keyset, promise, probes, scheme1, scheme2 FROM rt_out ORDER BY ord;
