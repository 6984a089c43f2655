/*-------------------------------------------------------------------------
 *
 * bloom_agg.c
 *	  The aggregates: bloom_agg in its three forms, bloom_union_agg and
 *	  bloom_intersect_agg, with combine/serialize/deserialize functions for
 *	  parallel (and Citus) aggregation.
 *
 * State.  bloom_agg keeps an `internal` state updated in place, allocated
 * in the aggregate context.  Hashes are queued a few rows ahead and the
 * cache line each will touch is prefetched, which hides the memory latency
 * of a filter larger than the caches.
 *
 * Automatic sizing (bloom_agg(x) with no hints).  The state starts as an
 * exact set of 64-bit element hashes (16 bytes per distinct value at most),
 * so the final filter can be sized for the true number of distinct values.
 * Past BLOOM_AUTO_EXACT_MAX distinct values it switches to one blocked
 * filter of BLOOM_AUTO_MAX_BITS (128 MiB, 1 % up to about 100 million
 * distinct values).  The final function then builds (or folds down to) the
 * smallest power-of-two blocked filter that keeps the model false-positive
 * rate at or under 1 %.  Folding a power-of-two filter is identical to
 * building it directly at the smaller size, so every automatically sized
 * filter is foldable onto every other one, and union works across sizes.
 *
 * Zero rows, or only NULLs, give an empty filter, never NULL: an empty
 * filter answers false for every probe and is the identity of union.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(bloom_agg_trans);
PG_FUNCTION_INFO_V1(bloom_agg_trans_sized);
PG_FUNCTION_INFO_V1(bloom_agg_trans_explicit);
PG_FUNCTION_INFO_V1(bloom_agg_final);
PG_FUNCTION_INFO_V1(bloom_agg_combine);
PG_FUNCTION_INFO_V1(bloom_agg_serial);
PG_FUNCTION_INFO_V1(bloom_agg_deserial);
PG_FUNCTION_INFO_V1(bloom_union_trans);
PG_FUNCTION_INFO_V1(bloom_intersect_trans);
PG_FUNCTION_INFO_V1(bloom_union_final);
PG_FUNCTION_INFO_V1(bloom_intersect_final);
PG_FUNCTION_INFO_V1(bloom_union_combine);
PG_FUNCTION_INFO_V1(bloom_intersect_combine);
PG_FUNCTION_INFO_V1(bloom_setop_serial);
PG_FUNCTION_INFO_V1(bloom_setop_deserial);

/* exact phase of automatic sizing: up to 2^20 distinct hashes (16 MiB) */
#define BLOOM_AUTO_EXACT_MAX	(1 << 20)
/* filter of the second phase: 2^30 bits = 128 MiB, 1 % up to ~100 M items */
#define BLOOM_AUTO_MAX_BITS		(UINT64_C(1) << 30)
#define BLOOM_AUTO_FPR			0.01
#define BLOOM_QUEUE_LEN			32	/* rows of prefetch look-ahead (16: 61 ns/row, 32: 55, 64: 55 in agg-text) */
#define BLOOM_STATE_MSG			"invalid serialized bloom aggregate state"


typedef enum BloomAggMode
{
	BLOOM_AGG_FILTER,			/* a filter is being filled directly */
	BLOOM_AGG_EXACT				/* automatic sizing, exact hash set phase */
} BloomAggMode;

struct BloomAggState
{
	BloomAggMode mode;
	bool		ti_valid;
	BloomTypeInfo ti;
	uint64		nadded;			/* non-null values seen */
	BloomFilter *filter;		/* BLOOM_AGG_FILTER */
	BloomFilter *hdr;			/* BLOOM_AGG_EXACT: family, collation */
	uint64	   *slots;			/* BLOOM_AGG_EXACT: open addressing, 0 = free */
	uint32		nslots;
	uint32		nused;
	bool		has_zero;		/* hash value 0 is in the set */
	bool		deserialized;	/* made by bloom_agg_deserial: combine may keep it */
	int			nqueued;
	uint64		queue[BLOOM_QUEUE_LEN];
};

