/*-------------------------------------------------------------------------
 *
 * findex_sql.c
 *	  The SQL entry points of the filter index: bloom_index_create,
 *	  bloom_index_add (one filter, or the rows of a query),
 *	  bloom_index_remove, bloom_index_lookup, bloom_index_lookup_any and
 *	  bloom_index_info, each running its statements over the index table
 *	  through SPI.
 *
 * Why C and not PL/pgSQL: the steps of the index (writing a stripe,
 * matching stripes, reading a build's rows) would otherwise be SQL
 * functions any user can call with any bytes; here they are C functions
 * reachable only through the entry points below, which check every argument
 * and every stored row they use (XX001 naming the index for a row a user
 * damaged; 22xxx/42xxx for arguments).
 *
 * Statements: every statement of the extension's own runs with search_path
 * pinned to pg_catalog, pg_temp (bloom_index_pin_path), on the table named
 * by its schema-qualified, quoted name; values are parameters.  The only
 * text run under the caller's search_path is the caller's own: the table
 * name and the source query of bloom_index_create, the source query of
 * bloom_index_add -- planned and read under the caller's path.
 *
 * Snapshots and locks: lookups and bloom_index_info are STABLE and run
 * their statements read-only, so all of them see the caller's snapshot, as
 * one statement would; they take no lock beyond the reads' own.  Writers
 * serialize on SHARE UPDATE EXCLUSIVE of the index table (LOCK TABLE, with
 * its privilege check), which does not block lookups, and read the index
 * again after the lock, so they build on what the writer before them
 * committed.
 *
 * A lookup reads the stripes its keys' positions fall in, of every
 * segment, in one statement whose rows the executor hands to a receiver
 * of ours (bloom_index_rows_receive: the 2 kB stripes are matched where
 * they lie, not copied, and in whatever order the plan reads them),
 * checking that every segment gives every stripe it needs exactly once;
 * then the slot maps of the segments with a match, and nothing else.
 * Keys of the classic layout, whose positions span stripes, keep one AND
 * per segment until all its stripes are read: they are looked up in
 * batches whose ANDs fit work_mem.
 *
 *-------------------------------------------------------------------------
 */
#include "findex.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/params.h"
#include "parser/parse_coerce.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/rel.h"
#include "storage/bufmgr.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

/* stripe rows a write reads or writes per statement or fetch (512 kB) */
#define BLOOM_INDEX_BATCH		256
/*
 * stripe rows a lookup fetches at a time (64 kB): small enough for the
 * allocator to reuse its memory fetch after fetch, instead of mapping and
 * faulting in fresh pages as it does for larger blocks
 */
#define BLOOM_INDEX_LOOKUP_FETCH 32

/* An index table: its oid and its schema-qualified, quoted name. */
typedef struct BloomIndexTable
{
	Oid			relid;
	char	   *name;
} BloomIndexTable;

/* ---- the table, the path, the statements --------------------------------- */

/* True when relid has a column called name of type typid. */
static bool
bloom_index_has_column(Oid relid, const char *name, Oid typid)
{
	AttrNumber	att = get_attnum(relid, name);

	return att != InvalidAttrNumber && get_atttype(relid, att) == typid;
}

/*
 * The filter index relid, checked to be one: a table with columns seg
 * int4, blk int4, ids int8[] and bits bytea (42809 otherwise).
 */
static void
bloom_index_table(Oid relid, BloomIndexTable *t)
{
	HeapTuple	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Form_pg_class rc;
	char		relkind;

	if (!HeapTupleIsValid(tp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	rc = (Form_pg_class) GETSTRUCT(tp);
	relkind = rc->relkind;
	t->relid = relid;
	t->name = quote_qualified_identifier(get_namespace_name(rc->relnamespace),
										 NameStr(rc->relname));
	ReleaseSysCache(tp);
	if (relkind != RELKIND_RELATION ||
		!bloom_index_has_column(relid, "seg", INT4OID) ||
		!bloom_index_has_column(relid, "blk", INT4OID) ||
		!bloom_index_has_column(relid, "ids", INT8ARRAYOID) ||
		!bloom_index_has_column(relid, "bits", BYTEAOID))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bloom index", t->name),
				 errdetail("A bloom index is a table made by bloom_index_create, with columns seg, blk, ids and bits.")));
}

/*
 * Pin search_path to pg_catalog, pg_temp until bloom_index_unpin_path (or
 * the end of the (sub)transaction on error), as a function's SET clause
 * does: the extension's own statements resolve no name through the
 * caller's path.
 */
static int
bloom_index_pin_path(void)
{
	int			nest = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nest;
}

/* Restore the caller's search_path. */
static void
bloom_index_unpin_path(int nest)
{
	AtEOXact_GUC(true, nest);
}

/*
 * Run one of the extension's statements (pinned path) with parameters;
 * read_only: under the caller's snapshot.  The rows are in SPI_tuptable.
 */
