/*-------------------------------------------------------------------------
 *
 * bloom_agg.c
 *	  The aggregate machinery: the states of bloom_agg (three forms; the
 *	  n-gram and token aggregates of bloom_text.c share them), the exact
 *	  hash set (also the partial states of scalable_bloom_agg), the prefetch
 *	  queue, automatic sizing, combine and serialize/deserialize; what every
 *	  kind's aggregate shares (the first row's type information, the check
 *	  that sizing arguments do not change by row); and the set-operation
 *	  aggregates of every kind (bloom_union_agg, bloom_intersect_agg,
 *	  counting_bloom_union_agg, scalable_bloom_union_agg), one machinery run
 *	  with each kind's hooks (BloomSetopAgg).  bloom.c keeps the type.
 *
 * Aggregate state.  bloom_agg keeps an `internal` state updated in place,
 * allocated in the aggregate context.  Hashes wait in the prefetch queue
 * (bloom.h) a few rows while the cache line each will touch is fetched.
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
 * The states of counting_bloom_agg and scalable_bloom_agg live in their
 * type's file (their filters' insert and merge are the type's own), built
 * from the shared pieces here.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/memutils.h"






/* exact phase of automatic sizing: up to 2^20 distinct hashes (16 MiB) */
#define BLOOM_AUTO_EXACT_MAX	(1 << 20)
/* filter of the second phase: 2^30 bits = 128 MiB, 1 % up to ~100 M items */
#define BLOOM_AUTO_MAX_BITS		(UINT64_C(1) << 30)
#define BLOOM_STATE_MSG			"invalid serialized bloom aggregate state"


typedef enum BloomAggMode
{
	BLOOM_AGG_FILTER,			/* a filter is being filled directly */
	BLOOM_AGG_EXACT				/* automatic sizing, exact hash set phase */
} BloomAggMode;

struct BloomAggState
{
	BloomAggMode mode;
	BloomAggValue value;		/* the value argument's type information */
	uint64		nadded;			/* non-null values seen */
	BloomFilter *filter;		/* BLOOM_AGG_FILTER */
	BloomFilter *hdr;			/* BLOOM_AGG_EXACT: family, collation */
	BloomHashSet set;			/* BLOOM_AGG_EXACT: the distinct hashes */
	bool		deserialized;	/* made by bloom_agg_deserial: combine may keep it */
	BloomAggArgs args;			/* sizing arguments of the first row */
	BloomHashQueue queue;
};

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
		bloom_hashset_init(&st->set, aggcxt);
	}
	return st;
}

/* ---- exact hash set (shared with scalable_bloom_agg) ------------------ */

/* An empty set in cxt. */
void
bloom_hashset_init(BloomHashSet *s, MemoryContext cxt)
{
	s->nslots = 16;
	s->slots = MemoryContextAllocZero(cxt, s->nslots * sizeof(uint64));
	s->nused = 0;
	s->has_zero = false;
}

/* Release the slots (the set is empty and unusable until initialised). */
void
bloom_hashset_free(BloomHashSet *s)
{
	if (s->slots)
		pfree(s->slots);
	s->slots = NULL;
	s->nslots = s->nused = 0;
	s->has_zero = false;
}

/* Double the hash table. */
static void
bloom_hashset_grow(BloomHashSet *s)
{
	uint64	   *old = s->slots;
	uint32		oldn = s->nslots;

	s->nslots *= 2;
	s->slots = MemoryContextAllocZero(GetMemoryChunkContext(old),
									  (Size) s->nslots * sizeof(uint64));
	s->nused = 0;
	for (uint32 i = 0; i < oldn; i++)
		if (old[i] != 0)
			bloom_hashset_insert(s, old[i]);
	pfree(old);
}

