-- bench/joinfilter.sql -- tables and timing functions of the joinfilter
-- group (bench/joinfilter.sh): how much faster do hash joins run with
-- bloomset.runtime_filter on than off, on a star schema?
--
-- The data: a fact table of n rows in date order (jf_fact: a date, a
-- customer, a supplier and a part a row, drawn at random from a fixed seed)
-- and its four dimensions: 2,000 dates (jf_date: year, week), 100,000
-- customers (jf_customer: region 0..99, each region 1 % of the customers and
-- so about 1 % of the facts), 10,000 suppliers (nation 0..24) and 200,000
-- parts (category 0..99).  jf_fact_s: the fact table's dates and quantities
-- again with a bloomskip index on the date (the case of a week of dates);
-- it is a table of its own so that the index is on no other case's probe
-- side.
--
-- Each case is one query timed with the setting off and on; jf_round times
-- every case in both settings, the setting first in turn from round to
-- round, so that a burst of load on the shared machine falls on both.

CREATE TABLE jf_case (ord int PRIMARY KEY, name text, goal text, query text,
	workers int, settings text);
-- per case, setting ('off', 'on') and round: the time, the answer (a
-- checksum of the rows); round 0 is EXPLAIN (ANALYZE, BUFFERS): the plan's
-- runtime filter nodes, rows removed, temporary blocks written, planning time
CREATE TABLE jf_r (ord int, rf text, rnd int, ms float8, answer text,
	has_filter bool, removed bigint, temp_written bigint, planning_ms float8);

