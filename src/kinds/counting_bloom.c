/*-------------------------------------------------------------------------
 *
 * counting_bloom.c
 *	  The counting_bloom type: a filter of 4-bit counters that supports
 *	  removal (4 bits a counter, the classic choice: few counters reach
 *	  15, and those saturate, see below).
 *
 * It shares the stored format of bloom (nbits counts storage bits, so a
 * filter has nbits / 4 counters) and the hashing scheme, in one of two
 * layouts (bloom_counting.c): "counting" (layout 2), the k counters of a key
 * anywhere in the array, which maps exactly onto the classic bloom filter
 * of nbits / 4 bits; and "blockcounting" (layout 4), 8 counters in one
 * block of 256, which maps exactly onto the blocked bloom filter of nbits /
 * 4 bits (counting_bloom_to_bloom).  The blocked layout costs one block's
 * cache lines an add instead of k cache misses; new filters get it when the
 * installed version is 1.4 or later and the rate is one the blocked layout
 * serves (bloom_choose_counting_layout), so a database on 1.3 keeps building
 * what 1.3 built.  Filters of the two layouts never combine (an error that
 * says to rebuild the older one); each is read, probed, removed from and
 * cast as its layout says, forever.  Counters saturate at 15 and a saturated
 * counter is never decremented, so removing an item never causes a false
 * negative for another item that is still present.  Removing a value whose
 * counters are not all non-zero (it was certainly never added) is an error
 * and changes nothing; removing a value that was never added but happens
 * to collide with present items (a false positive) cannot be detected and
 * may cause false negatives later: remove only what you added.
 *
 * This file is the type: its I/O, the SQL functions (add, remove,
 * contains, union, the cast to bloom, info), the full-filter check, the
 * kind's operations and aggregate hooks (its BloomKindOps), and the batch
 * calls; the counters themselves are bloom_counting.c's.  The SQL
 * aggregates counting_bloom_agg and counting_bloom_union_agg, thin wrappers
 * of the aggregate engine over the hooks here, are counting_agg.c.
 *
 *-------------------------------------------------------------------------
 */
#include "counting_bloom.h"
#include "../probe/bloom_batch.h"
#include "../probe/bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_convert.h"
#include "../datum/bloom_version.h"
#include "../bloom/bloom_type.h"

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

/*
 * counting_bloom_from_bytea(bytea): a filter from its binary (send) form,
 * validated exactly as counting_bloom_recv; the reverse of the send cast.
 */
PG_FUNCTION_INFO_V1(counting_bloom_from_bytea);
Datum
counting_bloom_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_BLOOM_P(bloom_parse_wire((const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
									   CurrentMemoryContext, BLOOM_KIND_COUNTING,
									   "invalid external counting bloom filter value"));
}

/*
 * counting_bloom_eq(a, b): the same parameters and the same counters (the
 * item counter is not compared), as bloom's = compares bits: equal values
 * answer every probe and every removal alike.
 */
PG_FUNCTION_INFO_V1(counting_bloom_eq);
Datum
counting_bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_datum_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1),
									   BLOOM_KIND_COUNTING) == 0);
}

PG_FUNCTION_INFO_V1(counting_bloom_ne);
Datum
counting_bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_datum_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1),
									   BLOOM_KIND_COUNTING) != 0);
}

/*
 * An empty counting filter: the sizing of its layout's bloom filter, one
 * 4-bit counter per bit.
 */
BloomFilter *
counting_new(int64 capacity, double fpr)
{
	int			layout = bloom_counting_layout_for(capacity, fpr);
	BloomSizing s = bloom_sizing_checked(capacity, fpr, layout, false);
	BloomFilter *f = bloom_alloc(layout, s.nhashes, s.nbits, 0);

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
 * The model rate of counting filter c after n distinct items: its layout's
 * bloom filter's (classic over the counters, or blocked over blocks of 256
 * counters; 1 beyond 256 items a block, as bloom_model_fpr).
 */
static double
counting_model_fpr(const BloomFilter *c, double n)
{
	double		m = (double) (c->nbits / 4);

	if (c->layout == BLOOM_LAYOUT_COUNTING_BLOCKED)
	{
		double		lambda = n / (m / BLOOM_COUNTING_BLOCK_COUNTERS);

		return lambda > 256.0 ? 1.0 : bloom_blocked_fpr(lambda);
	}
	return pow(-expm1(-(double) c->nhashes * n / m), c->nhashes);
}

