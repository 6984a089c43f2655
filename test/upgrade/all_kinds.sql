-- test/upgrade/all_kinds.sql -- filters of every kind bloomset stores, for
-- the durability tests that move them between extension versions
-- (test/upgrade/run.sh) and between server versions (test/t/007+):
--   bloom in both layouts (blocked: the automatic choice at 1 %; classic:
--   rates below 5e-4 and the explicit (size, hashes, seed) form), built by
--   bloom_agg and by ||, over int, text, an enum, a domain over int, text
--   under a nondeterministic ICU collation; n-gram filters (bloom_ngram_agg,
--   n = 3 and 4) and a token filter (bloom_token_agg) over log lines; a
--   counting_bloom with removals; a scalable_bloom grown to several
--   sub-filters; an empty filter and a NULL.
-- The extension must already exist in the database.  fingerprints.sql and
-- answers.sql read the result.
CREATE TYPE ak_mood AS ENUM ('sad', 'ok', 'happy');
ALTER TYPE ak_mood ADD VALUE 'meh' BEFORE 'ok';
CREATE DOMAIN ak_posint AS integer CHECK (VALUE > 0);
CREATE COLLATION ak_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

CREATE TABLE ak_int (x integer);
CREATE TABLE ak_text (t text);
CREATE TABLE ak_enum (m ak_mood);
CREATE TABLE ak_dom (d ak_posint);
CREATE TABLE ak_ci_text (s text COLLATE ak_ci);
CREATE TABLE ak_logs (i integer, line text);
INSERT INTO ak_int SELECT g FROM generate_series(1, 20000) g;
INSERT INTO ak_text SELECT 'key-' || g FROM generate_series(1, 2000) g;
INSERT INTO ak_enum SELECT (enum_range(NULL::ak_mood))[1 + g % 3] FROM generate_series(1, 300) g;
INSERT INTO ak_dom SELECT g * 7 FROM generate_series(1, 3000) g;
INSERT INTO ak_ci_text SELECT CASE WHEN g % 2 = 0 THEN 'Name-' || g ELSE 'NAME-ß' || g END
  FROM generate_series(1, 1000) g;
INSERT INTO ak_logs
SELECT i, 'level=' || (ARRAY['info', 'warn', 'error', 'debug'])[1 + i % 4] ||
          ' svc=svc' || (i % 37) || ' msg=' ||
          (ARRAY['started', 'stopped', 'timeout', 'überlastet'])[1 + (i / 7) % 4] ||
          ' user=' || substr(md5(i::text), 1, 10)
  FROM generate_series(1, 3000) i;

CREATE TABLE ak_bloom (id integer PRIMARY KEY, name text NOT NULL, f bloom);
INSERT INTO ak_bloom VALUES
  (1,  'int_blocked',        (SELECT bloom_agg(x, 20000, 0.01) FROM ak_int)),
  (2,  'int_auto',           (SELECT bloom_agg(x) FROM ak_int)),
  (3,  'int_classic_fpr',    (SELECT bloom_agg(x, 20000, 0.00001) FROM ak_int)),
  (4,  'int_classic_explicit', (SELECT bloom_agg(x, 4096, 5, 42) FROM ak_int WHERE x <= 1000)),
  (5,  'text_auto',          (SELECT bloom_agg(t) FROM ak_text)),
  (6,  'text_added',         bloom_empty(100, 0.01) || 'alpha'::text || 'beta'::text),
  (7,  'enum_auto',          (SELECT bloom_agg(m) FROM ak_enum)),
  (8,  'enum_added',         bloom_empty(10, 0.01) || 'happy'::ak_mood || 'meh'::ak_mood),
  (9,  'domain_auto',        (SELECT bloom_agg(d) FROM ak_dom)),
  (10, 'domain_classic',     (SELECT bloom_agg(d, 5000, 0.00001) FROM ak_dom)),
  (11, 'ci_text',            (SELECT bloom_agg(s) FROM ak_ci_text)),
  (12, 'ngram3',             (SELECT bloom_ngram_agg(line) FROM ak_logs)),
  (13, 'ngram4',             (SELECT bloom_ngram_agg(line, 4) FROM ak_logs)),
  (14, 'token',              (SELECT bloom_token_agg(line) FROM ak_logs)),
  (15, 'int_union',          (SELECT bloom_agg(x) FROM ak_int WHERE x <= 100)
                             | (SELECT bloom_agg(x) FROM ak_int WHERE x > 15000)),
  (16, 'empty',              bloom_empty(1000, 0.01)),
  (17, 'null',               NULL);

CREATE TABLE ak_counting (id integer PRIMARY KEY, name text NOT NULL, f counting_bloom);
INSERT INTO ak_counting VALUES
  (1, 'counting_int',     (SELECT counting_bloom_agg(x, 20000, 0.01) FROM ak_int)),
  (2, 'counting_removed', (SELECT counting_bloom_agg(x, 20000, 0.01) FROM ak_int)),
  (3, 'counting_text',    counting_bloom_empty(100, 0.01) || 'alpha'::text || 'beta'::text);
UPDATE ak_counting SET f = counting_bloom_remove_all(f, ARRAY(SELECT generate_series(1, 20000, 2)))
  WHERE id = 2;

CREATE TABLE ak_scalable (id integer PRIMARY KEY, name text NOT NULL, f scalable_bloom);
INSERT INTO ak_scalable VALUES
  (1, 'scalable_grown', (SELECT scalable_bloom_agg(x, 1000, 0.01) FROM ak_int)),
  (2, 'scalable_text',  (SELECT scalable_bloom_agg(t) FROM ak_text)),
  (3, 'scalable_added', scalable_bloom_empty(100) || 'a'::text || 'b'::text);
