-- bench/skiptext.sql -- tables and timing functions of the skiptext group
-- (bench/skiptext.sh): bloomskip's n-gram classes (text_ngram_bloomskip_ops
-- for ~ and ~*, text_ngram_ci_bloomskip_ops for ILIKE and ~*) against
-- pg_trgm's GIN index, and tsvector_bloomskip_ops (@@) against GIN on
-- tsvector, and the sequential scan, on the log lines of
-- bench/skipngram.sql (the same generator, loaded from that file): table
-- logs (id, msg) for the text cases, logs_ts (id, tsv), the lines'
-- to_tsvector('simple', ...), for the full-text ones.
--
-- Indexes are built and recorded by sng_build (into sng_idx); plans and
-- buffers are read by sng_plan and sng_buffers.  The cases are
-- conditions: each is run as the planner plans it with
-- whichever index exists (a condition the index does not serve runs as a
-- sequential scan, as it would for a user).  For bloomskip the common
-- needles also run forced both ways (a sequential scan; the bitmap scan over
-- the index), so the planner's choice is measured against the better one.

CREATE FUNCTION stx_escape(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(s, '([.*+?^${}()|\[\]\\])', '\\\1', 'g') $$;

CREATE TABLE stx_case (ord int, kase text, cond text, expect bigint, tbl text DEFAULT 'logs');
CREATE TABLE stx_r (idx text, kase text, mode text, rep int, ms float8, buffers bigint, nrows bigint, plan text);
-- each index's table and the GIN index it is compared with
CREATE TABLE stx_anchor (idx text, tbl text, anchor text);
INSERT INTO stx_anchor VALUES ('none', 'logs', NULL), ('pg_trgm GIN', 'logs', NULL),
	('bloomskip n-gram', 'logs', 'pg_trgm GIN'), ('bloomskip n-gram ci', 'logs', 'pg_trgm GIN'),
	('none (tsvector)', 'logs_ts', NULL), ('tsvector GIN', 'logs_ts', NULL),
	('bloomskip tsvector', 'logs_ts', 'tsvector GIN');
-- per index: 1 M appended lines (time, index bytes before and after)
CREATE TABLE stx_append (idx text, rows bigint, ms float8, bytes_before bigint, bytes_after bigint);

-- the table of full-text documents, and the lines to append to each table
-- (rows n + 1 .. n + more of the generator, made once, so an append times
-- only the insert)
CREATE FUNCTION stx_load_more(n bigint, more bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	CREATE TABLE logs_ts AS SELECT id, to_tsvector('simple', msg) AS tsv FROM logs;
	CREATE TABLE logs_more AS SELECT i AS id, sng_line(i) AS msg FROM generate_series(n + 1, n + more) i;
	CREATE TABLE logs_ts_more AS SELECT id, to_tsvector('simple', msg) AS tsv FROM logs_more;
END
$$;

-- append the lines to the table of index label (which exists as logs_ix);
-- the caller removes them again (DELETE, then VACUUM truncates the table)
CREATE FUNCTION stx_append_rows(label text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t text := (SELECT tbl FROM stx_anchor WHERE idx = label);
	before bigint := pg_relation_size('logs_ix');
	t0 timestamptz := clock_timestamp();
	n bigint;
BEGIN
	EXECUTE format('INSERT INTO %I SELECT * FROM %I', t, t || '_more');
	GET DIAGNOSTICS n = ROW_COUNT;
	INSERT INTO stx_append VALUES (label, n, 1000 * extract(epoch FROM clock_timestamp() - t0),
		before, pg_relation_size('logs_ix'));
END
$$;

CREATE FUNCTION stx_cases(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t text := sng_trace(n * 2 / 3);
BEGIN
	TRUNCATE stx_case;
	INSERT INTO stx_case VALUES
		(1, 'LIKE rare', format('msg LIKE %L', '%trace=' || t || '%'), NULL, 'logs'),
		(2, 'LIKE medium', format('msg LIKE %L', '%quota exceeded%'), NULL, 'logs'),
		(3, 'LIKE common', format('msg LIKE %L', '%ERROR%'), NULL, 'logs'),
		(4, 'ILIKE rare', format('msg ILIKE %L', '%TRACE=' || upper(t) || '%'), NULL, 'logs'),
		(5, '~ rare', format('msg ~ %L', 'trace=' || stx_escape(t) || '( |$)'), NULL, 'logs'),
		(6, '~* rare', format('msg ~* %L', 'TRACE=' || stx_escape(upper(t))), NULL, 'logs'),
		(7, 'ILIKE medium', format('msg ILIKE %L', '%Quota Exceeded%'), NULL, 'logs'),
		(8, '~ medium', format('msg ~ %L', 'quota (exceeded|full) on volume v[0-9]'), NULL, 'logs'),
		(9, '~* common', format('msg ~* %L', 'error'), NULL, 'logs'),
		(10, 'ILIKE common', format('msg ILIKE %L', '%error%'), NULL, 'logs'),
		(11, '@@ rare', format('tsv @@ plainto_tsquery(''simple'', %L)', t), NULL, 'logs_ts'),
		(12, '@@ medium', format('tsv @@ to_tsquery(''simple'', %L)', 'quota & exceeded'), NULL, 'logs_ts'),
		(13, '@@ common', format('tsv @@ to_tsquery(''simple'', %L)', 'error'), NULL, 'logs_ts');
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
		EXECUTE 'SELECT count(*) FROM ' || c.tbl || ' WHERE ' || c.cond INTO n;
		UPDATE stx_case SET expect = n WHERE ord = c.ord;
	END LOOP;
END
$$;

-- one round under EXPLAIN (ANALYZE, BUFFERS), then reps timed rounds; mode
-- 'planner', 'seq forced' or 'index forced'
CREATE FUNCTION stx_run(label text, c stx_case, mode text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	j json;
	t0 timestamptz;
	n bigint;
	q text := 'SELECT count(*) FROM ' || c.tbl || ' WHERE ' || c.cond;
BEGIN
	PERFORM set_config('enable_bitmapscan', (mode <> 'seq forced')::text, true);
	PERFORM set_config('enable_indexscan', (mode <> 'seq forced')::text, true);
	PERFORM set_config('enable_seqscan', (mode <> 'index forced')::text, true);
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF, FORMAT JSON) ' || q INTO j;
	INSERT INTO stx_r VALUES (label, c.kase, mode, 0, NULL, sng_buffers(j->0->'Plan'), NULL, sng_plan(j->0->'Plan'));
	FOR r IN 1 .. reps LOOP
		t0 := clock_timestamp();
		EXECUTE q INTO n;
		INSERT INTO stx_r VALUES (label, c.kase, mode, r, 1000 * extract(epoch FROM clock_timestamp() - t0), NULL, n, NULL);
	END LOOP;
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	PERFORM set_config('enable_seqscan', 'on', true);
END
$$;

-- every case of the index's table as the planner plans it; for bloomskip,
-- the common needles also forced both ways
CREATE FUNCTION stx_measure(label text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c stx_case;
BEGIN
	FOR c IN SELECT * FROM stx_case WHERE tbl = (SELECT tbl FROM stx_anchor WHERE idx = label) ORDER BY ord LOOP
		PERFORM stx_run(label, c, 'planner', reps);
		IF label LIKE 'bloomskip%' AND c.kase LIKE '% common' THEN
			PERFORM stx_run(label, c, 'seq forced', reps);
			PERFORM stx_run(label, c, 'index forced', reps);
		END IF;
	END LOOP;
END
$$;

-- per index, case and mode: median ms, buffers, plan, counts right
CREATE VIEW stx_sum AS
SELECT r.idx, r.kase, r.mode, c.ord,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.rep > 0) AS ms,
	max(r.buffers) FILTER (WHERE r.rep = 0) AS buffers,
	max(r.plan) FILTER (WHERE r.rep = 0) AS plan,
	count(*) FILTER (WHERE r.rep > 0 AND r.nrows IS DISTINCT FROM c.expect) AS wrong
  FROM stx_r r JOIN stx_case c ON c.kase = r.kase
 GROUP BY r.idx, r.kase, r.mode, c.ord;
