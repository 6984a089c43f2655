/*-------------------------------------------------------------------------
 *
 * bloom_core.c
 *	  PostgreSQL-free core of bloomset: sizing, hash-to-bit mapping for the
 *	  classic and the blocked layout, set algebra with folding, estimates,
 *	  header validation and the text/binary codecs.
 *
 * Design.  Every value is reduced to one 64-bit hash (bloom_hash.c); all
 * positions are derived from it here, so a filter never depends on how the
 * value was stored in memory.
 *
 * Blocked layout (split block Bloom filter, as in Parquet): the array is z
 * blocks of 256 bits; the upper 32 bits of the hash choose the block by
 * multiply-shift, ((h >> 32) * z) >> 32, and the lower 32 bits set one bit in
 * each of the block's eight 32-bit words, (h32 * SALT[i]) >> 27.  One cache
 * line per operation.
 *
 * Classic layout: k positions from enhanced double hashing of the hash,
 * each reduced to [0, m) by multiply-shift (the high 64 bits of g * m).
 *
 * Multiply-shift instead of modulo is what makes folding possible: for any
 * factor f dividing the number of blocks (or bits), position p in the large
 * filter maps to p / f in the folded one, so OR-ing each run of f adjacent
 * blocks (bits) gives exactly the filter built directly at the smaller size.
 * Replicating each block f times ("unfolding") gives a valid superset filter
 * at the larger size; union and intersection use it to combine filters whose
 * sizes are multiples of each other.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* called every few million steps of long loops (PostgreSQL: interrupts) */
void		(*bloom_interrupt_hook) (void) = NULL;

#define BLOOM_POLL(i) \
	do { if (((i) & 0xFFFFF) == 0 && bloom_interrupt_hook) bloom_interrupt_hook(); } while (0)


/* ------------------------------------------------------------------------
 * Sizing
 * ------------------------------------------------------------------------
 */

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

	for (int j = 0; j <= jmax; j++)
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

/* The layout bloomset picks for a target rate (see BLOOM_BLOCKED_MIN_FPR). */
int
bloom_choose_layout(double fpr)
{
	return fpr >= BLOOM_BLOCKED_MIN_FPR ? BLOOM_LAYOUT_BLOCKED
		: BLOOM_LAYOUT_CLASSIC;
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
 * Sizing for capacity items at rate fpr.  nbits == 0 in the result means the
 * filter would exceed BLOOM_MAX_BITS.  With pow2, the size is rounded up to a
 * power of two so that filters of different sizes can be folded together.
 */
BloomSizing
bloom_size_for(int64_t capacity, double fpr, int layout, bool pow2)
{
	BloomSizing s;
	double		n = (double) capacity;
	double		bits;

	s.layout = layout;
	if (layout == BLOOM_LAYOUT_BLOCKED)
	{
		double		load = bloom_blocked_max_load(fpr);

		bits = ceil(n / load) * BLOOM_BLOCK_BITS;
		s.nhashes = BLOOM_BLOCKED_HASHES;
	}
	else
	{
		bits = ceil(-n * log(fpr) / (M_LN2 * M_LN2) / 64.0) * 64.0;
		s.nhashes = (int) lround(bits / n * M_LN2);
		if (s.nhashes < 1)
			s.nhashes = 1;
		if (s.nhashes > BLOOM_MAX_HASHES)
			s.nhashes = BLOOM_MAX_HASHES;
	}
	if (bits < BLOOM_MIN_BITS)
		bits = BLOOM_MIN_BITS;
	s.needed_bits = bits;
	if (bits > (double) BLOOM_MAX_BITS)
	{
		s.nbits = 0;
		s.expected_fpr = 1.0;
		return s;
	}
	s.nbits = (uint64_t) bits;
	if (pow2)
		s.nbits = bloom_pow2_ceil(s.nbits);
	if (s.nbits > BLOOM_MAX_BITS)
		s.nbits = 0;
	if (layout == BLOOM_LAYOUT_BLOCKED)
		s.expected_fpr = bloom_blocked_fpr(n / ((double) s.nbits / BLOOM_BLOCK_BITS));
	else
		s.expected_fpr = bloom_classic_fpr(n, (double) s.nbits, s.nhashes);
	return s;
}

/* ------------------------------------------------------------------------
 * Header
 * ------------------------------------------------------------------------
 */

/* Fill in a fresh header (the caller zeroed the whole filter). */
void
bloom_init_header(BloomFilter *f, int layout, int nhashes, uint64_t nbits,
				  uint64_t seed)
{
	f->version = BLOOM_FORMAT_VERSION;
	f->layout = (uint8_t) layout;
	f->scheme = BLOOM_SCHEME_PGEXT;
	f->nhashes = (uint8_t) nhashes;
	f->seed = seed;
	f->nbits = nbits;
	f->nitems = 0;
	f->flags = 0;
	f->collfp = 0;
	memset(f->family, 0, BLOOM_FAMILY_LEN);
}

static const char *const bloom_layout_names[] = {"classic", "blocked", "counting", "scalable"};

/* Name of a layout for output ("classic", "blocked"). */
const char *
bloom_layout_name(int layout)
{
	if (layout >= 0 && layout <= BLOOM_LAYOUT_SCALABLE)
		return bloom_layout_names[layout];
	return "unknown";
}

/* Layout code for a name, or -1. */
int
bloom_layout_from_name(const char *name)
{
	for (int i = 0; i <= BLOOM_LAYOUT_SCALABLE; i++)
		if (strcmp(name, bloom_layout_names[i]) == 0)
			return i;
	return -1;
}

/* Is c allowed in a family name (also the text form's delimiter rules)? */
static bool
bloom_family_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '.' || c == '(' ||
		c == ')' || c == ',' || c == '~' || c == '-' || c == ':';
}

