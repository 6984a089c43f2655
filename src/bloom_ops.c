/*-------------------------------------------------------------------------
 *
 * bloom_ops.c
 *	  SQL functions on bloom values: constructors, add, contains, union,
 *	  intersection, equality, folding and the introspection functions.
 *
 * Functions never modify their input datums: bloom_add works on a copy.
 * Union and intersection accept filters whose sizes are multiples of each
 * other (the smaller is unfolded, see bloom_core.c) and otherwise raise an
 * error whose detail names the mismatch.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(bloom_empty);
PG_FUNCTION_INFO_V1(bloom_empty_explicit);
PG_FUNCTION_INFO_V1(bloom_add);
PG_FUNCTION_INFO_V1(bloom_contains);
PG_FUNCTION_INFO_V1(bloom_union);
PG_FUNCTION_INFO_V1(bloom_intersect);
PG_FUNCTION_INFO_V1(bloom_eq);
PG_FUNCTION_INFO_V1(bloom_ne);
PG_FUNCTION_INFO_V1(bloom_estimate_card);
PG_FUNCTION_INFO_V1(bloom_info);
PG_FUNCTION_INFO_V1(bloom_params);
PG_FUNCTION_INFO_V1(bloom_fold);
PG_FUNCTION_INFO_V1(bloom_hash);

/* Count n more items added (saturating). */
void
bloom_add_items(BloomFilter *f, uint64 n)
{
	f->nitems = (f->nitems > PG_UINT64_MAX - n) ? PG_UINT64_MAX : f->nitems + n;
}

/* Raise the error for out-of-range (capacity, fpr). */
static void
bloom_check_sizing(int64 capacity, double fpr)
{
	const char *why = bloom_check_sizing_args(capacity, fpr);

	if (why != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid bloom filter sizing: %s", why),
				 errdetail("Got capacity %lld and false-positive rate %g.",
						   (long long) capacity, fpr),
				 errhint("Use a capacity between 1 and 2^40 and a rate in (0, 0.5], such as 0.01.")));
}

/* Raise the error for a filter beyond BLOOM_MAX_BITS (before allocating). */
static void
bloom_too_large_error(double bits)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("bloom filter would need %.0f bytes, more than the limit of %llu bytes",
					bits / 8, (unsigned long long) (BLOOM_MAX_BITS / 8)),
			 errhint("Lower the capacity or raise the false-positive rate, or split the data into several filters (for example one per partition).")));
}

/*
 * The header of an empty filter for capacity items at rate fpr, in the
 * layout bloomset chooses for that rate (checked: an error before anything
 * is allocated); pow2 rounds the size up to a power of two (the automatic
 * sizing of bloom_agg(x), which keeps such filters foldable).
 */
void
bloom_sized_header(BloomFilter *hdr, int64 capacity, double fpr, bool pow2)
{
	BloomSizing s;

	bloom_check_sizing(capacity, fpr);
	s = bloom_size_for(capacity, fpr, bloom_choose_layout(fpr), pow2);
	if (s.nbits == 0)
		bloom_too_large_error(s.needed_bits);
	bloom_init_header(hdr, s.layout, s.nhashes, s.nbits, 0);
	if (pow2)
		hdr->flags |= BLOOM_FLAG_AUTOSIZED;
}

/* A zeroed filter with hdr's parameters, in the current context. */
static BloomFilter *
bloom_from_header(const BloomFilter *hdr)
{
	BloomFilter *f = bloom_alloc(hdr->layout, hdr->nhashes, hdr->nbits, hdr->seed);

	f->flags = hdr->flags;
	return f;
}

/* An empty filter for capacity items at rate fpr (see bloom_sized_header). */
BloomFilter *
bloom_new_sized(int64 capacity, double fpr, bool pow2)
{
	BloomFilter hdr;

	bloom_sized_header(&hdr, capacity, fpr, pow2);
	return bloom_from_header(&hdr);
}