/* The aggregate memory context, or an error if not called as aggregate. */
MemoryContext
bloom_agg_context(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloom aggregate support function called in non-aggregate context")));
	return aggcxt;
}

/* A new state in aggcxt, filling filter f (NULL for automatic sizing). */
static BloomAggState *
bloom_state_new(MemoryContext aggcxt, BloomFilter *f)
{
	BloomAggState *st = MemoryContextAllocZero(aggcxt, sizeof(BloomAggState));

	st->filter = f;
	st->mode = f ? BLOOM_AGG_FILTER : BLOOM_AGG_EXACT;
	if (!f)
	{
		st->hdr = MemoryContextAllocZero(aggcxt, BLOOM_HEADER_SIZE);
		st->nslots = 16;
		st->slots = MemoryContextAllocZero(aggcxt, st->nslots * sizeof(uint64));
	}
	return st;
}

/* ---- exact hash set --------------------------------------------------- */

static void bloom_set_insert(BloomAggState *st, uint64 h);

/* Double the hash table. */
static void
bloom_set_grow(BloomAggState *st)
{
	uint64	   *old = st->slots;
	uint32		oldn = st->nslots;

	st->nslots *= 2;
	st->slots = MemoryContextAllocZero(GetMemoryChunkContext(old),
									   (Size) st->nslots * sizeof(uint64));
	st->nused = 0;
	for (uint32 i = 0; i < oldn; i++)
		if (old[i] != 0)
			bloom_set_insert(st, old[i]);
	pfree(old);
}

/* Add h to the set (hashes are already mixed, so low bits index well). */
static void
bloom_set_insert(BloomAggState *st, uint64 h)
{
	uint32		mask = st->nslots - 1;
	uint32		i = (uint32) h & mask;

	if (h == 0)
	{
		st->has_zero = true;
		return;
	}
	while (st->slots[i] != 0)
	{
		if (st->slots[i] == h)
			return;
		i = (i + 1) & mask;
	}
	st->slots[i] = h;
	if (++st->nused * 2 > st->nslots)
		bloom_set_grow(st);
}

/* Distinct hashes in the exact set. */
static uint64
bloom_set_count(const BloomAggState *st)
{
	return (uint64) st->nused + (st->has_zero ? 1 : 0);
}

/* Insert every hash of the exact set into f. */
static void
bloom_set_into_filter(const BloomAggState *st, BloomFilter *f)
{
	if (st->has_zero)
		bloom_insert_hash(f, 0);
	for (uint32 i = 0; i < st->nslots; i++)
		if (st->slots[i] != 0)
			bloom_insert_hash(f, st->slots[i]);
}

/* Leave the exact phase: move the set into a BLOOM_AUTO_MAX_BITS filter. */
static void
bloom_state_to_filter(BloomAggState *st)
{
	MemoryContext cxt = GetMemoryChunkContext(st->slots);
	void	   *raw;
	BloomFilter *f = bloom_alloc_large(cxt, BLOOM_AUTO_MAX_BITS, &raw);

	memset(f, 0, BLOOM_TOTAL_SIZE(BLOOM_AUTO_MAX_BITS));
	SET_VARSIZE(f, BLOOM_TOTAL_SIZE(BLOOM_AUTO_MAX_BITS));
	bloom_init_header(f, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
					  BLOOM_AUTO_MAX_BITS, 0);
	f->flags = BLOOM_FLAG_AUTOSIZED;
	memcpy(f->family, st->hdr->family, BLOOM_FAMILY_LEN);
	f->collfp = st->hdr->collfp;
	bloom_set_into_filter(st, f);
	pfree(st->slots);
	st->slots = NULL;
	st->nslots = st->nused = 0;
	st->has_zero = false;
	st->filter = f;
	st->mode = BLOOM_AGG_FILTER;
}

/* ---- the prefetch queue ---------------------------------------------- */

