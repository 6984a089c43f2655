/*-------------------------------------------------------------------------
 *
 * bloom_estimate.c
 *	  Estimates: distinct items from the fill (also of unfolded filters),
 *	  pair cardinalities, the present and model rates, the target rate.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_estimate.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_estimate.h"
#include "bloom_algebra.h"
#include "bloom_kernels.h"
#include "bloom_positions.h"
#include "bloom_sizing.h"
#include "bloom_internal.h"

/*
 * Estimated number of distinct items from the fill (Swamidass & Baldi):
 * n = -(m/k) ln(1 - X/m).  The blocked layout sets one bit per 32-bit word
 * of 8 words, which gives the same expected fill as k = 8 uniform probes.
 * A full filter (X = m) is treated as X = m - 1/2 to stay finite.
 */
double
bloom_estimate_items(const BloomFilter *f, uint64_t bits_set)
{
	double		m = (double) f->nbits;
	double		x = (double) bits_set;

	if (x >= m)
		x = m - 0.5;
	return -(m / f->nhashes) * log1p(-x / m);
}

/*
 * -(m/k) ln(1 - x/nfree): the items whose k probes each land uniformly in m
 * bits, estimated from nfree of those bits that nothing else set, x of them
 * set.  All of them set is taken as nfree - 1/2 set (bloom_estimate_items'
 * rule); no free bits tell nothing (0).
 */
static double
bloom_estimate_in_free(double m, int k, double nfree, double x)
{
	if (nfree <= 0.0)
		return 0.0;
	if (x >= nfree)
		x = nfree - 0.5;
	return -(m / k) * log1p(-x / nfree);
}

/*
 * Cardinalities of a, b, their union and their intersection; a and b have
 * sizes that are multiples of each other and u is their union (the smaller
 * unfolded onto the larger's size, bloom_resize_into, and OR-ed into it).
 *
 * Let S be the smaller filter and L the larger, f = |L| / |S| bits.
 * Unfolded, each bit of S is f bits of u, all set or all clear.  Every other
 * bit of u (a free bit) was set by an item of L that is not in S: an item of
 * both has its bits of L inside S's unfolded bits, since positions fold
 * exactly.  Those items probe all of L's bits uniformly, so the free bits
 * fill as any of L's bits would, and
 *   |S| comes from S's own fill, at its own size, where its bits are
 *   independent; |L \ S| from the fill of the free bits; |A ∪ B| = |S| +
 *   |L \ S| and |A ∩ B| = |A| + |B| - |A ∪ B| (= |L| - |L \ S|: the two
 *   estimates read the same bits, so their errors largely cancel).
 * The fill of u itself would count each of S's bits f times, and folding L
 * onto S's size saturates whenever L holds far more items than S was sized
 * for.  At equal sizes (f = 1) this is the plain estimate from the fill of
 * the OR, exactly: -(m/k) ln(1 - Xu/m) = |S| + |L \ S| algebraically.
 * An input that was itself resized (BLOOM_FLAG_FOLDED: a union across
 * sizes, a fold) may already repeat bits, so its free bits are not
 * independent: then every part is estimated by bloom_estimate_distinct,
 * the union from u (flagged too).
 */
BloomPairCard
bloom_estimate_pair(const BloomFilter *a, const BloomFilter *b, const BloomFilter *u)
{
	const BloomFilter *big = a->nbits >= b->nbits ? a : b;
	const BloomFilter *small = big == a ? b : a;
	double		ns,
				nl;
	BloomPairCard r;

	if ((a->flags | b->flags) & BLOOM_FLAG_FOLDED)
	{
		ns = bloom_estimate_distinct(small);
		nl = bloom_estimate_distinct(big);
		r.uni = bloom_estimate_distinct(u);
	}
	else
	{
		uint64_t	xs = bloom_popcount(small);
		double		taken = (double) (big->nbits / small->nbits) * (double) xs;	/* S's bits in u */

		ns = bloom_estimate_items(small, xs);
		nl = bloom_estimate_items(big, bloom_popcount(big));
		r.uni = ns + bloom_estimate_in_free((double) big->nbits, big->nhashes,
											(double) big->nbits - taken,
											(double) bloom_popcount(u) - taken);
	}
	r.a = big == a ? nl : ns;
	r.b = big == a ? ns : nl;
	/* the union is at least as large as either side */
	if (r.uni < nl)
		r.uni = nl;
	if (r.uni < ns)
		r.uni = ns;
	r.inter = r.a + r.b - r.uni;
	if (r.inter < 0.0)
		r.inter = 0.0;
	return r;
}

