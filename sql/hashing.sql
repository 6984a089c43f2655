-- Equal values get equal answers under the type's own equality; hashing
-- follows the type's hash operator family and collation; incompatible
-- types are an error.

-- integers across int2/int4/int8, both directions
SELECT count(*) AS int_cross_type_misses
FROM (SELECT bloom_agg(i::int2) AS f2, bloom_agg(i::int4) AS f4, bloom_agg(i::int8) AS f8
      FROM generate_series(-3000, 3000) i) s, generate_series(-3000, 3000) i
WHERE NOT (f2 @> i::int8 AND f2 @> i::int4 AND f4 @> i::int2 AND f4 @> i::int8
           AND f8 @> i::int2 AND f8 @> i::int4);
-- large int8 values too (the high half is folded in as hashint8 does)
SELECT (bloom_empty(10) || (-5000000000)::int8) @> (-5000000000)::int8 AS big_int8,
       (bloom_empty(10) || (-1)::int8) @> (-1)::int2 AS minus_one;

-- numeric: scale does not matter, as for numeric equality
SELECT (bloom_empty(10) || 1.0) @> 1.00 AS numeric_scale,
       (bloom_empty(10) || 1.0::numeric) @> 1::numeric AS numeric_int,
       (bloom_empty(10) || 0.0) @> (-0.000) AS numeric_zero;
-- floats: float4 and float8 share a family, -0 = 0
SELECT (bloom_empty(10) || 1.5::float4) @> 1.5::float8 AS float_cross,
       (bloom_empty(10) || '-0'::float8) @> 0::float8 AS float_neg_zero;

-- varchar probes a text filter, and the other way round
SELECT (SELECT bloom_agg(x::text) FROM generate_series(1, 100) x) @> '42'::varchar AS varchar_in_text,
       (SELECT bloom_agg(x::varchar) FROM generate_series(1, 100) x) @> '42'::text AS text_in_varchar;

-- a nondeterministic collation: 'ABC' is found after adding 'abc'
CREATE COLLATION case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bloom_contains(bloom_empty(100) || ('abc' COLLATE case_insensitive), 'ABC' COLLATE case_insensitive) AS ci_add;
SELECT bloom_agg(x) @> ('ABC' COLLATE case_insensitive) AS ci_agg
FROM (VALUES ('abc' COLLATE case_insensitive), ('def')) v(x);
CREATE TEMP TABLE ci_tab (s text COLLATE case_insensitive);
INSERT INTO ci_tab SELECT 'Key-' || i FROM generate_series(1, 1000) i;
SELECT count(*) AS ci_column_misses FROM (SELECT bloom_agg(s) AS f FROM ci_tab) a, ci_tab
WHERE NOT bloom_contains(f, upper(s) COLLATE case_insensitive);
-- probing it under another collation is an error, not a silent false
SELECT bloom_contains(bloom_empty(100) || ('abc' COLLATE case_insensitive), 'ABC');
SELECT bloom_contains(bloom_empty(100) || 'abc'::text, 'ABC' COLLATE case_insensitive);
-- bloom_info names the filter's nondeterministic collation (NULL otherwise)
SELECT (bloom_info(bloom_empty(100) || ('abc' COLLATE case_insensitive))).collation AS ci_collation,
       (bloom_info(bloom_empty(100) || 'abc'::text)).collation IS NULL AS deterministic_is_null;
-- deterministic collations all hash alike
SELECT (bloom_empty(10) || ('abc' COLLATE "C")) @> ('abc' COLLATE "POSIX") AS deterministic_collations;

-- incompatible types are an error
SELECT bloom_contains(bloom_empty(10) || 1, 'abc'::text);
SELECT bloom_empty(10) || 1 || 'abc'::text;
SELECT bloom_contains(bloom_empty(10) || 'abc', 42);

