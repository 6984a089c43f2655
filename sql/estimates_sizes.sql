-- Estimates across filter sizes.  Filters whose sizes are multiples of
-- each other combine (the smaller is unfolded: its bits repeated), and the
-- estimates read each part where its bits are independent: the smaller
-- filter at its own size, the larger one's other items from the bits the
-- unfolded smaller filter leaves clear.  The oracle is the exact count of
-- the data (count(DISTINCT ...), INTERSECT); the tolerance for the union
-- and the single-filter estimates is the README's bound at equal sizes,
-- 3 %; the intersection (by inclusion-exclusion, which carries the union's
-- error) within 10 % of its true size, the Jaccard index within 10 % of
-- its true value.

-- A: 100,000 keys; B: sets overlapping A, in filters 1, 2, 8 and 128 times
-- smaller than A's (the brief's example at 128: 1,000 keys shifted by 100),
-- blocked (automatic sizing: 2,097,152 bits against 2,097,152, 1,048,576,
-- 262,144 and 16,384) and classic (explicit: 262,144 bytes against the
-- same ratios, 7 hashes).
CREATE TEMP TABLE es_sets (apart int, lo int, hi int);
INSERT INTO es_sets VALUES (1, 50001, 150000), (2, 90001, 150000), (8, 95001, 110000), (128, 101, 1100);
CREATE TEMP TABLE es AS
SELECT s.apart, l.layout,
       CASE l.layout WHEN 'blocked' THEN (SELECT bloom_agg(g) FROM generate_series(1, 100000) g)
            ELSE (SELECT bloom_agg(g, 262144, 7, 0) FROM generate_series(1, 100000) g) END AS a,
       CASE l.layout WHEN 'blocked' THEN (SELECT bloom_agg(g) FROM generate_series(s.lo, s.hi) g)
            ELSE (SELECT bloom_agg(g, 262144 / s.apart, 7, 0) FROM generate_series(s.lo, s.hi) g) END AS b,
       (SELECT count(DISTINCT g) FROM (SELECT generate_series(1, 100000) UNION ALL
                                       SELECT generate_series(s.lo, s.hi)) u(g)) AS true_union,
       (SELECT count(*) FROM (SELECT generate_series(1, 100000) INTERSECT
                              SELECT generate_series(s.lo, s.hi)) i) AS true_inter
  FROM es_sets s, (VALUES ('blocked'), ('classic')) l(layout);
SELECT layout, apart, (bloom_info(a)).bits / (bloom_info(b)).bits AS size_ratio,
       (bloom_info(a)).layout = layout AND (bloom_info(b)).layout = layout AS layouts_ok
  FROM es ORDER BY layout, apart;

-- the pair estimates against the exact counts
SET bloomset.full_filter = off;	-- (a | b below: the unfolded small filter raises the rate)
CREATE TEMP TABLE es_err AS
SELECT layout, apart, true_union, true_inter,
       bloom_union_card(a, b) / true_union - 1 AS union_err,
       bloom_intersect_card(a, b) / true_inter - 1 AS inter_err,
       bloom_jaccard(a, b) / (true_inter::float8 / true_union) - 1 AS jaccard_err,
       bloom_estimate_card(a | b) / true_union - 1 AS stored_union_err,
       abs(bloom_union_card(b, a) - bloom_union_card(a, b)) < 1e-6 AS union_symmetric,
       abs(bloom_intersect_card(b, a) - bloom_intersect_card(a, b)) < 1e-6 AS inter_symmetric
  FROM es;
RESET bloomset.full_filter;
SELECT layout, apart, true_union, true_inter,
       round(union_err::numeric, 3) AS union_rel_err, round(inter_err::numeric, 3) AS inter_rel_err,
       round(jaccard_err::numeric, 3) AS jaccard_rel_err, round(stored_union_err::numeric, 3) AS stored_union_rel_err
  FROM es_err ORDER BY layout, apart;
SELECT bool_and(abs(union_err) < 0.03) AS union_within_3pct,
       bool_and(abs(inter_err) < 0.10) AS intersect_within_10pct,
       bool_and(abs(jaccard_err) < 0.10) AS jaccard_within_10pct,
       bool_and(abs(stored_union_err) < 0.03) AS stored_union_within_3pct,
       bool_and(union_symmetric AND inter_symmetric) AS order_does_not_matter
  FROM es_err;

