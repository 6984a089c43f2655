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

-- long values, compressed in line (c) and stored out of line (e), are
-- detoasted before they are hashed: the aggregates' inlined row path and
-- bloom_hash give what the generic path gives, and find every member
CREATE TEMP TABLE longs (x int, c text, e text);
ALTER TABLE longs ALTER COLUMN e SET STORAGE EXTERNAL;
INSERT INTO longs SELECT x, repeat(md5(x::text), 100), repeat(md5(x::text), 100)
  FROM generate_series(1, 300) x;
CREATE FUNCTION long_filters() RETURNS TABLE (fc bloom, fe bloom, sc bloom, hc bigint, he bigint)
LANGUAGE sql AS $$
	SELECT (SELECT bloom_agg(c) FROM longs), (SELECT bloom_agg(e) FROM longs),
	       (SELECT bloom_agg(c, 1000, 0.01) FROM longs),
	       (SELECT sum(bloom_hash(c, 3) % 1000003) FROM longs),
	       (SELECT sum(bloom_hash(e, 3) % 1000003) FROM longs)
$$;
CREATE TEMP TABLE long_fast AS SELECT * FROM long_filters();
SET bloomset.fast_hash = off;
CREATE TEMP TABLE long_slow AS SELECT * FROM long_filters();
RESET bloomset.fast_hash;
SELECT f.fc = s.fc AS compressed_same, f.fe = s.fe AS external_same, f.sc = s.sc AS sized_same,
       f.hc = s.hc AND f.he = s.he AS hashes_same, f.fc = f.fe AS forms_same,
       (SELECT count(*) FROM longs WHERE NOT f.fc @> repeat(md5(x::text), 100)) AS missing
  FROM long_fast f, long_slow s;
DROP FUNCTION long_filters();

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

-- ---- hashing scheme 2 (new filters since 1.2) ----------------------------
-- new filters of every kind get scheme 2; the scheme is shown by
-- bloom_scheme and its counting and scalable forms (bloom_info unchanged)
SELECT bloom_scheme(bloom_empty(10)) AS empty, bloom_scheme(bloom_agg(x)) AS agg,
       bloom_scheme(bloom_agg(x, 100, 1e-6)) AS classic,
       counting_bloom_scheme(counting_bloom_agg(x)) AS counting,
       scalable_bloom_scheme(scalable_bloom_agg(x)) AS scalable
  FROM generate_series(1, 10) x;
-- scheme 2's pinned element hashes (part of the stored-format contract)
SELECT bloom_hash(42, 0, 2) AS int_42, bloom_hash(42::int8 << 32, 0, 2) AS int8_shard,
       bloom_hash('abc'::text, 0, 2) AS text_abc, bloom_hash(-1.5, 0, 2) AS numeric_neg,
       bloom_hash('{"id": -1}'::jsonb, 0, 2) AS jsonb_neg;
-- the two-argument form is scheme 1, as in 1.0 and 1.1
SELECT bloom_hash(42, 7) = bloom_hash(42, 7, 1) AS two_args_is_scheme1;
SELECT bloom_hash(42, 0, 3);