/* Add h to the set (hashes are already mixed, so low bits index well). */
void
bloom_hashset_insert(BloomHashSet *s, uint64 h)
{
	uint32		mask = s->nslots - 1;
	uint32		i = (uint32) h & mask;

	if (h == 0)
	{
		s->has_zero = true;
		return;
	}
	while (s->slots[i] != 0)
	{
		if (s->slots[i] == h)
			return;
		i = (i + 1) & mask;
	}
	s->slots[i] = h;
	if (++s->nused * 2 > s->nslots)
		bloom_hashset_grow(s);
}

/* Distinct hashes in the set. */
uint64
bloom_hashset_count(const BloomHashSet *s)
{
	return (uint64) s->nused + (s->has_zero ? 1 : 0);
}

/*
 * Iterate: *pos starts at 0; each call stores the next hash in *h and
 * returns true, or returns false at the end.
 */
bool
bloom_hashset_next(const BloomHashSet *s, uint64 *pos, uint64 *h)
{
	if (*pos == 0)
	{
		*pos = 1;
		if (s->has_zero)
		{
			*h = 0;
			return true;
		}
	}
	while (*pos - 1 < s->nslots)
	{
		uint64		v = s->slots[*pos - 1];

		(*pos)++;
		if (((*pos) & 0xFFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		if (v != 0)
		{
			*h = v;
			return true;
		}
	}
	return false;
}

/* Insert every hash of the set into f. */
static void
bloom_set_into_filter(const BloomHashSet *s, BloomFilter *f)
{
	uint64		pos = 0,
				h;

	while (bloom_hashset_next(s, &pos, &h))
		bloom_insert_hash(f, h);
}

/* A copy of src's slots in cxt, as dst. */
void
bloom_hashset_copy(BloomHashSet *dst, const BloomHashSet *src, MemoryContext cxt)
{
	*dst = *src;
	dst->slots = MemoryContextAlloc(cxt, (Size) src->nslots * sizeof(uint64));
	memcpy(dst->slots, src->slots, (Size) src->nslots * sizeof(uint64));
}

/* Append the set to buf: the count (4 bytes), then the hashes (8 each). */
void
bloom_hashset_send(StringInfo buf, const BloomHashSet *s)
{
	uint64		pos = 0,
				h;

	pq_sendint32(buf, (uint32) bloom_hashset_count(s));
	while (bloom_hashset_next(s, &pos, &h))
		pq_sendint64(buf, h);
}

/*
 * Read a set written by bloom_hashset_send from the rest of buf into s (an
 * empty set); the reason it is malformed, or NULL.
 */
const char *
bloom_hashset_recv(BloomHashSet *s, StringInfo buf, uint32 max)
{
	uint32		count;

	if (buf->len - buf->cursor < 4)
		return "the hash count is truncated";
	count = pq_getmsgint(buf, 4);
	if (count > max || (uint64) (buf->len - buf->cursor) != (uint64) count * 8)
		return "the number of hashes does not match the length";
	for (uint32 i = 0; i < count; i++)
		bloom_hashset_insert(s, (uint64) pq_getmsgint64(buf));
	return NULL;
}

/* Leave the exact phase: move the set into a BLOOM_AUTO_MAX_BITS filter. */
static void
bloom_state_to_filter(BloomAggState *st)
{
	MemoryContext cxt = GetMemoryChunkContext(st->set.slots);
	BloomFilter *f = bloom_alloc_in(cxt, BLOOM_AUTO_MAX_BITS);

	bloom_init_header(f, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
					  BLOOM_AUTO_MAX_BITS, 0);
	f->flags = BLOOM_FLAG_AUTOSIZED;
	memcpy(f->family, st->hdr->family, BLOOM_FAMILY_LEN);
	f->collfp = st->hdr->collfp;
	bloom_set_into_filter(&st->set, f);
	bloom_hashset_free(&st->set);
	st->filter = f;
	st->mode = BLOOM_AGG_FILTER;
}

/* ---- the prefetch queue ---------------------------------------------- */

/* Apply the queued hashes. */
static void
bloom_state_flush(BloomAggState *st)
{
	BloomHashQueue *q = &st->queue;

	if (st->mode == BLOOM_AGG_FILTER)
		bloom_insert_hashes(st->filter, q->h, q->n);
	else
	{
		for (int i = 0; i < q->n; i++)
		{
			if (st->mode == BLOOM_AGG_FILTER)
				bloom_insert_hash(st->filter, q->h[i]);
			else
			{
				bloom_hashset_insert(&st->set, q->h[i]);
				if (bloom_hashset_count(&st->set) > BLOOM_AUTO_EXACT_MAX)
					bloom_state_to_filter(st);
			}
		}
	}
	q->n = 0;
}

/* Queue hash h, prefetching the memory it will touch. */
static inline void
bloom_state_push(BloomAggState *st, uint64 h)
{
	if (st->mode == BLOOM_AGG_FILTER)
		bloom_prefetch_hash(st->filter, h, true);
	else
	{
#if defined(__GNUC__) || defined(__clang__)
		__builtin_prefetch(&st->set.slots[(uint32) h & (st->set.nslots - 1)], 1, 3);
#endif
	}
	if (bloom_queue_push(&st->queue, h))
		bloom_state_flush(st);
}

/* ---- what every kind's aggregate shares --------------------------------- */

/*
 * The hash information of the value argument (1) of this aggregate call,
 * set up on the first non-null value in v (allocated in cxt), when the
 * element family and collation are checked against, or adopted into, the
 * filter's fields (family, collfp).  True on that first call, so a kind
 * can copy the adopted fields where it keeps more copies of them.
 */
bool
bloom_agg_first_value(FunctionCallInfo fcinfo, BloomAggValue *v, char *family,
					  uint32 *collfp, MemoryContext cxt)
{
	if (v->valid)
		return false;
	bloom_typeinfo_init(&v->ti, get_fn_expr_argtype(fcinfo->flinfo, 1),
						PG_GET_COLLATION(), cxt);
	v->valid = true;
	bloom_check_element_fields(family, collfp, &v->ti, true);
	return true;
}

/* ---- transition functions -------------------------------------------- */

/* The bits of argument i of type t (int4, int8 or float8). */
static int64
bloom_arg_bits(FunctionCallInfo fcinfo, int i, Oid t)
{
	double		d;
	int64		b;

	if (t == INT4OID)
		return PG_GETARG_INT32(i);
	if (t == INT8OID)
		return PG_GETARG_INT64(i);
	d = PG_GETARG_FLOAT8(i);
	memcpy(&b, &d, sizeof(b));
	return b;
}

/*
 * Check that the sizing arguments first.. of this row are those of the
 * first row (recorded in a on the first call): the filter was sized by the
 * first row's, so a row asking for another size is an error, not silently
 * ignored.  NULL arguments are the caller's first-row error.
 */
void
bloom_agg_same_args(BloomAggArgs *a, FunctionCallInfo fcinfo, int first,
					const char *aggname)
{
	int			n = Min(PG_NARGS() - first, BLOOM_AGG_MAX_ARGS);

	if (a->n == 0)
	{
		for (int i = 0; i < n; i++)
		{
			a->types[i] = get_fn_expr_argtype(fcinfo->flinfo, first + i);
			a->bits[i] = bloom_arg_bits(fcinfo, first + i, a->types[i]);
		}
		a->n = n;
		return;
	}
	for (int i = 0; i < a->n; i++)
		if (PG_ARGISNULL(first + i) ||
			bloom_arg_bits(fcinfo, first + i, a->types[i]) != a->bits[i])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the sizing arguments of %s must be the same in every row", aggname),
					 errdetail("The filter is sized once, by the first row's arguments; argument %d of this row differs.",
							   first + i),
					 errhint("Pass constants, or build one filter per size (GROUP BY the sizing arguments).")));
}

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
	hdr = bloom_state_header(st);
	bloom_agg_first_value(fcinfo, &st->value, hdr->family, &hdr->collfp,
						  GetMemoryChunkContext(st));
	bloom_state_push(st, bloom_hash_datum(&st->value.ti, PG_GETARG_DATUM(1), hdr->seed, hdr->scheme));
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

