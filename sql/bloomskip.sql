-- The skip index access method bloomskip.  The oracle throughout: the
-- rows a bitmap scan of the index returns are exactly the rows a
-- sequential scan returns (skip_diff counts the rows in one result and not
-- in the other, and says whether the index plan was used), and
-- bloomskip_check finds every visible row's keys in their range.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

-- the index plan's rows against the sequential scan's, and whether the
-- index plan used the given index
CREATE FUNCTION skip_diff(tbl text, cond text, idx text,
	OUT used boolean, OUT nrows bigint, OUT diff bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM %s WHERE %s', tbl, cond) LOOP
		plan := plan || line || E'\n';
	END LOOP;
	used := plan LIKE '%Bitmap Index Scan on ' || idx || E'\n%';
	EXECUTE format('CREATE TEMP TABLE skip_ix AS SELECT tableoid::regclass::text || ctid::text AS c FROM %s WHERE %s', tbl, cond);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE skip_sq AS SELECT tableoid::regclass::text || ctid::text AS c FROM %s WHERE %s', tbl, cond);
	SELECT count(*) INTO nrows FROM skip_sq;
	SELECT count(*) INTO diff FROM ((TABLE skip_ix EXCEPT ALL TABLE skip_sq)
		UNION ALL (TABLE skip_sq EXCEPT ALL TABLE skip_ix)) d;
	DROP TABLE skip_ix;
	DROP TABLE skip_sq;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
END
$$;

-- a table of every supported type, ~30 rows a page
CREATE TABLE spans (id int8, i4 int4, i2 int2, t text, v varchar(40), b bytea,
	u uuid, d date, ts timestamp, tz timestamptz, n numeric, few int4, pad text)
	WITH (autovacuum_enabled = false);
CREATE FUNCTION fill_spans(lo int, hi int) RETURNS void LANGUAGE sql AS $$
	INSERT INTO spans
	SELECT i, i % 5000, (i % 300)::int2, md5(i::text), md5((i % 997)::text),
		decode(md5(i::text), 'hex'), md5(i::text)::uuid, date '2020-01-01' + i % 1000,
		timestamp '2020-01-01' + i * interval '1 minute',
		timestamptz '2020-01-01 00:00+00' + i * interval '1 second',
		(i % 1000)::numeric / 10, i % 3, repeat('x', 150)
	FROM generate_series(lo, hi) i
$$;
SELECT fill_spans(1, 20000);
CREATE INDEX spans_id ON spans USING bloomskip (id);
CREATE INDEX spans_i4 ON spans USING bloomskip (i4);
CREATE INDEX spans_i2 ON spans USING bloomskip (i2);
CREATE INDEX spans_t ON spans USING bloomskip (t);
CREATE INDEX spans_v ON spans USING bloomskip (v);
CREATE INDEX spans_b ON spans USING bloomskip (b);
CREATE INDEX spans_u ON spans USING bloomskip (u);
CREATE INDEX spans_d ON spans USING bloomskip (d);
CREATE INDEX spans_ts ON spans USING bloomskip (ts);
CREATE INDEX spans_tz ON spans USING bloomskip (tz);
CREATE INDEX spans_n ON spans USING bloomskip (n);
CREATE INDEX spans_few ON spans USING bloomskip (few);
ANALYZE spans;

-- the opclasses: every index's validation passes
SELECT opcname, amvalidate(oid) FROM pg_opclass
WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bloomskip') ORDER BY 1;

-- the parameters the build chose: 16 pages a range, rate 1 / ranges
SELECT pages_per_range, ranges, segments, bits_per_range, hashes, round(target_rate::numeric, 4) AS rate,
	design_keys_per_range, outgrown_ranges, estimated_rate < target_rate AS under_target
FROM bloomskip_info('spans_id');

-- every opclass and query form against the sequential scan
CREATE TABLE cases (tbl text, cond text, idx text);
INSERT INTO cases VALUES
	('spans', 'id = 4242', 'spans_id'),
	('spans', 'id = 4242::int4', 'spans_id'),
	('spans', 'id = 42::int2', 'spans_id'),
	('spans', 'id = -1', 'spans_id'),
	('spans', 'i4 = 77::int8', 'spans_i4'),
	('spans', 'i4 = 77::int2', 'spans_i4'),
	('spans', 'i2 = 5::int8', 'spans_i2'),
	('spans', 'i2 = 5', 'spans_i2'),
	('spans', 'id = ANY (ARRAY[1, 5000, 19999, -3]::int8[])', 'spans_id'),
	('spans', 'id = ANY (ARRAY[7, NULL]::int8[])', 'spans_id'),
	('spans', 'id = ANY (ARRAY[]::int8[])', 'spans_id'),
	('spans', 'id IN (3, 333, 3333)', 'spans_id'),
	('spans', 'i4 IN (3, 333, 3333::int8)', 'spans_i4'),
	('spans', 't = md5(''17'')', 'spans_t'),
	('spans', 't = ANY (ARRAY[md5(''1''), md5(''2''), ''absent''])', 'spans_t'),
	('spans', 'v = md5(''17'')', 'spans_v'),
	('spans', 'v = md5(''17'')::varchar', 'spans_v'),
	('spans', 'b = decode(md5(''99''), ''hex'')', 'spans_b'),
	('spans', 'u = md5(''12345'')::uuid', 'spans_u'),
	('spans', 'd = date ''2020-02-01''', 'spans_d'),
	('spans', 'ts = timestamp ''2020-01-02 00:00''', 'spans_ts'),
	('spans', 'tz = timestamptz ''2020-01-01 01:00+00''', 'spans_tz'),
	('spans', 'n = 1.5', 'spans_n'),
	('spans', 'n = 1.50000', 'spans_n'),
	('spans', 'n = 99.9', 'spans_n');
SELECT c.cond, r.* FROM cases c, skip_diff(c.tbl, c.cond, c.idx) r ORDER BY c.cond;
SELECT bloomskip_check(i) AS violations, count(*) AS indexes
FROM unnest(ARRAY['spans_id', 'spans_i4', 'spans_i2', 'spans_t', 'spans_v', 'spans_b', 'spans_u',
	'spans_d', 'spans_ts', 'spans_tz', 'spans_n', 'spans_few']::regclass[]) i
GROUP BY 1;
DROP INDEX spans_i4, spans_i2, spans_t, spans_v, spans_b, spans_u, spans_d, spans_ts, spans_tz, spans_n;

-- two columns: the conditions on both are ANDed; either alone uses it too
CREATE INDEX spans_multi ON spans USING bloomskip (i4, t);
DELETE FROM cases;
INSERT INTO cases VALUES
	('spans', 'i4 = 7 AND t = md5(''7'')', 'spans_multi'),
	('spans', 'i4 = 7 AND t = md5(''8'')', 'spans_multi'),
	('spans', 'i4 = ANY (ARRAY[7, 8]) AND t = md5(''8'')', 'spans_multi'),
	('spans', 'i4 = 77::int8', 'spans_multi'),
	('spans', 't = md5(''17'')', 'spans_multi');
SELECT c.cond, r.* FROM cases c, skip_diff(c.tbl, c.cond, c.idx) r ORDER BY c.cond;
SELECT bloomskip_check('spans_multi') AS violations;
-- a range's filter for each column: every row's value of that column is in
-- its range's filter for that column (each column hashes with its own seed)
CREATE TEMP TABLE multi_filters AS
SELECT r, bloomskip_range_filter('spans_multi', r) AS f1, bloomskip_range_filter('spans_multi', r, 2) AS f2
FROM generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info('spans_multi'))) r;
SELECT count(*) > 1000 AS rows_checked,
	count(*) FILTER (WHERE NOT bloom_contains(m.f1, s.i4)) AS missed_col1,
	count(*) FILTER (WHERE NOT bloom_contains(m.f2, s.t)) AS missed_col2