/* Family: NUL-terminated in its field, allowed characters, zero padding. */
static const char *
bloom_check_family(const char *fam)
{
	int			len = 0;

	while (len < BLOOM_FAMILY_LEN && fam[len] != '\0')
	{
		if (!bloom_family_char_ok(fam[len]))
			return "element family contains an invalid character";
		len++;
	}
	if (len == BLOOM_FAMILY_LEN)
		return "element family is not terminated";
	for (int i = len; i < BLOOM_FAMILY_LEN; i++)
		if (fam[i] != '\0')
			return "element family has non-zero padding";
	return NULL;
}

/*
 * Validate the fields that memory safety depends on (version, layout,
 * scheme, flags, size, hashes); NULL if fine, else the reason.  Cheap
 * enough to run on every stored datum fetched.
 */
const char *
bloom_check_shape(const BloomFilter *f)
{
	if (f->version != BLOOM_FORMAT_VERSION)
		return "unsupported format version";
	if (f->layout > BLOOM_LAYOUT_SCALABLE)
		return "unsupported layout";
	if (f->scheme != BLOOM_SCHEME_PGEXT)
		return "unsupported hashing scheme";
	if (f->flags & ~BLOOM_FLAGS_KNOWN)
		return "unknown flags are set";
	if (f->nbits < BLOOM_MIN_BITS || f->nbits > BLOOM_MAX_BITS)
		return "number of bits is out of range (256 .. 2^31)";
	if (f->nbits % 64 != 0)
		return "number of bits is not a multiple of 64";
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		if (f->nbits % BLOOM_BLOCK_BITS != 0)
			return "number of bits of a blocked filter is not a multiple of 256";
		if (f->nhashes != BLOOM_BLOCKED_HASHES)
			return "a blocked filter must use 8 hashes";
	}
	else if (f->layout == BLOOM_LAYOUT_COUNTING &&
			 (f->nbits % 256 != 0 || f->nbits < 4 * BLOOM_MIN_BITS))
		return "a counting filter must have a multiple of 64 counters, at least 256";
	else if (f->nhashes < 1 || f->nhashes > BLOOM_MAX_HASHES)
		return "number of hashes is out of range (1 .. 32)";
	return NULL;
}

/*
 * Validate every header field; NULL if the header describes a filter this
 * build can read safely, else the reason.  Every input path (text, binary,
 * aggregate deserialization) goes through here.
 */
const char *
bloom_check_header(const BloomFilter *f)
{
	const char *why = bloom_check_shape(f);

	return why ? why : bloom_check_family(f->family);
}

/*
 * Check what the header alone cannot: a filter without an element family
 * has never had anything added, so it must have no bits set and count no
 * items (union treats such a filter as the empty set).  O(m).
 */
const char *
bloom_check_bits(const BloomFilter *f)
{
	if (f->family[0] != '\0' || f->layout == BLOOM_LAYOUT_SCALABLE)
		return NULL;			/* a scalable filter's sub-filters are checked */
	if (f->nitems != 0)
		return "a filter without an element family must have no items";
	for (uint64_t i = 0; i < BLOOM_NWORDS(f); i++)
		if (f->words[i] != 0)
			return "a filter without an element family must have no bits set";
	return NULL;
}

/* ------------------------------------------------------------------------
 * Hash to bits
 * ------------------------------------------------------------------------
 */

#ifdef BLOOM_BIG_ENDIAN
#define BLOOM_SET_BIT(bytes, b)  ((bytes)[(b) >> 3] |= (uint8_t) (1U << ((b) & 7)))
#define BLOOM_GET_BIT(bytes, b)  (((bytes)[(b) >> 3] >> ((b) & 7)) & 1)
#endif

/*
 * Add a hashed item to a classic filter, or to a blocked one on big-endian
 * hosts (the little-endian blocked path is inlined in bloom_format.h).
 */
