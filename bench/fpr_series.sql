-- bench/fpr_series.sql -- the numbers behind bench/results/fpr_vs_bits.png
-- (run by bench/fpr_plot.sh).  For b = 4, 6, ..., 24 bits per item, each
-- filter gets the n = m / b bigint keys 1 .. n (ordinary ids; keys with a
-- shard in the high half, which scheme 1 folds together, are in the README's
-- hashing table), and the 200,000 keys after them are probed; the share
-- answered "maybe" is the measured rate.  m = 2^20 bits (classic, Parquet) or what blocked
-- sizing gives for 100,000 keys at 1 % (also about 2^20).  One output row
-- per b: the measured rates of each layout and scheme, then the theory.
\set probes 200000
-- the filters are filled past their sizing on purpose
SET bloomset.full_filter = off;
\echo # columns: bits_per_item classic,scheme_1 classic,scheme_2 blocked,scheme_1 blocked,scheme_2 blocked,Parquet theory_classic theory_blocked
CREATE TEMP TABLE fpr_filled AS
WITH b AS (SELECT b, greatest(1, round(b * ln(2)))::int AS k FROM generate_series(4, 24, 2) b),
empty AS (
  SELECT b.b, b.k, s.series, s.f
    FROM b, LATERAL (VALUES
      (1, bloom_with_scheme(bloom_empty(131072, b.k, 0), 1)),
      (2, bloom_empty(131072, b.k, 0)),
      (3, bloom_with_scheme(bloom_empty(100000, 0.01), 1)),
      (4, bloom_empty(100000, 0.01)),
      (5, bloom_parquet_empty(131072, 'int8'))) s(series, f))
SELECT e.b, e.k, e.series, (bloom_info(e.f)).bits / e.b AS n,
       bloom_add_all(e.f, ARRAY(SELECT i::bigint
                                  FROM generate_series(1, (bloom_info(e.f)).bits / e.b) i)) AS f
  FROM empty e;
-- probes of stored filters (sliced reads: a few cache lines per probe)
CREATE TEMP TABLE fpr_measured AS
SELECT f.b, f.k, f.series,
       (SELECT avg((f.f @> i::bigint)::int)
          FROM generate_series(f.n + 1, f.n + :probes) i) AS rate
  FROM fpr_filled f;
WITH lnfact AS (SELECT j, sum(ln(greatest(j, 1))) OVER (ORDER BY j) AS lf FROM generate_series(0, 400) j)
SELECT m.b,
       max(m.rate) FILTER (WHERE series = 1), max(m.rate) FILTER (WHERE series = 2),
       max(m.rate) FILTER (WHERE series = 3), max(m.rate) FILTER (WHERE series = 4),
       max(m.rate) FILTER (WHERE series = 5),
       power(1 - exp(-m.k / m.b::float8), m.k) AS theory_classic,
       (SELECT sum(CASE WHEN x < -700 THEN 0 ELSE exp(x) END * power(1 - power(31.0 / 32, j), 8))
          FROM (SELECT j, -256.0 / m.b + j * ln(256.0 / m.b) - lf AS x FROM lnfact) p) AS theory_blocked
  FROM fpr_measured m
 GROUP BY m.b, m.k ORDER BY m.b;
