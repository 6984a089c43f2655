/*-------------------------------------------------------------------------
 *
 * bloom_pair.c
 *	  Estimates over pairs of bloom filters (union and intersection sizes,
 *	  Jaccard similarity, subset test), plus shrinking a filter to the
 *	  smallest foldable size that keeps a target rate.
 *
 * Two filters of different sizes are compared at a size both fold to
 * exactly (bloom_fold_to_common), as long as their folded union keeps
 * enough bits clear for an estimate to mean something.
 *
 *-------------------------------------------------------------------------
 */
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "bloom_type.h"
#include "bloom_setops.h"

#include <math.h>

#include "miscadmin.h"
#include "utils/builtins.h"

/*
 * The largest share of set bits in the folded union of two filters
 * estimated at a common size: an estimate reads the clear bits, and as
 * they run out one bit more or less moves it without bound (each bit is
 * worth 1 / (k (1 - fill)) items).
 */
#define BLOOM_PAIR_MAX_FILL		0.9

/* Greatest common divisor (Euclid). */
static uint64
bloom_gcd(uint64 x, uint64 y)
{
	while (y != 0)
	{
		uint64		t = x % y;

		x = y;
		y = t;
	}
	return x;
}

/*
 * Sizes that are not multiples of each other (a sized filter and an
 * automatically sized one): both folded to the largest size each folds to
 * exactly (the greatest common divisor of their sizes in blocks or words;
 * folding maps each item onto the bits that size would give it), as long
 * as the folded union leaves enough bits clear; otherwise 22023 saying so.
 */
static void
bloom_fold_to_common(BloomFilter **a, BloomFilter **b)
{
	uint64		unit = bloom_unit_bits(*a);
	uint64		common = bloom_gcd((*a)->nbits / unit, (*b)->nbits / unit) * unit;
	BloomFilter *fa = bloom_folded(*a, (*a)->nbits / common);
	BloomFilter *fb = bloom_folded(*b, (*b)->nbits / common);
	double		fill = common >= BLOOM_MIN_BITS ?
		(double) bloom_popcount(bloom_combine(fa, fb, true)) / (double) common : 1.0;

	if (fill > BLOOM_PAIR_MAX_FILL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot estimate across bloom filters of %llu and %llu bits",
						(unsigned long long) (*a)->nbits, (unsigned long long) (*b)->nbits),
				 errdetail("The largest size both fold to exactly is %llu bits, too small for their items: %.0f %% of its bits would be set.",
						   (unsigned long long) common, 100.0 * fill),
				 errhint("Estimates need sizes that are multiples of each other (every automatically sized filter; filters of the same capacity and rate), or whose common size holds their items: build both with bloom_agg(x) or with the same (capacity, fpr).")));
	*a = fa;
	*b = fb;
}

/*
 * Estimated |A|, |B|, |A ∪ B| and |A ∩ B| (bloom_estimate_pair: across
 * sizes, each part where its bits are independent).  bloom_combine checks
 * the pair and unfolds the smaller filter; a filter nothing was added to
 * combines with any filter as the empty set; sizes that are not multiples
 * of each other are estimated at their common size.
 */
static BloomPairCard
bloom_pair_estimates(FunctionCallInfo fcinfo)
{
	BloomFilter *a = PG_GETARG_BLOOM_P(0);
	BloomFilter *b = PG_GETARG_BLOOM_P(1);
	BloomFilter *u;
	char		detail[256];
	BloomPairCard r;

	if (!bloom_check_compatible(a, b, detail, sizeof(detail)) &&
		bloom_differ_in_size_only(a, b))
		bloom_fold_to_common(&a, &b);
	u = bloom_combine(a, b, true);
	if (bloom_check_compatible(a, b, detail, sizeof(detail)))
		return bloom_estimate_pair(a, b, u);
	/* one side is empty (bloom_combine raised the error otherwise) */
	r.a = a->family[0] == '\0' ? 0.0 : bloom_estimate_distinct(a);
	r.b = b->family[0] == '\0' ? 0.0 : bloom_estimate_distinct(b);
	r.uni = Max(r.a, r.b);
	r.inter = 0.0;
	return r;
}

