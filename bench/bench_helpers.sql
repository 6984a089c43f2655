-- bench/bench_helpers.sql -- timing helpers for bench/run.sh (loaded into the
-- throwaway benchmark database, never into a user's database).
--
-- How a query is timed: bench_ms() reads clock_timestamp() around a PL/pgSQL
-- EXECUTE of the query, INTO a record (no result ever goes to the client,
-- and a 12 MB bloom result is never turned into text).  The figure includes
-- parsing and planning (about 0.1 ms; for a constant filter also the
-- planner's copy of the Const, ~1 ms for 12 MB) and copying the one result
-- row, and no per-row instrumentation.  A filter "passed as a constant" is
-- given as parameter $1 (USING): PL/pgSQL marks it PARAM_FLAG_CONST, so the
-- planner folds it into a Const exactly as it would a literal.
--
-- Each query is run once first under EXPLAIN (ANALYZE, TIMING OFF) as the
-- warm-up: not timed, it records the plan and the parallel workers launched.
-- (EXPLAIN ANALYZE itself is not used for the timed runs: its per-row
-- counters add about 3 ns per row and plan node, and for a constant filter
-- it prints the filter's 24 MB text form in the plan, seconds of overhead.)

CREATE TABLE bench_q (			-- what to measure, in interleaving groups
	grp		text,
	ord		int,
	label	text,				-- the SQL, as shown in the report
	query	text,				-- the SQL, as run ($1 = filter named fname)
	workers int DEFAULT 0,		-- max_parallel_workers_per_gather
	fname	text,				-- filters.name passed as $1, detoasted
	guc		text,				-- 'name=value' set for this query only, or NULL
	PRIMARY KEY (grp, label)
);

CREATE TABLE bench_r (			-- one row per timed execution
	grp		text,
	label	text,
	rep		int,				-- 0: the warm-up, under EXPLAIN ANALYZE
	ms		float8,
	launched int,				-- parallel workers launched
	plan	text,				-- node types, see bench_plan() (rep 0 only)
	buffers bigint				-- shared buffers hit + read (rep 0 only)
);

CREATE TABLE bench_info (k text PRIMARY KEY, v text);

-- "Aggregate(Hash Join Anti(Seq Scan, Hash(Seq Scan)))" from an EXPLAIN plan
CREATE FUNCTION bench_plan(p json) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT (p->>'Node Type') || coalesce(' ' || (p->>'Join Type'), '')
		|| coalesce(' [' || nullif(nullif(p->>'Parent Relationship', 'Outer'), 'Inner') || ']', '')
		|| coalesce('(' || (SELECT string_agg(bench_plan(c), ', ')
							  FROM json_array_elements(p->'Plans') AS c) || ')', '')
$$;

-- parallel workers launched anywhere in a plan
CREATE FUNCTION bench_launched(p json) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce((p->>'Workers Launched')::int, 0)
		+ coalesce((SELECT sum(bench_launched(c))::int
					  FROM json_array_elements(p->'Plans') AS c), 0)
$$;

-- Time q (clock), or with explain run it under EXPLAIN ANALYZE for its
-- plan and workers (ms is then EXPLAIN's execution time, for reference).
CREATE FUNCTION bench_ms(q text, f bloom, workers int, explain bool DEFAULT false,
						 guc text DEFAULT NULL,
						 OUT ms float8, OUT launched int, OUT plan text, OUT buffers bigint)
LANGUAGE plpgsql AS $$
DECLARE
	j	json;
	rec record;
	t0	timestamptz;
	gname text := split_part(guc, '=', 1);
	gold text;
BEGIN
	PERFORM set_config('max_parallel_workers_per_gather', workers::text, true);
	IF guc IS NOT NULL THEN
		gold := current_setting(gname);
		PERFORM set_config(gname, split_part(guc, '=', 2), true);
	END IF;
	IF explain THEN
		EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY ON, COSTS OFF, FORMAT JSON) ' || q
			INTO j USING f;
		ms := (j->0->>'Execution Time')::float8;
		buffers := (j->0->'Plan'->>'Shared Hit Blocks')::bigint
			+ (j->0->'Plan'->>'Shared Read Blocks')::bigint;
		launched := bench_launched(j->0->'Plan');
		plan := bench_plan(j->0->'Plan');
	ELSE
		t0 := clock_timestamp();
		EXECUTE q INTO rec USING f;
		ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
	END IF;
	IF guc IS NOT NULL THEN
		PERFORM set_config(gname, gold, true);
	END IF;
END $$;

-- The filter named n, detoasted into an ordinary in-memory value.
CREATE FUNCTION bench_filter(n text) RETURNS bloom
LANGUAGE sql STABLE AS $$
	SELECT bloom_from_bytea(bloom_to_bytea(f)) FROM filters WHERE name = n
$$;

-- CPU seconds this backend has used (utime + stime from /proc, 100 Hz
-- ticks): the on-CPU share of a group's wall time shows how much other
-- processes on the machine competed with the benchmark.
CREATE FUNCTION bench_cpu_s() RETURNS float8
LANGUAGE sql AS $$
	SELECT (f[12]::float8 + f[13]::float8) / 100
	  FROM (SELECT string_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ') AS f) AS s
$$;

-- Run every query of group g once (warm-up under EXPLAIN ANALYZE, rep 0),
-- then reps timed rounds
-- of all of them in order: A B C A B C ... so that drift and the noise of
-- other processes on the machine hit every query alike.
CREATE FUNCTION bench_group(g text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	q	record;
	fv	bloom;
	res record;
	cpu0 float8;
	wall0 timestamptz;
BEGIN
	FOR r IN 0..reps LOOP
		IF r = 1 THEN
			cpu0 := bench_cpu_s();
			wall0 := clock_timestamp();
		END IF;
		FOR q IN SELECT * FROM bench_q WHERE grp = g ORDER BY ord LOOP
			fv := CASE WHEN q.fname IS NULL THEN NULL ELSE bench_filter(q.fname) END;
			SELECT * INTO res FROM bench_ms(q.query, fv, q.workers, r = 0, q.guc);
			INSERT INTO bench_r VALUES (g, q.label, r, res.ms, res.launched, res.plan, res.buffers);
			RAISE NOTICE '% %/% %: % ms', g, r, reps, left(q.label, 60), round(res.ms::numeric, 1);
		END LOOP;
	END LOOP;
	INSERT INTO bench_info VALUES ('cpu_share ' || g,
		round(100 * (bench_cpu_s() - cpu0) / extract(epoch FROM clock_timestamp() - wall0))::text || ' %');
	PERFORM set_config('max_parallel_workers_per_gather', '0', false);
END $$;

CREATE VIEW bench_med AS
	SELECT grp, label,
		   percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE rep > 0) AS med,
		   min(ms) FILTER (WHERE rep > 0) AS lo, max(ms) FILTER (WHERE rep > 0) AS hi,
		   count(*) FILTER (WHERE rep > 0) AS n,
		   max(ms) FILTER (WHERE rep = 0) AS explain_ms,
		   max(launched) FILTER (WHERE rep = 0) AS launched,
		   max(plan) FILTER (WHERE rep = 0) AS plan,
		   max(buffers) FILTER (WHERE rep = 0) AS buffers
	  FROM bench_r GROUP BY grp, label;

-- bench/run.sh's write cases: empty table tab, then copy the filters of
-- src into it (each value read from src and stored as tab's column says);
-- the rows written.  TRUNCATE: every round writes into an empty table.
CREATE FUNCTION bench_write(tab regclass, src regclass) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('TRUNCATE %s', tab);
	EXECUTE format('INSERT INTO %s SELECT * FROM %s', tab, src);
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN n;
END $$;
