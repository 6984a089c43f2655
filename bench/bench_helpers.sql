-- bench/bench_helpers.sql -- timing helpers for bench/run.sh (loaded into the
-- throwaway benchmark database, never into a user's database).
--
-- How a query is timed: bench_ms() runs
--     EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, FORMAT JSON) <query>
-- through PL/pgSQL EXECUTE and returns the server's "Execution Time": from
-- ExecutorStart to ExecutorEnd, so parsing, planning and sending the result
-- to the client are excluded (a 12 MB bloom result is never converted to
-- text).  TIMING OFF leaves only the per-node row counters, a few ns per
-- row and plan node, the same for a query and its baseline of the same plan
-- shape.  A filter "passed as a constant" is given as parameter $1 (USING):
-- the planner folds it into a Const, exactly as a literal would be.

CREATE TABLE bench_q (			-- what to measure, in interleaving groups
	grp		text,
	ord		int,
	label	text,				-- the SQL, as shown in the report
	query	text,				-- the SQL, as run ($1 = filter named fname)
	workers int DEFAULT 0,		-- max_parallel_workers_per_gather
	fname	text,				-- filters.name passed as $1, detoasted
	PRIMARY KEY (grp, label)
);

CREATE TABLE bench_r (			-- one row per timed execution
	grp		text,
	label	text,
	rep		int,
	ms		float8,
	launched int,				-- parallel workers launched
	plan	text				-- node types, outermost first
);

CREATE TABLE bench_info (k text PRIMARY KEY, v text);

CREATE FUNCTION bench_ms(q text, f bloom, workers int,
						 OUT ms float8, OUT launched int, OUT plan text)
LANGUAGE plpgsql AS $$
DECLARE
	j json;
BEGIN
	PERFORM set_config('max_parallel_workers_per_gather', workers::text, true);
	EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON, COSTS OFF, FORMAT JSON) ' || q
		INTO j USING f;
	ms := (j->0->>'Execution Time')::float8;
	launched := coalesce((regexp_match(j::text, '"Workers Launched": (\d+)'))[1]::int, 0);
	SELECT string_agg(m[1], '>') INTO plan
	  FROM regexp_matches(j::text, '"Node Type": "([^"]+)"', 'g') AS m;
END $$;

-- The filter named n, detoasted into an ordinary in-memory value.
CREATE FUNCTION bench_filter(n text) RETURNS bloom
LANGUAGE sql STABLE AS $$
	SELECT bloom_from_bytea(bloom_to_bytea(f)) FROM filters WHERE name = n
$$;

-- Run every query of group g once (warm-up, not recorded), then reps rounds
-- of all of them in order: A B C A B C ... so that drift and the noise of
-- other processes on the machine hit every query alike.
CREATE FUNCTION bench_group(g text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	q	record;
	fv	bloom;
	res record;
BEGIN
	FOR r IN 0..reps LOOP
		FOR q IN SELECT * FROM bench_q WHERE grp = g ORDER BY ord LOOP
			fv := CASE WHEN q.fname IS NULL THEN NULL ELSE bench_filter(q.fname) END;
			SELECT * INTO res FROM bench_ms(q.query, fv, q.workers);
			IF r > 0 THEN
				INSERT INTO bench_r VALUES (g, q.label, r, res.ms, res.launched, res.plan);
			END IF;
			RAISE NOTICE '% %/% %: % ms', g, r, reps, left(q.label, 60), round(res.ms::numeric, 1);
		END LOOP;
	END LOOP;
	PERFORM set_config('max_parallel_workers_per_gather', '0', false);
END $$;

CREATE VIEW bench_med AS
	SELECT grp, label,
		   percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med,
		   min(ms) AS lo, max(ms) AS hi, count(*) AS n,
		   max(launched) AS launched, max(plan) AS plan
	  FROM bench_r GROUP BY grp, label;
