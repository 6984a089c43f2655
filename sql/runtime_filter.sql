-- Runtime join filters: where the planner puts them, and that every answer
-- is the one without them.  rf_same(q) runs q with bloomset.runtime_filter
-- off and = force (a filter on every join where one is sound) and reports
-- the row count, the rows that differ between the two (as multisets) and
-- whether the forced plan has a filter.
LOAD 'bloomset';
SET max_parallel_workers_per_gather = 0;
SET enable_mergejoin = off;
SET enable_nestloop = off;

CREATE FUNCTION rf_has_filter(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	l text;
	has boolean := false;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		has := has OR l LIKE '%Runtime Filter Probe%';
	END LOOP;
	RETURN has;
END $$;

CREATE FUNCTION rf_same(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	diff bigint;
	has boolean;
BEGIN
	PERFORM set_config('bloomset.runtime_filter', 'off', true);
	EXECUTE 'CREATE TEMP TABLE rf_off AS ' || q;
	PERFORM set_config('bloomset.runtime_filter', 'force', true);
	has := rf_has_filter(q);
	EXECUTE 'CREATE TEMP TABLE rf_on AS ' || q;
	SELECT count(*) INTO n FROM rf_on;
	SELECT count(*) INTO diff FROM ((TABLE rf_off EXCEPT ALL TABLE rf_on)
		UNION ALL (TABLE rf_on EXCEPT ALL TABLE rf_off)) x;
	DROP TABLE rf_off;
	DROP TABLE rf_on;
	RETURN format('rows %s, differences %s, filter %s', n, diff, has);
END $$;

-- a fact table (keys 0..99, a NULL key in every tenth row) and dimensions
-- matching a tenth of it, in several types
CREATE TABLE rf_fact AS
	SELECT g AS id, g % 100 AS k, (g % 100)::int8 AS k8, (g % 100)::int2 AS k2,
		   'v' || (g % 100) AS t, CASE WHEN g % 10 <> 0 THEN g % 50 END AS kn,
		   g % 7 AS w, (g % 100)::numeric AS num
	FROM generate_series(1, 20000) g;
CREATE TABLE rf_dim AS
	SELECT g AS k, g::int8 AS k8, ('v' || g)::varchar AS t,
		   CASE WHEN g <> 5 THEN g END AS kn, g::numeric(10,2) AS num
	FROM generate_series(1, 10) g;
CREATE TABLE rf_week AS SELECT g AS w FROM generate_series(1, 2) g;
CREATE TABLE rf_empty (k int);
ANALYZE rf_fact, rf_dim, rf_week, rf_empty;

-- where the filter goes: above the fact table's scan, built under the Hash
SET bloomset.runtime_filter = on;
SET bloomset.runtime_filter_min_rows = 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k;
-- the planner's rule: too few probe rows, or too many of them match
SET bloomset.runtime_filter_min_rows = 1000000;
SELECT rf_has_filter('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k') AS below_min_rows;
RESET bloomset.runtime_filter_min_rows;
SET bloomset.runtime_filter_max_pass = 0.05;
SELECT rf_has_filter('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k') AS above_max_pass;
RESET bloomset.runtime_filter_max_pass;
SET bloomset.runtime_filter = off;
SELECT rf_has_filter('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k') AS setting_off;
RESET bloomset.runtime_filter;

-- join types: inner, semi and right joins may drop probe rows
SELECT rf_same('SELECT f.id, d.k FROM rf_fact f JOIN rf_dim d ON f.k = d.k') AS inner_join;
SELECT rf_same('SELECT f.id FROM rf_fact f WHERE f.k IN (SELECT k FROM rf_dim)') AS semi_in;
SELECT rf_same('SELECT f.id FROM rf_fact f WHERE EXISTS (SELECT FROM rf_dim d WHERE d.k = f.k)') AS semi_exists;
SELECT rf_same('SELECT f.id, d.k FROM rf_fact f RIGHT JOIN rf_dim d ON f.k = d.k') AS right_join;
-- ... and never the preserved side of a left or full join, nor an anti join's
SELECT rf_same('SELECT f.id, d.k FROM rf_fact f LEFT JOIN rf_dim d ON f.k = d.k') AS left_join;
SELECT rf_same('SELECT f.id, d.k FROM rf_fact f FULL JOIN rf_dim d ON f.k = d.k') AS full_join;
SELECT rf_same('SELECT f.id FROM rf_fact f WHERE NOT EXISTS (SELECT FROM rf_dim d WHERE d.k = f.k)') AS anti_join;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_empty e ON f.k = e.k') AS empty_build;

-- equality as the join's operator has it: across types, NULL keys, several keys
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k8') AS int4_int8;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k8 = d.k') AS int8_int4;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k2 = d.k') AS int2_int4;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.t = d.t') AS text_varchar;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.num = d.num') AS numeric_scales;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.kn = d.kn') AS null_keys;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k AND f.t = d.t') AS two_keys;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k + 0 = d.k') AS computed_key;
CREATE COLLATION rf_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE rf_names AS SELECT 'Name' || g AS n FROM generate_series(1, 3) g;
CREATE TABLE rf_ci_fact AS SELECT ('NAME' || (g % 50)) COLLATE rf_ci AS n FROM generate_series(1, 5000) g;
ANALYZE rf_ci_fact, rf_names;
SELECT rf_same('SELECT c.n FROM rf_ci_fact c JOIN rf_names m ON c.n = m.n') AS case_insensitive;

