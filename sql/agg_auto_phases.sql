-- bloom_agg(x), automatic sizing: the three phases of its state (see the
-- top comment of src/agg/bloom_agg.c) -- the exact set (up to 2^20 distinct
-- hashes), the list of hashes (up to 2^24 rows) and the 128 MiB overflow
-- filter -- each give a filter with no false negatives, sized for the
-- distinct values (the smallest power of two keeping 1 %), whatever the
-- duplicates and whether the state went through parallel workers.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE auto3m AS SELECT g::bigint AS g FROM generate_series(1, 3000000) g;
-- 6 M rows, 2 M distinct values, each three times
CREATE TABLE autodup AS SELECT (g % 2000000)::bigint AS g FROM generate_series(1, 6000000) g;
ANALYZE auto3m;
ANALYZE autodup;
CREATE TEMP TABLE phases AS
SELECT (SELECT bloom_agg(g) FROM auto3m WHERE g <= 1000000) AS exact1m,
	   (SELECT bloom_agg(g) FROM auto3m) AS list3m,
	   (SELECT bloom_agg(g) FROM autodup) AS listdup;
-- sizes: the power of two at or above what 1 % needs for the distinct count
SELECT (bloom_info(exact1m)).bytes - 72 AS exact1m_bits_bytes,
	   (bloom_params(1000000, 0.01, 'blocked')).bytes <= (bloom_info(exact1m)).bytes - 72 AS exact1m_fits,
	   (bloom_info(list3m)).bytes - 72 AS list3m_bytes,
	   (bloom_params(3000000, 0.01, 'blocked')).bytes <= (bloom_info(list3m)).bytes - 72 AS list3m_fits,
	   (bloom_info(listdup)).bytes - 72 AS listdup_bytes,
	   (bloom_info(listdup)).items AS listdup_rows
  FROM phases;
-- no false negatives in any phase
SELECT count(*) FILTER (WHERE NOT bloom_contains(p.list3m, a.g)) AS list3m_missing,
	   count(*) FILTER (WHERE a.g <= 1000000 AND NOT bloom_contains(p.exact1m, a.g)) AS exact1m_missing
  FROM auto3m a, phases p;
SELECT count(*) AS listdup_missing FROM autodup a, phases p WHERE NOT bloom_contains(p.listdup, a.g);
-- the rate on values that were never added stays near the 1 % target
SELECT count(*) FILTER (WHERE bloom_contains(p.list3m, g)) < 200000 * 0.015 AS list3m_rate_ok,
	   count(*) FILTER (WHERE bloom_contains(p.listdup, g)) < 200000 * 0.015 AS listdup_rate_ok
  FROM generate_series(5000001, 5200000) g, phases p;
-- parallel workers: partial states leave the list for the overflow filter
-- before they are serialized; the result is folded to the same size
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
CREATE TEMP TABLE par AS SELECT bloom_agg(g) AS f FROM auto3m;
RESET max_parallel_workers_per_gather;
SELECT (bloom_info(par.f)).bytes = (bloom_info(p.list3m)).bytes AS parallel_same_size,
	   (SELECT count(*) FROM auto3m a WHERE NOT bloom_contains(par.f, a.g)) AS parallel_missing
  FROM par, phases p;
-- a GROUP BY whose groups cross the phases at different rows
SELECT g % 2 AS grp, (bloom_info(f)).bytes - 72 AS bytes,
	   (SELECT count(*) FROM auto3m a WHERE a.g % 2 = s.g % 2 AND NOT bloom_contains(s.f, a.g)) AS missing
  FROM (SELECT g % 2 AS g, bloom_agg(g) AS f FROM auto3m GROUP BY g % 2) s ORDER BY 1;
-- past 2^24 rows the list becomes the 128 MiB filter, folded at the end
CREATE TEMP TABLE over AS SELECT bloom_agg(g) AS f FROM generate_series(1, 17000000) g;
SELECT (bloom_info(f)).bytes - 72 AS over_bytes,
	   (bloom_params(17000000, 0.01, 'blocked')).bytes <= (bloom_info(f)).bytes - 72 AS over_fits
  FROM over;
SELECT count(*) AS over_missing FROM generate_series(1, 17000000, 7) g, over WHERE NOT bloom_contains(over.f, g);
DROP TABLE auto3m, autodup;
