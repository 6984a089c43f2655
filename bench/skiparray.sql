-- bench/skiparray.sql -- tables and timing functions of the skiparray group
-- (bench/skiparray.sh): bloomskip's array and jsonb classes
-- (array_bloomskip_ops, jsonb_bloomskip_ops) against GIN (array_ops,
-- jsonb_ops, jsonb_path_ops) and the sequential scan, on events with a
-- text[] of tags, a bigint[] of ids and a jsonb of attributes.
--
-- Events (ska_event(i), in insertion order):
--   tags:  env:0..2 (a third each: the common value), svc:0..49, and
--          user:U with U = i * 7919 mod 100003 (one event in 100,003,
--          scattered over the table: the rare tag)
--   ids:   i, i * 31337 mod 1000003 (the rare id: one event in 1,000,003
--          and event i) and a batch id, 1000000000 + i mod 10 (the common id)
--   attrs: {"user": {"id": U, "tier": i mod 3}, "http": {"status": 200,
--          404 or 500}, "kN": true (N = i mod 40)}, plus "quokka": 1 on one
--          event in 250,000 (the rare key)
--   and on one event in 100,000 (i mod 100000 = 7, a traced event) values
--   of its own: the tag trace:i, the id 2000000000 + i, and in attrs the
--   pair {"trace": {"id": i}} and the top-level key span_i.  A rare value
--   of the first kind lies on a few rows spread over the table, one range
--   each; a traced event's lies in one range (the "one-event" cases).
-- Each case is a condition on one column, run as the planner plans it with
-- whichever index exists on that column (ska_measure); 'forced' rows run
-- the common case as a sequential scan and as a bitmap scan of the index.

CREATE TABLE ska_case (ord int, col text, kase text, cond text, expect bigint);
CREATE TABLE ska_idx (ord serial, idx text, col text, ddl text, build_ms float8, bytes bigint,
	append_ms float8, info text);
CREATE TABLE ska_r (idx text, kase text, mode text, rep int, ms float8, buffers bigint, nrows bigint, plan text,
	index_buffers bigint, heap_pages bigint);