/*
 * The bloom filter of the non-zero counters of c: classic for layout 2,
 * blocked for the blocked counting layout (counter j is bit j, and a key's
 * counters are where that layout puts its bits: bloom_counting.c).
 */
static BloomFilter *
counting_classic(const BloomFilter *c)
{
	BloomFilter *f = c->layout == BLOOM_LAYOUT_COUNTING_BLOCKED
		? bloom_alloc(BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES, c->nbits / 4, c->seed)
		: bloom_alloc(BLOOM_LAYOUT_CLASSIC, c->nhashes, c->nbits / 4, c->seed);

	memcpy(f->family, c->family, BLOOM_FAMILY_LEN);
	f->scheme = c->scheme;		/* same positions over the counters' bits */
	f->collfp = c->collfp;
	f->nitems = c->nitems;
	/* the same positions at the same size: the same promise */
	f->flags = c->flags & BLOOM_FLAG_TARGET_MASK;
	bloom_counting_to_bits(c, f);
	return f;
}

/*
 * The rate counting filter c answers with now, from its non-zero counters:
 * (non-zero / counters)^k for layout 2; for the blocked layout, the exact
 * rate of its bloom filter (the product of each block's group fills,
 * averaged over the blocks: bloom_current_fpr).
 */
static double
counting_fill_fpr(const BloomFilter *c, uint64 nonzero)
{
	BloomFilter *b;
	double		rate;

	if (c->layout != BLOOM_LAYOUT_COUNTING_BLOCKED)
		return pow((double) nonzero / (double) (c->nbits / 4), c->nhashes);
	b = counting_classic(c);
	rate = bloom_current_fpr(b);
	pfree(b);
	return rate;
}

/*
 * The full-filter check of a counting filter (bloomset.full_filter, see
 * bloom_check_full): O(1) first -- the model rate at the items added
 * (with repeats: an upper bound on the distinct ones) -- then the rate of
 * the non-zero counters, as counting_bloom_info reports it.  The target is
 * the rate the filter was created for.
 */
void
counting_check_full(const BloomFilter *c, FunctionCallInfo fcinfo)
{
	double		target = bloom_target_fpr(c);
	double		rate;

	if (c->family[0] == '\0' || target == 0.0 || !bloom_full_check_wanted() ||
		counting_model_fpr(c, (double) c->nitems) <= BLOOM_FULL_FACTOR * target)
		return;
	rate = counting_fill_fpr(c, counting_nonzero(c, NULL));
	if (rate > BLOOM_FULL_FACTOR * target)
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
	BloomTypeInfo *ti = bloom_call_value(fcinfo, 1, f->family, &f->collfp, f->scheme, &value);

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
												&f->collfp, f->scheme, false, &ti);
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
void
counting_merge_checked(BloomFilter *dst, const BloomFilter *src)
{
	char		detail[256] = "";
	BloomFilter same_size;

	if (src->family[0] == '\0')
		return;					/* nothing was ever added to src */
	if (dst->family[0] == '\0')
		dst->scheme = src->scheme;	/* nothing was hashed into dst either */
	/* every parameter but the size (counting filters never fold): below */
	memcpy(&same_size, src, BLOOM_HEADER_SIZE);
	same_size.nbits = dst->nbits;
	if (!bloom_check_compatible(dst, &same_size, detail, sizeof(detail)) ||
		dst->nbits != src->nbits)
	{
		if (dst->nbits != src->nbits && detail[0] == '\0')
			snprintf(detail, sizeof(detail), "The sizes differ (%llu and %llu counters).",
					 (unsigned long long) dst->nbits / 4, (unsigned long long) src->nbits / 4);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot union counting bloom filters with incompatible parameters"),
				 errdetail("%s", detail),
				 dst->layout != src->layout ?
				 errhint("Counting filters of the layouts \"counting\" (built before bloomset 1.4, or for rates below %g) and \"blockcounting\" never union: rebuild one of them from its values with counting_bloom_agg(x, capacity, fpr) and the other one's capacity and rate.",
						 BLOOM_BLOCKED_MIN_FPR) :
				 dst->scheme != src->scheme ?
				 bloom_scheme_mismatch_hint(&counting_bloom_ops, dst->scheme, src->scheme) :
				 dst->nbits == src->nbits && dst->nhashes == src->nhashes ? 0 :
				 errhint("Counting filters union only at the same size and hashes: build those that will be unioned with the same (capacity, fpr), as counting_bloom_agg(x, capacity, fpr) does (automatic sizing picks both for each filter's own count).")));
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