FROM spans s JOIN multi_filters m ON m.r = (s.ctid::text::point)[0]::bigint / 16;
SELECT (bloom_info(f2)).element_family = (bloom_info(bloom_empty(10, 0.01) || 'x'::text)).element_family AS col2_text
FROM multi_filters WHERE r = 0;
SELECT bloomskip_range_filter('spans_multi', 0, 3);
SELECT bloomskip_range_filter('spans_multi', 0, 0);
DROP TABLE multi_filters;

-- the plans: a selective key uses the index by itself, a key present in
-- every range is a sequential scan, and a btree wins where it exists
EXPLAIN (COSTS OFF) SELECT * FROM spans WHERE id = 4242;
EXPLAIN (COSTS OFF) SELECT * FROM spans WHERE id = ANY (ARRAY[1, 2, 3]::int8[]);
EXPLAIN (COSTS OFF) SELECT * FROM spans WHERE few = 1;
CREATE INDEX spans_id_btree ON spans (id);
EXPLAIN (COSTS OFF) SELECT * FROM spans WHERE id = 4242;
DROP INDEX spans_id_btree;

-- the filter of a summarized range, as a bloom value, answers as the
-- index: no key of a row is missing from its range's filter, and for 300
-- keys (half of them absent) the heap pages of the ranges whose filter may
-- hold the key, plus every page of the open last range, are the lossy
-- pages the index scan returns
CREATE FUNCTION lossy_pages(cond text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT * FROM spans WHERE %s', cond) INTO plan;
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN (plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::bigint;
END
$$;
CREATE TEMP TABLE range_filters AS
SELECT r, bloomskip_range_filter('spans_id', r) AS f,
	least(16, pg_relation_size('spans') / current_setting('block_size')::int - r * 16) AS pages
FROM generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info('spans_id'))) r;
SELECT count(*) AS false_negatives FROM spans s JOIN range_filters rf
	ON rf.r = (s.ctid::text::point)[0]::bigint / 16