CREATE FUNCTION jf_build(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL client_min_messages = warning;
	PERFORM setseed(0.48);
	CREATE TABLE jf_date AS
		SELECT k AS date_key, date '2020-01-01' + k AS d,
			   extract(year FROM date '2020-01-01' + k)::int AS year, k / 7 AS week
		  FROM generate_series(0, 1999) k;
	CREATE TABLE jf_customer AS
		SELECT k AS cust_key, (k * 37) % 100 AS region, md5(k::text) AS name
		  FROM generate_series(1, 100000) k;
	CREATE TABLE jf_supplier AS
		SELECT k AS supp_key, (k * 7) % 25 AS nation, md5(k::text) AS name
		  FROM generate_series(1, 10000) k;
	CREATE TABLE jf_part AS
		SELECT k AS part_key, (k * 7919) % 100 AS category, md5(k::text) AS name
		  FROM generate_series(1, 200000) k;
	CREATE TABLE jf_fact AS
		SELECT ((i - 1) * 2000 / n)::int AS date_key,
			   1 + (random() * 99999)::int AS cust_key,
			   1 + (random() * 9999)::int AS supp_key,
			   1 + (random() * 199999)::int AS part_key,
			   1 + (random() * 49)::int AS qty
		  FROM generate_series(1, n) i;
	CREATE TABLE jf_fact_s AS SELECT date_key, qty FROM jf_fact;
	CREATE INDEX jf_fact_s_date ON jf_fact_s USING bloomskip (date_key);
	ALTER TABLE jf_date ADD PRIMARY KEY (date_key);
	ALTER TABLE jf_customer ADD PRIMARY KEY (cust_key);
	ALTER TABLE jf_supplier ADD PRIMARY KEY (supp_key);
	ALTER TABLE jf_part ADD PRIMARY KEY (part_key);
END
$$;

CREATE FUNCTION jf_cases() RETURNS void
LANGUAGE sql AS $$
INSERT INTO jf_case VALUES
 (1, 'one selective dimension (1 % of the facts pass)', '<= 0.85',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_customer c ON f.cust_key = c.cust_key WHERE c.region = 0', 0, ''),
 (2, 'star over four dimensions', '<= 0.65',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_date d ON f.date_key = d.date_key JOIN jf_customer c ON f.cust_key = c.cust_key JOIN jf_supplier s ON f.supp_key = s.supp_key JOIN jf_part p ON f.part_key = p.part_key WHERE d.year = 2021 AND c.region < 30 AND s.nation < 5 AND p.category < 40', 0, ''),
 (3, 'spilling hash join, 20 % pass (work_mem = 256kB)', '<= 0.6',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_customer c ON f.cust_key = c.cust_key WHERE c.region < 20', 0, 'work_mem=256kB'),
 (4, 'a week of dates, bloomskip index on the fact table (enable_nestloop = off: a hash join)', '<= 0.2',
  'SELECT count(*), sum(f.qty) FROM jf_fact_s f JOIN jf_date d ON f.date_key = d.date_key WHERE d.week = 150', 0, 'enable_nestloop=off'),
 (5, 'join passing 50 %', '<= 1.05',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_customer c ON f.cust_key = c.cust_key WHERE c.region < 50', 0, ''),
 (6, 'join passing 90 %', '<= 1.05',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_customer c ON f.cust_key = c.cust_key WHERE c.region < 90', 0, ''),
 (7, 'one selective dimension, 2 workers', 'within 0.1 of case 1',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_customer c ON f.cust_key = c.cust_key WHERE c.region = 0', 2, ''),
 (8, 'star over four dimensions, 2 workers', 'within 0.1 of case 2',
  'SELECT count(*), sum(f.qty) FROM jf_fact f JOIN jf_date d ON f.date_key = d.date_key JOIN jf_customer c ON f.cust_key = c.cust_key JOIN jf_supplier s ON f.supp_key = s.supp_key JOIN jf_part p ON f.part_key = p.part_key WHERE d.year = 2021 AND c.region < 30 AND s.nation < 5 AND p.category < 40', 2, ''),
 (9, 'a week of dates, bloomskip index, the planner''s own plan (a nested loop over the index, off)', '<= 1.05',
  'SELECT count(*), sum(f.qty) FROM jf_fact_s f JOIN jf_date d ON f.date_key = d.date_key WHERE d.week = 150', 0, '');
$$;

-- the case's settings for this transaction: workers, the runtime filter,
-- and its own (name=value,...)
CREATE FUNCTION jf_set(c jf_case, rf text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	kv text;
BEGIN
	PERFORM set_config('max_parallel_workers_per_gather', c.workers::text, true);
	-- (a build without the setting runs both alike: the report says so)
	IF EXISTS (SELECT FROM pg_settings WHERE name = 'bloomset.runtime_filter') THEN
		PERFORM set_config('bloomset.runtime_filter', rf, true);
	END IF;
	FOREACH kv IN ARRAY coalesce(string_to_array(nullif(c.settings, ''), ','), '{}') LOOP
		PERFORM set_config(split_part(kv, '=', 1), split_part(kv, '=', 2), true);
	END LOOP;
END
$$;

-- round 0: EXPLAIN (ANALYZE, BUFFERS) of every case in both settings
CREATE FUNCTION jf_explain() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c jf_case;
	rf text;
	j json;
	t text;
BEGIN
	FOR c IN SELECT * FROM jf_case ORDER BY ord LOOP
		FOREACH rf IN ARRAY ARRAY['off', 'on'] LOOP
			PERFORM jf_set(c, rf);
			EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || c.query INTO j;
			t := j::text;
			INSERT INTO jf_r VALUES (c.ord, rf, 0, NULL, NULL,
				t LIKE '%Runtime Filter%',
				(SELECT coalesce(sum(m[1]::bigint), 0)
				   FROM regexp_matches(t, '"Rows Removed by Runtime Filter": ([0-9]+)', 'g') m),
				(j->0->'Plan'->>'Temp Written Blocks')::bigint,
				(j->0->>'Planning Time')::float8);
		END LOOP;
	END LOOP;
END
$$;

-- the text EXPLAIN (ANALYZE, BUFFERS) of case ord with the setting rf, for the report
CREATE FUNCTION jf_explain_text(ord int, rf text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	c jf_case;
BEGIN
	SELECT * INTO c FROM jf_case WHERE jf_case.ord = jf_explain_text.ord;
	PERFORM jf_set(c, rf);
	RETURN QUERY EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) ' || c.query;
END
$$;

-- planning time alone: EXPLAIN (SUMMARY) of the star, reps times per setting, interleaved
CREATE FUNCTION jf_planning(reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c jf_case;
	rf text;
	j json;
BEGIN
	SELECT * INTO c FROM jf_case WHERE ord = 2;
	FOR r IN 1 .. reps LOOP
		FOREACH rf IN ARRAY CASE WHEN r % 2 = 0 THEN ARRAY['on', 'off'] ELSE ARRAY['off', 'on'] END LOOP
			PERFORM jf_set(c, rf);
			EXECUTE 'EXPLAIN (SUMMARY, FORMAT JSON) ' || c.query INTO j;
			INSERT INTO jf_r VALUES (-2, rf, r, NULL, NULL, NULL, NULL, NULL, (j->0->>'Planning Time')::float8);
		END LOOP;
	END LOOP;
END
$$;

-- one timed round of every case in both settings (the script calls this
-- once per round, each call its own transaction); which setting runs
-- first alternates with the round
CREATE FUNCTION jf_round(r int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c jf_case;
	rf text;
	t0 timestamptz;
	a text;
BEGIN
	FOR c IN SELECT * FROM jf_case ORDER BY ord LOOP
		FOREACH rf IN ARRAY CASE WHEN r % 2 = 0 THEN ARRAY['on', 'off'] ELSE ARRAY['off', 'on'] END LOOP
			PERFORM jf_set(c, rf);
			t0 := clock_timestamp();
			EXECUTE 'SELECT q::text FROM (' || c.query || ') q' INTO a;
			INSERT INTO jf_r VALUES (c.ord, rf, r, 1000 * extract(epoch FROM clock_timestamp() - t0), a);
		END LOOP;
	END LOOP;
END
$$;

-- per case and setting: the median time, round 0's plan facts, and whether
-- every round's answer is the setting off's
CREATE VIEW jf_sum AS
SELECT c.ord, c.name, c.goal, r.rf,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.rnd > 0) AS ms,
	bool_or(r.has_filter) AS has_filter, max(r.removed) AS removed,
	max(r.temp_written) AS temp_written,
	count(DISTINCT r.answer) AS answers, max(r.answer) AS answer
  FROM jf_case c JOIN jf_r r ON r.ord = c.ord
 GROUP BY c.ord, c.name, c.goal, r.rf;
