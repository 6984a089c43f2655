/*-------------------------------------------------------------------------
 *
 * findex_compat_1_2.c
 *	  The C functions behind the SQL helpers of 1.2's filter index
 *	  (bloom_index_put, bloom_index_rows, bloom_index_probe, ...), kept
 *	  only so that a database whose extension is still at 1.2 loads and
 *	  answers with this library: before ALTER EXTENSION bloomset UPDATE,
 *	  and after pg_upgrade, which recreates 1.2's functions (a C function's
 *	  symbol must exist for CREATE FUNCTION).
 *
 * The update to 1.3 drops these SQL functions: 1.3's filter index is the
 * C entry points of findex_update.c and findex_lookup.c, which call the
 * bit work of findex.c directly.  Until then every argument is checked here
 * (NULLs included: 1.2 declared some of these functions without STRICT),
 * as a user can call them with anything.  Nothing new goes here.
 *
 *-------------------------------------------------------------------------
 */
#include "findex.h"
#include "findex_match.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* The little-endian uint64 at p. */
static inline uint64
bloom_index_compat_get64(const uint8 *p)
{
	uint64		v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * bloom_index_check(header bytea, filter bloom) -> bytea: the index header
 * after admitting filter (its own header when the index has none yet).
 */
PG_FUNCTION_INFO_V1(bloom_index_check);
Datum
bloom_index_check(PG_FUNCTION_ARGS)
{
	BloomFilter *f;
	BloomFilter hdr;

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a bloom index cannot hold a NULL filter")));
	f = PG_GETARG_BLOOM_P(1);
	if (PG_ARGISNULL(0))
		PG_RETURN_BYTEA_P(bloom_index_header_bytea(f));
	bloom_index_header_of(NULL, PG_GETARG_BYTEA_PP(0), &hdr);
	bloom_index_admit(&hdr, f);
	PG_RETURN_BYTEA_P(bloom_index_header_bytea(&hdr));
}

/*
 * bloom_index_header(header bytea) -> record: the index's parameters
 * (layout, nbits, nhashes, seed, scheme, element_family, stripes per
 * segment).
 */
PG_FUNCTION_INFO_V1(bloom_index_header);
Datum
bloom_index_header(PG_FUNCTION_ARGS)
{
	BloomFilter hdr;
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {0};

	bloom_index_header_of(NULL, PG_GETARG_BYTEA_PP(0), &hdr);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = CStringGetTextDatum(bloom_layout_name(hdr.layout));
	values[1] = Int64GetDatum((int64) hdr.nbits);
	values[2] = Int32GetDatum(hdr.nhashes);
	values[3] = Int64GetDatum((int64) hdr.seed);
	values[4] = Int32GetDatum(hdr.scheme);
	values[5] = CStringGetTextDatum(hdr.family);
	values[6] = Int32GetDatum((int32) bloom_index_groups(hdr.nbits));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/*
 * bloom_index_put(stripe bytea, blk int4, slots int4[], filters bloom[])
 * -> bytea: stripe blk (NULL: all zeros) with the columns of slots (0 .. 63)
 * replaced by group blk of the filters (the same order).  The filters'
 * parameters were admitted by the caller; their sizes are checked here.
 */
PG_FUNCTION_INFO_V1(bloom_index_put);
Datum
bloom_index_put(PG_FUNCTION_ARGS)
{
	int32		blk;
	ArrayType  *slots;
	ArrayType  *filters;
	Datum	   *sv,
			   *fv;
	bool	   *snull,
			   *fnull;
	int			n,
				nf;
	int		   *slot;
	BloomFilter **f;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	bytea	   *out = palloc0(VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);

	SET_VARSIZE(out, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_index_put needs a stripe number, slots and filters")));
	blk = PG_GETARG_INT32(1);
	slots = PG_GETARG_ARRAYTYPE_P(2);
	filters = PG_GETARG_ARRAYTYPE_P(3);
	if (!PG_ARGISNULL(0))
		memcpy(VARDATA(out), bloom_index_stripe_bytes(NULL, PG_GETARG_BYTEA_PP(0)), BLOOM_INDEX_STRIPE_BYTES);
	if (ARR_ELEMTYPE(slots) != INT4OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("bloom_index_put needs one slot number for each filter")));
	deconstruct_array(slots, INT4OID, 4, true, TYPALIGN_INT, &sv, &snull, &n);
	get_typlenbyvalalign(ARR_ELEMTYPE(filters), &typlen, &typbyval, &typalign);
	deconstruct_array(filters, ARR_ELEMTYPE(filters), typlen, typbyval, typalign,
					  &fv, &fnull, &nf);
	if (nf != n || n > BLOOM_INDEX_SLOTS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_index_put needs one slot number for each filter")));
	f = palloc(sizeof(BloomFilter *) * Max(n, 1));
	slot = palloc(sizeof(int) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		f[i] = fnull[i] ? NULL : bloom_from_datum_kind(fv[i], BLOOM_KIND_PLAIN);
		slot[i] = snull[i] ? -1 : DatumGetInt32(sv[i]);
		if (slot[i] < 0 || slot[i] >= BLOOM_INDEX_SLOTS || blk < 0 ||
			(f[i] != NULL && blk >= bloom_index_groups(f[i]->nbits)))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("slot %d or stripe %d is out of range for a bloom index segment", slot[i], blk),
					 errdetail("Slots are 0 .. 63; stripes 0 .. one less than the filter's bits / 256.")));
	}
	bloom_index_put_slots((uint8 *) VARDATA(out), blk, n, slot, f);
	PG_RETURN_BYTEA_P(out);
}

/*
 * bloom_index_rows(cursor refcursor, header bytea, first_seg int4,
 * after_id int8) -> SETOF (seg, blk, ids, bits): the rows of an index
 * holding the cursor's (id, filter) rows (ordered by id, every id above
 * after_id) in segments first_seg, first_seg + 1, ...; the last row is the
 * header (seg -1, blk -1) after admitting them all.  Value per call, so
 * the rows stream into the INSERT that takes them.
 */
/* The state of bloom_index_rows between calls. */
typedef struct BloomIndexCompatRows
{
	char	   *cursor;
	Portal		portal;
	BloomIndexBuild *b;
	bool		hdr_done;
} BloomIndexCompatRows;

PG_FUNCTION_INFO_V1(bloom_index_rows);
Datum
bloom_index_rows(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	BloomIndexCompatRows *r;
	MemoryContext callcxt = CurrentMemoryContext;
	Datum		values[4] = {0};
	bool		nulls[4] = {0};
	int32		seg,
				blk;
	ArrayType  *ids;
	bytea	   *bits;
	BloomFilter hdr;
	bool		more;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	tupdesc;

		if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("bloom_index_rows needs a cursor and a first segment")));
		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		fctx->tuple_desc = BlessTupleDesc(tupdesc);
		r = palloc0(sizeof(BloomIndexCompatRows));
		r->cursor = text_to_cstring(PG_GETARG_TEXT_PP(0));
		if (!PG_ARGISNULL(1))
			bloom_index_header_of(NULL, PG_GETARG_BYTEA_PP(1), &hdr);
		r->b = bloom_index_build_begin(NULL, PG_ARGISNULL(1) ? NULL : &hdr, PG_GETARG_INT32(2),
									   !PG_ARGISNULL(3), PG_ARGISNULL(3) ? 0 : PG_GETARG_INT64(3));
		fctx->user_fctx = r;
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	r = (BloomIndexCompatRows *) fctx->user_fctx;
	CHECK_FOR_INTERRUPTS();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* found again at every call: the portal may have been closed since */
	r->portal = SPI_cursor_find(r->cursor);
	if (r->portal == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_CURSOR),
				 errmsg("cursor \"%s\" does not exist", r->cursor)));
	bloom_index_build_source(r->b, r->portal);
	MemoryContextSwitchTo(callcxt);
	more = bloom_index_build_next(r->b, &seg, &blk, &ids, &bits);
	SPI_finish();
	if (more)
	{
		values[0] = Int32GetDatum(seg);
		values[1] = Int32GetDatum(blk);
		nulls[2] = ids == NULL;
		values[2] = PointerGetDatum(ids);
		nulls[3] = bits == NULL;
		values[3] = PointerGetDatum(bits);
	}
	else if (!r->hdr_done)
	{
		r->hdr_done = true;
		values[0] = Int32GetDatum(-1);
		values[1] = Int32GetDatum(-1);
		nulls[2] = true;
		nulls[3] = !bloom_index_build_header(r->b, &hdr);
		if (!nulls[3])
			values[3] = PointerGetDatum(bloom_index_header_bytea(&hdr));
	}
	else
		SRF_RETURN_DONE(fctx);
	SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc, values, nulls)));
}

