/*-------------------------------------------------------------------------
 *
 * bloom.c
 *	  The bloom type: text and binary I/O, constructors, add, contains,
 *	  union, intersection, equality, folding, introspection, and its
 *	  aggregates (bloom_agg in three forms, bloom_union_agg,
 *	  bloom_intersect_agg, with combine/serialize/deserialize functions for
 *	  parallel aggregation; the n-gram and token aggregates of bloom_text.c
 *	  share their state).
 *
 * Functions never modify their input datums: bloom_add works on a copy.
 * Union and intersection accept filters whose sizes are multiples of each
 * other (the smaller is unfolded, see bloom_core.c) and otherwise raise an
 * error whose detail names the mismatch.  Filters are fetched, allocated
 * and validated by bloom_datum.c.
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
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* ---- input and output ---------------------------------------------------- */

/* bloom_in(cstring) -> bloom */
PG_FUNCTION_INFO_V1(bloom_in);
Datum
bloom_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_text(PG_GETARG_CSTRING(0), BLOOM_KIND_PLAIN));
}


/* bloom_out(bloom) -> cstring */
PG_FUNCTION_INFO_V1(bloom_out);
Datum
bloom_out(PG_FUNCTION_ARGS)
{
	BloomFilter *f = bloom_from_datum_any(PG_GETARG_DATUM(0));
	char	   *out = palloc(bloom_text_size(f));

	bloom_text_encode(f, out);
	PG_RETURN_CSTRING(out);
}


/* bloom_recv(internal) -> bloom: every field validated like bloom_in. */
PG_FUNCTION_INFO_V1(bloom_recv);
Datum
bloom_recv(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_recv((StringInfo) PG_GETARG_POINTER(0),
									   BLOOM_KIND_PLAIN, "invalid external bloom filter value"));
}


/* bloom_send(bloom) -> bytea */
PG_FUNCTION_INFO_V1(bloom_send);
Datum
bloom_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bloom_wire_bytea(bloom_from_datum_any(PG_GETARG_DATUM(0))));
}


/*
 * bloom_to_bytea(bloom) -> bytea: the binary (send) form of a valid filter;
 * of a value that is not one (a corrupt stored value), the same layout
 * written from whatever its fields hold, so it can be inspected, mended
 * and read back with bloom_from_bytea (which validates).  Never reads past
 * the value: a value shorter than a header comes back as it is.
 */
PG_FUNCTION_INFO_V1(bloom_to_bytea);
Datum
bloom_to_bytea(PG_FUNCTION_ARGS)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	size_t		size = VARSIZE(f);
	StringInfoData buf;
	uint8		hdr[BLOOM_WIRE_HEADER_SIZE];

	if (bloom_kind_reason(f, size, BLOOM_KIND_PLAIN) == NULL)
		PG_RETURN_BYTEA_P(bloom_wire_bytea(f));
	pq_begintypsend(&buf);
	if (size < BLOOM_HEADER_SIZE)
		appendBinaryStringInfo(&buf, (const char *) f + VARHDRSZ, (int) (size - VARHDRSZ));
	else
	{
		bloom_wire_encode_header(f, hdr);
		appendBinaryStringInfo(&buf, (const char *) hdr, BLOOM_WIRE_HEADER_SIZE);
		appendBinaryStringInfo(&buf, (const char *) f->words, (int) (size - BLOOM_HEADER_SIZE));
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/*
 * bloom_from_bytea(bytea) -> bloom: a filter from its binary (send) form,
 * validated exactly like bloom_recv; the inverse is the bloom_send cast.
 */
PG_FUNCTION_INFO_V1(bloom_from_bytea);
Datum
bloom_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_BLOOM_P(bloom_parse_wire((const uint8 *) VARDATA_ANY(b),
									   VARSIZE_ANY_EXHDR(b), CurrentMemoryContext,
									   BLOOM_KIND_PLAIN,
									   "invalid external bloom filter value"));
}

/* ---- functions ------------------------------------------------------------ */




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

