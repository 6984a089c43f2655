-- Probes and adds in the filter's own element type: an untyped literal or a
-- text value given to a filter of another family is converted with that
-- type's input function; a value with an implicit cast to the filter's
-- element type is cast.  Equal values give equal answers either way.
CREATE TYPE tk_mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE tk AS SELECT
  (SELECT bloom_agg(u) FROM (VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)) v(u)) AS fu,
  (SELECT bloom_agg(t) FROM (VALUES ('2024-01-02 03:04:05+00'::timestamptz)) v(t)) AS ft,
  (SELECT bloom_agg(j) FROM (VALUES ('{"a": [1, 2]}'::jsonb)) v(j)) AS fj,
  (SELECT bloom_agg(a) FROM (VALUES (ARRAY[1, 2, 3])) v(a)) AS fa,
  (SELECT bloom_agg(g) FROM generate_series(1, 1000) g) AS fi,
  (SELECT bloom_agg(g::numeric) FROM generate_series(1, 1000) g) AS fn,
  (SELECT bloom_agg(g::float8) FROM generate_series(1, 1000) g) AS ff,
  (SELECT bloom_agg(m) FROM unnest(ARRAY['ok'::tk_mood]) m) AS fm,
  (SELECT bloom_agg(r) FROM (VALUES (int4range(1, 5))) v(r)) AS fr;