/* A probe: positions per key, then each key's positions. */
static ArrayType *
bloom_index_probe_array(const BloomFilter *hdr, const uint64 *h, int nkeys)
{
	int			k = hdr->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_WORDS32 : hdr->nhashes;
	Datum	   *v = palloc(sizeof(Datum) * (1 + (Size) nkeys * k));
	uint64		pos[BLOOM_MAX_POSITIONS];

	v[0] = Int64GetDatum(k);
	for (int i = 0; i < nkeys; i++)
	{
		if (bloom_index_positions(hdr, h[i], pos) != k)
			elog(ERROR, "bloom index probe: unexpected number of positions");
		for (int j = 0; j < k; j++)
			v[1 + i * k + j] = Int64GetDatum((int64) pos[j]);
	}
	return construct_array(v, 1 + nkeys * k, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

/*
 * The probe (see bloom_index_probe_array) of argument 1 -- one key, or
 * when many the non-null elements of an array -- against the index whose
 * header is argument 0: no key when no filter had an element added yet.
 * Keys are hashed as the 1.3 lookups hash them (bloom_index_hash_keys).
 */
static Datum
bloom_index_probe_keys(FunctionCallInfo fcinfo, bool many)
{
	BloomFilter hdr;
	uint64	   *h = NULL;
	int			nh = 0;

	bloom_index_header_of(NULL, PG_GETARG_BYTEA_PP(0), &hdr);
	if (hdr.family[0] != '\0')
		nh = bloom_index_hash_keys(fcinfo, &hdr, many, &h);
	PG_RETURN_ARRAYTYPE_P(bloom_index_probe_array(&hdr, h, nh));
}

/* bloom_index_probe(header bytea, key anycompatible) -> int8[] */
PG_FUNCTION_INFO_V1(bloom_index_probe);
Datum
bloom_index_probe(PG_FUNCTION_ARGS)
{
	return bloom_index_probe_keys(fcinfo, false);
}

/* bloom_index_probe_any(header bytea, keys anycompatiblearray) -> int8[] */
PG_FUNCTION_INFO_V1(bloom_index_probe_any);
Datum
bloom_index_probe_any(PG_FUNCTION_ARGS)
{
	return bloom_index_probe_keys(fcinfo, true);
}

/*
 * Check a probe (as bloom_index_probe returns it: positions per key, then
 * each key's positions, every one a bit number of a filter): its number of
 * elements.  Raises 22023 for anything else, so no position can address
 * outside a stripe.
 */
static int
bloom_index_probe_check(ArrayType *probe)
{
	int			n = ArrayGetNItems(ARR_NDIM(probe), ARR_DIMS(probe));
	int64	   *p = (int64 *) ARR_DATA_PTR(probe);
	bool		ok = ARR_ELEMTYPE(probe) == INT8OID && !ARR_HASNULL(probe) && n >= 1 &&
		p[0] >= 1 && p[0] <= BLOOM_MAX_POSITIONS && (n - 1) % p[0] == 0;

	for (int i = 1; ok && i < n; i++)
		ok = p[i] >= 0 && (uint64) p[i] < BLOOM_MAX_BITS;
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid bloom index probe"),
				 errdetail("A probe is the number of positions per key, then each key's positions, as bloom_index_probe returns it.")));
	return n;
}

