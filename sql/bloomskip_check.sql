-- bloomskip_check: a key the index misses is counted wherever the range's
-- keys were written (its column of a segment, its staged filter, its
-- column of the recent segment) and the first one is reported with its
-- ctid; progress notices; a statement_timeout ends the check.  The damage:
-- an index expression that lies about being immutable, so that the keys the
-- check computes are not those the index wrote (a page's checksum stays
-- valid, which is what damage to the bits themselves cannot do).

\set SHOW_CONTEXT never
SET client_min_messages = warning;

-- id, or id + 10^9 for the ids from ck.lo to ck.hi (none unless set)
CREATE FUNCTION ck_key(id int8) RETURNS int8 LANGUAGE sql IMMUTABLE AS $$
	SELECT id + CASE WHEN id BETWEEN coalesce(nullif(current_setting('ck.lo', true), ''), '1')::int8
		AND coalesce(nullif(current_setting('ck.hi', true), ''), '0')::int8 THEN 1000000000 ELSE 0 END
$$;
-- the recent segment's capacity and the first range of its window
-- (metapage offsets, as bloomskip_recent reads them)
CREATE FUNCTION ck_recent(ix regclass, OUT capacity int8, OUT first_range int8)
LANGUAGE sql AS $$
	CHECKPOINT;
	SELECT get_byte(p, 2704) + 256 * get_byte(p, 2705) + 65536 * get_byte(p, 2706) +
		16777216::int8 * get_byte(p, 2707),
		get_byte(p, 2696) + 256 * get_byte(p, 2697) + 65536 * get_byte(p, 2698) +
		16777216::int8 * get_byte(p, 2699)
	FROM pg_read_binary_file(pg_relation_filepath(ix), 0, 8192) p
$$;

-- about 110 rows a page, one page a range: built over 1,800 ranges, then
-- appends fill the staging area and a recent segment
CREATE TABLE ck (id int8, body text) WITH (autovacuum_enabled = off, fillfactor = 100);
INSERT INTO ck SELECT g, md5(g::text) FROM generate_series(1, 200000) g;
CREATE INDEX ck_k ON ck USING bloomskip (ck_key(id)) WITH (pages_per_range = 1);
INSERT INTO ck SELECT g, md5(g::text) FROM generate_series(200001, 500000) g;
SELECT bloomskip_check('ck_k') AS sound;

-- the ranges by where their keys are: staged, in the recent segment's
-- window, or in their segment (built, or merged from the recent segment)
CREATE TABLE ck_part AS
SELECT p.part, min(c.id) AS lo, max(c.id) AS hi, count(*) AS nrows
FROM ck c, bloomskip_info('ck_k') i, ck_recent('ck_k') r,
	LATERAL (SELECT (c.ctid::text::point)[0]::int8 AS rng) x,
	LATERAL (SELECT CASE
		WHEN x.rng >= i.summarized_ranges - i.staged_ranges THEN 'staged'
		WHEN x.rng >= r.first_range THEN 'recent'
		ELSE 'segment' END AS part) p
WHERE x.rng < i.summarized_ranges
GROUP BY p.part;
SELECT part, nrows > 1000 AS many_rows FROM ck_part ORDER BY part;

-- each part's keys made missing in turn: (nearly) every row counted, and
-- the ranges' filters as bloomskip_range_filter rebuilds them (every 500th
-- row) agree that the keys are missing
CREATE FUNCTION ck_missing(p text, OUT part text, OUT counted bool, OUT filters_miss_them bool)
LANGUAGE plpgsql AS $$
DECLARE
	r ck_part;
	n bigint;
	f bigint;
	s bigint;
BEGIN
	SELECT * INTO r FROM ck_part WHERE ck_part.part = p;
	PERFORM set_config('ck.lo', r.lo::text, true);
	PERFORM set_config('ck.hi', r.hi::text, true);
	PERFORM set_config('client_min_messages', 'error', true);
	n := bloomskip_check('ck_k');
	SELECT count(*) FILTER (WHERE NOT bloom_contains(bloomskip_range_filter('ck_k', (ctid::text::point)[0]::int8), ck_key(id))),
		count(*)
	  INTO f, s FROM ck WHERE id BETWEEN r.lo AND r.hi AND id % 500 = 0;
	part := p;
	counted := n BETWEEN r.nrows * 0.9 AND r.nrows;
	filters_miss_them := f >= s * 0.9 AND s > 0;
	RETURN;
END
$$;
SELECT m.* FROM unnest(ARRAY['segment', 'staged', 'recent']) p, ck_missing(p) m;

-- the first missing key is reported with its row's ctid and column
SET ck.lo = 250;
SET ck.hi = 260;
SELECT bloomskip_check('ck_k') AS missing_250_to_260;
RESET ck.lo;
RESET ck.hi;

-- progress: a notice at every tenth of the table's pages once the interval
-- (bloomset.check_progress_interval) has gone by since the last; 0: every
-- tenth
SET bloomset.check_progress_interval = 0;
SET client_min_messages = notice;
SELECT bloomskip_check('ck_k') AS sound_with_progress;
-- none for a check shorter than the interval (10 s by default; an hour
-- here, so that a slow build, valgrind's, shows none either)
SET bloomset.check_progress_interval = '1h';
SELECT bloomskip_check('ck_k') AS sound_without_progress;
RESET bloomset.check_progress_interval;
SET client_min_messages = warning;

-- a statement_timeout ends the check (its latency: test/resources)
SET statement_timeout = '100ms';
SELECT bloomskip_check('ck_k');
RESET statement_timeout;

DROP TABLE ck, ck_part;
DROP FUNCTION ck_key(int8), ck_recent(regclass), ck_missing(text);
