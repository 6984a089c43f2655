-- bench/findex.sql -- helpers of bench/run.sh's findex group (bench/findex.sh),
-- loaded after bench_helpers.sql.

-- bench_once(g, label, rep, q): time q once (bench_ms: clock around a
-- PL/pgSQL EXECUTE) and record it as round rep of (g, label) in bench_r;
-- for statements run once each (an index build), where bench_group's
-- interleaved rounds inside one transaction do not fit.
CREATE FUNCTION bench_once(g text, lab text, rep int, q text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	res record;
BEGIN
	SELECT * INTO res FROM bench_ms(q, NULL, 0);
	INSERT INTO bench_r VALUES (g, lab, rep, res.ms, 0, NULL, NULL);
	RAISE NOTICE '% %: % ms', g, left(lab, 70), round(res.ms::numeric, 1);
	RETURN res.ms;
END $$;
