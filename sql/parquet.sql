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
       (bloom_parquet_empty(64, 'float8') || 'NaN'::float8) @> 'NaN'::float8 AS nan_finds_nan;
-- an exported filter holding 0.0 holds -0.0's encoding too (for readers
-- that probe the raw bytes), and an imported one holds the canonical NaN
SELECT bloom_from_parquet(bloom_to_parquet(bloom_parquet_empty(64, 'float8') || 0.0::float8), 'float8')
         @> 'NaN'::float8 AS imported_nan_maybe;

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
DROP TABLE pq_t, pq_par;
DROP DOMAIN pq_dom;
DROP COLLATION pq_ci;
