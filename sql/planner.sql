-- Planner estimates: bloom_contains(f, x) and f @> x get the same estimate,
-- from a constant filter's estimated items and rate against the column's
-- statistics; without them a documented default of 10 %.
CREATE TABLE pl_t AS SELECT g AS id, (g % 1000) AS k FROM generate_series(1, 100000) g;
ANALYZE pl_t;
CREATE TABLE pl_f AS SELECT bloom_agg(x, 1000, 0.01) AS f100 FROM generate_series(1, 100) x;
ANALYZE pl_f;
CREATE FUNCTION pl_rows(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN ' || q LOOP
		IF l ~ 'rows=' THEN RETURN substring(l from 'rows=([0-9]+)')::bigint; END IF;
	END LOOP;
	RETURN NULL;
END $$;
-- a constant filter of 100 of the column's 1000 distinct values: ~10 % of
-- the rows plus false positives (the exact answer is 10,000 + ~1 % of 90,000)
SELECT f100 AS f FROM pl_f \gset
SELECT pl_rows(format('SELECT * FROM pl_t WHERE bloom_contains(%L::bloom, k)', :'f')) AS function_rows,
       pl_rows(format('SELECT * FROM pl_t WHERE %L::bloom @> k', :'f')) AS operator_rows,
       (SELECT count(*) FROM pl_t WHERE bloom_contains((SELECT f100 FROM pl_f), k)) AS actual_rows;
SELECT pl_rows(format('SELECT * FROM pl_t WHERE bloom_contains(%L::bloom, k)', :'f'))
       BETWEEN 9000 AND 12000 AS estimate_near_actual;
-- a filter known only at run time: the default, the same for both forms
SELECT pl_rows('SELECT * FROM pl_t, pl_f WHERE bloom_contains(pl_f.f100, pl_t.k)') AS function_rows_join,
       pl_rows('SELECT * FROM pl_t, pl_f WHERE pl_f.f100 @> pl_t.k') AS operator_rows_join;
SELECT pl_rows('SELECT * FROM pl_t WHERE bloom_contains((SELECT f100 FROM pl_f), k)') AS function_rows_param,
       pl_rows('SELECT * FROM pl_t WHERE (SELECT f100 FROM pl_f) @> k') AS operator_rows_param;
-- counting and scalable filters (1.3): estimated from their own items and
-- rate, alike under the shared name, the prefixed name and the operator
CREATE TABLE pl_k AS SELECT counting_bloom_agg(x, 1000, 0.01) AS c100, scalable_bloom_agg(x, 20, 0.01) AS s100
  FROM generate_series(1, 100) x;
ANALYZE pl_k;
SELECT c100 AS c, s100 AS s, (SELECT count(*) FROM bloom_info(s100)) AS s_subs FROM pl_k \gset
SELECT :s_subs AS scalable_sub_filters,
       pl_rows(format('SELECT * FROM pl_t WHERE bloom_contains(%L::counting_bloom, k)', :'c')) AS counting_verb,
       pl_rows(format('SELECT * FROM pl_t WHERE counting_bloom_contains(%L::counting_bloom, k)', :'c')) AS counting_prefixed,
       pl_rows(format('SELECT * FROM pl_t WHERE %L::counting_bloom @> k', :'c')) AS counting_operator,
       (SELECT count(*) FROM pl_t WHERE bloom_contains((SELECT c100 FROM pl_k), k)) AS counting_actual;
SELECT pl_rows(format('SELECT * FROM pl_t WHERE bloom_contains(%L::scalable_bloom, k)', :'s')) AS scalable_verb,
       pl_rows(format('SELECT * FROM pl_t WHERE scalable_bloom_contains(%L::scalable_bloom, k)', :'s')) AS scalable_prefixed,
       pl_rows(format('SELECT * FROM pl_t WHERE %L::scalable_bloom @> k', :'s')) AS scalable_operator,
       (SELECT count(*) FROM pl_t WHERE bloom_contains((SELECT s100 FROM pl_k), k)) AS scalable_actual;
SELECT pl_rows(format('SELECT * FROM pl_t WHERE bloom_contains(%L::counting_bloom, k)', :'c'))
       BETWEEN 9000 AND 12000 AS counting_near_actual,
       pl_rows(format('SELECT * FROM pl_t WHERE bloom_contains(%L::scalable_bloom, k)', :'s'))
       BETWEEN 9000 AND 12000 AS scalable_near_actual;
-- empty filters: no row but the planner's minimum of one; a filter known
-- only at run time: the default, as for bloom
SELECT pl_rows('SELECT * FROM pl_t WHERE bloom_contains(counting_bloom_empty(100), k)') AS counting_empty,
       pl_rows('SELECT * FROM pl_t WHERE scalable_bloom_empty() @> k') AS scalable_empty,
       pl_rows('SELECT * FROM pl_t WHERE bloom_contains((SELECT c100 FROM pl_k), k)') AS counting_param,
       pl_rows('SELECT * FROM pl_t, pl_k WHERE bloom_contains(pl_k.s100, pl_t.k)') AS scalable_join;
-- NULLs never match: half the rows NULL, the filter's values all still in
-- the column (which now has 501 distinct values)
UPDATE pl_t SET k = NULL WHERE k > 500;
ANALYZE pl_t;
SELECT pl_rows(format('SELECT * FROM pl_t WHERE %L::bloom @> k', :'f')) BETWEEN 9000 AND 12000 AS nulls_counted,
       (SELECT count(*) FROM pl_t WHERE bloom_contains((SELECT f100 FROM pl_f), k)) AS actual_rows;
-- the functions and operators use bloomset's estimators
SELECT oid::regprocedure AS function, prosupport = 'bloom_contains_support'::regproc AS uses_bloom_contains_support FROM pg_proc
 WHERE proname IN ('bloom_contains', 'counting_bloom_contains', 'scalable_bloom_contains') ORDER BY oid::regprocedure::text;
SELECT DISTINCT oprrest::regproc, oprjoin::regproc FROM pg_operator WHERE oprname = '@>'
   AND oprleft IN ('bloom'::regtype, 'counting_bloom'::regtype, 'scalable_bloom'::regtype);
DROP FUNCTION pl_rows(text);
DROP TABLE pl_t, pl_f, pl_k;
