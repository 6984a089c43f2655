-- test/upgrade/skip_answers.sql -- what the bloomskip index of
-- skip_index.sql answers: the keys bloomskip_check misses (0), the plans
-- of the probes (through the index), then each probe's rows (count and sum
-- of ids) through the index and by a sequential scan.  The index's hashing
-- scheme is read apart (run.sh), since a REINDEX changes it.
SELECT 'missing ' || bloomskip_check('sk_tn');
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM sk WHERE t = ANY (ARRAY(SELECT 'key-' || g FROM generate_series(1, 60000, 97) g));
SELECT 'index text ' || count(*) || ' ' || sum(id) FROM sk
 WHERE t = ANY (ARRAY(SELECT 'key-' || g FROM generate_series(1, 60000, 97) g));
SELECT 'index text one ' || count(*) || ' ' || sum(id) FROM sk WHERE t = 'key-31337';
SELECT 'index bigint ' || count(*) || ' ' || sum(id) FROM sk
 WHERE n = ANY (ARRAY(SELECT g::bigint * 1000003 FROM generate_series(1, 60000, 89) g));
RESET enable_seqscan;
RESET enable_indexscan;
SET enable_bitmapscan = off;
SELECT 'seq text ' || count(*) || ' ' || sum(id) FROM sk
 WHERE t = ANY (ARRAY(SELECT 'key-' || g FROM generate_series(1, 60000, 97) g));
SELECT 'seq text one ' || count(*) || ' ' || sum(id) FROM sk WHERE t = 'key-31337';
SELECT 'seq bigint ' || count(*) || ' ' || sum(id) FROM sk
 WHERE n = ANY (ARRAY(SELECT g::bigint * 1000003 FROM generate_series(1, 60000, 89) g));