static void
bloom_index_exec(const char *sql, int nargs, Oid *types, Datum *values,
				 bool read_only, long count)
{
	int			nest = bloom_index_pin_path();
	int			rc = SPI_execute_with_args(sql, nargs, types, values, NULL,
										   read_only, count);

	bloom_index_unpin_path(nest);
	if (rc < 0)
		elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
}

/* A cursor over one of the extension's queries (planned with the pinned path). */
static Portal
bloom_index_open(const char *sql, int nargs, Oid *types, Datum *values, bool read_only)
{
	int			nest = bloom_index_pin_path();
	Portal		p = SPI_cursor_open_with_args(NULL, sql, nargs, types, values, NULL,
											  read_only, 0);

	bloom_index_unpin_path(nest);
	return p;
}

/* A plan of one of the extension's statements (planned with the pinned path). */
static SPIPlanPtr
bloom_index_prepare(const char *sql, int nargs, Oid *types)
{
	int			nest = bloom_index_pin_path();
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	bloom_index_unpin_path(nest);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	return plan;
}

/* Run a plan of bloom_index_prepare (pinned path, not read-only). */
static void
bloom_index_exec_plan(SPIPlanPtr plan, Datum *values)
{
	int			nest = bloom_index_pin_path();
	int			rc = SPI_execute_plan(plan, values, NULL, false, 0);

	bloom_index_unpin_path(nest);
	if (rc < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(rc));
}

/* Column col of row i of SPI_tuptable; isnull set. */
static Datum
bloom_index_col(uint64 i, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, col, isnull);
}

/* Serialize with other writers of the index; lookups go on. */
static void
bloom_index_lock(BloomIndexTable *t)
{
	bloom_index_exec(psprintf("LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE", t->name),
					 0, NULL, NULL, false, 0);
}

/* ---- stored rows ------------------------------------------------------- */

/*
 * The index's header into hdr (false: no filter was ever added) and the
 * number of segments its slot maps claim (max seg + 1), in one statement.
 */
static bool
bloom_index_read_header(BloomIndexTable *t, bool read_only, BloomFilter *hdr, int64 *nseg)
{
	char	   *sql = psprintf("SELECT h.bits, (SELECT max(m.seg) FROM %s m WHERE m.blk = -1) "
							   "FROM %s h WHERE h.blk = -1 AND h.seg = -1", t->name, t->name);
	bool		isnull;
	Datum		bits;
	Datum		maxseg;

	bloom_index_exec(sql, 0, NULL, NULL, read_only, 0);
	if (SPI_processed != 1)
		bloom_index_corrupt(t->name, "The index has %llu header rows (seg -1, blk -1), not one.",
							(unsigned long long) SPI_processed);
	maxseg = bloom_index_col(0, 2, &isnull);
	*nseg = isnull ? 0 : (int64) DatumGetInt32(maxseg) + 1;
	bits = bloom_index_col(0, 1, &isnull);
	if (!isnull)
	{
		bloom_index_header_of(t->name, DatumGetByteaPP(bits), hdr);
		/* values were added, so a segment was written with its slot map */
		if (hdr->family[0] != '\0' && *nseg == 0)
			bloom_index_corrupt(t->name, "The header row holds parameters, but the index has no slot map.");
	}
	else if (*nseg > 0)			/* no filter was ever added, yet there are some */
		bloom_index_corrupt(t->name, "The header row holds no parameters, but the index has %lld segments.",
							(long long) *nseg);
	SPI_freetuptable(SPI_tuptable);
	return !isnull;
}

/* Row i's int4 column col, which a valid index never has NULL. */
static int32
bloom_index_int_col(BloomIndexTable *t, uint64 i, int col)
{
	bool		isnull;
	Datum		d = bloom_index_col(i, col, &isnull);

	if (isnull)
		bloom_index_corrupt(t->name, "A row has no segment or stripe number.");
	return DatumGetInt32(d);
}

/*
 * Row i's slot map (column col) as 64 ids and null flags, checked; a NULL
 * map is corrupt.
 */
static void
bloom_index_map_col(BloomIndexTable *t, uint64 i, int col, int32 seg,
					Datum **ids, bool **nulls)
{
	bool		isnull;
	Datum		d = bloom_index_col(i, col, &isnull);

	if (isnull)
		bloom_index_corrupt(t->name, "The slot map of segment %d is NULL.", seg);
	bloom_index_slot_map(t->name, DatumGetArrayTypeP(d), ids, nulls);
}

/* ---- lookups ------------------------------------------------------------- */

/* Return rows of a SETOF function through a tuplestore (before SPI_connect). */
static ReturnSetInfo *
bloom_index_srf(FunctionCallInfo fcinfo)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

#if PG_VERSION_NUM >= 150000
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
#else
	MemoryContext old;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setDesc = CreateTemplateTupleDesc(1);
	TupleDescInitEntry(rsinfo->setDesc, (AttrNumber) 1, "id", INT8OID, -1, 0);
	rsinfo->setResult = tuplestore_begin_heap(true, false, work_mem);
	MemoryContextSwitchTo(old);
#endif
	return rsinfo;
}