-- the brief's example, 128 times apart: |A ∪ B| = 100,000, |A ∩ B| = 1,000
SELECT round(bloom_union_card(a, b)) AS union_card, round(bloom_intersect_card(a, b)) AS intersect_card,
       round(bloom_jaccard(a, b)::numeric, 4) AS jaccard
  FROM es WHERE layout = 'blocked' AND apart = 128;

-- a union with an empty filter of another size is the other filter: it
-- estimates what that filter alone does, whichever side is larger
-- (an empty filter of 949 is 40 blocks, one of 99,567 is 4,096; the
-- automatically sized filters of 10, 100 and 1,000 keys are 1, 4 and 64)
SELECT e.capacity, n,
       abs(bloom_estimate_card(bloom_empty(e.capacity) | f) - bloom_estimate_card(f)) < 1e-9 AS empty_union_same,
       abs(bloom_union_card(bloom_empty(e.capacity), f) - bloom_estimate_card(f)) < 1e-9 AS union_card_same,
       abs(bloom_estimate_card(f) - n) < 0.1 * n + 1 AS near_truth,
       bloom_intersect_card(bloom_empty(e.capacity), f) AS intersect_with_empty
  FROM (VALUES (10), (100), (1000)) v(n),
       LATERAL (SELECT bloom_agg(g) AS f FROM generate_series(1, n) g) s,
       (VALUES (949), (99567)) e(capacity)
 WHERE (bloom_info(bloom_empty(e.capacity))).bits % (bloom_info(f)).bits = 0
 ORDER BY 1, 2;
-- the brief's figure: empty filter of 1,000 with 10 keys (436.6 before)
SELECT round(bloom_estimate_card(bloom_empty(1000) | bloom_agg(g))::numeric, 1) AS empty_union_10_keys,
       round(bloom_estimate_card(bloom_agg(g))::numeric, 1) AS ten_keys_alone
  FROM generate_series(1, 10) g;
-- bloom_info reports the same estimate
SELECT (bloom_info(u)).estimated_card = bloom_estimate_card(u) AS info_agrees
  FROM (SELECT bloom_empty(1000) | bloom_agg(g) AS u FROM generate_series(1, 10) g) s;

-- an input that is itself a union across sizes (x: the filter of 1..1,000
-- unfolded 64 times) paired with one of 501..1,500 at that filter's size
-- and with one of 1..100,000 at x's size
SET bloomset.full_filter = off;
SELECT abs(bloom_union_card(x, y) / 1500 - 1) < 0.03 AS xy_union_within_3pct,
       abs(bloom_intersect_card(x, y) / 500 - 1) < 0.10 AS xy_intersect_within_10pct,
       abs(bloom_jaccard(x, y) / (500 / 1500.0) - 1) < 0.10 AS xy_jaccard_within_10pct,
       abs(bloom_union_card(x, z) / 100000 - 1) < 0.03 AS xz_union_within_3pct,
       abs(bloom_intersect_card(x, z) / 1000 - 1) < 0.10 AS xz_intersect_within_10pct
  FROM (SELECT bloom_empty(99567) | (SELECT bloom_agg(g) FROM generate_series(1, 1000) g) AS x,
               (SELECT bloom_agg(g) FROM generate_series(501, 1500) g) AS y,
               (SELECT bloom_agg(g) FROM generate_series(1, 100000) g) AS z) s;
RESET bloomset.full_filter;

-- filters that were folded (not unioned) keep the plain estimate: their
-- bits are independent at their size (a fold by 4 of a filter at its
-- capacity, so far over capacity: the check is silenced)
SET bloomset.full_filter = off;
SELECT abs(bloom_estimate_card(bloom_fold(f, 4)) - 5000) / 5000 < 0.03 AS folded_within_3pct,
       (bloom_info(bloom_fold(f, 4))).fill_ratio > 0.5 AS folded_dense
  FROM (SELECT bloom_agg(g) AS f FROM generate_series(1, 5000) g) s;
RESET bloomset.full_filter;

