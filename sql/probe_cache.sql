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

-- Which stored filters the cache keeps.  A lookup of a few keys per filter
-- reads each filter's header and the parts its keys need (slices), also
-- when = ANY probes the same filter once per element at one call site; a
-- join probing the same stored filter for many rows keeps it whole after
-- its slices have read a share of it.  Filters of 1.2 MB (about 600 TOAST
-- chunks): reading one whole costs about 160 shared buffers, a slice a few.
CREATE TABLE pc_big (chunk int, f bloom);
ALTER TABLE pc_big ALTER f SET STORAGE EXTERNAL;
INSERT INTO pc_big
SELECT c, bloom_add_all(bloom_empty(1000000, 0.01), ARRAY(SELECT c * 1000 + g FROM generate_series(1, 500) g))
  FROM generate_series(0, 4) c;
SELECT count(*) AS filters, bool_and(pg_column_size(f) > 1000000) AS big_out_of_line FROM pc_big;
CREATE FUNCTION pc_buffers(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint
		 + (plan -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint;
END $$;
CREATE TEMP TABLE pcb AS
SELECT pc_buffers('SELECT count(*) FROM pc_big WHERE f @> ANY (ARRAY[42, 1042, 99999])') AS any3,
	   pc_buffers('SELECT count(*) FROM pc_big WHERE f @> ANY (ARRAY[42, 1042, 2042, 3042, 4042, 5042, 6042, 7042])') AS any8,
	   pc_buffers('SELECT count(*) FROM pc_big WHERE bloom_contains_any(f, ARRAY[42, 1042, 99999])') AS batch3,
	   pc_buffers('SELECT count(*) FROM pc_big WHERE f @> 42') AS point,
	   pc_buffers('SELECT count(*) FROM generate_series(1, 400) k, pc_big WHERE f @> k') AS join400;
SET bloomset.sliced_reads = off;
CREATE TEMP TABLE pcb_whole AS
SELECT pc_buffers('SELECT count(*) FROM pc_big WHERE f @> ANY (ARRAY[42, 1042, 99999])') AS any3;
RESET bloomset.sliced_reads;
SET bloomset.probe_cache_size = 0;
CREATE TEMP TABLE pcb_nocache AS
SELECT pc_buffers('SELECT count(*) FROM generate_series(1, 400) k, pc_big WHERE f @> k') AS join400;
RESET bloomset.probe_cache_size;
-- a lookup costs its slices: = ANY of 3 keys about what the batch probe
-- and three point lookups cost, far below one whole read per filter
SELECT pcb.any3 <= 5 * 40 AS any3_sliced,
	   pcb.any3 <= 3 * pcb.point + 5 * 4 AS any3_costs_three_points,
	   pcb.any8 <= 5 * 80 AS any8_sliced,
	   pcb.batch3 <= 5 * 40 AS batch3_sliced,
	   pcb_whole.any3 > 5 * 100 AS whole_reads_cost_more
  FROM pcb, pcb_whole;
-- a join probing each filter 400 times keeps it: about one whole read per
-- filter, where the same join without the cache reads slices for every row
SELECT pcb.join400 <= 5 * 400 AS join_kept,
	   pcb_nocache.join400 > 3 * pcb.join400 AS join_without_cache_costs_more
  FROM pcb, pcb_nocache;
-- and answers the same, every member found
SELECT count(*) FILTER (WHERE f @> ANY (ARRAY[42, 1042, 2042])) AS any_found,
	   (SELECT count(*) FROM generate_series(1, 500) k, pc_big WHERE f @> (chunk * 1000 + k)) AS join_members_found
  FROM pc_big;

SHOW bloomset.probe_cache_size;
DROP FUNCTION pc_rows(), pc_buffers(text);
DROP TABLE pc_filter, pc_keys, pc_big;