/*
 * The state of bloom_index_match over one segment's stripes: per key the
 * AND of its positions' slot words seen so far, and which positions were
 * seen (every one must be, else a stripe row is missing).
 */
typedef struct BloomIndexCompatMatch
{
	int			k;				/* positions per key */
	int			npos;			/* k * keys */
	int64	   *pos;
	uint64	   *and;			/* per key */
	bool	   *seen;			/* per position */
} BloomIndexCompatMatch;

/* The match state for probe (allocated in cxt). */
static BloomIndexCompatMatch *
bloom_index_match_init(MemoryContext cxt, ArrayType *probe)
{
	BloomIndexCompatMatch *m = MemoryContextAllocZero(cxt, sizeof(BloomIndexCompatMatch));
	int			n = bloom_index_probe_check(probe);
	int64	   *p = (int64 *) ARR_DATA_PTR(probe);

	m->k = (int) p[0];
	m->npos = n - 1;
	m->pos = MemoryContextAlloc(cxt, sizeof(int64) * Max(m->npos, 1));
	memcpy(m->pos, p + 1, sizeof(int64) * m->npos);
	m->and = MemoryContextAlloc(cxt, sizeof(uint64) * Max(m->npos / m->k, 1));
	for (int i = 0; i < m->npos / m->k; i++)
		m->and[i] = ~UINT64CONST(0);
	m->seen = MemoryContextAllocZero(cxt, Max(m->npos, 1));
	return m;
}