/*
 * The header of an empty classic filter with ClickHouse-style explicit
 * parameters: size in bytes (rounded up to a multiple of 8), number of
 * hashes, seed (checked).
 */
void
bloom_explicit_header(BloomFilter *hdr, int32 size_bytes, int32 nhashes, int64 seed)
{
	if (size_bytes < BLOOM_MIN_BITS / 8 || (uint64) size_bytes > BLOOM_MAX_BITS / 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter size must be between %d and %llu bytes",
						BLOOM_MIN_BITS / 8, (unsigned long long) (BLOOM_MAX_BITS / 8)),
				 errdetail("Got %d bytes.", size_bytes),
				 errhint("Use bloom_params(capacity, fpr) to find a size for your data.")));
	if (nhashes < 1 || nhashes > BLOOM_MAX_HASHES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of bloom filter hashes must be between 1 and %d",
						BLOOM_MAX_HASHES),
				 errdetail("Got %d hashes.", nhashes),
				 errhint("About 0.7 times the bits per item is optimal; 7 suits 10 bits per item.")));
	bloom_init_header(hdr, BLOOM_LAYOUT_CLASSIC, nhashes,
					  (uint64) TYPEALIGN(8, size_bytes) * 8, (uint64) seed);
}

/* An empty filter with explicit parameters (see bloom_explicit_header). */
BloomFilter *
bloom_new_explicit(int32 size_bytes, int32 nhashes, int64 seed)
{
	BloomFilter hdr;

	bloom_explicit_header(&hdr, size_bytes, nhashes, seed);
	return bloom_from_header(&hdr);
}

/* bloom_empty(capacity bigint, fpr float8) -> bloom */
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_new_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), false));
}

/* bloom_empty(size_bytes int, hashes int, seed bigint) -> bloom */
Datum
bloom_empty_explicit(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_new_explicit(PG_GETARG_INT32(0), PG_GETARG_INT32(1),
										 PG_GETARG_INT64(2)));
}

/*
 * bloom_add(bloom, anycompatible) -> bloom.  Not strict in the value: adding
 * NULL returns the filter unchanged (a NULL filter gives NULL).
 */
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	BloomFilter *f;
	BloomTypeInfo *ti;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	f = PG_GETARG_BLOOM_P(0);
	if (PG_ARGISNULL(1))
		PG_RETURN_BLOOM_P(f);
	if ((Pointer) f == DatumGetPointer(PG_GETARG_DATUM(0)))
		f = bloom_copy(f);		/* never modify the input datum */
	ti = bloom_call_typeinfo(fcinfo, 1);
	bloom_check_element(f, ti, true);
	bloom_insert_hash(f, bloom_hash_datum(ti, PG_GETARG_DATUM(1), f->seed));
	bloom_add_items(f, 1);
	PG_RETURN_BLOOM_P(f);
}

/* bloom_contains(bloom, anycompatible) -> boolean */
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	BloomFilter *f;
	BloomTypeInfo *ti;
	uint64		h;

	/*
	 * Fast path, the common case of a WHERE clause: the cached filter (a
	 * constant, or the same stored value again) already checked against
	 * this call site's type and collation, which cannot change.
	 */
	f = bloom_cache_lookup(cache, PG_GETARG_DATUM(0));
	if (likely(f != NULL && f == cache->checked))
		ti = &cache->ti;
	else
	{
		f = bloom_from_datum_cached(fcinfo, PG_GETARG_DATUM(0));
		ti = bloom_call_typeinfo(fcinfo, 1);
		cache = bloom_call_cache(fcinfo);

		/* a cached filter's family is checked once per call site and type */
		if (f != cache->checked)
		{
			bloom_check_element(f, ti, false);
			if (f == cache->filter)
				cache->checked = f;
		}
	}
	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);	/* nothing was ever added */
	h = bloom_hash_datum(ti, PG_GETARG_DATUM(1), f->seed);
	PG_RETURN_BOOL(bloom_test_hash(f, h));
}

