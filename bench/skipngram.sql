-- bench/skipngram.sql -- tables and timing functions of the skipngram group
-- (bench/skipngram.sh): bloomskip's n-gram operator class against pg_trgm's
-- GIN index and the sequential scan, for LIKE '%needle%' on log lines.
--
-- The logs table: about 80 bytes a line, "time LEVEL service: object verb
-- user=N host=webN trace=T", from 300 message templates (15 objects x 20 verbs), a
-- user number (100,000 values), and a trace token of 10 base64 characters
-- (random, so a trace needle is in one line); one line in 10,007 is a rare
-- event, "disk quota exceeded on volume vN".  Every value is a hash of the
-- line number: the same on every run.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE FUNCTION sng_trace(i bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT substr(encode(int8send(hashint8extended(i, 2)) || int8send(hashint8extended(i, 3)), 'base64'), 1, 10)
$$;

CREATE FUNCTION sng_line(i bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT to_char(timestamp '2026-11-01' + i * interval '10 ms', 'HH24:MI:SS.MS') || ' ' ||
		(ARRAY['INFO', 'INFO', 'INFO', 'INFO', 'WARN', 'ERROR', 'DEBUG'])[1 + (h % 7)::int] || ' ' ||
		(ARRAY['api', 'auth', 'billing', 'cart', 'search', 'mailer', 'worker', 'gateway',
			   'storage', 'scheduler', 'reports', 'payments'])[1 + (h / 7 % 12)::int] || ': ' ||
		CASE WHEN i % 10007 = 0 THEN 'disk quota exceeded on volume v' || (i % 7)
		ELSE (ARRAY['request', 'session', 'payment', 'order', 'invoice', 'upload', 'download',
					'connection', 'transaction', 'cache entry', 'job', 'report', 'email', 'token',
					'checkpoint'])[1 + (h / 84 % 15)::int] || ' ' ||
			 (ARRAY['started', 'finished', 'failed', 'retried', 'skipped', 'queued', 'cancelled',
					'timed out', 'accepted', 'rejected', 'opened', 'closed', 'flushed', 'loaded',
					'saved', 'deleted', 'updated', 'created', 'scheduled', 'throttled'])[1 + (h / 1260 % 20)::int]
		END ||
		' user=' || (h / 25200 % 100000) || ' host=web' || (h / 7 % 40) || ' trace=' || sng_trace(i)
	FROM (SELECT abs(hashint8extended(i, 1)) AS h) s
$$;

-- the cases: a needle in one line (one range), a rare event (~1 line in
-- 10,000: a tenth of the ranges), a word in one line in 7 (every range; the
-- planner knows it is common: it is in ANALYZE's histogram)
CREATE TABLE sng_case (ord int, kase text, pattern text, expect bigint);
CREATE TABLE sng_idx (ord serial, idx text, ddl text, build_ms float8, bytes bigint, info text);
CREATE TABLE sng_r (idx text, kase text, rep int, ms float8, buffers bigint, nrows bigint, plan text);

CREATE FUNCTION sng_load(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL client_min_messages = warning;
	DROP TABLE IF EXISTS logs;
	CREATE TABLE logs (id bigint, msg text);
	INSERT INTO logs SELECT i, sng_line(i) FROM generate_series(1, n) AS i;
	TRUNCATE sng_case;
	INSERT INTO sng_case VALUES
		(1, 'rare (1 line)', '%trace=' || sng_trace(n * 2 / 3) || '%'),
		(2, 'medium (1 line in 10,007)', '%quota exceeded%'),
		(3, 'common (1 line in 7)', '%ERROR%');
END
$$;

-- the oracle: each case's count by a sequential scan, before any index
CREATE FUNCTION sng_oracle() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	n bigint;
BEGIN
	SET LOCAL enable_bitmapscan = off;
	SET LOCAL enable_indexscan = off;
	FOR c IN SELECT * FROM sng_case ORDER BY ord LOOP
		EXECUTE 'SELECT count(*) FROM logs WHERE msg LIKE $1' INTO n USING c.pattern;
		UPDATE sng_case SET expect = n WHERE ord = c.ord;
	END LOOP;
END
$$;

-- build an index (named logs_ix) and record its build time and size
CREATE FUNCTION sng_build(label text, ddl text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	ms float8;
BEGIN
	IF ddl IS NOT NULL THEN
		EXECUTE ddl;
	END IF;
	ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
	INSERT INTO sng_idx (idx, ddl, build_ms, bytes, info)
	SELECT label, ddl, CASE WHEN ddl IS NULL THEN NULL ELSE ms END,
		CASE WHEN ddl IS NULL THEN NULL ELSE pg_relation_size(to_regclass('logs_ix')) END,
		CASE WHEN label LIKE 'bloomskip%' THEN
			(SELECT format('%s bits and %s hashes a range of %s pages, rate %s, %s ranges',
						   bits_per_range, hashes, pages_per_range, round(target_rate::numeric, 4), ranges)
			   FROM bloomskip_info(to_regclass('logs_ix'))) END;
END
$$;

-- shared hit + read of a plan (the top node counts its children's)
CREATE FUNCTION sng_buffers(p json) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce((p->>'Shared Hit Blocks')::bigint, 0) + coalesce((p->>'Shared Read Blocks')::bigint, 0)
$$;

-- the node types of a plan, top down, with the index scanned
CREATE FUNCTION sng_plan(p json) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT concat_ws(' > ', (p->>'Node Type') || coalesce(' on ' || (p->>'Index Name'), ''),
		(SELECT string_agg(sng_plan(c), ', ') FROM json_array_elements(p->'Plans') AS c))
$$;

-- every case: round 0 under EXPLAIN (ANALYZE, BUFFERS) (plan and buffers),
-- rounds 1 .. reps timed; the planner chooses the plan (for 'none', no
-- index exists)
CREATE FUNCTION sng_measure(label text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	c record;
	j json;
	t0 timestamptz;
	n bigint;
BEGIN
	FOR c IN SELECT * FROM sng_case ORDER BY ord LOOP
		EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF, FORMAT JSON) SELECT count(*) FROM logs WHERE msg LIKE '
			|| quote_literal(c.pattern) INTO j;
		INSERT INTO sng_r VALUES (label, c.kase, 0, NULL, sng_buffers(j->0->'Plan'), NULL, sng_plan(j->0->'Plan'));
		FOR r IN 1 .. reps LOOP
			t0 := clock_timestamp();
			EXECUTE 'SELECT count(*) FROM logs WHERE msg LIKE ' || quote_literal(c.pattern) INTO n;
			INSERT INTO sng_r VALUES (label, c.kase, r, 1000 * extract(epoch FROM clock_timestamp() - t0), NULL, n, NULL);
		END LOOP;
	END LOOP;
END
$$;

-- per index and case: median ms, buffers, plan, counts right
CREATE VIEW sng_sum AS
SELECT r.idx, r.kase, c.ord,
	percentile_cont(0.5) WITHIN GROUP (ORDER BY r.ms) FILTER (WHERE r.rep > 0) AS ms,
	max(r.buffers) FILTER (WHERE r.rep = 0) AS buffers,
	max(r.plan) FILTER (WHERE r.rep = 0) AS plan,
	count(*) FILTER (WHERE r.rep > 0 AND r.nrows IS DISTINCT FROM c.expect) AS wrong,
	count(*) FILTER (WHERE r.rep > 0) AS runs
  FROM sng_r r JOIN sng_case c ON c.kase = r.kase
 GROUP BY r.idx, r.kase, c.ord;