/*
 * bloom_index_match_trans(state, blk int4, stripe bytea, probe int8[]):
 * AND the slot words of stripe blk at the probe's positions into each key.
 */
PG_FUNCTION_INFO_V1(bloom_index_match_trans);
Datum
bloom_index_match_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt;
	BloomIndexCompatMatch *m = PG_ARGISNULL(0) ? NULL : (BloomIndexCompatMatch *) PG_GETARG_POINTER(0);
	const uint8 *s;
	int32		blk;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "bloom_index_match_trans called in non-aggregate context");
	if (PG_ARGISNULL(3))
	{
		/* no probe: the state stays SQL NULL until one comes */
		if (m == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(m);
	}
	if (m == NULL)
		m = bloom_index_match_init(aggcxt, PG_GETARG_ARRAYTYPE_P(3));
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		bloom_index_corrupt(NULL, "a stripe row has no block number or no bits");
	blk = PG_GETARG_INT32(1);
	s = bloom_index_stripe_bytes(NULL, PG_GETARG_BYTEA_PP(2));
	for (int i = 0; i < m->npos; i++)
	{
		if (m->pos[i] / BLOOM_INDEX_STRIPE_BITS != blk)
			continue;
		m->and[i / m->k] &= bloom_index_compat_get64(s + 8 * (m->pos[i] % BLOOM_INDEX_STRIPE_BITS));
		m->seen[i] = true;
	}
	PG_RETURN_POINTER(m);
}

/*
 * bloom_index_match_final(state) -> int8: the slots (bit j: slot j) that
 * may hold any of the probe's keys.
 */