-- any hashable type: one filter per type, built and probed
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS int CHECK (VALUE > 0);
CREATE TYPE pair AS (a int, b text);
SELECT t, misses, bogus_hits FROM (VALUES
  ('text', (SELECT count(*) FROM (SELECT bloom_agg(x::text) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> x::text),
           (SELECT count(*) FROM (SELECT bloom_agg(x::text) f FROM generate_series(1,1000) x) s WHERE f @> 'nope'::text)),
  ('bytea', (SELECT count(*) FROM (SELECT bloom_agg(x::text::bytea) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> x::text::bytea), 0),
  ('uuid', (SELECT count(*) FROM (SELECT bloom_agg(md5(x::text)::uuid) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> md5(x::text)::uuid), 0),
  ('date', (SELECT count(*) FROM (SELECT bloom_agg(date '2020-01-01' + x) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> date '2020-01-01' + x), 0),
  ('timestamp', (SELECT count(*) FROM (SELECT bloom_agg(timestamp '2020-01-01' + x * interval '1 min') f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> timestamp '2020-01-01' + x * interval '1 min'), 0),
  ('timestamptz', (SELECT count(*) FROM (SELECT bloom_agg(timestamptz '2020-01-01 00:00+00' + x * interval '1 min') f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> timestamptz '2020-01-01 00:00+00' + x * interval '1 min'), 0),
  ('enum', (SELECT count(*) FROM (SELECT bloom_agg(m) f FROM unnest('{sad,ok}'::mood[]) m) s, unnest('{sad,ok}'::mood[]) m WHERE NOT f @> m),
           (SELECT count(*) FROM (SELECT bloom_agg(m) f FROM unnest('{sad,ok}'::mood[]) m) s WHERE f @> 'happy'::mood)),
  ('domain', (SELECT count(*) FROM (SELECT bloom_agg(x::posint) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> x), 0),
  ('array', (SELECT count(*) FROM (SELECT bloom_agg(ARRAY[x, x + 1]) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> ARRAY[x, x + 1]),
            (SELECT count(*) FROM (SELECT bloom_agg(ARRAY[x, x + 1]) f FROM generate_series(1,1000) x) s WHERE f @> ARRAY[2, 1])),
  ('composite', (SELECT count(*) FROM (SELECT bloom_agg(ROW(x, x::text)::pair) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> ROW(x, x::text)::pair), 0),
  ('int4range', (SELECT count(*) FROM (SELECT bloom_agg(int4range(x, x + 10)) f FROM generate_series(1,1000) x) s, generate_series(1,1000) x WHERE NOT f @> int4range(x, x + 10)), 0)
) v(t, misses, bogus_hits);
SELECT (bloom_info(bloom_agg(x))).element_family FROM unnest('{sad}'::mood[]) x;
SELECT (bloom_info(bloom_agg(ARRAY[x]))).element_family FROM generate_series(1, 2) x;
-- enums inside containers hash by OID in PostgreSQL: refused
SELECT bloom_agg(ARRAY[m]) FROM unnest('{sad}'::mood[]) m;
-- types without a hash opclass
SELECT bloom_agg(p) FROM (VALUES (point(1, 2))) v(p);

-- the inlined hash paths give the same filters as the generic path
CREATE TEMP TABLE fast AS SELECT
  (SELECT bloom_agg(x::int2) FROM generate_series(-1000, 1000) x) AS a,
  (SELECT bloom_agg(x::int8 * 4000000000) FROM generate_series(-1000, 1000) x) AS b,
  (SELECT bloom_agg(md5(x::text)) FROM generate_series(1, 2000) x) AS c,
  (SELECT bloom_agg(md5(x::text)::bytea) FROM generate_series(1, 2000) x) AS d,
  (SELECT bloom_agg(x, 2000, 0.01) FROM generate_series(1, 2000) x) AS e,
  (SELECT bloom_hash('abc'::text, 7)) AS h;
SET bloomset.fast_hash = off;
SELECT a = (SELECT bloom_agg(x::int2) FROM generate_series(-1000, 1000) x) AS int2_same,
       b = (SELECT bloom_agg(x::int8 * 4000000000) FROM generate_series(-1000, 1000) x) AS int8_same,
       c = (SELECT bloom_agg(md5(x::text)) FROM generate_series(1, 2000) x) AS text_same,
       d = (SELECT bloom_agg(md5(x::text)::bytea) FROM generate_series(1, 2000) x) AS bytea_same,
       e = (SELECT bloom_agg(x, 2000, 0.01) FROM generate_series(1, 2000) x) AS sized_same,
       h = bloom_hash('abc'::text, 7) AS hash_same
FROM fast;
RESET bloomset.fast_hash;

-- the inlined hash of text and bytea equals the type's hash function for
-- every length 0..200, for values read from a table (1-byte headers, odd
-- addresses) and computed ones (4-byte headers), bytes >= 0x80, two seeds
CREATE TEMP TABLE hs AS
SELECT len, rep, left(repeat(CASE rep WHEN 1 THEN md5(len::text) ELSE 'é€x' END, 200), len) AS s
  FROM generate_series(0, 200) len, generate_series(1, 2) rep;
CREATE FUNCTION hs_hashes() RETURNS TABLE (len int, rep int, h0 bigint, h1 bigint, hc bigint, hb bigint)
LANGUAGE sql AS $$
	SELECT len, rep, bloom_hash(s, 0), bloom_hash(s, -8070450532247928832),
	       bloom_hash(s || '', 5), bloom_hash(convert_to(s, 'UTF8'), 77)
	  FROM hs
$$;
CREATE TEMP TABLE hs_fast AS SELECT * FROM hs_hashes();
SET bloomset.fast_hash = off;
CREATE TEMP TABLE hs_slow AS SELECT * FROM hs_hashes();
RESET bloomset.fast_hash;
SELECT count(*) AS compared,
       count(*) FILTER (WHERE (f.h0, f.h1, f.hc, f.hb) IS DISTINCT FROM (s.h0, s.h1, s.hc, s.hb)) AS differ
  FROM hs_fast f JOIN hs_slow s USING (len, rep);
DROP FUNCTION hs_hashes();

-- the hash is pinned: these values are part of the stored-format contract
-- (scheme 1 = fmix64 of the type's extended hash with the filter's seed)
SELECT bloom_hash(42) AS int_42, bloom_hash(42::int8) AS int8_42,
       bloom_hash('abc'::text) AS text_abc, bloom_hash('abc'::text, 1) AS text_abc_seed1,
       bloom_hash(1.50) AS numeric_150, bloom_hash(1.5) AS numeric_15;

-- the enum family does not depend on the search_path (pg_restore runs with
-- an empty one)
CREATE SCHEMA enum_schema;
CREATE TYPE enum_schema."Mood" AS ENUM ('up', 'down');
SET search_path = enum_schema, public;
CREATE TEMP TABLE enum_f AS SELECT bloom_agg(m) AS f FROM unnest('{up}'::"Mood"[]) m;
RESET search_path;
SELECT (bloom_info(f)).element_family,
       f = (SELECT bloom_agg(m) FROM unnest('{up}'::enum_schema."Mood"[]) m) AS same_filter,
       f @> 'up'::enum_schema."Mood" AS found
FROM enum_f;