/* The segments of a lookup with a match, and their slots that match. */
typedef struct BloomIndexHits
{
	int			n;
	int			cap;
	int32	   *seg;
	uint64	   *slots;
} BloomIndexHits;

/* Note segment seg's slots (if any). */
static void
bloom_index_hit(BloomIndexHits *hits, int32 seg, uint64 slots)
{
	if (slots == 0)
		return;
	if (hits->n == hits->cap)
	{
		hits->cap = Max(64, 2 * hits->cap);
		hits->seg = hits->seg ? repalloc(hits->seg, sizeof(int32) * hits->cap)
			: palloc(sizeof(int32) * hits->cap);
		hits->slots = hits->slots ? repalloc(hits->slots, sizeof(uint64) * hits->cap)
			: palloc(sizeof(uint64) * hits->cap);
	}
	hits->seg[hits->n] = seg;
	hits->slots[hits->n++] = slots;
}

/*
 * The state of a lookup over the stripes: per segment (0 .. nseg - 1) the
 * slots that may hold a key so far, and for the current batch of keys the
 * AND of each multi key's words.
 */
typedef struct BloomIndexPass
{
	BloomIndexTable *t;
	int64		nseg;			/* as the slot maps claim, bounded by the table's size */
	int			batch;			/* room for multi keys per segment in and */
	uint64	   *any;
	uint64	   *and;
} BloomIndexPass;

/*
 * The lookup's statement for one batch of keys and where its rows are
 * (bloom_index_rows_row): the probe, and which stripes of which segments
 * came (every stripe the probe needs, of every segment, exactly once, in
 * whatever order the plan reads them).
 */
typedef struct BloomIndexRows
{
	DestReceiver pub;			/* first: the executor's receiver */
	BloomIndexPass *p;
	const BloomIndexMatch *m;
	const int32 *blks;
	int			nblks;
	int			nmulti;
	uint8	   *seen;			/* bit seg * nblks + blkno */
	int64		nrows;
} BloomIndexRows;

