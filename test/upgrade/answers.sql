-- test/upgrade/answers.sql -- how every filter of all_kinds.sql answers:
-- members and as many non-members probed, per filter one line
--   name probes hits false_negatives md5(answer bits in probe order)
-- Equal lines = the filters answer identically (false positives included).
WITH b AS (SELECT name, f FROM ak_bloom),
     c AS (SELECT name, f FROM ak_counting),
     s AS (SELECT name, f FROM ak_scalable),
     ints AS (SELECT g AS k FROM generate_series(1, 40000) g),
     needles AS (
       SELECT i AS k, true AS member, substr(line, 1 + (i * 7919) % (length(line) - 8), 3 + i % 6) AS needle
         FROM ak_logs
       UNION ALL
       SELECT 100000 + g, false, translate(substr(md5('x' || g), 1, 3 + g % 6), '0123456789abcdef', 'ghijklmnopqrstuv')
         FROM generate_series(1, 3000) g),
     tokens AS (
       SELECT i AS k, true AS member, substr(md5(i::text), 1, 10) AS tok FROM ak_logs
       UNION ALL
       SELECT 100000 + i, true, 'svc' || (i % 37) || ' ' || (ARRAY['info', 'warn', 'error', 'debug'])[1 + i % 4]
         FROM ak_logs
       UNION ALL
       SELECT 200000 + g, false, translate(substr(md5('y' || g), 1, 10), '0123456789abcdef', 'ghijklmnopqrstuv')
         FROM generate_series(1, 3000) g),
     probes(name, k, member, r) AS (
       SELECT b.name, k, k <= 20000, f @> k FROM b, ints WHERE b.name IN ('int_blocked', 'int_auto', 'int_classic_fpr')
       UNION ALL
       SELECT b.name, k, k <= 1000, f @> k FROM b, ints WHERE b.name = 'int_classic_explicit' AND k <= 2000
       UNION ALL
       SELECT b.name, k, k <= 100 OR k BETWEEN 15001 AND 20000, f @> k FROM b, ints WHERE b.name = 'int_union'
       UNION ALL
       SELECT b.name, k, false, f @> k FROM b, ints WHERE b.name = 'empty' AND k <= 1000
       UNION ALL
       SELECT b.name, k, k <= 2000, f @> ('key-' || k) FROM b, ints WHERE b.name = 'text_auto' AND k <= 4000
       UNION ALL
       SELECT b.name, k, k <= 2, f @> (ARRAY['alpha', 'beta', 'gamma', 'delta', 'Alpha'])[k]
         FROM b, ints WHERE b.name = 'text_added' AND k <= 5
       UNION ALL
       SELECT b.name, k, (enum_range(NULL::ak_mood))[k] IN
                (SELECT m FROM ak_enum WHERE b.name = 'enum_auto' UNION ALL SELECT 'happy' WHERE b.name = 'enum_added'
                 UNION ALL SELECT 'meh' WHERE b.name = 'enum_added'),
              f @> (enum_range(NULL::ak_mood))[k]
         FROM b, ints WHERE b.name IN ('enum_auto', 'enum_added') AND k <= 4
       UNION ALL
       SELECT b.name, k, k % 7 = 0 AND k <= 21000, f @> k::ak_posint FROM b, ints WHERE b.name IN ('domain_auto', 'domain_classic')
       UNION ALL
       SELECT b.name, 100000 + k, k % 7 = 0 AND k <= 21000, f @> k FROM b, ints WHERE b.name IN ('domain_auto', 'domain_classic')
       UNION ALL
       SELECT b.name, k, k <= 1000,
              f @> (CASE WHEN k % 2 = 0 THEN 'name-' || k ELSE 'name-ß' || k END COLLATE ak_ci)
         FROM b, ints WHERE b.name = 'ci_text' AND k <= 2000
       UNION ALL
       SELECT b.name, 100000 + k, k <= 1000,
              f @> (CASE WHEN k % 2 = 0 THEN 'NAME-' || k ELSE 'Name-ß' || k END COLLATE ak_ci)
         FROM b, ints WHERE b.name = 'ci_text' AND k <= 2000
       UNION ALL
       SELECT b.name, n.k, n.member, bloom_ngram_may_contain(f, needle)
         FROM b, needles n WHERE b.name IN ('ngram3', 'ngram4')
       UNION ALL
       SELECT b.name, 1000000 + n.k, n.member, bloom_may_like(f, '%' || needle || '%')
         FROM b, needles n WHERE b.name IN ('ngram3', 'ngram4')
       UNION ALL
       SELECT b.name, t.k, t.member, bloom_token_may_contain(f, tok) FROM b, tokens t WHERE b.name = 'token'
       UNION ALL
       SELECT c.name, k, k <= 20000 AND (c.name = 'counting_int' OR k % 2 = 0), f @> k
         FROM c, ints WHERE c.name IN ('counting_int', 'counting_removed')
       UNION ALL
       SELECT c.name, k, k <= 2, f @> (ARRAY['alpha', 'beta', 'gamma', 'delta'])[k]
         FROM c, ints WHERE c.name = 'counting_text' AND k <= 4
       UNION ALL
       SELECT s.name, k, k <= 20000, f @> k FROM s, ints WHERE s.name = 'scalable_grown'
       UNION ALL
       SELECT s.name, k, k <= 2000, f @> ('key-' || k) FROM s, ints WHERE s.name = 'scalable_text' AND k <= 4000
       UNION ALL
       SELECT s.name, k, k <= 2, f @> (ARRAY['a', 'b', 'c', 'd'])[k]
         FROM s, ints WHERE s.name = 'scalable_added' AND k <= 4)
SELECT name || ' ' || count(*) || ' ' || count(*) FILTER (WHERE r) || ' ' ||
       count(*) FILTER (WHERE member AND NOT r) || ' ' ||
       md5(string_agg(CASE WHEN r THEN '1' ELSE '0' END, '' ORDER BY k))
  FROM probes GROUP BY name ORDER BY name;