/*
 * Union (OR) or intersection (AND) of two filters into a new one.  Raises
 * an error naming the mismatch if they cannot be combined.  The result has
 * the larger size; the smaller input is unfolded to it.
 */
BloomFilter *
bloom_combine(const BloomFilter *a, const BloomFilter *b, bool is_union)
{
	char		detail[256];
	BloomFilter *r;
	const BloomFilter *big = a->nbits >= b->nbits ? a : b;
	const BloomFilter *small = big == a ? b : a;

	if (!bloom_check_compatible(a, b, detail, sizeof(detail)))
	{
		/* a filter nothing was added to is the empty set, whatever its shape */
		if (a->family[0] == '\0' || b->family[0] == '\0')
		{
			const BloomFilter *empty = a->family[0] == '\0' ? a : b;

			return bloom_copy(is_union ? (empty == a ? b : a) : empty);
		}
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot %s bloom filters with incompatible parameters",
						is_union ? "union" : "intersect"),
				 errdetail("%s", detail),
				 errhint("Only filters built with the same layout, hashes, seed and element type can be combined; use bloom_info() to compare them.")));
	}
	r = bloom_copy(big);
	if (small->nbits == big->nbits)
	{
		if (is_union)
			bloom_or_words(r->words, small->words, BLOOM_NWORDS(r));
		else
			bloom_and_words(r->words, small->words, BLOOM_NWORDS(r));
	}
	else
	{
		BloomFilter *t = bloom_alloc(big->layout, big->nhashes, big->nbits, big->seed);

		bloom_resize_into(small, t);
		if (is_union)
			bloom_or_words(r->words, t->words, BLOOM_NWORDS(r));
		else
			bloom_and_words(r->words, t->words, BLOOM_NWORDS(r));
		pfree(t);
		r->flags |= BLOOM_FLAG_FOLDED;
	}
	if (r->family[0] == '\0')
	{
		memcpy(r->family, small->family, BLOOM_FAMILY_LEN);
		r->collfp = small->collfp;
	}
	if (is_union)
		bloom_add_items(r, small->nitems);
	else
		r->nitems = Min(a->nitems, b->nitems);
	r->flags &= (a->flags | BLOOM_FLAG_FOLDED) & (b->flags | BLOOM_FLAG_FOLDED);
	return r;
}

/* bloom_union(bloom, bloom) -> bloom */
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_combine(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1), true));
}

/* bloom_intersect(bloom, bloom) -> bloom */
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_combine(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1), false));
}

/* Same parameters and same bits (the item counter and flags are ignored). */
static bool
bloom_equal(const BloomFilter *a, const BloomFilter *b)
{
	return a->version == b->version && a->layout == b->layout &&
		a->scheme == b->scheme && a->nhashes == b->nhashes &&
		a->seed == b->seed && a->nbits == b->nbits && a->collfp == b->collfp &&
		memcmp(a->family, b->family, BLOOM_FAMILY_LEN) == 0 &&
		memcmp(a->words, b->words, BLOOM_DATA_BYTES(a)) == 0;
}

Datum
bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_equal(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)));
}

Datum
bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!bloom_equal(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)));
}

/* bloom_estimate_card(bloom) -> float8: distinct items, from the fill. */
Datum
bloom_estimate_card(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);

	PG_RETURN_FLOAT8(bloom_estimate_items(f, bloom_popcount(f)));
}

