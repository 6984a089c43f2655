/*-------------------------------------------------------------------------
 *
 * counting_bloom.c
 *	  The counting_bloom type: a filter of 4-bit counters that supports
 *	  removal (seeds 000 and 002; the classic 4-bit choice).
 *
 * It shares the stored format of bloom (layout 2, "counting"; nbits counts
 * storage bits, so a filter has nbits / 4 counters) and the hashing scheme,
 * and maps exactly onto the classic bloom filter of nbits / 4 bits
 * (counting_bloom_to_bloom).  Counters saturate at 15 and a saturated
 * counter is never decremented, so removing an item never causes a false
 * negative for another item that is still present.  Removing a value whose
 * counters are not all non-zero (it was certainly never added) is an error
 * and changes nothing; removing a value that was never added but happens
 * to collide with present items (a false positive) cannot be detected and
 * may cause false negatives later: remove only what you added.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"


#define COUNTING_ARG(n) bloom_from_datum_kind(PG_GETARG_DATUM(n), BLOOM_KIND_COUNTING)

PG_FUNCTION_INFO_V1(counting_bloom_in);
Datum
counting_bloom_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_text(PG_GETARG_CSTRING(0), BLOOM_KIND_COUNTING));
}

PG_FUNCTION_INFO_V1(counting_bloom_recv);
Datum
counting_bloom_recv(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_recv((StringInfo) PG_GETARG_POINTER(0),
									   BLOOM_KIND_COUNTING, "invalid external bloom filter value"));
}

/* An empty counting filter: classic sizing, one 4-bit counter per bit. */
static BloomFilter *
counting_new(int64 capacity, double fpr)
{
	BloomSizing s = bloom_sizing_checked(capacity, fpr, BLOOM_LAYOUT_COUNTING, false);
	BloomFilter *f = bloom_alloc(BLOOM_LAYOUT_COUNTING, s.nhashes, s.nbits, 0);

	bloom_set_target_fpr(f, fpr);	/* for bloomset.full_filter */
	return f;
}

/* Non-zero counters of c, and saturated ones (if saturated is not NULL). */
static uint64
counting_nonzero(const BloomFilter *c, uint64 *saturated)
{
	const uint8 *b = (const uint8 *) c->words;
	uint64		ncounters = c->nbits / 4,
				nonzero = 0,
				sat = 0;

	for (uint64 j = 0; j < ncounters; j++)
	{
		unsigned	x = (b[j >> 1] >> ((j & 1) * 4)) & 15;

		if ((j & ((UINT64CONST(1) << 20) - 1)) == 0)
			CHECK_FOR_INTERRUPTS(); /* every 512 kB of counters */

		nonzero += x != 0;
		sat += x == 15;
	}
	if (saturated)
		*saturated = sat;
	return nonzero;
}

/*
 * The full-filter check of a counting filter (bloomset.full_filter, see
 * bloom_check_full): O(1) first -- the classic model rate at the items added
 * (with repeats: an upper bound on the distinct ones) -- then the rate of
 * the non-zero counters, (nonzero / counters)^k, as counting_bloom_info
 * reports it.  The target is the rate the filter was created for.
 */
void
counting_check_full(const BloomFilter *c, FunctionCallInfo fcinfo)
{
	double		m = (double) (c->nbits / 4);
	double		target = bloom_target_fpr(c);
	double		rate;

	if (c->family[0] == '\0' || target == 0.0 || !bloom_full_check_wanted() ||
		pow(1.0 - exp(-(double) c->nhashes * (double) c->nitems / m), c->nhashes) <= 2.0 * target)
		return;
	rate = pow((double) counting_nonzero(c, NULL) / m, c->nhashes);
	if (rate > 2.0 * target)
		bloom_full_report(fcinfo, "counting bloom filter", rate, target,
						  psprintf("The filter has %llu counters and %llu items added; it was sized for a rate of %.3g.",
								   (unsigned long long) (c->nbits / 4),
								   (unsigned long long) c->nitems, target));
}

/* counting_bloom_empty(capacity bigint, fpr float8) */
PG_FUNCTION_INFO_V1(counting_bloom_empty);
Datum
counting_bloom_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(counting_new(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1)));
}

/*
 * The hash of the value argument for f (converted to f's element type if
 * it is of another; an empty f adopts the value's family).
 */
