-- The operators and casts every kind has: "char" values for the adds and
-- lookups that also take text, = and <> for counting_bloom and
-- scalable_bloom, and their bytea casts both ways.
SET bloomset.full_filter = off;

-- "char" matches both the text overload (by an implicit cast) and the
-- anycompatible one; its own overload hashes it as bloom_agg does
SELECT bloom_add(bloom_empty(100), 'x'::"char") = bloom_agg('x'::"char", 100, 0.01) AS add_is_agg,
       (bloom_empty(100) || 'y'::"char") @> 'y'::"char" AS bloom_concat,
       (counting_bloom_empty(100, 0.01) || 'y'::"char") @> 'y'::"char" AS counting_concat,
       bloom_add(counting_bloom_empty(100, 0.01), 'y'::"char") @> 'y'::"char" AS counting_add,
       counting_bloom_add(counting_bloom_empty(100, 0.01), 'y'::"char") @> 'y'::"char" AS counting_prefixed,
       (scalable_bloom_empty(100) || 'y'::"char") @> 'y'::"char" AS scalable_concat,
       bloom_add(scalable_bloom_empty(100), 'y'::"char") @> 'y'::"char" AS scalable_add,
       scalable_bloom_add(scalable_bloom_empty(100), 'y'::"char") @> 'y'::"char" AS scalable_prefixed,
       bloom_add(bloom_empty(100), NULL::"char") = bloom_empty(100) AS null_ignored;
-- every "char" value of one byte is found; a filter of "char" takes text
-- as its input function reads it, and a text filter needs a collation for
-- a "char" value, which has none (COLLATE, or a cast to text, gives it)
SELECT count(*) FILTER (WHERE NOT f @> c) AS false_negatives
  FROM (SELECT bloom_agg(chr(i)::"char") AS f FROM generate_series(1, 127) i) s,
       LATERAL (SELECT chr(i)::"char" AS c FROM generate_series(1, 127) i) v;
SELECT bloom_agg('x'::"char") || 'abc'::text;
SELECT bloom_agg('abc'::text) || 'x'::"char";
SELECT (bloom_agg('abc'::text) || ('x'::"char")::text) @> 'x' AS cast_to_text;
-- the filter index's lookup by a "char" key
CREATE TABLE ko_chunks AS
SELECT c::bigint AS id, bloom_agg(chr(64 + c * 4 + k)::"char", 100, 0.01) AS f
  FROM generate_series(0, 5) c, generate_series(0, 3) k GROUP BY c;
SELECT bloom_index_create('ko_idx', 'SELECT id, f FROM ko_chunks')::text AS created;
SELECT array_agg(id ORDER BY id) AS ids FROM bloom_index_lookup('ko_idx', 'I'::"char") AS id;
SELECT count(*) AS probes_equal FROM ko_chunks
 WHERE (f @> 'I'::"char") = (id IN (SELECT bloom_index_lookup('ko_idx', 'I'::"char")));
DROP TABLE ko_idx, ko_chunks;

-- = and <> on counting_bloom: parameters and counters (not the item count)
SELECT a = a AS same, a = (a || 2001) AS added, a <> (a || 2001) AS ne,
       a = counting_bloom_remove(a || 2001, 2001) AS add_then_remove,
       a = (SELECT counting_bloom_agg(g, 1000, 0.01) FROM generate_series(1, 100) g) AS rebuilt,
       a = (SELECT counting_bloom_agg(g, 2000, 0.01) FROM generate_series(1, 100) g) AS other_size
  FROM (SELECT counting_bloom_agg(g, 1000, 0.01) AS a FROM generate_series(1, 100) g) s;
-- = and <> on scalable_bloom: the same binary form
SELECT a = a AS same, a = (a || 2001) AS added, a <> (a || 2001) AS ne,
       a = (SELECT scalable_bloom_agg(g, 10, 0.01) FROM generate_series(1, 100) g) AS rebuilt,
       a = (SELECT scalable_bloom_agg(g, 20, 0.01) FROM generate_series(1, 100) g) AS other_capacity
  FROM (SELECT scalable_bloom_agg(g, 10, 0.01) AS a FROM generate_series(1, 100) g) s;