/* Apply the queued hashes. */
static void
bloom_state_flush(BloomAggState *st)
{
	if (st->mode == BLOOM_AGG_FILTER)
		bloom_insert_hashes(st->filter, st->queue, st->nqueued);
	else
	{
		for (int i = 0; i < st->nqueued; i++)
		{
			if (st->mode == BLOOM_AGG_FILTER)
				bloom_insert_hash(st->filter, st->queue[i]);
			else
			{
				bloom_set_insert(st, st->queue[i]);
				if (bloom_set_count(st) > BLOOM_AUTO_EXACT_MAX)
					bloom_state_to_filter(st);
			}
		}
	}
	st->nqueued = 0;
}

/* Queue hash h, prefetching the memory it will touch. */
static inline void
bloom_state_push(BloomAggState *st, uint64 h)
{
	if (st->mode == BLOOM_AGG_FILTER)
		bloom_prefetch_hash(st->filter, h, true);
	else
		__builtin_prefetch(&st->slots[(uint32) h & (st->nslots - 1)], 1, 3);
	st->queue[st->nqueued++] = h;
	if (st->nqueued == BLOOM_QUEUE_LEN)
		bloom_state_flush(st);
}

/* ---- transition functions -------------------------------------------- */

/* The header holding the family: the filter's, or the exact phase's. */
static BloomFilter *
bloom_state_header(BloomAggState *st)
{
	return st->mode == BLOOM_AGG_FILTER ? st->filter : st->hdr;
}

/* Add argument 1 (if not NULL) to the state. */
static void
bloom_state_add_arg(FunctionCallInfo fcinfo, BloomAggState *st)
{
	BloomFilter *hdr;

	if (PG_ARGISNULL(1))
		return;
	if (!st->ti_valid)
	{
		bloom_typeinfo_init(&st->ti, get_fn_expr_argtype(fcinfo->flinfo, 1),
							PG_GET_COLLATION(), GetMemoryChunkContext(st));
		st->ti_valid = true;
		bloom_check_element(bloom_state_header(st), &st->ti, true);
	}
	hdr = bloom_state_header(st);
	bloom_state_push(st, bloom_hash_datum(&st->ti, PG_GETARG_DATUM(1), hdr->seed));
	st->nadded++;
}

/*
 * For aggregates over derived elements (n-grams, tokens: bloom_text.c): the
 * automatically sized state of this call, created on first use with the
 * given element family (NULL when the state already exists).
 */
BloomAggState *
bloom_agg_auto_state(FunctionCallInfo fcinfo, const char *family)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomAggState *st;

	if (!PG_ARGISNULL(0))
		return (BloomAggState *) PG_GETARG_POINTER(0);
	st = bloom_state_new(aggcxt, NULL);
	strlcpy(st->hdr->family, family, BLOOM_FAMILY_LEN);
	return st;
}

/* Add one element hash (and count one more item) to an aggregate state. */
void
bloom_agg_push(BloomAggState *st, uint64 h, bool count_item)
{
	bloom_state_push(st, h);
	if (count_item)
		st->nadded++;
}

/* bloom_agg(anyelement): automatic sizing. */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	BloomAggState *st = PG_ARGISNULL(0) ? bloom_state_new(bloom_agg_context(fcinfo), NULL)
		: (BloomAggState *) PG_GETARG_POINTER(0);

	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/*
 * A new state whose filter has the header make(fcinfo) describes, allocated
 * once, zeroed, in the aggregate context (large-page aligned if large).
 */
static BloomAggState *
bloom_state_for(FunctionCallInfo fcinfo, void (*make) (FunctionCallInfo, BloomFilter *))
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomFilter hdr;
	BloomFilter *f;
	void	   *raw;

	make(fcinfo, &hdr);
	f = bloom_alloc_large(aggcxt, hdr.nbits, &raw);
	memset(f, 0, BLOOM_TOTAL_SIZE(hdr.nbits));
	memcpy(f, &hdr, BLOOM_HEADER_SIZE);
	SET_VARSIZE(f, BLOOM_TOTAL_SIZE(hdr.nbits));
	return bloom_state_new(aggcxt, f);
}

/* The filter of bloom_agg(x, capacity, fpr), from the first row's arguments. */
static void
bloom_make_sized(FunctionCallInfo fcinfo, BloomFilter *hdr)
{
	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg capacity and false-positive rate must not be NULL")));
	bloom_sized_header(hdr, PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3), false);
}

