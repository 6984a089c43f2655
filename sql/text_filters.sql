-- Substring and token pre-checks: per-chunk n-gram and token filters over
-- log lines; zero false negatives over 100,000 needles, measured rates.

CREATE TABLE logs AS
SELECT i, i % 20 AS chunk,
       'level=' || (ARRAY['info', 'warn', 'error', 'debug'])[1 + i % 4] ||
       ' svc=svc' || (i % 37) || ' msg=' ||
       (ARRAY['started', 'stopped', 'timeout', 'retrying', 'connected', 'denied',
              'überlastet', 'ok'])[1 + (i / 7) % 8] ||
       ' user=' || substr(md5(i::text), 1, 10) AS line
FROM generate_series(1, 100000) i;
CREATE TABLE chunk_filters AS
SELECT chunk, bloom_ngram_agg(line) AS tri, bloom_ngram_agg(line, 4) AS quad,
       bloom_token_agg(line) AS tok
FROM logs GROUP BY chunk;
SELECT (bloom_info(tri)).element_family AS tri_family, (bloom_info(quad)).element_family AS quad_family,
       (bloom_info(tok)).element_family AS tok_family, (bloom_info(tri)).layout
FROM chunk_filters WHERE chunk = 0;

-- 100,000 needles taken from the chunk's own lines: never a false negative
SELECT count(*) FILTER (WHERE NOT bloom_ngram_may_contain(tri, needle)) AS trigram_false_negatives,
       count(*) FILTER (WHERE NOT bloom_ngram_may_contain(quad, needle)) AS quadgram_false_negatives,
       count(*) FILTER (WHERE NOT bloom_may_like(tri, '%' || needle || '%')) AS like_false_negatives,
       count(*) FILTER (WHERE NOT bloom_may_like(tri, 'level=%' || needle || '%')) AS like_prefix_false_negatives,
       count(*) AS needles
FROM (SELECT chunk, substr(line, 1 + (i * 7919) % (length(line) - 8), 3 + i % 6) AS needle
      FROM logs) n JOIN chunk_filters USING (chunk);
SELECT count(*) FILTER (WHERE NOT bloom_token_may_contain(tok, substr(md5(i::text), 1, 10))) AS token_false_negatives,
       count(*) FILTER (WHERE NOT bloom_token_may_contain(tok, 'svc' || (i % 37) || ' ' || (ARRAY['info', 'warn', 'error', 'debug'])[1 + i % 4])) AS multi_token_false_negatives
FROM logs JOIN chunk_filters USING (chunk);
-- multibyte characters count as characters
SELECT bloom_ngram_may_contain(tri, 'überl') AS umlaut, bloom_ngram_may_contain(tri, 'überx') AS umlaut_absent
FROM chunk_filters WHERE chunk = 0;

-- false-positive rate against the exact answer: 6-character needles from
-- other lines, on 20 chunks each (the exact set of 6-character substrings of
-- each chunk decides absence)
CREATE TABLE chunk_six AS
SELECT DISTINCT chunk, substr(line, p, 6) AS s
FROM logs, generate_series(1, 60) p WHERE p + 5 <= length(line);
CREATE TABLE probes AS
SELECT c.chunk, substr('level=' || (ARRAY['info', 'warn', 'error', 'debug'])[1 + j % 4] ||
                       ' user=' || substr(md5((j + 1000000)::text), 1, 10), 1 + j % 20, 6) AS needle
FROM generate_series(1, 5000) j, generate_series(0, 19) c(chunk);
SELECT count(*) AS absent_pairs,
       count(*) FILTER (WHERE bloom_ngram_may_contain(tri, needle)) AS trigram_maybe,
       count(*) FILTER (WHERE bloom_ngram_may_contain(quad, needle)) AS quadgram_maybe,
       count(*) FILTER (WHERE bloom_ngram_may_contain(tri, needle))::float8 / count(*) < 0.5 AS trigram_prunes_most
FROM probes p JOIN chunk_filters USING (chunk)
WHERE NOT EXISTS (SELECT 1 FROM chunk_six c WHERE c.chunk = p.chunk AND c.s = p.needle);

