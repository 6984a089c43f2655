-- Sliced reads of stored filters (bloomset.sliced_reads): a probe of a
-- filter stored out of line uncompressed reads its header and the parts its
-- keys need.  Every probing function and type answers exactly as with the
-- setting off (whole reads, bloomset 1.1), for filters stored out of line
-- uncompressed, out of line or in line compressed, and in line; corrupt
-- stored values raise the same errors either way.
-- the types' default storage (1.2): external, out of line uncompressed
SELECT typname, typstorage FROM pg_type
 WHERE typname IN ('bloom', 'counting_bloom', 'scalable_bloom') ORDER BY typname;
CREATE TABLE sr_filter (id int, blocked bloom, classic bloom, c counting_bloom,
						s scalable_bloom, grams bloom, tokens bloom);
ALTER TABLE sr_filter ALTER blocked SET STORAGE EXTERNAL;
ALTER TABLE sr_filter ALTER classic SET STORAGE EXTERNAL;
ALTER TABLE sr_filter ALTER c SET STORAGE EXTERNAL;
ALTER TABLE sr_filter ALTER s SET STORAGE EXTERNAL;
ALTER TABLE sr_filter ALTER grams SET STORAGE EXTERNAL;
ALTER TABLE sr_filter ALTER tokens SET STORAGE EXTERNAL;
INSERT INTO sr_filter
SELECT i, bloom_agg(i * 100000 + g, 100000, 0.01),
	   bloom_agg(i * 100000 + g, 20000, 0.0001),
	   counting_bloom_agg(i * 100000 + g, 20000, 0.01),
	   scalable_bloom_agg(i * 100000 + g, 1000, 0.01),
	   bloom_ngram_agg(md5((i * 100000 + g)::text), 5),
	   bloom_token_agg('tok' || (i * 100000 + g) || ' ' || md5(g::text))
  FROM generate_series(0, 9) i, generate_series(1, 5000) g GROUP BY i;
-- the same filters stored with the other storages: compressed (sparse
-- filters sized for 50 times their keys compress), in line (small), and
-- in line or out of line as the type's default storage gives them
CREATE TABLE sr_z (LIKE sr_filter);
ALTER TABLE sr_z ALTER blocked SET STORAGE EXTENDED, ALTER classic SET STORAGE EXTENDED;
INSERT INTO sr_z
SELECT i, bloom_agg(i * 100000 + g, 250000, 0.01), bloom_agg(i * 100000 + g, 100000, 0.0001)
  FROM generate_series(0, 9) i, generate_series(1, 5000) g GROUP BY i;
CREATE TABLE sr_small (LIKE sr_filter);
INSERT INTO sr_small
SELECT i, bloom_agg(i * 100000 + g, 100, 0.01), bloom_agg(i * 100000 + g, 50, 0.0001),
	   counting_bloom_agg(i * 100000 + g, 100, 0.01), scalable_bloom_agg(i * 100000 + g, 100, 0.01),
	   bloom_ngram_agg(md5((i * 100000 + g)::text), 5), bloom_token_agg('tok' || (i * 100000 + g))
  FROM generate_series(0, 9) i, generate_series(1, 20) g GROUP BY i;
SELECT (SELECT bool_and(pg_column_size(blocked) >= (bloom_info(blocked)).bits / 8
			   AND pg_column_size(classic) >= (bloom_info(classic)).bits / 8
			   AND pg_column_size(classic) > 10000
			   AND (bloom_info(blocked)).layout = 'blocked' AND (bloom_info(classic)).layout = 'classic')
		  FROM sr_filter) AS out_of_line_uncompressed,
	   (SELECT bool_and(pg_column_size(blocked) < (bloom_info(blocked)).bits / 8)
		  FROM sr_z) AS compressed,
	   (SELECT bool_and(pg_column_size(blocked) < 2000) FROM sr_small) AS in_line;

-- keys: members and non-members of every filter, in turn over the filters
CREATE TABLE sr_keys AS SELECT (g % 10) * 100000 + g / 10 AS k FROM generate_series(1, 3000, 7) g;