/* Are bits [lo, hi) all set? */
static bool
bloom_all_bits(const BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);
		uint64_t	m = bloom_range_mask(a, b);

		if ((bloom_load_word(f, w) & m) != m)
			return false;
		lo = w * 64 + b;
	}
	return true;
}

/*
 * Full runs of x for an unfolding factor f: the bits of x's fold by f that
 * would be set in all f of their copies (the popcount of the AND-fold).
 * A run is f adjacent bits (classic) or one bit position in f adjacent
 * blocks (blocked), as bloom_resize_into unfolds.
 */
static uint64_t
bloom_full_runs(const BloomFilter *x, uint64_t f)
{
	uint64_t	c = 0;

	if (x->layout == BLOOM_LAYOUT_BLOCKED)
	{
		size_t		nruns = (size_t) (x->nbits / BLOOM_BLOCK_BITS / f);

		for (size_t lo = 0, hi; lo < nruns; lo = hi)
		{
			hi = bloom_chunk_end(lo, nruns, BLOOM_POLL_BYTES / 32 / f);
			for (size_t r = lo; r < hi; r++)
			{
				const uint64_t *w = x->words + r * f * 4;
				uint64_t	and[4] = {w[0], w[1], w[2], w[3]};

				for (uint64_t j = 1; j < f; j++)
					for (int i = 0; i < 4; i++)
						and[i] &= w[j * 4 + i];
				c += bloom_popcount_portable(and, 4);
			}
		}
	}
	else if (f <= 64 && (f & (f - 1)) == 0)
	{
		/* runs inside words: AND each bit with the f - 1 above it */
		uint64_t	first = 0;

		for (unsigned j = 0; j < 64; j += (unsigned) f)
			first |= UINT64_C(1) << j;
		for (size_t lo = 0, hi; lo < BLOOM_NWORDS(x); lo = hi)
		{
			hi = bloom_chunk_end(lo, BLOOM_NWORDS(x), BLOOM_POLL_WORDS);
			for (size_t w = lo; w < hi; w++)
			{
				uint64_t	v = bloom_load_word(x, w);

				for (uint64_t sh = 1; sh < f; sh <<= 1)
					v &= v >> sh;
				v &= first;
				c += bloom_popcount_portable(&v, 1);
			}
		}
	}
	else
	{
		size_t		nruns = (size_t) (x->nbits / f);

		for (size_t lo = 0, hi; lo < nruns; lo = hi)
		{
			hi = bloom_chunk_end(lo, nruns, BLOOM_POLL_BYTES * 8 / f);
			for (size_t r = lo; r < hi; r++)
				c += bloom_all_bits(x, r * f, (r + 1) * f);
		}
	}
	return c;
}

/*
 * Fit a filter of m bits (xset set) as a filter S of m / f bits unfolded by
 * f and OR-ed with a filter L of m bits (a union across sizes; L may be
 * empty), given its full runs (bloom_full_runs).  A run is full where S's
 * bit is set, or by chance where L set all f of its bits; every other run
 * holds only L's bits, each set with probability p, so their mean fill is
 * (p - p^f) / (1 - p^f), solved for p.  S's fill is then q = (full/runs -
 * p^f) / (1 - p^f).  Both are kept below 1 by half a bit, as
 * bloom_estimate_items keeps a full filter finite.
 */