/* The filter of bloom_agg(x, size_bytes, hashes, seed). */
static void
bloom_make_explicit(FunctionCallInfo fcinfo, BloomFilter *hdr)
{
	if (PG_ARGISNULL(2) || PG_ARGISNULL(3) || PG_ARGISNULL(4))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg size, hashes and seed must not be NULL")));
	bloom_explicit_header(hdr, PG_GETARG_INT32(2), PG_GETARG_INT32(3),
						  PG_GETARG_INT64(4));
}

/* bloom_agg(anyelement, capacity bigint, fpr float8) */
Datum
bloom_agg_trans_sized(PG_FUNCTION_ARGS)
{
	BloomAggState *st = PG_ARGISNULL(0) ? bloom_state_for(fcinfo, bloom_make_sized)
		: (BloomAggState *) PG_GETARG_POINTER(0);

	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/* bloom_agg(anyelement, size_bytes int, hashes int, seed bigint) */
Datum
bloom_agg_trans_explicit(PG_FUNCTION_ARGS)
{
	BloomAggState *st = PG_ARGISNULL(0) ? bloom_state_for(fcinfo, bloom_make_explicit)
		: (BloomAggState *) PG_GETARG_POINTER(0);

	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/* ---- final ------------------------------------------------------------- */

/* The smallest empty filter: the result of aggregating nothing. */
static BloomFilter *
bloom_empty_result(void)
{
	BloomFilter *f = bloom_alloc(BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
								 BLOOM_MIN_BITS, 0);

	f->flags = BLOOM_FLAG_AUTOSIZED;
	return f;
}

/* Bits of the power-of-two blocked filter for n items at the auto rate. */
static uint64
bloom_auto_bits(double n)
{
	BloomSizing s = bloom_size_for(Max((int64) ceil(n), 1), BLOOM_AUTO_FPR,
								   BLOOM_LAYOUT_BLOCKED, true);

	return (s.nbits == 0 || s.nbits > BLOOM_AUTO_MAX_BITS) ? BLOOM_AUTO_MAX_BITS : s.nbits;
}

/* The final filter of an automatically sized state (state unchanged). */
static BloomFilter *
bloom_auto_result(BloomAggState *st)
{
	BloomFilter *f;

	if (st->mode == BLOOM_AGG_EXACT)
	{
		f = bloom_alloc(BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
						bloom_auto_bits((double) bloom_set_count(st)), 0);
		memcpy(f->family, st->hdr->family, BLOOM_FAMILY_LEN);
		f->collfp = st->hdr->collfp;
		bloom_set_into_filter(st, f);
	}
	else
	{
		BloomFilter *big = st->filter;
		uint64		est = (uint64) bloom_estimate_items(big, bloom_popcount(big));
		uint64		bits = bloom_auto_bits((double) est);

		f = bloom_alloc(BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES, bits, 0);
		memcpy(((char *) f) + VARHDRSZ, ((char *) big) + VARHDRSZ,
			   BLOOM_HEADER_SIZE - VARHDRSZ);
		f->nbits = bits;
		bloom_resize_into(big, f);
	}
	f->flags = BLOOM_FLAG_AUTOSIZED;
	f->nitems = 0;
	bloom_add_items(f, st->nadded);
	return f;
}

/* bloom_agg final function: a new filter; the state stays usable. */
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	BloomAggState *st;
	BloomFilter *f;

	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
		PG_RETURN_BLOOM_P(bloom_empty_result());
	st = (BloomAggState *) PG_GETARG_POINTER(0);
	bloom_state_flush(st);
	if (st->filter != NULL && !(st->filter->flags & BLOOM_FLAG_AUTOSIZED))
	{
		f = bloom_copy(st->filter);
		f->nitems = 0;
		bloom_add_items(f, st->nadded);
	}
	else
		f = bloom_auto_result(st);
	PG_RETURN_BLOOM_P(f);
}

/* ---- combine ----------------------------------------------------------- */

/* Merge src into dst (both flushed); dst lives in the aggregate context. */
static void
bloom_state_merge(BloomAggState *dst, BloomAggState *src)
{
	if (dst->mode == BLOOM_AGG_EXACT && src->mode == BLOOM_AGG_FILTER)
		bloom_state_to_filter(dst);
	if (dst->mode == BLOOM_AGG_EXACT)
	{
		if (src->has_zero)
			bloom_set_insert(dst, 0);
		for (uint32 i = 0; i < src->nslots; i++)
		{
			if (src->slots[i] == 0)
				continue;
			bloom_set_insert(dst, src->slots[i]);
			if (bloom_set_count(dst) > BLOOM_AUTO_EXACT_MAX)
			{
				bloom_state_to_filter(dst);
				bloom_state_merge(dst, src);
				return;
			}
		}
	}
	else if (src->mode == BLOOM_AGG_EXACT)
		bloom_set_into_filter(src, dst->filter);
	else
	{
		char		detail[256];

		if (!bloom_check_compatible(dst->filter, src->filter, detail, sizeof(detail)) ||
			dst->filter->nbits != src->filter->nbits)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("cannot combine bloom_agg states with different parameters"),
					 errdetail("%s", detail),
					 errhint("Give every group the same capacity and rate.")));
		bloom_or_words(dst->filter->words, src->filter->words, BLOOM_NWORDS(dst->filter));
	}
}