-- needles shorter than n cannot be checked: always "maybe"; empty filters: never
SELECT bloom_ngram_may_contain(tri, 'zq') AS short_needle, bloom_may_like(tri, '%') AS match_all
FROM chunk_filters WHERE chunk = 0;
SELECT bloom_ngram_may_contain(bloom_ngram_agg(x), 'abc') AS empty_source
FROM (SELECT NULL::text WHERE false) s(x);
-- the filters are ordinary bloom values: union works, families are checked
SELECT bloom_ngram_may_contain(bloom_union_agg(tri), 'timeout') AS union_ok FROM chunk_filters;
SELECT bloom_contains(tri, 'abc') FROM chunk_filters WHERE chunk = 0;
SELECT bloom_token_may_contain(tri, 'abc') FROM chunk_filters WHERE chunk = 0;
SELECT bloom_ngram_may_contain(tok, 'abc') FROM chunk_filters WHERE chunk = 0;
SELECT bloom_ngram_agg(x, 9) FROM (VALUES ('a')) v(x);
DROP TABLE logs, chunk_filters, chunk_six, probes;

-- families are validated on every input path, so a probe never meets an
-- impossible one (1.0 accepted them and raised XX001 at probe time)
CREATE TABLE fam_src AS SELECT bloom_ngram_agg(x, 3) AS tri, bloom_token_agg(x) AS tok
  FROM (VALUES ('alpha beta'), ('gamma')) v(x);
CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE d text;
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || coalesce(nullif(d, ''), SQLERRM);
END $$;
SELECT fam, sqlstate_of(format('SELECT bloom_may_like(replace(tri::text, %L, %L)::bloom, %L) FROM fam_src',
                               'family=ngram:3', 'family=' || fam, '%alp%')) AS text_input
  FROM (VALUES ('ngram:0'), ('ngram:'), ('ngram:9'), ('ngram:-3'), ('ngram:2147483648'), ('ngram:03'), ('ngram:3x')) v(fam);
-- the binary form with a zero-padded bad family, through the cast and bloom_from_bytea
SELECT fam,
       sqlstate_of(format('SELECT bloom_ngram_may_contain(overlay(bloom_to_bytea(tri) placing %L::bytea from 37)::bloom, %L) FROM fam_src',
                          '\x' || rpad(encode(convert_to(fam, 'UTF8'), 'hex'), 64, '0'), 'alp')) AS bytea_cast,
       sqlstate_of(format('SELECT bloom_ngram_may_contain(bloom_from_bytea(overlay(bloom_to_bytea(tri) placing %L::bytea from 37)), %L) FROM fam_src',
                          '\x' || rpad(encode(convert_to(fam, 'UTF8'), 'hex'), 64, '0'), 'alp')) AS from_bytea
  FROM (VALUES ('ngram:0'), ('ngram:9'), ('ngram:'), ('tokenizer'), ('ngram:3')) v(fam);
SELECT sqlstate_of($q$SELECT bloom_token_may_contain(replace(tok::text, 'family=token', 'family=tokenizer')::bloom, 'alpha') FROM fam_src$q$) AS tokenizer_text;
-- bloom_ngram_agg with an n that changes from row to row is an error, never a
-- false negative; a NULL n is an error like every NULL sizing argument
SELECT sqlstate_of($q$SELECT bloom_ngram_may_contain(bloom_ngram_agg(s, n), 'ghi') FROM (VALUES ('abcdef', 1), ('ghijkl', 3)) v(s, n)$q$) AS varying_n;
SELECT sqlstate_of($q$SELECT bloom_ngram_agg(s, NULL) FROM (VALUES ('abcdef')) v(s)$q$) AS null_n;
SELECT bloom_ngram_may_contain(bloom_ngram_agg(s, n), 'ghi') AS constant_n
  FROM (VALUES ('abcdef', 3), ('ghijkl', 3)) v(s, n);
DROP FUNCTION sqlstate_of(text);
DROP TABLE fam_src;
