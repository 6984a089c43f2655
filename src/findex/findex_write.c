/*-------------------------------------------------------------------------
 *
 * findex_write.c
 *	  Writing rows into a filter index's table: a build's stripes batched
 *	  into one INSERT per BLOOM_INDEX_BATCH rows and its slot maps (the
 *	  sink), the header row, and filters into free slots of one segment
 *	  (a new segment created, or an existing one's stripes rewritten in
 *	  batches).  The caller holds the writers' lock (bloom_index_lock).
 *
 *-------------------------------------------------------------------------
 */
#include "findex_write.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* ---- stripes, slot maps, the header ------------------------------------- */

/* A sink writing into t. */
void
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
int64
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
void
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
void
bloom_index_write_segment(BloomIndexTable *t, const BloomFilter *hdr, int32 seg, bool fresh,
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
