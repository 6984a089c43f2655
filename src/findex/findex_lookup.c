/*-------------------------------------------------------------------------
 *
 * findex_lookup.c
 *	  The read-only entry points of the filter index: bloom_index_lookup,
 *	  bloom_index_lookup_any and bloom_index_info.  They run their
 *	  statements read-only under the caller's snapshot and take no lock
 *	  beyond the reads' own (findex_table.c).
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
#include "findex_table.h"
#include "findex_match.h"
#include "../datum/bloom_convert.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/params.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/*
 * stripe rows a lookup fetches at a time (64 kB): small enough for the
 * allocator to reuse its memory fetch after fetch, instead of mapping and
 * faulting in fresh pages as it does for larger blocks
 */
#define BLOOM_INDEX_LOOKUP_FETCH 32

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
int
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

/* ---- information ---------------------------------------------------------- */

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