/* The element family of an aggregate state ("" before the first value). */
const char *
bloom_agg_family(BloomAggState *st)
{
	return bloom_state_header(st)->family;
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
PG_FUNCTION_INFO_V1(bloom_agg_trans);
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

	make(fcinfo, &hdr);
	f = bloom_alloc_like(aggcxt, &hdr, hdr.nbits);
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

/*
 * The filter of bloom_parquet_agg(x, capacity, fpr): Parquet's scheme and
 * power-of-two sizing, for the argument's type (bloom_parquet.c).
 */
static void
bloom_make_parquet(FunctionCallInfo fcinfo, BloomFilter *hdr)
{
	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_parquet_agg capacity and false-positive rate must not be NULL")));
	bloom_parquet_sized_header(hdr, PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3),
							   get_fn_expr_argtype(fcinfo->flinfo, 1), PG_GET_COLLATION());
}

/* bloom_parquet_agg(anyelement, capacity bigint, fpr float8) */
PG_FUNCTION_INFO_V1(bloom_parquet_agg_trans);
Datum
bloom_parquet_agg_trans(PG_FUNCTION_ARGS)
{
	BloomAggState *st = PG_ARGISNULL(0) ? bloom_state_for(fcinfo, bloom_make_parquet)
		: (BloomAggState *) PG_GETARG_POINTER(0);

	bloom_agg_same_args(&st->args, fcinfo, 2, "bloom_parquet_agg");
	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/* bloom_agg(anyelement, capacity bigint, fpr float8) */
PG_FUNCTION_INFO_V1(bloom_agg_trans_sized);
Datum
bloom_agg_trans_sized(PG_FUNCTION_ARGS)
{
	BloomAggState *st = PG_ARGISNULL(0) ? bloom_state_for(fcinfo, bloom_make_sized)
		: (BloomAggState *) PG_GETARG_POINTER(0);

	bloom_agg_same_args(&st->args, fcinfo, 2, "bloom_agg");
	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/* bloom_agg(anyelement, size_bytes int, hashes int, seed bigint) */
PG_FUNCTION_INFO_V1(bloom_agg_trans_explicit);
Datum
bloom_agg_trans_explicit(PG_FUNCTION_ARGS)
{
	BloomAggState *st = PG_ARGISNULL(0) ? bloom_state_for(fcinfo, bloom_make_explicit)
		: (BloomAggState *) PG_GETARG_POINTER(0);

	bloom_agg_same_args(&st->args, fcinfo, 2, "bloom_agg");
	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/* ---- final ------------------------------------------------------------- */

/* The smallest empty filter: the result of aggregating nothing. */
BloomFilter *
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
						bloom_auto_bits((double) bloom_hashset_count(&st->set)), 0);
		memcpy(f->family, st->hdr->family, BLOOM_FAMILY_LEN);
		f->collfp = st->hdr->collfp;
		bloom_set_into_filter(&st->set, f);
	}
	else
	{
		BloomFilter *big = st->filter;
		uint64		est = (uint64) bloom_estimate_items(big, bloom_popcount(big));
		uint64		bits = bloom_auto_bits((double) est);

		f = bloom_alloc_like(CurrentMemoryContext, big, bits);
		bloom_resize_into(big, f);
	}
	f->flags = BLOOM_FLAG_AUTOSIZED;
	f->nitems = 0;
	bloom_add_items(f, st->nadded);
	return f;
}

