-- Equality that groups: the hash operator class makes DISTINCT, GROUP BY and
-- UNION work on bloom values; equal filters (same parameters, element type
-- and bits; the item counter is not compared) hash alike.
CREATE TABLE eq_f AS
SELECT g AS id, bloom_agg(x, 1000, 0.01) AS f
  FROM generate_series(1, 6) g, generate_series(1, 100 * (g % 3)) x GROUP BY g;
SELECT count(*) AS rows, count(DISTINCT f) AS distinct_filters FROM eq_f;
SELECT (SELECT count(*) FROM (SELECT DISTINCT f FROM eq_f) d) AS distinct_rows,
       (SELECT count(*) FROM (SELECT f FROM eq_f GROUP BY f) g) AS groups,
       (SELECT count(*) FROM (SELECT f FROM eq_f UNION SELECT f FROM eq_f) u) AS union_rows;
-- the same set added in another order, and twice, is the same filter
SELECT bloom_hash_value(a) = bloom_hash_value(b) AS same_hash, a = b AS equal,
       bloom_hash_value_extended(a, 7) = bloom_hash_value_extended(b, 7) AS same_hash_seeded,
       bloom_hash_value_extended(a, 7) <> bloom_hash_value_extended(a, 8) AS seed_matters
  FROM (SELECT bloom_agg(x, 1000, 0.01) AS a FROM generate_series(1, 50) x) p,
       (SELECT bloom_agg(x, 1000, 0.01) AS b FROM (SELECT x FROM generate_series(50, 1, -1) x UNION ALL SELECT 7) s) q;
-- the btree order is consistent with = and total
SELECT bloom_cmp(a, b) AS cmp_equal, bloom_cmp(a, c) = -bloom_cmp(c, a) AS antisymmetric,
       (a < c) = bloom_lt(a, c) AND (a <= c) = bloom_le(a, c) AND
       (a > c) = bloom_gt(a, c) AND (a >= c) = bloom_ge(a, c) AS operators_match_functions,
       (a < c) <> (a > c) AS strict_order, a <= b AND a >= b AS equal_both_ways
  FROM (SELECT bloom_empty(64, 3, 0) || 1 AS a, bloom_empty(64, 3, 0) || 1 AS b,
               bloom_empty(64, 3, 0) || 2 AS c) v;
SELECT count(*) AS sorted_rows FROM (SELECT f FROM eq_f ORDER BY f) s;
-- filters that differ only in their element type are different values
SELECT count(DISTINCT f) AS distinct_by_type
  FROM (VALUES (bloom_empty(64, 3, 0) || 1), (bloom_empty(64, 3, 0) || 1::numeric)) v(f);
-- a hash join on filters
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*) AS self_join_pairs FROM eq_f a JOIN eq_f b USING (f);
RESET enable_mergejoin;
RESET enable_nestloop;

-- bloom_to_bytea also writes out a corrupt stored value (salvage): the
-- header fields as they are, then the rest of the value, never beyond it.
-- The stored bytes of a classic filter (header in little-endian host order,
-- as on x86-64) with its format version byte corrupted to 9:
-- (a type with bytea's I/O and bloom's storage, cast without a function:
-- the bytes are stored as they are, as corruption on disk would leave them)
-- (the shell-type NOTICEs differ between versions: kept quiet)
SET client_min_messages = warning;
CREATE TYPE rawbloom;
CREATE FUNCTION rawbloom_in(cstring) RETURNS rawbloom LANGUAGE internal IMMUTABLE STRICT AS 'byteain';
CREATE FUNCTION rawbloom_out(rawbloom) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'byteaout';
CREATE TYPE rawbloom (INPUT = rawbloom_in, OUTPUT = rawbloom_out, ALIGNMENT = double);
CREATE CAST (rawbloom AS bloom) WITHOUT FUNCTION;
RESET client_min_messages;
CREATE TABLE eq_bad AS
SELECT ('\x' || '09000103' || '0000000000000000' || '0001000000000000' ||
        '0100000000000000' || '00000000' || '00000000' ||
        rpad(encode('integer_ops', 'hex'), 64, '0') || repeat('ff', 32))::rawbloom::bloom AS f;
SELECT f @> 42 FROM eq_bad;
SELECT length(bloom_to_bytea(f)) AS salvaged_bytes, get_byte(bloom_to_bytea(f), 0) AS version_byte
  FROM eq_bad;
-- mended, it reads back (validated) and answers
SELECT bloom_from_bytea(set_byte(bloom_to_bytea(f), 0, 1)) @> 42 AS mended FROM eq_bad;
DROP TABLE eq_f, eq_bad;
DROP TYPE rawbloom CASCADE;
