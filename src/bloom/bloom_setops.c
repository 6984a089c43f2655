/*-------------------------------------------------------------------------
 *
 * bloom_setops.c
 *	  The operations on whole bloom filters: union, intersection, equality,
 *	  ordering and hashing (the btree and hash operator classes), and
 *	  folding.  Apart from bloom_type.c because they take or return whole
 *	  filters and never hash an element; they use its full-filter check.
 *
 * Union and intersection accept filters whose sizes are multiples of each
 * other (the smaller is unfolded, see src/core/bloom_algebra.c) and
 * otherwise raise an error whose detail names the mismatch.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_setops.h"
#include "bloom_type.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_version.h"

#include "common/hashfn.h"
#include "miscadmin.h"

/* ---- union and intersection ---------------------------------------------- */

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
uint32
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

/* Do a and b differ in size only (every other parameter combines)? */
bool
bloom_differ_in_size_only(const BloomFilter *a, const BloomFilter *b)
{
	BloomFilter hb;
	char		detail[256];

	memcpy(&hb, b, offsetof(BloomFilter, words));
	hb.nbits = a->nbits;
	return a->family[0] != '\0' && b->family[0] != '\0' &&
		bloom_check_compatible(a, &hb, detail, sizeof(detail));
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
				 (a->scheme == BLOOM_SCHEME_PARQUET) != (b->scheme == BLOOM_SCHEME_PARQUET) ?
				 errhint("A Parquet filter combines only with Parquet filters of the same element type: build the other with bloom_parquet_agg or bloom_parquet_empty.") :
				 a->scheme != b->scheme ?
				 bloom_scheme_mismatch_hint(&bloom_plain_ops, a->scheme, b->scheme) :
				 bloom_differ_in_size_only(a, b) ?
				 errhint("Filters combine when one size is a multiple of the other: build both with bloom_agg(x) (automatic sizes are powers of two) or with the same (capacity, fpr).") :
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
	BloomFilter *r = bloom_combine(PG_GETARG_BLOOM_P(0), PG_GETARG_BLOOM_P(1), false);

	bloom_check_full(r, fcinfo);
	PG_RETURN_BLOOM_P(r);
}

/* ---- equality, ordering and hashing ------------------------------------ */

/*
 * The comparison operators and btree support read their arguments through
 * bloom_datum_compare: headers first, then the bits, nothing kept, since
 * sorts and hash builds call them in contexts reset only at their end.
 */
#define BLOOM_CMP_ARGS() \
	bloom_datum_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1), BLOOM_KIND_PLAIN)

/* bloom_cmp(bloom, bloom) -> integer: btree support function 1 */
PG_FUNCTION_INFO_V1(bloom_cmp);
Datum
bloom_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(BLOOM_CMP_ARGS());
}

PG_FUNCTION_INFO_V1(bloom_lt);
Datum
bloom_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BLOOM_CMP_ARGS() < 0);
}

PG_FUNCTION_INFO_V1(bloom_le);
Datum
bloom_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BLOOM_CMP_ARGS() <= 0);
}

PG_FUNCTION_INFO_V1(bloom_gt);
Datum
bloom_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BLOOM_CMP_ARGS() > 0);
}

PG_FUNCTION_INFO_V1(bloom_ge);
Datum
bloom_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BLOOM_CMP_ARGS() >= 0);
}

/*
 * Hash of everything bloom_compare compares (hash operator class support):
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
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	uint64		h = bloom_value_hash(f, 0);

	bloom_free_copy(f, PG_GETARG_DATUM(0));	/* a hash build's context lives long */
	PG_RETURN_INT32((int32) h);
}

/* bloom_hash_value_extended(bloom, bigint) -> bigint: hash support function 2 */
PG_FUNCTION_INFO_V1(bloom_hash_value_extended);
Datum
bloom_hash_value_extended(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	uint64		h = bloom_value_hash(f, (uint64) PG_GETARG_INT64(1));

	bloom_free_copy(f, PG_GETARG_DATUM(0));
	PG_RETURN_INT64((int64) h);
}

PG_FUNCTION_INFO_V1(bloom_eq);
Datum
bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BLOOM_CMP_ARGS() == 0);
}

PG_FUNCTION_INFO_V1(bloom_ne);
Datum
bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(BLOOM_CMP_ARGS() != 0);
}

/* ---- folding ------------------------------------------------------------- */

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
	f = bloom_folded(f, (uint64) factor);
	bloom_check_full(f, fcinfo);	/* folding raises the rate; the target stays */
	PG_RETURN_BLOOM_P(f);
}