/* bloom_agg final function: a new filter; the state stays usable. */
PG_FUNCTION_INFO_V1(bloom_agg_final);
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
	bloom_check_full(f, fcinfo);
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
		uint64		pos = 0,
					h;

		while (bloom_hashset_next(&src->set, &pos, &h))
		{
			bloom_hashset_insert(&dst->set, h);
			if (bloom_hashset_count(&dst->set) > BLOOM_AUTO_EXACT_MAX)
			{
				bloom_state_to_filter(dst);
				bloom_state_merge(dst, src);
				return;
			}
		}
	}
	else if (src->mode == BLOOM_AGG_EXACT)
		bloom_set_into_filter(&src->set, dst->filter);
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
		st->filter = bloom_copy_in(aggcxt, src->filter);
	if (src->hdr)
	{
		st->hdr = MemoryContextAlloc(aggcxt, BLOOM_HEADER_SIZE);
		memcpy(st->hdr, src->hdr, BLOOM_HEADER_SIZE);
	}
	if (src->set.slots)
		bloom_hashset_copy(&st->set, &src->set, aggcxt);
	return st;
}

/*
 * Give dst the element family of src if dst has none yet (a state that saw
 * only NULLs); both having different families is an error.
 */
static void
bloom_state_merge_family(BloomFilter *dst, const BloomFilter *src)
{
	bloom_merge_element_fields(dst->family, &dst->collfp, src->family, src->collfp,
							   "bloom_agg");
}