-- equal values hash alike under scheme 2 (each pair is equal under =)
CREATE TYPE pair2 AS (a numeric, b text);
SELECT count(*) AS pairs, count(*) FILTER (WHERE a IS DISTINCT FROM b) AS differ FROM (VALUES
  (bloom_hash(-7::int2, 0, 2), bloom_hash(-7::int8, 0, 2)),
  (bloom_hash(-7::int4, 5, 2), bloom_hash(-7::int8, 5, 2)),
  (bloom_hash(1.0, 0, 2), bloom_hash(1.00, 0, 2)),
  (bloom_hash(-1.0, 0, 2), bloom_hash(-1.000, 0, 2)),
  (bloom_hash(0.0, 0, 2), bloom_hash(-0.000, 0, 2)),
  (bloom_hash('NaN'::numeric, 0, 2), bloom_hash('NaN'::numeric, 0, 2)),
  (bloom_hash(1.5::float4, 0, 2), bloom_hash(1.5::float8, 0, 2)),
  (bloom_hash('-0'::float8, 0, 2), bloom_hash(0::float8, 0, 2)),
  (bloom_hash(interval '1 day', 0, 2), bloom_hash(interval '24 hours', 0, 2)),
  (bloom_hash(interval '1 month', 0, 2), bloom_hash(interval '30 days', 0, 2)),
  (bloom_hash(interval '1000000 years', 0, 2), bloom_hash(interval '12000000 months', 0, 2)),
  (bloom_hash('{"a": 1.0, "b": [1, 2]}'::jsonb, 0, 2), bloom_hash('{"b": [1, 2.00], "a": 1}'::jsonb, 0, 2)),
  (bloom_hash(timestamptz '2020-01-01 00:00+00', 0, 2), bloom_hash(timestamptz '2020-01-01 01:00+01', 0, 2)),
  (bloom_hash('12:00+02'::timetz, 0, 2), bloom_hash('12:00:00.000+02'::timetz, 0, 2)),
  (bloom_hash('abc'::char(5), 0, 2), bloom_hash('abc  '::char(5), 0, 2)),
  (bloom_hash('abc'::name, 0, 2), bloom_hash('abc'::text, 0, 2)),
  (bloom_hash(ARRAY[1.0, NULL, -2], 0, 2), bloom_hash(ARRAY[1.00, NULL, -2.0], 0, 2)),
  (bloom_hash(ARRAY[-7::int2], 0, 2), bloom_hash(ARRAY[-7::int8], 0, 2)),
  (bloom_hash(ARRAY[interval '1 day'], 0, 2), bloom_hash(ARRAY[interval '24 hours'], 0, 2)),
  (bloom_hash(numrange(1.0, 2.0), 0, 2), bloom_hash(numrange(1.00, 2), 0, 2)),
  (bloom_hash(int4range(1, 5), 0, 2), bloom_hash(int4range(1, 4, '[]'), 0, 2)),
  (bloom_hash('empty'::int8range, 0, 2), bloom_hash(int8range(5, 5), 0, 2)),
  (bloom_hash(ROW(1.0, 'a')::pair2, 0, 2), bloom_hash(ROW(1.00, 'a')::pair2, 0, 2)),
  (bloom_hash(ROW(NULL, 'a')::pair2, 0, 2), bloom_hash(ROW(NULL, 'a')::pair2, 0, 2)),
  (bloom_hash('{[5,7), [1,3)}'::int8multirange, 0, 2), bloom_hash('{[1,2], [2,3), [5,6]}'::int8multirange, 0, 2)),
  (bloom_hash('{[1.0,2)}'::nummultirange, 0, 2), bloom_hash('{[1.00,2.0)}'::nummultirange, 0, 2))
) v(a, b);
-- and values that differ under = hash apart where scheme 1 lost the difference
SELECT bloom_hash(1.5, 0, 1) = bloom_hash(-1.5, 0, 1) AS scheme1_numeric_sign_lost,
       bloom_hash(1.5, 0, 2) <> bloom_hash(-1.5, 0, 2) AS numeric_sign,
       bloom_hash('Infinity'::numeric, 0, 2) <> bloom_hash('-Infinity'::numeric, 0, 2)
         AND bloom_hash('Infinity'::numeric, 0, 2) <> bloom_hash('NaN'::numeric, 0, 2) AS numeric_specials,
       bloom_hash((1::int8 << 32) + 5, 0, 1) = bloom_hash((2::int8 << 32) + 6, 0, 1) AS scheme1_int8_folded,
       bloom_hash((1::int8 << 32) + 5, 0, 2) <> bloom_hash((2::int8 << 32) + 6, 0, 2) AS int8_full,
       bloom_hash('1'::jsonb, 0, 2) <> bloom_hash('[1]'::jsonb, 0, 2) AS jsonb_bare_scalar,
       bloom_hash('[[1], 2]'::jsonb, 0, 2) <> bloom_hash('[1, [2]]'::jsonb, 0, 2) AS jsonb_nesting,
       bloom_hash('["a", 1]'::jsonb, 0, 2) <> bloom_hash('{"a": 1}'::jsonb, 0, 2) AS jsonb_array_object,
       bloom_hash('12:00+02'::timetz, 0, 2) <> bloom_hash('11:00+01'::timetz, 0, 2) AS timetz_zone,
       bloom_hash(interval '1 day', 0, 2) <> bloom_hash(interval '1 day 1 microsecond', 0, 2) AS interval_span,
       bloom_hash(ARRAY[(1::int8 << 32) + 5], 0, 1) = bloom_hash(ARRAY[(2::int8 << 32) + 6], 0, 1) AS scheme1_array_folded,
       bloom_hash(ARRAY[(1::int8 << 32) + 5], 0, 2) <> bloom_hash(ARRAY[(2::int8 << 32) + 6], 0, 2) AS array_full,
       bloom_hash(ARRAY[1, 2], 0, 2) <> bloom_hash(ARRAY[ARRAY[1, 2]], 0, 2) AS array_dims,
       bloom_hash(ROW(-1.5, 'a')::pair2, 0, 2) <> bloom_hash(ROW(1.5, 'a')::pair2, 0, 2) AS record_signed,
       bloom_hash(numrange(-2, -1), 0, 2) <> bloom_hash(numrange(1, 2), 0, 2) AS range_signed,
       bloom_hash(int8multirange(int8range((1::int8 << 32) + 5, (1::int8 << 32) + 9)), 0, 2) <>
         bloom_hash(int8multirange(int8range((2::int8 << 32) + 6, (2::int8 << 32) + 10)), 0, 2) AS multirange_full;

-- a filter keeps its scheme: values added to a scheme-1 filter are hashed
-- with scheme 1, and it answers like a 1.1 filter
CREATE TEMP TABLE s1 AS
SELECT bloom_add_all(bloom_with_scheme(bloom_empty(1000, 0.01), 1), array_agg(x::int8)) AS f1,
       bloom_add_all(bloom_empty(1000, 0.01), array_agg(x::int8)) AS f2
  FROM generate_series(1, 1000) x;