/*
 * counting_bloom_to_bloom: the bloom filter of the non-zero counters
 * (classic or blocked, as the layout maps), with the counting filter's target (so it is checked as any bloom is).
 */
PG_FUNCTION_INFO_V1(counting_bloom_to_bloom);
Datum
counting_bloom_to_bloom(PG_FUNCTION_ARGS)
{
	BloomFilter *f = counting_classic(COUNTING_ARG(0));

	bloom_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

/*
 * counting_bloom_estimate_card: estimated distinct items, the estimate of
 * the bloom filter of the non-zero counters, -(m/k)·ln(1 - X/m).
 */
PG_FUNCTION_INFO_V1(counting_bloom_estimate_card);
Datum
counting_bloom_estimate_card(PG_FUNCTION_ARGS)
{
	BloomFilter *f = counting_classic(COUNTING_ARG(0));
	uint64		set = bloom_popcount(f);
	double		card = bloom_estimate_items(f, set);

	bloom_warn_saturated(f, set, card);
	PG_RETURN_FLOAT8(card);
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
	v[5] = Float8GetDatum(counting_fill_fpr(c, nonzero));
	v[6] = CStringGetTextDatum(c->family);
	v[7] = Int64GetDatum((int64) VARSIZE(c));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), v, nulls)));
}

/* ---- counting_bloom_agg: the kind's hooks of the aggregate engine ------- */

/*
 * counting_bloom_agg(x, capacity, fpr) fills a counting filter;
 * counting_bloom_agg(x) keeps the exact set of the values' hashes with
 * their multiplicities (bloom_agg.c), at most COUNTING_AUTO_MAX distinct
 * ones, and the final function sizes the filter for them at 1 %: beyond
 * that the sized form is the way.
 */
#define COUNTING_AUTO_MAX	(1 << 22)

/* Raise the counters of n hashes in the counting filter *f. */
static void
counting_agg_insert(void **f, const uint64 *h, int n, MemoryContext cxt)
{
	for (int i = 0; i < n; i++)
		bloom_counting_add((BloomFilter *) *f, h[i]);
}

/*
 * The filter of an automatic state's ndistinct hashes: sized for them at
 * 1 % (final); past COUNTING_AUTO_MAX, an error.
 */
static void *
counting_agg_from_exact(const void *hdr, uint64 ndistinct, MemoryContext cxt, bool final)
{
	const BloomFilter *h = (const BloomFilter *) hdr;
	BloomFilter *f;

	if (!final)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("counting_bloom_agg(x) sizes automatically for at most %d distinct values",
						COUNTING_AUTO_MAX),
				 errdetail("It keeps every distinct value's hash, and how often it came, until the end."),
				 errhint("Give the capacity and rate: counting_bloom_agg(x, capacity, 0.01).")));
	f = counting_new(Max((int64) ndistinct, 1), BLOOM_AUTO_FPR);
	f->scheme = h->scheme;		/* the exact phase hashed with it */
	memcpy(f->family, h->family, BLOOM_FAMILY_LEN);
	f->collfp = h->collfp;
	return f;
}

/* Add the counters of src into *dst (counting_merge_checked). */
static void
counting_agg_merge(void **dst, const void *src, MemoryContext cxt)
{
	counting_merge_checked((BloomFilter *) *dst, (const BloomFilter *) src);
}

/* The smallest empty counting filter: the aggregate of no rows. */
static void *
counting_agg_empty(void)
{
	return bloom_alloc(BLOOM_LAYOUT_COUNTING, 1, 4 * BLOOM_MIN_BITS, 0);
}

/* ---- the kind's operations (bloom_kind.h) ---------------------------------- */

static bool
counting_layout_ok(const BloomFilter *f)
{
	return bloom_layout_is_counting(f->layout);
}

static void
counting_prefetch(const void *f, uint64 h, bool write)
{
	bloom_counting_prefetch((const BloomFilter *) f, h);
}

static bool
counting_test(const void *f, uint64 h)
{
	return bloom_counting_test((const BloomFilter *) f, h);
}

static void *
counting_add(void *f, const uint64 *h, int n, int nkeys)
{
	for (int i = 0; i < n; i++)
		bloom_counting_add((BloomFilter *) f, h[i]);
	bloom_add_items((BloomFilter *) f, nkeys);
	return f;
}

