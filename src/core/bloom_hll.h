/*-------------------------------------------------------------------------
 *
 * bloom_hll.h
 *	  HyperLogLog (Flajolet et al., 2007): the distinct count of a stream
 *	  of mixed 64-bit hashes in 2^b registers of one byte.  One owner for
 *	  both users: the aggregates' list of hashes (an estimate of its
 *	  distinct values, never stored) and the bloomskip metapage's sketch
 *	  of its keys (stored: the registers are part of format 4, so what
 *	  bloom_hll_add writes must never change).  PostgreSQL-free, as the
 *	  rest of src/core.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_HLL_H
#define BLOOMSET_HLL_H

#include <math.h>
#include <stdint.h>

/*
 * Count the hash x (already mixed: its bits must be uniform) in the 2^b
 * registers reg (1 <= b <= 16): the register is x's top b bits, the rank 1
 * + the leading zeros of its other 64 - b bits (65 - b when they are all
 * zero: the bit below them stops the count).
 */
static inline void
bloom_hll_add(uint8_t *reg, int b, uint64_t x)
{
	uint32_t	r = (uint32_t) (x >> (64 - b));
	uint64_t	w = (x << b) | (UINT64_C(1) << (b - 1));
	uint8_t		rank = (uint8_t) (__builtin_clzll(w) + 1);

	if (rank > reg[r])
		reg[r] = rank;
}

/*
 * The distinct hashes counted in the 2^b registers reg: the bias-corrected
 * harmonic mean of the registers, or linear counting of the empty ones
 * where that is the better estimate (at most 2.5 times the registers).
 * The relative error is about 1.04 / sqrt(2^b).
 */
static inline double
bloom_hll_estimate(const uint8_t *reg, int b)
{
	double		m = (double) (1 << b);
	double		sum = 0.0;
	int			zeros = 0;
	double		e;

	for (int i = 0; i < (1 << b); i++)
	{
		sum += ldexp(1.0, -reg[i]);
		zeros += reg[i] == 0;
	}
	e = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
	if (e <= 2.5 * m && zeros > 0)
		e = m * log(m / zeros);
	return e;
}

#endif							/* BLOOMSET_HLL_H */
