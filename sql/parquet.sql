-- Parquet filters (hashing scheme 3): the bitset of a Parquet split-block
-- filter, built, imported, exported, probed, and the errors around them.
-- DuckDB itself checks the interop in test/parquet/run.sh; here the fixed
-- vectors come from an independent implementation of the spec (Python's
-- xxhash, examples/parquet_probe.py's algorithm).
\set VERBOSITY default

-- the bitset of int4 1, 2, 3 in 64 bytes, and of 'apple', 'pear': exactly
-- what the spec's algorithm computes
SELECT encode(substring(bloom_to_parquet(bloom_add_all(bloom_parquet_empty(64, 'int4'), ARRAY[1, 2, 3]))
              FROM 17), 'hex') =
       '0000040000000008000080000100000000000080002000000000100000200000'
       '240000000000000c004080000402000080000004002040000000400200180000' AS int4_bits_as_spec;
SELECT encode(substring(bloom_to_parquet(bloom_add_all(bloom_parquet_empty(64, 'text'), ARRAY['apple', 'pear']))
              FROM 17), 'hex') =
       '0400000000000020000000040000010000000200800000000000008000040000'
       '0000004000100000000000020000002008000000000000040000000104000000' AS text_bits_as_spec;
-- the Thrift header (16 bytes here): numBytes 64, BLOCK, XXHASH, UNCOMPRESSED
SELECT encode(substring(bloom_to_parquet(bloom_parquet_empty(64, 'int4')) FOR 16), 'hex') AS header,
       length(bloom_to_parquet(bloom_parquet_empty(64, 'int4'))) AS total_bytes;

-- built by the aggregate, sized as Parquet writers size (a power of two)
SELECT (bloom_info(f)).bytes, (bloom_info(f)).layout, bloom_scheme(f), (bloom_info(f)).element_family,
       (bloom_info(f)).target_fpr
FROM (SELECT bloom_parquet_agg(g, 10000, 0.01) f FROM generate_series(1, 10000) g) s;
SELECT count(*) FILTER (WHERE NOT f @> g) AS false_negatives,
       count(*) FILTER (WHERE f @> g + 1000000) < 100 AS rate_below_1pct
FROM (SELECT bloom_parquet_agg(g, 10000, 0.01) f FROM generate_series(1, 10000) g) s,
     generate_series(1, 10000) g;

-- export and import round trip: with the header, and the bitset alone
SELECT bloom_from_parquet(bloom_to_parquet(f), 'int4') = f AS with_header,
       bloom_from_parquet(substring(bloom_to_parquet(f) FROM 18), 'int4') = f AS bitset_alone
FROM (SELECT bloom_parquet_agg(g, 10000, 0.01) f FROM generate_series(1, 10000) g) s;

-- typed keys: values of another type are converted to the filter's own
SELECT f @> 5 AS int4, f @> 5::int2 AS int2, f @> '5' AS literal, f @> 6 AS absent
FROM (SELECT bloom_parquet_empty(64, 'int8') || 5::bigint AS f) s;
SELECT (bloom_parquet_empty(64, 'int4') || 5) @> 5::bigint;	-- no implicit int8 -> int4
CREATE DOMAIN pq_dom AS integer CHECK (VALUE > 0);
SELECT (bloom_parquet_empty(64, 'pq_dom') || 7::pq_dom) @> 7 AS domain_as_base;
SELECT (bloom_parquet_empty(64, 'varchar') || 'x'::varchar) @> 'x'::text AS text_probes_varchar;

-- dates and timestamps: Parquet's epoch (1970), found as themselves
SELECT (bloom_parquet_empty(64, 'date') || '1969-12-31'::date) @> '1969-12-31'::date AS date_found,
       (bloom_parquet_empty(64, 'timestamptz') || '2024-05-01 12:00+02'::timestamptz)
         @> '2024-05-01 10:00+00'::timestamptz AS same_instant_found;

-- floats: 0.0 = -0.0 and NaN = NaN in SQL, so they answer alike
SELECT (bloom_parquet_empty(64, 'float8') || 0.0::float8) @> '-0'::float8 AS zero_finds_minus_zero,
       (bloom_parquet_empty(64, 'float8') || '-0'::float8) @> 0.0::float8 AS minus_zero_finds_zero,
       (bloom_parquet_empty(64, 'float8') || 'NaN'::float8) @> 'NaN'::float8 AS nan_finds_nan,
       (bloom_parquet_empty(64, 'float8') || '-NaN'::float8) @> 'NaN'::float8 AS minus_nan_finds_nan,
       (bloom_parquet_empty(64, 'float4') || '-0'::float4) @> 0.0::float4 AS float4_zeros,
       (bloom_parquet_empty(64, 'float4') || 'NaN'::float4) @> '-NaN'::float4 AS float4_nans;
-- a filter bloomset builds holds every encoding of the class a value is in
-- (for readers that probe raw bytes): bitsets from the spec's algorithm
-- (Python's xxhash) for {0.0, -0.0}, and for the quiet NaNs 7ff8.../fff8...
SELECT encode(substring(bloom_to_parquet(bloom_parquet_empty(64, 'float8') || '-0'::float8) FROM 17), 'hex') =
       '0102000000000104003000000000020210000800020000100040400008400000'
       '0000000000000000000000000000000000000000000000000000000000000000' AS float8_zeros_bits,
       encode(substring(bloom_to_parquet(bloom_add_all(bloom_parquet_empty(64, 'float8'), ARRAY['NaN'::float8])) FROM 17), 'hex') =
       '0000000000000000000000000000000000000000000000000000000000000000'
       '0000800120000800000100084000080000000210000000050008000401000040' AS float8_nans_bits,
       encode(substring(bloom_to_parquet(bloom_parquet_agg(x, 1, 0.5)) FROM 16), 'hex') =
       '00000820800000080a0000000240000010200000100000000008400000204000' AS float4_zeros_bits_agg
FROM (VALUES (0.0::float4), (0.0::float4)) v(x);
-- imported filters are probed for every encoding, not changed: a writer's
-- bitset holding only -0.0 (DuckDB writes -0.0 as it is), only 0.0, only
-- the positive or the negative quiet NaN (DuckDB writes 'NaN' as 7ff8...,
-- 0/0 as fff8...), in every probe function; a NaN with another payload (a
-- signalling NaN, 7ff0...01) is not among the encodings probed.
CREATE TABLE pq_float (name text, t regtype, bits bytea);
INSERT INTO pq_float VALUES
 ('-0.0 only', 'float8', '\x0100000000000100001000000000020000000800020000000000400008000000'
                         '0000000000000000000000000000000000000000000000000000000000000000'),
 ('+0.0 only', 'float8', '\x0002000000000004002000000000000210000000000000100040000000400000'
                         '0000000000000000000000000000000000000000000000000000000000000000'),
 ('NaN 7ff8 only', 'float8', '\x0000000000000000000000000000000000000000000000000000000000000000'
                             '0000000120000000000100004000000000000010000000040008000001000000'),
 ('NaN fff8 only', 'float8', '\x0000000000000000000000000000000000000000000000000000000000000000'
                             '0000800000000800000000080000080000000200000000010000000400000040'),
 ('NaN 7ff0...01 only', 'float8', '\x0000000200004000004000000000001000000040004000000000000400000008'
                                  '0000000000000000000000000000000000000000000000000000000000000000'),
 ('float4 -0.0 only', 'float4', '\x0000000000000000000000000000000000000000000000000000000000000000'
                                '0000080080000000020000000040000010000000100000000000400000200000'),
 ('float4 NaN ffc0 only', 'float4', '\x0000100000200000000002000000008000040000000200000400000000000008'
                                    '0000000000000000000000000000000000000000000000000000000000000000');
SELECT name,
       bloom_to_parquet(f) = substring(bloom_to_parquet(bloom_parquet_empty(64, t)) FOR 16) || bits AS bytes_kept,
       CASE WHEN t = 'float8'::regtype THEN
         ARRAY[f @> 0.0::float8, bloom_contains(f, '-0'::float8), f @> 'NaN'::float8, f @> 1.0::float8]
       ELSE
         ARRAY[f @> 0.0::float4, bloom_contains(f, '-0'::float4), f @> 'NaN'::float4, f @> 1.0::float4]
       END AS "0.0 -0.0 NaN 1.0",
       CASE WHEN t = 'float8'::regtype THEN
         ARRAY[bloom_contains_any(f, ARRAY[1.0, 0.0]::float8[]), bloom_contains_all(f, ARRAY['-0', 'NaN']::float8[])]
       ELSE
         ARRAY[bloom_contains_any(f, ARRAY[1.0, 0.0]::float4[]), bloom_contains_all(f, ARRAY['-0', 'NaN']::float4[])]
       END AS "any(1,0) all(-0,NaN)",
       CASE WHEN t = 'float8'::regtype THEN
         bloom_contains_each(f, ARRAY['-0', 1.0, NULL, 'NaN', 0.0]::float8[])
       ELSE
         bloom_contains_each(f, ARRAY['-0', 1.0, NULL, 'NaN', 0.0]::float4[])
       END AS "each(-0,1,NULL,NaN,0)"
FROM (SELECT name, t, bits, bloom_from_parquet(bits, t) f FROM pq_float) s ORDER BY name;
-- float4 keys probe a float8 filter as float8 (converted, so -0.0 stays -0.0)
SELECT bloom_from_parquet(bits, 'float8') @> '-0'::float4 AS float4_key_finds_zero
FROM pq_float WHERE name = '+0.0 only';

-- every probe path of stored filters: a DOUBLE column's filter as a writer
-- that hashes -0.0 as it is makes it, here through an INT64 filter of the
-- values' bit patterns (the same 8 PLAIN bytes: -0.0 is int8 -2^63), 8 kB
-- stored out of line uncompressed (read in slices), then probed with 0.0
-- and -0.0 per row, by the batched probe (the filter constant for the
-- scan), per element and through the filter index: false negatives 0.
CREATE TABLE pq_vals AS SELECT g * 0.5 AS v FROM generate_series(1, 2000) g
  UNION ALL SELECT '-0'::float8;
CREATE TABLE pq_stored (id bigint, f bloom);
ALTER TABLE pq_stored ALTER f SET STORAGE EXTERNAL;
INSERT INTO pq_stored
SELECT id, bloom_from_parquet(bloom_to_parquet(bloom_add_all(bloom_parquet_empty(8192, 'int8'),
         array_agg(('x' || encode(float8send(v), 'hex'))::bit(64)::bigint))), 'float8')
FROM pq_vals, generate_series(1, 3) id GROUP BY id;
CREATE TABLE pq_probe AS SELECT v FROM pq_vals UNION ALL SELECT 0.0::float8;
SET bloomset.probe_cache_size = 0;	-- every probe reads its parts anew
SELECT id, f @> 0.0::float8 AS zero, f @> '-0'::float8 AS minus_zero FROM pq_stored ORDER BY id;
SELECT count(*) FILTER (WHERE NOT f @> v) AS false_negatives_sliced,
       count(*) FILTER (WHERE v = 0.0 AND f @> v) AS zero_probes_found
FROM pq_stored, pq_probe;
RESET bloomset.probe_cache_size;
CREATE FUNCTION pq_batched(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF line LIKE '%Custom Scan (BloomProbe)%' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $$;
SELECT pq_batched('SELECT count(*) FROM pq_probe WHERE NOT (SELECT f FROM pq_stored WHERE id = 1) @> v')
         AS plan_is_batched_probe,
       count(*) AS false_negatives_batched
FROM pq_probe WHERE NOT (SELECT f FROM pq_stored WHERE id = 1) @> v;
SELECT count(*) FILTER (WHERE NOT x) AS false_negatives_each
FROM pq_stored, unnest(bloom_contains_each(f, ARRAY(SELECT v FROM pq_probe))) x;
SELECT bloom_index_create('pq_idx', 'SELECT id, f FROM pq_stored');
SELECT ARRAY(SELECT bloom_index_lookup('pq_idx', 0.0::float8) ORDER BY 1) AS index_zero,
       ARRAY(SELECT bloom_index_lookup('pq_idx', '-0'::float8) ORDER BY 1) AS index_minus_zero,
       ARRAY(SELECT bloom_index_lookup_any('pq_idx', ARRAY[0.0, 7777.0]::float8[]) ORDER BY 1) AS index_any;
DROP TABLE pq_vals, pq_stored, pq_probe, pq_idx;
DROP FUNCTION pq_batched;

-- imported and exported again, every type the import accepts keeps its
-- bytes: 50 dense random bitsets (md5) each, with the header and alone
SELECT count(*) AS bitsets,
       count(*) FILTER (WHERE bloom_to_parquet(bloom_from_parquet(x, t)) <> x) AS changed_with_header,
       count(*) FILTER (WHERE substring(bloom_to_parquet(bloom_from_parquet(substring(x FROM 17), t)) FROM 17)
                              <> substring(x FROM 17)) AS changed_bitset_alone
FROM unnest('{int2,int4,int8,date,timestamp,timestamptz,float4,float8,text,varchar,bytea,uuid}'::regtype[]) t,
     (SELECT substring(bloom_to_parquet(bloom_parquet_empty(64, 'int4')) FOR 16) ||
             decode(md5(i::text) || md5((-i)::text) || md5((i + 1000)::text) || md5((i + 2000)::text), 'hex') AS x
        FROM generate_series(1, 50) i) s;

-- union with filters of the same parameters; power-of-two sizes combine
-- as for every blocked filter
SELECT (a | b) @> 1 AND (a | b) @> 2 AS union_holds_both, bloom_scheme(a | b)
FROM (SELECT bloom_parquet_empty(64, 'int4') || 1 a, bloom_parquet_empty(64, 'int4') || 2 b) s;
SELECT (bloom_info(a | b)).bits / 8 AS union_bitset_bytes, (a | b) @> 1 AND (a | b) @> 2 AS union_holds_both
FROM (SELECT bloom_parquet_empty(128, 'int4') || 1 a, bloom_parquet_empty(64, 'int4') || 2 b) s;

-- parallel aggregation gives the serial filter
CREATE TABLE pq_t AS SELECT g FROM generate_series(1, 200000) g;
ANALYZE pq_t;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT bloom_parquet_agg(g, 200000, 0.01) FROM pq_t;
CREATE TABLE pq_par AS SELECT bloom_parquet_agg(g, 200000, 0.01) f FROM pq_t;
RESET parallel_setup_cost; RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size; RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
SELECT (SELECT f FROM pq_par) = bloom_parquet_agg(g, 200000, 0.01) AS parallel_equals_serial FROM pq_t;
RESET max_parallel_workers_per_gather;

-- text and binary forms round trip (scheme=3 in the text header)
SELECT f::text::bloom = f AND bloom_from_bytea(bloom_to_bytea(f)) = f AS roundtrips,
       split_part(f::text, ' ', 3) AS scheme_field
FROM (SELECT bloom_parquet_empty(64, 'uuid') || 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid f) s;

-- the README's example, on data that makes it meaningful: 200,000 orders of
-- 50,000 customers; a "chunk" filter of the customers whose id is a
-- multiple of 7 (42 among them) stands for the bytes read from a file.
-- The output of the block is not printed (2 MB of hex); the probe is
-- repeated after it.
CREATE TABLE orders AS SELECT (g % 50000)::bigint AS customer_id FROM generate_series(1, 200000) g;
SELECT bloom_to_parquet(bloom_parquet_agg(customer_id, 10000, 0.01)) AS chunk_filter_bytes
FROM orders WHERE customer_id % 7 = 0 \gset
\o /dev/null
-- a Parquet filter of a column, sized as Parquet writers size theirs
CREATE TABLE customer_filter AS
SELECT bloom_parquet_agg(customer_id, 1000000, 0.01) AS f FROM orders;

-- the bytes a Parquet writer puts in a file (Thrift header, then the
-- bitset): for Spark, DuckDB, Arrow, or examples/parquet_probe.py
SELECT bloom_to_parquet(f) FROM customer_filter;

-- a filter read from a Parquet file (the bloom_filter_length bytes at the
-- column chunk's bloom_filter_offset), probed in SQL
SELECT bloom_from_parquet(:'chunk_filter_bytes', 'bigint') @> 42;
\o
SELECT bloom_from_parquet(:'chunk_filter_bytes', 'bigint') @> 42 AS chunk_may_hold_42,
       bloom_from_parquet(:'chunk_filter_bytes', 'bigint') @> 43 AS chunk_may_hold_43;
SELECT (SELECT count(*) FROM orders, customer_filter WHERE NOT f @> customer_id) AS false_negatives,
       (SELECT length(bloom_to_parquet(f)) FROM customer_filter) AS parquet_bytes,
       (SELECT bloom_from_parquet(bloom_to_parquet(f), 'bigint') = f FROM customer_filter) AS roundtrip;
DROP TABLE orders, customer_filter;

-- errors
SELECT bloom_parquet_empty(64, 'numeric');
SELECT bloom_parquet_empty(48, 'int4');
SELECT bloom_parquet_empty(1000000, 0.9, 'int4');
SELECT bloom_from_parquet('\x0102'::bytea, 'int4');
SELECT bloom_from_parquet('\x15801c1c00001c1c00001c1c000000'::bytea, 'int4');
SELECT bloom_from_parquet(decode('15401c1c00001c1c00001c1c000000', 'hex') || decode(repeat('00', 32), 'hex'), 'int4');
SELECT bloom_from_parquet(decode('15801c2c00001c1c00001c1c000000', 'hex'), 'int4');
-- Thrift field ids past i16, by delta and by varint: refused before the id arithmetic overflows
SELECT bloom_from_parquet('\x0101010801f8ffffff8fffe92259006000'::bytea, 'int8');
SELECT bloom_from_parquet('\x01f8ffffffef00ff3239'::bytea, 'int8');
SELECT bloom_to_parquet(bloom_agg(g)) FROM generate_series(1, 10) g;
SELECT bloom_with_scheme(bloom_empty(10, 0.01), 3);
SELECT bloom_add(bloom_parquet_empty(64, 'date'), 'infinity'::date);
SELECT bloom_parquet_empty(64, 'int4') || 1 | bloom_parquet_empty(64, 'int8') || 1::bigint;
SELECT (bloom_parquet_empty(64, 'int4') || 1) | (bloom_empty(64, 8, 0) || 1);
SELECT (bloom_parquet_empty(64, 'text') || ('x' COLLATE "C")) @> 'x' AS deterministic_collation_fine;
CREATE COLLATION pq_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bloom_parquet_agg(x COLLATE pq_ci, 10, 0.01) FROM (VALUES ('a'), ('A')) v(x);
SELECT (bloom_parquet_empty(64, 'text') || 'a') @> ('A' COLLATE pq_ci);
-- a hand-made value claiming the Parquet scheme must be blocked, seed 0,
-- with a parquet: family, and a parquet: family needs the scheme
SELECT 'bloom:v1 layout=classic scheme=3 k=3 seed=0 bits=256 items=0 flags=0 coll=0 family=parquet:int4 hex=0000000000000000000000000000000000000000000000000000000000000000'::bloom;
SELECT 'bloom:v1 layout=blocked scheme=3 k=8 seed=5 bits=256 items=0 flags=0 coll=0 family=parquet:int4 hex=0000000000000000000000000000000000000000000000000000000000000000'::bloom;
SELECT 'bloom:v1 layout=blocked scheme=3 k=8 seed=0 bits=256 items=0 flags=0 coll=0 family=integer_ops hex=0000000000000000000000000000000000000000000000000000000000000000'::bloom;
SELECT 'bloom:v1 layout=blocked scheme=2 k=8 seed=0 bits=256 items=0 flags=0 coll=0 family=parquet:int4 hex=0000000000000000000000000000000000000000000000000000000000000000'::bloom;
DROP TABLE pq_t, pq_par, pq_float;
DROP DOMAIN pq_dom;
DROP COLLATION pq_ci;

-- a regtype argument that names no type: a user error, not an internal one
SELECT bloom_parquet_empty(65536, 0::oid::regtype);
SELECT bloom_parquet_empty(100, 0.01, 4294967295::oid::regtype);
SELECT bloom_from_parquet(bloom_to_parquet(bloom_parquet_empty(64, 'int4')), 0::oid::regtype);