-- every probing function, answers per (query, filter, key)
CREATE FUNCTION sr_answers(tab regclass) RETURNS TABLE (q text, id int, k text, a text)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format($q$
	SELECT '@> blocked', f.id, o.k::text, (f.blocked @> o.k)::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'bloom_contains classic', f.id, o.k::text, bloom_contains(f.classic, o.k::bigint)::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'text key', f.id, o.k::text, bloom_contains(f.blocked, o.k::text)::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'text key classic', f.id, o.k::text, (f.classic @> o.k::text)::text FROM sr_keys o, %1$s f
	UNION ALL SELECT '= ANY', f.id, o.k::text, (f.blocked @> ANY (ARRAY[o.k, o.k + 1, o.k + 100000]))::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'bloom_contains_each', f.id, o.k::text,
		bloom_contains_each(f.blocked, ARRAY[o.k, NULL, o.k + 3, o.k + 500000])::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'bloom_contains_any classic', f.id, o.k::text,
		bloom_contains_any(f.classic, ARRAY[o.k + 1, o.k + 2])::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'bloom_contains_all', f.id, o.k::text,
		bloom_contains_all(f.blocked, ARRAY[o.k, o.k + 10, o.k + 20]::bigint[])::text FROM sr_keys o, %1$s f
	UNION ALL SELECT 'counting', f.id, o.k::text, (f.c @> o.k)::text FROM sr_keys o, %1$s f WHERE f.c IS NOT NULL
	UNION ALL SELECT 'counting_contains_each', f.id, o.k::text,
		counting_bloom_contains_each(f.c, ARRAY[o.k, NULL, o.k + 7])::text FROM sr_keys o, %1$s f WHERE f.c IS NOT NULL
	UNION ALL SELECT 'scalable', f.id, o.k::text, scalable_bloom_contains(f.s, o.k)::text FROM sr_keys o, %1$s f WHERE f.s IS NOT NULL
	UNION ALL SELECT 'scalable_contains_any', f.id, o.k::text,
		scalable_bloom_contains_any(f.s, ARRAY[o.k + 1, o.k])::text FROM sr_keys o, %1$s f WHERE f.s IS NOT NULL
	UNION ALL SELECT 'ngram', f.id, o.k::text, bloom_ngram_may_contain(f.grams, substr(md5(o.k::text), 3, 6))::text
		FROM sr_keys o, %1$s f WHERE f.grams IS NOT NULL
	UNION ALL SELECT 'like', f.id, o.k::text, bloom_may_like(f.grams, '%%' || substr(md5(o.k::text), 1, 6) || '%%' || substr(md5(o.k::text), 20, 7) || '_')::text
		FROM sr_keys o, %1$s f WHERE f.grams IS NOT NULL
	UNION ALL SELECT 'token', f.id, o.k::text, bloom_token_may_contain(f.tokens, 'tok' || o.k || ' ' || md5((o.k %% 100000)::text))::text
		FROM sr_keys o, %1$s f WHERE f.tokens IS NOT NULL
	$q$, tab);
END $$;

CREATE TEMP TABLE a_on AS
SELECT 'sr_filter' AS t, * FROM sr_answers('sr_filter') UNION ALL
SELECT 'sr_z', * FROM sr_answers('sr_z') UNION ALL
SELECT 'sr_small', * FROM sr_answers('sr_small');
SET bloomset.sliced_reads = off;
CREATE TEMP TABLE a_off AS
SELECT 'sr_filter' AS t, * FROM sr_answers('sr_filter') UNION ALL
SELECT 'sr_z', * FROM sr_answers('sr_z') UNION ALL
SELECT 'sr_small', * FROM sr_answers('sr_small');
RESET bloomset.sliced_reads;
-- the probe cache off too: every probe of a stored filter reads it anew
SET bloomset.probe_cache_size = 0;
CREATE TEMP TABLE a_nocache AS
SELECT 'sr_filter' AS t, * FROM sr_answers('sr_filter');
RESET bloomset.probe_cache_size;
-- maybe: true, or an array whose first answer is true
SELECT t, q, count(*) AS answers, count(*) FILTER (WHERE a = 'true' OR a LIKE '{t,%') AS maybe
  FROM a_on GROUP BY t, q ORDER BY t, q;
SELECT (SELECT count(*) FROM (SELECT * FROM a_on EXCEPT ALL SELECT * FROM a_off) d) AS only_sliced,
	   (SELECT count(*) FROM (SELECT * FROM a_off EXCEPT ALL SELECT * FROM a_on) d) AS only_whole,
	   (SELECT count(*) FROM (SELECT * FROM a_nocache EXCEPT ALL SELECT * FROM a_on WHERE t = 'sr_filter') d) AS only_nocache;
-- no false negatives: a filter's own keys are all found
SELECT q, count(*) AS members_missed FROM a_on
 WHERE t <> 'sr_small' AND id = (k::int / 100000) AND k::int % 100000 BETWEEN 1 AND 5000
   AND q IN ('@> blocked', 'bloom_contains classic', 'text key', 'text key classic', '= ANY', 'counting', 'scalable')
   AND a <> 'true'
 GROUP BY q;