/* bloom_union_card(bloom, bloom) -> estimated |A ∪ B|. */
PG_FUNCTION_INFO_V1(bloom_union_card);
Datum
bloom_union_card(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(bloom_pair_estimates(fcinfo).uni);
}

/* bloom_intersect_card(bloom, bloom) -> |A| + |B| - |A ∪ B|, at least 0. */
PG_FUNCTION_INFO_V1(bloom_intersect_card);
Datum
bloom_intersect_card(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(bloom_pair_estimates(fcinfo).inter);
}

/* bloom_jaccard(bloom, bloom) -> estimated |A ∩ B| / |A ∪ B|. */
PG_FUNCTION_INFO_V1(bloom_jaccard);
Datum
bloom_jaccard(PG_FUNCTION_ARGS)
{
	BloomPairCard r = bloom_pair_estimates(fcinfo);

	PG_RETURN_FLOAT8(r.uni > 0 ? r.inter / r.uni : 1.0);
}

/*
 * bloom_maybe_subset(a, b) -> false if A is certainly not a subset of B:
 * A ⊆ B implies that every bit of A is set in B once both are folded to
 * the smaller of the two sizes (folding maps each item's bits onto the
 * bits the smaller filter would have for it).
 */
PG_FUNCTION_INFO_V1(bloom_maybe_subset);
Datum
bloom_maybe_subset(PG_FUNCTION_ARGS)
{
	BloomFilter *a = PG_GETARG_BLOOM_P(0);
	BloomFilter *b = PG_GETARG_BLOOM_P(1);
	char		detail[256];
	uint64		nbits = Min(a->nbits, b->nbits);

	if (!bloom_check_compatible(a, b, detail, sizeof(detail)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot compare bloom filters with incompatible parameters"),
				 errdetail("%s", detail)));
	if (a->nbits != nbits)
		a = bloom_folded(a, a->nbits / nbits);
	if (b->nbits != nbits)
		b = bloom_folded(b, b->nbits / nbits);
	for (uint64 i = 0; i < BLOOM_NWORDS(a); i++)
		if (a->words[i] & ~b->words[i])
			PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(true);
}

static int
bloom_cmp_u64(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a,
				y = *(const uint64 *) b;

	return x < y ? -1 : x > y;
}

/*
 * bloom_shrink(bloom, fpr float8) -> the filter folded by the largest
 * factor whose actual false-positive rate stays at or under fpr (the
 * filter itself if none).  Factors are the divisors of the number of
 * blocks (words); the rate grows with the factor, so a binary search over
 * the divisors needs about log2(#divisors) trial folds.
 */
PG_FUNCTION_INFO_V1(bloom_shrink);
Datum
bloom_shrink(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	double		target = PG_GETARG_FLOAT8(1);
	uint64		units = f->nbits / bloom_unit_bits(f);
	uint64	   *divs;
	int			ndivs = 0,
				lo,
				hi;
	BloomFilter *best = f;

	if (!(target > 0.0 && target <= BLOOM_MAX_FPR))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate must be in (0, 0.5]"),
				 errdetail("Got %g.", target)));
	/* divisors > 1 that leave at least BLOOM_MIN_BITS (at most 2 per root) */
	divs = palloc(sizeof(uint64) * 2 * ((size_t) sqrt((double) units) + 2));
	for (uint64 d = 1; d * d <= units; d++)
	{
		if (units % d != 0)
			continue;
		if (d > 1 && f->nbits / d >= BLOOM_MIN_BITS)
			divs[ndivs++] = d;
		if (units / d != d && f->nbits / (units / d) >= BLOOM_MIN_BITS)
			divs[ndivs++] = units / d;
	}
	qsort(divs, ndivs, sizeof(uint64), bloom_cmp_u64);
	lo = 0;
	hi = ndivs - 1;
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		BloomFilter *r;

		CHECK_FOR_INTERRUPTS();
		r = bloom_folded(f, divs[mid]);
		if (bloom_current_fpr(r) <= target)
		{
			best = r;
			lo = mid + 1;
		}
		else
			hi = mid - 1;
	}
	/* the rate asked for is the folded filter's promise from now on */
	if (best != f)
		bloom_set_target_fpr(best, target);
	bloom_check_full(best, fcinfo);
	PG_RETURN_BLOOM_P(best);
}
