-- bench/skipcheck.sql -- tables and timing functions of the skipcheck group
-- (bench/skipcheck.sh): bloomskip_check against CREATE INDEX, per class.
-- Needs the line generator of bench/skipngram.sql (sng_line) and the
-- generators of bench/skiparray.sql (ska_tags, ska_attrs), loaded first.

-- one table per class and size: skc_<class>_<rows>, column v
CREATE TABLE skc_class (ord int, class text, ddl text);
INSERT INTO skc_class VALUES
	(1, 'int8 (equality)', 'USING bloomskip (v)'),
	(2, 'text n-gram', 'USING bloomskip (v text_ngram_bloomskip_ops)'),
	(3, 'text n-gram ci', 'USING bloomskip (v text_ngram_ci_bloomskip_ops)'),
	(4, 'tsvector', 'USING bloomskip (v)'),
	(5, 'text[] tags', 'USING bloomskip (v)'),
	(6, 'jsonb attributes', 'USING bloomskip (v)');
CREATE TABLE skc_r (server text, class text, nrows bigint, rep int, build_ms float8, check_ms float8,
	missing bigint, index_bytes bigint);

CREATE FUNCTION skc_table(ord int, n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT format('skc_%s_%s', ord, n)
$$;

-- the table of class ord with n rows (VACUUM ANALYZE it next)
CREATE FUNCTION skc_load(ord int, n bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t text := skc_table(ord, n);
	gen text := CASE ord
		WHEN 1 THEN 'i'
		WHEN 2 THEN 'sng_line(i)'
		WHEN 3 THEN 'sng_line(i)'
		WHEN 4 THEN 'to_tsvector(''simple'', sng_line(i))'
		WHEN 5 THEN 'ska_tags(i)'
		ELSE 'ska_attrs(i)' END;
BEGIN
	EXECUTE format('CREATE TABLE %I WITH (autovacuum_enabled = off) AS SELECT i AS id, %s AS v FROM generate_series(1, %s) i',
				   t, gen, n);
END
$$;

-- one round: build the index of class ord on its n-row table, check it,
-- drop it; both timed on the server's clock
CREATE FUNCTION skc_round(server text, ord int, n bigint, rep int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t text := skc_table(ord, n);
	c skc_class;
	t0 timestamptz;
	b float8;
	k float8;
	missing bigint;
	bytes bigint;
BEGIN
	SELECT * INTO c FROM skc_class WHERE skc_class.ord = skc_round.ord;
	SET LOCAL client_min_messages = warning;
	t0 := clock_timestamp();
	EXECUTE format('CREATE INDEX skc_ix ON %I %s', t, c.ddl);
	b := extract(epoch FROM clock_timestamp() - t0) * 1000;
	bytes := pg_relation_size('skc_ix');
	t0 := clock_timestamp();
	missing := bloomskip_check('skc_ix');
	k := extract(epoch FROM clock_timestamp() - t0) * 1000;
	DROP INDEX skc_ix;
	INSERT INTO skc_r VALUES (server, c.class, n, rep, b, k, missing, bytes);
END
$$;