-- one lookup, each filter probed once: a few buffers per filter sliced,
-- the whole filter's chunks read whole
CREATE FUNCTION sr_buffers(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint
		 + (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint;
END $$;
CREATE TEMP TABLE b_on AS
SELECT sr_buffers('SELECT count(*) FROM sr_filter WHERE blocked @> 42') AS point,
	   sr_buffers('SELECT count(*) FROM sr_filter WHERE bloom_contains_any(blocked, ARRAY[1, 2, 3])') AS batch;
SET bloomset.sliced_reads = off;
CREATE TEMP TABLE b_off AS
SELECT sr_buffers('SELECT count(*) FROM sr_filter WHERE blocked @> 42') AS point,
	   sr_buffers('SELECT count(*) FROM sr_filter WHERE bloom_contains_any(blocked, ARRAY[1, 2, 3])') AS batch;
RESET bloomset.sliced_reads;
SELECT b_on.point <= 10 * 10 AS point_sliced, b_on.batch <= 10 * 16 AS batch_sliced,
	   b_off.point > 2 * b_on.point AS point_whole_reads_more
  FROM b_on, b_off;

-- corrupt stored values: bytes written as a bloom without validation (as a
-- damaged disk would), stored out of line uncompressed.  Each must raise
-- the same error sliced and whole, never answer.
CREATE FUNCTION pg_temp.raw_bytes(bloom, bytea) RETURNS bytea
	LANGUAGE internal IMMUTABLE STRICT AS 'byteacat';
CREATE FUNCTION pg_temp.unchecked_bloom(bytea, bytea) RETURNS bloom
	LANGUAGE internal IMMUTABLE STRICT AS 'byteacat';
CREATE TABLE sr_bad (what text, f bloom);
ALTER TABLE sr_bad ALTER f SET STORAGE EXTERNAL;
-- raw: the stored image after its length word (offset 0 = version)
CREATE TEMP TABLE sr_raw AS SELECT pg_temp.raw_bytes(blocked, ''::bytea) AS r FROM sr_filter WHERE id = 1;
INSERT INTO sr_bad SELECT 'version', pg_temp.unchecked_bloom(set_byte(r, 0, 9), '') FROM sr_raw;
INSERT INTO sr_bad SELECT 'counting layout', pg_temp.unchecked_bloom(set_byte(r, 1, 2), '') FROM sr_raw;
INSERT INTO sr_bad SELECT 'scheme', pg_temp.unchecked_bloom(set_byte(r, 2, 7), '') FROM sr_raw;
-- nbits (offset 12, 8 bytes little-endian) twice the bits stored
INSERT INTO sr_bad SELECT 'nbits', pg_temp.unchecked_bloom(overlay(r PLACING decode(
	(SELECT string_agg(substr(lpad(to_hex((bloom_info(blocked)).bits * 2), 16, '0'), 15 - 2 * i, 2), '' ORDER BY i)
	   FROM generate_series(0, 7) i, sr_filter WHERE id = 1), 'hex') FROM 13 FOR 8), '') FROM sr_raw;
-- the value cut short: its header gives more bits than it holds
INSERT INTO sr_bad SELECT 'truncated', pg_temp.unchecked_bloom(substring(r FROM 1 FOR 60000), '') FROM sr_raw;
-- a header alone
INSERT INTO sr_bad SELECT 'header only', pg_temp.unchecked_bloom(substring(r FROM 1 FOR 40), '') FROM sr_raw;
SELECT what, pg_column_size(f) > 2000 AS out_of_line FROM sr_bad ORDER BY what;
CREATE FUNCTION sr_error(query text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	DECLARE
		detail text;
	BEGIN
		GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' (' || nullif(detail, '') || ')', '');
	END;
END $$;
CREATE TEMP TABLE e_on AS
SELECT what, sr_error(format('SELECT f @> 42 FROM sr_bad WHERE what = %L', what)) AS probe,
	   sr_error(format('SELECT bloom_contains_any(f, ARRAY[1, 2]) FROM sr_bad WHERE what = %L', what)) AS batch,
	   sr_error(format('SELECT bloom_ngram_may_contain(f, ''abcd'') FROM sr_bad WHERE what = %L', what)) AS ngram
  FROM sr_bad;
SET bloomset.sliced_reads = off;
CREATE TEMP TABLE e_off AS
SELECT what, sr_error(format('SELECT f @> 42 FROM sr_bad WHERE what = %L', what)) AS probe,
	   sr_error(format('SELECT bloom_contains_any(f, ARRAY[1, 2]) FROM sr_bad WHERE what = %L', what)) AS batch,
	   sr_error(format('SELECT bloom_ngram_may_contain(f, ''abcd'') FROM sr_bad WHERE what = %L', what)) AS ngram
  FROM sr_bad;
RESET bloomset.sliced_reads;
SELECT what, probe FROM e_on ORDER BY what;
SELECT count(*) AS same_error_each_path FROM e_on WHERE probe = batch AND probe = ngram;
SELECT count(*) AS differ_from_whole FROM (SELECT * FROM e_on EXCEPT SELECT * FROM e_off) d;

-- corrupt scalable values: a sub-filter header (the first, the second:
-- found by walking), the value cut short
CREATE FUNCTION pg_temp.raw_scalable(scalable_bloom, bytea) RETURNS bytea
	LANGUAGE internal IMMUTABLE STRICT AS 'byteacat';
CREATE FUNCTION pg_temp.unchecked_scalable(bytea, bytea) RETURNS scalable_bloom
	LANGUAGE internal IMMUTABLE STRICT AS 'byteacat';
CREATE TABLE sr_bad_s (what text, s scalable_bloom);
ALTER TABLE sr_bad_s ALTER s SET STORAGE EXTERNAL;
-- sub-filter i's header starts at 88 + the images before it (72 bytes and
-- the bits each); its seed 8 bytes in; bytea offsets are 4 less
CREATE TEMP TABLE sr_raw_s AS
SELECT pg_temp.raw_scalable(s, ''::bytea) AS r,
	   (SELECT (72 + bits / 8)::int FROM scalable_bloom_info(s) WHERE sub = 1) AS first_size
  FROM sr_filter WHERE id = 1;
INSERT INTO sr_bad_s SELECT 'first sub-filter seed',
	pg_temp.unchecked_scalable(set_byte(r, 88 + 8 - 4, (get_byte(r, 88 + 8 - 4) + 1) % 256), '') FROM sr_raw_s;
INSERT INTO sr_bad_s SELECT 'second sub-filter seed',
	pg_temp.unchecked_scalable(set_byte(r, 88 + first_size + 8 - 4, (get_byte(r, 88 + first_size + 8 - 4) + 1) % 256), '')
  FROM sr_raw_s;
INSERT INTO sr_bad_s SELECT 'second sub-filter bits',
	pg_temp.unchecked_scalable(set_byte(r, 88 + first_size + 16 - 4 + 1, (get_byte(r, 88 + first_size + 16 - 4 + 1) + 1) % 256), '')
  FROM sr_raw_s;
INSERT INTO sr_bad_s SELECT 'truncated', pg_temp.unchecked_scalable(substring(r FROM 1 FOR length(r) - 4000), '') FROM sr_raw_s;
SELECT what, pg_column_size(s) > 2000 AS out_of_line FROM sr_bad_s ORDER BY what;
CREATE TEMP TABLE es_on AS
SELECT what, sr_error(format('SELECT s @> 42 FROM sr_bad_s WHERE what = %L', what)) AS probe,
	   sr_error(format('SELECT scalable_bloom_contains_any(s, ARRAY[1, 2]) FROM sr_bad_s WHERE what = %L', what)) AS batch
  FROM sr_bad_s;
SET bloomset.sliced_reads = off;
CREATE TEMP TABLE es_off AS
SELECT what, sr_error(format('SELECT s @> 42 FROM sr_bad_s WHERE what = %L', what)) AS probe,
	   sr_error(format('SELECT scalable_bloom_contains_any(s, ARRAY[1, 2]) FROM sr_bad_s WHERE what = %L', what)) AS batch
  FROM sr_bad_s;
RESET bloomset.sliced_reads;
SELECT what, probe FROM es_on ORDER BY what;
SELECT count(*) AS same_error_each_path FROM es_on WHERE probe = batch;
SELECT count(*) AS differ_from_whole FROM (SELECT * FROM es_on EXCEPT SELECT * FROM es_off) d;

-- a filter of another element type among stored ones: checked per filter
INSERT INTO sr_filter (id, blocked) SELECT 99, bloom_agg('x' || g, 100000, 0.01) FROM generate_series(1, 10) g;
SELECT sr_error('SELECT count(*) FROM sr_filter WHERE blocked @> 42');
SELECT count(*) FROM (SELECT blocked FROM sr_filter WHERE id = 99 OFFSET 0) f WHERE blocked @> 'x3'::text;

SHOW bloomset.sliced_reads;
DROP FUNCTION sr_answers(regclass), sr_buffers(text), sr_error(text);
DROP TABLE sr_filter, sr_z, sr_small, sr_keys, sr_bad, sr_bad_s;
