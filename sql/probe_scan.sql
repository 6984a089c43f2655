-- Probes of large filters over real scans: values stored compressed and
-- out of line, NULLs, deleted tuples, variable-width and NULL columns before
-- the probed one, parallel workers and index scans.  Every query runs with
-- the inlined hashes on and off (bloomset.fast_hash) and must give the same
-- rows; members must all be found.

CREATE TABLE ps_fixed (id bigint, s text, b bytea, v varchar);
INSERT INTO ps_fixed
SELECT g, md5(g::text), decode(md5(g::text), 'hex'), md5(g::text)
  FROM generate_series(1, 200000) g;
UPDATE ps_fixed SET s = repeat(md5(id::text), 200) WHERE id % 1000 = 0;
UPDATE ps_fixed SET s = NULL, b = NULL WHERE id % 1000 = 500;
DELETE FROM ps_fixed WHERE id % 7 = 0;
CREATE TABLE ps_varying (id int, pre text, s text);
INSERT INTO ps_varying
SELECT g, CASE WHEN g % 3 = 0 THEN NULL ELSE repeat('x', g % 17) END, md5(g::text)
  FROM generate_series(1, 200000) g;

-- filters of the even ids, 4 MiB and more
CREATE TABLE ps_f AS
SELECT (SELECT bloom_agg(s, 4000000, 0.01) FROM ps_fixed WHERE id % 2 = 0) AS fs,
       (SELECT bloom_agg(b, 4000000, 0.01) FROM ps_fixed WHERE id % 2 = 0) AS fb,
       (SELECT bloom_agg(s, 4000000, 0.01) FROM ps_varying WHERE id % 2 = 0) AS fv;
SELECT (bloom_info(fs)).bits / 8 >= 4194304 AS text_filter_large,
       (bloom_info(fb)).bits / 8 >= 4194304 AS bytea_filter_large
  FROM ps_f;

CREATE FUNCTION ps_probe_rows() RETURNS TABLE (q text, id bigint)
LANGUAGE sql AS $$
	SELECT 'text', t.id FROM ps_fixed t, ps_f WHERE bloom_contains(ps_f.fs, t.s)
	UNION ALL
	SELECT 'bytea', t.id FROM ps_fixed t, ps_f WHERE bloom_contains(ps_f.fb, t.b)
	UNION ALL
	SELECT 'varchar', t.id FROM ps_fixed t, ps_f WHERE ps_f.fs @> t.v
	UNION ALL
	SELECT 'varying', t.id FROM ps_varying t, ps_f WHERE bloom_contains(ps_f.fv, t.s)
	UNION ALL
	SELECT 'filtered', t.id FROM ps_fixed t, ps_f
	 WHERE t.id % 5 <> 0 AND bloom_contains(ps_f.fs, t.s)
$$;
CREATE TEMP TABLE r_fast AS SELECT * FROM ps_probe_rows();
SET bloomset.fast_hash = off;
CREATE TEMP TABLE r_generic AS SELECT * FROM ps_probe_rows();
RESET bloomset.fast_hash;
SELECT (SELECT count(*) FROM r_fast) = (SELECT count(*) FROM r_generic) AS same_count,
       (SELECT count(*) FROM (SELECT * FROM r_fast EXCEPT ALL SELECT * FROM r_generic) d) AS only_fast,
       (SELECT count(*) FROM (SELECT * FROM r_generic EXCEPT ALL SELECT * FROM r_fast) d) AS only_generic;

-- no false negatives: every even id that has a value is answered
SELECT q, count(*) FILTER (WHERE id % 2 = 0) AS members_found
  FROM r_fast GROUP BY q ORDER BY q;
SELECT count(*) AS expected_members FROM ps_fixed WHERE id % 2 = 0 AND s IS NOT NULL;
SELECT count(*) AS expected_members_varchar FROM ps_fixed WHERE id % 2 = 0 AND s = v;
SELECT count(*) AS expected_members_varying FROM ps_varying WHERE id % 2 = 0;

-- a parallel scan (the plan checked without version-specific EXPLAIN text)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION ps_plan_has(q text, node text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l LIKE '%' || node || '%' THEN RETURN true; END IF;
	END LOOP;
	RETURN false;
END $$;
SELECT ps_plan_has('SELECT count(*) FROM ps_fixed t WHERE bloom_contains((SELECT fs FROM ps_f), t.s)',
                   'Parallel Seq Scan') AS parallel_plan;
SELECT count(*) AS parallel_count FROM ps_fixed t WHERE bloom_contains((SELECT fs FROM ps_f), t.s);
SELECT count(*) AS serial_count FROM r_generic WHERE q = 'text';
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

-- an index scan visits tuples out of page order
CREATE INDEX ON ps_fixed (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS index_scan_members
  FROM ps_fixed t, ps_f WHERE t.id BETWEEN 1 AND 100000 AND t.id % 2 = 0
   AND bloom_contains(ps_f.fs, t.s);
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) AS expected FROM ps_fixed WHERE id BETWEEN 1 AND 100000 AND id % 2 = 0 AND s IS NOT NULL;

-- regression (1.0 crashed the server): a filter of 4 MiB and more probed on
-- a column after a NULL, with short varlena values
CREATE TABLE lt (a int, s text, n int);
INSERT INTO lt VALUES (1, 'abc', 0), (NULL, 'ab', 8);
SELECT count(*) AS lt_text FROM lt WHERE (bloom_empty(4000000) || 'x'::text) @> s;
CREATE TABLE ltb (a int, b bytea);
INSERT INTO ltb VALUES (1, '\x01'), (NULL, '\x00000008000000');
SELECT count(*) AS lt_bytea FROM ltb WHERE (bloom_empty(4000000) || '\x01'::bytea) @> b;

DROP FUNCTION ps_probe_rows();
DROP FUNCTION ps_plan_has(text, text);
DROP TABLE ps_fixed, ps_varying, ps_f, lt, ltb;