void
bloom_insert_hash_other(BloomFilter *f, uint64_t h)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
#ifdef BLOOM_BIG_ENDIAN
		uint32_t	h32 = (uint32_t) h;
		uint64_t	block = bloom_block_of(f, h);
		uint8_t    *bytes = (uint8_t *) f->words;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			BLOOM_SET_BIT(bytes, block * 256 + i * 32 + ((h32 * bloom_salt[i]) >> 27));
#else
		bloom_insert_hash(f, h);
#endif
		return;
	}
	{
		uint64_t	a = h,
					b = ((h >> 32) | (h << 32)) * UINT64_C(0x9e3779b97f4a7c15) | 1;

		for (int i = 0; i < f->nhashes; i++)
		{
			uint64_t	pos = bloom_mulhi64(a, f->nbits);

#ifdef BLOOM_BIG_ENDIAN
			BLOOM_SET_BIT((uint8_t *) f->words, pos);
#else
			f->words[pos >> 6] |= UINT64_C(1) << (pos & 63);
#endif
			a += b;
			b += (uint64_t) i;
		}
	}
}

/* May the hashed item be in a classic filter (or blocked, big-endian)? */
bool
bloom_test_hash_other(const BloomFilter *f, uint64_t h)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
#ifdef BLOOM_BIG_ENDIAN
		uint32_t	h32 = (uint32_t) h;
		uint64_t	block = bloom_block_of(f, h);
		const uint8_t *bytes = (const uint8_t *) f->words;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			if (!BLOOM_GET_BIT(bytes, block * 256 + i * 32 + ((h32 * bloom_salt[i]) >> 27)))
				return false;
		return true;
#else
		return bloom_test_hash(f, h);
#endif
	}
	{
		uint64_t	a = h,
					b = ((h >> 32) | (h << 32)) * UINT64_C(0x9e3779b97f4a7c15) | 1;

		for (int i = 0; i < f->nhashes; i++)
		{
			uint64_t	pos = bloom_mulhi64(a, f->nbits);

#ifdef BLOOM_BIG_ENDIAN
			if (!BLOOM_GET_BIT((const uint8_t *) f->words, pos))
				return false;
#else
			if (!(f->words[pos >> 6] & (UINT64_C(1) << (pos & 63))))
				return false;
#endif
			a += b;
			b += (uint64_t) i;
		}
		return true;
	}
}

/* ------------------------------------------------------------------------
 * Counting layout: 4-bit counters, counter j in the low (even j) or high
 * (odd j) nibble of byte j / 2; positions as the classic layout's, over
 * the nbits / 4 counters, so a counting filter maps onto the classic filter
 * of nbits / 4 bits exactly.  A counter that reaches 15 saturates and is
 * never decremented again, so removing items never causes a false negative
 * for an item still present.
 * ------------------------------------------------------------------------
 */

#define BLOOM_COUNTER_MAX 15

static inline unsigned
bloom_counter_get(const uint8_t *c, uint64_t j)
{
	return (c[j >> 1] >> ((j & 1) * 4)) & 15;
}

static inline void
bloom_counter_set(uint8_t *c, uint64_t j, unsigned v)
{
	unsigned	shift = (unsigned) (j & 1) * 4;

	c[j >> 1] = (uint8_t) ((c[j >> 1] & ~(15U << shift)) | (v << shift));
}

/* The k counter positions of hash h (same sequence as the classic layout). */
static int
bloom_counting_positions(const BloomFilter *f, uint64_t h, uint64_t *pos)
{
	uint64_t	a = h,
				b = ((h >> 32) | (h << 32)) * UINT64_C(0x9e3779b97f4a7c15) | 1;
	uint64_t	ncounters = f->nbits / 4;

	for (int i = 0; i < f->nhashes; i++)
	{
		pos[i] = bloom_mulhi64(a, ncounters);
		a += b;
		b += (uint64_t) i;
	}
	return f->nhashes;
}

/* Prefetch the cache lines of all of h's counters (before an add). */
void
bloom_counting_prefetch(const BloomFilter *f, uint64_t h)
{
#if defined(__GNUC__) || defined(__clang__)
	uint64_t	pos[BLOOM_MAX_HASHES];
	int			k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
		__builtin_prefetch((const uint8_t *) f->words + (pos[i] >> 1), 1, 3);
#else
	(void) f;
	(void) h;
#endif
}

/* Add hash h: each of its counters + 1, saturating at 15. */
void
bloom_counting_add(BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	uint8_t    *c = (uint8_t *) f->words;
	int			k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
	{
		unsigned	v = bloom_counter_get(c, pos[i]);

		if (v < BLOOM_COUNTER_MAX)
			bloom_counter_set(c, pos[i], v + 1);
	}
}

/* May hash h be present (all its counters non-zero)? */
bool
bloom_counting_test(const BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	const uint8_t *c = (const uint8_t *) f->words;
	int			k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
		if (bloom_counter_get(c, pos[i]) == 0)
			return false;
	return true;
}

