-- The probe cache of stored filters (bloomset.probe_cache_size): a query
-- probing many stored filters in turn keeps them detoasted, least recently
-- used evicted past the budget.  Answers never depend on the budget: every
-- query below runs with no cache, a budget of about one filter (constant
-- eviction) and the default, and must give the same rows; members must all
-- be found.
CREATE TABLE pc_filter (chunk int, f bloom, c counting_bloom, s scalable_bloom);
ALTER TABLE pc_filter ALTER f SET STORAGE EXTERNAL;	-- out of line, uncompressed
ALTER TABLE pc_filter ALTER c SET STORAGE EXTENDED;	-- out of line or compressed
INSERT INTO pc_filter
SELECT c, bloom_agg(c * 100000 + g, 100000, 0.01),
       counting_bloom_agg(c * 100000 + g, 20000, 0.01),
       scalable_bloom_agg(c * 100000 + g, 1000, 0.01)
  FROM generate_series(0, 19) c, generate_series(1, 5000) g GROUP BY c;
SELECT count(*) AS filters, min(pg_column_size(f)) > 100000 AS stored_out_of_line FROM pc_filter;
-- keys interleaved over the chunks: consecutive rows probe different filters
CREATE TABLE pc_keys AS SELECT (g % 20) * 100000 + g / 20 AS k FROM generate_series(20, 20019) g;

CREATE FUNCTION pc_rows() RETURNS TABLE (q text, chunk int, k int)
LANGUAGE sql AS $$
	SELECT 'bloom', c.chunk, o.k FROM pc_keys o JOIN pc_filter c ON c.chunk = o.k / 100000 WHERE c.f @> o.k
	UNION ALL
	SELECT 'counting', c.chunk, o.k FROM pc_keys o JOIN pc_filter c ON c.chunk = o.k / 100000 WHERE c.c @> o.k
	UNION ALL
	SELECT 'scalable', c.chunk, o.k FROM pc_keys o JOIN pc_filter c ON c.chunk = o.k / 100000 WHERE c.s @> o.k
	UNION ALL
	SELECT 'cross', c.chunk, o.k FROM (SELECT k FROM pc_keys WHERE k % 97 = 0) o, pc_filter c WHERE c.f @> o.k
$$;
CREATE TEMP TABLE r_default AS SELECT * FROM pc_rows();
SET bloomset.probe_cache_size = 0;
CREATE TEMP TABLE r_none AS SELECT * FROM pc_rows();
SET bloomset.probe_cache_size = '150kB';
CREATE TEMP TABLE r_tiny AS SELECT * FROM pc_rows();
RESET bloomset.probe_cache_size;
SELECT (SELECT count(*) FROM (SELECT * FROM r_default EXCEPT ALL SELECT * FROM r_none) d) AS only_default,
       (SELECT count(*) FROM (SELECT * FROM r_none EXCEPT ALL SELECT * FROM r_default) d) AS only_none,
       (SELECT count(*) FROM (SELECT * FROM r_tiny EXCEPT ALL SELECT * FROM r_default) d) AS only_tiny,
       (SELECT count(*) FROM (SELECT * FROM r_default EXCEPT ALL SELECT * FROM r_tiny) d) AS missing_tiny;
-- no false negatives: every key of its chunk was added
SELECT q, count(*) FILTER (WHERE k % 100000 BETWEEN 1 AND 5000) AS members_found
  FROM r_default WHERE q <> 'cross' GROUP BY q ORDER BY q;
SELECT count(*) AS expected_members FROM pc_keys WHERE k % 100000 BETWEEN 1 AND 5000;
-- a filter of another element type in the same column: checked per filter
INSERT INTO pc_filter (chunk, f) VALUES (99, bloom_empty(10) || 'text'::text);
SELECT count(*) FROM pc_keys o JOIN pc_filter c ON c.chunk = o.k / 100000 OR c.chunk = 99 WHERE c.f @> o.k;
SHOW bloomset.probe_cache_size;
DROP FUNCTION pc_rows();
DROP TABLE pc_filter, pc_keys;
