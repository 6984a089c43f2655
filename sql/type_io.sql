-- Text and binary forms of the bloom type: exact round trips, readable
-- header, and validation of every field on input.
\set VERBOSITY default

-- the text form: a readable header, then the bit array in hex
SELECT bloom_empty(10);
SELECT bloom_empty(64, 3, 42) || 7;

-- text round trip is exact (bits, header, item counter)
SELECT count(*) AS text_roundtrip_mismatches
FROM (SELECT bloom_agg(x, 1000, 0.01) AS f FROM generate_series(1, 500) x
      UNION ALL SELECT bloom_agg(x::text) FROM generate_series(1, 5000) x
      UNION ALL SELECT bloom_agg(x, 4096, 5, 99) FROM generate_series(1, 700) x) s
WHERE f::text::bloom::text <> f::text OR NOT (f::text::bloom = f);

-- binary form (the send/recv representation) round trips too
SELECT count(*) AS binary_roundtrip_mismatches
FROM (SELECT bloom_agg(x, 1000, 0.01) AS f FROM generate_series(1, 500) x
      UNION ALL SELECT bloom_agg(x, 4096, 5, 99) FROM generate_series(1, 700) x) s
WHERE bloom_to_bytea(f)::bloom::text <> f::text;
SELECT length(bloom_to_bytea(bloom_empty(10))) AS send_bytes_min_filter;

-- malformed text input: invalid_text_representation with a reason
SELECT ''::bloom;
SELECT 'bloom:v2 layout=blocked k=8 seed=0 bits=256 items=0 flags=0 coll=0 family= hex='::bloom;
SELECT 'bloom:v1 layout=fancy k=8 seed=0 bits=256 items=0 flags=0 coll=0 family= hex='::bloom;
SELECT 'bloom:v1 layout=blocked k=7 seed=0 bits=256 items=0 flags=0 coll=0 family= hex=00'::bloom;
SELECT 'bloom:v1 layout=classic k=0 seed=0 bits=256 items=0 flags=0 coll=0 family= hex=00'::bloom;
SELECT 'bloom:v1 layout=classic k=3 seed=0 bits=100 items=0 flags=0 coll=0 family= hex=00'::bloom;
SELECT 'bloom:v1 layout=classic k=3 seed=0 bits=99999999999999999999 items=0 flags=0 coll=0 family= hex=00'::bloom;
SELECT 'bloom:v1 layout=classic k=3 seed=0 bits=17179869184 items=0 flags=0 coll=0 family= hex=00'::bloom;
SELECT 'bloom:v1 layout=classic k=3 seed=0 bits=256 items=0 flags=80 coll=0 family= hex=00'::bloom;
-- truncated, overlong and non-hex bit arrays
SELECT 'bloom:v1 layout=classic k=3 seed=0 bits=256 items=1 flags=0 coll=0 family=integer_ops hex=00ff'::bloom;
SELECT ('bloom:v1 layout=classic k=3 seed=0 bits=256 items=1 flags=0 coll=0 family=integer_ops hex=' || repeat('0', 66))::bloom;
SELECT ('bloom:v1 layout=classic k=3 seed=0 bits=256 items=1 flags=0 coll=0 family=integer_ops hex=' || repeat('g', 64))::bloom;
-- bits set in a filter that claims nothing was ever added
SELECT ('bloom:v1 layout=classic k=3 seed=0 bits=256 items=0 flags=0 coll=0 family= hex=' || repeat('f', 64))::bloom;

-- a well-formed family that names no type of this database is accepted,
-- so that restoring filters built where such a type exists never drops a
-- row; the filter keeps it, and probes and unions refuse it with a reason
CREATE TEMP TABLE io_foreign AS
SELECT ('bloom:v1 layout=blocked scheme=4 k=8 seed=0 bits=256 items=1 flags=1 coll=0 family=no_such_ops hex='
        || repeat('0', 62) || '10')::bloom AS f;
SELECT (bloom_info(f)).element_family, bloom_card(f) > 0 AS estimable FROM io_foreign;
SELECT bloom_contains(f, 1) FROM io_foreign;
SELECT f | bloom_agg(x) FROM io_foreign, generate_series(1, 3) x GROUP BY f;