WHERE NOT bloom_contains(rf.f, s.id);
SELECT count(*) AS disagreements FROM generate_series(1, 150) x, LATERAL (VALUES (x * 131), (-x)) k(key)
WHERE lossy_pages('id = ' || key) IS DISTINCT FROM
	(SELECT coalesce(sum(pages), 0) FROM range_filters WHERE bloom_contains(f, key::int8)) +
	(SELECT pg_relation_size('spans') / current_setting('block_size')::int - count(*) * 16 FROM range_filters);
SELECT summarized_ranges, open_ranges FROM bloomskip_info('spans_id');

-- growth past the build: new ranges and segments, then updates, deletes
DROP INDEX spans_few;
SELECT fill_spans(20001, 26000);
SELECT summarized_ranges = (pg_relation_size('spans') / 8192 + 15) / 16 - 1 AS last_open,
	open_ranges, ranges >= summarized_ranges AS covers_summarized
FROM bloomskip_info('spans_id');
UPDATE spans SET id = id + 1000000 WHERE id % 500 = 0;
DELETE FROM spans WHERE id % 7 = 0;
VACUUM spans;
DELETE FROM cases;
INSERT INTO cases VALUES
	('spans', 'id = 25555', 'spans_id'),
	('spans', 'id = 1025000', 'spans_id'),
	('spans', 'id = 7000', 'spans_id'),
	('spans', 'id = ANY (ARRAY[25999, 1000500, 14, 21]::int8[])', 'spans_id'),
	('spans', 'i4 = 7 AND t = md5(''25007'')', 'spans_multi');
SELECT c.cond, r.* FROM cases c, skip_diff(c.tbl, c.cond, c.idx) r ORDER BY c.cond;
SELECT bloomskip_check('spans_id') AS id_violations, bloomskip_check('spans_multi') AS multi_violations;

-- a table that grows past its first segment: a second one, then a third
CREATE TABLE grow (k int8) WITH (autovacuum_enabled = false);
INSERT INTO grow SELECT generate_series(1, 20000);
CREATE INDEX grow_k ON grow USING bloomskip (k) WITH (pages_per_range = 1);
SELECT ranges, segments FROM bloomskip_info('grow_k');
INSERT INTO grow SELECT generate_series(20001, 50000);
SELECT ranges, segments FROM bloomskip_info('grow_k');
SELECT r.* FROM skip_diff('grow', 'k = ANY (ARRAY[5, 20005, 49999, 50001])', 'grow_k') r;
SELECT bloomskip_check('grow_k') AS violations;