-- untyped literals, in the filter's type
SELECT fu @> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid_literal,
       fu @> 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' AS uuid_upper_case,
       ft @> '2024-01-02 04:04:05+01' AS timestamptz_literal,
       fj @> '{"a":[1,2]}' AS jsonb_literal,
       fa @> '{1,2,3}' AS array_literal,
       fi @> '43' AS int_literal,
       fm @> 'ok' AS enum_literal,
       bloom_contains(fu, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11') AS function_form
  FROM tk;
-- text values (a parameter sent as text, a column of text)
PREPARE tk_probe(text) AS SELECT fu @> $1 FROM tk;
EXECUTE tk_probe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
DEALLOCATE tk_probe;
SELECT count(*) FILTER (WHERE fi @> g::text) AS text_members, count(*) AS members
  FROM tk, generate_series(1, 1000) g;
-- implicit casts: int to numeric and to float8 (while int2/int4/int8 are
-- one family already)
SELECT count(*) FILTER (WHERE fn @> g) AS numeric_by_int, count(*) FILTER (WHERE ff @> g) AS float_by_int,
       count(*) FILTER (WHERE fn @> g::numeric(10, 2)) AS numeric_scale
  FROM tk, generate_series(1, 1000) g;
-- adds convert too: the added value answers as its own type
SELECT (fi || '43') @> 43 AS add_literal, (fi || '5000'::text) @> 5000::int8 AS add_text,
       (fn || 7) @> 7.0 AS add_cast,
       counting_bloom_empty(100) || 1 || '2' @> 2 AS counting_add_literal,
       scalable_bloom_empty() || 1 || '2' @> 2 AS scalable_add_literal
  FROM tk;
SELECT (counting_bloom_empty(100) || 1 || 2) - '2' @> 2 AS counting_removed_literal;
-- char(n): || takes the (filter, text) overload and adds text, @> sees
-- bpchar; each converts to the filter's type, so add-then-probe works
-- (found by the SQL fuzzer, test/sqlfuzz/FINDINGS.md finding#1)
SELECT (bloom_empty(100) || 'ab'::char(5)) @> 'ab'::char(5) AS bpchar_after_text_add,
       scalable_bloom_contains(scalable_bloom_add(scalable_bloom_empty(), 'ab'::char(5)), 'ab'::char(5)) AS scalable_bpchar,
       (counting_bloom_empty(100) || 'ab'::char(5)) - 'ab'::char(5) IS NOT NULL AS counting_remove_bpchar;
CREATE TEMP TABLE tk_c5 (x char(5));
INSERT INTO tk_c5 VALUES ('ab');
SELECT (bloom_agg(x) || 'ef'::char(5)) @> 'ef'::char(5) AS text_add_to_bpchar_filter FROM tk_c5;
-- batch forms accept the same values as the scalar ones, element by element
-- (found by the SQL fuzzer, FINDINGS.md finding#2: a prepared statement's
-- error depended on which form its plan evaluated first)
SELECT bloom_contains_any(fm, ARRAY['ok'::text]) AS enum_any,
       bloom_contains_all(fi, ARRAY['1', '2', '3']::text[]) AS int_all,
       bloom_contains_each(fu, ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']::text[]) AS uuid_each,
       bloom_add_all(fi, ARRAY['5001', '5002']::text[]) @> 5002 AS add_all_text,
       bloom_contains_all(fn, ARRAY[1, 2, 3]) AS numeric_by_int_array
  FROM tk;
SELECT counting_bloom_remove_all(counting_bloom_empty(100) || 1 || 2 || 2, ARRAY['1', '2']::text[]) @> 2 AS counting_remove_all_text;
\set VERBOSITY terse
SELECT bloom_contains(fm, 'nope'::text) FROM tk;
SELECT bloom_contains_any(fm, ARRAY['nope'::text]) FROM tk;
-- what cannot be converted is an error naming both types
\set VERBOSITY default
SELECT fi @> 1.5::numeric FROM tk;
SELECT fr @> '[1,5)' FROM tk;
SELECT fu @> 'not a uuid' FROM tk;
-- multiranges share one family (multirange_ops, declared for the
-- pseudo-type anymultirange): a text value converts to no type, 42804 in
-- the scalar and the batch forms alike (sqlfuzz finding#5: it was 42883
-- from one form, 42804 from the other)
CREATE TEMP TABLE mr AS SELECT bloom_agg(r) AS f FROM (VALUES ('{[1,3)}'::int4multirange)) v(r);
SELECT bloom_contains(f, '{[1,3)}'::text) FROM mr;
SELECT bloom_contains_any(f, ARRAY['{[1,3)}'::text]) FROM mr;
SELECT f @> '{a}'::text[] FROM mr;
SELECT bloom_contains_any(f, ARRAY['{[1,3)}'::int4multirange]) AS multirange_member FROM mr;
DROP TABLE mr;
-- a char(n) value converted through its text drops its trailing spaces,
-- as PostgreSQL's cast of char(n) to text does, whichever form adds or
-- probes it (sqlfuzz finding#4: || took the text overload, @> the padded
-- text); filters of scheme 1 (1.0, 1.1) keep the padded conversion, so
-- their answers do not change
SELECT (bloom_empty(100) || '\x01'::bytea || 'ab'::char(5)) @> 'ab'::char(5) AS char_add_char_probe,
       bloom_add_all(bloom_empty(100) || '\x01'::bytea, ARRAY['ab'::char(5)]) @> 'ab'::bytea AS char_array_add_bytea_probe,
       bloom_contains_any(bloom_empty(100) || 'ab'::bytea, ARRAY['ab'::char(5)]) AS char_array_probe,
       (counting_bloom_empty(100) || '\x01'::bytea || 'ab'::char(5)) @> 'ab'::char(5) AS counting_char,
       (scalable_bloom_empty() || '\x01'::bytea || 'ab'::char(5)) @> 'ab'::char(5) AS scalable_char;
SELECT bloom_add_all(bloom_with_scheme(bloom_empty(100), 1) || '\x01'::bytea, ARRAY['ab'::char(5)]) @> 'ab'::char(5) AS scheme1_padded_both_ways,
       bloom_scheme(bloom_with_scheme(bloom_empty(100), 1)) AS scheme;
\set VERBOSITY terse
-- a filter nothing was added to adopts the value's own type, as before
SELECT (bloom_info(bloom_empty(10) || '43')).element_family AS adopted_family;
DROP TABLE tk;
DROP TYPE tk_mood;