static void
bloom_unfold_fit(double m, uint64_t f, double xset, double full, double *p, double *q)
{
	double		runs = m / (double) f,
				df = (double) f,
				lo = 0.0,
				hi = 1.0,
				mean,
				pf;

	if (full >= runs)
	{
		*p = 0.0;
		*q = 1.0 - 0.5 / runs;
		return;
	}
	mean = (xset - df * full) / (df * (runs - full));
	if (mean >= (df - 1.0) / df)
		lo = hi;
	for (int i = 0; i < 60 && lo < hi; i++)
	{
		double		mid = (lo + hi) / 2,
					midf = pow(mid, df);

		if ((mid - midf) / (1.0 - midf) < mean)
			lo = mid;
		else
			hi = mid;
	}
	*p = fmin(lo, 1.0 - 0.5 / m);
	pf = pow(*p, df);
	*q = (full / runs - pf) / (1.0 - pf);
	*q = *q < 0.0 ? 0.0 : fmin(*q, 1.0 - 0.5 / runs);
}

/* -(m/k) ln(1 - x/m), a full filter counted as m - 1/2 bits set. */
static double
bloom_fill_estimate(double m, int k, double x)
{
	return bloom_estimate_in_free(m, k, m, x);
}

/*
 * The factors a filter x may have been unfolded by, with their full runs:
 * fac[0] = 1 (full[0]: x's set bits), then ascending the factors whose full
 * runs stood out (bloom_estimate_distinct).  The AND-fold of x by f,
 * G_f, has full[f] bits set, and G_f's own full runs for a factor g are
 * x's for f * g, so a union of several sizes is read level by level
 * without materializing any fold.
 */
typedef struct BloomUnfoldLevels
{
	const BloomFilter *x;
	int			n;
	uint64_t	fac[BLOOM_UNFOLD_MAX_TRIES + 1];
	double		full[BLOOM_UNFOLD_MAX_TRIES + 1];
	double		memo[BLOOM_UNFOLD_MAX_TRIES + 1];	/* < 0: not yet */
} BloomUnfoldLevels;

/* Do full runs of a g-fold stand out from what a fill of fill gives by chance? */
static bool
bloom_runs_stand_out(double runs, double fill, uint64_t g, double full)
{
	double		chance = pow(fill, (double) g),
				expect = runs * chance;

	/*
	 * Ten binomial standard deviations: a blocked filter's bits within one
	 * block share its load, so the true spread is a few times wider.
	 */
	return full > expect + 10.0 * sqrt(expect * (1.0 - chance)) + 4.0;
}

/*
 * Estimated items of G_f, f = lv->fac[i]: its plain estimate, or, for each
 * larger factor f g that stands out at this level, the items of G_{f g}
 * (recursively; scaled by the chance correction of bloom_unfold_fit) plus
 * those of the rest (L) -- whichever is smallest: at a divisor of the true
 * factor the repeated filter's items are counted several times over, at a
 * multiple its bits are counted as L's.
 */
static double
bloom_estimate_level(BloomUnfoldLevels *lv, int i)
{
	double		m = (double) lv->x->nbits / (double) lv->fac[i],
				xf = lv->full[i];
	int			k = lv->x->nhashes;
	double		best;

	if (lv->memo[i] >= 0.0)
		return lv->memo[i];
	best = bloom_fill_estimate(m, k, xf);
	for (int j = i + 1; j < lv->n; j++)
	{
		uint64_t	g = lv->fac[j] / lv->fac[i];
		double		runs = m / (double) g,
					p,
					q,
					s_plain,
					s_items,
					n;

		if (lv->fac[j] % lv->fac[i] != 0 ||
			!bloom_runs_stand_out(runs, xf / m, g, lv->full[j]))
			continue;
		bloom_unfold_fit(m, g, xf, lv->full[j], &p, &q);
		s_plain = bloom_fill_estimate(runs, k, lv->full[j]);
		s_items = bloom_estimate_level(lv, j);
		if (s_plain > 0.0)
			s_items *= -(runs / k) * log1p(-q) / s_plain;
		n = s_items - (m / k) * log1p(-p);
		if (n < best)
			best = n;
	}
	lv->memo[i] = best;
	return best;
}