/* One row (seg, blk, bits) of the lookup's statement. */
static void
bloom_index_rows_row(BloomIndexRows *r, Datum segd, bool segnull, Datum blkd, bool blknull,
					 Datum bits, bool bitsnull)
{
	BloomIndexPass *p = r->p;
	int32		seg = DatumGetInt32(segd);
	int32		blk = DatumGetInt32(blkd);
	int			lo = 0,
				hi = r->nblks - 1;
	int64		bit;
	bytea	   *b;

	if (segnull || blknull)
		bloom_index_corrupt(p->t->name, "A row has no segment or stripe number.");
	if (seg >= p->nseg)
		bloom_index_corrupt(p->t->name, "Segment %d has stripes but no slot map.", seg);
	while (lo < hi)				/* the statement asks only for blks */
	{
		int			mid = (lo + hi) / 2;

		if (r->blks[mid] < blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (r->blks[lo] != blk)
		elog(ERROR, "bloom index lookup: stripe %d was not asked for", blk);
	bit = (int64) seg * r->nblks + lo;
	if ((r->seen[bit / 8] >> (bit % 8)) & 1)
		bloom_index_corrupt(p->t->name, "Segment %d has more than one stripe %d.", seg, blk);
	r->seen[bit / 8] |= 1 << (bit % 8);
	r->nrows++;
	if (bitsnull)
		bloom_index_corrupt(p->t->name, "Stripe %d of segment %d is NULL.", blk, seg);
	b = DatumGetByteaPP(bits);
	bloom_index_match_row(r->m, lo, bloom_index_stripe_bytes(p->t->name, b),
						  &p->any[seg], &p->and[seg * p->batch]);
	if ((Pointer) b != DatumGetPointer(bits))
		pfree(b);				/* stored out of line: not kept row after row */
}

#if PG_VERSION_NUM >= 140000
/*
 * The executor hands the statement's rows here as it reads them: the
 * stripes are matched where they lie, not copied first (as a cursor's
 * fetch would copy every 2 kB row).
 */
static bool
bloom_index_rows_receive(TupleTableSlot *slot, DestReceiver *self)
{
	bool		n1,
				n2,
				n3;
	Datum		seg = slot_getattr(slot, 1, &n1);
	Datum		blk = slot_getattr(slot, 2, &n2);
	Datum		bits = slot_getattr(slot, 3, &n3);

	bloom_index_rows_row((BloomIndexRows *) self, seg, n1, blk, n2, bits, n3);
	return true;
}

/* The receiver's start, end and release: nothing to do. */
static void
bloom_index_rows_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
}

static void
bloom_index_rows_shutdown(DestReceiver *self)
{
}
#endif

/*
 * Run the lookup's statement (sql, its parameter arg of type type) with
 * every row to r, under the caller's snapshot.
 */
static void
bloom_index_rows_run(BloomIndexRows *r, const char *sql, Oid type, Datum arg)
{
#if PG_VERSION_NUM >= 140000
	SPIExecuteOptions opts = {0};
	ParamListInfo params = makeParamList(1);
	int			nest;
	int			rc;

	params->params[0].value = arg;
	params->params[0].isnull = false;
	params->params[0].pflags = PARAM_FLAG_CONST;
	params->params[0].ptype = type;
	r->pub.receiveSlot = bloom_index_rows_receive;
	r->pub.rStartup = bloom_index_rows_startup;
	r->pub.rShutdown = bloom_index_rows_shutdown;
	r->pub.rDestroy = bloom_index_rows_shutdown;
	r->pub.mydest = DestNone;
	opts.params = params;
	opts.read_only = true;
	opts.dest = &r->pub;
	nest = bloom_index_pin_path();
	rc = SPI_execute_extended(sql, &opts);
	bloom_index_unpin_path(nest);
	if (rc < 0)
		elog(ERROR, "SPI_execute_extended failed: %s", SPI_result_code_string(rc));
#else
	/* no receiver of our own before 14: fetched in small batches */
	Portal		portal = bloom_index_open(sql, 1, &type, &arg, true);

	for (;;)
	{
		SPI_cursor_fetch(portal, true, BLOOM_INDEX_LOOKUP_FETCH);
		if (SPI_processed == 0)
			break;
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			bool		n1,
						n2,
						n3;
			Datum		seg = bloom_index_col(i, 1, &n1);
			Datum		blk = bloom_index_col(i, 2, &n2);
			Datum		bits = bloom_index_col(i, 3, &n3);

			bloom_index_rows_row(r, seg, n1, blk, n2, bits, n3);
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
#endif
}

/*
 * Match the keys hashed to h[0 .. nkeys) against every segment into
 * p->any: one statement reading the stripes their positions lie in, each
 * once, in the order the plan finds best.
 */
static void
bloom_index_pass(BloomIndexPass *p, const BloomFilter *hdr, const uint64 *h, int nkeys)
{
	BloomIndexMatch *m = bloom_index_match_begin(hdr, h, nkeys);
	BloomIndexRows r = {{0}};
	Datum	   *v;

	r.p = p;
	r.m = m;
	r.nblks = bloom_index_match_blks(m, &r.blks);
	r.nmulti = bloom_index_match_multi(m);
	r.seen = MemoryContextAllocHuge(CurrentMemoryContext, (p->nseg * r.nblks + 7) / 8);
	memset(r.seen, 0, (p->nseg * r.nblks + 7) / 8);
	for (int64 seg = 0; seg < p->nseg; seg++)
		for (int j = 0; j < r.nmulti; j++)
			p->and[seg * p->batch + j] = ~UINT64CONST(0);
	v = palloc(sizeof(Datum) * r.nblks);
	for (int i = 0; i < r.nblks; i++)
		v[i] = Int32GetDatum(r.blks[i]);
	bloom_index_rows_run(&r, psprintf("SELECT seg, blk, bits FROM %s WHERE blk = ANY ($1) AND seg >= 0",
									  p->t->name), INT4ARRAYOID,
						 PointerGetDatum(construct_array(v, r.nblks, INT4OID, 4, true, TYPALIGN_INT)));
	for (int64 bit = 0; r.nrows < p->nseg * r.nblks; bit++)
		if (!((r.seen[bit / 8] >> (bit % 8)) & 1))
			bloom_index_corrupt(p->t->name, "Segment %lld has no stripe %d.",
								(long long) (bit / r.nblks), r.blks[bit % r.nblks]);
	for (int64 seg = 0; seg < p->nseg && r.nmulti > 0; seg++)
		for (int j = 0; j < r.nmulti; j++)
			p->any[seg] |= p->and[seg * p->batch + j];
}

/* The ids of the hits' slots, from the slot maps of their segments only. */
static void
bloom_index_hit_ids(BloomIndexTable *t, BloomIndexHits *hits, ReturnSetInfo *rsinfo)
{
	Datum	   *v = palloc(sizeof(Datum) * hits->n);
	Oid			type = INT4ARRAYOID;
	Datum		arg;
	int			next = 0;

	for (int i = 0; i < hits->n; i++)
		v[i] = Int32GetDatum(hits->seg[i]);
	arg = PointerGetDatum(construct_array(v, hits->n, INT4OID, 4, true, TYPALIGN_INT));
	bloom_index_exec(psprintf("SELECT seg, ids FROM %s WHERE blk = -1 AND seg = ANY ($1) ORDER BY seg",
							  t->name), 1, &type, &arg, true, 0);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		int32		seg = bloom_index_int_col(t, r, 1);
		Datum	   *ids;
		bool	   *nulls;
		bool		isnull = false;

		if (next < hits->n && seg > hits->seg[next])
			bloom_index_corrupt(t->name, "Segment %d has stripes but no slot map.", hits->seg[next]);
		if (next == hits->n || seg != hits->seg[next])
			bloom_index_corrupt(t->name, "Segment %d has more than one slot map.", seg);
		bloom_index_map_col(t, r, 2, seg, &ids, &nulls);
		for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
			if ((hits->slots[next] >> j) & 1 && !nulls[j])
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &ids[j], &isnull);
		next++;
	}
	if (next < hits->n)
		bloom_index_corrupt(t->name, "Segment %d has stripes but no slot map.", hits->seg[next]);
	SPI_freetuptable(SPI_tuptable);
}

