-- Security: the extension script resists search_path hijacking, no
-- SECURITY DEFINER, every function usable by an unprivileged role.

SELECT count(*) AS security_definer_functions
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomset'
WHERE p.prosecdef;
SELECT count(*) AS functions_not_immutable_or_not_parallel_safe
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomset'
WHERE ((p.provolatile <> 'i' AND p.proname NOT IN ('bloom_contains_restrict', 'bloom_contains_joinsel'))
   OR p.proparallel <> 's') AND p.proname !~ '^(bloom_index_|bloomskip_)';
-- the skip index's tools read an index: bloomskip_info and bloomskip_check
-- VOLATILE (their figures change under concurrent writes), the range filter
-- STABLE (evaluated once in a WHERE clause), bloomskip_check with a
-- snapshot of its own (PARALLEL RESTRICTED); its handler and the n-gram
-- class's options function (IMMUTABLE, taking internal) are the server's
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel
FROM pg_proc p WHERE p.proname ~ '^bloomskip_' ORDER BY 1::text;
-- the filter index's functions read or write its table (STABLE, VOLATILE);
-- writers are PARALLEL UNSAFE; none is SECURITY DEFINER, and none has a
-- SET search_path clause (their C code pins the path for their own
-- statements, and runs the caller's query text under the caller's path:
-- bloom_index.sql checks it)
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel,
       p.proconfig IS NOT NULL AS set_clause
FROM pg_proc p WHERE p.proname ~ '^bloom_index_' AND (p.provolatile <> 'i' OR p.proparallel <> 's')
ORDER BY p.oid::regprocedure::text COLLATE "C";
-- the planner's estimators are STABLE, like pg_catalog's
SELECT p.proname, p.provolatile FROM pg_proc p
 WHERE p.proname IN ('bloom_contains_restrict', 'bloom_contains_joinsel') ORDER BY 1;
-- the selectivity functions of the operators are pg_catalog's or bloomset's own
SELECT DISTINCT oprrest::regprocedure::text FROM pg_operator
WHERE oprleft = 'bloom'::regtype AND oprrest <> 0 ORDER BY 1;

-- an unprivileged role can use everything
CREATE ROLE regress_bloom_user;
SET ROLE regress_bloom_user;
SELECT bloom_estimate_card(bloom_agg(x)) > 0 AS usable,
       bloom_union_agg(bloom_empty(10) || x) @> 3 AS union_usable
FROM generate_series(1, 10) x;
RESET ROLE;

-- search_path attack, as in contrib/seg: a role with CREATE on the database
-- installs the (trusted) extension with a hostile schema first in its
-- search_path, holding decoys for names the script uses.
DROP EXTENSION bloomset CASCADE;
SELECT current_database() AS datname \gset
GRANT CREATE ON DATABASE :"datname" TO regress_bloom_user;
SET ROLE regress_bloom_user;
CREATE SCHEMA regress_evil;
CREATE TABLE regress_evil.hits (what text);
CREATE DOMAIN regress_evil.float8 AS numeric;
CREATE DOMAIN regress_evil.bytea AS text;
CREATE FUNCTION regress_evil.int8(integer) RETURNS bigint
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('int8') RETURNING $1::bigint $$;
CREATE FUNCTION regress_evil.textcat(text, text) RETURNS text
  LANGUAGE sql AS $$ INSERT INTO regress_evil.hits VALUES ('textcat') RETURNING $1 $$;
CREATE SCHEMA regress_bloom;
SET search_path = regress_evil, regress_bloom;
CREATE EXTENSION bloomset SCHEMA regress_bloom;
SELECT count(*) AS rows FROM generate_series(1, 10) x
WHERE regress_bloom.bloom_empty(10) OPERATOR(regress_bloom.||) 'a'::text OPERATOR(regress_bloom.@>) 'a'::text;
SELECT (regress_bloom.bloom_empty(10) OPERATOR(regress_bloom.||) 1) OPERATOR(regress_bloom.=) (regress_bloom.bloom_empty(10) OPERATOR(regress_bloom.||) 1) AS eq;
EXPLAIN (COSTS OFF) SELECT * FROM generate_series(1, 10) x
WHERE regress_bloom.bloom_empty(10) OPERATOR(regress_bloom.@>) x;
SELECT count(*) AS decoys_called FROM regress_evil.hits;
SELECT count(*) AS functions_using_decoy_types FROM pg_proc
WHERE pronamespace = 'regress_bloom'::regnamespace
  AND (proargtypes::oid[] && ARRAY['regress_evil.float8'::regtype, 'regress_evil.bytea'::regtype]::oid[]
       OR prorettype IN ('regress_evil.float8'::regtype, 'regress_evil.bytea'::regtype));
RESET search_path;
DROP EXTENSION bloomset;
DROP SCHEMA regress_evil CASCADE;
DROP SCHEMA regress_bloom;
RESET ROLE;
CREATE EXTENSION bloomset;
REVOKE CREATE ON DATABASE :"datname" FROM regress_bloom_user;
DROP ROLE regress_bloom_user;
