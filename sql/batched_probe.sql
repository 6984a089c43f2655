-- The batched probe (bloomset.batched_probe): a BloomProbe custom scan runs
-- a scan whose condition probes a filter constant for the scan.  Where the
-- planner uses it and where not, and that every answer is the same with the
-- setting on and off.

CREATE TABLE bpt (id int, s text, v varchar, k4 int4, n text, pad text);
INSERT INTO bpt
SELECT i, md5(i::text), md5(i::text), i,
       CASE WHEN i % 10 = 0 THEN NULL ELSE md5(i::text) END, repeat('x', i % 50)
  FROM generate_series(1, 20000) i;
DELETE FROM bpt WHERE id % 97 = 0;
ANALYZE bpt;

-- stored filters: out of line and uncompressed (read in slices), and small
CREATE TABLE bpf (name text PRIMARY KEY, f bloom);
ALTER TABLE bpf ALTER f SET STORAGE EXTERNAL;
INSERT INTO bpf
SELECT 'text2', bloom_agg(s, 10000, 0.01) FROM bpt WHERE id % 2 = 0
UNION ALL SELECT 'text3', bloom_agg(s, 10000, 0.01) FROM bpt WHERE id % 3 = 0
UNION ALL SELECT 'int8', bloom_agg(id::bigint, 10000, 0.01) FROM bpt WHERE id % 3 = 0
UNION ALL SELECT 'small', bloom_agg(s, 100, 0.01) FROM bpt WHERE id <= 100
UNION ALL SELECT 'ctid', bloom_agg(ctid, 10000, 0.01) FROM bpt WHERE id % 2 = 0
UNION ALL SELECT 'empty', bloom_empty(1000)
UNION ALL SELECT 'null', NULL;

-- Which scan the planner chose for q (EXPLAIN of q, given $1 = f).
CREATE FUNCTION bp_plan(q text, f bloom DEFAULT NULL) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q USING f LOOP
		IF line LIKE '%Custom Scan (BloomProbe)%' THEN
			RETURN 'batched';
		END IF;
	END LOOP;
	RETURN 'plain';
END $$;

-- The rows of q (given $1 = f) with the setting on and with it off, in
-- the order q returns them; the plan of the first run.
CREATE FUNCTION bp_check(q text, f bloom DEFAULT NULL,
						 OUT plan text, OUT same boolean, OUT nrows int)
LANGUAGE plpgsql AS $$
DECLARE
	r_on text[];
	r_off text[];
	wrapped text := format('SELECT array_agg(x::text) FROM (%s) x', q);
BEGIN
	PERFORM set_config('bloomset.batched_probe', 'on', true);
	plan := bp_plan(q, f);
	EXECUTE wrapped INTO r_on USING f;
	PERFORM set_config('bloomset.batched_probe', 'off', true);
	EXECUTE wrapped INTO r_off USING f;
	PERFORM set_config('bloomset.batched_probe', 'on', true);
	same := r_on IS NOT DISTINCT FROM r_off;
	nrows := coalesce(cardinality(r_on), 0);
END $$;

SHOW bloomset.batched_probe;

-- the plan: the probe moves to the node, the other conditions stay below
SET plan_cache_mode = force_generic_plan;
PREPARE q1(bloom) AS SELECT id FROM bpt WHERE bloom_contains($1, s) AND id % 5 = 1;
EXPLAIN (COSTS OFF) EXECUTE q1(NULL);
PREPARE q2(bloom) AS SELECT count(*) FROM bpt WHERE NOT $1 @> k4;
EXPLAIN (COSTS OFF) EXECUTE q2(NULL);
SET bloomset.batched_probe = off;
PREPARE q3(bloom) AS SELECT id FROM bpt WHERE bloom_contains($1, s);
EXPLAIN (COSTS OFF) EXECUTE q3(NULL);
RESET bloomset.batched_probe;
RESET plan_cache_mode;

-- The ids a statement returns, in its order.
CREATE FUNCTION bp_ids(stmt text) RETURNS int[]
LANGUAGE plpgsql AS $$
DECLARE
	r record;
	ids int[] := '{}';
BEGIN
	FOR r IN EXECUTE stmt LOOP
		ids := ids || r.id;
	END LOOP;
	RETURN ids;
END $$;