/*
 * The keys of a lookup hashed as the filters hash them (argument 1: one
 * key, or an array of keys when many), into *h; their number.  Converted as
 * bloom_contains converts them, under the caller's search_path.
 */
static int
bloom_index_hash_keys(FunctionCallInfo fcinfo, BloomFilter *hdr, bool many, uint64 **h)
{
	ArrayType  *arr;
	BloomTypeInfo *ti;
	BloomConversion *conv;
	Datum	   *values;
	bool	   *nulls;
	int			n,
				nh = 0;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	if (!many)
	{
		Datum		value;

		/* a key of several hashes (bloom_key_hashes) matches where any does */
		*h = palloc(sizeof(uint64) * BLOOM_KEY_MAX_HASHES);
		ti = bloom_call_value(fcinfo, 1, hdr->family, &hdr->collfp, hdr->scheme, &value);
		return bloom_key_hashes(ti, value, hdr->seed, hdr->scheme, *h);
	}
	arr = PG_GETARG_ARRAYTYPE_P(1);
	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign, &values, &nulls, &n);
	*h = palloc(sizeof(uint64) * BLOOM_KEY_MAX_HASHES * Max(n, 1));
	conv = bloom_call_elements(fcinfo, ARR_ELEMTYPE(arr), hdr->family, &hdr->collfp, hdr->scheme,
							   false, &ti);
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			nh += bloom_key_hashes(ti, conv ? bloom_convert(conv, values[i]) : values[i],
								   hdr->seed, hdr->scheme, *h + nh);
	return nh;
}

/*
 * Check the number of segments the slot maps claim against the table's
 * size (no more than one per heap tuple it can hold), so that a damaged
 * slot map cannot make a lookup allocate more than the table is worth.
 */
static void
bloom_index_check_nseg(BloomIndexTable *t, int64 nseg)
{
	Relation	rel = relation_open(t->relid, AccessShareLock);
	int64		most = (int64) RelationGetNumberOfBlocks(rel) * MaxHeapTuplesPerPage;

	relation_close(rel, AccessShareLock);
	if (nseg > most)
		bloom_index_corrupt(t->name, "The slot maps claim %lld segments; the table holds at most %lld rows.",
							(long long) nseg, (long long) most);
}

/*
 * The ids of the index's filters that may hold the key (many: any of the
 * keys), each once, into the function's tuplestore.  Keys whose positions
 * span stripes (the classic layout) are matched in batches whose ANDs fit
 * work_mem; a blocked index's keys, in one.
 */
static void
bloom_index_lookup_keys(FunctionCallInfo fcinfo, bool many)
{
	ReturnSetInfo *rsinfo = bloom_index_srf(fcinfo);
	BloomIndexTable t;
	BloomIndexPass p = {0};
	BloomIndexHits hits = {0};
	BloomFilter hdr;
	uint64	   *h;
	int			nkeys,
				per;

	bloom_index_table(PG_GETARG_OID(0), &t);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* filters nothing was added to (no family yet) answer false to all */
	if (bloom_index_read_header(&t, true, &hdr, &p.nseg) && hdr.family[0] != '\0' &&
		(nkeys = bloom_index_hash_keys(fcinfo, &hdr, many, &h)) > 0 && p.nseg > 0)
	{
		p.t = &t;
		bloom_index_check_nseg(&t, p.nseg);
		/* a blocked index's keys lie in one stripe each: no ANDs to keep */
		p.batch = (int) Max(1, Min(nkeys, (int64) work_mem * 1024 / ((int64) sizeof(uint64) * p.nseg)));
		per = hdr.layout == BLOOM_LAYOUT_BLOCKED ? nkeys : p.batch;
		if (hdr.layout == BLOOM_LAYOUT_BLOCKED)
			p.batch = 1;
		p.any = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint64) * p.nseg);
		memset(p.any, 0, sizeof(uint64) * p.nseg);
		p.and = MemoryContextAllocHuge(CurrentMemoryContext, sizeof(uint64) * p.nseg * p.batch);
		for (int off = 0; off < nkeys; off += per)
			bloom_index_pass(&p, &hdr, h + off, Min(per, nkeys - off));
		for (int64 seg = 0; seg < p.nseg; seg++)
			bloom_index_hit(&hits, (int32) seg, p.any[seg]);
		if (hits.n > 0)
			bloom_index_hit_ids(&t, &hits, rsinfo);
	}
	SPI_finish();
}

/*
 * bloom_index_lookup(index regclass, key anyelement | text) -> SETOF int8:
 * the ids of the filters that may hold key (bloom_contains true).
 */
PG_FUNCTION_INFO_V1(bloom_index_lookup);
Datum
bloom_index_lookup(PG_FUNCTION_ARGS)
{
	bloom_index_lookup_keys(fcinfo, false);
	return (Datum) 0;
}

