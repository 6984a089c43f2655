/*-------------------------------------------------------------------------
 *
 * findex_update.c
 *	  The entry points that make and change a filter index:
 *	  bloom_index_create, bloom_index_add (one filter, or the rows of a
 *	  query) and bloom_index_remove -- where each filter goes (its own slot
 *	  when its id is indexed, else the free slots of the last segment, else
 *	  new segments) and the caller's source query, checked before it runs.
 *
 * Each writer checks its arguments, takes the writers' lock and reads the
 * index again after it (findex_table.c), then writes through
 * findex_write.c.
 *
 *-------------------------------------------------------------------------
 */
#include "findex_write.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "parser/parse_coerce.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

/* ---- where filters go ---------------------------------------------------- */

/*
 * Raise null_value_not_allowed (message: what must not be NULL) unless
 * argument argno is given: a writer has no NULL answer.
 */
static void
bloom_index_need(FunctionCallInfo fcinfo, int argno, const char *what)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", what)));
}

/*
 * The last segment (-1: none) and its free slots (ascending) into
 * free[0 .. *nfree).
 */
static int32
bloom_index_last(BloomIndexTable *t, int *free, int *nfree)
{
	int32		seg;
	Datum	   *ids;
	bool	   *nulls;

	*nfree = 0;
	bloom_index_exec(psprintf("SELECT seg, ids FROM %s WHERE blk = -1 AND seg >= 0 "
							  "ORDER BY seg DESC LIMIT 1", t->name), 0, NULL, NULL, false, 0);
	if (SPI_processed == 0)
		return -1;
	seg = bloom_index_int_col(t, 0, 1);
	bloom_index_map_col(t, 0, 2, seg, &ids, &nulls);
	for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
		if (nulls[j])
			free[(*nfree)++] = j;
	SPI_freetuptable(SPI_tuptable);
	return seg;
}

/* The segment and slot holding id (false: none). */
static bool
bloom_index_find(BloomIndexTable *t, int64 id, int32 *seg, int *slot)
{
	Oid			type = INT8OID;
	Datum		arg = Int64GetDatum(id);
	Datum	   *ids;
	bool	   *nulls;

	bloom_index_exec(psprintf("SELECT seg, ids FROM %s WHERE blk = -1 AND seg >= 0 "
							  "AND ids @> ARRAY[$1] LIMIT 1", t->name), 1, &type, &arg, false, 0);
	if (SPI_processed == 0)
		return false;
	*seg = bloom_index_int_col(t, 0, 1);
	bloom_index_map_col(t, 0, 2, *seg, &ids, &nulls);
	for (*slot = 0; *slot < BLOOM_INDEX_SLOTS; (*slot)++)
		if (!nulls[*slot] && DatumGetInt64(ids[*slot]) == id)
			break;
	if (*slot == BLOOM_INDEX_SLOTS)
		elog(ERROR, "bloom index: id " INT64_FORMAT " not in the slot map that holds it", id);
	SPI_freetuptable(SPI_tuptable);
	return true;
}

/* The segment after seg, which must exist. */
static int32
bloom_index_next_seg(BloomIndexTable *t, int32 seg)
{
	if (seg == PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom index \"%s\" has no room for another segment", t->name)));
	return seg + 1;
}

/* Replace the stored header by hdr when they differ (old: as stored; has_old). */
static void
bloom_index_update_header(BloomIndexTable *t, bool has_old, const BloomFilter *old,
						  const BloomFilter *hdr)
{
	bytea	   *a = has_old ? bloom_index_header_bytea(old) : NULL;
	bytea	   *b = bloom_index_header_bytea(hdr);

	if (a == NULL || memcmp(VARDATA(a), VARDATA(b), BLOOM_WIRE_HEADER_SIZE) != 0)
		bloom_index_write_header(t, hdr, false);
}

