-- Hashing scheme 4 (new filters since 1.5): XXH3-64 of the bytes of the
-- types whose equality is byte equality (text and varchar under a
-- deterministic collation, bytea, name, "char", uuid, char(n) without its
-- trailing spaces), scheme 2's hash for everything else.  Values equal
-- under the type's = get equal hashes and equal answers, type by type; a
-- filter of another scheme never combines with a scheme-4 one; every key
-- added is found.  The XXH3 values themselves are pinned against values
-- computed apart in test/unit.
SET extra_float_digits = 0;

-- every kind builds scheme 4 in this database (1.5); bloomskip too
SELECT bloom_scheme(bloom_agg(x)) AS bloom, counting_bloom_scheme(counting_bloom_agg(x)) AS counting,
       scalable_bloom_scheme(scalable_bloom_agg(x)) AS scalable,
       bloom_scheme(bloom_ngram_agg(x)) AS ngram,
       bloom_scheme(bloom_empty(10, 0.01) || 'alpha'::text) AS added
  FROM (VALUES ('alpha'::text)) v(x);

-- the byte-equality types hash their bytes with XXH3-64 under the seed:
-- 'abc' is XXH3's 0x78af5f94892f3950 as text, varchar, bytea, name and
-- char(n) with or without trailing spaces; a "char" is its one byte; a
-- uuid its 16 bytes, whatever its spelling
SELECT bloom_hash('abc'::text, 0, 4) = x'78af5f94892f3950'::bigint AS text_xxh3,
       bloom_hash('abc'::varchar, 0, 4) = x'78af5f94892f3950'::bigint AS varchar_xxh3,
       bloom_hash('\x616263'::bytea, 0, 4) = x'78af5f94892f3950'::bigint AS bytea_xxh3,
       bloom_hash('abc'::name, 0, 4) = x'78af5f94892f3950'::bigint AS name_xxh3,
       bloom_hash('abc  '::char(5), 0, 4) = x'78af5f94892f3950'::bigint AS bpchar_xxh3,
       bloom_hash('a'::"char", 0, 4) = x'e6c632b61e964e1f'::bigint AS char_xxh3,
       bloom_hash('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, 0, 4) = x'55df69482c6d3767'::bigint AS uuid_xxh3,
       bloom_hash('abc'::text, 7, 4) <> bloom_hash('abc'::text, 0, 4) AS seeded,
       bloom_hash(''::text, 0, 4) = x'2d06800538d394c2'::bigint AS empty_xxh3;
-- the other types hash as in scheme 2
SELECT bloom_hash(42::int8, 0, 4) = bloom_hash(42::int8, 0, 2) AS int8_as_2,
       bloom_hash(42::int2, 0, 4) = bloom_hash(42::int8, 0, 4) AS int2_is_int8,
       bloom_hash(1.5::numeric, 0, 4) = bloom_hash(1.5::numeric, 0, 2) AS numeric_as_2,
       bloom_hash('{"a": 1}'::jsonb, 0, 4) = bloom_hash('{"a": 1}'::jsonb, 0, 2) AS jsonb_as_2,
       bloom_hash(ARRAY['a', 'b'], 0, 4) = bloom_hash(ARRAY['a', 'b'], 0, 2) AS array_as_2,
       bloom_hash(2.5::float8, 0, 4) = bloom_hash(2.5::float8, 0, 2) AS float8_as_2;

-- equal under the type's =, equal hashes and answers: each pair (a, b)
-- with a = b; a filter of the a's finds every b (and hashes it alike)
CREATE TYPE s4_pair AS (n numeric, c char(4));
CREATE TEMP TABLE s4_eq (kind text, fa bool, hash_equal bool, found bool);
CREATE FUNCTION s4_check(kind text, a anyelement, b anyelement) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO s4_eq SELECT kind, a = b, bloom_hash(a, 0, 4) = bloom_hash(b, 0, 4),
         (bloom_empty(100, 0.01) || a) @> b AND bloom_contains((SELECT bloom_agg(x) FROM (VALUES (a)) v(x)), b)
$$;
SELECT s4_check('bpchar trailing spaces', 'a'::char(1), 'a  '::char(3));
SELECT s4_check('bpchar to its length', 'ab'::char(6), 'ab'::char(2));
SELECT s4_check('numeric scale', 1.0::numeric, 1.00::numeric);
SELECT s4_check('numeric exponent', 1e3::numeric, 1000::numeric);
SELECT s4_check('uuid spelling', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid);
SELECT s4_check('float8 zero sign', 0::float8, '-0'::float8);
SELECT s4_check('int2 and int8', 7::int2::int8, 7::int8);
SELECT s4_check('text and varchar', 'x'::text, 'x'::varchar::text);
SELECT s4_check('bytea spelling', '\x616263'::bytea, 'abc'::bytea);
SELECT s4_check('name', 'abc'::name, 'abc'::text::name);
SELECT s4_check('interval', '1 day'::interval, '24 hours'::interval);
SELECT s4_check('jsonb numbers', '{"a": 1.0}'::jsonb, '{"a": 1.00}'::jsonb);
SELECT s4_check('numeric[]', ARRAY[1.0, 2.0]::numeric[], ARRAY[1.00, 2.000]::numeric[]);
SELECT s4_check('composite', ROW(1.0, 'a')::s4_pair, ROW(1.00, 'a   ')::s4_pair);
SELECT s4_check('char(n)[] trailing spaces', ARRAY['a']::char(2)[], ARRAY['a ']::char(2)[]);
SELECT kind FROM s4_eq WHERE NOT (fa AND hash_equal AND found);
SELECT count(*) AS equal_pairs_checked FROM s4_eq;

-- text does not ignore trailing spaces, nor case: those hash apart
SELECT bloom_hash('a'::text, 0, 4) <> bloom_hash('a '::text, 0, 4) AS text_spaces_differ,
       bloom_hash('a'::text, 0, 4) <> bloom_hash('A'::text, 0, 4) AS text_case_differs;

-- a nondeterministic collation (where the server has ICU): equal strings
-- of other bytes hash alike through the collation's extended hash
SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collprovider = 'i') AS have_icu \gset
\set ECHO none
\if :have_icu
CREATE COLLATION s4_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bloom_hash('ABC'::text COLLATE s4_ci, 0, 4) = bloom_hash('abc'::text COLLATE s4_ci, 0, 4) AS ci_hash_equal,
       (SELECT bloom_agg(x COLLATE s4_ci) FROM (VALUES ('Straße'::text), ('ABC')) v(x)) @> ('abc' COLLATE s4_ci) AS ci_found;