-- a chain of unions across three sizes: 100,000 keys (2,097,152 bits),
-- 500 (8,192) and 5,000 (65,536), the smaller ones unfolded by 256 and 32
SET bloomset.full_filter = off;
SELECT round(bloom_estimate_card(a | b | c)) AS chain_card,
       abs(bloom_estimate_card(a | b | c) / 105500 - 1) < 0.03 AS chain_within_3pct,
       abs(bloom_estimate_card(bloom_union_agg(f)) / 105500 - 1) < 0.03 AS union_agg_within_3pct
  FROM (SELECT (SELECT bloom_agg(g) FROM generate_series(1, 100000) g) AS a,
               (SELECT bloom_agg(g) FROM generate_series(100001, 100500) g) AS b,
               (SELECT bloom_agg(g) FROM generate_series(100501, 105500) g) AS c) s,
       LATERAL (VALUES (a), (b), (c)) v(f)
 GROUP BY a, b, c;
RESET bloomset.full_filter;

-- the intersection's error by overlap, against exact counts: B's 1,000 keys
-- share 10 %, 50 % or 100 % with A; A of 1,000 keys (equal sizes) or of
-- 100,000 (128 times B's size); 5 draws a level (other keys each).  The
-- estimate is |A| + |B| - |A ∪ B|: at 128 times the size, A's and the
-- union's errors (a few hundred keys either way) fall on a small
-- intersection, so the relative error grows as the overlap shrinks; the
-- bounds below are the ones the README states.
CREATE TEMP TABLE es_overlap AS
SELECT na, ov, d,
       (SELECT bloom_agg(d * 10000000 + g) FROM generate_series(1, na) g) AS a,
       (SELECT bloom_agg(d * 10000000 + CASE WHEN g <= ov * 1000 THEN g ELSE 5000000 + g END)
          FROM generate_series(1, 1000) g) AS b
  FROM (VALUES (1000), (100000)) n(na), (VALUES (0.1), (0.5), (1.0)) o(ov), generate_series(1, 5) d;
SELECT na, ov, avg(abs(bloom_intersect_card(a, b) / (ov * 1000) - 1)) <
         CASE WHEN na = 1000 THEN 0.15 WHEN ov = 1.0 THEN 0.10 WHEN ov = 0.5 THEN 0.40 ELSE 1.2 END
         AS intersect_within_stated_error,
       avg(abs(bloom_jaccard(a, b) / (ov * 1000 / (na + 1000 - ov * 1000)) - 1)) <
         CASE WHEN na = 1000 THEN 0.15 WHEN ov = 1.0 THEN 0.10 WHEN ov = 0.5 THEN 0.40 ELSE 1.2 END
         AS jaccard_within_stated_error,
       avg(abs(bloom_union_card(a, b) / (na + 1000 - ov * 1000) - 1)) < 0.02 AS union_within_2pct
  FROM es_overlap GROUP BY na, ov ORDER BY na, ov;

-- sizes that are not multiples of each other: estimated at the largest
-- size both fold to exactly, when it holds their keys (3,000 and 2,000
-- bytes fold to 1,000), otherwise 22023 saying so (a sized filter of
-- 1,052,928 bits and an automatic one of 16,384 share only 256); a union
-- of such filters says which sizes combine
SELECT abs(bloom_union_card(x, y) / 500 - 1) < 0.05 AS common_size_union_within_5pct,
       abs(bloom_intersect_card(x, y) / 300 - 1) < 0.10 AS common_size_intersect_within_10pct
  FROM (SELECT bloom_add_all(bloom_empty(3000, 3, 0), array_agg(g)) AS x,
               bloom_add_all(bloom_empty(2000, 3, 0), array_agg(g + 100)) AS y
          FROM generate_series(1, 400) g) s;
SELECT bloom_union_card(bloom_agg(g, 100000, 0.01), bloom_agg(g)) FROM generate_series(1, 1000) g;
SELECT bloom_jaccard(bloom_agg(g, 100000, 0.01), bloom_agg(g)) FROM generate_series(1, 1000) g;
SELECT bloom_union(bloom_agg(g, 100000, 0.01), bloom_agg(g)) FROM generate_series(1, 1000) g;
DROP TABLE es, es_err, es_sets, es_overlap;
