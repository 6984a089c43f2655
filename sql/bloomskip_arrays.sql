-- bloomskip's array class, array_bloomskip_ops: a range's keys are its
-- arrays' non-NULL elements; @> and = ask for every element of the query,
-- && for one of them, <@ reads every range.  The oracle: the rows of the
-- index plan are exactly those of the sequential scan, for every operator
-- and element type, with NULL elements, empty arrays and NULL arrays.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

-- rows of cond through the index (used: the plan read it) against the
-- sequential scan: diff must be 0
CREATE FUNCTION arr_diff(tbl text, idx text, cond text,
	OUT used boolean, OUT nrows bigint, OUT diff bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM %I WHERE %s', tbl, cond) LOOP
		plan := plan || line || E'\n';
	END LOOP;
	used := plan LIKE format(E'%%Bitmap Index Scan on %s\n%%', idx);
	EXECUTE format('CREATE TEMP TABLE arr_ix AS SELECT ctid AS c FROM %I WHERE %s', tbl, cond);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE arr_sq AS SELECT ctid AS c FROM %I WHERE %s', tbl, cond);
	SELECT count(*) INTO nrows FROM arr_sq;
	SELECT count(*) INTO diff FROM ((TABLE arr_ix EXCEPT ALL TABLE arr_sq)
		UNION ALL (TABLE arr_sq EXCEPT ALL TABLE arr_ix)) d;
	DROP TABLE arr_ix;
	DROP TABLE arr_sq;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
END
$$;

-- events: tags (text[]), ids (bigint[]), amounts (numeric[]); a rare tag
-- every 3001 rows, NULL elements, empty arrays, NULL arrays, duplicates
CREATE TABLE ev (id int, tags text[], ids bigint[], amounts numeric[])
	WITH (autovacuum_enabled = false);
INSERT INTO ev
SELECT i,
	ARRAY['env:' || (i % 3), 'svc:' || (i % 50), 'user:' || (i % 997)] ||
		CASE WHEN i % 3001 = 0 THEN ARRAY['rare:quokka'] ELSE '{}' END ||
		CASE WHEN i % 7 = 0 THEN ARRAY[NULL::text] ELSE '{}' END ||
		CASE WHEN i % 11 = 0 THEN ARRAY['env:' || (i % 3)] ELSE '{}' END,
	ARRAY[i, i * 1000003::bigint % 99991],
	ARRAY[(i % 5)::numeric, ((i % 5) || '.00')::numeric]
FROM generate_series(1, 12000) i;
INSERT INTO ev VALUES (-1, NULL, NULL, NULL), (-2, '{}', '{}', '{}'),
	(-3, '{NULL}', '{NULL}', '{NULL}'), (-4, '{{a,b},{c,NULL}}', '{{1,2},{3,4}}', '{1.0}');
CREATE INDEX ev_tags ON ev USING bloomskip (tags);
CREATE INDEX ev_ids ON ev USING bloomskip (ids);
CREATE INDEX ev_amounts ON ev USING bloomskip (amounts);
ANALYZE ev;
SELECT bloomskip_check('ev_tags') AS tags_missing, bloomskip_check('ev_ids') AS ids_missing,
	bloomskip_check('ev_amounts') AS amounts_missing;
EXPLAIN (COSTS OFF) SELECT * FROM ev WHERE tags @> ARRAY['rare:quokka'];
-- the README's block
\o /dev/null
CREATE INDEX ON ev USING bloomskip (tags);
SELECT * FROM ev WHERE tags @> ARRAY['rare:quokka', 'env:0'];
SELECT * FROM ev WHERE tags && ARRAY['rare:quokka', 'user:5'];
\o
DROP INDEX ev_tags_idx;
-- the README's advice for rare values on scattered rows: smaller ranges
CREATE INDEX ON ev USING bloomskip (tags) WITH (pages_per_range = 4);
SELECT pages_per_range, (arr_diff('ev', 'ev_tags_idx', $$tags @> ARRAY['rare:quokka']$$)).*
FROM bloomskip_info('ev_tags_idx');
DROP INDEX ev_tags_idx;

CREATE TABLE aq (q text);
INSERT INTO aq VALUES
	($$tags @> '{rare:quokka}'$$), ($$tags @> '{rare:quokka,env:0}'$$), ($$tags @> '{rare:quokka,env:1}'$$),
	($$tags @> '{rare:quokka,rare:quokka}'$$), ($$tags @> '{rare:wombat}'$$), ($$tags @> '{}'$$),
	($$tags @> '{NULL}'$$), ($$tags @> '{rare:quokka,NULL}'$$), ($$tags @> '{env:0}'$$),
	($$tags @> '{{rare:quokka},{env:0}}'$$), ($$tags && '{rare:quokka}'$$), ($$tags && '{rare:quokka,user:5}'$$),
	($$tags && '{rare:wombat,rare:koala}'$$), ($$tags && '{}'$$), ($$tags && '{NULL}'$$),
	($$tags && '{NULL,rare:quokka}'$$), ($$tags <@ '{a,b,c,NULL}'$$), ($$tags <@ '{}'$$),
	($$tags <@ '{env:0,svc:0,user:0,rare:quokka}'$$), ($$tags = '{}'$$), ($$tags = '{NULL}'$$),
	($$tags = '{{a,b},{c,NULL}}'$$), ($$tags = '{a,b,c,NULL}'$$), ($$tags = '{env:0,svc:0,user:0}'$$),
	($$tags = ARRAY['env:0','svc:3','user:3']$$), ($$tags @> '{a}'$$), ($$tags && '{c}'$$),
	($$ids @> '{3001}'$$), ($$ids @> '{3001,3001}'$$), ($$ids && '{5,6,99999999}'$$), ($$ids @> '{4}'$$),
	($$ids = '{{1,2},{3,4}}'$$), ($$ids = '{1,2,3,4}'$$), ($$ids @> '{}'$$), ($$ids <@ '{1,2,3,4}'$$),
	($$amounts @> '{1}'$$), ($$amounts @> '{1.000}'$$), ($$amounts @> '{7}'$$), ($$amounts && '{7,8,4.0}'$$),
	($$amounts = '{1.0}'$$), ($$amounts = '{1,1}'$$), ($$amounts @> '{NULL}'$$),
	($$tags @> '{rare:quokka}' AND ids && '{3001,6002}'$$);
SELECT q, (arr_diff('ev', CASE WHEN q LIKE 'ids%' THEN 'ev_ids' WHEN q LIKE 'amounts%' THEN 'ev_amounts'
	ELSE 'ev_tags' END, q)).* FROM aq ORDER BY q COLLATE "C";
-- every row's own user tag and id, present and absent
SELECT count(*) AS queries, count(*) FILTER (WHERE d.used) AS index_used,
	count(*) FILTER (WHERE d.diff <> 0) AS wrong, count(*) FILTER (WHERE d.nrows = 0) AS absent
FROM generate_series(1, 12001, 397) i,
	LATERAL arr_diff('ev', 'ev_ids', format('ids @> ARRAY[%s::bigint]', i)) d;
-- appended rows (the open range, then summarized by VACUUM) and updates
INSERT INTO ev SELECT -i, ARRAY['rare:appended', 'env:0'], ARRAY[-i::bigint], '{2.50}'
FROM generate_series(10, 40) i;
UPDATE ev SET tags = tags || '{rare:updated}' WHERE id % 2999 = 0;
VACUUM ev;
SELECT bloomskip_check('ev_tags') AS tags_missing, bloomskip_check('ev_amounts') AS amounts_missing;
SELECT (arr_diff('ev', 'ev_tags', $$tags @> '{rare:appended}'$$)).*,
	(arr_diff('ev', 'ev_tags', $$tags && '{rare:updated,rare:none}'$$)).*,
	(arr_diff('ev', 'ev_amounts', $$amounts @> '{2.5}'$$)).*;
-- a range's filter answers bloom_contains for an element as the index does
SELECT (bloom_info(bloomskip_range_filter('ev_tags', 0))).element_family,
	bloom_contains(bloomskip_range_filter('ev_tags', 0), 'svc:7'::text) AS svc7_in_range_0,
	bloom_contains(bloomskip_range_filter('ev_ids', 0), 5::bigint) AS id5_in_range_0,
	bloom_contains(bloomskip_range_filter('ev_amounts', 0), 3.000) AS amount3_in_range_0;
DROP TABLE ev, aq;

-- the other element types bloomskip hashes: integers, uuid, dates,
-- timestamps, bytea; every row's own value, present and absent
CREATE TABLE et (i int, a int4[], s int2[], u uuid[], d date[], t timestamp[], tz timestamptz[], b bytea[])
	WITH (autovacuum_enabled = false);
INSERT INTO et SELECT i, ARRAY[i, i + 1], ARRAY[(i % 300)::int2],
	ARRAY[md5(i::text)::uuid], ARRAY[date '2020-01-01' + i],
	ARRAY[timestamp '2020-01-01' + i * interval '1 minute'],
	ARRAY[timestamptz '2020-01-01 00:00+00' + i * interval '1 minute'],
	ARRAY[decode(md5(i::text), 'hex'), NULL]
FROM generate_series(1, 6000) i;
CREATE INDEX et_a ON et USING bloomskip (a);
CREATE INDEX et_s ON et USING bloomskip (s);
CREATE INDEX et_u ON et USING bloomskip (u);
CREATE INDEX et_d ON et USING bloomskip (d);
CREATE INDEX et_t ON et USING bloomskip (t);
CREATE INDEX et_tz ON et USING bloomskip (tz);
CREATE INDEX et_b ON et USING bloomskip (b);
ANALYZE et;
SELECT c.col, count(*) AS queries, count(*) FILTER (WHERE d.used) AS index_used,
	count(*) FILTER (WHERE d.diff <> 0) AS wrong, sum(d.nrows) AS rows
FROM (VALUES ('a', 'ARRAY[%s]'), ('s', 'ARRAY[(%s %% 300)::int2]'), ('u', 'ARRAY[md5(%s::text)::uuid]'),
	('d', $$ARRAY[date '2020-01-01' + %s]$$), ('t', $$ARRAY[timestamp '2020-01-01' + %s * interval '1 minute']$$),
	('tz', $$ARRAY[timestamptz '2020-01-01 00:00+00' + %s * interval '1 minute']$$),
	('b', $$ARRAY[decode(md5(%s::text), 'hex')]$$)) c(col, expr),
	generate_series(1, 6400, 811) i,
	LATERAL arr_diff('et', 'et_' || c.col, format('%I @> ' || c.expr, c.col, i)) d
GROUP BY c.col ORDER BY c.col;
SELECT bloomskip_check('et_u') + bloomskip_check('et_tz') + bloomskip_check('et_b') AS missing;

-- an element type without an extended hash function is refused
CREATE TABLE ep (p point[]);
CREATE INDEX ON ep USING bloomskip (p);
-- a multi-column index with an array column and an equality column
-- (alone: et_a reads the same ranges through fewer index pages)
DROP INDEX et_a;
CREATE INDEX et_multi ON et USING bloomskip (i, a);
SELECT (arr_diff('et', 'et_multi', 'i = 77 AND a @> ARRAY[78]')).*;
DROP TABLE et, ep;

-- the planner counts the ranges the index passes (PostgreSQL estimates a
-- rare element at hundreds of rows): a rare tag through the index, a
-- common one by the sequential scan
CREATE TABLE pl (id int, tags int[]) WITH (autovacuum_enabled = false);
INSERT INTO pl SELECT i, ARRAY[i % 3, 1000 + i * 7919 % 50021] FROM generate_series(1, 100000) i;
CREATE INDEX pl_tags ON pl USING bloomskip (tags);
ANALYZE pl;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pl WHERE tags @> '{4242}';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pl WHERE tags && '{4242, 4243}';
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pl WHERE tags @> '{1}';
RESET max_parallel_workers_per_gather;
SELECT (arr_diff('pl', 'pl_tags', 'tags @> ''{4242}''')).*, (arr_diff('pl', 'pl_tags', 'tags @> ''{1}''')).*;

-- the scan reads the heap pages of exactly the ranges whose filters hold
-- what the condition asks -- @>: every element (a rare and a common one:
-- the rare one's ranges, no more), &&: one of them (the union of the
-- elements' ranges) -- and the open tail.  The oracle: each summarized
-- range's own filter (bloomskip_range_filter).
CREATE FUNCTION arr_pages(cond text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	j json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT count(*) FROM pl WHERE '
		|| cond INTO j;
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN coalesce((j->0->'Plan'->'Plans'->0->>'Lossy Heap Blocks')::bigint, 0) +
		coalesce((j->0->'Plan'->'Plans'->0->>'Exact Heap Blocks')::bigint, 0);
END
$$;
CREATE FUNCTION arr_range_pages(need_all boolean, elems int[]) RETURNS bigint
LANGUAGE sql AS $$
	WITH i AS (SELECT * FROM bloomskip_info('pl_tags')),
	hit AS (SELECT r FROM i, generate_series(0, i.summarized_ranges - 1) r
		WHERE CASE WHEN need_all
			THEN (SELECT bool_and(bloom_contains(bloomskip_range_filter('pl_tags', r), e)) FROM unnest(elems) e)
			ELSE (SELECT bool_or(bloom_contains(bloomskip_range_filter('pl_tags', r), e)) FROM unnest(elems) e) END)
	SELECT (SELECT count(*) FROM hit) * i.pages_per_range +
		(pg_relation_size('pl') / 8192 - i.summarized_ranges * i.pages_per_range)
	  FROM i
$$;
SELECT arr_pages('tags @> ''{4242}''') = arr_range_pages(true, '{4242}') AS rare,
	arr_pages('tags @> ''{4242, 2}''') = arr_range_pages(true, '{4242, 2}') AS rare_and_common,
	arr_pages('tags @> ''{4242, 2}''') = arr_pages('tags @> ''{4242}''') AS common_adds_none,
	arr_pages('tags && ''{4242, 4243, 9999}''') = arr_range_pages(false, '{4242, 4243, 9999}') AS any_of_three;
SELECT (arr_diff('pl', 'pl_tags', 'tags @> ''{4242, 2}''')).*, (arr_diff('pl', 'pl_tags', 'tags && ''{4242, 4243, 9999}''')).*;
-- @> an array with a NULL element is false for every row (NULL equals
-- nothing): the scan reads no page, not even the open tail's
INSERT INTO pl VALUES (0, '{1, NULL}');
SELECT arr_pages('tags @> ''{4242, NULL}''') AS null_pages, arr_pages('tags @> ''{NULL}''') AS only_null_pages,
	arr_pages('tags @> ''{4242}''') > 0 AS without_null_reads;
SELECT (arr_diff('pl', 'pl_tags', 'tags @> ''{NULL}''')).*, (arr_diff('pl', 'pl_tags', 'tags @> ''{1, NULL}''')).*,
	(arr_diff('pl', 'pl_tags', 'tags = ''{1, NULL}''')).*;
DROP FUNCTION arr_pages(text);
DROP FUNCTION arr_range_pages(boolean, int[]);
DROP TABLE pl;
DROP FUNCTION arr_diff(text, text, text);