static uint64
counting_hash_arg(FunctionCallInfo fcinfo, BloomFilter *f)
{
	Datum		value;
	BloomTypeInfo *ti = bloom_call_value(fcinfo, 1, f->family, &f->collfp, &value);

	return bloom_hash_datum(ti, value, f->seed, f->scheme);
}

/* A copy of argument 0 that may be modified. */
static BloomFilter *
counting_arg_copy(FunctionCallInfo fcinfo)
{
	BloomFilter *f = COUNTING_ARG(0);

	return (Pointer) f == DatumGetPointer(PG_GETARG_DATUM(0)) ? bloom_copy(f) : f;
}

/* counting_bloom_add(counting_bloom, anycompatible): NULL values ignored. */
PG_FUNCTION_INFO_V1(counting_bloom_add);
Datum
counting_bloom_add(PG_FUNCTION_ARGS)
{
	BloomFilter *f;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_BLOOM_P(COUNTING_ARG(0));
	f = counting_arg_copy(fcinfo);
	bloom_counting_add(f, counting_hash_arg(fcinfo, f));
	bloom_add_items(f, 1);
	counting_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

/* Raise the error for removing a value that was never added. */
static void
counting_not_present_error(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("value is not in the counting bloom filter"),
			 errdetail("Some of its counters are zero, so it was never added; nothing was removed."),
			 errhint("Test with @> before removing, and remove only values that were added.")));
}

/* Count one item less (saturated counts stay). */
static void
counting_drop_item(BloomFilter *f)
{
	if (f->nitems > 0 && f->nitems != PG_UINT64_MAX)
		f->nitems--;
}

/*
 * counting_bloom_remove_all(counting_bloom, anycompatiblearray): remove
 * every non-null element; an error (and no change) if one is certainly
 * not present.
 */
PG_FUNCTION_INFO_V1(counting_bloom_remove_all);
Datum
counting_bloom_remove_all(PG_FUNCTION_ARGS)
{
	BloomFilter *f = counting_arg_copy(fcinfo);
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	BloomTypeInfo *ti;
	BloomConversion *conv = bloom_call_elements(fcinfo, ARR_ELEMTYPE(arr), f->family,
												&f->collfp, false, &ti);
	Datum	   *values;
	bool	   *nulls;
	int			n;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
					  &values, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			continue;
		if (f->family[0] == '\0' ||
			!bloom_counting_remove(f, bloom_hash_datum(ti, conv ? bloom_convert(conv, values[i])
														: values[i], f->seed, f->scheme)))
			counting_not_present_error();
		counting_drop_item(f);
	}
	counting_check_full(f, fcinfo);	/* still over capacity after removals? */
	PG_RETURN_BLOOM_P(f);
}

/* counting_bloom_remove(counting_bloom, anycompatible) */
PG_FUNCTION_INFO_V1(counting_bloom_remove);
Datum
counting_bloom_remove(PG_FUNCTION_ARGS)
{
	BloomFilter *f = counting_arg_copy(fcinfo);

	if (f->family[0] == '\0' ||
		!bloom_counting_remove(f, counting_hash_arg(fcinfo, f)))
		counting_not_present_error();
	counting_drop_item(f);
	counting_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

/* counting_bloom_contains(counting_bloom, anycompatible) */
PG_FUNCTION_INFO_V1(counting_bloom_contains);
Datum
counting_bloom_contains(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti;
	Datum		value;
	BloomFilter *f = bloom_call_probe(fcinfo, BLOOM_KIND_COUNTING, &ti, &value);
	uint64		h;

	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);
	h = bloom_hash_datum(ti, value, f->seed, f->scheme);
	f = bloom_call_parts(fcinfo, f, &h, 1);	/* a stored filter: its parts for h */
	PG_RETURN_BOOL(bloom_counting_test(f, h));
}

