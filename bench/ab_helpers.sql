-- bench/ab_helpers.sql -- timing helpers for bench/ab.sh (loaded into the
-- throwaway A/B database of each build, never into a user's database).
--
-- ab_group(g, rounds) runs every query of group g once untimed (warm-up),
-- then `rounds` rounds of all of them in order (A B C A B C ...) in this one
-- backend, so drift and other processes' noise hit every query of a round
-- alike; bench/ab.sh reports ratios of queries of the same round.  A query
-- is timed by clock_timestamp() around a PL/pgSQL EXECUTE ... INTO (no
-- result goes to the client).  A filter "passed as a constant" is $1 (USING),
-- which the planner folds into a Const as it would a literal.

CREATE TABLE ab_q (grp text, ord int, name text, query text, workers int DEFAULT 0,
				   fname text, PRIMARY KEY (grp, name));
CREATE TABLE ab_r (grp text, name text, round int, ms float8, cpu_share float8, cpu_ms float8);

-- CPU time this backend has run, in ms (the scheduler's count in ns: on a
-- machine shared with other work, a query's CPU time moves far less than
-- its wall time)
CREATE FUNCTION ab_cpu_ms() RETURNS float8
LANGUAGE sql AS $$
	SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::float8 / 1e6
$$;

-- CPU seconds this backend has used (utime + stime, 100 Hz ticks)
CREATE FUNCTION ab_cpu_s() RETURNS float8
LANGUAGE sql AS $$
	SELECT (f[12]::float8 + f[13]::float8) / 100
	  FROM (SELECT string_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ') AS f) AS s
$$;

CREATE FUNCTION ab_group(g text, rounds int, first_round int DEFAULT 1) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	q	record;
	fv	bloom;
	res record;
	t0	timestamptz;
	c0	float8;
	n0	float8;
	ms	float8;
BEGIN
	PERFORM set_config('parallel_setup_cost', '0', true);
	PERFORM set_config('parallel_tuple_cost', '0', true);
	PERFORM set_config('min_parallel_table_scan_size', '0', true);
	FOR i IN 0 .. rounds LOOP
		FOR q IN SELECT * FROM ab_q WHERE grp = g ORDER BY ord LOOP
			PERFORM set_config('max_parallel_workers_per_gather', q.workers::text, true);
			fv := NULL;
			IF q.fname IS NOT NULL THEN
				-- an ordinary in-memory value, detoasted once
				SELECT bloom_from_bytea(bloom_to_bytea(f)) INTO fv FROM filters WHERE name = q.fname;
			END IF;
			c0 := ab_cpu_s();
			n0 := ab_cpu_ms();
			t0 := clock_timestamp();
			EXECUTE q.query INTO res USING fv;
			ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
			n0 := ab_cpu_ms() - n0;
			IF i > 0 THEN
				INSERT INTO ab_r VALUES (g, q.name, first_round + i - 1, ms,
										 CASE WHEN q.workers = 0 THEN 1000 * (ab_cpu_s() - c0) / ms END,
										 CASE WHEN q.workers = 0 THEN n0 END);
			END IF;
		END LOOP;
	END LOOP;
END $$;
