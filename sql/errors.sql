-- Every sizing and usage error, with its SQLSTATE.  No huge allocation is
-- ever attempted: limits are checked before allocating.
\set VERBOSITY default

SELECT bloom_empty(0);
SELECT bloom_empty(-5, 0.01);
SELECT bloom_empty(1000, 0);
SELECT bloom_empty(1000, 0.6);
SELECT bloom_empty(1000, 'NaN');
SELECT bloom_empty(1000, -0.01);
SELECT bloom_empty(2000000000000, 0.01);
SELECT bloom_empty(1000000000, 0.0001);
SELECT bloom_empty(64, 0, 0);
SELECT bloom_empty(64, 33, 0);
SELECT bloom_empty(16, 3, 0);
SELECT bloom_empty(1073741824, 3, 0);
SELECT bloom_params(0, 0.01);
SELECT bloom_params(100, 0.01, 'round');
SELECT bloom_agg(x, 0, 0.01) FROM generate_series(1, 3) x;
SELECT bloom_agg(x, 100, 1.0) FROM generate_series(1, 3) x;
SELECT bloom_agg(x, 10, 0, 0) FROM generate_series(1, 3) x;
-- support functions cannot be reached from SQL with forged states
SELECT bloom_agg_final(NULL);
SELECT bloom_agg_deserial('\x00'::bytea, NULL);

CREATE FUNCTION sqlstate_of(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
SELECT c AS error_case, sqlstate_of(q) AS sqlstate FROM (VALUES
  ('capacity <= 0', 'SELECT bloom_empty(0)'),
  ('fpr = 0', 'SELECT bloom_empty(10, 0)'),
  ('fpr > 0.5', 'SELECT bloom_empty(10, 0.75)'),
  ('zero hashes', 'SELECT bloom_empty(64, 0, 0)'),
  ('too large (1 GiB)', 'SELECT bloom_empty(1073741824, 3, 0)'),
  ('too large (capacity)', 'SELECT bloom_empty(10000000000, 0.001)'),
  ('bad text', 'SELECT ''x''::bloom'),
  ('bad binary', 'SELECT ''\x01''::bytea::bloom'),
  ('type mismatch', 'SELECT bloom_empty(10) || 1 @> true'),
  ('string not of the type', 'SELECT bloom_empty(10) || 1 @> ''a''::text'),
  ('union mismatch', 'SELECT (bloom_empty(64, 3, 0) || 1) | (bloom_empty(64, 3, 1) || 1)'),
  ('no hash opclass', 'SELECT bloom_empty(10) || point(1, 1)'),
  ('fold factor', 'SELECT bloom_fold(bloom_empty(64, 3, 0), 3)')
) v(c, q);
DROP FUNCTION sqlstate_of(text);

-- a rate that no filter within the limits reaches is refused (22023, with
-- the smallest reachable rate), not silently weakened
SELECT bloom_empty(1000000, 1e-300);
SELECT bloom_params(1000000, 1e-300);
SELECT bloom_agg(x, 1000000, 1e-300) FROM generate_series(1, 3) x;
SELECT counting_bloom_empty(1000000, 1e-300);
SELECT counting_bloom_empty(1000000, 1e-100);
-- every aggregate treats NULL sizing arguments alike: 22004
\set VERBOSITY terse
SELECT bloom_agg(x, NULL, 0.01) FROM generate_series(1, 3) x;
SELECT bloom_agg(x, 100, NULL) FROM generate_series(1, 3) x;
SELECT bloom_agg(x, NULL, 3, 0) FROM generate_series(1, 3) x;
SELECT counting_bloom_agg(x, NULL, 0.01) FROM generate_series(1, 3) x;
SELECT scalable_bloom_agg(x, NULL, 0.2) FROM generate_series(1, 3) x;
SELECT scalable_bloom_agg(x, 100, NULL) FROM generate_series(1, 3) x;
SELECT bloom_ngram_agg(x::text, NULL) FROM generate_series(1, 3) x;
\set VERBOSITY default
