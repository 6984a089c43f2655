/*-------------------------------------------------------------------------
 *
 * bloom_internal.h
 *	  What the files of the PostgreSQL-free core share among themselves and
 *	  nobody else calls: portable builtins, bit access of the big-endian
 *	  path, word loads.  Included only by src/core/bloom_*.c, beside the
 *	  headers of the modules each of them uses (bloom_core.h lists them).
 *	  It uses only the stored format and belongs to no one file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_INTERNAL_H
#define BLOOM_INTERNAL_H

#include "bloom_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOOM_STR2(x)	#x
#define BLOOM_STR(x)	BLOOM_STR2(x)

/*
 * Portable versions of the compiler builtins the core uses (GCC and Clang
 * compile them to one instruction where the target has it).
 */

/* Index of the lowest set bit of v (v != 0). */
static inline int
bloom_ctz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_ctzll(v);
#else
	int			n = 0;

	while ((v & 1) == 0)
	{
		v >>= 1;
		n++;
	}
	return n;
#endif
}

#ifdef BLOOM_BIG_ENDIAN
/* v with its bytes reversed. */
static inline uint64_t
bloom_bswap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_bswap64(v);
#else
	v = ((v & UINT64_C(0x00ff00ff00ff00ff)) << 8) | ((v >> 8) & UINT64_C(0x00ff00ff00ff00ff));
	v = ((v & UINT64_C(0x0000ffff0000ffff)) << 16) | ((v >> 16) & UINT64_C(0x0000ffff0000ffff));
	return (v << 32) | (v >> 32);
#endif
}
#endif

/* Number of set bits of n words, in plain C (every CPU path's reference). */
static inline uint64_t
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

/* Word w of the bit array as a little-endian 64-bit value. */
static inline uint64_t
bloom_load_word(const BloomFilter *f, uint64_t w)
{
#ifdef BLOOM_BIG_ENDIAN
	return bloom_bswap64(f->words[w]);
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

#endif							/* BLOOM_INTERNAL_H */