/* Copy a state into aggcxt (combine may get a state it must not keep). */
static BloomAggState *
bloom_state_copy(MemoryContext aggcxt, const BloomAggState *src)
{
	BloomAggState *st = MemoryContextAlloc(aggcxt, sizeof(BloomAggState));

	memcpy(st, src, sizeof(BloomAggState));
	if (src->filter)
	{
		void	   *raw;

		st->filter = bloom_copy_large(aggcxt, src->filter, &raw);
	}
	if (src->hdr)
	{
		st->hdr = MemoryContextAlloc(aggcxt, BLOOM_HEADER_SIZE);
		memcpy(st->hdr, src->hdr, BLOOM_HEADER_SIZE);
	}
	if (src->slots)
	{
		st->slots = MemoryContextAlloc(aggcxt, (Size) src->nslots * sizeof(uint64));
		memcpy(st->slots, src->slots, (Size) src->nslots * sizeof(uint64));
	}
	return st;
}

/*
 * Give dst the element family of src if dst has none yet (a state that saw
 * only NULLs); both having different families is an error.
 */
static void
bloom_state_merge_family(BloomFilter *dst, const BloomFilter *src)
{
	if (src->family[0] == '\0')
		return;
	if (dst->family[0] == '\0')
	{
		memcpy(dst->family, src->family, BLOOM_FAMILY_LEN);
		dst->collfp = src->collfp;
		return;
	}
	if (memcmp(dst->family, src->family, BLOOM_FAMILY_LEN) != 0 ||
		dst->collfp != src->collfp)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot combine bloom_agg states of different element types"),
				 errdetail("Element families \"%s\" and \"%s\".",
						   dst->family, src->family)));
}

/* bloom_agg combine function: NULL on either side is an empty state. */
Datum
bloom_agg_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomAggState *a = PG_ARGISNULL(0) ? NULL : (BloomAggState *) PG_GETARG_POINTER(0);
	BloomAggState *b = PG_ARGISNULL(1) ? NULL : (BloomAggState *) PG_GETARG_POINTER(1);

	if (b == NULL)
		PG_RETURN_POINTER(a);	/* may be NULL too: the result is NULL */
	bloom_state_flush(b);
	if (a == NULL)
	{
		/* a state deserialized in this aggregate context is ours to keep */
		if (b->deserialized)
			PG_RETURN_POINTER(b);
		PG_RETURN_POINTER(bloom_state_copy(aggcxt, b));
	}
	bloom_state_flush(a);
	bloom_state_merge_family(bloom_state_header(a), bloom_state_header(b));
	bloom_state_merge(a, b);
	a->nadded += b->nadded;
	PG_RETURN_POINTER(a);
}

