-- test/sqlfuzz/sqlsmith_setup.sql: the database sqlsmith fuzzes (part A of
-- test/sqlfuzz/run.sh).  Tables of values (every hashable type family) and of
-- filters built from them, and a role "smith" whose search_path puts views
-- of pg_proc and pg_operator restricted to bloomset's objects ahead of
-- pg_catalog.  The views live in information_schema so that sqlsmith's
-- --exclude-catalog keeps them out of its table list.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION bloomset;
CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS int CHECK (VALUE > 0);

CREATE TABLE vals (
	id int, i2 int2, i4 int4, i8 int8, n numeric, r4 float4, r8 float8,
	t text, vc varchar(40), b bytea, u uuid, d date, ts timestamp, tz timestamptz,
	bo bool, j jsonb, ai int4[], att text[], rg int4range, e mood, dm posint,
	ci text COLLATE ci);
INSERT INTO vals
SELECT g, (g % 32767)::int2, g * 7919, g::int8 * 1000003, g / 7.0, g / 3.0, g * 1.5e10,
	md5(g::text), left(md5((g * 3)::text), g % 40), decode(md5(g::text), 'hex'),
	md5(g::text)::uuid, date '2000-01-01' + g, timestamp '2000-01-01' + g * interval '1 hour',
	timestamptz '2000-01-01 00:00+00' + g * interval '1 minute', g % 2 = 0,
	jsonb_build_object('k', g, 'a', jsonb_build_array(g, md5(g::text))),
	ARRAY[g, g + 1, NULL], ARRAY[md5(g::text), ''], int4range(g, g + g % 10),
	(ARRAY['sad', 'ok', 'happy']::mood[])[1 + g % 3], g, CASE WHEN g % 2 = 0 THEN upper(md5(g::text)) ELSE md5(g::text) END
FROM generate_series(1, 300) g;
-- NULLs in every column, extremes, empty values
INSERT INTO vals (id) VALUES (0);
INSERT INTO vals VALUES (-1, -32768, -2147483648, -9223372036854775808, 'NaN', '-Infinity', 'NaN',
	'', '', '\x', '00000000-0000-0000-0000-000000000000', '-infinity', 'infinity', '-infinity',
	false, 'null', '{}', '{NULL}', 'empty', 'sad', 2147483647, 'ABC');
INSERT INTO vals VALUES (-2, 32767, 2147483647, 9223372036854775807, 1e-300, 'NaN', '-0',
	repeat('x', 5000), repeat('y', 40), '\x00', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'infinity', '-infinity', 'infinity',
	true, '{"a": [1, {"b": null}]}', '{{1,2},{3,4}}', '{{a,b},{NULL,c}}', '[,]', 'happy', 1, 'abc');

CREATE TABLE filt (id int, f bloom, cf counting_bloom, sf scalable_bloom, g bloom, tk bloom);
INSERT INTO filt SELECT 1, bloom_agg(i4), counting_bloom_agg(i4, 1000, 0.01), scalable_bloom_agg(i4), bloom_ngram_agg(t), bloom_token_agg(t) FROM vals;
INSERT INTO filt SELECT 2, bloom_agg(t, 1000, 0.001), counting_bloom_agg(t, 100, 0.1), scalable_bloom_agg(t, 10, 0.05), bloom_ngram_agg(vc, 2), bloom_token_agg(vc) FROM vals;
INSERT INTO filt SELECT 3, bloom_agg(i8, 256, 3, 42), counting_bloom_agg(i8, 10, 0.3), scalable_bloom_agg(i8, 5, 0.2), bloom_ngram_agg(ci, 1), bloom_token_agg(ci) FROM vals;
INSERT INTO filt SELECT 4, bloom_agg(b), counting_bloom_agg(u, 500, 0.01), scalable_bloom_agg(e), bloom_ngram_agg(t, 8), NULL FROM vals;
INSERT INTO filt SELECT 5, bloom_agg(ci), counting_bloom_agg(ci, 50, 0.01), scalable_bloom_agg(ci), NULL, bloom_token_agg('') FROM vals;
INSERT INTO filt SELECT 6, bloom_agg(n), NULL, scalable_bloom_agg(d), bloom_agg(j), bloom_agg(ai) FROM vals;
INSERT INTO filt SELECT 7, bloom_empty(100), counting_bloom_empty(100), scalable_bloom_empty(), bloom_empty(64, 4, -1), bloom_agg(rg) FROM vals;
INSERT INTO filt SELECT 8, bloom_agg(tz), NULL, scalable_bloom_agg(bo), bloom_agg(r8), bloom_agg(dm) FROM vals;
INSERT INTO filt SELECT 9, bloom_empty(4000000) || 'x'::text, NULL, NULL, bloom_agg(vc), bloom_agg(ts) FROM vals;
INSERT INTO filt VALUES (10, NULL, NULL, NULL, NULL, NULL);
ANALYZE vals; ANALYZE filt;