/* Add src's counters into dst (a copy), checking they can be combined. */
static void
counting_merge_checked(BloomFilter *dst, const BloomFilter *src)
{
	char		detail[256] = "";

	if (src->family[0] == '\0')
		return;					/* nothing was ever added to src */
	if (dst->family[0] == '\0')
		dst->scheme = src->scheme;	/* nothing was hashed into dst either */
	if (!bloom_check_compatible(dst, src, detail, sizeof(detail)) ||
		dst->nbits != src->nbits)
	{
		if (dst->nbits != src->nbits && detail[0] == '\0')
			snprintf(detail, sizeof(detail), "The sizes differ (%llu and %llu counters).",
					 (unsigned long long) dst->nbits / 4, (unsigned long long) src->nbits / 4);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot union counting bloom filters with incompatible parameters"),
				 errdetail("%s", detail),
				 dst->scheme != src->scheme ?
				 errhint("Rebuild the older filter from its values (new filters use scheme %d), or build the new one with counting_bloom_with_scheme(counting_bloom_empty(...), %d); counting_bloom_scheme() shows a filter's scheme.",
						 BLOOM_SCHEME_DEFAULT, Min(dst->scheme, src->scheme)) : 0));
	}
	if (dst->family[0] == '\0')
	{
		memcpy(dst->family, src->family, BLOOM_FAMILY_LEN);
		dst->collfp = src->collfp;
	}
	bloom_counting_merge(dst, src);
	bloom_add_items(dst, src->nitems);
}

/* counting_bloom_union(a, b): counters added, saturating at 15. */
PG_FUNCTION_INFO_V1(counting_bloom_union);
Datum
counting_bloom_union(PG_FUNCTION_ARGS)
{
	BloomFilter *a = COUNTING_ARG(0);
	BloomFilter *b = COUNTING_ARG(1);
	BloomFilter *r;

	if (a->family[0] == '\0' && b->family[0] != '\0')
		r = bloom_copy(b);		/* empty is the identity */
	else
	{
		r = bloom_copy(a);
		counting_merge_checked(r, b);
	}
	counting_check_full(r, fcinfo);
	PG_RETURN_BLOOM_P(r);
}

/* The classic filter of the non-zero counters of c. */
static BloomFilter *
counting_classic(const BloomFilter *c)
{
	BloomFilter *f = bloom_alloc(BLOOM_LAYOUT_CLASSIC, c->nhashes, c->nbits / 4, c->seed);

	memcpy(f->family, c->family, BLOOM_FAMILY_LEN);
	f->scheme = c->scheme;		/* same positions over the counters' bits */
	f->collfp = c->collfp;
	f->nitems = c->nitems;
	bloom_counting_to_bits(c, f);
	return f;
}

/* counting_bloom_to_bloom: the classic filter of the non-zero counters. */
PG_FUNCTION_INFO_V1(counting_bloom_to_bloom);
Datum
counting_bloom_to_bloom(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(counting_classic(COUNTING_ARG(0)));
}

/*
 * counting_bloom_estimate_card: estimated distinct items, the estimate of
 * the classic filter of the non-zero counters, -(m/k)·ln(1 - X/m).
 */
PG_FUNCTION_INFO_V1(counting_bloom_estimate_card);
Datum
counting_bloom_estimate_card(PG_FUNCTION_ARGS)
{
	BloomFilter *f = counting_classic(COUNTING_ARG(0));

	PG_RETURN_FLOAT8(bloom_estimate_items(f, bloom_popcount(f)));
}

/* counting_bloom_scheme(counting_bloom) -> integer: the hashing scheme. */
PG_FUNCTION_INFO_V1(counting_bloom_scheme);
Datum
counting_bloom_scheme(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(((BloomFilter *) COUNTING_ARG(0))->scheme);
}

/*
 * counting_bloom_with_scheme(counting_bloom, integer): the filter with the
 * given hashing scheme; only a filter nothing was added to can change.
 */
PG_FUNCTION_INFO_V1(counting_bloom_with_scheme);
Datum
counting_bloom_with_scheme(PG_FUNCTION_ARGS)
{
	BloomFilter *f = COUNTING_ARG(0);
	int32		scheme = PG_GETARG_INT32(1);

	bloom_check_scheme_change(f->scheme, scheme, f->family, f->nitems, "counting bloom filter");
	if (f->scheme == scheme)
		PG_RETURN_POINTER(f);
	f = bloom_copy(f);
	f->scheme = (uint8) scheme;
	PG_RETURN_POINTER(f);
}