/*
 * Remove hash h: each of its counters - 1, except saturated ones.  Returns
 * false, changing nothing, if some counter is zero (h was never added).
 */
bool
bloom_counting_remove(BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	uint8_t    *c = (uint8_t *) f->words;
	int			k;

	if (!bloom_counting_test(f, h))
		return false;
	k = bloom_counting_positions(f, h, pos);
	for (int i = 0; i < k; i++)
	{
		unsigned	v = bloom_counter_get(c, pos[i]);

		if (v > 0 && v < BLOOM_COUNTER_MAX)
			bloom_counter_set(c, pos[i], v - 1);
	}
	return true;
}

/* dst's counters += src's, saturating (same parameters and size). */
void
bloom_counting_merge(BloomFilter *dst, const BloomFilter *src)
{
	uint8_t    *d = (uint8_t *) dst->words;
	const uint8_t *s = (const uint8_t *) src->words;

	for (uint64_t j = 0; j < dst->nbits / 4; j++)
	{
		unsigned	v = bloom_counter_get(d, j) + bloom_counter_get(s, j);

		bloom_counter_set(d, j, v > BLOOM_COUNTER_MAX ? BLOOM_COUNTER_MAX : v);
	}
}

/* Set in classic filter dst (nbits = src's counters) the non-zero counters. */
void
bloom_counting_to_bits(const BloomFilter *src, BloomFilter *dst)
{
	const uint8_t *c = (const uint8_t *) src->words;
	uint8_t    *b = (uint8_t *) dst->words;

	for (uint64_t j = 0; j < src->nbits / 4; j++)
		if (bloom_counter_get(c, j) != 0)
			b[j >> 3] |= (uint8_t) (1U << (j & 7));
}

/* ------------------------------------------------------------------------
 * Set algebra and resizing
 * ------------------------------------------------------------------------
 */

/* Bits in the unit that folding keeps together: a block, or a 64-bit word. */
uint64_t
bloom_unit_bits(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_BITS : 64;
}

/* Can filters of a and b bits be combined: one a multiple of the other? */
bool
bloom_sizes_combinable(uint64_t a, uint64_t b, uint64_t unit)
{
	uint64_t	lo = a < b ? a : b,
				hi = a < b ? b : a;

	return (lo / unit) != 0 && ((hi / unit) % (lo / unit)) == 0;
}

/*
 * Can a and b be unioned/intersected?  On false, writes a sentence naming
 * the mismatch into detail.  An empty family (nothing added yet) matches any.
 */
bool
bloom_check_compatible(const BloomFilter *a, const BloomFilter *b,
					   char *detail, size_t detail_len)
{
	if (a->layout != b->layout)
		snprintf(detail, detail_len, "The layouts differ (%s and %s).",
				 bloom_layout_name(a->layout), bloom_layout_name(b->layout));
	else if (a->scheme != b->scheme)
		snprintf(detail, detail_len, "The hashing schemes differ (%d and %d).",
				 a->scheme, b->scheme);
	else if (a->nhashes != b->nhashes)
		snprintf(detail, detail_len, "The numbers of hashes differ (%d and %d).",
				 a->nhashes, b->nhashes);
	else if (a->seed != b->seed)
		snprintf(detail, detail_len, "The seeds differ (%llu and %llu).",
				 (unsigned long long) a->seed, (unsigned long long) b->seed);
	else if (a->family[0] && b->family[0] &&
			 memcmp(a->family, b->family, BLOOM_FAMILY_LEN) != 0)
		snprintf(detail, detail_len, "The element type families differ (%s and %s).",
				 a->family, b->family);
	else if (a->family[0] && b->family[0] && a->collfp != b->collfp)
		snprintf(detail, detail_len, "The filters were built under different collations.");
	else if (!bloom_sizes_combinable(a->nbits, b->nbits, bloom_unit_bits(a)))
		snprintf(detail, detail_len,
				 "The sizes (%llu and %llu bits) are not multiples of each other, so neither can be folded onto the other.",
				 (unsigned long long) a->nbits, (unsigned long long) b->nbits);
	else
		return true;
	return false;
}

/* Word w of the bit array as a little-endian 64-bit value. */
static inline uint64_t
bloom_load_word(const BloomFilter *f, uint64_t w)
{
#ifdef BLOOM_BIG_ENDIAN
	return __builtin_bswap64(f->words[w]);
#else
	return f->words[w];
#endif
}

/* Mask of bits [lo, hi) within one word (0 <= lo < hi <= 64). */
static inline uint64_t
bloom_range_mask(unsigned lo, unsigned hi)
{
	uint64_t	upto = hi == 64 ? ~UINT64_C(0) : (UINT64_C(1) << hi) - 1;

	return upto & ~((UINT64_C(1) << lo) - 1);
}