/*
 * bloom_index_lookup_any(index regclass, keys anyarray) -> SETOF int8: the
 * ids of the filters that may hold any of the non-null keys, each once.
 */
PG_FUNCTION_INFO_V1(bloom_index_lookup_any);
Datum
bloom_index_lookup_any(PG_FUNCTION_ARGS)
{
	bloom_index_lookup_keys(fcinfo, true);
	return (Datum) 0;
}

/* ---- writing: stripes, slot maps, the header ------------------------------ */

/*
 * Rows on their way into the index table: stripes batched into one INSERT
 * per BLOOM_INDEX_BATCH rows, slot maps one INSERT each (one per 64
 * filters).  When ids is set, the ids of the maps written are collected
 * (in order: ascending within one build).
 */
typedef struct BloomIndexSink
{
	BloomIndexTable *t;
	SPIPlanPtr	stripes;
	SPIPlanPtr	map;
	MemoryContext cxt;			/* the pending batch */
	int			n;
	Datum		seg[BLOOM_INDEX_BATCH];
	Datum		blk[BLOOM_INDEX_BATCH];
	Datum		bits[BLOOM_INDEX_BATCH];
	int64	   *ids;
	int64		nids;
	int64		capids;
	bool		collect;
} BloomIndexSink;

/* A sink writing into t. */
static void
bloom_index_sink_init(BloomIndexSink *s, BloomIndexTable *t, bool collect)
{
	Oid			st[3] = {INT4ARRAYOID, INT4ARRAYOID, BYTEAARRAYOID};
	Oid			mt[2] = {INT4OID, INT8ARRAYOID};

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->collect = collect;
	s->stripes = bloom_index_prepare(psprintf("INSERT INTO %s (seg, blk, bits) "
											  "SELECT * FROM unnest($1, $2, $3)", t->name), 3, st);
	s->map = bloom_index_prepare(psprintf("INSERT INTO %s (seg, blk, ids) VALUES ($1, -1, $2)",
										  t->name), 2, mt);
	s->cxt = AllocSetContextCreate(CurrentMemoryContext, "bloom index rows",
								   ALLOCSET_DEFAULT_SIZES);
}

/* Write the pending stripes. */
static void
bloom_index_sink_flush(BloomIndexSink *s)
{
	Datum		args[3];

	if (s->n == 0)
		return;
	args[0] = PointerGetDatum(construct_array(s->seg, s->n, INT4OID, 4, true, TYPALIGN_INT));
	args[1] = PointerGetDatum(construct_array(s->blk, s->n, INT4OID, 4, true, TYPALIGN_INT));
	args[2] = PointerGetDatum(construct_array(s->bits, s->n, BYTEAOID, -1, false, TYPALIGN_INT));
	bloom_index_exec_plan(s->stripes, args);
	s->n = 0;
	MemoryContextReset(s->cxt);
	CHECK_FOR_INTERRUPTS();
}

/* Queue stripe blk of segment seg (bits allocated in s->cxt). */
static void
bloom_index_sink_stripe(BloomIndexSink *s, int32 seg, int32 blk, bytea *bits)
{
	s->seg[s->n] = Int32GetDatum(seg);
	s->blk[s->n] = Int32GetDatum(blk);
	s->bits[s->n++] = PointerGetDatum(bits);
	if (s->n == BLOOM_INDEX_BATCH)
		bloom_index_sink_flush(s);
}

/*
 * Write the slot map of segment seg (after the stripes before it); the
 * number of filters it holds.
 */
static int
bloom_index_sink_map(BloomIndexSink *s, int32 seg, ArrayType *ids)
{
	Datum		args[2] = {Int32GetDatum(seg), PointerGetDatum(ids)};
	Datum	   *v;
	bool	   *nulls;
	int			n = 0;

	bloom_index_sink_flush(s);
	bloom_index_exec_plan(s->map, args);
	bloom_index_slot_map(s->t->name, ids, &v, &nulls);
	for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
	{
		if (nulls[j])
			continue;
		n++;
		if (s->collect)
		{
			if (s->nids == s->capids)
			{
				s->capids = Max(1024, 2 * s->capids);
				s->ids = s->ids ? repalloc_huge(s->ids, sizeof(int64) * s->capids)
					: MemoryContextAllocHuge(CurrentMemoryContext, sizeof(int64) * s->capids);
			}
			s->ids[s->nids++] = DatumGetInt64(v[j]);
		}
	}
	return n;
}

/* Write every row of build b; the number of filters it read. */
static int64
bloom_index_sink_build(BloomIndexSink *s, BloomIndexBuild *b)
{
	int64		filters = 0;
	int32		seg,
				blk;
	ArrayType  *ids;
	bytea	   *bits;
	MemoryContext old = MemoryContextSwitchTo(s->cxt);

	while (bloom_index_build_next(b, &seg, &blk, &ids, &bits))
	{
		if (bits != NULL)
		{
			bloom_index_sink_stripe(s, seg, blk, bits);
			continue;
		}
		MemoryContextSwitchTo(old);
		filters += bloom_index_sink_map(s, seg, ids);
		MemoryContextSwitchTo(s->cxt);
	}
	MemoryContextSwitchTo(old);
	bloom_index_sink_flush(s);
	return filters;
}