/* counting_bloom_info: counters, hashes, items, non-zero, saturated, rate. */
PG_FUNCTION_INFO_V1(counting_bloom_info);
Datum
counting_bloom_info(PG_FUNCTION_ARGS)
{
	BloomFilter *c = COUNTING_ARG(0);
	uint64		ncounters = c->nbits / 4,
				saturated,
				nonzero = counting_nonzero(c, &saturated);
	TupleDesc	tupdesc;
	Datum		v[8];
	bool		nulls[8] = {false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	v[0] = Int64GetDatum((int64) ncounters);
	v[1] = Int32GetDatum(c->nhashes);
	v[2] = Int64GetDatum((int64) Min(c->nitems, (uint64) PG_INT64_MAX));
	v[3] = Int64GetDatum((int64) nonzero);
	v[4] = Int64GetDatum((int64) saturated);
	v[5] = Float8GetDatum(pow((double) nonzero / (double) ncounters, c->nhashes));
	v[6] = CStringGetTextDatum(c->family);
	v[7] = Int64GetDatum((int64) VARSIZE(c));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), v, nulls)));
}

/* ---- counting_bloom_agg(anyelement, capacity, fpr) ------------------------ */

/*
 * The state of counting_bloom_agg.  Sized (x, capacity, fpr): f, filled as
 * rows come.  Automatic (x): f is NULL until the final function, which
 * sizes the filter for the distinct values at 1 %; until then the hashes
 * are kept, with their multiplicity (a value added twice has counters
 * raised twice, so one removal leaves it present), in hashes[], at most
 * COUNTING_AUTO_MAX of them (8 bytes each): beyond that the sized form is
 * the way.
 */
typedef struct CountingAggState
{
	BloomAggValue value;		/* the value argument's type information */
	BloomFilter *f;
	BloomHashQueue queue;		/* hashes whose counters are being prefetched */
	char		family[BLOOM_FAMILY_LEN];	/* automatic: element fields */
	uint32		collfp;
	uint64	   *hashes;			/* automatic: every value's hash */
	uint32		nhashes;
	uint32		maxhashes;
	BloomAggArgs args;			/* sized: the first row's capacity and rate */
} CountingAggState;

#define COUNTING_AUTO_MAX	(1 << 22)

/* Apply the queued hashes. */
static void
counting_state_flush(CountingAggState *st)
{
	for (int i = 0; i < st->queue.n; i++)
		bloom_counting_add(st->f, st->queue.h[i]);
	bloom_add_items(st->f, st->queue.n);
	st->queue.n = 0;
}

/* An empty state in aggcxt (automatic until a filter is given to it). */
static CountingAggState *
counting_state_alloc(MemoryContext aggcxt)
{
	return MemoryContextAllocZero(aggcxt, sizeof(CountingAggState));
}

/* A state holding filter f (copied into aggcxt). */
static CountingAggState *
counting_state_new(MemoryContext aggcxt, const BloomFilter *f)
{
	CountingAggState *st = counting_state_alloc(aggcxt);

	st->f = bloom_copy_in(aggcxt, f);
	return st;
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_trans);
Datum
counting_bloom_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	CountingAggState *st;

	if (PG_ARGISNULL(0))
	{
		if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("counting_bloom_agg capacity and false-positive rate must not be NULL")));
		st = counting_state_new(aggcxt, counting_new(PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3)));
	}
	else
		st = (CountingAggState *) PG_GETARG_POINTER(0);
	bloom_agg_same_args(&st->args, fcinfo, 2, "counting_bloom_agg");
	if (!PG_ARGISNULL(1))
	{
		uint64		h;

		bloom_agg_first_value(fcinfo, &st->value, st->f->family, &st->f->collfp, aggcxt);
		h = bloom_hash_datum(&st->value.ti, PG_GETARG_DATUM(1), st->f->seed, st->f->scheme);

		/* queue a few rows ahead, prefetching every counter each will touch */
		bloom_counting_prefetch(st->f, h);
		if (bloom_queue_push(&st->queue, h))
			counting_state_flush(st);
	}
	PG_RETURN_POINTER(st);
}

/* ---- counting_bloom_agg(anyelement): automatic sizing ------------------ */

/*
 * Keep n more hashes, read from h (any alignment: a serialized state's
 * bytes), in an automatic state; an error beyond the limit.
 */