/*
 * The size of a filter of layout (classic, blocked, or counting: classic
 * sizing with a 4-bit counter per bit; nbits is then the storage size) for
 * capacity items at rate fpr, checked before anything is allocated: invalid
 * arguments and rates the layout cannot reach are 22023 (with the smallest
 * reachable rate), sizes beyond the limit 54000.  pow2 rounds the size up
 * to a power of two (the automatic sizing of bloom_agg(x)).
 */
BloomSizing
bloom_sizing_checked(int64 capacity, double fpr, int layout, bool pow2)
{
	bool		counting = layout == BLOOM_LAYOUT_COUNTING;
	uint64		scale = counting ? 4 : 1;
	BloomSizing s;

	bloom_check_sizing(capacity, fpr);
	s = bloom_size_for(capacity, fpr, layout, pow2);	/* counting: nbits = counters */
	if (s.unreachable != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate %g cannot be reached for %lld items", fpr,
						(long long) capacity),
				 errdetail("The smallest rate a %s filter reaches for %lld items is %g (%s).",
						   bloom_layout_name(layout), (long long) capacity, s.min_fpr,
						   s.unreachable),
				 errhint("Ask for a rate of at least %g, or split the data into several filters.",
						 s.min_fpr)));
	if (s.nbits == 0 || s.nbits > BLOOM_MAX_BITS / scale)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s would need %.0f bytes, more than the limit of %llu bytes",
						counting ? "counting bloom filter" : "bloom filter",
						(s.nbits == 0 ? s.needed_bits : (double) s.nbits) * scale / 8,
						(unsigned long long) (BLOOM_MAX_BITS / 8)),
				 errhint("Lower the capacity or raise the false-positive rate, or split the data into several filters (for example one per partition).")));
	s.layout = layout;
	s.nbits *= scale;
	return s;
}

/*
 * The header of an empty filter for capacity items at rate fpr, in the
 * layout bloomset chooses for that rate (see bloom_sizing_checked).
 */
void
bloom_sized_header(BloomFilter *hdr, int64 capacity, double fpr, bool pow2)
{
	BloomSizing s = bloom_sizing_checked(capacity, fpr, bloom_choose_layout(fpr), pow2);

	bloom_init_header(hdr, s.layout, s.nhashes, s.nbits, 0);
	bloom_set_target_fpr(hdr, fpr);
	if (pow2)
		hdr->flags |= BLOOM_FLAG_AUTOSIZED;
}

/* A zeroed filter with the header hdr, in the current context. */
static BloomFilter *
bloom_from_header(const BloomFilter *hdr)
{
	return bloom_alloc_like(CurrentMemoryContext, hdr, hdr->nbits);
}

/* An empty filter for capacity items at rate fpr (see bloom_sized_header). */
static BloomFilter *
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
static BloomFilter *
bloom_new_explicit(int32 size_bytes, int32 nhashes, int64 seed)
{
	BloomFilter hdr;

	bloom_explicit_header(&hdr, size_bytes, nhashes, seed);
	return bloom_from_header(&hdr);
}

/* bloom_empty(capacity bigint, fpr float8) -> bloom */
PG_FUNCTION_INFO_V1(bloom_empty);
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_new_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), false));
}

/* bloom_empty(size_bytes int, hashes int, seed bigint) -> bloom */
PG_FUNCTION_INFO_V1(bloom_empty_explicit);
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
PG_FUNCTION_INFO_V1(bloom_add);
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	BloomFilter *f;
	BloomTypeInfo *ti;
	Datum		value;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	f = PG_GETARG_BLOOM_P(0);
	if (PG_ARGISNULL(1))
		PG_RETURN_BLOOM_P(f);
	if ((Pointer) f == DatumGetPointer(PG_GETARG_DATUM(0)))
		f = bloom_copy(f);		/* never modify the input datum */
	ti = bloom_call_value(fcinfo, 1, f->family, &f->collfp, &value);
	bloom_insert_hash(f, bloom_hash_datum(ti, value, f->seed));
	bloom_add_items(f, 1);
	bloom_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