/* Build a composite result from values (none NULL). */
static Datum
bloom_make_record(FunctionCallInfo fcinfo, Datum *values)
{
	TupleDesc	tupdesc;
	bool		nulls[16] = {false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	Assert(tupdesc->natts <= 16);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/* bloom_info(bloom) -> record describing the filter. */
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	uint64		set = bloom_popcount(f);
	Datum		v[12];

	v[0] = CStringGetTextDatum(bloom_layout_name(f->layout));
	v[1] = Int64GetDatum((int64) f->nbits);
	v[2] = Int64GetDatum((int64) VARSIZE(f));
	v[3] = Int32GetDatum(f->nhashes);
	v[4] = Int64GetDatum((int64) f->seed);
	v[5] = Int64GetDatum(f->nitems > PG_INT64_MAX ? PG_INT64_MAX : (int64) f->nitems);
	v[6] = Int64GetDatum((int64) set);
	v[7] = Float8GetDatum((double) set / (double) f->nbits);
	v[8] = Float8GetDatum(bloom_estimate_items(f, set));
	v[9] = Float8GetDatum(bloom_current_fpr(f));
	v[10] = CStringGetTextDatum(f->family);
	v[11] = Int32GetDatum(f->version);
	PG_RETURN_DATUM(bloom_make_record(fcinfo, v));
}

/*
 * bloom_params(capacity bigint, fpr float8 [, layout text]) -> record: the
 * sizing bloom_empty/bloom_agg would choose (layout NULL = automatic).
 */
Datum
bloom_params(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	int			layout;
	BloomSizing s;
	Datum		v[6];

	bloom_check_sizing(capacity, fpr);
	layout = bloom_choose_layout(fpr);
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(2));

		if ((layout = bloom_layout_from_name(name)) < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown bloom filter layout \"%s\"", name),
					 errhint("Use \"blocked\" or \"classic\".")));
	}
	s = bloom_size_for(capacity, fpr, layout, false);
	if (s.nbits == 0)
		bloom_too_large_error(s.needed_bits);
	v[0] = CStringGetTextDatum(bloom_layout_name(s.layout));
	v[1] = Int64GetDatum((int64) s.nbits);
	v[2] = Int64GetDatum((int64) BLOOM_TOTAL_SIZE(s.nbits));
	v[3] = Int32GetDatum(s.nhashes);
	v[4] = Float8GetDatum(s.expected_fpr);
	v[5] = Float8GetDatum((double) s.nbits / (double) capacity);
	PG_RETURN_DATUM(bloom_make_record(fcinfo, v));
}

/*
 * bloom_fold(bloom, factor int) -> bloom: the filter at 1/factor of its size
 * (OR of runs of factor blocks or bits).  Never a false negative; the rate
 * rises, bloom_info shows by how much.
 */
Datum
bloom_fold(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	int32		factor = PG_GETARG_INT32(1);
	uint64		unit = bloom_unit_bits(f);
	uint64		units = f->nbits / unit;
	BloomFilter *r;

	if (factor < 1 || units % (uint64) factor != 0 ||
		f->nbits / (uint64) factor < BLOOM_MIN_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot fold a bloom filter of %llu bits by %d",
						(unsigned long long) f->nbits, factor),
				 errdetail("The factor must divide the filter's %llu %s and leave at least %d bits.",
						   (unsigned long long) units,
						   unit == 64 ? "64-bit words" : "256-bit blocks",
						   BLOOM_MIN_BITS),
				 errhint("Powers of two divide filters built by bloom_agg(x).")));
	r = bloom_alloc(f->layout, f->nhashes, f->nbits / (uint64) factor, f->seed);
	memcpy(((char *) r) + VARHDRSZ, ((char *) f) + VARHDRSZ,
		   BLOOM_HEADER_SIZE - VARHDRSZ);
	r->nbits = f->nbits / (uint64) factor;
	if (factor > 1)
		r->flags |= BLOOM_FLAG_FOLDED;
	bloom_resize_into(f, r);
	PG_RETURN_BLOOM_P(r);
}

/*
 * bloom_hash(anycompatible, seed bigint) -> bigint: the 64-bit element hash
 * a filter with that seed uses for the value (for external tools, tests).
 */
Datum
bloom_hash(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti = bloom_call_typeinfo(fcinfo, 0);

	PG_RETURN_INT64((int64) bloom_hash_datum(ti, PG_GETARG_DATUM(0),
											 (uint64) PG_GETARG_INT64(1)));
}