-- damaged element fields (family=, coll=): refused by input, not left to
-- fail at the first probe.  family= takes what bloom_out writes; coll= is
-- 0 unless the family's values are of a collatable type.
CREATE TEMP TABLE io_base AS
SELECT 'bloom:v1 layout=blocked scheme=2 k=8 seed=0 bits=256 items=1 flags=0 coll=0 family=integer_ops hex=' || repeat('0', 62) || '10' AS t;
SELECT replace(t, 'family=integer_ops', 'family=array(integer_ops')::bloom FROM io_base;
SELECT replace(t, 'family=integer_ops', 'family=integer_o(s')::bloom FROM io_base;
SELECT replace(t, 'family=integer_ops', 'family=enum:')::bloom FROM io_base;
SELECT replace(t, 'family=integer_ops', 'family=array()')::bloom FROM io_base;
SELECT replace(t, 'family=integer_ops', 'family=range(text_ops):x')::bloom FROM io_base;
SELECT replace(t, 'coll=0', 'coll=1234')::bloom FROM io_base;
SELECT replace(replace(t, 'coll=0', 'coll=1234'), 'family=integer_ops', 'family=array(integer_ops)')::bloom FROM io_base;
SELECT replace(replace(t, 'coll=0', 'coll=1234'), 'family=integer_ops', 'family=ngram:3')::bloom FROM io_base;
SELECT replace(replace(t, 'coll=0', 'coll=1234'), 'family=integer_ops', 'family=range(text_ops)')::bloom FROM io_base;
SELECT 'bloom:v1 layout=blocked k=8 seed=0 bits=256 items=0 flags=0 coll=ff family= hex='::bloom;
-- what bloom_out writes is accepted: every form of family, a collation
-- fingerprint on a collatable family (a collation this database may lack
-- is the probe's business), families this database does not know
SELECT count(*) FILTER (WHERE replace(replace(t, 'family=integer_ops', 'family=' || fam), 'coll=0', 'coll=' || coll)::bloom IS NOT NULL) AS accepted,
       count(*) AS cases
  FROM io_base, (VALUES ('integer_ops', '0'), ('text_ops', '1234'), ('array(text_ops)', '1234'),
                        ('array(array(integer_ops))', '0'), ('range(integer_ops)', '0'), ('record', '0'),
                        ('enum:mood', '0'), ('opf:ngram_ops', '0'), ('ngram:3', '0'), ('token', '0'),
                        ('somebody_elses_ops', '1234'), ('array(integer_ops)~0123abcd', '0'),
                        ('text_pattern_ops', '5')) v(fam, coll);
-- the counting and scalable inputs share the checks
SELECT replace(counting_bloom_empty(10, 0.01)::text, 'family=', 'family=x(')::counting_bloom;
SELECT replace((counting_bloom_empty(10, 0.01) || 5)::text, 'coll=0', 'coll=77')::counting_bloom;
SELECT replace((scalable_bloom_empty(10) || 5)::text, 'coll=0', 'coll=77')::scalable_bloom;
SELECT replace((scalable_bloom_empty(10) || 5)::text, 'family=integer_ops', 'family=integer_ops)')::scalable_bloom;
-- and the binary input (coll: 4 bytes at offset 32, family: 32 at 36)
SELECT overlay(bloom_to_bytea(bloom_empty(10, 0.01) || 5) PLACING '\x00001234'::bytea FROM 33)::bloom;
SELECT overlay(bloom_to_bytea(bloom_empty(10, 0.01) || 5) PLACING convert_to('intege(_ops', 'UTF8') FROM 37)::bloom;

-- binary input: invalid_binary_representation
SELECT '\x00'::bytea::bloom;
SELECT (bloom_to_bytea(bloom_empty(10)) || '\x00'::bytea)::bloom;
SELECT substr(bloom_to_bytea(bloom_empty(10)), 1, 80)::bloom;
SELECT overlay(bloom_to_bytea(bloom_empty(10)) placing '\x02'::bytea from 1)::bloom;
SELECT overlay(bloom_to_bytea(bloom_empty(10)) placing '\x00000000ffffffff'::bytea from 13)::bloom;

-- SQLSTATEs of the cases above, for the record
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
SELECT sqlstate_of($$SELECT 'garbage'::bloom$$) AS text_input,
       sqlstate_of($$SELECT '\x0001'::bytea::bloom$$) AS binary_input,
       sqlstate_of($$SELECT 'bloom:v1 layout=blocked k=8 seed=0 bits=256 items=0 flags=0 coll=ff family= hex='::bloom$$) AS damaged_coll,
       sqlstate_of($$SELECT 'bloom:v1 layout=blocked k=8 seed=0 bits=256 items=0 flags=0 coll=0 family=array(x hex='::bloom$$) AS damaged_family;
DROP FUNCTION sqlstate_of(text);