-- equal values answer every probe alike
SELECT count(*) FILTER (WHERE (a @> g) <> (b @> g)) AS counting_disagreements
  FROM (SELECT counting_bloom_agg(g, 1000, 0.01) AS a, counting_bloom_agg(g, 1000, 0.01) AS b
          FROM generate_series(1, 500) g) s, generate_series(1, 5000) g
 WHERE a = b;

-- the binary form as bytea and back, for every kind
SELECT (c::bytea)::counting_bloom = c AS counting_round_trip,
       (s::bytea)::scalable_bloom = s AS scalable_round_trip,
       c::bytea = counting_bloom_send(c) AS counting_is_send,
       s::bytea = scalable_bloom_send(s) AS scalable_is_send,
       counting_bloom_from_bytea(c::bytea) @> 77 AS counting_found,
       scalable_bloom_from_bytea(s::bytea) @> 77 AS scalable_found
  FROM (SELECT counting_bloom_agg(g) AS c, scalable_bloom_agg(g) AS s FROM generate_series(1, 1000) g) x;
-- hostile bytes: every one an error of binary input (22P03), never a value
SELECT '\x'::bytea::counting_bloom;
SELECT '\x0102'::bytea::scalable_bloom;
SELECT (bloom_agg(1)::bytea)::counting_bloom;
SELECT (counting_bloom_agg(1)::bytea)::scalable_bloom;
SELECT (scalable_bloom_agg(1)::bytea)::counting_bloom;
SELECT substr(counting_bloom_agg(1)::bytea, 1, 60)::counting_bloom;
SELECT (scalable_bloom_agg(g)::bytea || '\x00'::bytea)::scalable_bloom FROM generate_series(1, 10) g;
DO $$
DECLARE
	good bytea := (SELECT scalable_bloom_agg(g)::bytea FROM generate_series(1, 300) g);
	cgood bytea := (SELECT counting_bloom_agg(g)::bytea FROM generate_series(1, 300) g);
	bad bytea;
	accepted int := 0;
	wrong_code int := 0;
BEGIN
	FOR i IN 0 .. 199 LOOP
		bad := set_byte(good, (i * 7919) % length(good), (get_byte(good, (i * 7919) % length(good)) + 1 + i) % 256);
		BEGIN
			PERFORM bad::scalable_bloom;
			accepted := accepted + 1;
		EXCEPTION WHEN invalid_binary_representation THEN NULL;
			WHEN OTHERS THEN wrong_code := wrong_code + 1;
		END;
		bad := set_byte(cgood, (i * 7919) % 120, (get_byte(cgood, (i * 7919) % 120) + 1 + i) % 256);
		BEGIN
			PERFORM bad::counting_bloom;
			accepted := accepted + 1;
		EXCEPTION WHEN invalid_binary_representation THEN NULL;
			WHEN OTHERS THEN wrong_code := wrong_code + 1;
		END;
	END LOOP;
	-- a changed bit-array byte is a valid value; a changed header field is
	-- refused: only the other errors count as failures
	RAISE NOTICE 'mutated: 400, refused with another SQLSTATE: %', wrong_code;
END $$;

-- the text input names the type it parses
SELECT 'x'::counting_bloom;
SELECT 'x'::scalable_bloom;

-- automatically sized counting filters are sized for their own counts,
-- hashes included, so two of different sizes do not union (a choice: a
-- count of hashes fixed for every size would cost each filter space); the
-- error says to size them alike, and sized ones union
SELECT counting_bloom_union(counting_bloom_agg(g),
                            (SELECT counting_bloom_agg(g) FROM generate_series(1, 100000) g))
  FROM generate_series(1, 10) g;
SELECT counting_bloom_union(counting_bloom_agg(g, 100000, 0.01),
                            (SELECT counting_bloom_agg(g, 100000, 0.01) FROM generate_series(1, 100000) g)) @> 5 AS sized_union
  FROM generate_series(1, 10) g;
RESET bloomset.full_filter;