/* bloom_contains(bloom, anycompatible) -> boolean */
PG_FUNCTION_INFO_V1(bloom_contains);
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti;
	Datum		value;
	BloomFilter *f = bloom_call_probe(fcinfo, BLOOM_KIND_PLAIN, &ti, &value);
	uint64		h;

	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);	/* nothing was ever added */
	h = bloom_hash_datum(ti, value, f->seed);
	f = bloom_call_parts(fcinfo, f, &h, 1);	/* a stored filter: its part for h */
	PG_RETURN_BOOL(bloom_test_hash(f, h));
}

/*
 * f's header with its target rate made explicit: an automatically sized
 * filter that recorded none (1.0, or bloom_agg(x)) has the automatic rate,
 * so that a union keeps the stricter of its inputs' targets.
 */
static BloomFilter
bloom_with_target(const BloomFilter *f)
{
	BloomFilter h;

	memcpy(&h, f, BLOOM_HEADER_SIZE);
	if ((h.flags & BLOOM_FLAG_TARGET_MASK) == 0 && (h.flags & BLOOM_FLAG_AUTOSIZED))
		bloom_set_target_fpr(&h, BLOOM_AUTO_FPR);
	return h;
}

/* The flags of the union or intersection of a and b (targets made explicit). */
static uint32
bloom_result_flags(const BloomFilter *a, const BloomFilter *b)
{
	BloomFilter ha = bloom_with_target(a);
	BloomFilter hb = bloom_with_target(b);
	uint32		flags = bloom_combined_flags(&ha, &hb);

	/* both automatic: the target stays implicit, as bloom_agg(x) writes it */
	if ((flags & BLOOM_FLAG_AUTOSIZED) &&
		(a->flags & BLOOM_FLAG_TARGET_MASK) == 0 && (b->flags & BLOOM_FLAG_TARGET_MASK) == 0)
		flags &= ~BLOOM_FLAG_TARGET_MASK;
	return flags;
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
		BloomFilter *t = bloom_alloc_like(CurrentMemoryContext, big, big->nbits);

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
	r->flags = bloom_result_flags(a, b) | (r->flags & BLOOM_FLAG_FOLDED);
	return r;
}

/* bloom_union(bloom, bloom) -> bloom */
PG_FUNCTION_INFO_V1(bloom_union);
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	BloomFilter *r = bloom_combine(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1), true);

	bloom_check_full(r, fcinfo);
	PG_RETURN_BLOOM_P(r);
}

/* bloom_intersect(bloom, bloom) -> bloom */
PG_FUNCTION_INFO_V1(bloom_intersect);
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_combine(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1), false));
}

/*
 * Total order on filters, consistent with equality: same parameters and
 * same bits are equal (the item counter and flags are ignored); otherwise
 * the first differing of version, layout, scheme, hashes, seed, size,
 * collation, element family, then the bits as bytes.  For the btree
 * operator class (sorting, count(DISTINCT f)); the order means nothing
 * beyond that.
 */
static int
bloom_compare(const BloomFilter *a, const BloomFilter *b)
{
	const uint64 chunk = 1024 * 1024;
	int			c;

#define BLOOM_CMP_FIELD(x) \
	if (a->x != b->x) \
		return a->x < b->x ? -1 : 1
	BLOOM_CMP_FIELD(version);
	BLOOM_CMP_FIELD(layout);
	BLOOM_CMP_FIELD(scheme);
	BLOOM_CMP_FIELD(nhashes);
	BLOOM_CMP_FIELD(seed);
	BLOOM_CMP_FIELD(nbits);
	BLOOM_CMP_FIELD(collfp);
#undef BLOOM_CMP_FIELD
	if ((c = memcmp(a->family, b->family, BLOOM_FAMILY_LEN)) != 0)
		return c < 0 ? -1 : 1;
	for (uint64 off = 0; off < BLOOM_DATA_BYTES(a); off += chunk)
	{
		CHECK_FOR_INTERRUPTS();
		c = memcmp((const char *) a->words + off, (const char *) b->words + off,
				   Min(chunk, BLOOM_DATA_BYTES(a) - off));
		if (c != 0)
			return c < 0 ? -1 : 1;
	}
	return 0;
}