/*
 * bloom_index_add(index regclass, id int8, filter bloom) -> void: the
 * filter with this id into the index -- an existing id is replaced in its
 * own slot; otherwise the first free slot of the last segment, or a new
 * segment.
 */
PG_FUNCTION_INFO_V1(bloom_index_add);
Datum
bloom_index_add(PG_FUNCTION_ARGS)
{
	BloomIndexTable t;
	BloomFilter *f;
	BloomFilter old,
				hdr;
	bool		has;
	int64		nseg,
				id;
	int32		seg;
	int			slot;
	bool		fresh = false;

	bloom_index_need(fcinfo, 0, "the bloom index");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a bloom index cannot hold a NULL id or filter")));
	id = PG_GETARG_INT64(1);
	f = bloom_from_datum_kind(PG_GETARG_DATUM(2), BLOOM_KIND_PLAIN);
	bloom_index_table(PG_GETARG_OID(0), &t);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	bloom_index_lock(&t);
	has = bloom_index_read_header(&t, false, &old, &nseg);	/* as committed before the lock */
	memcpy(&hdr, has ? &old : f, BLOOM_HEADER_SIZE);
	bloom_index_admit(&hdr, f);
	bloom_index_update_header(&t, has, &old, &hdr);
	if (!bloom_index_find(&t, id, &seg, &slot))
	{
		int			free[BLOOM_INDEX_SLOTS];
		int			nfree;

		seg = bloom_index_last(&t, free, &nfree);
		fresh = nfree == 0;
		slot = fresh ? 0 : free[0];
		if (fresh)
			seg = bloom_index_next_seg(&t, seg);
	}
	bloom_index_write_segment(&t, &hdr, seg, fresh, 1, &slot, &id, &f);
	SPI_finish();
	PG_RETURN_VOID();
}

/*
 * Check the caller's source query before running it: one query returning
 * an id and a filter (at least two columns; the first two are taken, as
 * bloom_index_create has always done), of types that convert to bigint
 * and bloom implicitly: smallint and integer ids, bloom filters.  An
 * explicit cast would round a numeric id (6001.7 to 6002) and parse a text
 * or bytea column as a filter; the caller writes such casts in the query.
 * Planned under the caller's search_path.
 */
static void
bloom_index_check_source(const char *source, Oid bloomtype)
{
	SPIPlanPtr	plan = SPI_prepare(source, 0, NULL);
	List	   *ps;
	CachedPlanSource *cs;
	Oid			types[2];
	Oid			want[2] = {INT8OID, bloomtype};

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	ps = SPI_plan_get_plan_sources(plan);
	cs = list_length(ps) == 1 ? (CachedPlanSource *) linitial(ps) : NULL;
	if (cs == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("the source of a bloom index must be one query returning (id bigint, filter bloom)"),
				 errdetail("The source holds %d statements.", list_length(ps))));
	if (cs->commandTag != CMDTAG_SELECT || cs->resultDesc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("the source of a bloom index must be one query returning (id bigint, filter bloom)"),
				 errdetail("The source is a %s statement.", GetCommandTagName(cs->commandTag))));
	if (cs->resultDesc->natts < 2)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("the source query of a bloom index must return two columns: id bigint, filter bloom"),
				 errdetail("The query returns %d column.", cs->resultDesc->natts)));
	for (int i = 0; i < 2; i++)
	{
		types[i] = TupleDescAttr(cs->resultDesc, i)->atttypid;
		if (!can_coerce_type(1, &types[i], &want[i], COERCION_IMPLICIT))
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("the source query of a bloom index must return two columns: id bigint, filter bloom"),
					 errdetail("Column %d is of type %s, which does not convert to %s without a cast.",
							   i + 1, format_type_be(types[i]), format_type_be(want[i])),
					 errhint("Return an integer id and a bloom filter; write any conversion in the query (for example id::bigint or filter::bloom).")));
	}
	SPI_freeplan(plan);
}

