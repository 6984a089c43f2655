/*-------------------------------------------------------------------------
 *
 * bloom_counting.c
 *	  The counting layout: 4-bit counters over the classic positions.
 *
 * Counter j is in the low (even j) or high
 * (odd j) nibble of byte j / 2; positions as the classic layout's, over
 * the nbits / 4 counters, so a counting filter maps onto the classic filter
 * of nbits / 4 bits exactly.  A counter that reaches 15 saturates and is
 * never decremented again, so removing items never causes a false negative
 * for an item still present.
 *
 * Part of the PostgreSQL-free core (bloom_core.c has its design, bloom_core.h
 * its interface and says which file owns what).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core_internal.h"

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
static inline int
bloom_counting_positions(const BloomFilter *f, uint64_t h, uint64_t *pos)
{
	return bloom_probe_positions(f, h, pos);
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