-- stacked joins: both filters reach the fact table's scan
SET bloomset.runtime_filter = force;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k JOIN rf_week w ON f.w = w.w;
RESET bloomset.runtime_filter;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k JOIN rf_week w ON f.w = w.w') AS stacked;
SELECT rf_same('SELECT f.id FROM rf_fact f LEFT JOIN rf_week w ON f.w = w.w JOIN rf_dim d ON f.k = d.k') AS through_left_join;
-- partitions: a probe per partition
CREATE TABLE rf_parts (k int, v int) PARTITION BY RANGE (v);
CREATE TABLE rf_parts_1 PARTITION OF rf_parts FOR VALUES FROM (0) TO (5000);
CREATE TABLE rf_parts_2 PARTITION OF rf_parts FOR VALUES FROM (5000) TO (10000);
INSERT INTO rf_parts SELECT g % 100, g FROM generate_series(0, 9999) g;
ANALYZE rf_parts;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rf_parts p JOIN rf_dim d ON p.k = d.k;
SELECT rf_same('SELECT p.v FROM rf_parts p JOIN rf_dim d ON p.k = d.k') AS partitions;

-- rescans: a hash join whose build side depends on the outer row is rebuilt
-- each loop, and its filter with it
SELECT rf_same('SELECT w.w, s.c FROM rf_week w, LATERAL (SELECT count(*) AS c FROM rf_fact f
	JOIN rf_dim d ON f.k = d.k WHERE d.k <= w.w * 3) s') AS lateral_rebuild;
SELECT rf_same('SELECT w.w, (SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k
	WHERE d.k > w.w * 4) FROM rf_week w') AS correlated_rebuild;
-- several batches (rows spill to temporary files; the filter covers all)
SET work_mem = '64kB';
SELECT rf_same('SELECT f.id, g.id AS id2 FROM rf_fact f JOIN (SELECT * FROM rf_fact WHERE id % 10 = 1) g ON f.k = g.k') AS multi_batch;
RESET work_mem;

-- prepared statements, generic and custom plans
SET bloomset.runtime_filter = force;
PREPARE rf_p(int) AS SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k WHERE d.k <= $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE rf_p(3);
EXECUTE rf_p(7);
SET plan_cache_mode = force_custom_plan;
EXECUTE rf_p(3);
SET bloomset.runtime_filter = off;
EXECUTE rf_p(3);
EXECUTE rf_p(7);
RESET plan_cache_mode;
DEALLOCATE rf_p;

-- EXPLAIN ANALYZE: rows removed, and the row the join fetches before it builds
SET bloomset.runtime_filter = force;
CREATE FUNCTION rf_analyze(q text, label text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF, FORMAT JSON) ' || q INTO plan;
	RETURN (SELECT string_agg(m[1], ', ') FROM regexp_matches(plan::text, '"(' || label || ')": ([0-9.]+)', 'g') m)
		|| ': ' || (SELECT string_agg(m[2], ', ') FROM regexp_matches(plan::text, '"(' || label || ')": ([0-9.]+)', 'g') m);
END $$;
SELECT rf_analyze('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k', 'Rows Removed by Runtime Filter');
SELECT rf_analyze('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k', 'Rows Passed Before Filter Was Ready');
SELECT rf_analyze('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k', 'Filter Keys');
-- a filter that passes most rows switches itself off after a sample
CREATE TABLE rf_most AS SELECT g AS k FROM generate_series(0, 89) g;
ANALYZE rf_most;
SELECT rf_analyze('SELECT count(*) FROM rf_fact f JOIN rf_most m ON f.k = m.k', 'Switched Off');
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_most m ON f.k = m.k') AS switched_off;

