-- bench/skipam.sql -- tables and timing functions of the skipam group
-- (bench/skipam.sh), loaded into the throwaway benchmark database after
-- bench_helpers.sql (whose bench_plan it uses).
--
-- The spans table (about 100 bytes a row, 75 rows a page): row r belongs to
-- trace r / 8, so each trace's 8 spans are consecutive rows, as a tracing
-- system writes them; trace_id is a 64-bit hash of the trace number (random
-- to any index, the same on every run), span_id a hash of the row number,
-- name one of 10 values that every block range holds, payload padding.

CREATE FUNCTION skipam_trace_id(t bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT hashint8extended(t, 1) $$;

CREATE FUNCTION skipam_rows(first bigint, last bigint)
RETURNS TABLE (trace_id bigint, span_id bigint, ts timestamptz, name text, payload text)
LANGUAGE sql IMMUTABLE AS $$
	SELECT skipam_trace_id(r / 8), hashint8extended(r, 2),
		   timestamptz '2026-01-01 00:00:00+00' + r * interval '10 ms',
		   (ARRAY['http.get /cart', 'http.post /cart', 'db.select', 'db.insert', 'cache.get',
				  'cache.set', 'queue.publish', 'queue.consume', 'auth.check', 'render.page'])[1 + r % 10],
		   lpad(to_hex(hashint8extended(r, 3)), 40, '0')
	  FROM generate_series(first, last) AS r
$$;

-- keys of one scale (ntraces = rows / 8): 21 present keys spread over the
-- table and 21 absent ones (hashes of negative trace numbers, never
-- written); 10 and 1,000 present keys for = ANY; 1,000 incoming ids for the
-- join (present, other traces)
CREATE TABLE skipam_keys (i int, present bigint, absent bigint);
CREATE TABLE skipam_sets (name text, ids bigint[]);
CREATE TABLE incoming (id bigint);

CREATE FUNCTION skipam_make_keys(ntraces bigint) RETURNS void
LANGUAGE sql AS $$
	TRUNCATE skipam_keys, skipam_sets, incoming;
	INSERT INTO skipam_keys
		SELECT i, skipam_trace_id(floor((i - 0.5) * ntraces / 21)::bigint), skipam_trace_id(-i)
		  FROM generate_series(1, 21) AS i;
	INSERT INTO skipam_sets
		SELECT 'any10', array_agg(skipam_trace_id(floor((j + 0.3) * ntraces / 10)::bigint) ORDER BY j)
		  FROM generate_series(0, 9) AS j;
	INSERT INTO skipam_sets
		SELECT 'any1000', array_agg(skipam_trace_id(floor((j + 0.7) * ntraces / 1000)::bigint) ORDER BY j)
		  FROM generate_series(0, 999) AS j;
	INSERT INTO incoming
		SELECT skipam_trace_id(floor((j + 0.2) * ntraces / 1000)::bigint) FROM generate_series(0, 999) AS j;
	ANALYZE incoming;
$$;

-- every measurement: one row per run (rep 0: the warm-up under EXPLAIN
-- (ANALYZE, BUFFERS), which gives buffers, index pages and the plan)
CREATE TABLE skipam_r (
	scale	bigint,
	idx		text,			-- index label, or 'none'
	kase	text,			-- present, absent, any10, any1000, join, insert, every-chosen, every-seq
	rep		int,
	k		int,			-- key number (point lookups)
	ms		float8,
	buffers bigint,			-- shared hit + read of the whole plan (rep 0)
	idx_pages bigint,		-- shared hit + read of the Bitmap Index Scan nodes (rep 0)
	nrows	bigint,			-- rows counted (timed reps)
	plan	text			-- rep 0
);
CREATE TABLE skipam_idx (scale bigint, idx text, col text, ddl text, build_ms float8, bytes bigint, err text,
						 info text);	-- bloomskip_info() of a bloomskip index
CREATE TABLE skipam_expect (scale bigint, kase text, k int, nrows bigint);

-- shared hit + read of the plan nodes of the given types
CREATE FUNCTION skipam_node_buffers(p json, types text[]) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN p->>'Node Type' = ANY (types)
				THEN (p->>'Shared Hit Blocks')::bigint + (p->>'Shared Read Blocks')::bigint ELSE 0 END
		 + coalesce((SELECT sum(skipam_node_buffers(c, types))::bigint
					   FROM json_array_elements(p->'Plans') AS c), 0)
$$;

-- set 'a=1,b=2' for the transaction, returning the old values to restore
CREATE FUNCTION skipam_set(gucs text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	g text;
	old text := '';
BEGIN
	IF gucs IS NULL OR gucs = '' THEN RETURN ''; END IF;
	FOREACH g IN ARRAY string_to_array(gucs, ',') LOOP
		old := old || CASE WHEN old = '' THEN '' ELSE ',' END
			|| split_part(g, '=', 1) || '=' || current_setting(split_part(g, '=', 1));
		PERFORM set_config(split_part(g, '=', 1), split_part(g, '=', 2), true);
	END LOOP;
	RETURN old;
END $$;

-- one run of q (which returns a count n): timed (clock around EXECUTE),
-- or under EXPLAIN (ANALYZE, BUFFERS) for buffers and plan; idx_pages comes
-- from a second EXPLAIN with the scan forced to a bitmap scan (a btree's
-- Index Scan node counts its heap pages too; a Bitmap Index Scan node counts
-- index pages only)
CREATE FUNCTION skipam_run(q text, gucs text, explain bool,
						   OUT ms float8, OUT buffers bigint, OUT idx_pages bigint,
						   OUT nrows bigint, OUT plan text)
LANGUAGE plpgsql AS $$
DECLARE
	j	json;
	rec record;
	t0	timestamptz;
	old text;
BEGIN
	old := skipam_set(gucs);
	IF explain THEN
		EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF, FORMAT JSON) ' || q INTO j;
		buffers := (j->0->'Plan'->>'Shared Hit Blocks')::bigint + (j->0->'Plan'->>'Shared Read Blocks')::bigint;
		plan := bench_plan(j->0->'Plan');
		ms := (j->0->>'Execution Time')::float8;
		PERFORM skipam_set('enable_indexscan=off,enable_indexonlyscan=off,enable_seqscan=off');
		EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF, FORMAT JSON) ' || q INTO j;
		idx_pages := skipam_node_buffers(j->0->'Plan', ARRAY['Bitmap Index Scan']);
		IF NOT bench_plan(j->0->'Plan') LIKE '%Bitmap Index Scan%' THEN
			idx_pages := NULL;
		END IF;
		PERFORM skipam_set('enable_indexscan=on,enable_indexonlyscan=on,enable_seqscan=on');
	ELSE
		t0 := clock_timestamp();
		EXECUTE q INTO rec;
		ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
		nrows := rec.n;
	END IF;
	PERFORM skipam_set(old);