/* Is any bit in [lo, hi) set? */
static bool
bloom_any_bit(const BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);

		if (bloom_load_word(f, w) & bloom_range_mask(a, b))
			return true;
		lo = w * 64 + b;
	}
	return false;
}

/* Set bits [lo, hi). */
static void
bloom_set_bits(BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);
		uint64_t	m = bloom_range_mask(a, b);

#ifdef BLOOM_BIG_ENDIAN
		m = __builtin_bswap64(m);
#endif
		f->words[w] |= m;
		lo = w * 64 + b;
	}
}

/*
 * Copy the bits of src into dst, which has the same parameters but a size
 * that is a multiple or a divisor of src's: fold (OR runs of adjacent units)
 * or unfold (replicate each unit).  dst's bits must be zero on entry.  For
 * the classic layout a unit is a bit; for the blocked one, a block.
 */
void
bloom_resize_into(const BloomFilter *src, BloomFilter *dst)
{
	if (src->layout == BLOOM_LAYOUT_BLOCKED)
	{
		/* a block is 4 64-bit words; byte order does not matter for OR */
		uint64_t	nsrc = src->nbits / BLOOM_BLOCK_BITS,
					ndst = dst->nbits / BLOOM_BLOCK_BITS;

		if (nsrc >= ndst)
		{
			uint64_t	f = nsrc / ndst;

			for (uint64_t d = 0; d < ndst; d++)
			{
				uint64_t   *dw = dst->words + d * 4;
				const uint64_t *sw = src->words + d * f * 4;

				BLOOM_POLL(d);
				for (uint64_t j = 0; j < f * 4; j += 4)
				{
					dw[0] |= sw[j];
					dw[1] |= sw[j + 1];
					dw[2] |= sw[j + 2];
					dw[3] |= sw[j + 3];
				}
			}
		}
		else
		{
			uint64_t	f = ndst / nsrc;

			for (uint64_t d = 0; d < ndst; d++)
				for (int j = 0; j < 4; j++)
					dst->words[d * 4 + j] |= src->words[(d / f) * 4 + j];
		}
		return;
	}
	/* classic: bit i of src maps to bit i / f (fold) or bits [i f, (i+1) f) */
	if (src->nbits >= dst->nbits)
	{
		uint64_t	f = src->nbits / dst->nbits;

		for (uint64_t d = 0; d < dst->nbits; d++)
		{
			BLOOM_POLL(d);
			if (bloom_any_bit(src, d * f, (d + 1) * f))
				bloom_set_bits(dst, d, d + 1);
		}
	}
	else
	{
		uint64_t	f = dst->nbits / src->nbits;

		for (uint64_t w = 0; w < BLOOM_NWORDS(src); w++)
		{
			uint64_t	v = bloom_load_word(src, w);

			BLOOM_POLL(w);
			while (v)
			{
				uint64_t	i = w * 64 + (uint64_t) __builtin_ctzll(v);

				v &= v - 1;
				bloom_set_bits(dst, i * f, (i + 1) * f);
			}
		}
	}
}

/* ------------------------------------------------------------------------
 * Word kernels with run-time CPU dispatch
 * ------------------------------------------------------------------------
 */

static uint64_t
bloom_popcount_portable(const uint64_t *w, size_t n)
{
	uint64_t	c = 0;

	for (size_t i = 0; i < n; i++)
	{
		uint64_t	x = w[i];

		x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
		x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
		x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
		c += (x * UINT64_C(0x0101010101010101)) >> 56;
	}
	return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BLOOM_X86_DISPATCH 1
#include <immintrin.h>

/* The eight salted bits of h32 in a block, one per 32-bit word. */
__attribute__((target("avx2")))
static inline __m256i
bloom_block_mask_avx2(uint32_t h32)
{
	const __m256i salt = _mm256_setr_epi32((int) 0x47b6137bU, (int) 0x44974d91U,
										   (int) 0x8824ad5bU, (int) 0xa2b7289dU,
										   (int) 0x705495c7U, (int) 0x2df1424bU,
										   (int) 0x9efc4947U, (int) 0x5c6bfb31U);
	__m256i		bit = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int) h32), salt), 27);

	return _mm256_sllv_epi32(_mm256_set1_epi32(1), bit);
}

/* Set h32's bits in a block (see bloom_insert_hash). */
__attribute__((target("avx2")))
void
bloom_block_insert_avx2(uint32_t *block, uint32_t h32)
{
	__m256i    *blk = (__m256i *) block;

	_mm256_storeu_si256(blk, _mm256_or_si256(_mm256_loadu_si256(blk),
											 bloom_block_mask_avx2(h32)));
}