/* The divisors of n that are >= 2 and <= most, ascending; their number. */
static int
bloom_divisors(uint64_t n, uint64_t most, uint64_t *out, int max_out)
{
	int			nlow = 0,
				nout = 0;
	uint64_t	low[BLOOM_UNFOLD_MAX_DIVISORS],
				high[BLOOM_UNFOLD_MAX_DIVISORS];
	int			nhigh = 0;

	if (n >= 2)
		high[nhigh++] = n;
	for (uint64_t i = 2; i * i <= n && nlow < BLOOM_UNFOLD_MAX_DIVISORS; i++)
		if (n % i == 0)
		{
			low[nlow++] = i;
			if (i * i != n && nhigh < BLOOM_UNFOLD_MAX_DIVISORS)
				high[nhigh++] = n / i;
		}
	for (int i = 0; i < nlow && nout < max_out; i++)
		if (low[i] <= most)
			out[nout++] = low[i];
	for (int i = nhigh - 1; i >= 0 && nout < max_out; i--)
		if (high[i] <= most)
			out[nout++] = high[i];
	return nout;
}

/* Is d among the first n (ascending) divisors and marked in mark? */
static bool
bloom_divisor_marked(const uint64_t *div, const bool *mark, int n, uint64_t d)
{
	for (int i = 0; i < n && div[i] <= d; i++)
		if (div[i] == d)
			return mark[i];
	return false;
}

/*
 * Could f be x's unfolding factor, given which smaller factors were (mark)?
 * A filter unfolded by f is also unfolded by every divisor of f, so f is
 * tried only if f / p was found for each prime p dividing f (or is 1):
 * a filter of independent bits is tried at its size's prime factors only.
 */
static bool
bloom_factor_worth_trying(const uint64_t *div, const bool *mark, int n, uint64_t f)
{
	uint64_t	rest = f;

	for (uint64_t p = 2; p * p <= rest; p++)
		if (rest % p == 0)
		{
			if (f / p > 1 && !bloom_divisor_marked(div, mark, n, f / p))
				return false;
			while (rest % p == 0)
				rest /= p;
		}
	return rest == 1 || f / rest == 1 || bloom_divisor_marked(div, mark, n, f / rest);
}

/*
 * Estimated distinct items of a filter, at the size its bits are
 * independent at.  A filter that no union across sizes or fold has touched
 * (no BLOOM_FLAG_FOLDED) is estimated from its fill (bloom_estimate_items).
 * One that has may hold smaller filters unfolded (their bits repeated f
 * times) OR-ed with one of its own size, and its fill counts each repeated
 * bit f times (an empty filter of 1,000 unioned with one of 10 items: 437).
 * The format records no factor, so it is found from the bits: for each
 * factor f dividing the size, the runs full in all f copies
 * (bloom_full_runs) against what x's fill gives by chance; the factors
 * that stand out are read by bloom_estimate_level.
 */
double
bloom_estimate_distinct(const BloomFilter *x)
{
	uint64_t	xset = bloom_popcount(x);
	uint64_t	div[BLOOM_UNFOLD_MAX_DIVISORS];
	bool		mark[BLOOM_UNFOLD_MAX_DIVISORS] = {false};
	BloomUnfoldLevels lv;
	int			ndiv;

	if (!(x->flags & BLOOM_FLAG_FOLDED) || xset == 0 || xset == x->nbits)
		return bloom_estimate_items(x, xset);
	lv.x = x;
	lv.n = 1;
	lv.fac[0] = 1;
	lv.full[0] = (double) xset;
	ndiv = bloom_divisors(x->nbits / bloom_unit_bits(x),
						  x->nbits / BLOOM_MIN_BITS, div, BLOOM_UNFOLD_MAX_DIVISORS);
	for (int i = 0, tries = 0; i < ndiv && tries < BLOOM_UNFOLD_MAX_TRIES; i++)
	{
		double		full;

		if (!bloom_factor_worth_trying(div, mark, i, div[i]))
			continue;
		tries++;
		full = (double) bloom_full_runs(x, div[i]);
		mark[i] = bloom_runs_stand_out((double) x->nbits / (double) div[i],
									   (double) xset / (double) x->nbits, div[i], full);
		if (mark[i])
		{
			lv.fac[lv.n] = div[i];
			lv.full[lv.n++] = full;
		}
	}
	for (int i = 0; i < lv.n; i++)
		lv.memo[i] = -1.0;
	return bloom_estimate_level(&lv, 0);
}

