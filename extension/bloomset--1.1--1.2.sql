/* bloomset--1.1--1.2.sql: upgrade from 1.1 to 1.2 (ALTER EXTENSION bloomset UPDATE) */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomset UPDATE TO '1.2'" to load this file. \quit

-- Every change to the SQL objects made after 1.1 is listed here, and the
-- same change is made in bloomset--1.2.sql (the fresh-install script); the
-- upgrade test checks that both give exactly the same objects.  Each part
-- below has its own heading; keep new objects under the heading of their
-- feature.

-- 1.2: hashing scheme 2 (full 64-bit integer keys, signed numerics)
--
-- New filters hash with scheme 2; filters written by 1.0 and 1.1 keep
-- scheme 1 and answer as before.  bloom_info's columns are unchanged (a
-- new column would mean DROP and CREATE, breaking users' views, as in the
-- 1.0 -> 1.1 update): the scheme has functions of its own.

CREATE FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_scheme(@extschema@.bloom) IS
'the hashing scheme of the filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

CREATE FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'counting_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_scheme(@extschema@.counting_bloom) IS
'the hashing scheme of the counting filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

CREATE FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) RETURNS integer
AS 'MODULE_PATHNAME', 'scalable_bloom_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_scheme(@extschema@.scalable_bloom) IS
'the hashing scheme of the scalable filter: 1 (bloomset 1.0 and 1.1), 2 (new filters since 1.2)';

CREATE FUNCTION @extschema@.bloom_with_scheme(@extschema@.bloom, scheme integer)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_with_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_with_scheme(@extschema@.bloom, integer) IS
'the empty filter with the given hashing scheme (1: to build filters that combine with filters stored by 1.0 or 1.1); a filter holding items cannot change';

CREATE FUNCTION @extschema@.counting_bloom_with_scheme(@extschema@.counting_bloom, scheme integer)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_with_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_with_scheme(@extschema@.counting_bloom, integer) IS
'the empty counting filter with the given hashing scheme (1: as bloomset 1.0 and 1.1); a filter holding items cannot change';

CREATE FUNCTION @extschema@.bloom_hash(value anycompatible, seed bigint, scheme integer)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_hash_scheme' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash(anycompatible, bigint, integer) IS
'the 64-bit element hash of a value under a hashing scheme (1 or 2; the two-argument form is scheme 1)';

-- 1.2: stored filters read in slices
-- The three types' default storage becomes external (out of line, never
-- compressed): a probe of a value stored so reads its header and the parts
-- its keys need, not the whole value, and writing a sparse filter does not
-- pay for compressing it.  This changes the default of columns created from
-- now on; existing columns keep their storage (ALTER TABLE ... ALTER COLUMN
-- ... SET STORAGE EXTERNAL changes one; values already stored keep theirs
-- until they are written again).
ALTER TYPE @extschema@.bloom SET (STORAGE = external);
ALTER TYPE @extschema@.counting_bloom SET (STORAGE = external);
ALTER TYPE @extschema@.scalable_bloom SET (STORAGE = external);

-- 1.2: the same verbs for the three kinds

-- batch calls, estimates and union aggregates of counting_bloom and
-- scalable_bloom, as bloom has them (one C mechanism per verb, see
-- src/bloom_batch.c)

CREATE FUNCTION @extschema@.counting_bloom_add_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_add_all(@extschema@.counting_bloom, anycompatiblearray) IS
'a copy of the counting filter with every non-null array element added';