-- the open tail: an append into the last range writes no bits; an append
-- past it summarizes the ranges the table moved past from the heap, so
-- only the last range stays open, row by row or in batches
CREATE TABLE app (k int8, pad text) WITH (autovacuum_enabled = false);
INSERT INTO app SELECT i, repeat('a', 100) FROM generate_series(1, 3000) i;
CREATE INDEX app_k ON app USING bloomskip (k) WITH (pages_per_range = 2);
SELECT summarized_ranges = ranges - 1 AS built_last_open, open_ranges FROM bloomskip_info('app_k');
DO $$ BEGIN FOR i IN 3001..4000 LOOP INSERT INTO app VALUES (i, repeat('b', 100)); END LOOP; END $$;
SELECT open_ranges FROM bloomskip_info('app_k');
INSERT INTO app SELECT i, repeat('c', 100) FROM generate_series(4001, 20000) i;
SELECT open_ranges, summarized_ranges = (pg_relation_size('app') / 8192 + 1) / 2 - 1 AS last_open,
	summarized_ranges > 100 AS many_summarized
FROM bloomskip_info('app_k');
SELECT r.* FROM skip_diff('app', 'k = ANY ((SELECT array_agg(k) FROM app)::int8[])', 'app_k') r;
SELECT r.* FROM skip_diff('app', 'k = ANY (ARRAY[1, 3500, 4001, 12345, 19999, 20000, 20001, -5])', 'app_k') r;
-- bloomskip_check checks the summarized ranges and says so
SET client_min_messages = notice;
SELECT bloomskip_check('app_k') AS violations;
SET client_min_messages = warning;
-- the staging area: appends summarize each range into a slot holding its
-- whole filter; a full area is sliced into the segments in one pass;
-- scans and bloomskip_check read both (the checks above and below)
SELECT staged_ranges BETWEEN 1 AND 64 AS some_staged,
	summarized_ranges - staged_ranges > 64 AS some_sliced
FROM bloomskip_info('app_k');
-- rows moved into old, summarized ranges (the space VACUUM freed) set
-- their bits themselves
DELETE FROM app WHERE k % 3 = 0;
VACUUM app;
UPDATE app SET k = k + 1000000 WHERE k % 10 = 1;
SELECT count(*) > 100 AS moved_into_summarized FROM app, bloomskip_info('app_k') i
WHERE k > 1000000 AND (ctid::text::point)[0] < 2 * i.summarized_ranges;
SELECT r.* FROM skip_diff('app', 'k = ANY ((SELECT array_agg(k) FROM app WHERE k > 1000000)::int8[])', 'app_k') r;
SELECT r.* FROM skip_diff('app', 'k = ANY (ARRAY[1000011, 1019991, 11, 3, 4])', 'app_k') r;
SELECT bloomskip_check('app_k') AS violations;

-- a summarization that fails half-way (here an index expression raising an
-- error on the old rows it reads) has moved writer but not summarized:
-- those ranges stay returned whole, and the next summarization, by VACUUM
-- or by an append, reads them again from the heap
CREATE FUNCTION skip_key(k int8) RETURNS int8 LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF k < 0 AND current_setting('skip.fail', true) = 'on' THEN
		RAISE EXCEPTION 'summarization interrupted';
	END IF;
	RETURN abs(k);
END
$$;
CREATE TABLE fail_t (k int8, pad text) WITH (autovacuum_enabled = false);
ALTER TABLE fail_t ALTER pad SET STORAGE PLAIN;	-- a 7000-byte row takes a page of its own
CREATE INDEX fail_k ON fail_t USING bloomskip (skip_key(k)) WITH (pages_per_range = 1);
CREATE FUNCTION fail_fill(lo int, hi int) RETURNS void LANGUAGE sql AS $$
	INSERT INTO fail_t SELECT -i, repeat('f', 1000) FROM generate_series(lo, hi) i
