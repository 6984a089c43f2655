/*-------------------------------------------------------------------------
 *
 * bloom_sizing.c
 *	  Sizing: the layout, bits and hashes for a capacity and a rate, the
 *	  model false-positive rates, the smallest rate a layout reaches.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_sizing.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_sizing.h"
#include "bloom_internal.h"

/* Return NULL if (capacity, fpr) is acceptable, else a reason. */
const char *
bloom_check_sizing_args(int64_t capacity, double fpr)
{
	if (capacity <= 0)
		return "capacity must be a positive number of items";
	if (capacity > BLOOM_MAX_CAPACITY)
		return "capacity must be at most 2^40 items";
	if (!(fpr > 0.0 && fpr <= BLOOM_MAX_FPR))
		return "false-positive rate must be in (0, 0.5]";
	return NULL;
}

/*
 * False-positive rate of a blocked filter holding lambda items per block on
 * average: items land in blocks as a Poisson process, and a block holding j
 * items answers "maybe" for a non-member with probability (1-(31/32)^j)^8.
 */
double
bloom_blocked_fpr(double lambda)
{
	double		sum = 0.0;
	double		pois = exp(-lambda);	/* Pois(0; lambda) */
	int			jmax = (int) (lambda + 12.0 * sqrt(lambda) + 40.0);
	int			jmin = (int) (lambda - 12.0 * sqrt(lambda) - 40.0);

	/*
	 * Large loads: start where the Poisson mass starts (exp(-lambda) would
	 * underflow to 0 beyond lambda ~ 745); from lgamma, in log space.
	 */
	if (jmin > 0)
		pois = exp(-lambda + jmin * log(lambda) - lgamma(jmin + 1.0));
	else
		jmin = 0;
	for (int j = jmin; j <= jmax; j++)
	{
		double		miss = 1.0 - pow(31.0 / 32.0, j);

		sum += pois * pow(miss, 8);
		pois *= lambda / (j + 1);
	}
	return sum;
}

/* False-positive rate of a classic filter: (1 - e^(-kn/m))^k. */
double
bloom_classic_fpr(double n, double m, int k)
{
	return pow(1.0 - exp(-(double) k * n / m), k);
}

/* Bits a classic filter with k hashes needs for n items at fpr (inverse). */
static double
bloom_classic_bits_for_k(double n, double fpr, int k)
{
	return -(double) k * n / log1p(-pow(fpr, 1.0 / k));
}

/* Most bits a filter of the layout may have (counting: counters). */
static uint64_t
bloom_layout_max_bits(int layout)
{
	return bloom_layout_is_counting(layout) ? BLOOM_MAX_BITS / 4 : BLOOM_MAX_BITS;
}

/*
 * Is layout sized as the blocked one (8 hashes in 256-slot blocks: the
 * blocked bloom layout over bits, the blocked counting layout over
 * counters, whose non-zero counters are exactly that filter's bits)?
 */
static bool
bloom_layout_sized_blocked(int layout)
{
	return layout == BLOOM_LAYOUT_BLOCKED || layout == BLOOM_LAYOUT_COUNTING_BLOCKED;
}

/*
 * The smallest false-positive rate a filter of the layout reaches for
 * capacity items within the size limit: the largest filter with the best
 * number of hashes the layout allows (blocked: 8; classic: 1 ..
 * BLOOM_MAX_HASHES; counting: classic over BLOOM_MAX_BITS / 4 counters;
 * blocked counting: blocked over BLOOM_MAX_BITS / 4 counters).
 */
double
bloom_min_reachable_fpr(int64_t capacity, int layout)
{
	double		n = (double) (capacity < 1 ? 1 : capacity);
	double		m = (double) bloom_layout_max_bits(layout);
	double		best = 1.0;

	if (bloom_layout_sized_blocked(layout))
		return bloom_blocked_fpr(n / (m / BLOOM_BLOCK_BITS));
	for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
	{
		double		p = bloom_classic_fpr(n, m, k);

		if (p < best)
			best = p;
	}
	return best;
}

/* The layout bloomset picks for a target rate (see BLOOM_BLOCKED_MIN_FPR). */
int
bloom_choose_layout(double fpr)
{
	return fpr >= BLOOM_BLOCKED_MIN_FPR ? BLOOM_LAYOUT_BLOCKED
		: BLOOM_LAYOUT_CLASSIC;
}

/*
 * The layout a new counting filter gets for a target rate, as
 * bloom_choose_layout for bits: blocked down to BLOOM_BLOCKED_MIN_FPR, where
 * it costs at most about 20 % more counters than the classic positions;
 * below, the classic positions (layout 2), whose space grows more slowly.
 * Layout 2 too where the blocked layout cannot reach fpr for capacity items
 * within the size limit but the classic one can, so every filter bloomset
 * 1.3 could build can still be built.  (The PostgreSQL layer asks only
 * while the installed version builds blocked counting filters.)
 */