static void
counting_check_full_op(const void *f, FunctionCallInfo fcinfo)
{
	counting_check_full((const BloomFilter *) f, fcinfo);
}

/*
 * Estimated distinct items and current rate: the estimate
 * counting_bloom_estimate_card gives, and the layout's model rate at that
 * many items (counting_model_fpr; for layout 2 that is (non-zero /
 * counters)^k, as counting_bloom_info reports it, since the estimate
 * inverts the fill).
 */
static void
counting_stats(const void *f, double *items, double *fpr)
{
	const BloomFilter *bf = (const BloomFilter *) f;

	*items = DatumGetFloat8(DirectFunctionCall1(counting_bloom_estimate_card,
												PointerGetDatum(bf)));
	*fpr = counting_model_fpr(bf, *items);
}

/* Positions one hash probes (bloom_probe_positions): k counters, or 1 block. */
static int
counting_probe_width(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_COUNTING_BLOCKED ? 1 : f->nhashes;
}

/*
 * The bytes testing position pos loads: the word of its counter, or the
 * whole block of 256 counters.
 */
static void
counting_probe_span(const BloomFilter *f, uint64 pos, Size *off, Size *len)
{
	if (f->layout == BLOOM_LAYOUT_COUNTING_BLOCKED)
	{
		*off = (Size) pos * BLOOM_COUNTING_BLOCK_BYTES;
		*len = BLOOM_COUNTING_BLOCK_BYTES;
		return;
	}
	*off = (Size) (pos / 16) * 8;	/* 16 counters a word */
	*len = 8;
}

const BloomKindOps counting_bloom_ops = {
	.kind = BLOOM_KIND_COUNTING,
	.type_name = "counting_bloom",
	.scheme_hint = "Rebuild the older filter from its values (new filters use scheme %d), or build the new one with counting_bloom_with_scheme(counting_bloom_empty(...), %d); counting_bloom_scheme() shows a filter's scheme.",
	.scheme_hint_since = 102,
	.corrupt_msg = "invalid bloom filter value",
	.header_size = BLOOM_HEADER_SIZE,
	.has_subfilters = false,
	.layout_ok = counting_layout_ok,
	.reason = bloom_header_reason,
	.upgrade = NULL,
	.fields = bloom_header_fields,
	.prefetch = counting_prefetch,
	.test = counting_test,
	.add = counting_add,
	.check_full = counting_check_full_op,
	.stats = counting_stats,
	.probe_width = counting_probe_width,
	.probe_span = counting_probe_span,
	.state_msg = "invalid serialized counting bloom aggregate state",
	.empty = counting_agg_empty,
	.agg_name = "counting_bloom_agg",
	.agg_tag = 'c',
	.exact_max = COUNTING_AUTO_MAX,
	.counted = true,
	.items_are_rows = true,
	.check_exact_hdr = bloom_check_exact_hdr,
	.insert = counting_agg_insert,
	.from_exact = counting_agg_from_exact,
	.merge = counting_agg_merge,
};

/* ---- batch calls (bloom_batch.h) ------------------------------------------ */

/*
 * counting_bloom_add_all(counting_bloom, anycompatiblearray) ->
 * counting_bloom: a copy with every non-null element added.
 */
PG_FUNCTION_INFO_V1(counting_bloom_add_all);
Datum
counting_bloom_add_all(PG_FUNCTION_ARGS)
{
	return bloom_batch_add(fcinfo, BLOOM_KIND_COUNTING);
}

/*
 * counting_bloom_contains_any(counting_bloom, anycompatiblearray) ->
 * boolean: may any element be in?
 */
PG_FUNCTION_INFO_V1(counting_bloom_contains_any);
Datum
counting_bloom_contains_any(PG_FUNCTION_ARGS)
{
	return bloom_batch_any(fcinfo, BLOOM_KIND_COUNTING);
}

/*
 * counting_bloom_contains_all(counting_bloom, anycompatiblearray) ->
 * boolean: may every element be in?
 */
PG_FUNCTION_INFO_V1(counting_bloom_contains_all);
Datum
counting_bloom_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_batch_all(fcinfo, BLOOM_KIND_COUNTING);
}

/*
 * counting_bloom_contains_each(counting_bloom, anycompatiblearray) ->
 * boolean[]: per element.
 */
PG_FUNCTION_INFO_V1(counting_bloom_contains_each);
Datum
counting_bloom_contains_each(PG_FUNCTION_ARGS)
{
	return bloom_batch_each(fcinfo, BLOOM_KIND_COUNTING);
}
