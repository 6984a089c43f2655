/*-------------------------------------------------------------------------
 *
 * bloom_counting.c
 *	  The counting layouts: 4-bit counters over the classic positions
 *	  (layout 2) or in split blocks (layout 4, new filters since 1.4).
 *
 * In both, counter j is in the low (even j) or high (odd j) nibble of byte
 * j / 2, and a counter that reaches 15 saturates and is never decremented
 * again, so removing items never causes a false negative for an item still
 * present.
 *
 * Layout 2 ("counting") puts a hash's k counters where the classic layout
 * puts its k bits, over the nbits / 4 counters: a counting filter maps onto
 * the classic filter of nbits / 4 bits exactly.  Its counters are scattered
 * over the whole array, a cache miss each in a large filter.
 *
 * Layout 4 ("blockcounting") is the split-block layout of the bloom type
 * with a counter for each bit: blocks of 256 counters (128 bytes), eight
 * groups of 32 counters each; a hash h picks block
 * bloom_counting_block_of(h) by the high half and, in group i, counter
 * (h32 * bloom_salt[i]) >> 27 of the low half h32, as the blocked bloom
 * layout picks bit (h32 * bloom_salt[i]) >> 27 of word i.  So a key touches
 * two adjacent cache lines, its eight counters are always distinct (one a
 * group: an add raises each by one, a remove lowers each by one), and a
 * blocked counting filter maps onto the blocked bloom filter of nbits / 4
 * bits exactly; its rate is that filter's (bloom_blocked_fpr).  The
 * positions do not depend on the hashing scheme (as the blocked bloom
 * layout's do not): the scheme only decides how a value becomes h.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_counting.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_counting.h"
#include "bloom_kernels.h"
#include "bloom_positions.h"
#include "bloom_sizing.h"

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

/*
 * The k counter positions of hash h: layout 2, the classic sequence; layout
 * 4, one counter in each group of h's block (see the file header).
 */
static inline int
bloom_counting_positions(const BloomFilter *f, uint64_t h, uint64_t *pos)
{
	uint64_t	base;
	uint32_t	h32 = (uint32_t) h;

	if (f->layout != BLOOM_LAYOUT_COUNTING_BLOCKED)
		return bloom_probe_positions(f, h, pos);
	base = bloom_counting_block_of(f, h) * BLOOM_COUNTING_BLOCK_COUNTERS;
	for (int i = 0; i < BLOOM_BLOCKED_HASHES; i++)
		pos[i] = base + (uint64_t) i * 32 + ((h32 * bloom_salt[i]) >> 27);
	return BLOOM_BLOCKED_HASHES;
}

/* Prefetch the cache lines of all of h's counters (before an add). */
void
bloom_counting_prefetch(const BloomFilter *f, uint64_t h)
{
#if defined(__GNUC__) || defined(__clang__)
	uint64_t	pos[BLOOM_MAX_HASHES];
	int			k;

	if (f->layout == BLOOM_LAYOUT_COUNTING_BLOCKED)
	{
		const uint8_t *p = (const uint8_t *) f->words +
			bloom_counting_block_of(f, h) * BLOOM_COUNTING_BLOCK_BYTES;

		__builtin_prefetch(p, 1, 3);
		__builtin_prefetch(p + 64, 1, 3);
		return;
	}
	k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
		__builtin_prefetch((const uint8_t *) f->words + (pos[i] >> 1), 1, 3);
#else
	(void) f;
	(void) h;
#endif
}

/*
 * Add hash h to a blocked counting filter: in each group of h's block, the
 * nibble of its counter + 1 unless it is 15 (branch-free: the add is the
 * aggregate's hot path).  Counter 32 i + s of the block is in byte 16 i +
 * s / 2, as bloom_counting_positions numbers them.
 */
static inline void
bloom_counting_add_blocked(BloomFilter *f, uint64_t h)
{
	uint32_t	h32 = (uint32_t) h;
	uint8_t    *block = (uint8_t *) f->words +
		bloom_counting_block_of(f, h) * BLOOM_COUNTING_BLOCK_BYTES;

	for (int i = 0; i < BLOOM_BLOCKED_HASHES; i++)
	{
		uint32_t	s = (h32 * bloom_salt[i]) >> 27;
		uint8_t    *byte = block + i * 16 + (s >> 1);
		unsigned	shift = (s & 1) * 4;

		*byte = (uint8_t) (*byte + ((((*byte >> shift) & 15) != BLOOM_COUNTER_MAX) << shift));
	}
}

/* Add hash h: each of its counters + 1, saturating at 15. */
void
bloom_counting_add(BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	uint8_t    *c = (uint8_t *) f->words;
	int			k;

	if (f->layout == BLOOM_LAYOUT_COUNTING_BLOCKED)
	{
		bloom_counting_add_blocked(f, h);
		return;
	}
	k = bloom_counting_positions(f, h, pos);

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
	size_t		n = (size_t) (dst->nbits / 4);

	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, 2 * BLOOM_POLL_BYTES);	/* 2 a byte */
		for (size_t j = lo; j < hi; j++)
		{
			unsigned	v = bloom_counter_get(d, j) + bloom_counter_get(s, j);

			bloom_counter_set(d, j, v > BLOOM_COUNTER_MAX ? BLOOM_COUNTER_MAX : v);
		}
	}
}

/* Set in classic filter dst (nbits = src's counters) the non-zero counters. */
void
bloom_counting_to_bits(const BloomFilter *src, BloomFilter *dst)
{
	const uint8_t *c = (const uint8_t *) src->words;
	uint8_t    *b = (uint8_t *) dst->words;
	size_t		n = (size_t) (src->nbits / 4);

	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, 2 * BLOOM_POLL_BYTES);
		for (size_t j = lo; j < hi; j++)
			if (bloom_counter_get(c, j) != 0)
				b[j >> 3] |= (uint8_t) (1U << (j & 7));
	}
}