/* bloom_agg combine function: NULL on either side is an empty state. */
PG_FUNCTION_INFO_V1(bloom_agg_combine);
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
PG_FUNCTION_INFO_V1(bloom_agg_serial);
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
		bloom_hashset_send(&buf, &st->set);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* Raise invalid_binary_representation for a bad serialized state. */
static void
bloom_bad_state(const char *why)
{
	bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, BLOOM_STATE_MSG, why);
}

/* Rebuild an exact-phase state from buf (after mode and nadded). */
static void
bloom_deserial_exact(BloomAggState *st, StringInfo buf)
{
	const char *why;

	if (buf->len - buf->cursor < BLOOM_FAMILY_LEN + 8)
		bloom_bad_state("the exact-set header is truncated");
	bloom_init_header(st->hdr, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
					  BLOOM_MIN_BITS, 0);
	memcpy(st->hdr->family, pq_getmsgbytes(buf, BLOOM_FAMILY_LEN), BLOOM_FAMILY_LEN);
	st->hdr->collfp = pq_getmsgint(buf, 4);
	if ((why = bloom_hashset_recv(&st->set, buf, BLOOM_AUTO_EXACT_MAX + 1)) != NULL ||
		(why = bloom_check_header(st->hdr)) != NULL)
		bloom_bad_state(why);
}

/* bloom_agg deserialize function: validates like bloom_recv. */
PG_FUNCTION_INFO_V1(bloom_agg_deserial);
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
		BloomFilter *f = bloom_parse_wire((const uint8 *) buf.data + buf.cursor,
										  buf.len - buf.cursor, aggcxt,
										  BLOOM_KIND_PLAIN, BLOOM_STATE_MSG);

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
		return bloom_copy_in(aggcxt, in);
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
		state->flags = bloom_result_flags(state, in);
		return state;
	}
	old = MemoryContextSwitchTo(aggcxt);
	r = bloom_combine(state, in, is_union);
	MemoryContextSwitchTo(old);
	pfree(state);
	return r;
}

/* The steps of bloom_union_agg and bloom_intersect_agg. */
static void *
bloom_union_step(MemoryContext aggcxt, void *state, const void *in)
{
	return bloom_setop_step(aggcxt, (BloomFilter *) state, (const BloomFilter *) in, true);
}

static void *
bloom_intersect_step(MemoryContext aggcxt, void *state, const void *in)
{
	return bloom_setop_step(aggcxt, (BloomFilter *) state, (const BloomFilter *) in, false);
}

/* bloom_check_full for the shared final function. */
static void
bloom_check_full_any(const void *f, FunctionCallInfo fcinfo)
{
	bloom_check_full((const BloomFilter *) f, fcinfo);
}

/* An empty filter for the shared final function. */
static void *
bloom_empty_any(void)
{
	return bloom_empty_result();
}

static const BloomSetopAgg bloom_union_agg_kind = {
	BLOOM_KIND_PLAIN, BLOOM_STATE_MSG, bloom_union_step, bloom_empty_any,
	bloom_check_full_any, NULL, NULL
};