/* Write the header row: inserted (a new index) or replaced. */
static void
bloom_index_write_header(BloomIndexTable *t, const BloomFilter *hdr, bool insert)
{
	Oid			type = BYTEAOID;
	Datum		arg = PointerGetDatum(bloom_index_header_bytea(hdr));

	bloom_index_exec(psprintf(insert ? "INSERT INTO %s (seg, blk, bits) VALUES (-1, -1, $1)"
							  : "UPDATE %s SET bits = $1 WHERE blk = -1 AND seg = -1", t->name),
					 1, &type, &arg, false, 0);
}

/*
 * Rewrite the columns slots[0 .. n) of every stripe of segment seg (which
 * must have nstripes) with the filters f: read in batches, each written
 * back by one UPDATE.
 */
static void
bloom_index_rewrite(BloomIndexTable *t, int32 seg, int64 nstripes,
					int n, const int *slots, BloomFilter *const *f)
{
	Oid			rt = INT4OID;
	Oid			ut[3] = {INT4ARRAYOID, BYTEAARRAYOID, INT4OID};
	Datum		arg = Int32GetDatum(seg);
	SPIPlanPtr	upd = bloom_index_prepare(psprintf("UPDATE %s AS t SET bits = u.bits "
												   "FROM unnest($1, $2) AS u(blk, bits) "
												   "WHERE t.seg = $3 AND t.blk = u.blk", t->name), 3, ut);
	Portal		portal = bloom_index_open(psprintf("SELECT blk, bits FROM %s WHERE seg = $1 AND blk >= 0",
												   t->name), 1, &rt, &arg, false);
	uint8	   *seen = palloc0((nstripes + 7) / 8);
	int64		found = 0;
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "bloom index stripes",
											  ALLOCSET_DEFAULT_SIZES);

	for (;;)
	{
		Datum		blks[BLOOM_INDEX_BATCH];
		Datum		bits[BLOOM_INDEX_BATCH];
		Datum		args[3];
		uint64		nrows;
		MemoryContext old;

		SPI_cursor_fetch(portal, true, BLOOM_INDEX_BATCH);
		if ((nrows = SPI_processed) == 0)
			break;
		old = MemoryContextSwitchTo(cxt);
		for (uint64 i = 0; i < nrows; i++)
		{
			int32		blk = bloom_index_int_col(t, i, 1);
			bool		isnull;
			Datum		d = bloom_index_col(i, 2, &isnull);
			bytea	   *out;

			if (isnull || blk >= nstripes || (seen[blk / 8] >> (blk % 8)) & 1)
				bloom_index_corrupt(t->name, "Stripe %d of segment %d is NULL, repeated or beyond the %lld stripes of a segment.",
									blk, seg, (long long) nstripes);
			seen[blk / 8] |= 1 << (blk % 8);
			found++;
			out = palloc(VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
			SET_VARSIZE(out, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
			memcpy(VARDATA(out), bloom_index_stripe_bytes(t->name, DatumGetByteaPP(d)),
				   BLOOM_INDEX_STRIPE_BYTES);
			bloom_index_put_slots((uint8 *) VARDATA(out), blk, n, slots, f);
			blks[i] = Int32GetDatum(blk);
			bits[i] = PointerGetDatum(out);
		}
		SPI_freetuptable(SPI_tuptable);
		args[0] = PointerGetDatum(construct_array(blks, (int) nrows, INT4OID, 4, true, TYPALIGN_INT));
		args[1] = PointerGetDatum(construct_array(bits, (int) nrows, BYTEAOID, -1, false, TYPALIGN_INT));
		args[2] = Int32GetDatum(seg);
		MemoryContextSwitchTo(old);
		bloom_index_exec_plan(upd, args);
		MemoryContextReset(cxt);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
	if (found != nstripes)
		bloom_index_corrupt(t->name, "Segment %d has %lld stripes, not %lld.",
							seg, (long long) found, (long long) nstripes);
}

/*
 * Write filters f[0 .. n) with ids[0 .. n) into free slots[0 .. n) of
 * segment seg (fresh: a segment not stored yet, created) -- one pass over
 * its stripes, then its slot map.
 */
static void
bloom_index_fill(BloomIndexTable *t, const BloomFilter *hdr, int32 seg, bool fresh,
				 int n, const int *slots, const int64 *ids, BloomFilter *const *f)
{
	int64		nstripes = bloom_index_groups(hdr->nbits);
	Datum		args[2];
	Oid			types[2] = {INT8ARRAYOID, INT4OID};
	Datum		map[BLOOM_INDEX_SLOTS];
	bool		nulls[BLOOM_INDEX_SLOTS];
	int			dims[1] = {BLOOM_INDEX_SLOTS};
	int			lbs[1] = {1};

	if (fresh)
	{
		BloomIndexSink s;

		bloom_index_sink_init(&s, t, false);
		for (int64 b = 0; b < nstripes; b++)
		{
			bytea	   *bits = MemoryContextAllocZero(s.cxt, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);

			SET_VARSIZE(bits, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
			bloom_index_put_slots((uint8 *) VARDATA(bits), b, n, slots, f);
			bloom_index_sink_stripe(&s, seg, (int32) b, bits);
		}
		bloom_index_sink_flush(&s);
		for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
			nulls[j] = true;
	}
	else
	{
		Datum	   *v;
		bool	   *nl;

		bloom_index_rewrite(t, seg, nstripes, n, slots, f);
		args[0] = Int32GetDatum(seg);
		bloom_index_exec(psprintf("SELECT ids FROM %s WHERE blk = -1 AND seg = $1", t->name),
						 1, &types[1], args, false, 0);
		if (SPI_processed != 1)
			bloom_index_corrupt(t->name, "Segment %d has %llu slot maps, not one.",
								seg, (unsigned long long) SPI_processed);
		bloom_index_map_col(t, 0, 1, seg, &v, &nl);
		memcpy(map, v, sizeof(map));
		memcpy(nulls, nl, sizeof(nulls));
		SPI_freetuptable(SPI_tuptable);
	}
	for (int i = 0; i < n; i++)
	{
		map[slots[i]] = Int64GetDatum(ids[i]);
		nulls[slots[i]] = false;
	}
	args[0] = PointerGetDatum(construct_md_array(map, nulls, 1, dims, lbs, INT8OID, 8,
												 FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	args[1] = Int32GetDatum(seg);
	bloom_index_exec(psprintf(fresh ? "INSERT INTO %s (ids, seg, blk) VALUES ($1, $2, -1)"
							  : "UPDATE %s SET ids = $1 WHERE blk = -1 AND seg = $2", t->name),
					 2, types, args, false, 0);
}

/* ---- writing: where filters go -------------------------------------------- */

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
	bloom_index_fill(&t, &hdr, seg, fresh, 1, &slot, &id, &f);
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
		bloom_index_fill(&t, &hdr, last, false, n, free, ids, f);
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

/* ---- creation and information --------------------------------------------- */

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

/* Count the slot maps' filters and free slots (every map checked). */
static void
bloom_index_count(BloomIndexTable *t, int64 *filters, int32 *segments, int64 *free)
{
	Portal		portal = bloom_index_open(psprintf("SELECT seg, ids FROM %s WHERE blk = -1 AND seg >= 0",
												   t->name), 0, NULL, NULL, true);

	*filters = *free = 0;
	*segments = 0;
	for (;;)
	{
		SPI_cursor_fetch(portal, true, BLOOM_INDEX_BATCH);
		if (SPI_processed == 0)
			break;
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			int32		seg = bloom_index_int_col(t, i, 1);
			Datum	   *ids;
			bool	   *nulls;

			bloom_index_map_col(t, i, 2, seg, &ids, &nulls);
			(*segments)++;
			for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
				*(nulls[j] ? free : filters) += 1;
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
}

/*
 * bloom_index_info(index regclass) -> record: filters, segments, free
 * slots, stripe rows, size on disk, and the parameters the filters share
 * (NULL while no filter was ever added).
 */
PG_FUNCTION_INFO_V1(bloom_index_info);
Datum
bloom_index_info(PG_FUNCTION_ARGS)
{
	BloomIndexTable t;
	BloomFilter hdr;
	bool		has;
	int64		nseg,
				filters,
				free,
				stripes;
	int32		segments;
	TupleDesc	tupdesc;
	Datum		values[11];
	bool		nulls[11] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	bloom_index_table(PG_GETARG_OID(0), &t);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	has = bloom_index_read_header(&t, true, &hdr, &nseg);
	bloom_index_count(&t, &filters, &segments, &free);
	bloom_index_exec(psprintf("SELECT count(*) FROM %s WHERE blk >= 0", t.name), 0, NULL, NULL, true, 0);
	stripes = DatumGetInt64(bloom_index_col(0, 1, &nulls[3]));
	SPI_finish();
	values[0] = Int64GetDatum(filters);
	values[1] = Int32GetDatum(segments);
	values[2] = Int64GetDatum(free);
	values[3] = Int64GetDatum(stripes);
	values[4] = DirectFunctionCall1(pg_total_relation_size, ObjectIdGetDatum(t.relid));
	for (int i = 5; i < 11; i++)
		nulls[i] = !has;
	if (has)
	{
		values[5] = CStringGetTextDatum(bloom_layout_name(hdr.layout));
		values[6] = Int64GetDatum((int64) hdr.nbits);
		values[7] = Int32GetDatum(hdr.nhashes);
		values[8] = Int64GetDatum((int64) hdr.seed);
		values[9] = Int32GetDatum(hdr.scheme);
		values[10] = CStringGetTextDatum(hdr.family);
		nulls[10] = hdr.family[0] == '\0';
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}