/* Are all of h32's bits set in a block? (see bloom_test_hash) */
__attribute__((target("avx2")))
bool
bloom_block_test_avx2(const uint32_t *block, uint32_t h32)
{
	return _mm256_testc_si256(_mm256_loadu_si256((const __m256i *) block),
							  bloom_block_mask_avx2(h32)) != 0;
}

/*
 * Insert n hashes into a blocked filter with AVX2: the eight salted bit
 * positions of a block are computed in one 256-bit multiply, shift and
 * variable shift, and OR-ed into the block with one load and one store.
 */
__attribute__((target("avx2")))
static void
bloom_insert_hashes_avx2(BloomFilter *f, const uint64_t *h, int n)
{
	for (int i = 0; i < n; i++)
	{
		__m256i    *blk = (__m256i *) ((uint32_t *) f->words +
									   bloom_block_of(f, h[i]) * BLOOM_BLOCK_WORDS32);

		_mm256_storeu_si256(blk, _mm256_or_si256(_mm256_loadu_si256(blk),
												 bloom_block_mask_avx2((uint32_t) h[i])));
	}
}

__attribute__((target("popcnt")))
static uint64_t
bloom_popcount_popcnt(const uint64_t *w, size_t n)
{
	uint64_t	c = 0;

	for (size_t i = 0; i < n; i++)
		c += (uint64_t) __builtin_popcountll(w[i]);
	return c;
}

__attribute__((target("avx2")))
static void
bloom_or_avx2(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] |= src[i];
}

__attribute__((target("avx2")))
static void
bloom_and_avx2(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] &= src[i];
}
#endif

static void
bloom_insert_hashes_portable(BloomFilter *f, const uint64_t *h, int n)
{
	for (int i = 0; i < n; i++)
		bloom_insert_hash(f, h[i]);
}

static void
bloom_or_portable(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] |= src[i];
}

static void
bloom_and_portable(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] &= src[i];
}

static uint64_t (*bloom_popcount_impl) (const uint64_t *, size_t) = bloom_popcount_portable;
static void (*bloom_or_impl) (uint64_t *, const uint64_t *, size_t) = bloom_or_portable;
static void (*bloom_and_impl) (uint64_t *, const uint64_t *, size_t) = bloom_and_portable;
static void (*bloom_insert_hashes_impl) (BloomFilter *, const uint64_t *, int) = bloom_insert_hashes_portable;
static const char *bloom_path = "portable";

#ifdef BLOOM_BLOCK_DISPATCH
bool		bloom_block_avx2 = false;
#endif

/*
 * Choose the word kernels for this CPU.  portable_only forces the plain C
 * versions (the test suite runs both).  Results never depend on the choice.
 */
void
bloom_cpu_init(bool portable_only)
{
	bloom_popcount_impl = bloom_popcount_portable;
	bloom_or_impl = bloom_or_portable;
	bloom_and_impl = bloom_and_portable;
	bloom_insert_hashes_impl = bloom_insert_hashes_portable;
	bloom_path = "portable";
#ifdef BLOOM_BLOCK_DISPATCH
	bloom_block_avx2 = false;
#endif
#ifdef BLOOM_X86_DISPATCH
	if (portable_only)
		return;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("popcnt"))
	{
		bloom_popcount_impl = bloom_popcount_popcnt;
		bloom_path = "popcnt";
	}
	if (__builtin_cpu_supports("avx2"))
	{
		bloom_or_impl = bloom_or_avx2;
		bloom_and_impl = bloom_and_avx2;
#ifdef BLOOM_BLOCK_DISPATCH
		bloom_insert_hashes_impl = bloom_insert_hashes_avx2;
		bloom_block_avx2 = true;
#endif
		bloom_path = "avx2";
	}
#else
	(void) portable_only;
#endif
}

/* Name of the kernels in use ("portable", "popcnt", "avx2"). */
const char *
bloom_cpu_path(void)
{
	return bloom_path;
}

/* Insert n hashes (nitems untouched); AVX2 for the blocked layout. */
void
bloom_insert_hashes(BloomFilter *f, const uint64_t *h, int n)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
		bloom_insert_hashes_impl(f, h, n);
	else
		bloom_insert_hashes_portable(f, h, n);
}

/* dst |= src over n words. */
void
bloom_or_words(uint64_t *dst, const uint64_t *src, size_t n)
{
	bloom_or_impl(dst, src, n);
}

/* dst &= src over n words. */
void
bloom_and_words(uint64_t *dst, const uint64_t *src, size_t n)
{
	bloom_and_impl(dst, src, n);
}

/* ------------------------------------------------------------------------
 * Estimates
 * ------------------------------------------------------------------------
 */