/* intersection over no rows is NULL (the intersection of nothing cannot be represented) */
static const BloomSetopAgg bloom_intersect_agg_kind = {
	BLOOM_KIND_PLAIN, BLOOM_STATE_MSG, bloom_intersect_step, NULL, bloom_check_full_any, NULL, NULL
};

/*
 * The machinery of the set-operation aggregates of every kind
 * (bloom_union_agg, bloom_intersect_agg, counting_bloom_union_agg,
 * scalable_bloom_union_agg): the state is the result so far, a filter in
 * the aggregate context, NULL before the first non-null input; the kind's
 * step merges an input or another state into it.  Transition (combine =
 * false: argument 1 is a filter datum) or combine (argument 1 is a state).
 */
Datum
bloom_setop_apply(FunctionCallInfo fcinfo, const BloomSetopAgg *k, bool combine)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	void	   *state = PG_ARGISNULL(0) ? NULL : PG_GETARG_POINTER(0);
	const void *in;

	if (PG_ARGISNULL(1))
	{
		if (state == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(state);
	}
	in = combine ? PG_GETARG_POINTER(1) : bloom_from_datum_kind(PG_GETARG_DATUM(1), k->kind);
	PG_RETURN_POINTER(k->step(aggcxt, state, in));
}

/*
 * Final: a copy of the state (the final function must not change it),
 * checked for fullness where the kind has a check; over no rows, the
 * kind's empty filter, or NULL where it has none.
 */
Datum
bloom_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	void	   *f;

	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
	{
		if (k->empty == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(k->empty());
	}
	f = bloom_copy((BloomFilter *) PG_GETARG_POINTER(0));
	if (k->check_full)
		k->check_full(f, fcinfo);
	PG_RETURN_POINTER(f);
}

/* Serialize: the filter's binary form (the kind's portable image). */
Datum
bloom_setop_serialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	void	   *f = PG_GETARG_POINTER(0);

	bloom_agg_context(fcinfo);
	PG_RETURN_BYTEA_P(bloom_wire_bytea(k->portable ? k->portable(f) : (BloomFilter *) f));
}

/* Deserialize: validated like the kind's binary input. */
Datum
bloom_setop_deserialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomFilter *f = bloom_parse_wire((const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
									  k->decode ? CurrentMemoryContext : aggcxt,
									  k->kind, k->state_msg);

	PG_RETURN_POINTER(k->decode ? k->decode(f, aggcxt) : f);
}

PG_FUNCTION_INFO_V1(bloom_union_trans);
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_union_agg_kind, false);
}

PG_FUNCTION_INFO_V1(bloom_intersect_trans);
Datum
bloom_intersect_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_intersect_agg_kind, false);
}

/*
 * Final functions: union over no rows gives an empty filter (so NOT
 * bloom_contains stays correct); intersection over no rows is NULL.
 */
PG_FUNCTION_INFO_V1(bloom_union_final);
Datum
bloom_union_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &bloom_union_agg_kind);
}

PG_FUNCTION_INFO_V1(bloom_intersect_final);
Datum
bloom_intersect_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &bloom_intersect_agg_kind);
}

PG_FUNCTION_INFO_V1(bloom_union_combine);
Datum
bloom_union_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_union_agg_kind, true);
}

PG_FUNCTION_INFO_V1(bloom_intersect_combine);
Datum
bloom_intersect_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_intersect_agg_kind, true);
}

/* Serialize (both aggregates): the filter's send form. */
PG_FUNCTION_INFO_V1(bloom_setop_serial);
Datum
bloom_setop_serial(PG_FUNCTION_ARGS)
{
	return bloom_setop_serialize(fcinfo, &bloom_union_agg_kind);
}

/* Deserialize (both aggregates): validated like bloom_recv. */
PG_FUNCTION_INFO_V1(bloom_setop_deserial);
Datum
bloom_setop_deserial(PG_FUNCTION_ARGS)
{
	return bloom_setop_deserialize(fcinfo, &bloom_union_agg_kind);
}