/* ---- serialize / deserialize ----------------------------------------- */

/*
 * Serialized state: mode (1 byte), nadded (8), then for a filter state the
 * filter in the binary (send/recv) form, or for an exact state the family
 * (32 bytes), the collation fingerprint (4), the count (4) and the hashes.
 */
Datum
bloom_agg_serial(PG_FUNCTION_ARGS)
{
	BloomAggState *st = (BloomAggState *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	bloom_agg_context(fcinfo);
	bloom_state_flush(st);
	pq_begintypsend(&buf);
	/* one allocation for a large filter state, not repeated doubling */
	if (st->mode == BLOOM_AGG_FILTER)
		enlargeStringInfo(&buf, BLOOM_WIRE_HEADER_SIZE + (int) BLOOM_DATA_BYTES(st->filter) + 16);
	pq_sendbyte(&buf, (int) st->mode);
	pq_sendint64(&buf, st->nadded);
	if (st->mode == BLOOM_AGG_FILTER)
		bloom_wire_append(&buf, st->filter);
	else
	{
		pq_sendbytes(&buf, st->hdr->family, BLOOM_FAMILY_LEN);
		pq_sendint32(&buf, st->hdr->collfp);
		pq_sendint32(&buf, (uint32) bloom_set_count(st));
		if (st->has_zero)
			pq_sendint64(&buf, 0);
		for (uint32 i = 0; i < st->nslots; i++)
			if (st->slots[i] != 0)
				pq_sendint64(&buf, st->slots[i]);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* Raise invalid_binary_representation for a bad serialized state. */
static void
bloom_bad_state(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg(BLOOM_STATE_MSG),
			 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1)));
}

/* Rebuild an exact-phase state from buf (after mode and nadded). */
static void
bloom_deserial_exact(BloomAggState *st, StringInfo buf)
{
	uint32		count;
	const char *why;

	if (buf->len - buf->cursor < BLOOM_FAMILY_LEN + 8)
		bloom_bad_state("the exact-set header is truncated");
	bloom_init_header(st->hdr, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
					  BLOOM_MIN_BITS, 0);
	memcpy(st->hdr->family, pq_getmsgbytes(buf, BLOOM_FAMILY_LEN), BLOOM_FAMILY_LEN);
	st->hdr->collfp = pq_getmsgint(buf, 4);
	count = pq_getmsgint(buf, 4);
	if (count > BLOOM_AUTO_EXACT_MAX + 1 ||
		(uint64) (buf->len - buf->cursor) != (uint64) count * 8)
		bloom_bad_state("the number of hashes does not match the length");
	if ((why = bloom_check_header(st->hdr)) != NULL)
		bloom_bad_state(why);
	for (uint32 i = 0; i < count; i++)
		bloom_set_insert(st, (uint64) pq_getmsgint64(buf));
}

/* bloom_agg deserialize function: validates like bloom_recv. */
Datum
bloom_agg_deserial(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	StringInfoData buf;
	BloomAggState *st;
	int			mode;
	uint64		nadded;

	buf.data = VARDATA_ANY(b);
	buf.len = VARSIZE_ANY_EXHDR(b);
	buf.cursor = 0;
	if (buf.len < 9)
		bloom_bad_state("the state is truncated");
	mode = pq_getmsgbyte(&buf);
	nadded = (uint64) pq_getmsgint64(&buf);
	if (mode == BLOOM_AGG_FILTER)
	{
		BloomFilter *f = bloom_wire_read_large((const uint8 *) buf.data + buf.cursor,
											   buf.len - buf.cursor, aggcxt, BLOOM_STATE_MSG);

		bloom_require_kind(f, false, ERRCODE_INVALID_BINARY_REPRESENTATION);
		st = bloom_state_new(aggcxt, f);
	}
	else if (mode == BLOOM_AGG_EXACT)
	{
		st = bloom_state_new(aggcxt, NULL);
		bloom_deserial_exact(st, &buf);
	}
	else
		bloom_bad_state("unknown state kind");
	st->nadded = nadded;
	st->deserialized = true;
	PG_RETURN_POINTER(st);
}

