-- Adding and probing: no false negatives, measured false-positive rates,
-- inputs never modified, NULL handling, untyped literals.

-- bloom_add returns a new value and never modifies its input
CREATE TEMP TABLE keep AS SELECT bloom_empty(1000) AS f;
SELECT bloom_contains(f || 42, 42) AS added, bloom_contains(f, 42) AS input_untouched FROM keep;

-- operators, untyped literals, NULLs
SELECT bloom_empty(100) || 'abc' @> 'abc' AS text_literal,
       bloom_empty(100) || 'abc'::text @> 'abd'::text AS other_text,
       bloom_add(bloom_empty(100), 'x') @> 'x' AS function_form;
SELECT (bloom_empty(100) || NULL::int) IS NOT NULL AS add_null_keeps_filter,
       bloom_contains(bloom_empty(100) || 1, NULL::int) IS NULL AS probe_null_is_null,
       bloom_add(NULL::bloom, 1) IS NULL AS null_filter;
SELECT bloom_empty(100) @> 5 AS empty_filter_contains_nothing;
SELECT (bloom_info(bloom_empty(100) || 1 || 2 || 2)).items AS items_counts_adds;

-- zero false negatives over 1,000,000 members, blocked layout at 1 %
CREATE TEMP TABLE f1 AS SELECT bloom_agg(md5(i::text), 1000000, 0.01) AS f
FROM generate_series(1, 1000000) i;
SELECT count(*) AS false_negatives
FROM f1, generate_series(1, 1000000) i WHERE NOT bloom_contains(f, md5(i::text));
-- measured false-positive rate over 1,000,000 non-members, within 15 % of 1 %
SELECT fp BETWEEN 0.0085 AND 0.0115 AS fpr_1pct_within_15pct
FROM (SELECT count(*) FILTER (WHERE bloom_contains(f, md5(i::text)))::float8 / 1000000 AS fp
      FROM f1, generate_series(1000001, 2000000) i) s;

-- 0.1 %
CREATE TEMP TABLE f2 AS SELECT bloom_agg(i, 1000000, 0.001) AS f
FROM generate_series(1, 1000000) i;
SELECT count(*) AS false_negatives
FROM f2, generate_series(1, 1000000) i WHERE NOT bloom_contains(f, i);
SELECT fp BETWEEN 0.00085 AND 0.00115 AS fpr_01pct_within_15pct
FROM (SELECT count(*) FILTER (WHERE bloom_contains(f, i))::float8 / 1000000 AS fp
      FROM f2, generate_series(1000001, 2000000) i) s;

-- classic layout through the explicit (size, hashes, seed) form, sized by
-- bloom_params, at 1 %
SELECT layout, bits, hashes FROM bloom_params(1000000, 0.01, 'classic');
CREATE TEMP TABLE f3 AS SELECT bloom_agg(i, (p.bits / 8)::int, p.hashes, 12345) AS f
FROM generate_series(1, 1000000) i, bloom_params(1000000, 0.01, 'classic') p
GROUP BY p.bits, p.hashes;
SELECT count(*) AS false_negatives
FROM f3, generate_series(1, 1000000) i WHERE NOT bloom_contains(f, i);
SELECT fp BETWEEN 0.0085 AND 0.0115 AS fpr_classic_within_15pct
FROM (SELECT count(*) FILTER (WHERE bloom_contains(f, i))::float8 / 1000000 AS fp
      FROM f3, generate_series(1000001, 2000000) i) s;

-- rates below 5e-4 get the classic layout automatically
SELECT layout, hashes FROM bloom_params(1000, 0.00001);
SELECT count(*) AS false_negatives_classic_auto
FROM (SELECT bloom_agg(i, 10000, 0.00001) AS f FROM generate_series(1, 10000) i) s,
     generate_series(1, 10000) i WHERE NOT bloom_contains(f, i);

-- bloom_add in a loop equals bloom_agg
SELECT (SELECT bloom_agg(i, 1000, 0.01) FROM generate_series(1, 300) i) =
       (WITH RECURSIVE r(i, f) AS (SELECT 0, bloom_empty(1000, 0.01)
                                   UNION ALL SELECT i + 1, f || (i + 1) FROM r WHERE i < 300)
        SELECT f FROM r WHERE i = 300) AS add_loop_equals_agg;

-- a PL/pgSQL variable changing between calls of the same expression:
-- large filters must not be cached as if they were constants
DO $$
DECLARE
	f bloom;
	answers text := '';
BEGIN
	FOR i IN 1..3 LOOP
		f := bloom_agg(x, 5000000, 0.01) || i FROM generate_series(1, 10) x;
		answers := answers || bloom_contains(f, i)::text || ',' || bloom_contains(f, i + 100)::text || ' ';
	END LOOP;
	RAISE NOTICE 'answers: %', answers;
END $$;