-- a prepared statement's generic plan (planned at its first execution,
-- under the setting of that moment): on and off give the same rows
SET plan_cache_mode = force_generic_plan;
PREPARE q_on(bloom) AS SELECT id FROM bpt WHERE bloom_contains($1, s) AND id % 5 = 1;
PREPARE q_off(bloom) AS SELECT id FROM bpt WHERE bloom_contains($1, s) AND id % 5 = 1;
SELECT f AS text2 FROM bpf WHERE name = 'text2' \gset
SELECT cardinality(bp_ids(format('EXECUTE q_on(%L)', :'text2'))) AS ids_on;
SET bloomset.batched_probe = off;
SELECT cardinality(bp_ids(format('EXECUTE q_off(%L)', :'text2'))) AS ids_off;
RESET bloomset.batched_probe;
SELECT bp_ids(format('EXECUTE q_on(%L)', :'text2')) = bp_ids(format('EXECUTE q_off(%L)', :'text2')) AS generic_same,
       bp_plan('EXECUTE q_on(NULL)') AS q_on_plan, bp_plan('EXECUTE q_off(NULL)') AS q_off_plan;
RESET plan_cache_mode;

-- constant filters (PL/pgSQL's USING parameters are planned as constants),
-- init-plan filters, NOT, NULL filters and values, converted keys
CREATE TABLE bp_cases (ord serial, label text, q text, fname text);
INSERT INTO bp_cases (label, q, fname) VALUES
 ('const', 'SELECT id FROM bpt WHERE bloom_contains($1, s)', 'text2'),
 ('const @>', 'SELECT id FROM bpt WHERE $1 @> s', 'text3'),
 ('const NOT', 'SELECT id FROM bpt WHERE NOT bloom_contains($1, s)', 'text2'),
 ('const small', 'SELECT id FROM bpt WHERE bloom_contains($1, s)', 'small'),
 ('const empty', 'SELECT id FROM bpt WHERE bloom_contains($1, s)', 'empty'),
 ('const empty NOT', 'SELECT id FROM bpt WHERE NOT bloom_contains($1, s)', 'empty'),
 ('NULL values', 'SELECT id FROM bpt WHERE bloom_contains($1, n)', 'text2'),
 ('NULL values NOT', 'SELECT id FROM bpt WHERE NOT bloom_contains($1, n)', 'text2'),
 ('int8 filter, int4 key', 'SELECT id FROM bpt WHERE bloom_contains($1, k4)', 'int8'),
 ('text filter, varchar key', 'SELECT id FROM bpt WHERE $1 @> v', 'text3'),
 ('value expression', 'SELECT id FROM bpt WHERE bloom_contains($1, s::varchar)', 'text2'),
 ('system column', 'SELECT id FROM bpt WHERE bloom_contains($1, ctid)', 'ctid'),
 ('other quals', 'SELECT id, pad FROM bpt WHERE bloom_contains($1, s) AND id % 5 = 1 AND pad <> ''''', 'text2'),
 ('projection', 'SELECT id * 2 AS id, upper(s) FROM bpt WHERE bloom_contains($1, s)', 'text3'),
 ('LIMIT', 'SELECT id FROM bpt WHERE bloom_contains($1, s) LIMIT 7', 'text2'),
 ('OFFSET LIMIT', 'SELECT id FROM bpt WHERE bloom_contains($1, s) OFFSET 1000 LIMIT 3', 'text2'),
 ('count', 'SELECT count(*) AS id FROM bpt WHERE bloom_contains($1, s)', 'text2'),
 ('init-plan', 'SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''text2''), s)', NULL),
 ('init-plan NOT', 'SELECT id FROM bpt WHERE NOT (SELECT f FROM bpf WHERE name = ''text3'') @> s', NULL),
 ('init-plan int8', 'SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''int8''), k4)', NULL),
 ('init-plan NULL filter', 'SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''null''), s)', NULL),
 ('init-plan NULL filter NOT', 'SELECT id FROM bpt WHERE NOT bloom_contains((SELECT f FROM bpf WHERE name = ''null''), s)', NULL),
 ('init-plan no row', 'SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''none''), s)', NULL),
 ('expression of filters', 'SELECT id FROM bpt WHERE bloom_contains($1 & (SELECT f FROM bpf WHERE name = ''text3''), s)', 'text2'),
 ('correlated subquery', 'SELECT name AS id, (SELECT count(*) FROM bpt WHERE bloom_contains(bpf.f, bpt.s) AND bpt.id % 3 = 0) FROM bpf WHERE name NOT IN (''int8'', ''ctid'') ORDER BY name', NULL),
 ('lateral', 'SELECT name AS id, c FROM bpf, LATERAL (SELECT count(*) AS c FROM bpt WHERE bpf.f @> bpt.s) x WHERE name LIKE ''text%'' ORDER BY name', NULL),
 ('rescan in a nested loop', 'SELECT o.x AS id, t.id FROM generate_series(1, 3) o(x), LATERAL (SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''text'' || (o.x % 2 + 2)), s) AND bpt.id % 1000 = o.x OFFSET 0) t', NULL),
 -- joins: the filter comes from the outer side of a nested loop, one
 -- rescan of the node per filter (a parameterized path)
 ('join, one filter', 'SELECT f.name AS id, count(*) FROM bpf f JOIN bpt ON f.name = ''text2'' WHERE bloom_contains(f.f, bpt.s) GROUP BY f.name', NULL),
 ('join, one filter, @>', 'SELECT bpt.id FROM bpf f JOIN bpt ON f.name = ''text3'' WHERE f.f @> bpt.s ORDER BY bpt.id', NULL),
 ('join, converted key', 'SELECT f.name AS id, count(*) FROM bpf f JOIN bpt ON f.name = ''int8'' WHERE bloom_contains(f.f, bpt.k4) GROUP BY f.name', NULL),
 ('join, NULL filter', 'SELECT f.name AS id, count(*) FROM bpf f JOIN bpt ON f.name = ''null'' WHERE bloom_contains(f.f, bpt.s) GROUP BY f.name', NULL),
 ('join, two filters', 'SELECT f.name AS id, count(*) FROM bpf f JOIN bpt ON f.name IN (''text2'', ''text3'') WHERE f.f @> bpt.s GROUP BY f.name ORDER BY 1', NULL),
 ('join, other join clause', 'SELECT bpt.id FROM bpf f JOIN bpt ON f.name = ''text2'' AND length(f.name) < bpt.id WHERE bloom_contains(f.f, bpt.s) ORDER BY bpt.id', NULL),
 ('join, every filter', 'SELECT bpt.id FROM bpt JOIN bpf ON bpf.name LIKE ''text%'' WHERE bloom_contains(bpf.f, bpt.s)', NULL),
 -- not for the batched probe
 ('volatile filter', 'SELECT id FROM bpt WHERE bloom_contains(CASE WHEN random() < 2 THEN $1 END, s)', 'text2'),
 ('value not leakproof', 'SELECT id FROM bpt WHERE bloom_contains($1, lower(s))', 'text2'),
 ('FOR UPDATE', 'SELECT id FROM bpt WHERE bloom_contains($1, s) FOR UPDATE', 'text2'),
 ('OR', 'SELECT id FROM bpt WHERE bloom_contains($1, s) OR id = 3', 'text2');
SELECT ord, label, (bp_check(q, (SELECT f FROM bpf WHERE name = fname))).*
  FROM bp_cases ORDER BY ord;

-- no false negatives: every member found (on)
SELECT count(*) AS false_negatives FROM bpt
 WHERE id % 2 = 0 AND NOT bloom_contains((SELECT f FROM bpf WHERE name = 'text2'), s);

-- stored filters read whole or in slices, with and without the cache
SET bloomset.probe_cache_size = 0;
SELECT ord, label, (bp_check(q, (SELECT f FROM bpf WHERE name = fname))).*
  FROM bp_cases WHERE label IN ('init-plan', 'init-plan NOT', 'correlated subquery', 'lateral') ORDER BY ord;
SET bloomset.sliced_reads = off;
SELECT ord, label, (bp_check(q, (SELECT f FROM bpf WHERE name = fname))).*
  FROM bp_cases WHERE label IN ('init-plan', 'init-plan NOT', 'correlated subquery') ORDER BY ord;
RESET bloomset.sliced_reads;
RESET bloomset.probe_cache_size;

-- not in DML, nor under a data-modifying WITH
SELECT bp_plan('DELETE FROM bpt WHERE bloom_contains($1, s)', f) AS delete_plan,
       bp_plan('UPDATE bpt SET pad = pad WHERE bloom_contains($1, s)', f) AS update_plan,
       bp_plan('WITH u AS (UPDATE bpf SET name = name WHERE false RETURNING 1) SELECT count(*) FROM bpt WHERE bloom_contains($1, s)', f) AS with_update_plan
  FROM bpf WHERE name = 'text2';

-- other kinds stay on the plain path
CREATE TABLE bpk AS
SELECT (SELECT counting_bloom_agg(s) FROM bpt WHERE id % 2 = 0) AS cf,
       (SELECT scalable_bloom_agg(s) FROM bpt WHERE id % 2 = 0) AS sf;
SELECT bp_plan('SELECT id FROM bpt WHERE counting_bloom_contains((SELECT cf FROM bpk), s)') AS counting_plan,
       bp_plan('SELECT id FROM bpt WHERE scalable_bloom_contains((SELECT sf FROM bpk), s)') AS scalable_plan;
-- and so do bloom_contains on them (1.3: the kinds' overloads call the
-- kinds' C functions, which the node does not batch): a plain filter, the
-- same rows as the prefixed function with the setting on and off, and no
-- false negative
SELECT bp_plan('SELECT id FROM bpt WHERE bloom_contains((SELECT cf FROM bpk), s)') AS counting_verb_plan,
       bp_plan('SELECT id FROM bpt WHERE NOT bloom_contains((SELECT sf FROM bpk), s)') AS scalable_verb_plan;
SELECT label, (bp_check(q)).* FROM (VALUES
 ('counting verb', 'SELECT id FROM bpt WHERE bloom_contains((SELECT cf FROM bpk), s)'),
 ('counting prefixed', 'SELECT id FROM bpt WHERE counting_bloom_contains((SELECT cf FROM bpk), s)'),
 ('scalable verb NOT', 'SELECT id FROM bpt WHERE NOT bloom_contains((SELECT sf FROM bpk), s)'),
 ('scalable prefixed NOT', 'SELECT id FROM bpt WHERE NOT scalable_bloom_contains((SELECT sf FROM bpk), s)'),
 ('bloom verb', 'SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''text2''), s)')) v(label, q);
SELECT count(*) FILTER (WHERE id % 2 = 0 AND NOT (bloom_contains((SELECT cf FROM bpk), s)
                                                AND bloom_contains((SELECT sf FROM bpk), s))) AS false_negatives
  FROM bpt;

-- a table with a dropped column (no physical target list): the plain scan
CREATE TABLE bpd AS SELECT id, 0 AS gone, s FROM bpt;
ALTER TABLE bpd DROP COLUMN gone;
SELECT (bp_check('SELECT id FROM bpd WHERE bloom_contains($1, s)', f)).* FROM bpf WHERE name = 'text2';

-- row-level security: the policy's condition runs in the child scan before
-- the probe; a probe that is the policy's own condition runs before the
-- user's conditions, so the node does not take it
CREATE ROLE regress_bp_user;
CREATE TABLE bpr AS SELECT id, s FROM bpt;
ALTER TABLE bpr ENABLE ROW LEVEL SECURITY;
CREATE POLICY bpr_even ON bpr USING (id % 2 = 0);
CREATE TABLE bpr2 AS SELECT id, s FROM bpt;
ALTER TABLE bpr2 ENABLE ROW LEVEL SECURITY;
CREATE POLICY bpr2_probe ON bpr2 USING (bloom_contains((SELECT f FROM bpf WHERE name = 'text3'), s));
GRANT SELECT ON bpr, bpr2, bpf TO regress_bp_user;
SET ROLE regress_bp_user;
SELECT (bp_check('SELECT id FROM bpr WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''text3''), s)')).*;
SELECT (bp_check('SELECT id FROM bpr2 WHERE id % 2 = 0')).*;
RESET ROLE;
DROP TABLE bpr, bpr2;
REVOKE SELECT ON bpf FROM regress_bp_user;
DROP ROLE regress_bp_user;

-- a cursor, fetched forward and (SCROLL) backward
BEGIN;
DECLARE c1 SCROLL CURSOR FOR
  SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = 'text3'), s);
FETCH 3 FROM c1;
MOVE 500 IN c1;
FETCH 2 FROM c1;
FETCH PRIOR FROM c1;
FETCH LAST FROM c1;
COMMIT;
SET bloomset.batched_probe = off;
BEGIN;
DECLARE c1 SCROLL CURSOR FOR
  SELECT id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = 'text3'), s);
FETCH 3 FROM c1;
MOVE 500 IN c1;
FETCH 2 FROM c1;
FETCH PRIOR FROM c1;
FETCH LAST FROM c1;
COMMIT;
RESET bloomset.batched_probe;

-- parallel workers: a partial BloomProbe under Gather
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET plan_cache_mode = force_generic_plan;
PREPARE qp(bloom) AS SELECT count(*) FROM bpt WHERE bloom_contains($1, s);
EXPLAIN (COSTS OFF) EXECUTE qp(NULL);
RESET plan_cache_mode;
SELECT (bp_check('SELECT count(*) AS id FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = ''text2''), s)')).*;
SELECT (bp_check('SELECT id FROM bpt WHERE bloom_contains($1, s) AND id % 7 = 1 ORDER BY id', f)).* FROM bpf WHERE name = 'text3';
RESET max_parallel_workers_per_gather;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;

-- errors raised by the probe are the probe's own
SELECT count(*) FROM bpt WHERE bloom_contains((SELECT f FROM bpf WHERE name = 'int8'), s);

DROP TABLE bpt, bpf, bp_cases, bpk, bpd;
DROP FUNCTION bp_plan(text, bloom), bp_check(text, bloom), bp_ids(text);