END $$;

-- point lookups: every round runs each of the 21 keys present, then absent
-- (A a B b ...), rounds 1..reps timed, round 0 under EXPLAIN; with
-- enable_seqscan = off, so that the index is measured where the planner
-- would rather scan the table (BRIN bloom with its defaults); the planner's
-- own plan is recorded beside it
CREATE FUNCTION skipam_points(sc bigint, ix text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	kk	record;
	kind text;
	res record;
BEGIN
	FOR r IN 0..reps LOOP
		FOR kk IN SELECT * FROM skipam_keys ORDER BY i LOOP
			FOREACH kind IN ARRAY ARRAY['present', 'absent'] LOOP
				SELECT * INTO res FROM skipam_run(
					format('SELECT count(*) AS n, max(ts) AS m FROM spans WHERE trace_id = %s',
						   CASE kind WHEN 'present' THEN kk.present ELSE kk.absent END),
					'enable_seqscan=off', r = 0);
				INSERT INTO skipam_r VALUES (sc, ix, kind, r, kk.i, res.ms, res.buffers, res.idx_pages, res.nrows, res.plan);
				IF r = 0 AND kk.i = 1 THEN
					-- the plan the planner picks unforced
					SELECT * INTO res FROM skipam_run(
						format('SELECT count(*) AS n, max(ts) AS m FROM spans WHERE trace_id = %s',
							   CASE kind WHEN 'present' THEN kk.present ELSE kk.absent END),
						NULL, true);
					INSERT INTO skipam_r VALUES (sc, ix, kind || ' (unforced)', r, kk.i, res.ms, res.buffers, NULL, NULL, res.plan);
				END IF;
			END LOOP;
		END LOOP;
	END LOOP;
END $$;

-- the many-key cases, interleaved: = ANY of 10 and 1,000 keys (the index
-- forced as for point lookups), and the join of 1,000 incoming ids forced to a nested loop over a parameterized
-- bitmap scan (the planner's choice where no bitmap path exists)
CREATE FUNCTION skipam_many_query(kase text) RETURNS text
LANGUAGE sql STABLE AS $$
	SELECT CASE kase
		WHEN 'join' THEN 'SELECT count(*) AS n, max(s.ts) AS m FROM incoming i JOIN spans s ON s.trace_id = i.id'
		ELSE format('SELECT count(*) AS n, max(ts) AS m FROM spans WHERE trace_id = ANY (%L::bigint[])',
					(SELECT ids FROM skipam_sets WHERE name = kase))
	END
$$;

CREATE FUNCTION skipam_many(sc bigint, ix text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	kase text;
	res record;
BEGIN
	FOR r IN 0..reps LOOP
		FOREACH kase IN ARRAY ARRAY['any10', 'any1000', 'join'] LOOP
			SELECT * INTO res FROM skipam_run(skipam_many_query(kase),
				CASE kase WHEN 'join' THEN 'enable_hashjoin=off,enable_mergejoin=off,enable_material=off,enable_seqscan=off,enable_indexscan=off,enable_indexonlyscan=off'
						  ELSE 'enable_seqscan=off' END,
				r = 0);
			INSERT INTO skipam_r VALUES (sc, ix, kase, r, NULL, res.ms, res.buffers, res.idx_pages, res.nrows, res.plan);
		END LOOP;
	END LOOP;
END $$;

-- a column whose values are in every range: the plan the planner picks
-- against a forced sequential scan, interleaved
CREATE FUNCTION skipam_every(sc bigint, ix text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	kase text;
	res record;
BEGIN
	FOR r IN 0..reps LOOP
		FOREACH kase IN ARRAY ARRAY['every-chosen', 'every-seq'] LOOP
			SELECT * INTO res FROM skipam_run(
				'SELECT count(*) AS n, max(ts) AS m FROM spans WHERE name = ''db.select''',
				CASE kase WHEN 'every-seq' THEN 'enable_bitmapscan=off,enable_indexscan=off,enable_indexonlyscan=off' END,
				r = 0);
			INSERT INTO skipam_r VALUES (sc, ix, kase, r, NULL, res.ms, res.buffers, res.idx_pages, res.nrows, res.plan);
		END LOOP;
	END LOOP;
END $$;

-- 1,000,000 new spans (new traces, after the table's last row) in one
-- INSERT ... SELECT, timed, then rolled back (a subtransaction ended by an
-- error): the table keeps its rows; the dead pages at its end go with the
-- VACUUM that follows (skipam.sh)
CREATE FUNCTION skipam_insert(sc bigint, ix text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0	timestamptz;
	ms	float8;
BEGIN
	FOR r IN 1..reps LOOP
		BEGIN
			t0 := clock_timestamp();
			EXECUTE format('INSERT INTO spans SELECT * FROM skipam_rows(%s, %s)', sc, sc + 999999);
			ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
			RAISE EXCEPTION 'skipam: roll back the inserted rows';
		EXCEPTION WHEN raise_exception THEN
			INSERT INTO skipam_r (scale, idx, kase, rep, ms, nrows) VALUES (sc, ix, 'insert', r, ms, 1000000);
		END;
	END LOOP;
END $$;

-- CREATE INDEX, timed; its size; an error (an option the AM does not know,
-- an operator class it lacks) is recorded, not raised
CREATE FUNCTION skipam_build(sc bigint, ix text, c text, ddl text) RETURNS bool
LANGUAGE plpgsql AS $$
DECLARE
	t0	timestamptz;
	ms	float8;
BEGIN
	t0 := clock_timestamp();
	EXECUTE ddl;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
	INSERT INTO skipam_idx VALUES (sc, ix, c, ddl, ms, pg_relation_size('spans_ix'), NULL);
	IF (SELECT a.amname FROM pg_class r JOIN pg_am a ON a.oid = r.relam WHERE r.oid = 'spans_ix'::regclass) = 'bloomskip' THEN
		-- dynamic: the function exists only where the access method does
		EXECUTE 'UPDATE skipam_idx SET info = (SELECT row_to_json(i)::text FROM bloomskip_info(''spans_ix'') AS i)'
			|| ' WHERE scale = $1 AND idx = $2 AND col = $3' USING sc, ix, c;
	END IF;
	RETURN true;
EXCEPTION WHEN OTHERS THEN
	INSERT INTO skipam_idx VALUES (sc, ix, c, ddl, NULL, NULL, SQLERRM);
	RETURN false;
END $$;

-- the oracle: the rows of every key looked up, counted by one sequential
-- scan (no index on the table at that moment)
CREATE FUNCTION skipam_oracle(sc bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM skipam_set('enable_bitmapscan=off,enable_indexscan=off,enable_indexonlyscan=off');
	-- a hash join: one pass over the table, a hash probe a row
	CREATE TEMP TABLE skipam_all AS
		SELECT present AS id FROM skipam_keys UNION SELECT absent FROM skipam_keys
		UNION SELECT unnest(ids) FROM skipam_sets UNION SELECT id FROM incoming;
	ANALYZE skipam_all;
	CREATE TEMP TABLE skipam_cnt AS
		SELECT s.trace_id, count(*) AS n FROM spans s JOIN skipam_all a ON a.id = s.trace_id
		 GROUP BY s.trace_id;
	INSERT INTO skipam_expect
		SELECT sc, 'present', i, coalesce((SELECT n FROM skipam_cnt WHERE trace_id = present), 0) FROM skipam_keys
		UNION ALL
		SELECT sc, 'absent', i, coalesce((SELECT n FROM skipam_cnt WHERE trace_id = absent), 0) FROM skipam_keys
		UNION ALL
		SELECT sc, name, NULL, (SELECT coalesce(sum(n), 0) FROM skipam_cnt WHERE trace_id = ANY (ids)) FROM skipam_sets
		UNION ALL
		SELECT sc, 'join', NULL, (SELECT coalesce(sum(c.n), 0) FROM incoming i JOIN skipam_cnt c ON c.trace_id = i.id)
		UNION ALL
		SELECT sc, 'every', NULL, (SELECT count(*) FROM spans WHERE name = 'db.select');
	DROP TABLE skipam_cnt, skipam_all;
	PERFORM skipam_set('enable_bitmapscan=on,enable_indexscan=on,enable_indexonlyscan=on');
END $$;

-- ---------------------------------------------------------------------------
-- the report's figures
-- ---------------------------------------------------------------------------
CREATE FUNCTION skipam_med(float8[]) RETURNS float8
LANGUAGE sql IMMUTABLE AS $$
	SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM unnest($1) AS x
$$;

-- per scale, index and case: median time of the timed rounds, median
-- buffers and index pages of the EXPLAIN round, the plan (of key 1), and
-- runs whose count differs from the oracle's
CREATE VIEW skipam_sum AS
	SELECT r.scale, r.idx, r.kase,
		   skipam_med(array_agg(r.ms) FILTER (WHERE r.rep > 0)) AS ms,
		   min(r.ms) FILTER (WHERE r.rep > 0) AS lo, max(r.ms) FILTER (WHERE r.rep > 0) AS hi,
		   count(*) FILTER (WHERE r.rep > 0) AS runs,
		   skipam_med(array_agg(r.buffers::float8) FILTER (WHERE r.rep = 0)) AS buffers,
		   skipam_med(array_agg(r.idx_pages::float8) FILTER (WHERE r.rep = 0)) AS idx_pages,
		   max(r.plan) FILTER (WHERE r.rep = 0 AND coalesce(r.k, 1) = 1) AS plan,
		   count(*) FILTER (WHERE r.rep > 0 AND r.kase <> 'insert'
							AND r.nrows IS DISTINCT FROM e.nrows) AS wrong
	  FROM skipam_r r
	  LEFT JOIN skipam_expect e ON e.scale = r.scale AND e.k IS NOT DISTINCT FROM r.k
		   AND e.kase = CASE WHEN r.kase LIKE 'every%' THEN 'every' ELSE r.kase END
	 GROUP BY r.scale, r.idx, r.kase;

CREATE FUNCTION skipam_f(x float8, digits int DEFAULT 1) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN x IS NULL THEN '–'
				WHEN digits = 0 OR x >= 100 THEN to_char(round(x), 'FM999,999,999,990')
				ELSE to_char(round(x::numeric, digits), 'FM999,999,990.' || repeat('0', digits)) END
$$;

CREATE FUNCTION skipam_get(sc bigint, ix text, ks text, what text) RETURNS float8
LANGUAGE sql STABLE AS $$
	SELECT CASE what WHEN 'ms' THEN ms WHEN 'buffers' THEN buffers WHEN 'idx_pages' THEN idx_pages END
	  FROM skipam_sum WHERE scale = sc AND idx = ix AND kase = ks
$$;

-- milliseconds a million inserted rows add with the index (median with it
-- minus the median of the no-index rounds of the same scale)
CREATE FUNCTION skipam_insert_add(sc bigint, ix text) RETURNS float8
LANGUAGE sql STABLE AS $$
	SELECT skipam_get(sc, ix, 'insert', 'ms') - skipam_get(sc, 'none', 'insert', 'ms')
$$;

-- one Markdown table row per index of a full scale
CREATE FUNCTION skipam_table(sc bigint) RETURNS SETOF text
LANGUAGE sql STABLE AS $$
	SELECT format('| %s | `%s` | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s (%s %%) | %s |',
		i.idx, regexp_replace(i.ddl, '^CREATE INDEX spans_ix ON spans ', ''),
		pg_size_pretty(i.bytes), skipam_f(i.build_ms / 1000.0, 1),
		skipam_f(skipam_get(sc, i.idx, 'present', 'ms'), 2), skipam_f(skipam_get(sc, i.idx, 'present', 'buffers'), 0),
		skipam_f(skipam_get(sc, i.idx, 'absent', 'ms'), 2), skipam_f(skipam_get(sc, i.idx, 'absent', 'buffers'), 0),
		skipam_f(skipam_get(sc, i.idx, 'present', 'idx_pages'), 0), skipam_f(skipam_get(sc, i.idx, 'absent', 'idx_pages'), 0),
		skipam_f(skipam_get(sc, i.idx, 'any10', 'ms'), 2), skipam_f(skipam_get(sc, i.idx, 'any1000', 'ms'), 1),
		skipam_f(skipam_get(sc, i.idx, 'join', 'ms'), 1),
		skipam_f(skipam_insert_add(sc, i.idx), 0),
		skipam_f(100 * skipam_insert_add(sc, i.idx) / skipam_get(sc, 'none', 'insert', 'ms'), 0),
		CASE WHEN (SELECT sum(wrong) FROM skipam_sum s WHERE s.scale = sc AND s.idx = i.idx) = 0 THEN 'yes'
			 ELSE 'NO: ' || (SELECT sum(wrong) FROM skipam_sum s WHERE s.scale = sc AND s.idx = i.idx) || ' runs differ' END)
	  FROM skipam_idx i
	 WHERE i.scale = sc AND i.col = 'trace_id' AND i.err IS NULL
	 ORDER BY i.ctid
$$;