/* Popcount of one 32-bit word, portable. */
static int
bloom_pop32(uint32_t x)
{
	return (int) bloom_popcount_portable(&(uint64_t) {x}, 1);
}

/*
 * The filter's present false-positive rate for a random non-member, from its
 * actual bits: (X/m)^k for classic; for blocked, the mean over blocks of the
 * product of the eight words' fill ratios (exact for the blocked probe).
 */
double
bloom_current_fpr(const BloomFilter *f)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		size_t		nblocks = (size_t) (f->nbits / BLOOM_BLOCK_BITS);
		const uint8_t *bytes = (const uint8_t *) f->words;
		double		sum = 0.0;

		for (size_t lo = 0, hi; lo < nblocks; lo = hi)
		{
			hi = bloom_chunk_end(lo, nblocks, BLOOM_POLL_BYTES / 32);
			for (size_t b = lo; b < hi; b++)
			{
				double		p = 1.0;

				for (int i = 0; i < BLOOM_BLOCK_WORDS32 && p > 0.0; i++)
					p *= bloom_pop32(bloom_le32(bytes + b * 32 + i * 4)) / 32.0;
				sum += p;
			}
		}
		return sum / (double) nblocks;
	}
	return pow((double) bloom_popcount(f) / (double) f->nbits, f->nhashes);
}

/* ---- the target rate (flags bits 16..31) ------------------------------- */

/*
 * The model rate of f after n distinct items, by its layout's formula
 * (classic or blocked; 1 beyond 256 items per 256-bit block, where the
 * blocked sum would be long and the answer is 1 anyway).
 */
double
bloom_model_fpr(const BloomFilter *f, double n)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		double		lambda = n / (double) (f->nbits / BLOOM_BLOCK_BITS);

		return lambda > 256.0 ? 1.0 : bloom_blocked_fpr(lambda);
	}
	return bloom_classic_fpr(n, (double) f->nbits, f->nhashes);
}

/* Record fpr (in (0, 0.5]) as the rate f was sized for. */
void
bloom_set_target_fpr(BloomFilter *f, double fpr)
{
	double		code = nearbyint(-log2(fpr) * 256.0);

	if (code < BLOOM_TARGET_CODE_MIN)
		code = BLOOM_TARGET_CODE_MIN;
	if (code > 65535.0)
		code = 65535.0;
	f->flags = (f->flags & ~BLOOM_FLAG_TARGET_MASK) |
		((uint32_t) code << BLOOM_FLAG_TARGET_SHIFT);
}

/*
 * The rate f was sized for: the recorded one, else the automatic rate for an
 * automatically sized filter (1.0 wrote no target), else 0 (none: explicit
 * parameters).  Rounded to three significant digits, which recovers any
 * rate given with three digits from its 0.3 % code.
 */
double
bloom_target_fpr(const BloomFilter *f)
{
	uint32_t	code = f->flags >> BLOOM_FLAG_TARGET_SHIFT;
	double		r,
				scale;

	if (code == 0)
		return (f->flags & BLOOM_FLAG_AUTOSIZED) ? BLOOM_AUTO_FPR : 0.0;
	r = exp2(-(double) code / 256.0);
	scale = pow(10.0, 2.0 - floor(log10(r)));
	return nearbyint(r * scale) / scale;
}

/*
 * The flags of the union or intersection of a and b: a flag bit holds if it
 * holds for both, FOLDED if for either; the target is the stricter of the
 * recorded ones (a filter without one does not loosen the other's).
 */
uint32_t
bloom_combined_flags(const BloomFilter *a, const BloomFilter *b)
{
	uint32_t	low = ~BLOOM_FLAG_TARGET_MASK;
	uint32_t	flags = (a->flags & b->flags & low) |
		((a->flags | b->flags) & BLOOM_FLAG_FOLDED);
	uint32_t	ta = a->flags & BLOOM_FLAG_TARGET_MASK;
	uint32_t	tb = b->flags & BLOOM_FLAG_TARGET_MASK;

	/* a larger code is a smaller (stricter) rate */
	return flags | (ta > tb ? ta : tb);
}
