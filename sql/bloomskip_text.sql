-- bloomskip for text search: ILIKE through text_ngram_ci_bloomskip_ops
-- (n-grams of lower(value)), regular expressions ~ and ~* (and SIMILAR TO)
-- through both n-gram classes.  The oracle: the rows a bitmap scan of the
-- index returns are exactly the rows a sequential scan returns, for many
-- patterns, hand-picked and generated.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

-- the index plan's rows against the sequential scan's, and whether the
-- index plan used the given index
CREATE FUNCTION tx_diff(cond text, idx text,
	OUT used boolean, OUT nrows bigint, OUT diff bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan text := '';
	line text;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT ctid FROM tlogs WHERE %s', cond) LOOP
		plan := plan || line || E'\n';
	END LOOP;
	used := plan LIKE '%Bitmap Index Scan on ' || idx || E'\n%';
	EXECUTE format('CREATE TEMP TABLE tx_ix AS SELECT ctid AS c FROM tlogs WHERE %s', cond);
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	EXECUTE format('CREATE TEMP TABLE tx_sq AS SELECT ctid AS c FROM tlogs WHERE %s', cond);
	SELECT count(*) INTO nrows FROM tx_sq;
	SELECT count(*) INTO diff FROM ((TABLE tx_ix EXCEPT ALL TABLE tx_sq)
		UNION ALL (TABLE tx_sq EXCEPT ALL TABLE tx_ix)) d;
	DROP TABLE tx_ix;
	DROP TABLE tx_sq;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
END
$$;

-- the heap pages a bitmap scan of the index returns for cond
CREATE FUNCTION tx_pages(cond text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	EXECUTE format('EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) SELECT count(*) FROM tlogs WHERE %s', cond)
		INTO plan;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	RETURN (SELECT coalesce(sum((n->>'Lossy Heap Blocks')::bigint), 0)
		FROM jsonb_path_query(plan::jsonb, 'strict $.**') AS j(n)
		WHERE jsonb_typeof(n) = 'object' AND n ? 'Lossy Heap Blocks');
END
$$;

-- log lines in mixed case, some non-ASCII (whose case folding is not
-- ASCII's: the Kelvin sign (chr(8490)), a dotted capital I, a Greek final
-- sigma)
CREATE TABLE tlogs (id int, msg text, ci text) WITH (autovacuum_enabled = false);
INSERT INTO tlogs
SELECT i, m, m
FROM generate_series(1, 12000) i,
	LATERAL (SELECT (ARRAY['GET', 'post', 'Put', 'DELETE'])[i % 4 + 1] || ' /api/' ||
		(ARRAY['users', 'Orders', 'ITEMS', 'carts', 'Séances', 'ΣΑΣ', 'İstanbul', 'keY'])[i % 8 + 1] || '/' ||
		(i * 7919 % 100003) || ' ' || (ARRAY['Error', 'ERROR', 'error', 'warn', 'Info'])[i % 5 + 1] ||
		' req=' || substr(md5(i::text), 1, 12) ||
		CASE WHEN i % 101 = 0 THEN ' user=Naïve_Café' ELSE '' END ||
		CASE WHEN i % 3001 = 0 THEN ' ' || chr(8490) || 'elvin=' || i ELSE '' END ||
		CASE WHEN i % 2500 = 0 THEN ' tag=QuoKKa' || i ELSE '' END AS m) s;
INSERT INTO tlogs VALUES (-1, NULL, NULL), (-2, '', ''), (-3, 'a', 'A'),
	(-4, '100% sure_thing\done', '100% SURE_thing\done'), (-5, 'ab', 'AB'),
	(-6, 'a.b*c+d?e(f)g[h]i{j}k|l^m$n', 'A.B*C+D?E(F)G[H]I{J}K|L^M$N');
CREATE INDEX tlogs_ng ON tlogs USING bloomskip (msg text_ngram_bloomskip_ops);
CREATE INDEX tlogs_ci ON tlogs USING bloomskip (ci text_ngram_ci_bloomskip_ops);
ANALYZE tlogs;
SELECT bloomskip_check('tlogs_ng') AS ng_missing, bloomskip_check('tlogs_ci') AS ci_missing;

-- the plans: ILIKE through the ci class, ~ and ~* through both
EXPLAIN (COSTS OFF) SELECT * FROM tlogs WHERE ci ILIKE '%quokka2500%';
EXPLAIN (COSTS OFF) SELECT * FROM tlogs WHERE msg ~ 'QuoKKa25\d+';
EXPLAIN (COSTS OFF) SELECT * FROM tlogs WHERE ci ~* 'quokka2500';
EXPLAIN (COSTS OFF) SELECT * FROM tlogs WHERE msg SIMILAR TO '%QuoKKa2500%';
-- a pattern that asks nothing of the index (no string of n characters):
-- the planner's cost counts every range, and the sequential scan wins
EXPLAIN (COSTS OFF) SELECT * FROM tlogs WHERE msg ~ 'Q.o.K';
EXPLAIN (COSTS OFF) SELECT * FROM tlogs WHERE ci ILIKE '%ok%';
-- ILIKE is not served by the case-sensitive class, nor LIKE and ~ by the ci class
SELECT (tx_diff($$msg ILIKE '%quokka2500%'$$, 'tlogs_ng')).used AS ng_ilike,
	(tx_diff($$ci LIKE '%QUOKKA2500%'$$, 'tlogs_ci')).used AS ci_like,
	(tx_diff($$ci ~ 'QUOKKA2500'$$, 'tlogs_ci')).used AS ci_regex;

-- ILIKE: hand-picked patterns, non-ASCII folding included
CREATE TABLE ipats (p text);
INSERT INTO ipats VALUES ('%quokka2500%'), ('%QUOKKA5000%'), ('%séances%'), ('%SÉANCES%'),
	('%σας%'), ('%ΣΑΣ%'), ('%ςας%'), ('%istanbul%'), ('%İSTANBUL%'), ('%i̇stanbul%'),
	('%kelvin=%'), ('%KELVIN=3001%'), (U&'%\212Aelvin%'), ('%key/%'), ('%naïve\_café%'),
	('%NAÏVE_CAFÉ%'), ('%error req=%'), ('%zzzz%'), ('%'), (''), ('a'), ('%100\% sure%'),
	('%SURE\_THING%'), ('%thing\\done'), ('%_a_b_%'), ('%ORDERS/7919 %'), ('%REQ=C4CA4238A0B9%');
SELECT p, (tx_diff(format('ci ILIKE %L', p), 'tlogs_ci')).* FROM ipats ORDER BY p COLLATE "C";
-- a rare needle reads few pages
SELECT p, tx_pages(format('ci ILIKE %L', p)) AS pages FROM ipats
WHERE p IN ('%quokka2500%', '%QUOKKA5000%', '%REQ=C4CA4238A0B9%', '%KELVIN=3001%') ORDER BY p COLLATE "C";

-- regular expressions: anchors, classes, alternation, repetition,
-- escapes, embedded options, SIMILAR TO's translation
CREATE TABLE rpats (p text);
INSERT INTO rpats VALUES ('QuoKKa2500'), ('quokka2500'), ('QuoKKa(2500|5000)'), ('^GET /api/users'),
	('ERROR req=c4ca'), ('(Error|ERROR) req=c4ca4238'), ('req=[c]4ca4238'), ('req=[cd]4ca4238'),
	('req=[^x]4ca4238'), ('req=[a-d]4ca4238'), ('req=\w+4ca4238'), ('req=.4ca4238a0b9'),
	('colou?r'), ('Put /api/(keY|ITEMS)/7919 '), ('tag=QuoKKa(2500)?'), ('tag=(QuoKKa)+2500'),
	('(?i)quokka2500'), ('(?c)QuoKKa2500'), ('***=a.b*c+d?e(f)g'), ('***:QuoKKa2500'),
	('(?q)a.b*c'), ('(?x) QuoKKa 2500 '), ('a\.b\*c\+d\?e\(f\)g\[h\]'), ('Naïve_Café'),
	('ΣΑΣ/7919'), ('Séances/\d{2,}'), ('\mQuoKKa'), ('QuoKKa2500$'), ('^$'), (''),
	('.*'), ('x*'), ('(a|b)*c'), ('req=[[:xdigit:]]{12}'), ('QuoK{2}a2500'), ('QuoK{1,2}a2500'),
	('QuoKKa2500(?=\s|$)'), ('(?<=tag=)QuoKKa2500'), ('(QuoKKa)\1'), ('\x51uoKKa2500'),
	('\u0051uoKKa2500'), ('[q]uoKKa2500'), ('(((((QuoKKa2500)))))'), ('QuoKKa2500|zzzzzz'),
	('QuoKKa2500|.'), ('(Qu|qu)(oKK|okk)a2500'), ('a^b'), ('Error(?!x) req'),
	('\\done'), ('100% sure_thing'), ('sure_thing\\d'), ('[]x]4ca'), ('[]]'), ('keY/\d+ Info req=');
SELECT p, (tx_diff(format('msg ~ %L', p), 'tlogs_ng')).* FROM rpats ORDER BY p COLLATE "C";
SELECT p, (tx_diff(format('msg ~* %L', p), 'tlogs_ng')).* FROM rpats ORDER BY p COLLATE "C";
SELECT p, (tx_diff(format('ci ~* %L', p), 'tlogs_ci')).* FROM rpats ORDER BY p COLLATE "C";
-- SIMILAR TO, which the parser turns into ~
SELECT p, (tx_diff(format('msg SIMILAR TO %L', p), 'tlogs_ng')).*
FROM (VALUES ('%QuoKKa2500%'), ('%(QuoKKa|zzzz)2500%'), ('GET%'), ('%req=c4ca4238a0b9%'),
	('%QuoKKa_500'), ('%[Q]uoKKa%'), ('%')) v(p) ORDER BY p COLLATE "C";
-- a rare needle reads few pages
SELECT tx_pages($$msg ~ 'QuoKKa5000'$$) AS regex, tx_pages($$msg ~* 'quokka5000'$$) AS iregex,
	tx_pages($$ci ~* 'QUOKKA5000'$$) AS ci_iregex, tx_pages($$msg ~ 'req=c4ca4238a0b9'$$) AS regex_md5,
	(SELECT relpages FROM pg_class WHERE relname = 'tlogs') AS table_pages;

-- generated patterns: fragments of rows (escaped) joined by regular
-- expression operators, and fragments of md5s (mostly absent)
CREATE FUNCTION rx_escape(s text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT regexp_replace(s, '([.*+?^${}()|\[\]\\])', '\\\1', 'g') $$;
CREATE TABLE gpats AS
SELECT rx_escape(substr(msg, 1 + id % 20, 3 + id % 7)) ||
	(ARRAY['', '.*', '\d*', '|', '(x)?', '[ab]?', '+', '{1,3}', '\s', '.'])[id % 10 + 1] ||
	rx_escape(substr(msg, 25 + id % 10, 2 + id % 5)) AS p
FROM tlogs WHERE id > 0 AND id % 211 = 0
UNION ALL
SELECT '(' || rx_escape(substr(msg, 5, 4)) || '|' || substr(md5(id::text), 1, 5) || ')' ||
	(ARRAY['', '?', '*', '+'])[id % 4 + 1] || rx_escape(substr(msg, 9, 4))
FROM tlogs WHERE id > 0 AND id % 997 = 0
UNION ALL
SELECT substr(md5(i::text || 'r'), 1, 3 + i % 6) FROM generate_series(1, 20) i;
SELECT count(*) AS patterns,
	count(*) FILTER (WHERE a.used) AS index_used,
	count(*) FILTER (WHERE a.diff <> 0 OR b.diff <> 0 OR c.diff <> 0) AS wrong,
	count(*) FILTER (WHERE a.nrows = 0) AS absent
FROM gpats,
	LATERAL tx_diff(format('msg ~ %L', p), 'tlogs_ng') a,
	LATERAL tx_diff(format('msg ~* %L', p), 'tlogs_ng') b,
	LATERAL tx_diff(format('ci ~* %L', p), 'tlogs_ci') c;

-- = ANY of patterns: one clause per element, ORed
SELECT (tx_diff($$msg ~ ANY (ARRAY['QuoKKa2500', 'QuoKKa5000', 'zz(yy)+xx'])$$, 'tlogs_ng')).*;
SELECT (tx_diff($$msg ~ ANY (ARRAY['QuoKKa2500', '.'])$$, 'tlogs_ng')).*;
SELECT (tx_diff($$ci ILIKE ANY (ARRAY['%quokka2500%', '%KELVIN=3001%', NULL])$$, 'tlogs_ci')).*;

-- an invalid regular expression raises PostgreSQL's own error through the
-- index, even where no range is read
SET enable_seqscan = off;
SELECT count(*) FROM tlogs WHERE msg ~ '(QuoKKa';
SELECT count(*) FROM tlogs WHERE ci ~* 'a{2,1}';
SELECT count(*) FROM tlogs WHERE msg ~ '(QuoKKa' AND id = -100;
RESET enable_seqscan;
-- a huge pattern: the same answer
SELECT (tx_diff(format('msg ~ %L', repeat('(a|b)', 3000) || 'QuoKKa2500'), 'tlogs_ng')).*;
SELECT (tx_diff(format('msg ~ %L', repeat('QuoKKa2500', 2000)), 'tlogs_ng')).*;

-- the ci class under a nondeterministic collation is refused
CREATE COLLATION tx_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE tnd (t text COLLATE tx_ci);
CREATE INDEX ON tnd USING bloomskip (t text_ngram_ci_bloomskip_ops);
DROP TABLE tnd;
DROP COLLATION tx_ci;

-- inserts after the build are found
INSERT INTO tlogs VALUES (30001, 'late QuoKKa99999 line', 'late QuoKKa99999 line');
SELECT (tx_diff($$ci ILIKE '%quokka99999%'$$, 'tlogs_ci')).*, (tx_diff($$msg ~ 'QuoKKa9{5}'$$, 'tlogs_ng')).*;

-- the README's block, on log lines holding its needles
CREATE TABLE logs (id int, line text);
INSERT INTO logs SELECT i, 'GET /api/items/' || i || ' status=200 trace=' || substr(md5(i::text), 1, 10)
FROM generate_series(1, 20000) i;
INSERT INTO logs VALUES (0, 'GET /api/items/0 status=500 trace=z1UoG7ceL1'),
	(-1, 'POST /api/carts/7 Timeout after 30 ms');
ANALYZE logs;
\o /dev/null
CREATE INDEX ON logs USING bloomskip (line text_ngram_ci_bloomskip_ops);
SELECT * FROM logs WHERE line ILIKE '%Trace=Z1UOG7CEL1%';
SELECT * FROM logs WHERE line ~* 'timeout (after|in) \d+ ?ms';
\o
SELECT (SELECT count(*) FROM logs WHERE line ILIKE '%Trace=Z1UOG7CEL1%') AS ilike_rows,
	(SELECT count(*) FROM logs WHERE line ~* 'timeout (after|in) \d+ ?ms') AS iregex_rows;
EXPLAIN (COSTS OFF) SELECT * FROM logs WHERE line ILIKE '%Trace=Z1UOG7CEL1%';
DROP TABLE logs;

DROP TABLE tlogs, ipats, rpats, gpats;
DROP FUNCTION tx_diff(text, text), tx_pages(text), rx_escape(text);