/* ---- bloom_union_agg / bloom_intersect_agg ----------------------------- */

/*
 * State: a filter in the aggregate context (NULL before the first non-null
 * input).  Same-size inputs are OR-ed/AND-ed in place; other sizes go
 * through bloom_combine (unfolding), which also reports mismatches.
 */
static BloomFilter *
bloom_setop_step(MemoryContext aggcxt, BloomFilter *state,
				 const BloomFilter *in, bool is_union)
{
	MemoryContext old;
	BloomFilter *r;
	char		detail[256];

	if (state == NULL)
	{
		r = MemoryContextAllocExtended(aggcxt, VARSIZE(in), 0);
		memcpy(r, in, VARSIZE(in));
		return r;
	}
	if (state->nbits == in->nbits && in->family[0] && state->family[0] &&
		bloom_check_compatible(state, in, detail, sizeof(detail)))
	{
		if (is_union)
		{
			bloom_or_words(state->words, in->words, BLOOM_NWORDS(state));
			bloom_add_items(state, in->nitems);
		}
		else
		{
			bloom_and_words(state->words, in->words, BLOOM_NWORDS(state));
			state->nitems = Min(state->nitems, in->nitems);
		}
		return state;
	}
	old = MemoryContextSwitchTo(aggcxt);
	r = bloom_combine(state, in, is_union);
	MemoryContextSwitchTo(old);
	pfree(state);
	return r;
}

static Datum
bloom_setop_trans(FunctionCallInfo fcinfo, bool is_union)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomFilter *state = PG_ARGISNULL(0) ? NULL : (BloomFilter *) PG_GETARG_POINTER(0);

	if (PG_ARGISNULL(1))
	{
		if (state == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(state);
	}
	PG_RETURN_POINTER(bloom_setop_step(aggcxt, state, PG_GETARG_BLOOM_P(1), is_union));
}

Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_trans(fcinfo, true);
}

Datum
bloom_intersect_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_trans(fcinfo, false);
}

/*
 * Final functions: a copy of the state.  Union over no rows gives an empty
 * filter (so NOT bloom_contains stays correct); intersection over no rows
 * is NULL (the intersection of nothing cannot be represented).
 */
Datum
bloom_union_final(PG_FUNCTION_ARGS)
{
	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
		PG_RETURN_BLOOM_P(bloom_empty_result());
	PG_RETURN_BLOOM_P(bloom_copy((BloomFilter *) PG_GETARG_POINTER(0)));
}

Datum
bloom_intersect_final(PG_FUNCTION_ARGS)
{
	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	PG_RETURN_BLOOM_P(bloom_copy((BloomFilter *) PG_GETARG_POINTER(0)));
}

static Datum
bloom_setop_combine(FunctionCallInfo fcinfo, bool is_union)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomFilter *a = PG_ARGISNULL(0) ? NULL : (BloomFilter *) PG_GETARG_POINTER(0);

	if (PG_ARGISNULL(1))
	{
		if (a == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(a);
	}
	PG_RETURN_POINTER(bloom_setop_step(aggcxt, a, (BloomFilter *) PG_GETARG_POINTER(1),
									   is_union));
}

Datum
bloom_union_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_combine(fcinfo, true);
}

Datum
bloom_intersect_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_combine(fcinfo, false);
}

/* Serialize: the filter's send form. */
Datum
bloom_setop_serial(PG_FUNCTION_ARGS)
{
	bloom_agg_context(fcinfo);
	PG_RETURN_BYTEA_P(bloom_wire_bytea((BloomFilter *) PG_GETARG_POINTER(0)));
}

/* Deserialize: validated like bloom_recv. */
Datum
bloom_setop_deserial(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);

	BloomFilter *f = bloom_wire_read((const uint8 *) VARDATA_ANY(b),
									 VARSIZE_ANY_EXHDR(b), aggcxt, BLOOM_STATE_MSG);

	bloom_require_kind(f, false, ERRCODE_INVALID_BINARY_REPRESENTATION);
	PG_RETURN_POINTER(f);
}
