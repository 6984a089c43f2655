-- bench/findex.sql -- helpers of bench/run.sh's findex group (bench/findex.sh),
-- loaded after bench_helpers.sql.

-- bench_once(g, label, rep, q): time q once (bench_ms: clock around a
-- PL/pgSQL EXECUTE) and record it as round rep of (g, label) in bench_r;
-- for statements run once each (an index build), where bench_group's
-- interleaved rounds inside one transaction do not fit.
-- Also records the backend's CPU seconds (bench_cpu_s: user + system, 10 ms
-- ticks) in bench_once_cpu: a build's on-CPU time against the read's tells
-- its own cost from the waits for other processes on a loaded machine.
CREATE TABLE bench_once_cpu (grp text, label text, rep int, cpu_s float8);

CREATE FUNCTION bench_once(g text, lab text, rep int, q text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	res record;
	cpu0 float8 := bench_cpu_s();
BEGIN
	SELECT * INTO res FROM bench_ms(q, NULL, 0);
	INSERT INTO bench_r VALUES (g, lab, rep, res.ms, 0, NULL, NULL);
	INSERT INTO bench_once_cpu VALUES (g, lab, rep, bench_cpu_s() - cpu0);
	RAISE NOTICE '% %: % ms (on CPU % s)', g, left(lab, 70), round(res.ms::numeric, 1),
		round((bench_cpu_s() - cpu0)::numeric, 2);
	RETURN res.ms;
END $$;

-- median on-CPU seconds of the timed runs of (g, lab)
CREATE FUNCTION bench_once_cpu_med(g text, lab text) RETURNS numeric
LANGUAGE sql AS $$
	SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_s)::numeric, 2)
	  FROM bench_once_cpu WHERE grp = g AND label = lab AND rep > 0
$$;

-- findex_copy(src, dst): the write floor of a build -- every filter of src
-- copied into a new table dst (CREATE TABLE AS: each value read whole and
-- stored again, out of line, as the index's build writes its rows); the
-- previous dst dropped first.  The rows copied.
CREATE FUNCTION findex_copy(src regclass, dst text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I', dst);
	EXECUTE format('CREATE TABLE %I AS SELECT id, f FROM %s', dst, src);
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN n;
END $$;
