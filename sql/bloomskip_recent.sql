-- bloomskip's recent segment: appends slice the staging area's ranges into
-- a narrow segment, merged into the wide ones once it is full, so that an
-- append does not rewrite the whole last segment every few ranges.  The
-- oracle: a sequential scan's counts (a hash join over the keys), against
-- the index's, after the recent segment was added, merged and refilled,
-- after VACUUM truncated the table, for slots of one page and of several
-- (the n-gram class), and for one slot a page.  The metapage's recent
-- segment (its capacity and the first range of its window, at the offsets
-- docs/format.md gives) is read from the index's file after a checkpoint.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

CREATE TABLE rc (id int8, body text) WITH (autovacuum_enabled = off, fillfactor = 100);
-- about 110 rows a page: 200,000 rows are about 1,800 ranges of one page
INSERT INTO rc SELECT g, md5(g::text) FROM generate_series(1, 200000) g;
CREATE INDEX rc_id ON rc USING bloomskip (id) WITH (pages_per_range = 1);
SELECT summarized_ranges AS built FROM bloomskip_info('rc_id') \gset

-- the recent segment's capacity (0: none) and the first range of its window
CREATE FUNCTION rc_recent(ix regclass, OUT capacity int8, OUT first_range int8)
LANGUAGE sql AS $$
	CHECKPOINT;
	SELECT get_byte(p, 2704) + 256 * get_byte(p, 2705) + 65536 * get_byte(p, 2706) +
		16777216::int8 * get_byte(p, 2707),
		get_byte(p, 2696) + 256 * get_byte(p, 2697) + 65536 * get_byte(p, 2698) +
		16777216::int8 * get_byte(p, 2699)
	FROM pg_read_binary_file(pg_relation_filepath(ix), 0, 8192) p
$$;
-- keys whose count through the index on tab's id differs from the
-- sequential scan's
CREATE TABLE rc_keys (k int8);
CREATE FUNCTION rc_disagree(tab regclass DEFAULT 'rc') RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	bad bigint;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE rc_ix AS SELECT k, (SELECT count(*) FROM %s WHERE id = k) AS c FROM rc_keys', tab);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('SELECT count(*) FROM rc_ix i
		JOIN (SELECT k, count(id) AS c FROM rc_keys LEFT JOIN %s ON id = k GROUP BY k) s USING (k)
		WHERE i.c <> s.c', tab) INTO bad;
	PERFORM set_config('enable_bitmapscan', 'on', true);
	DROP TABLE rc_ix;
	RETURN bad;