$$;
SELECT fail_fill(1, 30);
SET skip.fail = on;
INSERT INTO fail_t VALUES (1000, repeat('g', 7000));
RESET skip.fail;
SELECT open_ranges FROM bloomskip_info('fail_k');
SELECT r.* FROM skip_diff('fail_t', 'skip_key(k) = ANY (ARRAY[1, 29, 30, 1000])', 'fail_k') r;
VACUUM fail_t;
-- (VACUUM may also truncate the aborted row's page, leaving no open range)
SELECT open_ranges <= 1 AS at_most_last_open FROM bloomskip_info('fail_k');
SELECT r.* FROM skip_diff('fail_t', 'skip_key(k) = ANY (ARRAY[1, 29, 30, 1000])', 'fail_k') r;
SELECT bloomskip_check('fail_k') AS violations;
SELECT fail_fill(31, 60);
SET skip.fail = on;
INSERT INTO fail_t VALUES (2000, repeat('g', 7000));
RESET skip.fail;
SELECT open_ranges > 1 AS left_open FROM bloomskip_info('fail_k');
SELECT fail_fill(61, 90);
SELECT open_ranges FROM bloomskip_info('fail_k');
SELECT r.* FROM skip_diff('fail_t', 'skip_key(k) = ANY (ARRAY[31, 59, 60, 61, 89])', 'fail_k') r;
SELECT bloomskip_check('fail_k') AS violations;
WITH summarized AS MATERIALIZED (
	SELECT (t.ctid::text::point)[0]::bigint AS r, skip_key(t.k) AS key
	FROM fail_t t, bloomskip_info('fail_k') i WHERE (t.ctid::text::point)[0] < i.summarized_ranges)
SELECT count(*) FILTER (WHERE NOT bloom_contains(bloomskip_range_filter('fail_k', r), key))
	AS false_negatives, count(DISTINCT r) > 5 AS many_ranges
FROM summarized;

-- a changed pages_per_range applies at the next build only
ALTER INDEX spans_id SET (pages_per_range = 4);
SELECT pages_per_range FROM bloomskip_info('spans_id');
SELECT r.* FROM skip_diff('spans', 'id = 25555', 'spans_id') r;
REINDEX INDEX spans_id;
SELECT pages_per_range, segments FROM bloomskip_info('spans_id');
SELECT r.* FROM skip_diff('spans', 'id = ANY (ARRAY[25555, 1025000, 3])', 'spans_id') r;
SELECT bloomskip_check('spans_id') AS violations;

-- CREATE INDEX CONCURRENTLY
DROP INDEX spans_id;
CREATE INDEX CONCURRENTLY spans_id ON spans USING bloomskip (id) WITH (false_positive_rate = 0.001);
SELECT round(target_rate::numeric, 4) AS rate FROM bloomskip_info('spans_id');
SELECT r.* FROM skip_diff('spans', 'id = 31313', 'spans_id') r;
SELECT bloomskip_check('spans_id') AS violations;

-- generic plans of a prepared statement, NULL parameters included
SET plan_cache_mode = force_generic_plan;
SET enable_seqscan = off;
PREPARE byid(int8) AS SELECT count(*) FROM spans WHERE id = $1;
PREPARE byids(int8[]) AS SELECT count(*) FROM spans WHERE id = ANY ($1);
EXPLAIN (COSTS OFF) EXECUTE byid(31313);
EXECUTE byid(31313);
EXECUTE byid(NULL);
EXECUTE byids(ARRAY[31313, 31314, NULL]);
EXECUTE byids(NULL);
RESET plan_cache_mode;
RESET enable_seqscan;

-- a nested loop with a parameterized bitmap scan
CREATE TABLE wanted (k int8);
INSERT INTO wanted VALUES (5), (31313), (1025000), (-1), (NULL);
ANALYZE wanted;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_seqscan = off;
-- the plan without 18's "Disabled" lines (the seq scan of wanted is the
-- only way to read it, enable_seqscan notwithstanding)
CREATE FUNCTION plan_lines(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		IF l NOT LIKE '%Disabled:%' THEN RETURN NEXT l; END IF;
	END LOOP;
END $$;
SELECT plan_lines('SELECT s.id FROM wanted w JOIN spans s ON s.id = w.k');
DROP FUNCTION plan_lines(text);
SELECT array_agg(s.id ORDER BY s.id) FROM wanted w JOIN spans s ON s.id = w.k;
RESET enable_seqscan;
RESET enable_hashjoin;
RESET enable_mergejoin;
SELECT array_agg(id ORDER BY id) FROM spans WHERE id IN (5, 31313, 1025000, -1);

-- TRUNCATE empties the index, which grows again
TRUNCATE spans;
SELECT ranges, segments, index_pages FROM bloomskip_info('spans_id');
SELECT fill_spans(1, 3000);
SELECT r.* FROM skip_diff('spans', 'id = 2999', 'spans_id') r;
SELECT bloomskip_check('spans_id') AS violations;

-- an index built on an empty table
CREATE TABLE empty_t (k int4, s text);
CREATE INDEX empty_k ON empty_t USING bloomskip (k);
SELECT ranges, segments, index_pages FROM bloomskip_info('empty_k');
SELECT r.* FROM skip_diff('empty_t', 'k = 1', 'empty_k') r;
INSERT INTO empty_t SELECT i, md5(i::text) FROM generate_series(1, 5000) i;
INSERT INTO empty_t VALUES (NULL, 'null key');
SELECT r.* FROM skip_diff('empty_t', 'k = 4321', 'empty_k') r;
SELECT r.* FROM skip_diff('empty_t', 'k IN (1, 2, 5001)', 'empty_k') r;
SELECT bloomskip_check('empty_k') AS violations;

-- a table that outgrows the index gets a new segment as large as all
-- before it (the index covers twice the ranges), not larger: the new
-- segment's pages are fewer than the whole index had
CREATE TABLE grow_t (v int4);
INSERT INTO grow_t SELECT g FROM generate_series(1, 226 * 60) g;
CREATE INDEX grow_v ON grow_t USING bloomskip (v) WITH (pages_per_range = 1);
CREATE TEMP TABLE grow_before AS SELECT * FROM bloomskip_info('grow_v');
SELECT segments FROM grow_before;
INSERT INTO grow_t SELECT g FROM generate_series(226 * 60 + 1, 226 * 180) g;
SELECT i.segments, i.ranges > 2 * b.ranges AS past_first,
	   i.index_pages - b.index_pages < b.index_pages AS grew_less_than_the_index
  FROM bloomskip_info('grow_v') i, grow_before b;
SELECT r.* FROM skip_diff('grow_t', 'v IN (7, 13561, 40000, -1)', 'grow_v') r;
SELECT bloomskip_check('grow_v') AS violations;
DROP TABLE grow_t, grow_before;

-- an unlogged table
CREATE UNLOGGED TABLE unlogged_t (k int8);
CREATE INDEX unlogged_k ON unlogged_t USING bloomskip (k);
INSERT INTO unlogged_t SELECT generate_series(1, 2000);
SELECT r.* FROM skip_diff('unlogged_t', 'k = 1999', 'unlogged_k') r;

-- a partitioned table, the index created on the parent
CREATE TABLE parted (k int8, s text) PARTITION BY RANGE (k);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM (0) TO (5000);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM (5000) TO (10000);
CREATE INDEX parted_k ON parted USING bloomskip (k);
INSERT INTO parted SELECT i, md5(i::text) FROM generate_series(0, 9999) i;
SELECT r.* FROM skip_diff('parted', 'k = ANY (ARRAY[17, 7017])', 'parted_1_k_idx') r;
SELECT r.* FROM skip_diff('parted', 'k = 7017', 'parted_2_k_idx') r;
SELECT bloomskip_check('parted_1_k_idx') + bloomskip_check('parted_2_k_idx') AS violations;
-- the tools on the partitioned index itself name it as such and say what to pass
SELECT * FROM bloomskip_info('parted_k');
SELECT bloomskip_check('parted_k');
SELECT bloomskip_range_filter('parted_k', 0);
SELECT count(*) AS partition_indexes FROM pg_inherits WHERE inhparent = 'parted_k'::regclass;

-- a nondeterministic collation hashes its sort key: 'ABC' finds 'abc'
CREATE COLLATION skip_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE ci_t (s text COLLATE skip_ci);
INSERT INTO ci_t SELECT 'key' || i FROM generate_series(1, 3000) i;
CREATE INDEX ci_s ON ci_t USING bloomskip (s);
SELECT r.* FROM skip_diff('ci_t', 's = ''KEY1234''', 'ci_s') r;
SELECT bloomskip_check('ci_s') AS violations;

-- the planner's cost follows the heap pages a scan returns (whole ranges),
-- not one page per row of them.  traces: 8 consecutive rows a trace (150
-- rows of the 18,750 traces in every range of 16 pages), random ids;
-- statistics from every row (repeatable).  The selectivity the index
-- returns is the one for which PostgreSQL's bitmap heap scan predicts the
-- model's pages, so the Bitmap Index Scan's estimated rows t give them
-- back, P = 2Tt / (2T + t); the oracle is the lossy heap blocks the scan
-- reads
CREATE TABLE traces (trace_id int8, n int8, pad text);
ALTER TABLE traces ALTER trace_id SET STATISTICS 1000;
INSERT INTO traces SELECT hashint8extended(r / 8, 1), r, repeat('x', 60)
FROM generate_series(0, 149999) r;
CREATE INDEX traces_id ON traces USING bloomskip (trace_id);
ANALYZE traces;
-- the pages the model predicts, recovered from the index scan's rows: they
-- are the tuples of the pages P' that PostgreSQL's formula charges as much
-- as the predicted pages P read in 16-page runs (P' (4 - 3 sqrt(P' / T)) =
-- P (1 + 3 / 16) at the default page costs)
CREATE FUNCTION pages_estimated_read(cond text, OUT estimated float8, OUT read float8)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
	t float8;
	charged float8;
	tp float8 := (SELECT relpages FROM pg_class WHERE relname = 'traces');
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE format('EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT * FROM traces WHERE %s', cond) INTO plan;
	PERFORM set_config('enable_seqscan', 'on', true);
	t := (plan -> 0 -> 'Plan' -> 'Plans' -> 0 ->> 'Plan Rows')::float8;
	charged := least(tp, 2 * tp * t / (2 * tp + t));
	estimated := least(tp, charged * (4 - 3 * sqrt(charged / tp)) / (1 + 3.0 / 16));
	read := (plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::float8;
END
$$;
SELECT relpages / 16 AS ranges, (SELECT n_distinct FROM pg_stats WHERE tablename = 'traces' AND attname = 'trace_id') AS n_distinct
FROM pg_class WHERE relname = 'traces';
SELECT c.what, p.estimated BETWEEN p.read / 2 AND p.read * 2 AS within_2x, p.read >= 16 AS reads_a_range
FROM (SELECT 'point', format('trace_id = %s', hashint8extended(777, 1))
	UNION ALL
	SELECT 'any ' || n, format('trace_id = ANY (%L::int8[])',
		(SELECT array_agg(hashint8extended(g * (18000 / n), 1)) FROM generate_series(1, n) g))
	FROM unnest(ARRAY[10, 100, 1000]) n) c(what, cond),
	pages_estimated_read(c.cond) p;
-- a few outer rows: a nested loop over the parameterized bitmap scan,
-- not a hash join over the whole table
CREATE TABLE few_traces AS SELECT hashint8extended(g * 3001, 1) AS id FROM generate_series(1, 5) g;
ANALYZE few_traces;
EXPLAIN (COSTS OFF) SELECT count(*) FROM few_traces f JOIN traces t ON t.trace_id = f.id;
SELECT count(*) AS rows_found FROM few_traces f JOIN traces t ON t.trace_id = f.id;
DROP TABLE traces, few_traces;
DROP FUNCTION pages_estimated_read(text);

-- bad arguments
SELECT bloomskip_info('spans');
SELECT bloomskip_info('parted_k');
CREATE INDEX spans_btree ON spans (id);
SELECT bloomskip_check('spans_btree');
SELECT bloomskip_range_filter('spans_id', -1);
SELECT bloomskip_range_filter('spans_id', 1000000);
SELECT bloomskip_range_filter('empty_k', 0) IS NOT NULL AS has_range_0;
SELECT bloomskip_info(NULL) IS NULL AS info_null, bloomskip_check(NULL) IS NULL AS check_null,
	bloomskip_range_filter('spans_id', NULL) IS NULL AS filter_null;
SELECT bloomskip_info(0);
CREATE INDEX bad ON spans USING bloomskip (id) WITH (pages_per_range = 0);
CREATE INDEX bad ON spans USING bloomskip (id) WITH (false_positive_rate = 0.5);
CREATE INDEX bad ON spans USING bloomskip (id) WITH (false_positive_rate = 0.0000001);
CREATE INDEX bad ON spans USING bloomskip (id) WITH (fill = 1);
CREATE INDEX bad ON spans USING bloomskip ((id::float8));
SELECT bloomskip_handler(NULL);

-- a user without SELECT on the table cannot read its index
CREATE ROLE skip_nobody;
SET ROLE skip_nobody;
SELECT bloomskip_info('spans_id');
RESET ROLE;
DROP ROLE skip_nobody;

DROP TABLE spans, cases, wanted, grow, empty_t, unlogged_t, parted, ci_t, app, fail_t;
DROP COLLATION skip_ci;
DROP FUNCTION skip_diff(text, text, text), fill_spans(int, int), lossy_pages(text),
	fail_fill(int, int), skip_key(int8);