\else
SELECT true AS ci_hash_equal, true AS ci_found;
\endif
\set ECHO all

-- filters of schemes 2 and 4 never combine: a scheme-2 filter (as a
-- database at 1.4 builds, or bloom_with_scheme) and a scheme-4 one of the
-- same values set other bits and refuse every union and intersection
\set VERBOSITY default
CREATE TEMP TABLE s4_mix AS
SELECT bloom_add_all(bloom_with_scheme(bloom_empty(1000, 0.01), 2), array_agg('k' || i)) AS f2,
       bloom_add_all(bloom_empty(1000, 0.01), array_agg('k' || i)) AS f4,
       counting_bloom_add_all(counting_bloom_with_scheme(counting_bloom_empty(1000, 0.01), 2), array_agg('k' || i)) AS c2,
       counting_bloom_add_all(counting_bloom_empty(1000, 0.01), array_agg('k' || i)) AS c4,
       bloom_add_all(bloom_with_scheme(scalable_bloom_empty(100), 2), array_agg('k' || i)) AS s2,
       bloom_add_all(scalable_bloom_empty(100), array_agg('k' || i)) AS s4
  FROM generate_series(1, 1000) i;
SELECT bloom_scheme(f2) AS f2, bloom_scheme(f4) AS f4, f2 <> f4 AS different_bits,
       (SELECT count(*) FROM generate_series(1, 1000) i WHERE NOT (f2 @> ('k' || i) AND f4 @> ('k' || i))) AS misses,
       (SELECT count(*) FROM generate_series(1, 1000) i WHERE NOT (c2 @> ('k' || i) AND c4 @> ('k' || i))) AS counting_misses,
       (SELECT count(*) FROM generate_series(1, 1000) i WHERE NOT (s2 @> ('k' || i) AND s4 @> ('k' || i))) AS scalable_misses
  FROM s4_mix;
SELECT f2 | f4 FROM s4_mix;
SELECT f4 & f2 FROM s4_mix;
SELECT bloom_union_agg(f) FROM (SELECT f2 FROM s4_mix UNION ALL SELECT f4 FROM s4_mix) u(f);
SELECT counting_bloom_union(c2, c4) FROM s4_mix;
SELECT bloom_union(s2, s4) FROM s4_mix;
-- a stored scheme-2 value (text form) is read as scheme 2 and refused too
SELECT bloom_scheme(f2::text::bloom) AS stored_scheme, f2::text::bloom | f4 FROM s4_mix;
-- an empty filter combines with either; a scheme-2 filter keeps taking
-- values with scheme 2 (and finds them)
SELECT bloom_scheme(f2 | bloom_empty(1000, 0.01)) AS empty_union,
       bloom_scheme(f2 || 'new'::text) AS after_add, (f2 || 'new'::text) @> 'new'::text AS found_new
  FROM s4_mix;
\set VERBOSITY terse