-- parallel plans: a parallel-oblivious hash join builds its table, and its
-- filter, in every process; a parallel-aware one shares a table: no filter
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET enable_parallel_hash = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k JOIN rf_week w ON f.w = w.w') AS parallel_oblivious;
-- (per loop: how many processes took part varies, so only that rows went)
SELECT rf_analyze('SELECT count(*) FROM rf_fact f JOIN rf_dim d ON f.k = d.k', 'Rows Removed by Runtime Filter')
	!~ ': 0$' AS parallel_removed;
SET enable_parallel_hash = on;
SELECT rf_same('SELECT f.id FROM rf_fact f JOIN rf_fact g ON f.k = g.k AND g.id < 100') AS parallel_hash;
RESET enable_parallel_hash;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- statements that write or lock rows get no filter
SELECT rf_has_filter('SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k FOR UPDATE OF f') AS for_update;
CREATE TABLE rf_sink (id int);
SELECT rf_has_filter('INSERT INTO rf_sink SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k') AS insert_select;
SELECT rf_has_filter('WITH x AS (DELETE FROM rf_sink RETURNING id) SELECT f.id FROM rf_fact f JOIN rf_dim d ON f.k = d.k') AS modifying_cte;
-- volatile functions between the scan and the join keep the filter above them
SELECT rf_same('SELECT s.id FROM (SELECT f.id, f.k, random() AS r FROM rf_fact f) s JOIN rf_dim d ON s.k = d.k') AS volatile_below;

-- the settings' bad values
SET bloomset.runtime_filter = maybe;
SET bloomset.runtime_filter_max_pass = 2;
SET bloomset.runtime_filter_min_rows = -1;
RESET bloomset.runtime_filter;

-- a bloomskip index on the probe side's key: a build of few rows reads the
-- table through the index ("key = ANY (the build's keys)") instead of the
-- scan; the row the join fetched before it built is not returned twice
SET bloomset.runtime_filter = force;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE rf_events AS
	SELECT g AS id, g / 100 AS day, CASE WHEN g % 97 <> 0 THEN g / 100 END AS dayn
	FROM generate_series(1, 40000) g;
CREATE INDEX rf_events_day ON rf_events USING bloomskip (day);
CREATE INDEX rf_events_dayn ON rf_events USING bloomskip (dayn);
CREATE TABLE rf_days AS SELECT g AS day FROM generate_series(100, 106) g;
CREATE TABLE rf_many_days AS SELECT g AS day FROM generate_series(0, 1999) g;
ANALYZE rf_events, rf_days, rf_many_days;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rf_events e JOIN rf_days d ON e.day = d.day;
SELECT rf_analyze('SELECT count(*) FROM rf_events e JOIN rf_days d ON e.day = d.day',
				  'Scans Through bloomskip Index') AS through_index;
SELECT rf_same('SELECT e.id FROM rf_events e JOIN rf_days d ON e.day = d.day') AS index_keys;
SELECT rf_same('SELECT e.id FROM rf_events e JOIN rf_days d ON e.dayn = d.day') AS index_null_keys;
SELECT rf_same('SELECT e.id FROM rf_events e WHERE e.day IN (SELECT day FROM rf_days)') AS index_semi;
-- more build rows than the index is read for: the scan stays
SELECT rf_analyze('SELECT count(*) FROM rf_events e JOIN rf_many_days d ON e.day = d.day',
				  'Scans Through bloomskip Index') AS too_many_keys;
SELECT rf_same('SELECT e.id FROM rf_events e JOIN rf_many_days d ON e.day = d.day') AS many_keys;
-- rebuilt per outer row: the index read with each build's keys
SELECT rf_same('SELECT w.w, s.c FROM rf_week w, LATERAL (SELECT count(*) AS c FROM rf_events e
	JOIN rf_days d ON e.day = d.day WHERE d.day <= 100 + w.w * 2) s') AS index_rebuild;
-- a build whose keys match no row
SELECT rf_same('SELECT e.id FROM rf_events e JOIN rf_days d ON e.day = d.day + 100000') AS index_no_match;
RESET bloomset.runtime_filter;
DROP TABLE rf_events, rf_days, rf_many_days;