/* Number of set bits. */
uint64_t
bloom_popcount(const BloomFilter *f)
{
	return bloom_popcount_impl(f->words, BLOOM_NWORDS(f));
}

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
		uint64_t	nblocks = f->nbits / BLOOM_BLOCK_BITS;
		const uint8_t *bytes = (const uint8_t *) f->words;
		double		sum = 0.0;

		for (uint64_t b = 0; b < nblocks; b++)
		{
			double		p = 1.0;

			for (int i = 0; i < BLOOM_BLOCK_WORDS32 && p > 0.0; i++)
			{
				const uint8_t *q = bytes + b * 32 + i * 4;
				uint32_t	w = (uint32_t) q[0] | (uint32_t) q[1] << 8 |
					(uint32_t) q[2] << 16 | (uint32_t) q[3] << 24;

				p *= bloom_pop32(w) / 32.0;
			}
			sum += p;
		}
		return sum / (double) nblocks;
	}
	return pow((double) bloom_popcount(f) / (double) f->nbits, f->nhashes);
}

/* ------------------------------------------------------------------------
 * Text form:
 *	 bloom:v1 layout=blocked k=8 seed=0 bits=256 items=3 flags=0 coll=0 family=integer_ops hex=<2*m/8 hex digits>
 * ------------------------------------------------------------------------
 */

#define BLOOM_TEXT_FMT "bloom:v%d layout=%s k=%d seed=%llu bits=%llu items=%llu flags=%x coll=%x family=%s hex="

/* Bytes needed for the text form, including the terminating NUL. */
size_t
bloom_text_size(const BloomFilter *f)
{
	char		buf[512];
	int			len = snprintf(buf, sizeof(buf), BLOOM_TEXT_FMT, f->version,
							   bloom_layout_name(f->layout), f->nhashes,
							   (unsigned long long) f->seed,
							   (unsigned long long) f->nbits,
							   (unsigned long long) f->nitems, f->flags,
							   f->collfp, f->family);

	return (size_t) len + 2 * BLOOM_DATA_BYTES(f) + 1;
}

/* Write the text form into out (bloom_text_size(f) bytes). */
void
bloom_text_encode(const BloomFilter *f, char *out)
{
	static const char hexd[] = "0123456789abcdef";
	const uint8_t *bytes = (const uint8_t *) f->words;
	size_t		nbytes = BLOOM_DATA_BYTES(f);
	int			len = sprintf(out, BLOOM_TEXT_FMT, f->version,
							  bloom_layout_name(f->layout), f->nhashes,
							  (unsigned long long) f->seed,
							  (unsigned long long) f->nbits,
							  (unsigned long long) f->nitems, f->flags,
							  f->collfp, f->family);
	char	   *p = out + len;

	for (size_t i = 0; i < nbytes; i++)
	{
		*p++ = hexd[bytes[i] >> 4];
		*p++ = hexd[bytes[i] & 15];
	}
	*p = '\0';
}

/* Expect the literal lit at *s and advance past it. */
static bool
bloom_expect(const char **s, const char *lit)
{
	size_t		n = strlen(lit);

	if (strncmp(*s, lit, n) != 0)
		return false;
	*s += n;
	return true;
}

/* Parse an unsigned decimal (base 10) or hex (base 16) number, no sign. */
static bool
bloom_parse_uint(const char **s, int base, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t	v = 0;

	if (!((*p >= '0' && *p <= '9') || (base == 16 && ((*p >= 'a' && *p <= 'f')))))
		return false;
	for (; *p; p++)
	{
		int			d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		if (v > (max - (uint64_t) d) / (uint64_t) base)
			return false;
		v = v * (uint64_t) base + (uint64_t) d;
	}
	*s = p;
	*out = v;
	return true;
}

/* Parse "key=<uint>" (with a leading space unless first). */
static bool
bloom_parse_field(const char **s, const char *key, int base, uint64_t max,
				  uint64_t *out)
{
	return bloom_expect(s, key) && bloom_parse_uint(s, base, max, out);
}

/*
 * Parse the header part of the text form into hdr (validated) and point
 * *hex at the hex digits.  Returns NULL on success, else the reason.
 */