static void
counting_auto_append(CountingAggState *st, const void *h, uint32 n)
{
	if ((uint64) st->nhashes + n > COUNTING_AUTO_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("counting_bloom_agg(x) sizes automatically for at most %d values",
						COUNTING_AUTO_MAX),
				 errdetail("It keeps every value's hash until the end to count the distinct ones."),
				 errhint("Give the capacity and rate: counting_bloom_agg(x, capacity, 0.01).")));
	if (st->nhashes + n > st->maxhashes)
	{
		uint32		want = Max(st->maxhashes * 2, st->nhashes + n);

		want = Min(Max(want, 64), COUNTING_AUTO_MAX);
		st->hashes = st->hashes ?
			repalloc(st->hashes, (Size) want * sizeof(uint64)) :
			MemoryContextAlloc(GetMemoryChunkContext(st), (Size) want * sizeof(uint64));
		st->maxhashes = want;
	}
	memcpy(st->hashes + st->nhashes, h, (Size) n * sizeof(uint64));
	st->nhashes += n;
}


static int
counting_hash_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return x < y ? -1 : x > y;
}

/* The filter of an automatic state: sized for its distinct hashes at 1 %. */
static BloomFilter *
counting_auto_result(CountingAggState *st)
{
	uint64		distinct = 0;
	BloomFilter *f;

	/* sorting keeps the multiset (and the state usable for another final) */
	qsort(st->hashes, st->nhashes, sizeof(uint64), counting_hash_cmp);
	for (uint32 i = 0; i < st->nhashes; i++)
		distinct += (i == 0 || st->hashes[i] != st->hashes[i - 1]);
	f = counting_new(Max((int64) distinct, 1), BLOOM_AUTO_FPR);
	memcpy(f->family, st->family, BLOOM_FAMILY_LEN);
	f->collfp = st->collfp;
	for (uint32 i = 0; i < st->nhashes; i++)
	{
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		bloom_counting_add(f, st->hashes[i]);
	}
	bloom_add_items(f, st->nhashes);
	return f;
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_auto_trans);
Datum
counting_bloom_agg_auto_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	CountingAggState *st = PG_ARGISNULL(0) ?
		counting_state_alloc(aggcxt) :
		(CountingAggState *) PG_GETARG_POINTER(0);
	uint64		h;

	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);
	bloom_agg_first_value(fcinfo, &st->value, st->family, &st->collfp, aggcxt);
	h = bloom_hash_datum(&st->value.ti, PG_GETARG_DATUM(1), 0, BLOOM_SCHEME_DEFAULT);
	counting_auto_append(st, &h, 1);
	PG_RETURN_POINTER(st);
}

/* Serialized automatic state: family, collation fingerprint, the hashes. */
PG_FUNCTION_INFO_V1(counting_bloom_agg_auto_serial);
Datum
counting_bloom_agg_auto_serial(PG_FUNCTION_ARGS)
{
	CountingAggState *st = (CountingAggState *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	bloom_agg_context(fcinfo);
	pq_begintypsend(&buf);
	pq_sendbytes(&buf, st->family, BLOOM_FAMILY_LEN);
	pq_sendint32(&buf, st->collfp);
	if (st->nhashes > 0)
		pq_sendbytes(&buf, (const char *) st->hashes, (int) (st->nhashes * sizeof(uint64)));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_auto_deserial);
Datum
counting_bloom_agg_auto_deserial(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	CountingAggState *st = counting_state_alloc(aggcxt);
	const char *p = VARDATA_ANY(b);
	size_t		len = VARSIZE_ANY_EXHDR(b);
	size_t		head = BLOOM_FAMILY_LEN + 4;
	uint32		collfp;

	if (len < head || (len - head) % sizeof(uint64) != 0 ||
		(len - head) / sizeof(uint64) > COUNTING_AUTO_MAX ||
		memchr(p, '\0', BLOOM_FAMILY_LEN) == NULL)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION,
					"invalid serialized counting bloom aggregate state",
					"its length or element family is malformed");
	memcpy(&collfp, p + BLOOM_FAMILY_LEN, 4);
	bloom_merge_element_fields(st->family, &st->collfp, p, pg_ntoh32(collfp),
							   "counting_bloom_agg");
	if (len > head)
		counting_auto_append(st, p + head,
							 (uint32) ((len - head) / sizeof(uint64)));
	PG_RETURN_POINTER(st);
}

/*
 * Final: a copy of the filter (sized) or the filter of the kept hashes
 * (automatic); over no rows, the smallest empty counting filter.
 */