CREATE FUNCTION @extschema@.counting_bloom_contains_any(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains_any(@extschema@.counting_bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.counting_bloom_contains_all(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'counting_bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains_all(@extschema@.counting_bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.counting_bloom_contains_each(@extschema@.counting_bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'counting_bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_contains_each(@extschema@.counting_bloom, anycompatiblearray) IS
'counting_bloom_contains for each element (NULL for NULL elements)';

CREATE FUNCTION @extschema@.counting_bloom_estimate_card(@extschema@.counting_bloom)
RETURNS float8
AS 'MODULE_PATHNAME', 'counting_bloom_estimate_card' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.counting_bloom_estimate_card(@extschema@.counting_bloom) IS
'estimated number of distinct items, from the non-zero counters';

CREATE FUNCTION @extschema@.counting_bloom_union_trans(internal, @extschema@.counting_bloom)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_final(internal)
RETURNS @extschema@.counting_bloom
AS 'MODULE_PATHNAME', 'counting_bloom_union_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_union_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'counting_bloom_union_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.counting_bloom_union_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'counting_bloom_union_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) (
	SFUNC = @extschema@.counting_bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.counting_bloom_union_final,
	COMBINEFUNC = @extschema@.counting_bloom_union_combine,
	SERIALFUNC = @extschema@.counting_bloom_union_serial,
	DESERIALFUNC = @extschema@.counting_bloom_union_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.counting_bloom_union_agg(@extschema@.counting_bloom) IS
'union (counters added) of the non-null counting filters (an empty filter over no rows)';

CREATE FUNCTION @extschema@.scalable_bloom_add_all(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_add_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_add_all(@extschema@.scalable_bloom, anycompatiblearray) IS
'a copy of the scalable filter with every non-null array element added (growing as needed)';

CREATE FUNCTION @extschema@.scalable_bloom_contains_any(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains_any(@extschema@.scalable_bloom, anycompatiblearray) IS
'may any non-null element be in the set?';

CREATE FUNCTION @extschema@.scalable_bloom_contains_all(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_all' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains_all(@extschema@.scalable_bloom, anycompatiblearray) IS
'may every non-null element be in the set?';

CREATE FUNCTION @extschema@.scalable_bloom_contains_each(@extschema@.scalable_bloom, anycompatiblearray)
RETURNS boolean[]
AS 'MODULE_PATHNAME', 'scalable_bloom_contains_each' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.scalable_bloom_contains_each(@extschema@.scalable_bloom, anycompatiblearray) IS
'scalable_bloom_contains for each element (NULL for NULL elements)';

CREATE FUNCTION @extschema@.scalable_bloom_union_trans(internal, @extschema@.scalable_bloom)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_union_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_final(internal)
RETURNS @extschema@.scalable_bloom
AS 'MODULE_PATHNAME', 'scalable_bloom_union_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_combine(internal, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_union_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_serial(internal)
RETURNS bytea
AS 'MODULE_PATHNAME', 'scalable_bloom_union_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.scalable_bloom_union_deserial(bytea, internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'scalable_bloom_union_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) (
	SFUNC = @extschema@.scalable_bloom_union_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.scalable_bloom_union_final,
	COMBINEFUNC = @extschema@.scalable_bloom_union_combine,
	SERIALFUNC = @extschema@.scalable_bloom_union_serial,
	DESERIALFUNC = @extschema@.scalable_bloom_union_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.scalable_bloom_union_agg(@extschema@.scalable_bloom) IS
'union (sub-filter-wise OR) of the non-null scalable filters (an empty filter over no rows; warns when over capacity)';

-- 1.2: Parquet filters

CREATE FUNCTION @extschema@.bloom_parquet_empty(size_bytes integer, element_type regtype)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_parquet_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_empty(integer, regtype) IS
'empty filter of the Parquet scheme (XXH64 of the PLAIN encoding) with a bitset of size_bytes (a multiple of 32), for values of element_type';

CREATE FUNCTION @extschema@.bloom_parquet_empty(capacity bigint, fpr float8, element_type regtype)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_parquet_empty_sized' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_parquet_empty(bigint, float8, regtype) IS
'empty filter of the Parquet scheme sized as Parquet writers size theirs (a power of two of bytes) for capacity values of element_type at rate fpr';

CREATE FUNCTION @extschema@.bloom_from_parquet(filter bytea, element_type regtype)
RETURNS @extschema@.bloom
AS 'MODULE_PATHNAME', 'bloom_from_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_parquet(bytea, regtype) IS
'a Parquet split-block filter (the bytes at a column chunk''s bloom_filter_offset, or the bitset alone) as a filter for values of element_type';

CREATE FUNCTION @extschema@.bloom_to_parquet(@extschema@.bloom)
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_to_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_parquet(@extschema@.bloom) IS
'the bytes a Parquet writer puts in a file for a filter of the Parquet scheme: the Thrift BloomFilterHeader, then the bitset';

CREATE FUNCTION @extschema@.bloom_parquet_agg_trans(internal, anyelement, bigint, float8)
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_parquet_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE @extschema@.bloom_parquet_agg(anyelement, capacity bigint, fpr float8) (
	SFUNC = @extschema@.bloom_parquet_agg_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_agg_final,
	COMBINEFUNC = @extschema@.bloom_agg_combine,
	SERIALFUNC = @extschema@.bloom_agg_serial,
	DESERIALFUNC = @extschema@.bloom_agg_deserial,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_parquet_agg(anyelement, bigint, float8) IS
'filter of the Parquet scheme of the non-null values, sized as Parquet writers size theirs for capacity values at rate fpr (bloom_to_parquet writes it out)';

-- 1.2: one aggregate engine for the three kinds
--
-- counting_bloom_agg(x) keeps each distinct value once with its count
-- while it sizes the filter, so its limit counts distinct values.
COMMENT ON AGGREGATE @extschema@.counting_bloom_agg(anyelement) IS
'counting filter of the non-null values, sized for their distinct values at 1 % (up to 4,194,304 distinct values)';

-- 1.2: a filter index for many filters
--
-- Many filters of identical parameters stored bit-sliced in an ordinary
-- table (one row per segment of 64 filters and group of 256 bits), so one
-- key reads its positions across every filter at once (src/bloom_index.c
-- explains the layout).  The DDL and the queries are PL/pgSQL: lookups are
-- one statement under the caller's snapshot; writers serialize on a SHARE
-- UPDATE EXCLUSIVE lock of the index table, which does not block lookups.
-- Functions that run a query text of the caller's (bloom_index_create,
-- bloom_index_add from a query) run it under the caller's search_path and
-- everything else under pg_catalog's; the others pin search_path.

-- The C parts (internal; the functions below call them).

CREATE FUNCTION @extschema@.bloom_index_check(header bytea, filter @extschema@.bloom)
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_index_check' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_check(bytea, @extschema@.bloom) IS
'internal (filter index): the index header after admitting the filter; 22023 naming the parameter that differs';

CREATE FUNCTION @extschema@.bloom_index_header(header bytea,
	OUT layout text, OUT nbits bigint, OUT nhashes integer, OUT seed bigint,
	OUT scheme integer, OUT element_family text, OUT stripes integer)
AS 'MODULE_PATHNAME', 'bloom_index_header' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_header(bytea) IS
'internal (filter index): the parameters in an index header, and the stripe rows of a segment';

CREATE FUNCTION @extschema@.bloom_index_put(stripe bytea, blk integer, slots integer[], filters @extschema@.bloom[])
RETURNS bytea
AS 'MODULE_PATHNAME', 'bloom_index_put' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_put(bytea, integer, integer[], @extschema@.bloom[]) IS
'internal (filter index): the stripe (NULL: zeros) with the slots'' columns replaced by the filters'' bits';

-- VOLATILE: reads a cursor; PARALLEL UNSAFE: the cursor is the leader's
CREATE FUNCTION @extschema@.bloom_index_rows(source refcursor, header bytea, first_seg integer, after_id bigint,
	OUT seg integer, OUT blk integer, OUT ids bigint[], OUT bits bytea)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'bloom_index_rows' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_rows(refcursor, bytea, integer, bigint) IS
'internal (filter index): the rows of an index of the cursor''s (id, filter) rows, in segments from first_seg on, then the header row';

CREATE FUNCTION @extschema@.bloom_index_probe(header bytea, key anycompatible)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'bloom_index_probe' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_probe(bytea, anycompatible) IS
'internal (filter index): the bit positions of a key (first element: positions per key)';

CREATE FUNCTION @extschema@.bloom_index_probe_any(header bytea, keys anycompatiblearray)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'bloom_index_probe_any' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_probe_any(bytea, anycompatiblearray) IS
'internal (filter index): the bit positions of the non-null keys (first element: positions per key)';

CREATE FUNCTION @extschema@.bloom_index_match_trans(internal, blk integer, stripe bytea, probe bigint[])
RETURNS internal
AS 'MODULE_PATHNAME', 'bloom_index_match_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.bloom_index_match_final(internal)
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_index_match_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.bloom_index_match_trans(internal, integer, bytea, bigint[]) IS
'internal (filter index): transition function of bloom_index_match';
COMMENT ON FUNCTION @extschema@.bloom_index_match_final(internal) IS
'internal (filter index): final function of bloom_index_match';

CREATE AGGREGATE @extschema@.bloom_index_match(blk integer, stripe bytea, probe bigint[]) (
	SFUNC = @extschema@.bloom_index_match_trans,
	STYPE = internal,
	FINALFUNC = @extschema@.bloom_index_match_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_index_match(integer, bytea, bigint[]) IS
'internal (filter index): over one segment''s stripes, the slots (bit j: slot j) that may hold any of the probe''s keys';

CREATE FUNCTION @extschema@.bloom_index_ids(slots bigint, ids bigint[])
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'bloom_index_ids' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_ids(bigint, bigint[]) IS
'internal (filter index): the ids of a segment''s slot map at the set bits of slots (free slots skipped)';

CREATE FUNCTION @extschema@.bloom_index_match_stripe(blk integer, stripe bytea, probe bigint[])
RETURNS bigint
AS 'MODULE_PATHNAME', 'bloom_index_match_stripe' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_match_stripe(integer, bytea, bigint[]) IS
'internal (filter index): the slots (bit j: slot j) of one stripe that may hold any of the probe''s keys lying wholly in it';

CREATE FUNCTION @extschema@.bloom_index_expect(found bigint, expected bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'bloom_index_expect' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_index_expect(bigint, bigint) IS
'internal (filter index): true, or XX001 when a lookup found stripes of another number of segments than the index has';

-- The header of a filter index, checked to be one (42809 otherwise); NULL
-- while no filter was ever added.  STABLE: reads the table.
CREATE FUNCTION @extschema@.bloom_index_meta(index regclass)
RETURNS bytea
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	hdr bytea;
	n bigint;
BEGIN
	IF (SELECT count(*) FROM pg_attribute a
		WHERE a.attrelid = index AND a.attnum > 0 AND NOT a.attisdropped
		  AND (a.attname, a.atttypid) IN (('seg', 'int4'::regtype), ('blk', 'int4'::regtype),
										  ('ids', 'int8[]'::regtype), ('bits', 'bytea'::regtype))) <> 4 THEN
		RAISE EXCEPTION USING ERRCODE = 'wrong_object_type',
			MESSAGE = format('"%s" is not a bloom index', index),
			DETAIL = 'A bloom index is a table made by bloom_index_create, with columns seg, blk, ids and bits.';
	END IF;
	EXECUTE format('SELECT bits FROM %s WHERE blk = -1 AND seg = -1', index) INTO hdr;
	GET DIAGNOSTICS n = ROW_COUNT;	-- EXECUTE does not set FOUND
	IF n = 0 THEN
		RAISE EXCEPTION USING ERRCODE = 'data_corrupted', MESSAGE = 'invalid bloom index row',
			DETAIL = format('The bloom index "%s" has no header row.', index);
	END IF;
	RETURN hdr;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_meta(regclass) IS
'internal (filter index): the index''s header row, after checking the table is a bloom index';

-- The user-facing functions.

CREATE FUNCTION @extschema@.bloom_index_create(name text, source text)
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
	caller_path text := pg_catalog.current_setting('search_path');
	rel regclass;
	cur refcursor;
BEGIN
	-- the caller's search_path names the table and runs the source query;
	-- everything else is pinned to pg_catalog (no SET clause: it would hide
	-- the caller's path)
	EXECUTE pg_catalog.format('CREATE TABLE %s (seg pg_catalog.int4 NOT NULL, blk pg_catalog.int4 NOT NULL, '
		'ids pg_catalog.int8[], bits pg_catalog.bytea)',
		(SELECT pg_catalog.string_agg(pg_catalog.quote_ident(p), '.')
		 FROM pg_catalog.unnest(pg_catalog.parse_ident(name)) AS p));
	rel := pg_catalog.to_regclass(pg_catalog.array_to_string(
		ARRAY(SELECT pg_catalog.quote_ident(p) FROM pg_catalog.unnest(pg_catalog.parse_ident(name)) AS p), '.'));
	OPEN cur FOR EXECUTE pg_catalog.format(
		'SELECT s.id::pg_catalog.int8, s.filter::@extschema@.bloom FROM (%s) AS s(id, filter) ORDER BY 1',
		source);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	EXECUTE format('ALTER TABLE %s ALTER bits SET STORAGE PLAIN, ALTER ids SET STORAGE MAIN', rel);
	EXECUTE format('INSERT INTO %s (seg, blk, ids, bits) SELECT (r).seg, (r).blk, (r).ids, (r).bits '
		'FROM (SELECT @extschema@.bloom_index_rows($1, NULL, 0, NULL) AS r) AS b', rel) USING cur;
	CLOSE cur;
	EXECUTE format('ALTER TABLE %s ADD PRIMARY KEY (blk, seg)', rel);
	EXECUTE format('COMMENT ON TABLE %s IS %L', rel, 'bloom index (bloomset): filters stored bit-sliced');
	PERFORM pg_catalog.set_config('search_path', caller_path, true);
	RETURN rel;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_create(text, text) IS
'creates the table name holding a bit-sliced index of the (id bigint, filter bloom) rows of the query source (filters of identical parameters), and returns it';

-- Write filters into free slots of segment seg: one pass over its stripes
-- and its slot map.  A segment not stored yet is created.
CREATE FUNCTION @extschema@.bloom_index_fill(index regclass, hdr bytea, seg integer,
	slots integer[], ids bigint[], filters @extschema@.bloom[])
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nstripes integer := (@extschema@.bloom_index_header(hdr)).stripes;
	n bigint;
BEGIN
	EXECUTE format('UPDATE %s SET bits = @extschema@.bloom_index_put(bits, blk, $1, $2) '
		'WHERE blk = ANY ($3) AND seg = $4', index)
		USING slots, filters, ARRAY(SELECT generate_series(0, nstripes - 1)), seg;
	GET DIAGNOSTICS n = ROW_COUNT;
	IF n = 0 THEN
		EXECUTE format('INSERT INTO %s (seg, blk, bits) SELECT $4, b, @extschema@.bloom_index_put(NULL, b, $1, $2) '
			'FROM generate_series(0, $3 - 1) AS b', index)
			USING slots, filters, nstripes, seg;
		EXECUTE format('INSERT INTO %s (seg, blk, ids) VALUES ($1, -1, array_fill(NULL::int8, ARRAY[64]))', index)
			USING seg;
	ELSIF n <> nstripes THEN
		RAISE EXCEPTION USING ERRCODE = 'data_corrupted', MESSAGE = 'invalid bloom index row',
			DETAIL = format('Segment %s of "%s" has %s stripes, not %s.', seg, index, n, nstripes);
	END IF;
	EXECUTE format('UPDATE %s SET ids = (SELECT array_agg(CASE WHEN o - 1 = ANY ($1) '
		'THEN ($2)[array_position($1, (o - 1)::int4)] ELSE x END ORDER BY o) '
		'FROM unnest(ids) WITH ORDINALITY AS u(x, o)) WHERE blk = -1 AND seg = $3', index)
		USING slots, ids, seg;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_fill(regclass, bytea, integer, integer[], bigint[], @extschema@.bloom[]) IS
'internal (filter index): writes filters into slots of a segment (created if new) and their ids into its slot map';

-- The last segment and its free slots (0-based), or (-1, {}) for none.
CREATE FUNCTION @extschema@.bloom_index_last(index regclass, OUT seg integer, OUT free integer[])
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	EXECUTE format('SELECT seg, ARRAY(SELECT o::int4 - 1 FROM unnest(ids) WITH ORDINALITY AS u(x, o) '
		'WHERE x IS NULL ORDER BY o) FROM %s WHERE blk = -1 AND seg >= 0 ORDER BY seg DESC LIMIT 1', index)
		INTO seg, free;
	seg := coalesce(seg, -1);
	free := coalesce(free, '{}');
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_last(regclass) IS
'internal (filter index): the last segment of the index and its free slots';

CREATE FUNCTION @extschema@.bloom_index_add(index regclass, id bigint, filter @extschema@.bloom)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	hdr bytea := @extschema@.bloom_index_meta(index);
	newhdr bytea;
	seg integer;
	slot integer;
	last record;
BEGIN
	IF id IS NULL OR filter IS NULL THEN
		RAISE EXCEPTION USING ERRCODE = 'null_value_not_allowed',
			MESSAGE = 'a bloom index cannot hold a NULL id or filter';
	END IF;
	-- writers one at a time; lookups go on (they read committed rows)
	EXECUTE format('LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE', index);
	hdr := @extschema@.bloom_index_meta(index);	-- as committed before the lock
	newhdr := @extschema@.bloom_index_check(hdr, filter);
	IF newhdr IS DISTINCT FROM hdr THEN
		EXECUTE format('UPDATE %s SET bits = $1 WHERE blk = -1 AND seg = -1', index) USING newhdr;
	END IF;
	-- an existing id is replaced in its own slot
	EXECUTE format('SELECT m.seg, array_position(m.ids, $1) - 1 FROM %s m '
		'WHERE m.blk = -1 AND m.seg >= 0 AND m.ids @> ARRAY[$1]', index) INTO seg, slot USING id;
	IF seg IS NULL THEN
		last := @extschema@.bloom_index_last(index);
		IF cardinality(last.free) > 0 THEN
			seg := last.seg;
			slot := last.free[1];
		ELSE
			seg := last.seg + 1;
			slot := 0;
		END IF;
	END IF;
	PERFORM @extschema@.bloom_index_fill(index, newhdr, seg, ARRAY[slot], ARRAY[id], ARRAY[filter]);
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_add(regclass, bigint, @extschema@.bloom) IS
'adds the filter with this id to the bloom index (into the last segment; an existing id is replaced)';

CREATE FUNCTION @extschema@.bloom_index_add(index regclass, source text)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
DECLARE
	caller_path text := pg_catalog.current_setting('search_path');
	hdr bytea;
	cur refcursor;
	last record;
	r record;
	slots integer[] := '{}';
	ids bigint[] := '{}';
	filters @extschema@.bloom[] := '{}';
	n bigint;
BEGIN
	hdr := @extschema@.bloom_index_meta(index);
	OPEN cur FOR EXECUTE pg_catalog.format(
		'SELECT s.id::pg_catalog.int8, s.filter::@extschema@.bloom FROM (%s) AS s(id, filter) ORDER BY 1',
		source);
	-- the caller's search_path ran only the source query (see bloom_index_create)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	EXECUTE format('LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE', index);
	hdr := @extschema@.bloom_index_meta(index);
	last := @extschema@.bloom_index_last(index);
	-- first the free slots of the last segment, in one pass
	WHILE cardinality(slots) < cardinality(last.free) LOOP
		FETCH cur INTO r;
		EXIT WHEN NOT FOUND;
		IF r.id IS NULL OR r.filter IS NULL THEN
			RAISE EXCEPTION USING ERRCODE = 'null_value_not_allowed',
				MESSAGE = 'a bloom index cannot hold a NULL id or filter';
		ELSIF r.id = ids[cardinality(ids)] THEN
			RAISE EXCEPTION USING ERRCODE = 'unique_violation',
				MESSAGE = format('duplicate id %s for a bloom index', r.id),
				DETAIL = 'Every filter of an index has an id of its own.';
		END IF;
		hdr := @extschema@.bloom_index_check(hdr, r.filter);
		slots := slots || last.free[cardinality(slots) + 1];
		ids := ids || r.id;
		filters := filters || r.filter;
	END LOOP;
	-- then new segments, from the rest of the cursor
	EXECUTE format('INSERT INTO %s (seg, blk, ids, bits) SELECT (r).seg, (r).blk, (r).ids, (r).bits '
		'FROM (SELECT @extschema@.bloom_index_rows($1, $2, $3, $4) AS r) AS b '
		'ON CONFLICT (blk, seg) DO UPDATE SET bits = EXCLUDED.bits', index)
		USING cur, hdr, last.seg + 1, ids[cardinality(ids)];
	CLOSE cur;
	EXECUTE format('SELECT bits FROM %s WHERE blk = -1 AND seg = -1', index) INTO hdr;
	-- ids added now replace earlier filters of the same ids: free their slots
	EXECUTE format('WITH new AS (SELECT x FROM %1$s, unnest(ids) AS x WHERE blk = -1 AND seg > $1 AND x IS NOT NULL '
		'UNION ALL SELECT unnest($2)) '
		'UPDATE %1$s SET ids = (SELECT array_agg(CASE WHEN x IN (SELECT x FROM new) THEN NULL ELSE x END ORDER BY o) '
		'FROM unnest(ids) WITH ORDINALITY AS u(x, o)) '
		'WHERE blk = -1 AND seg >= 0 AND seg <= $1 AND ids && ARRAY(SELECT x FROM new)', index)
		USING last.seg, ids;
	IF cardinality(ids) > 0 THEN
		PERFORM @extschema@.bloom_index_fill(index, hdr, last.seg, slots, ids, filters);
	END IF;
	EXECUTE format('SELECT count(x) FROM %s, unnest(ids) AS x WHERE blk = -1 AND seg > $1', index)
		INTO n USING last.seg;
	n := n + cardinality(ids);
	PERFORM pg_catalog.set_config('search_path', caller_path, true);	-- last
	RETURN n;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_add(regclass, text) IS
'adds the (id bigint, filter bloom) rows of the query source to the bloom index (free slots of the last segment, then new segments; existing ids are replaced); returns how many';

CREATE FUNCTION @extschema@.bloom_index_remove(index regclass, id bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	hdr bytea := @extschema@.bloom_index_meta(index);
	n bigint;
BEGIN
	EXECUTE format('LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE', index);
	EXECUTE format('UPDATE %s SET ids = array_replace(ids, $1, NULL) '
		'WHERE blk = -1 AND seg >= 0 AND ids @> ARRAY[$1]', index) USING id;
	GET DIAGNOSTICS n = ROW_COUNT;
	RETURN n > 0;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_remove(regclass, bigint) IS
'removes the filter with this id from the bloom index (its slot is freed); false if there was none';

-- One statement under the caller's snapshot (STABLE): the segments' stripes
-- holding the probe's positions -- one stripe per segment for a probe
-- whose positions lie in one stripe (a key of a blocked index), else ANDed
-- per key and ORed over keys per segment by bloom_index_match -- then the
-- slot maps of the segments with a match.  Every segment must have
-- answered (segments are numbered from 0 and never dropped): a missing
-- stripe or slot map is XX001, not a filter left out.
CREATE FUNCTION @extschema@.bloom_index_search(index regclass, probe bigint[])
RETURNS SETOF bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 100
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	groups integer[];
	nseg bigint;
	st text;
BEGIN
	IF probe IS NULL OR cardinality(probe) < 2 THEN
		RETURN;
	END IF;
	groups := ARRAY(SELECT DISTINCT (p / 256)::int4 FROM unnest(probe[2:]) AS p);
	EXECUTE format('SELECT coalesce(max(seg), -1) + 1 FROM %s WHERE blk = -1', index) INTO nseg;
	IF cardinality(groups) = 1 THEN
		st := 'SELECT s.seg, @extschema@.bloom_index_match_stripe(s.blk, s.bits, $1) AS slots '
			'FROM %1$s s WHERE s.blk = $2[1] AND s.seg >= 0';
	ELSE
		st := 'SELECT s.seg, @extschema@.bloom_index_match(s.blk, s.bits, $1) AS slots '
			'FROM %1$s s WHERE s.blk = ANY ($2) AND s.seg >= 0 GROUP BY s.seg';
	END IF;
	RETURN QUERY EXECUTE format(
		'WITH st AS MATERIALIZED (' || st || '), '
		'chk AS (SELECT @extschema@.bloom_index_expect(count(*), $3) AS ok FROM st) '
		'SELECT i.id FROM chk, st, '
		'LATERAL unnest(@extschema@.bloom_index_ids(st.slots, '
		'(SELECT m.ids FROM %1$s m WHERE m.blk = -1 AND m.seg = st.seg))) AS i(id) '
		'WHERE st.slots <> 0 AND chk.ok', index)
		USING probe, groups, nseg;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_search(regclass, bigint[]) IS
'internal (filter index): the ids whose filters hold every position of any key of the probe';

CREATE FUNCTION @extschema@.bloom_index_lookup(index regclass, key anyelement)
RETURNS SETOF bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 100
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	hdr bytea := @extschema@.bloom_index_meta(index);
BEGIN
	RETURN QUERY SELECT @extschema@.bloom_index_search(index, @extschema@.bloom_index_probe(hdr, key));
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, anyelement) IS
'ids of the bloom index''s filters that may hold the key (bloom_contains true), as a set that joins back to the chunk table';

-- an untyped literal key ('42') is text, converted as bloom_contains converts it
CREATE FUNCTION @extschema@.bloom_index_lookup(index regclass, key text)
RETURNS SETOF bigint
LANGUAGE sql STABLE PARALLEL SAFE ROWS 100
SET search_path = pg_catalog, pg_temp
AS $$
SELECT @extschema@.bloom_index_search(index,
	@extschema@.bloom_index_probe(@extschema@.bloom_index_meta(index), key))
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup(regclass, text) IS
'ids of the bloom index''s filters that may hold the key given as text (an untyped literal), converted to the filters'' element type as bloom_contains converts it';

CREATE FUNCTION @extschema@.bloom_index_lookup_any(index regclass, keys anyarray)
RETURNS SETOF bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE ROWS 100
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	hdr bytea := @extschema@.bloom_index_meta(index);
BEGIN
	RETURN QUERY SELECT @extschema@.bloom_index_search(index, @extschema@.bloom_index_probe_any(hdr, keys));
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_lookup_any(regclass, anyarray) IS
'ids of the bloom index''s filters that may hold any of the keys (each id once)';

CREATE FUNCTION @extschema@.bloom_index_info(index regclass,
	OUT filters bigint, OUT segments integer, OUT free_slots bigint, OUT stripe_rows bigint,
	OUT bytes bigint, OUT layout text, OUT nbits bigint, OUT nhashes integer, OUT seed bigint,
	OUT scheme integer, OUT element_family text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	hdr bytea := @extschema@.bloom_index_meta(index);
	h record;
BEGIN
	EXECUTE format('SELECT count(x), count(DISTINCT seg), count(*) FILTER (WHERE x IS NULL) '
		'FROM %s, unnest(ids) AS x WHERE blk = -1 AND seg >= 0', index)
		INTO filters, segments, free_slots;
	EXECUTE format('SELECT count(*) FROM %s WHERE blk >= 0', index) INTO stripe_rows;
	bytes := pg_total_relation_size(index);
	IF hdr IS NOT NULL THEN
		h := @extschema@.bloom_index_header(hdr);
		layout := h.layout;
		nbits := h.nbits;
		nhashes := h.nhashes;
		seed := h.seed;
		scheme := h.scheme;
		element_family := nullif(h.element_family, '');
	END IF;
END
$$;
COMMENT ON FUNCTION @extschema@.bloom_index_info(regclass) IS
'the bloom index''s filters, segments, free slots, stripe rows, size on disk and the parameters its filters share';