SELECT bloom_scheme(f1) AS f1_scheme, bloom_scheme(f1 || 5000::int8) AS after_add,
       bloom_scheme(bloom_fold(f1, 2)) AS after_fold, bloom_scheme(bloom_shrink(f1, 0.05)) AS after_shrink,
       (SELECT count(*) FROM generate_series(1, 1000) x WHERE NOT f1 @> x) AS f1_misses,
       (SELECT count(*) FROM generate_series(1, 1000) x WHERE NOT f2 @> x) AS f2_misses,
       f1 <> f2 AS different_bits,
       f1::text LIKE 'bloom:v1 layout=blocked k=8 %' AS scheme1_text_as_in_1_1,
       f2::text LIKE 'bloom:v1 layout=blocked scheme=4 k=8 %' AS new_scheme_text
  FROM s1;
-- stored scheme-1 filters (read in slices: out of line, uncompressed)
-- answer as their in-memory copies, classic and counting alike
CREATE TEMP TABLE s1_stored (b bloom, c counting_bloom);
ALTER TABLE s1_stored ALTER COLUMN b SET STORAGE EXTERNAL, ALTER COLUMN c SET STORAGE EXTERNAL;
INSERT INTO s1_stored
SELECT bloom_add_all(bloom_with_scheme(bloom_empty(5000, 1e-5), 1), array_agg(x)),
       counting_bloom_add_all(counting_bloom_with_scheme(counting_bloom_empty(5000, 1e-5), 1), array_agg(x))
  FROM generate_series(1, 5000) x;
CREATE TEMP TABLE s1_copies AS SELECT b::text::bloom AS b2, c::text::counting_bloom AS c2 FROM s1_stored;
SELECT bloom_scheme(b) AS stored_scheme, (bloom_info(b)).layout,
       count(*) FILTER (WHERE x <= 5000 AND NOT (b @> x AND c @> x)) AS stored_misses,
       count(*) FILTER (WHERE b @> x) = count(*) FILTER (WHERE b2 @> x) AS bloom_same_answers,
       count(*) FILTER (WHERE c @> x) = count(*) FILTER (WHERE c2 @> x) AS counting_same_answers
  FROM s1_stored, s1_copies, generate_series(1, 55000) x
 GROUP BY b;

-- scheme 1 and 2 filters of the same values do not combine
SELECT f1 | f2 FROM s1;
SELECT f1 & f2 FROM s1;
SELECT bloom_union_agg(f) FROM (SELECT f1 FROM s1 UNION ALL SELECT f2 FROM s1) u(f);
-- an empty filter combines with either (nothing was hashed into it)
SELECT bloom_scheme(f1 | bloom_empty(1000, 0.01)) AS empty_union FROM s1;
-- the text and binary forms carry the scheme
SELECT f2::text::bloom = f2 AS text_round_trip, bloom_from_bytea(bloom_to_bytea(f2)) = f2 AS binary_round_trip,
       bloom_scheme(f1::text::bloom) AS text_scheme1 FROM s1;
SELECT replace(bloom_empty(10)::text, 'scheme=4', 'scheme=3')::bloom;
SELECT replace(bloom_empty(10)::text, 'scheme=4', 'scheme=1')::bloom;
-- bloom_with_scheme: only empty filters change; unknown schemes refused
SELECT bloom_with_scheme(f2, 1) FROM s1;
SELECT bloom_scheme(bloom_with_scheme(f2, 4)) AS same_scheme_is_a_no_op FROM s1;
SELECT bloom_with_scheme(bloom_empty(10), 3);
SELECT counting_bloom_scheme(counting_bloom_with_scheme(counting_bloom_empty(100), 1)) AS counting_scheme1,
       counting_bloom_contains(counting_bloom_add(counting_bloom_with_scheme(counting_bloom_empty(100), 1), 7), 7) AS counting_scheme1_finds;
SELECT counting_bloom_with_scheme(counting_bloom_add(counting_bloom_empty(100), 7), 1);
-- counting filters turned into bloom filters keep their scheme and answers
CREATE FUNCTION cb_scheme1(n int) RETURNS counting_bloom LANGUAGE plpgsql AS $$
DECLARE c counting_bloom := counting_bloom_with_scheme(counting_bloom_empty(100, 1e-6), 1);
BEGIN
  FOR i IN 1 .. n LOOP c := counting_bloom_add(c, i); END LOOP;
  RETURN c;
END $$;
SELECT counting_bloom_scheme(c) AS counting_scheme, bloom_scheme(counting_bloom_to_bloom(c)) AS converted_scheme,
       (SELECT count(*) FROM generate_series(1, 100) x WHERE NOT counting_bloom_to_bloom(c) @> x) AS converted_misses
  FROM (SELECT cb_scheme1(100) c) s;
-- counting filters of different schemes do not combine either; an empty
-- one combines with any
SELECT counting_bloom_union(cb_scheme1(10), counting_bloom_add(counting_bloom_empty(100, 1e-6), 1));
SELECT counting_bloom_scheme(counting_bloom_union(counting_bloom_empty(100, 1e-6), cb_scheme1(10))) AS empty_union_scheme;
DROP FUNCTION cb_scheme1(int);
