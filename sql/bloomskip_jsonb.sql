-- bloomskip's jsonb class, jsonb_bloomskip_ops: a range's keys are its
-- documents' top-level keys (what ? finds) and their path-and-value pairs
-- (as jsonb_path_ops pairs them); ?, ?|, ?& ask for keys, @> for pairs,
-- @? and @@ read every range.  The oracle: the rows of the index plan are
-- exactly those of the sequential scan, for deep nesting, arrays, numbers
-- equal under jsonb equality, json nulls and SQL NULLs, duplicate keys,
-- top-level arrays and scalars.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

CREATE FUNCTION js_diff(cond text, OUT used boolean, OUT nrows bigint, OUT diff bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM att WHERE %s', cond) LOOP
		plan := plan || line || E'\n';
	END LOOP;
	used := plan LIKE E'%Bitmap Index Scan on att_doc\n%';
	EXECUTE format('CREATE TEMP TABLE js_ix AS SELECT ctid AS c FROM att WHERE %s', cond);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE js_sq AS SELECT ctid AS c FROM att WHERE %s', cond);
	SELECT count(*) INTO nrows FROM js_sq;
	SELECT count(*) INTO diff FROM ((TABLE js_ix EXCEPT ALL TABLE js_sq)
		UNION ALL (TABLE js_sq EXCEPT ALL TABLE js_ix)) d;
	DROP TABLE js_ix;
	DROP TABLE js_sq;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
END
$$;

CREATE TABLE att (id int, doc jsonb) WITH (autovacuum_enabled = false);
INSERT INTO att
SELECT i, jsonb_build_object(
	'service', 'svc' || (i % 50),
	'status', (ARRAY[200, 404, 500])[i % 3 + 1],
	'user', jsonb_build_object('id', i, 'tier', CASE WHEN i % 2 = 0 THEN 'gold' ELSE 'free' END,
		'geo', jsonb_build_object('country', 'c' || (i % 40), 'deep', jsonb_build_object('x',
			jsonb_build_object('y', jsonb_build_object('z', i % 13))))),
	'tags', jsonb_build_array('t' || (i % 7), 't' || (i % 11), i % 5),
	'amount', ((i % 9) || '.50')::numeric,
	'flag', i % 4 = 0,
	'note', CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || i END)
	|| CASE WHEN i % 3001 = 0 THEN '{"rare_key": {"a": [1, 2, {"b": "quokka"}]}}'::jsonb ELSE '{}' END
FROM generate_series(1, 12000) i;
INSERT INTO att VALUES (-1, NULL), (-2, '{}'), (-3, '[]'), (-4, '"rare_key"'), (-5, '["rare_key", "x", 1]'),
	(-6, '{"a": 1, "a": 2.0}'), (-7, 'null'), (-8, '42.000'), (-9, '[[["deep"]]]'),
	(-10, '{"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": "bottom"}}}}}}}}}}'),
	(-11, '{"": ""}'), (-12, '[{"a": 1}, {"a": [2, 3]}]');
CREATE INDEX att_doc ON att USING bloomskip (doc);
ANALYZE att;
SELECT bloomskip_check('att_doc') AS missing;
EXPLAIN (COSTS OFF) SELECT * FROM att WHERE doc ? 'rare_key';
-- the README's block
\o /dev/null
CREATE INDEX ON att USING bloomskip (doc);
SELECT * FROM att WHERE doc @> '{"user": {"id": 3001}}';
SELECT * FROM att WHERE doc ? 'rare_key';
\o
DROP INDEX att_doc_idx;

CREATE TABLE jq (q text);
INSERT INTO jq VALUES
	($$doc ? 'rare_key'$$), ($$doc ? 'service'$$), ($$doc ? 'nope'$$), ($$doc ? 'id'$$), ($$doc ? 'x'$$),
	($$doc ? 'a'$$), ($$doc ? ''$$), ($$doc ? 'deep'$$), ($$doc ?| '{rare_key,nope}'$$), ($$doc ?| '{}'$$),
	($$doc ?| '{NULL}'$$), ($$doc ?| '{NULL,rare_key}'$$), ($$doc ?& '{rare_key,service}'$$),
	($$doc ?& '{rare_key,nope}'$$), ($$doc ?& '{}'$$), ($$doc ?& '{NULL}'$$), ($$doc ?& '{x,rare_key}'$$),
	($$doc @> '{"user": {"id": 3001}}'$$), ($$doc @> '{"user": {"id": 3001.0}}'$$),
	($$doc @> '{"user": {"id": 3001, "tier": "free"}}'$$), ($$doc @> '{"user": {"id": 3001, "tier": "gold"}}'$$),
	($$doc @> '{"amount": 4.5}'$$), ($$doc @> '{"amount": 4.50000}'$$), ($$doc @> '{"amount": -4.5}'$$),
	($$doc @> '{"note": null}'$$), ($$doc @> '{"flag": true, "status": 404}'$$),
	($$doc @> '{"tags": ["t3"]}'$$), ($$doc @> '{"tags": ["t3", 4, "t6"]}'$$), ($$doc @> '{"tags": "t3"}'$$),
	($$doc @> '{"user": {"geo": {"deep": {"x": {"y": {"z": 12}}}}}}'$$),
	($$doc @> '{"rare_key": {"a": [{"b": "quokka"}]}}'$$), ($$doc @> '{"rare_key": {"a": [2]}}'$$),
	($$doc @> '{"rare_key": {}}'$$), ($$doc @> '{}'$$), ($$doc @> '[]'$$), ($$doc @> '"rare_key"'$$),
	($$doc @> '["rare_key"]'$$), ($$doc @> '1'$$), ($$doc @> '[1]'$$), ($$doc @> '42'$$), ($$doc @> '42.0'$$),
	($$doc @> 'null'$$), ($$doc @> '{"a": 2}'$$), ($$doc @> '{"a": 1}'$$), ($$doc @> '[{"a": 3}]'$$),
	($$doc @> '[{"a": [3]}]'$$), ($$doc @> '[[["deep"]]]'$$), ($$doc @> '["deep"]'$$), ($$doc @> '{"": ""}'$$),
	($$doc @> '{"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": "bottom"}}}}}}}}}}'$$),
	($$doc @? '$.rare_key.a[*] ? (@.b == "quokka")'$$), ($$doc @@ '$.user.id == 3001'$$),
	($$doc @> '{"user": {"id": 3001}}' AND doc ? 'rare_key'$$), ($$doc ? ANY (ARRAY['rare_key', 'nope'])$$),
	($$doc @> ANY (ARRAY['{"user": {"id": 3001}}', '{"a": 2}', NULL]::jsonb[])$$),
	($$doc @> ANY (ARRAY['{"user": {"id": 3001}}', '{}']::jsonb[])$$);
SELECT q, (js_diff(q)).* FROM jq ORDER BY q COLLATE "C";
-- every document's own user id and country, present and absent
SELECT count(*) AS queries, count(*) FILTER (WHERE d.used) AS index_used,
	count(*) FILTER (WHERE d.diff <> 0) AS wrong, count(*) FILTER (WHERE d.nrows = 0) AS absent
FROM generate_series(1, 12001, 397) i,
	LATERAL js_diff(format('doc @> %L', jsonb_build_object('user', jsonb_build_object('id', i,
		'geo', jsonb_build_object('country', 'c' || (i % 40)))))) d;
-- appended and updated documents, then VACUUM summarizes them
INSERT INTO att SELECT -100 - i, jsonb_build_object('appended', i, 'user', jsonb_build_object('id', -i))
FROM generate_series(1, 30) i;
UPDATE att SET doc = doc || '{"updated": [true]}' WHERE id % 2999 = 0;
VACUUM att;
SELECT bloomskip_check('att_doc') AS missing;
SELECT (js_diff($$doc ? 'appended'$$)).*, (js_diff($$doc @> '{"updated": [true]}'$$)).*,
	(js_diff($$doc @> '{"user": {"id": -7}}'$$)).*;
-- a range's filter answers bloom_contains for a top-level key as ? does,
-- a key with an underscore too (one key, not two tokens)
SELECT (bloom_info(bloomskip_range_filter('att_doc', 0))).element_family,
	bloom_contains(bloomskip_range_filter('att_doc', 0), 'service'::text) AS service_in_range_0;
-- every key ? finds (an object's keys, a top-level array's strings, a
-- top-level string) is in its range's filter
SELECT count(*) FILTER (WHERE NOT bloom_contains(bloomskip_range_filter('att_doc', x.r), x.key))
		AS keys_missing_from_their_range,
	count(*) FILTER (WHERE x.key LIKE '%\_%') > 0 AS some_keys_hold_underscores
FROM bloomskip_info('att_doc') i,
	LATERAL (SELECT (a.ctid::text::point)[0]::bigint / i.pages_per_range AS r, k.key
		FROM att a, LATERAL (
			SELECT jsonb_object_keys(a.doc) WHERE jsonb_typeof(a.doc) = 'object'
			UNION ALL
			SELECT e #>> '{}' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a.doc) = 'array' THEN a.doc END) e
			 WHERE jsonb_typeof(e) = 'string'
			UNION ALL
			SELECT a.doc #>> '{}' WHERE jsonb_typeof(a.doc) = 'string') k(key)) x
WHERE x.r < i.summarized_ranges;
-- the planner counts the ranges the index passes: a rare pair through the
-- index, a common one by the sequential scan
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM att WHERE doc @> '{"user": {"id": 3001}}';
EXPLAIN (COSTS OFF) SELECT count(*) FROM att WHERE doc ? 'rare_key';
EXPLAIN (COSTS OFF) SELECT count(*) FROM att WHERE doc @> '{"status": 404}';
RESET max_parallel_workers_per_gather;
-- the scan reads the heap pages of exactly the ranges whose filters hold
-- the keys asked -- ?&: every one (a rare and a common key: the rare one's
-- ranges, no more), ?|: one of them (their union) -- and the open tail.
-- The oracle: each summarized range's own filter (bloomskip_range_filter;
-- bloom_contains on it answers ? for any key).
CREATE TABLE jr (doc jsonb) WITH (autovacuum_enabled = false);
INSERT INTO jr SELECT jsonb_build_object('svc', 's' || (i % 50), 'u' || (i * 7919 % 5003), true)
FROM generate_series(1, 50000) i;
CREATE INDEX jr_doc ON jr USING bloomskip (doc);
CREATE FUNCTION js_pages(cond text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	j json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT count(*) FROM jr WHERE '
		|| cond INTO j;
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN coalesce((j->0->'Plan'->'Plans'->0->>'Lossy Heap Blocks')::bigint, 0) +
		coalesce((j->0->'Plan'->'Plans'->0->>'Exact Heap Blocks')::bigint, 0);
END
$$;
CREATE FUNCTION js_range_pages(need_all boolean, keys text[]) RETURNS bigint
LANGUAGE sql AS $$
	WITH i AS (SELECT * FROM bloomskip_info('jr_doc')),
	hit AS (SELECT r FROM i, generate_series(0, i.summarized_ranges - 1) r
		WHERE CASE WHEN need_all
			THEN (SELECT bool_and(bloom_contains(bloomskip_range_filter('jr_doc', r), k)) FROM unnest(keys) k)
			ELSE (SELECT bool_or(bloom_contains(bloomskip_range_filter('jr_doc', r), k)) FROM unnest(keys) k) END)
	SELECT (SELECT count(*) FROM hit) * i.pages_per_range +
		(pg_relation_size('jr') / 8192 - i.summarized_ranges * i.pages_per_range)
	  FROM i
$$;
SELECT js_pages($$doc ? 'u4242'$$) = js_range_pages(true, '{u4242}') AS rare,
	js_pages($$doc ?& '{u4242, svc}'$$) = js_range_pages(true, '{u4242, svc}') AS rare_and_common,
	js_pages($$doc ?& '{u4242, svc}'$$) = js_pages($$doc ? 'u4242'$$) AS common_adds_none,
	js_pages($$doc ?| '{u4242, u777, nowhere}'$$) = js_range_pages(false, '{u4242, u777, nowhere}')
		AS any_of_three,
	js_pages($$doc ? 'u4242'$$) < js_pages($$doc ?| '{u4242, u777, nowhere}'$$) AS union_grows;
SELECT count(*) FILTER (WHERE doc ? 'u4242') AS rare_rows,
	count(*) FILTER (WHERE doc ?| '{u4242, u777, nowhere}') AS any_rows FROM jr;
DROP TABLE jr;
DROP FUNCTION js_pages(text);
DROP FUNCTION js_range_pages(boolean, text[]);
-- the classes' support function 2
SELECT f.opfname, p.amproc::regproc AS class_function
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfname IN ('array_bloomskip_ops', 'jsonb_bloomskip_ops') AND p.amprocnum = 2 ORDER BY 1;
DROP TABLE att, jq;
DROP FUNCTION js_diff(text);