int
bloom_choose_counting_layout(int64_t capacity, double fpr)
{
	if (fpr < BLOOM_BLOCKED_MIN_FPR ||
		bloom_min_reachable_fpr(capacity, BLOOM_LAYOUT_COUNTING_BLOCKED) > fpr)
		return BLOOM_LAYOUT_COUNTING;
	return BLOOM_LAYOUT_COUNTING_BLOCKED;
}

/* Round up to a power of two (v >= 1, v <= 2^62). */
static uint64_t
bloom_pow2_ceil(uint64_t v)
{
	uint64_t	p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/*
 * Largest items-per-block load that keeps a blocked filter at or under fpr,
 * by bisection of the model (about 60 evaluations); the last few answers are
 * remembered, since callers (aggregates per group) ask for the same rates.
 */
static double
bloom_blocked_max_load(double fpr)
{
	static double cache_fpr[4] = {-1, -1, -1, -1};
	static double cache_load[4];
	static int	cache_next = 0;
	double		lo = 0.0,
				hi = 256.0;

	for (int i = 0; i < 4; i++)
		if (cache_fpr[i] == fpr)
			return cache_load[i];
	for (int i = 0; i < 60; i++)
	{
		double		mid = (lo + hi) / 2;

		if (bloom_blocked_fpr(mid) <= fpr)
			lo = mid;
		else
			hi = mid;
	}
	cache_fpr[cache_next] = fpr;
	cache_load[cache_next] = lo;
	cache_next = (cache_next + 1) % 4;
	return lo;
}

/*
 * Sizing for capacity items at rate fpr (arguments checked by
 * bloom_check_sizing_args) in the given layout: BLOOM_LAYOUT_BLOCKED,
 * BLOOM_LAYOUT_CLASSIC, BLOOM_LAYOUT_COUNTING (classic sizing over nbits
 * counters, at most BLOOM_MAX_BITS / 4; the filter has 4 * nbits bits), or
 * BLOOM_LAYOUT_COUNTING_BLOCKED (blocked sizing over nbits counters, the
 * same limit).  See BloomSizing for the three outcomes.  With pow2, the size is
 * rounded up to a power of two so that filters of different sizes can be
 * folded together.
 */
BloomSizing
bloom_size_for(int64_t capacity, double fpr, int layout, bool pow2)
{
	BloomSizing s;
	double		n = (double) capacity;
	double		max_bits = (double) bloom_layout_max_bits(layout);
	/* the ideal filter (any real k), in whole words */
	double		ideal = ceil(-n * log(fpr) / (M_LN2 * M_LN2) / 64.0) * 64.0;
	double		bits;

	memset(&s, 0, sizeof(s));
	s.layout = layout;
	if (bloom_layout_sized_blocked(layout))
	{
		double		load = bloom_blocked_max_load(fpr);

		/* below the bisection's resolution: the model's linear start */
		if (load <= 0.0)
			load = fpr / pow(1.0 / 32.0, BLOOM_BLOCKED_HASHES);
		bits = ceil(n / load) * BLOOM_BLOCK_BITS;
		s.nhashes = BLOOM_BLOCKED_HASHES;
	}
	else
	{
		bits = ideal;
		s.nhashes = (int) lround(bits / n * M_LN2);
		if (s.nhashes < 1)
			s.nhashes = 1;
		if (s.nhashes > BLOOM_MAX_HASHES)
		{
			/* more hashes would be best: with the most allowed, more bits */
			s.nhashes = BLOOM_MAX_HASHES;
			bits = ceil(bloom_classic_bits_for_k(n, fpr, BLOOM_MAX_HASHES) / 64.0) * 64.0;
		}
	}
	if (bits < BLOOM_MIN_BITS)
		bits = BLOOM_MIN_BITS;
	s.needed_bits = bits;
	if (bits > max_bits)
	{
		s.nbits = 0;
		s.expected_fpr = 1.0;
		if (ideal <= max_bits)
		{
			s.unreachable = bloom_layout_sized_blocked(layout)
				? "the blocked layout, with its 8 hashes, cannot reach this rate for this capacity within the size limit"
				: "with at most " BLOOM_STR(BLOOM_MAX_HASHES) " hashes, no filter within the size limit reaches this rate for this capacity";
			s.min_fpr = bloom_min_reachable_fpr(capacity, layout);
		}
		return s;
	}
	s.nbits = (uint64_t) bits;
	if (pow2)
		s.nbits = bloom_pow2_ceil(s.nbits);
	if (s.nbits > (uint64_t) max_bits)
		s.nbits = 0;
	else if (bloom_layout_sized_blocked(layout))
		s.expected_fpr = bloom_blocked_fpr(n / ((double) s.nbits / BLOOM_BLOCK_BITS));
	else
		s.expected_fpr = bloom_classic_fpr(n, (double) s.nbits, s.nhashes);
	return s;
}