-- no false negatives: 100,000 keys of each byte-equality type, by the
-- aggregate (serial and parallel), || and the batch add; counting and
-- scalable filters too
CREATE TEMP TABLE s4_keys AS
SELECT i, md5(i::text) AS t, md5(i::text)::varchar AS v, int8send(i) AS b, md5(i::text)::uuid AS u,
       ('c' || i)::char(12) AS c, ('n' || i)::name AS n
  FROM generate_series(1, 100000) i;
ANALYZE s4_keys;
CREATE TEMP TABLE s4_f AS
SELECT bloom_agg(t) AS ft, bloom_agg(v) AS fv, bloom_agg(b) AS fb, bloom_agg(u) AS fu,
       bloom_agg(c) AS fc, bloom_agg(n) AS fn, bloom_agg(t, 100000, 0.00001) AS ft_classic,
       counting_bloom_agg(t, 100000, 0.01) AS ct, scalable_bloom_agg(t, 10000, 0.01) AS st,
       bloom_add_all(bloom_empty(100000, 0.01), array_agg(u)) AS fu_batch
  FROM s4_keys;
SELECT count(*) FILTER (WHERE NOT ft @> t) + count(*) FILTER (WHERE NOT fv @> v)
       + count(*) FILTER (WHERE NOT fb @> b) + count(*) FILTER (WHERE NOT fu @> u)
       + count(*) FILTER (WHERE NOT fc @> c) + count(*) FILTER (WHERE NOT fn @> n)
       + count(*) FILTER (WHERE NOT ft_classic @> t) + count(*) FILTER (WHERE NOT ct @> t)
       + count(*) FILTER (WHERE NOT st @> t) + count(*) FILTER (WHERE NOT fu_batch @> u) AS false_negatives,
       count(*) FILTER (WHERE NOT fc @> rtrim(c)::char(20)) AS bpchar_other_length_misses,
       bool_and(bloom_contains(ft, upper(t)) = bloom_contains(ft, upper(t)::varchar)) AS text_varchar_agree
  FROM s4_keys, s4_f;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SELECT (SELECT bloom_agg(t) FROM s4_keys) = (SELECT ft FROM s4_f) AS parallel_equals_serial;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- the promised rate holds for scheme-4 filters of the byte-equality types:
-- measured false positives within 1.5x the promise plus three standard
-- errors, over 200,000 non-members each
SELECT keyset, fp::float8 / n <= 1.5 * p + 3 * sqrt(greatest(p, fp::float8 / n) / n) AS keeps_promise
  FROM (
  SELECT 'text' AS keyset, 0.01 AS p, count(*) FILTER (WHERE ft @> md5((-g)::text)) AS fp, count(*) AS n
    FROM s4_f, generate_series(1, 200000) g
  UNION ALL
  SELECT 'text classic 1e-5', 0.00001, count(*) FILTER (WHERE ft_classic @> md5((-g)::text)), count(*)
    FROM s4_f, generate_series(1, 1000000) g
  UNION ALL
  SELECT 'bytea', 0.01, count(*) FILTER (WHERE fb @> int8send(g + 100000)), count(*)
    FROM s4_f, generate_series(1, 200000) g
  UNION ALL
  SELECT 'uuid', 0.01, count(*) FILTER (WHERE fu @> md5((-g)::text)::uuid), count(*)
    FROM s4_f, generate_series(1, 200000) g
  UNION ALL
  SELECT 'char(12)', 0.01, count(*) FILTER (WHERE fc @> ('c' || (g + 100000))::char(12)), count(*)
    FROM s4_f, generate_series(1, 200000) g
  UNION ALL
  SELECT 'name', 0.01, count(*) FILTER (WHERE fn @> ('n' || (g + 100000))::name), count(*)
    FROM s4_f, generate_series(1, 200000) g) r
 ORDER BY 1;

-- a bloomskip index built in this database hashes with scheme 4, and
-- finds every key
CREATE TABLE s4_skip AS SELECT i, t, u FROM s4_keys WHERE i <= 20000;
CREATE INDEX s4_skip_idx ON s4_skip USING bloomskip (t, u) WITH (pages_per_range = 4);
SET client_min_messages = warning;	-- the ranges counted vary by server version
SELECT bloom_scheme(bloomskip_range_filter('s4_skip_idx', 0, 1)) AS index_scheme,
       bloomskip_check('s4_skip_idx') AS missing;
RESET client_min_messages;
SET enable_seqscan = off;
SELECT count(*) AS found_by_index FROM s4_skip
 WHERE t = ANY (ARRAY(SELECT md5(g::text) FROM generate_series(1, 20000, 37) g));
RESET enable_seqscan;
DROP TABLE s4_skip;
DROP FUNCTION s4_check(text, anyelement, anyelement);
DROP TYPE s4_pair;