const char *
bloom_text_decode_header(const char *s, BloomFilter *hdr, const char **hex)
{
	uint64_t	ver,
				k,
				flags,
				coll;
	char		layout[16];
	int			i;
	const char *why;

	memset(hdr, 0, sizeof(BloomFilter));
	if (!bloom_parse_field(&s, "bloom:v", 10, 255, &ver))
		return "expected \"bloom:v<version>\" at the start";
	if (!bloom_expect(&s, " layout="))
		return "expected \" layout=\"";
	for (i = 0; i < (int) sizeof(layout) - 1 && *s >= 'a' && *s <= 'z'; i++)
		layout[i] = *s++;
	layout[i] = '\0';
	if (bloom_layout_from_name(layout) < 0)
		return "unknown layout";
	if (!bloom_parse_field(&s, " k=", 10, 255, &k) ||
		!bloom_parse_field(&s, " seed=", 10, UINT64_MAX, &hdr->seed) ||
		!bloom_parse_field(&s, " bits=", 10, UINT64_MAX, &hdr->nbits) ||
		!bloom_parse_field(&s, " items=", 10, UINT64_MAX, &hdr->nitems) ||
		!bloom_parse_field(&s, " flags=", 16, UINT32_MAX, &flags) ||
		!bloom_parse_field(&s, " coll=", 16, UINT32_MAX, &coll) ||
		!bloom_expect(&s, " family="))
		return "malformed or out-of-range header field";
	for (i = 0; i < BLOOM_FAMILY_LEN - 1 && bloom_family_char_ok(*s); i++)
		hdr->family[i] = *s++;
	if (!bloom_expect(&s, " hex="))
		return "expected \" hex=\" after the family";
	hdr->version = (uint8_t) ver;
	hdr->layout = (uint8_t) bloom_layout_from_name(layout);
	hdr->scheme = BLOOM_SCHEME_PGEXT;
	hdr->nhashes = (uint8_t) k;
	hdr->flags = (uint32_t) flags;
	hdr->collfp = (uint32_t) coll;
	if ((why = bloom_check_header(hdr)) != NULL)
		return why;
	*hex = s;
	return NULL;
}

/* Value of a lower-case hex digit, or -1. */
static int
bloom_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode exactly nbits/8 bytes of hex into f's array; nothing may follow. */
const char *
bloom_text_decode_bits(const char *hex, BloomFilter *f)
{
	uint8_t    *bytes = (uint8_t *) f->words;
	size_t		nbytes = BLOOM_DATA_BYTES(f);

	for (size_t i = 0; i < nbytes; i++)
	{
		int			hi = bloom_hexval(hex[2 * i]);
		int			lo = hi < 0 ? -1 : bloom_hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return "the bit array is truncated or has a non-hex digit";
		bytes[i] = (uint8_t) (hi << 4 | lo);
	}
	if (hex[2 * nbytes] != '\0')
		return "extra characters after the bit array";
	return NULL;
}

/* ------------------------------------------------------------------------
 * Binary form: the header fields in network byte order, then the bytes.
 * ------------------------------------------------------------------------
 */

static void
bloom_put_be(uint8_t *out, uint64_t v, int nbytes)
{
	for (int i = nbytes - 1; i >= 0; i--)
	{
		out[i] = (uint8_t) v;
		v >>= 8;
	}
}

static uint64_t
bloom_get_be(const uint8_t *in, int nbytes)
{
	uint64_t	v = 0;

	for (int i = 0; i < nbytes; i++)
		v = v << 8 | in[i];
	return v;
}

/* Write the BLOOM_WIRE_HEADER_SIZE header bytes of f. */
void
bloom_wire_encode_header(const BloomFilter *f, uint8_t *out)
{
	out[0] = f->version;
	out[1] = f->layout;
	out[2] = f->scheme;
	out[3] = f->nhashes;
	bloom_put_be(out + 4, f->seed, 8);
	bloom_put_be(out + 12, f->nbits, 8);
	bloom_put_be(out + 20, f->nitems, 8);
	bloom_put_be(out + 28, f->flags, 4);
	bloom_put_be(out + 32, f->collfp, 4);
	memcpy(out + 36, f->family, BLOOM_FAMILY_LEN);
}

/*
 * Parse and validate a binary header from buf (len bytes in all, header and
 * bit array); the total length must match the header exactly.
 */
const char *
bloom_wire_decode_header(const uint8_t *buf, size_t len, BloomFilter *hdr)
{
	const char *why;

	memset(hdr, 0, sizeof(BloomFilter));
	if (len < BLOOM_WIRE_HEADER_SIZE)
		return "the value is shorter than a filter header";
	if ((why = bloom_wire_decode_fields(buf, hdr)) != NULL)
		return why;
	if (len - BLOOM_WIRE_HEADER_SIZE != BLOOM_DATA_BYTES(hdr))
		return "the length of the bit array does not match the header";
	return NULL;
}

/*
 * Decode and validate the BLOOM_WIRE_HEADER_SIZE header bytes at buf into
 * hdr, without looking at what follows.
 */
const char *
bloom_wire_decode_fields(const uint8_t *buf, BloomFilter *hdr)
{
	memset(hdr, 0, sizeof(BloomFilter));
	hdr->version = buf[0];
	hdr->layout = buf[1];
	hdr->scheme = buf[2];
	hdr->nhashes = buf[3];
	hdr->seed = bloom_get_be(buf + 4, 8);
	hdr->nbits = bloom_get_be(buf + 12, 8);
	hdr->nitems = bloom_get_be(buf + 20, 8);
	hdr->flags = (uint32_t) bloom_get_be(buf + 28, 4);
	hdr->collfp = (uint32_t) bloom_get_be(buf + 32, 4);
	memcpy(hdr->family, buf + 36, BLOOM_FAMILY_LEN);
	return bloom_check_header(hdr);
}
