-- bench/small_adds.sql -- what adding keys one at a time to a stored filter
-- costs, and the two ways around it (run by bench/small_adds.sh on a
-- throwaway cluster; prints one row per way).
--
-- The filter: 2 MiB-class, bloom_empty(1750000, 0.01) holding 1,000,000
-- keys, stored with 1.2's default storage (external).  Each way adds the
-- same 2,000 new keys, one statement per key (as an application that
-- records keys as they arrive would), and the table reports the time and
-- WAL per key added, the cost of a point lookup afterwards and the size
-- on disk.
--   1. each key: UPDATE filt SET f = f || key        (rewrites the filter)
--   2. batched:  keys go to a table pending(k); every 500 keys one
--      UPDATE ... SET f = bloom_add_all(f, ARRAY(SELECT k FROM pending))
--      empties it; lookups ask f @> k OR EXISTS (pending)
--   3. a delta filter with the same parameters, stored compressed (lz4:
--      a nearly empty filter compresses to a few kB): each key updates
--      the delta; lookups ask f @> k OR delta @> k; every 500 keys
--      f = f | delta and the delta is emptied
\set ON_ERROR_STOP 1
\pset footer off
SET synchronous_commit = on;
CREATE EXTENSION IF NOT EXISTS bloomset;
CREATE TABLE src AS SELECT bloom_add_all(bloom_empty(1750000, 0.01),
	(SELECT array_agg(g::bigint) FROM generate_series(1, 1000000) g)) AS f;
CREATE TABLE filt (id int PRIMARY KEY, f bloom);
CREATE TABLE pending (k bigint PRIMARY KEY);
CREATE TABLE delta (id int PRIMARY KEY, f bloom);
ALTER TABLE delta ALTER f SET STORAGE EXTENDED, ALTER f SET COMPRESSION lz4;
CREATE TABLE result (way text, ms_per_key numeric, wal_kb_per_key numeric,
	lookup_ms numeric, stored text, ord int);

CREATE PROCEDURE run_way(way int) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz; w0 pg_lsn; t numeric; w numeric; lk numeric; kv bigint; hit boolean;
	nkeys constant int := 2000; batch constant int := 500;
BEGIN
	TRUNCATE filt, pending, delta;
	INSERT INTO filt SELECT 1, f FROM src;
	INSERT INTO delta VALUES (1, bloom_empty(1750000, 0.01));
	COMMIT;
	t0 := clock_timestamp(); w0 := pg_current_wal_insert_lsn();
	FOR i IN 1 .. nkeys LOOP
		kv := 5000000 + i;
		IF way = 1 THEN
			UPDATE filt SET f = f || kv WHERE id = 1;
		ELSIF way = 2 THEN
			INSERT INTO pending VALUES (kv);
			IF i % batch = 0 THEN
				UPDATE filt SET f = bloom_add_all(f, ARRAY(SELECT p.k FROM pending p)) WHERE id = 1;
				DELETE FROM pending;
			END IF;
		ELSE
			UPDATE delta SET f = f || kv WHERE id = 1;
			IF i % batch = 0 THEN
				UPDATE filt SET f = filt.f | delta.f FROM delta WHERE filt.id = 1 AND delta.id = 1;
				UPDATE delta SET f = bloom_empty(1750000, 0.01) WHERE id = 1;
			END IF;
		END IF;
		COMMIT;
	END LOOP;
	t := extract(epoch FROM clock_timestamp() - t0) * 1000 / nkeys;
	w := (pg_current_wal_insert_lsn() - w0) / 1024.0 / nkeys;
	-- a point lookup the way this way asks (median-free: 200 lookups)
	t0 := clock_timestamp();
	FOR i IN 1 .. 200 LOOP
		kv := 5000000 + i * 7;
		IF way = 1 THEN
			SELECT f @> kv INTO hit FROM filt WHERE id = 1;
		ELSIF way = 2 THEN
			SELECT f @> kv OR EXISTS (SELECT 1 FROM pending p WHERE p.k = kv) INTO hit FROM filt WHERE id = 1;
		ELSE
			SELECT filt.f @> kv OR delta.f @> kv INTO hit FROM filt, delta WHERE filt.id = 1 AND delta.id = 1;
		END IF;
		IF NOT hit THEN RAISE EXCEPTION 'false negative for %', kv; END IF;
	END LOOP;
	lk := extract(epoch FROM clock_timestamp() - t0) * 1000 / 200;
	INSERT INTO result VALUES (
		CASE way WHEN 1 THEN 'each key: f = f || key' WHEN 2 THEN 'pending table, bloom_add_all every 500'
			ELSE 'delta filter (lz4), f | delta every 500' END,
		round(t, 3), round(w, 1), round(lk, 3),
		format('filter %s, delta %s', (SELECT pg_size_pretty(pg_column_size(f)::bigint) FROM filt),
			   (SELECT pg_size_pretty(pg_column_size(f)::bigint) FROM delta)), way);
	COMMIT;
END $$;
CALL run_way(1);
CALL run_way(2);
CALL run_way(3);
SELECT way, ms_per_key, wal_kb_per_key, lookup_ms, stored FROM result ORDER BY ord;