/* Same parameters and same bits (the item counter and flags are ignored). */
static bool
bloom_equal(const BloomFilter *a, const BloomFilter *b)
{
	return bloom_compare(a, b) == 0;
}

/* bloom_cmp(bloom, bloom) -> integer: btree support function 1 */
PG_FUNCTION_INFO_V1(bloom_cmp);
Datum
bloom_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(bloom_compare(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)));
}

PG_FUNCTION_INFO_V1(bloom_lt);
Datum
bloom_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)) < 0);
}

PG_FUNCTION_INFO_V1(bloom_le);
Datum
bloom_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)) <= 0);
}

PG_FUNCTION_INFO_V1(bloom_gt);
Datum
bloom_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)) > 0);
}

PG_FUNCTION_INFO_V1(bloom_ge);
Datum
bloom_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_compare(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)) >= 0);
}

/*
 * Hash of everything bloom_equal compares (hash operator class support):
 * the parameters, the element family and collation, and the bits, which
 * are hashed in chunks so a cancel is seen within a 256 MiB filter.
 */
static uint64
bloom_value_hash(const BloomFilter *f, uint64 seed)
{
	const uint64 chunk = 1024 * 1024;
	uint64		h = hash_bytes_extended((const unsigned char *) f->family,
										BLOOM_FAMILY_LEN, seed);

	h = hash_combine64(h, ((uint64) f->version << 24) | ((uint64) f->layout << 16) |
					   ((uint64) f->scheme << 8) | f->nhashes);
	h = hash_combine64(h, f->seed);
	h = hash_combine64(h, f->nbits);
	h = hash_combine64(h, f->collfp);
	for (uint64 off = 0; off < BLOOM_DATA_BYTES(f); off += chunk)
	{
		CHECK_FOR_INTERRUPTS();
		h = hash_combine64(h, hash_bytes_extended((const unsigned char *) f->words + off,
												  (int) Min(chunk, BLOOM_DATA_BYTES(f) - off),
												  seed));
	}
	return h;
}

/* bloom_hash_value(bloom) -> integer: hash support function 1 */
PG_FUNCTION_INFO_V1(bloom_hash_value);
Datum
bloom_hash_value(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) bloom_value_hash(PG_GETARG_BLOOM_P(0), 0));
}

/* bloom_hash_value_extended(bloom, bigint) -> bigint: hash support function 2 */
PG_FUNCTION_INFO_V1(bloom_hash_value_extended);
Datum
bloom_hash_value_extended(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) bloom_value_hash(PG_GETARG_BLOOM_P(0),
											 (uint64) PG_GETARG_INT64(1)));
}

PG_FUNCTION_INFO_V1(bloom_eq);
Datum
bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_equal(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)));
}

PG_FUNCTION_INFO_V1(bloom_ne);
Datum
bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!bloom_equal(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1)));
}

/* bloom_estimate_card(bloom) -> float8: distinct items, from the fill. */
PG_FUNCTION_INFO_V1(bloom_estimate_card);
Datum
bloom_estimate_card(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);

	PG_RETURN_FLOAT8(bloom_estimate_items(f, bloom_popcount(f)));
}

/*
 * Build a composite result from values and nulls (NULL: none is null).  The
 * arrays may be longer than the declared row type: bloom_info as declared
 * by the 1.0 script, before ALTER EXTENSION UPDATE, has fewer columns, and
 * gets the first ones.
 */
static Datum
bloom_make_record(FunctionCallInfo fcinfo, Datum *values, bool *nulls)
{
	TupleDesc	tupdesc;
	bool		none[16] = {false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	Assert(tupdesc->natts <= 16);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls ? nulls : none));
}