/*
 * A cursor over the (id int8, filter bloom) rows of the caller's source
 * query, ordered by id; planned under the caller's search_path.
 */
static Portal
bloom_index_source(FunctionCallInfo fcinfo, text *source)
{
	char	   *src = text_to_cstring(source);
	Oid			nsp = get_func_namespace(fcinfo->flinfo->fn_oid);
	Oid			bloomtype = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
											CStringGetDatum("bloom"), ObjectIdGetDatum(nsp));
	Portal		portal;

	if (!OidIsValid(bloomtype))
		elog(ERROR, "type bloom not found in the extension's schema");
	bloom_index_check_source(src, bloomtype);
	/* the newline ends a comment the source may end with */
	portal = SPI_cursor_open_with_args(NULL,
									   psprintf("SELECT s.id::pg_catalog.int8, s.filter::%s.bloom "
												"FROM (%s\n) AS s(id, filter) ORDER BY 1",
												quote_identifier(get_namespace_name(nsp)), src),
									   0, NULL, NULL, NULL, false, 0);
	if (portal == NULL)
		elog(ERROR, "SPI_cursor_open failed: %s", SPI_result_code_string(SPI_result));
	return portal;
}

/* Ascending int64s. */
static int
bloom_index_id_cmp(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

/*
 * Free the slots of segments 0 .. last holding any of the ids added
 * (ascending): the new filters replace them.
 */
static void
bloom_index_free_ids(BloomIndexTable *t, int32 last, const int64 *added, int64 nadded)
{
	Oid			rt = INT4OID;
	Oid			ut[2] = {INT8ARRAYOID, INT4OID};
	Datum		arg = Int32GetDatum(last);
	SPIPlanPtr	upd = bloom_index_prepare(psprintf("UPDATE %s SET ids = $1 WHERE blk = -1 AND seg = $2",
												   t->name), 2, ut);
	Portal		portal = bloom_index_open(psprintf("SELECT seg, ids FROM %s WHERE blk = -1 "
												   "AND seg >= 0 AND seg <= $1", t->name),
										  1, &rt, &arg, false);
	int			dims[1] = {BLOOM_INDEX_SLOTS};
	int			lbs[1] = {1};

	for (;;)
	{
		Datum		maps[BLOOM_INDEX_BATCH];
		int32		segs[BLOOM_INDEX_BATCH];
		int			n = 0;

		SPI_cursor_fetch(portal, true, BLOOM_INDEX_BATCH);
		if (SPI_processed == 0)
			break;
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			int32		seg = bloom_index_int_col(t, i, 1);
			Datum	   *ids;
			bool	   *nulls;
			bool		changed = false;

			bloom_index_map_col(t, i, 2, seg, &ids, &nulls);
			for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
			{
				int64		id = nulls[j] ? 0 : DatumGetInt64(ids[j]);

				if (!nulls[j] && bsearch(&id, added, nadded, sizeof(int64), bloom_index_id_cmp))
					nulls[j] = changed = true;
			}
			if (changed)
			{
				segs[n] = seg;
				maps[n++] = PointerGetDatum(construct_md_array(ids, nulls, 1, dims, lbs, INT8OID, 8,
															   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
			}
		}
		SPI_freetuptable(SPI_tuptable);
		for (int i = 0; i < n; i++)
		{
			Datum		args[2] = {maps[i], Int32GetDatum(segs[i])};

			bloom_index_exec_plan(upd, args);
		}
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
}

/*
 * The first filters of the source, into the free slots of the last segment
 * (up to nfree of them; ids ascending and above none before); admitted into
 * *hdr (*has: it is set).  Their number.
 */
static int
bloom_index_take_free(Portal portal, int nfree, BloomFilter *hdr, bool *has,
					  int64 *ids, BloomFilter **f)
{
	int			n = 0;

	if (nfree == 0)
		return 0;
	SPI_cursor_fetch(portal, true, nfree);
	for (uint64 i = 0; i < SPI_processed; i++, n++)
	{
		bool		idnull,
					fnull;
		Datum		id = bloom_index_col(i, 1, &idnull);
		Datum		fd = bloom_index_col(i, 2, &fnull);

		if (idnull || fnull)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("a bloom index cannot hold a NULL id or filter")));
		ids[n] = DatumGetInt64(id);
		if (n > 0 && ids[n] == ids[n - 1])
			ereport(ERROR,
					(errcode(ERRCODE_UNIQUE_VIOLATION),
					 errmsg("duplicate id %lld for a bloom index", (long long) ids[n]),
					 errdetail("Every filter of an index has an id of its own.")));
		f[n] = bloom_from_datum_kind(fd, BLOOM_KIND_PLAIN);
		if ((Pointer) f[n] == DatumGetPointer(fd))
			f[n] = bloom_copy(f[n]);	/* in line in the fetched tuple */
		if (!*has)
			memcpy(hdr, f[n], BLOOM_HEADER_SIZE);
		*has = true;
		bloom_index_admit(hdr, f[n]);
	}
	SPI_freetuptable(SPI_tuptable);
	return n;
}

/*
 * bloom_index_add(index regclass, source text) -> int8: the (id, filter)
 * rows of the query source into the index -- the free slots of the last
 * segment first, then new segments; ids already in the index are replaced
 * (their old slots freed).  The number of filters added.
 */
PG_FUNCTION_INFO_V1(bloom_index_add_query);
Datum
bloom_index_add_query(PG_FUNCTION_ARGS)
{
	BloomIndexTable t;
	BloomFilter old,
				hdr;
	bool		had,
				has;
	int64		nseg,
				built;
	int32		last;
	int			free[BLOOM_INDEX_SLOTS];
	int64		ids[BLOOM_INDEX_SLOTS];
	BloomFilter *f[BLOOM_INDEX_SLOTS];
	int			nfree,
				n;
	Portal		portal;
	BloomIndexBuild *b;
	BloomIndexSink s;

	bloom_index_need(fcinfo, 0, "the bloom index");
	bloom_index_need(fcinfo, 1, "the source query of a bloom index");
	bloom_index_table(PG_GETARG_OID(0), &t);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	(void) bloom_index_read_header(&t, false, &old, &nseg);	/* a valid index first */
	portal = bloom_index_source(fcinfo, PG_GETARG_TEXT_PP(1));
	bloom_index_lock(&t);
	had = has = bloom_index_read_header(&t, false, &old, &nseg);
	memcpy(&hdr, &old, BLOOM_HEADER_SIZE);
	last = bloom_index_last(&t, free, &nfree);
	n = bloom_index_take_free(portal, nfree, &hdr, &has, ids, f);
	b = bloom_index_build_begin(portal, has ? &hdr : NULL, bloom_index_next_seg(&t, last),
								n > 0, n > 0 ? ids[n - 1] : 0);
	bloom_index_sink_init(&s, &t, true);
	built = bloom_index_sink_build(&s, b);
	SPI_cursor_close(portal);
	if (bloom_index_build_header(b, &hdr))
		bloom_index_update_header(&t, had, &old, &hdr);
	if (last >= 0 && n + s.nids > 0)
	{
		int64	   *added = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(int64) * (n + s.nids));

		/* ascending: the cursor's order */
		memcpy(added, ids, sizeof(int64) * n);
		if (s.nids > 0)
			memcpy(added + n, s.ids, sizeof(int64) * s.nids);
		bloom_index_free_ids(&t, last, added, n + s.nids);
	}
	if (n > 0)
		bloom_index_write_segment(&t, &hdr, last, false, n, free, ids, f);
	SPI_finish();
	PG_RETURN_INT64(n + built);
}

