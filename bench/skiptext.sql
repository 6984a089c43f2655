-- bench/skiptext.sql -- tables and timing functions of the skiptext group
-- (bench/skiptext.sh): bloomskip's n-gram classes (text_ngram_bloomskip_ops
-- for ~ and ~*, text_ngram_ci_bloomskip_ops for ILIKE and ~*) against
-- pg_trgm's GIN index and the sequential scan, on the log lines of
-- bench/skipngram.sql (the same generator, loaded from that file).
--
-- Indexes are built and recorded by sng_build (into sng_idx); plans and
-- buffers are read by sng_plan and sng_buffers.  The cases are
-- conditions: each is run as the planner plans it with
-- whichever index exists (a condition the index does not serve runs as a
-- sequential scan, as it would for a user).

CREATE FUNCTION stx_escape(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(s, '([.*+?^${}()|\[\]\\])', '\\\1', 'g') $$;

CREATE TABLE stx_case (ord int, kase text, cond text, expect bigint);
CREATE TABLE stx_r (idx text, kase text, rep int, ms float8, buffers bigint, nrows bigint, plan text);

CREATE FUNCTION stx_cases(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t text := sng_trace(n * 2 / 3);
BEGIN
	TRUNCATE stx_case;
	INSERT INTO stx_case VALUES
		(1, 'ILIKE rare', format('msg ILIKE %L', '%TRACE=' || upper(t) || '%'), NULL),
		(2, '~ rare', format('msg ~ %L', 'trace=' || stx_escape(t) || '( |$)'), NULL),
		(3, '~* rare', format('msg ~* %L', 'TRACE=' || stx_escape(upper(t))), NULL),
		(4, 'ILIKE medium', format('msg ILIKE %L', '%Quota Exceeded%'), NULL),
		(5, '~ medium', format('msg ~ %L', 'quota (exceeded|full) on volume v[0-9]'), NULL),
		(6, '~* common', format('msg ~* %L', 'error'), NULL),
		(7, 'ILIKE common', format('msg ILIKE %L', '%error%'), NULL);
END
$$;

-- the oracle: each case's count by a sequential scan, before any index
CREATE FUNCTION stx_oracle() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	n bigint;
BEGIN
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL enable_indexscan = off;
	FOR c IN SELECT * FROM stx_case ORDER BY ord LOOP
		EXECUTE 'SELECT count(*) FROM logs WHERE ' || c.cond INTO n;
		UPDATE stx_case SET expect = n WHERE ord = c.ord;
	END LOOP;
END
$$;

-- every case: round 0 under EXPLAIN (ANALYZE, BUFFERS), rounds 1 .. reps timed
CREATE FUNCTION stx_measure(label text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	j json;
	t0 timestamptz;
	n bigint;
BEGIN
	FOR c IN SELECT * FROM stx_case ORDER BY ord LOOP
		EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF, FORMAT JSON) SELECT count(*) FROM logs WHERE '
			|| c.cond INTO j;
		INSERT INTO stx_r VALUES (label, c.kase, 0, NULL, sng_buffers(j->0->'Plan'), NULL, sng_plan(j->0->'Plan'));
		FOR r IN 1 .. reps LOOP
			t0 := clock_timestamp();
			EXECUTE 'SELECT count(*) FROM logs WHERE ' || c.cond INTO n;
			INSERT INTO stx_r VALUES (label, c.kase, r, 1000 * extract(epoch FROM clock_timestamp() - t0), NULL, n, NULL);
		END LOOP;
	END LOOP;
END
$$;

-- per index and case: median ms, buffers, plan, counts right
CREATE VIEW stx_sum AS
SELECT r.idx, r.kase, c.ord,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.rep > 0) AS ms,
	max(r.buffers) FILTER (WHERE r.rep = 0) AS buffers,
	max(r.plan) FILTER (WHERE r.rep = 0) AS plan,
	count(*) FILTER (WHERE r.rep > 0 AND r.nrows IS DISTINCT FROM c.expect) AS wrong
  FROM stx_r r JOIN stx_case c ON c.kase = r.kase
 GROUP BY r.idx, r.kase, c.ord;