PG_FUNCTION_INFO_V1(counting_bloom_agg_final);
Datum
counting_bloom_agg_final(PG_FUNCTION_ARGS)
{
	CountingAggState *st;
	BloomFilter *f;

	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
		PG_RETURN_BLOOM_P(bloom_alloc(BLOOM_LAYOUT_COUNTING, 1, 4 * BLOOM_MIN_BITS, 0));
	st = (CountingAggState *) PG_GETARG_POINTER(0);
	if (st->f == NULL)
		f = counting_auto_result(st);
	else
	{
		counting_state_flush(st);
		f = bloom_copy(st->f);
	}
	counting_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_combine);
Datum
counting_bloom_agg_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	CountingAggState *a = PG_ARGISNULL(0) ? NULL : (CountingAggState *) PG_GETARG_POINTER(0);
	CountingAggState *b = PG_ARGISNULL(1) ? NULL : (CountingAggState *) PG_GETARG_POINTER(1);

	if (b == NULL)
		PG_RETURN_POINTER(a);
	if (b->f == NULL)
	{
		/* automatic states: the hashes of both */
		if (a == NULL)
			a = counting_state_alloc(aggcxt);
		bloom_merge_element_fields(a->family, &a->collfp, b->family, b->collfp,
								   "counting_bloom_agg");
		if (b->nhashes > 0)
			counting_auto_append(a, b->hashes, b->nhashes);
		PG_RETURN_POINTER(a);
	}
	counting_state_flush(b);
	if (a == NULL)
		PG_RETURN_POINTER(counting_state_new(aggcxt, b->f));
	counting_state_flush(a);
	counting_merge_checked(a->f, b->f);
	PG_RETURN_POINTER(a);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_serial);
Datum
counting_bloom_agg_serial(PG_FUNCTION_ARGS)
{
	CountingAggState *st = (CountingAggState *) PG_GETARG_POINTER(0);

	bloom_agg_context(fcinfo);
	counting_state_flush(st);
	PG_RETURN_BYTEA_P(bloom_wire_bytea(st->f));
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_deserial);
Datum
counting_bloom_agg_deserial(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	CountingAggState *st = counting_state_alloc(aggcxt);

	st->f = bloom_parse_wire((const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
							 aggcxt, BLOOM_KIND_COUNTING,
							 "invalid serialized counting bloom aggregate state");
	PG_RETURN_POINTER(st);
}

/* ---- counting_bloom_union_agg(counting_bloom) --------------------------- */

/*
 * The step of the union aggregate (bloom.c runs it): counters added in
 * place (counting_merge_checked: same sizes only, as counting_bloom_union);
 * an empty state takes the input.
 */
static void *
counting_union_step(MemoryContext aggcxt, void *state, const void *in)
{
	BloomFilter *st = (BloomFilter *) state;
	const BloomFilter *f = (const BloomFilter *) in;

	if (st == NULL || (st->family[0] == '\0' && f->family[0] != '\0'))
	{
		if (st)
			pfree(st);			/* empty: the identity of union */
		return bloom_copy_in(aggcxt, f);
	}
	counting_merge_checked(st, f);
	return st;
}

/* The smallest empty counting filter: the union of no rows. */
static void *
counting_union_empty(void)
{
	return bloom_alloc(BLOOM_LAYOUT_COUNTING, 1, 4 * BLOOM_MIN_BITS, 0);
}

static void
counting_check_full_any(const void *f, FunctionCallInfo fcinfo)
{
	counting_check_full((const BloomFilter *) f, fcinfo);
}

static const BloomSetopAgg counting_union_agg_kind = {
	BLOOM_KIND_COUNTING, "invalid serialized counting bloom aggregate state",
	counting_union_step, counting_union_empty, counting_check_full_any, NULL, NULL
};

PG_FUNCTION_INFO_V1(counting_bloom_union_trans);
Datum
counting_bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &counting_union_agg_kind, false);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_combine);
Datum
counting_bloom_union_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &counting_union_agg_kind, true);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_final);
Datum
counting_bloom_union_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &counting_union_agg_kind);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_serial);
Datum
counting_bloom_union_serial(PG_FUNCTION_ARGS)
{
	return bloom_setop_serialize(fcinfo, &counting_union_agg_kind);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_deserial);
Datum
counting_bloom_union_deserial(PG_FUNCTION_ARGS)
{
	return bloom_setop_deserialize(fcinfo, &counting_union_agg_kind);
}