/*
 * bloom_index_remove(index regclass, id int8) -> boolean: the filter with
 * this id out of the index (its slot freed); false if there was none.
 */
PG_FUNCTION_INFO_V1(bloom_index_remove);
Datum
bloom_index_remove(PG_FUNCTION_ARGS)
{
	BloomIndexTable t;
	BloomFilter hdr;
	int64		nseg;
	Oid			type = INT8OID;
	Datum		arg = PG_GETARG_DATUM(1);
	bool		removed;

	bloom_index_table(PG_GETARG_OID(0), &t);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	(void) bloom_index_read_header(&t, false, &hdr, &nseg);
	bloom_index_lock(&t);
	bloom_index_exec(psprintf("UPDATE %s SET ids = array_replace(ids, $1, NULL) "
							  "WHERE blk = -1 AND seg >= 0 AND ids @> ARRAY[$1]", t.name),
					 1, &type, &arg, false, 0);
	removed = SPI_processed > 0;
	SPI_finish();
	PG_RETURN_BOOL(removed);
}

/* ---- creation ------------------------------------------------------------ */

/*
 * bloom_index_create(name text, source text) -> regclass: the table name
 * (created under the caller's search_path) holding an index of the
 * (id, filter) rows of the query source.
 */
PG_FUNCTION_INFO_V1(bloom_index_create);
Datum
bloom_index_create(PG_FUNCTION_ARGS)
{
	List	   *names;
	RangeVar   *rv;
	Oid			nsp;
	StringInfoData qname;
	ListCell   *lc;
	BloomIndexTable t;
	BloomFilter hdr;
	Portal		portal;
	BloomIndexBuild *b;
	BloomIndexSink s;

	bloom_index_need(fcinfo, 0, "the name of a bloom index");
	bloom_index_need(fcinfo, 1, "the source query of a bloom index");
	names = textToQualifiedNameList(PG_GETARG_TEXT_PP(0));
	initStringInfo(&qname);
	foreach(lc, names)
		appendStringInfo(&qname, "%s%s", qname.len > 0 ? "." : "", quote_identifier(strVal(lfirst(lc))));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/*
	 * the caller's text: the name, under the caller's search_path; the table
	 * is then found in the schema it was created in (a temporary table of
	 * the same name would come first in the path)
	 */
	rv = makeRangeVarFromNameList(names);
	nsp = RangeVarGetCreationNamespace(rv);
	if (SPI_execute(psprintf("CREATE TABLE %s (seg pg_catalog.int4 NOT NULL, blk pg_catalog.int4 NOT NULL, "
							 "ids pg_catalog.int8[], bits pg_catalog.bytea)", qname.data), false, 0) < 0)
		elog(ERROR, "CREATE TABLE failed");
	bloom_index_table(get_relname_relid(rv->relname, nsp), &t);
	portal = bloom_index_source(fcinfo, PG_GETARG_TEXT_PP(1));
	bloom_index_exec(psprintf("ALTER TABLE %s ALTER bits SET STORAGE PLAIN, ALTER ids SET STORAGE MAIN",
							  t.name), 0, NULL, NULL, false, 0);
	b = bloom_index_build_begin(portal, NULL, 0, false, 0);
	bloom_index_sink_init(&s, &t, false);
	(void) bloom_index_sink_build(&s, b);
	SPI_cursor_close(portal);
	if (bloom_index_build_header(b, &hdr))
		bloom_index_write_header(&t, &hdr, true);
	else
		bloom_index_exec(psprintf("INSERT INTO %s (seg, blk) VALUES (-1, -1)", t.name),
						 0, NULL, NULL, false, 0);
	bloom_index_exec(psprintf("ALTER TABLE %s ADD PRIMARY KEY (blk, seg)", t.name),
					 0, NULL, NULL, false, 0);
	bloom_index_exec(psprintf("COMMENT ON TABLE %s IS 'bloom index (bloomset): filters stored bit-sliced'",
							  t.name), 0, NULL, NULL, false, 0);
	SPI_finish();
	PG_RETURN_OID(t.relid);
}
