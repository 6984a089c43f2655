-- bloomskip's operator classes declare their operations through support
-- function 2.  The classes of 1.3 move onto it without a change in what
-- they hash: an index built under 1.3's catalog reads the same bits after
-- ALTER EXTENSION UPDATE (every range's filter is byte for byte the same),
-- bloomskip_check (which rehashes every row through the class's table)
-- finds every key, and scans answer as the sequential scan.

\set SHOW_CONTEXT never
SET client_min_messages = warning;

DROP EXTENSION bloomset CASCADE;
CREATE EXTENSION bloomset VERSION '1.3';
CREATE TABLE cls (id int, name text, at date, line text);
INSERT INTO cls SELECT i, 'n' || (i % 997), DATE '2020-01-01' + i % 500,
	md5(i::text) || ' user' || (i % 1000) || ' took ' || (i % 77) || 'ms'
FROM generate_series(1, 20000) i;
CREATE INDEX cls_eq ON cls USING bloomskip (id, name, at) WITH (pages_per_range = 4);
CREATE INDEX cls_ng ON cls USING bloomskip (line text_ngram_bloomskip_ops) WITH (pages_per_range = 4);
-- the families of 1.3 have no support function 2
SELECT count(*) AS class_functions FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'bloomskip') AND p.amprocnum = 2;
CREATE TABLE cls_before AS
SELECT i, c, r, md5(bloomskip_range_filter(i, r, c)::text) AS f
FROM (VALUES ('cls_eq'::regclass, 1), ('cls_eq', 2), ('cls_eq', 3), ('cls_ng', 1)) x(i, c),
	generate_series(0, 20) r;
SELECT bloomskip_check('cls_eq') AS eq_missing, bloomskip_check('cls_ng') AS ng_missing;

ALTER EXTENSION bloomset UPDATE;
\c
SET client_min_messages = warning;
-- every family has its support function 2 now
SELECT f.opfname, p.amproc::regproc
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'bloomskip') AND p.amprocnum = 2
ORDER BY 1, p.amproclefttype::regtype::text;
-- by class function
SELECT p.amproc::regproc AS class_function, count(*) AS families
FROM pg_amproc p
WHERE p.amprocnum = 2 AND p.amproc::regproc::text IN ('bloomskip_equal_class', 'bloomskip_ngram_class',
	'bloomskip_ngram_ci_class', 'bloomskip_tsvector_class')
GROUP BY 1 ORDER BY 1::text;
-- the same bits, read the same way
SELECT count(*) AS ranges_compared,
	count(*) FILTER (WHERE f <> md5(bloomskip_range_filter(i, r, c)::text)) AS ranges_changed
FROM cls_before;
SELECT bloomskip_check('cls_eq') AS eq_missing, bloomskip_check('cls_ng') AS ng_missing;
-- answers as the sequential scan, through the index
SET enable_seqscan = off;
SET enable_indexscan = off;
CREATE TEMP TABLE ix AS
SELECT 'id' AS q, count(*) AS n FROM cls WHERE id = 4242
UNION ALL SELECT 'name', count(*) FROM cls WHERE name = 'n17'
UNION ALL SELECT 'at', count(*) FROM cls WHERE at = DATE '2020-03-01'
UNION ALL SELECT 'any', count(*) FROM cls WHERE id = ANY (ARRAY[1, 77, 19999])
UNION ALL SELECT 'like', count(*) FROM cls WHERE line LIKE '%user17 took%';
RESET enable_seqscan;
RESET enable_indexscan;
SET enable_bitmapscan = off;
CREATE TEMP TABLE sq AS
SELECT 'id' AS q, count(*) AS n FROM cls WHERE id = 4242
UNION ALL SELECT 'name', count(*) FROM cls WHERE name = 'n17'
UNION ALL SELECT 'at', count(*) FROM cls WHERE at = DATE '2020-03-01'
UNION ALL SELECT 'any', count(*) FROM cls WHERE id = ANY (ARRAY[1, 77, 19999])
UNION ALL SELECT 'like', count(*) FROM cls WHERE line LIKE '%user17 took%';
RESET enable_bitmapscan;
SELECT q, ix.n AS index_rows, sq.n = ix.n AS equal FROM ix JOIN sq USING (q) ORDER BY q;
-- a rebuild under 1.4's catalog hashes alike: no key missing
REINDEX INDEX cls_eq;
REINDEX INDEX cls_ng;
SELECT bloomskip_check('cls_eq') AS eq_missing, bloomskip_check('cls_ng') AS ng_missing;
-- every class validates
SELECT opcname, amvalidate(oid) FROM pg_opclass
WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'bloomskip') ORDER BY 1;

-- a family whose support function 2 is not a class table is refused
CREATE FUNCTION cls_not_a_class(internal) RETURNS internal
	AS '$libdir/bloomset', 'bloomskip_handler' LANGUAGE C STRICT;
CREATE OPERATOR CLASS cls_bad_ops FOR TYPE int4 USING bloomskip AS
	OPERATOR 1 = (int4, int4), FUNCTION 2 cls_not_a_class(internal);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'cls_bad_ops';
-- an operator of a strategy its class does not serve
CREATE OPERATOR CLASS cls_bad2_ops FOR TYPE text USING bloomskip AS
	OPERATOR 1 = (text, text), OPERATOR 2 ~~ (text, text),
	FUNCTION 2 bloomskip_equal_class(internal);
SELECT amvalidate(oid) FROM pg_opclass WHERE opcname = 'cls_bad2_ops';
SET client_min_messages = warning;
DROP OPERATOR CLASS cls_bad_ops USING bloomskip CASCADE;
DROP OPERATOR CLASS cls_bad2_ops USING bloomskip CASCADE;
DROP FUNCTION cls_not_a_class(internal);
DROP TABLE cls, cls_before;