/* bloom_info(bloom) -> record describing the filter. */
PG_FUNCTION_INFO_V1(bloom_info);
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	uint64		set = bloom_popcount(f);
	double		target = bloom_target_fpr(f);
	Datum		v[14];
	bool		nulls[14] = {false};

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
	v[12] = Float8GetDatum(target);
	nulls[12] = target == 0.0;
	v[13] = f->collfp ? CStringGetTextDatum(bloom_collation_name(f->collfp)) : (Datum) 0;
	nulls[13] = f->collfp == 0;
	PG_RETURN_DATUM(bloom_make_record(fcinfo, v, nulls));
}

/*
 * The full-filter check (bloomset.full_filter).  A filter whose estimated
 * rate exceeds twice the rate it was sized for (bloom_target_fpr; filters
 * with explicit parameters have none) answers "maybe" far more often than
 * its builder asked: typically a capacity that was too small, or the union
 * of filters each sized for a part of the data.  The message names the
 * function or aggregate of fcinfo (looked up only when it is raised).
 * warning: one WARNING per statement (the first such filter: a GROUP BY of
 * many full groups does not flood the client; the check then costs
 * nothing), error: 22023.  Statements are told apart by bloom_statement_id
 * (bloomset.c: bumped as each top-level statement starts executing), not by
 * their start time, which the statements of one query string share.
 */
static uint64 bloom_warned_statement = 0;

/* Is the check on, and has this statement not warned yet? */
bool
bloom_full_check_wanted(void)
{
	return bloom_full_filter_action != BLOOM_FULL_OFF &&
		!(bloom_full_filter_action == BLOOM_FULL_WARNING &&
		  bloom_warned_statement == bloom_statement_id);
}

/*
 * Report a full filter of kind what_kind ("bloom filter", ...) returned by
 * the call fcinfo: estimated rate, its target, a detail sentence.
 */
void
bloom_full_report(FunctionCallInfo fcinfo, const char *what_kind, double rate,
				  double target, const char *detail)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	char	   *what = get_func_name(aggref ? aggref->aggfnoid : fcinfo->flinfo->fn_oid);

	if (bloom_full_filter_action == BLOOM_FULL_WARNING)
		bloom_warned_statement = bloom_statement_id;
	ereport(bloom_full_filter_action == BLOOM_FULL_ERROR ? ERROR : WARNING,
			(errcode(bloom_full_filter_action == BLOOM_FULL_ERROR ?
					 ERRCODE_INVALID_PARAMETER_VALUE : ERRCODE_WARNING),
			 errmsg("%s: the %s is over capacity: estimated false-positive rate %.3g, more than twice its target %.3g",
					what, what_kind, rate, target),
			 errdetail("%s", detail),
			 errhint("Size it for more items (bloom_agg(x, capacity, fpr)); filters that will be unioned need the union's capacity each. bloomset.full_filter = off silences this%s.",
					 bloom_full_filter_action == BLOOM_FULL_WARNING ?
					 " (reported once per statement)" : "")));
}

/* The full-filter check of a bloom filter f (counting_bloom.c and scalable_bloom.c check theirs). */
void
bloom_check_full(const BloomFilter *f, FunctionCallInfo fcinfo)
{
	double		target,
				rate;

	if (f->family[0] == '\0' || !bloom_full_check_wanted())
		return;
	target = bloom_target_fpr(f);
	if (target == 0.0)
		return;

	/*
	 * An O(1) bound first, so a bloom_add per row does not read the filter
	 * each time: the items added (nitems) bound the distinct values of a
	 * filter of values (not of n-grams or tokens, several per item) that no
	 * union or fold has resized (an unfolded filter's bits are repeated),
	 * and its model rate at that count bounds the expected rate.
	 */
	if (!(f->flags & BLOOM_FLAG_FOLDED) && bloom_family_ngram_n(f->family) == 0 &&
		!bloom_family_is_token(f->family) &&
		bloom_model_fpr(f, (double) f->nitems) <= 2.0 * target)
		return;

	/*
	 * Then one fast pass (the vector popcount): the model rate for the items
	 * the fill suggests; the exact estimate (per block for the blocked
	 * layout, several times slower) only when that is above the target.
	 */
	if (bloom_model_fpr(f, bloom_estimate_items(f, bloom_popcount(f))) <= target ||
		(rate = bloom_current_fpr(f)) <= 2.0 * target)
		return;
	bloom_full_report(fcinfo, "bloom filter", rate, target,
					  psprintf("The filter has %llu bits and about %.0f distinct items; it was sized for a rate of %.3g.",
							   (unsigned long long) f->nbits,
							   bloom_estimate_items(f, bloom_popcount(f)), target));
}