END
$$;
-- every 101st key of what the table will hold, and keys it never holds
INSERT INTO rc_keys SELECT g FROM generate_series(-500, 500000, 101) g;
-- does the index plan use the index?
CREATE FUNCTION rc_uses_index(q text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE
	line text;
	found bool := false;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		found := found OR line LIKE '%Bitmap Index Scan%';
	END LOOP;
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN found;
END
$$;

-- none after the build: the build writes every range into its segment
SELECT capacity AS recent_after_build FROM rc_recent('rc_id');
SELECT rc_uses_index('SELECT count(*) FROM rc WHERE id = 5') AS uses_index;
SELECT rc_disagree() AS disagree_after_build;

-- appends: about 2,700 ranges more, several windows of the recent segment
INSERT INTO rc SELECT g, md5(g::text) FROM generate_series(200001, 500000) g;
SELECT r.capacity >= 128 AND r.capacity % 64 = 0 AS recent_added,
	r.first_range >= :built + r.capacity AS merged_since,
	r.first_range < i.summarized_ranges AS window_in_use
FROM rc_recent('rc_id') r, bloomskip_info('rc_id') i;
SELECT rc_disagree() AS disagree_after_appends;
SELECT bloomskip_check('rc_id') AS check_after_appends;

-- a range's filter, as bloomskip_range_filter rebuilds it from its column
-- of the recent segment, its slot and its segment column, holds every id
-- of the range: the first range of the window, and the last summarized one
SELECT count(*) FILTER (WHERE NOT bloom_contains(f, id)) AS missing, count(*) > 0 AS some_rows
FROM rc, LATERAL (SELECT r.first_range AS w, i.summarized_ranges - 1 AS s
	FROM rc_recent('rc_id') r, bloomskip_info('rc_id') i) b,
	LATERAL (SELECT bloomskip_range_filter('rc_id', (ctid::text::point)[0]::int8) AS f) x
WHERE (ctid::text::point)[0]::int8 IN (b.w, b.s);

-- VACUUM truncates the table: the index forgets the ranges cut, merging
-- the recent segment first, whose window starts again at the lowered
-- summarized boundary
SELECT first_range AS before_vacuum FROM rc_recent('rc_id') \gset
DELETE FROM rc WHERE id > 350000;
VACUUM rc;
-- the next insert sees the table shorter than the index's ranges
INSERT INTO rc VALUES (350001, md5('350001'));
SELECT r.first_range < :before_vacuum AS window_moved_back,
	r.first_range <= i.summarized_ranges AS window_from_summarized
FROM rc_recent('rc_id') r, bloomskip_info('rc_id') i;
SELECT rc_disagree() AS disagree_after_truncation;
INSERT INTO rc SELECT g, md5(g::text) FROM generate_series(350002, 500000) g;
SELECT rc_disagree() AS disagree_after_regrowth;
SELECT bloomskip_check('rc_id') AS check_after_regrowth;

-- an aborted append: its ranges are summarized with its rows' keys, and
-- the rows added again later are found
BEGIN;
INSERT INTO rc SELECT g, md5(g::text) FROM generate_series(500001, 530000) g;
ROLLBACK;
INSERT INTO rc SELECT g, md5(g::text) FROM generate_series(500001, 530000) g;
SELECT rc_disagree() AS disagree_after_rollback;

-- the n-gram class: filters larger than a page, staged in slots of whole
-- pages, sliced into the recent segment a few ranges at a time
CREATE TABLE rn (id int8, body text) WITH (autovacuum_enabled = off, fillfactor = 100);
INSERT INTO rn SELECT g, md5(g::text) FROM generate_series(1, 100000) g;
CREATE INDEX rn_ng ON rn USING bloomskip (body text_ngram_bloomskip_ops) WITH (pages_per_range = 1);
SELECT summarized_ranges AS ng_built FROM bloomskip_info('rn_ng') \gset
SELECT capacity AS ngram_recent_after_build FROM rc_recent('rn_ng');
INSERT INTO rn SELECT g, md5(g::text) FROM generate_series(100001, 160000) g;
SELECT r.capacity >= 128 AS ngram_recent_added,
	r.first_range >= :ng_built + r.capacity AS ngram_merged_since
FROM rc_recent('rn_ng') r;
-- needles: a piece of every 997th row's text, and pieces no row holds
CREATE TABLE rn_needles AS
	SELECT substr(md5(g::text), 1 + g % 20, 9) AS n FROM generate_series(1, 160000, 997) g
	UNION ALL SELECT 'zzz' || g FROM generate_series(1, 20) g;
CREATE FUNCTION rn_like_disagree() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	bad bigint;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	CREATE TEMP TABLE rn_ix AS
		SELECT n, (SELECT count(*) FROM rn WHERE body LIKE '%' || n || '%') AS c FROM rn_needles;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	SELECT count(*) INTO bad FROM rn_ix i
		WHERE i.c <> (SELECT count(*) FROM rn WHERE strpos(body, i.n) > 0);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	DROP TABLE rn_ix;
	RETURN bad;
END
$$;
SELECT rc_uses_index($$SELECT count(*) FROM rn WHERE body LIKE '%abcdef%'$$) AS ngram_uses_index;
SELECT count(*) AS needles, rn_like_disagree() AS ngram_disagree FROM rn_needles;

-- filters of half a page to a page: one slot a page, and (format 4) at
-- least sixteen slots, on sixteen pages, sliced sixteen ranges at a time
CREATE TABLE rs (id int8, body text) WITH (autovacuum_enabled = off, fillfactor = 100);
INSERT INTO rs SELECT g, md5(g::text) FROM generate_series(1, 200000) g;
CREATE INDEX rs_id ON rs USING bloomskip (id) WITH (pages_per_range = 32);
-- the staging area's slots a page, slots and pages (metapage offsets 88,
-- 92 and 84 of the page: docs/format.md)
CREATE FUNCTION rc_stage(ix regclass, OUT per_page int8, OUT slots int8, OUT pages int8)
LANGUAGE sql AS $$
	CHECKPOINT;
	SELECT get_byte(p, 88) + 256 * get_byte(p, 89), get_byte(p, 92) + 256 * get_byte(p, 93),
		get_byte(p, 84) + 256 * get_byte(p, 85)
	FROM pg_read_binary_file(pg_relation_filepath(ix), 0, 8192) p
$$;
SELECT per_page, slots, pages, bits_per_range BETWEEN 32768 AND 65024 AS half_a_page_to_a_page
FROM rc_stage('rs_id'), bloomskip_info('rs_id');
INSERT INTO rs SELECT g, md5(g::text) FROM generate_series(200001, 300000) g;
INSERT INTO rs SELECT g, md5(g::text) FROM generate_series(300001, 400000) g;
SELECT staged_ranges BETWEEN 1 AND 16 AS staged, summarized_ranges > 100 AS sliced
FROM bloomskip_info('rs_id');
SELECT rc_uses_index('SELECT count(*) FROM rs WHERE id = 5') AS stage16_uses_index;
SELECT rc_disagree('rs') AS stage16_disagree;
SELECT bloomskip_check('rs_id') AS stage16_check;

DROP FUNCTION rc_recent(regclass), rc_disagree(regclass), rc_uses_index(text), rn_like_disagree(),
	rc_stage(regclass);
DROP TABLE rc, rc_keys, rn, rn_needles, rs;