-- per bloomskip index and rare case: the ranges the bitmap returned (the
-- summarized ones; the open tail's pages apart), and how many of them hold a
-- matching row (the rest are the filters' false positives)
CREATE TABLE ska_ranges (idx text, kase text, returned bigint, holding bigint, tail_pages bigint);

CREATE FUNCTION ska_tags(i bigint) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
	SELECT ARRAY['env:' || (i % 3), 'svc:' || (i % 50), 'user:' || (i * 7919 % 100003)]
		|| CASE WHEN i % 100000 = 7 THEN ARRAY['trace:' || i] ELSE '{}' END
$$;
CREATE FUNCTION ska_ids(i bigint) RETURNS bigint[] LANGUAGE sql IMMUTABLE AS $$
	SELECT ARRAY[i, i * 31337 % 1000003, 1000000000 + i % 10]
		|| CASE WHEN i % 100000 = 7 THEN ARRAY[2000000000 + i] ELSE '{}' END
$$;
CREATE FUNCTION ska_attrs(i bigint) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
	SELECT jsonb_build_object('user', jsonb_build_object('id', i * 7919 % 100003, 'tier', i % 3),
		'http', jsonb_build_object('status', (ARRAY[200, 404, 500])[i % 3 + 1]),
		'k' || (i % 40), true)
		|| CASE WHEN i % 250000 = 3 THEN '{"quokka": 1}'::jsonb ELSE '{}' END
		|| CASE WHEN i % 100000 = 7 THEN jsonb_build_object('trace', jsonb_build_object('id', i), 'span_' || i, true)
			ELSE '{}' END
$$;

CREATE FUNCTION ska_load(n bigint) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	x bigint := n / 200000 * 100000 + 7;	-- the traced event in the middle of the table
	env text := 'env:' || x % 3;
	status int := (ARRAY[200, 404, 500])[x % 3 + 1];
BEGIN
	SET LOCAL client_min_messages = warning;
	DROP TABLE IF EXISTS ev;
	CREATE TABLE ev (id bigint, ts timestamptz, tags text[], ids bigint[], attrs jsonb);
	INSERT INTO ev SELECT i, timestamptz '2026-01-01' + i * interval '10 ms', ska_tags(i), ska_ids(i), ska_attrs(i)
	FROM generate_series(1, n) i;
	TRUNCATE ska_case;
	INSERT INTO ska_case VALUES
		(1, 'tags', 'rare tag', $$tags @> ARRAY['user:4242']$$, NULL),
		(2, 'tags', 'rare tag AND common tag', $$tags @> ARRAY['user:4242', 'env:1']$$, NULL),
		(3, 'tags', 'rare tag OR rare tag (&&)', $$tags && ARRAY['user:4242', 'user:777']$$, NULL),
		(4, 'tags', 'one-event tag', format('tags @> ARRAY[%L]', 'trace:' || x), NULL),
		(5, 'tags', 'one-event tag AND common tag', format('tags @> ARRAY[%L, %L]', 'trace:' || x, env), NULL),
		(6, 'tags', 'common tag', $$tags @> ARRAY['env:1']$$, NULL),
		(7, 'ids', 'rare id', $$ids @> ARRAY[777777::bigint]$$, NULL),
		(8, 'ids', 'one-event id', format('ids @> ARRAY[%s::bigint]', 2000000000 + x), NULL),
		(9, 'ids', 'common id', $$ids @> ARRAY[1000000003::bigint]$$, NULL),
		(10, 'attrs', 'rare key (?)', $$attrs ? 'quokka'$$, NULL),
		(11, 'attrs', 'one-event key (?)', format('attrs ? %L', 'span_' || x), NULL),
		(12, 'attrs', 'rare key-value pair (@>)', $$attrs @> '{"user": {"id": 4242}}'$$, NULL),
		(13, 'attrs', 'one-event pair (@>)', format('attrs @> %L', jsonb_build_object('trace', jsonb_build_object('id', x))), NULL),
		(14, 'attrs', 'rare pair AND common pair', $$attrs @> '{"user": {"id": 4242}, "http": {"status": 404}}'$$, NULL),
		(15, 'attrs', 'one-event pair AND common pair', format('attrs @> %L', jsonb_build_object('trace',
			jsonb_build_object('id', x), 'http', jsonb_build_object('status', status))), NULL),
		(16, 'attrs', 'common pair (@>)', $$attrs @> '{"http": {"status": 404}}'$$, NULL);
END
$fn$;

-- the oracle: each case's count by a sequential scan, before any index
CREATE FUNCTION ska_oracle() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	n bigint;
BEGIN
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL enable_indexscan = off;
	FOR c IN SELECT * FROM ska_case ORDER BY ord LOOP
		EXECUTE 'SELECT count(*) FROM ev WHERE ' || c.cond INTO n;
		UPDATE ska_case SET expect = n WHERE ord = c.ord;
	END LOOP;
END
$$;

-- build an index (ddl, on ev; NULL: none) and record its size and time
CREATE FUNCTION ska_build(label text, column_name text, ddl text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	ms float8;
BEGIN
	IF ddl IS NOT NULL THEN
		EXECUTE ddl;
	END IF;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
	INSERT INTO ska_idx (idx, col, ddl, build_ms, bytes, info)
	SELECT label, column_name, ddl, CASE WHEN ddl IS NULL THEN NULL ELSE ms END,
		CASE WHEN ddl IS NULL THEN NULL ELSE pg_relation_size(to_regclass('ev_ix')) END,
		CASE WHEN label LIKE 'bloomskip%' THEN
			(SELECT format('%s bits and %s hashes a range of %s pages, rate %s, %s ranges',
						   bits_per_range, hashes, pages_per_range, round(target_rate::numeric, 4), ranges)
			   FROM bloomskip_info(to_regclass('ev_ix'))) END;
END
$$;

-- per index, the same appends into the table without any index, run right
-- before its build: the index's share of its appends is the difference
-- (one baseline for all moved by up to 60 % between indexes on this
-- machine's default configuration)
CREATE TABLE ska_base (idx text, base_ms float8);

-- The n events appended after the table's base: made once, so that each
-- timed append inserts the same rows and its time is not that of making
-- them (the tags, ids and documents cost more to compute than to insert,
-- and their time varied by more than an index's share between runs)
CREATE FUNCTION ska_prepare_appends(base bigint, n bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	DROP TABLE IF EXISTS ska_next;
	CREATE UNLOGGED TABLE ska_next AS
	SELECT i AS id, timestamptz '2026-01-01' + i * interval '10 ms' AS ts, ska_tags(i) AS tags,
		ska_ids(i) AS ids, ska_attrs(i) AS attrs
	FROM generate_series(base + 1, base + n) i;
	CREATE INDEX ON ska_next (id);
	ANALYZE ska_next;
END
$$;

-- appends: the n events of ska_next after the first "base" inserted into ev
-- (in batches of 10,000, as a loader commits), ms, recorded as label's
-- appends or, with baseline, as its baseline, where faster than an earlier
-- round; then deleted again (the caller's VACUUM truncates them away,
-- untimed)
CREATE FUNCTION ska_append(label text, base bigint, n bigint, baseline boolean DEFAULT false) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	ms float8;
BEGIN
	FOR b IN 0 .. (n - 1) / 10000 LOOP
		INSERT INTO ev SELECT * FROM ska_next
		WHERE id > base + b * 10000 AND id <= base + least((b + 1) * 10000, n) ORDER BY id;
	END LOOP;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
	-- the fastest round is kept
	IF baseline THEN
		UPDATE ska_base SET base_ms = least(base_ms, ms) WHERE idx = label;
		IF NOT FOUND THEN
			INSERT INTO ska_base VALUES (label, ms);
		END IF;
	ELSE
		UPDATE ska_idx SET append_ms = least(coalesce(append_ms, ms), ms) WHERE idx = label;
	END IF;
	DELETE FROM ev WHERE id > base;
END
$$;

-- the buffers of a plan's index scans (Bitmap Index Scan nodes)
CREATE FUNCTION ska_index_buffers(p json) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN p->>'Node Type' = 'Bitmap Index Scan' THEN sng_buffers(p) ELSE 0 END +
		coalesce((SELECT sum(ska_index_buffers(c))::bigint FROM json_array_elements(p->'Plans') AS c), 0)
$$;

-- the heap pages a plan's bitmap heap scans visit (lossy and exact); NULL without one
CREATE FUNCTION ska_heap_pages(p json) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN p->>'Node Type' = 'Bitmap Heap Scan'
		THEN coalesce((p->>'Lossy Heap Blocks')::bigint, 0) + coalesce((p->>'Exact Heap Blocks')::bigint, 0)
		ELSE (SELECT max(ska_heap_pages(c)) FROM json_array_elements(p->'Plans') AS c) END
$$;

-- For a bloomskip index's bitmap scan of case c that visited heap_pages
-- pages: the summarized ranges it returned and how many hold a matching row
-- (by a sequential scan: the block numbers of the rows c finds)
CREATE FUNCTION ska_count_ranges(label text, c ska_case, heap_pages bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	ppr bigint;
	summarized bigint;
	tail bigint;
	holding bigint;
BEGIN
	SELECT pages_per_range, summarized_ranges INTO ppr, summarized FROM bloomskip_info(to_regclass('ev_ix'));
	tail := greatest(pg_relation_size('ev') / 8192 - summarized * ppr, 0);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE 'SELECT count(DISTINCT (ctid::text::point)[0]::bigint / ' || ppr || ') FROM ev WHERE '
		|| c.cond || ' AND (ctid::text::point)[0]::bigint < ' || summarized * ppr INTO holding;
	PERFORM set_config('enable_bitmapscan', 'on', true);
	INSERT INTO ska_ranges VALUES (label, c.kase, (heap_pages - tail + ppr - 1) / ppr, holding, tail);
END
$$;

-- the plans mode allows, for the rest of the transaction: every plan
-- ('planner'), the sequential scan only ('seq forced') or no sequential
-- scan ('index forced')
CREATE FUNCTION ska_mode(mode text) RETURNS void
LANGUAGE sql AS $$
	SELECT set_config('enable_bitmapscan', (mode <> 'seq forced')::text, true),
		set_config('enable_indexscan', (mode <> 'seq forced')::text, true),
		set_config('enable_seqscan', (mode <> 'index forced')::text, true);
$$;

-- round 0 of case c under mode: EXPLAIN (ANALYZE, BUFFERS), its plan and buffers
CREATE FUNCTION ska_explain(label text, c ska_case, mode text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	j json;
BEGIN
	PERFORM ska_mode(mode);
	EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF, FORMAT JSON) SELECT count(*) FROM ev WHERE '
		|| c.cond INTO j;
	INSERT INTO ska_r VALUES (label, c.kase, mode, 0, NULL, sng_buffers(j->0->'Plan'), NULL, sng_plan(j->0->'Plan'),
		ska_index_buffers(j->0->'Plan'), ska_heap_pages(j->0->'Plan'));
	PERFORM ska_mode('planner');
END
$$;

-- timed round r of case c under mode
CREATE FUNCTION ska_time(label text, c ska_case, mode text, r int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	n bigint;
BEGIN
	PERFORM ska_mode(mode);
	t0 := clock_timestamp();
	EXECUTE 'SELECT count(*) FROM ev WHERE ' || c.cond INTO n;
	INSERT INTO ska_r VALUES (label, c.kase, mode, r, 1000 * extract(epoch FROM clock_timestamp() - t0), NULL, n, NULL);
	PERFORM ska_mode('planner');
END
$$;

-- every case of column col as the planner plans it; for bloomskip, the
-- common cases also forced both ways, the three modes' timed rounds
-- interleaved (a second-long scan's time drifts with the machine: rounds
-- of one mode in a row compared a drift, not the plans)
CREATE FUNCTION ska_measure(label text, column_name text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c ska_case;
	modes text[];
BEGIN
	FOR c IN SELECT * FROM ska_case WHERE column_name IS NULL OR col = column_name ORDER BY ord LOOP
		modes := CASE WHEN label LIKE 'bloomskip%' AND c.kase LIKE 'common%'
			THEN ARRAY['planner', 'seq forced', 'index forced'] ELSE ARRAY['planner'] END;
		FOR m IN 1 .. cardinality(modes) LOOP
			PERFORM ska_explain(label, c, modes[m]);
		END LOOP;
		FOR r IN 1 .. reps LOOP
			FOR m IN 1 .. cardinality(modes) LOOP
				PERFORM ska_time(label, c, modes[m], r);
			END LOOP;
		END LOOP;
		IF label LIKE 'bloomskip%' AND c.kase NOT LIKE 'common%' THEN
			PERFORM ska_count_ranges(label, c, (SELECT heap_pages FROM ska_r r
				WHERE r.idx = label AND r.kase = c.kase AND r.mode = 'planner' AND r.rep = 0));
		END IF;
	END LOOP;
END
$$;

-- per index, case and mode: median ms, buffers, plan, counts right
CREATE VIEW ska_sum AS
SELECT r.idx, r.kase, r.mode, c.ord, c.col,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.rep > 0) AS ms,
	max(r.buffers) FILTER (WHERE r.rep = 0) AS buffers,
	max(r.plan) FILTER (WHERE r.rep = 0) AS plan,
	max(r.index_buffers) FILTER (WHERE r.rep = 0) AS index_buffers,
	max(r.heap_pages) FILTER (WHERE r.rep = 0) AS heap_pages,
	count(*) FILTER (WHERE r.rep > 0 AND r.nrows IS DISTINCT FROM c.expect) AS wrong
  FROM ska_r r JOIN ska_case c ON c.kase = r.kase
 GROUP BY r.idx, r.kase, r.mode, c.ord, c.col;

-- Index size against distinct keys per range (bench/skiparray.sh's last
-- step, BENCH_SKIPARRAY_KEYS): a table ska_kpr of n rows, each a text[] of
-- 8 tags k:0 .. k:(d - 1) taken in turn, so that every range of the default
-- 16 pages (about 800 rows, 6,400 tags) holds all d values once d is at
-- most a few thousand; bloomskip's size and build time against GIN's, and
-- the keys per range its sizing was designed for (bloomskip_info's
-- design_keys_per_range: 1.5 times the 95th percentile the build saw).
CREATE TABLE ska_kpr_r (d int, idx text, bytes bigint, build_ms float8, keys_per_range float8,
	bits_per_range int);
CREATE FUNCTION ska_kpr(n bigint, d int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
BEGIN
	SET LOCAL client_min_messages = warning;
	DROP TABLE IF EXISTS ska_kpr_t;
	CREATE TABLE ska_kpr_t AS
	SELECT i AS id, ARRAY(SELECT 'k:' || ((i * 8 + j) % d) FROM generate_series(0, 7) j) AS tags
	FROM generate_series(1, n) i;
	t0 := clock_timestamp();
	CREATE INDEX ska_kpr_ix ON ska_kpr_t USING bloomskip (tags);
	INSERT INTO ska_kpr_r SELECT d, 'bloomskip', pg_relation_size('ska_kpr_ix'),
		1000 * extract(epoch FROM clock_timestamp() - t0), design_keys_per_range, bits_per_range
	  FROM bloomskip_info('ska_kpr_ix');
	DROP INDEX ska_kpr_ix;
	t0 := clock_timestamp();
	CREATE INDEX ska_kpr_ix ON ska_kpr_t USING gin (tags);
	INSERT INTO ska_kpr_r SELECT d, 'GIN array_ops', pg_relation_size('ska_kpr_ix'),
		1000 * extract(epoch FROM clock_timestamp() - t0), NULL, NULL;
	DROP TABLE ska_kpr_t;
END
$$;
