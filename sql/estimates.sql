-- Estimates and introspection: cardinality, current rate, bloom_info,
-- bloom_params sizing against the classic optimum.

-- cardinality estimate within 3 % at 100,000 items (both layouts)
SELECT abs(bloom_estimate_card(f) - 100000) / 100000 < 0.03 AS blocked_card_within_3pct
FROM (SELECT bloom_agg(x, 100000, 0.01) AS f FROM generate_series(1, 100000) x) s;
SELECT abs(bloom_estimate_card(f) - 100000) / 100000 < 0.03 AS auto_card_within_3pct
FROM (SELECT bloom_agg(md5(x::text)) AS f FROM generate_series(1, 100000) x) s;
SELECT abs(bloom_estimate_card(f) - 100000) / 100000 < 0.03 AS classic_card_within_3pct
FROM (SELECT bloom_agg(x, 150000, 7, 0) AS f FROM generate_series(1, 100000) x) s;
SELECT bloom_estimate_card(bloom_empty(1000)) AS empty_card;

-- bloom_info: every field, and the estimated rate matches the measured one
SELECT layout, bits, bytes, hashes, seed, items, element_family, format_version,
       bits_set > 0 AS some_bits, fill_ratio BETWEEN 0 AND 1 AS fill_ok
FROM bloom_info((SELECT bloom_agg(x, 1000, 0.01) FROM generate_series(1, 1000) x));
SELECT * FROM bloom_info(bloom_empty(64, 3, 77) || 'x');
SELECT abs(i.estimated_fpr - m.fp) < 0.002 AS estimated_fpr_matches_measured,
       abs(i.estimated_card - 50000) / 50000 < 0.03 AS info_card_ok
FROM (SELECT bloom_agg(x, 50000, 0.02) AS f FROM generate_series(1, 50000) x) s,
     LATERAL bloom_info(f) i,
     LATERAL (SELECT count(*) FILTER (WHERE bloom_contains(f, x))::float8 / 200000 AS fp
              FROM generate_series(-200000, -1) x) m;

-- bloom_params: explicit sizing within 1.2x of -n ln p / (ln 2)^2
SELECT capacity, fpr, p.layout, p.hashes,
       round((p.bits / (capacity * -ln(fpr) / ln(2) ^ 2))::numeric, 3) AS ratio_to_optimum,
       p.bits / (capacity * -ln(fpr) / ln(2) ^ 2) <= 1.2 AS within_1_2,
       p.expected_fpr <= fpr * 1.001 AS meets_rate
FROM (VALUES (1000000::bigint, 0.01::float8), (1000000, 0.001), (10000, 0.01), (10000, 0.001),
             (100000000, 0.01)) v(capacity, fpr),
     LATERAL bloom_params(capacity, fpr) p ORDER BY capacity, fpr DESC;
SELECT * FROM bloom_params(1000000, 0.01, 'classic');
-- the sizing table of the README
SELECT capacity, fpr, p.layout, p.bytes, p.hashes, round(p.bits_per_item::numeric, 2) AS bits_per_item
FROM (VALUES (10000::bigint), (1000000), (10000000)) c(capacity),
     (VALUES (0.1::float8), (0.01), (0.001), (0.0001), (0.00001)) r(fpr),
     LATERAL bloom_params(capacity, fpr) p ORDER BY capacity, fpr DESC;
SELECT bytes FROM bloom_params(1000000, 0.01) p WHERE bytes = length(bloom_to_bytea(bloom_empty(1000000, 0.01))) - 68 + 72;
-- beyond the 256 MiB limit: an error before any allocation
SELECT * FROM bloom_params(200000000, 0.0001);

-- a saturated filter's estimate says little: bloom_card warns (once per
-- statement, as bloomset.full_filter's reports) and still answers
SELECT bloom_card(bloom_add_all(bloom_empty(32, 3, 0), array(SELECT generate_series(1, 100000)))) < 1000 AS far_below_items;
SELECT round(bloom_card(counting_bloom_agg(x, 10, 0.01))) > 0 AS counting_answers FROM generate_series(1, 10000) x;
SET bloomset.full_filter = off;
SELECT bloom_card(bloom_add_all(bloom_empty(32, 3, 0), array(SELECT generate_series(1, 100000)))) > 0 AS silenced;
RESET bloomset.full_filter;
-- a filter filled to its design rate is not saturated: no warning
SELECT bloom_card(f) BETWEEN 900 AND 1100 AS at_capacity FROM (SELECT bloom_agg(x, 1000, 0.01) AS f FROM generate_series(1, 1000) x) s;