/*
 * bloom_params(capacity bigint, fpr float8 [, layout text]) -> record: the
 * sizing bloom_empty/bloom_agg would choose (layout NULL = automatic).
 */
PG_FUNCTION_INFO_V1(bloom_params);
Datum
bloom_params(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	int			layout;
	BloomSizing s;
	Datum		v[6];

	layout = bloom_choose_layout(fpr);
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(2));

		layout = bloom_layout_from_name(name);
		if (layout != BLOOM_LAYOUT_CLASSIC && layout != BLOOM_LAYOUT_BLOCKED &&
			layout != BLOOM_LAYOUT_COUNTING)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("bloom_params cannot size layout \"%s\"", name),
					 errdetail("It sizes the layouts \"blocked\", \"classic\" and \"counting\"."),
					 errhint("A scalable filter grows by itself: use scalable_bloom_info() to see its sub-filters.")));
	}
	s = bloom_sizing_checked(capacity, fpr, layout, false);
	v[0] = CStringGetTextDatum(bloom_layout_name(s.layout));
	v[1] = Int64GetDatum((int64) s.nbits);
	v[2] = Int64GetDatum((int64) BLOOM_TOTAL_SIZE(s.nbits));
	v[3] = Int32GetDatum(s.nhashes);
	v[4] = Float8GetDatum(s.expected_fpr);
	v[5] = Float8GetDatum((double) s.nbits / (double) capacity);
	PG_RETURN_DATUM(bloom_make_record(fcinfo, v, NULL));
}

/* f folded by factor (which divides its units), as a new filter. */
BloomFilter *
bloom_folded(const BloomFilter *f, uint64 factor)
{
	BloomFilter *r = bloom_alloc_like(CurrentMemoryContext, f, f->nbits / factor);

	if (factor > 1)
		r->flags |= BLOOM_FLAG_FOLDED;
	bloom_resize_into(f, r);
	return r;
}

/*
 * bloom_fold(bloom, factor int) -> bloom: the filter at 1/factor of its size
 * (OR of runs of factor blocks or bits).  Never a false negative; the rate
 * rises, bloom_info shows by how much.
 */
PG_FUNCTION_INFO_V1(bloom_fold);
Datum
bloom_fold(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	int32		factor = PG_GETARG_INT32(1);
	uint64		unit = bloom_unit_bits(f);
	uint64		units = f->nbits / unit;

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
	PG_RETURN_BLOOM_P(bloom_folded(f, (uint64) factor));
}

/*
 * bloom_hash(anycompatible, seed bigint) -> bigint: the 64-bit element hash
 * a filter with that seed uses for the value (for external tools, tests).
 */
PG_FUNCTION_INFO_V1(bloom_hash);
Datum
bloom_hash(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti = bloom_call_typeinfo(fcinfo, 0);

	PG_RETURN_INT64((int64) bloom_hash_datum(ti, PG_GETARG_DATUM(0),
											 (uint64) PG_GETARG_INT64(1)));
}

/* ---- aggregates ----------------------------------------------------------- */





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
	bool		ti_valid;
	BloomTypeInfo ti;
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
	BLOOM_KIND_PLAIN, BLOOM_STATE_MSG, bloom_intersect_step, NULL, NULL, NULL, NULL
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