PG_FUNCTION_INFO_V1(bloom_index_match_final);
Datum
bloom_index_match_final(PG_FUNCTION_ARGS)
{
	BloomIndexCompatMatch *m;
	uint64		any = 0;

	if (PG_ARGISNULL(0) || PG_GETARG_POINTER(0) == NULL)
		PG_RETURN_NULL();
	m = (BloomIndexCompatMatch *) PG_GETARG_POINTER(0);
	for (int i = 0; i < m->npos; i++)
		if (!m->seen[i])
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("invalid bloom index row"),
					 errdetail("A segment has no stripe for bits %lld .. %lld.",
							   (long long) (m->pos[i] / BLOOM_INDEX_STRIPE_BITS * BLOOM_INDEX_STRIPE_BITS),
							   (long long) (m->pos[i] / BLOOM_INDEX_STRIPE_BITS * BLOOM_INDEX_STRIPE_BITS + BLOOM_INDEX_STRIPE_BITS - 1))));
	for (int i = 0; i < m->npos / m->k; i++)
		any |= m->and[i];
	PG_RETURN_INT64((int64) any);
}

/*
 * bloom_index_match_stripe(blk int4, stripe bytea, probe int8[]) -> int8:
 * the slots that may hold any of the probe's keys whose positions all lie in
 * stripe blk (keys with positions elsewhere are left out).  For a probe
 * whose every position lies in one stripe -- one key of a blocked index --
 * this is the segment's answer without the aggregate's grouping.
 */
PG_FUNCTION_INFO_V1(bloom_index_match_stripe);
Datum
bloom_index_match_stripe(PG_FUNCTION_ARGS)
{
	int32		blk = PG_GETARG_INT32(0);
	const uint8 *s = bloom_index_stripe_bytes(NULL, PG_GETARG_BYTEA_PP(1));
	ArrayType  *probe = PG_GETARG_ARRAYTYPE_P(2);
	int			n = bloom_index_probe_check(probe);
	int64	   *p = (int64 *) ARR_DATA_PTR(probe);
	uint64		any = 0;

	for (int64 *key = p + 1; key < p + n; key += p[0])
	{
		uint64		and = ~UINT64CONST(0);

		for (int j = 0; j < p[0] && and != 0; j++)
		{
			if (key[j] / BLOOM_INDEX_STRIPE_BITS != blk)
			{
				and = 0;
				break;
			}
			and &= bloom_index_compat_get64(s + 8 * (key[j] % BLOOM_INDEX_STRIPE_BITS));
		}
		any |= and;
	}
	PG_RETURN_INT64((int64) any);
}

/*
 * bloom_index_expect(found int8, expected int8) -> boolean: true, or
 * data_corrupted when a lookup found another number of segments than the
 * index has (a stripe row or a slot map missing, or one too many).
 */
PG_FUNCTION_INFO_V1(bloom_index_expect);
Datum
bloom_index_expect(PG_FUNCTION_ARGS)
{
	int64		found = PG_GETARG_INT64(0);
	int64		expected = PG_GETARG_INT64(1);

	if (found != expected)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid bloom index row"),
				 errdetail("The lookup found stripes of %lld segments; the index has %lld.",
						   (long long) found, (long long) expected)));
	PG_RETURN_BOOL(true);
}

/*
 * bloom_index_ids(slots int8, ids int8[]) -> int8[]: the ids of the slot
 * map ids at the set bits of slots (free slots skipped).
 */
PG_FUNCTION_INFO_V1(bloom_index_ids);
Datum
bloom_index_ids(PG_FUNCTION_ARGS)
{
	uint64		slots;
	Datum	   *v;
	bool	   *nulls;
	Datum		out[BLOOM_INDEX_SLOTS];
	int			n = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	slots = (uint64) PG_GETARG_INT64(0);
	if (PG_ARGISNULL(1))
	{
		if (slots != 0)
			bloom_index_corrupt(NULL, "a segment has stripes but no slot map");
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	}
	bloom_index_slot_map(NULL, PG_GETARG_ARRAYTYPE_P(1), &v, &nulls);
	for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
		if ((slots >> j) & 1 && !nulls[j])
			out[n++] = v[j];
	PG_RETURN_ARRAYTYPE_P(construct_array(out, n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