-- relations for regclass arguments: a filter index, unrelated tables, an
-- index, a sequence, a view; and query texts for the filter index's sources
CREATE TABLE chunks AS SELECT (id % 9)::bigint AS id, bloom_agg(i4, 100, 0.01) AS f FROM vals GROUP BY 1;
DO $$BEGIN
  IF to_regproc('bloom_index_create') IS NOT NULL THEN
    PERFORM bloom_index_create('findex', 'SELECT id, f FROM chunks');
  END IF;
END$$;
CREATE SEQUENCE seq;
CREATE VIEW filt_view AS SELECT * FROM filt;
CREATE INDEX vals_id ON vals (id);
CREATE TABLE rels (id int, r regclass, q text);
INSERT INTO rels VALUES (1, to_regclass('findex'), 'SELECT id, f FROM chunks'), (2, 'vals', 'SELECT 1'),
	(3, 'vals_id', 'SELECT f, id FROM chunks'), (4, 'seq', 'SELECT id::bigint, cf FROM filt'),
	(5, 'filt_view', NULL), (6, 'pg_class', 'SELEC'), (7, NULL, 'SELECT id::bigint, NULL::bloom FROM chunks');
DO $$BEGIN
  IF EXISTS (SELECT 1 FROM pg_am WHERE amname = 'bloomskip') THEN
    CREATE INDEX vals_skip ON vals USING bloomskip (i4);
    INSERT INTO rels VALUES (8, 'vals_skip', NULL);
  END IF;
END$$;
ANALYZE chunks; ANALYZE rels;

-- the narrowing: views of the catalogs sqlsmith reads at startup, restricted
-- to the extension's functions, aggregates and operators that the role can
-- execute, no name excluded (only those taking internal: no SQL value has
-- that type)
CREATE VIEW information_schema.pg_proc AS
SELECT p.* FROM pg_catalog.pg_proc p
 WHERE p.oid IN (SELECT objid FROM pg_catalog.pg_depend
                  WHERE classid = 'pg_catalog.pg_proc'::regclass AND deptype = 'e'
                    AND refobjid = (SELECT oid FROM pg_catalog.pg_extension WHERE extname = 'bloomset'))
   AND has_function_privilege(p.oid, 'EXECUTE')
   AND NOT (p.proargtypes::oid[] && ARRAY['internal'::regtype]::oid[]);
CREATE VIEW information_schema.pg_operator AS
SELECT o.* FROM pg_catalog.pg_operator o
 WHERE o.oid IN (SELECT objid FROM pg_catalog.pg_depend
                  WHERE classid = 'pg_catalog.pg_operator'::regclass AND deptype = 'e'
                    AND refobjid = (SELECT oid FROM pg_catalog.pg_extension WHERE extname = 'bloomset'));

CREATE ROLE smith LOGIN;
GRANT SELECT ON information_schema.pg_proc, information_schema.pg_operator TO smith;
GRANT SELECT, INSERT, UPDATE, DELETE ON vals, filt, chunks, rels TO smith;
GRANT CREATE ON SCHEMA public TO smith;
DO $$BEGIN
  IF to_regclass('findex') IS NOT NULL THEN GRANT SELECT, INSERT, UPDATE, DELETE ON findex TO smith; END IF;
END$$;
ALTER ROLE smith SET search_path = information_schema, pg_catalog, public;
