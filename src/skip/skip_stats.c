/*-------------------------------------------------------------------------
 *
 * skip_stats.c
 *	  What a bloomskip index learnt of its keys, for the planner: a
 *	  HyperLogLog sketch of the keys and the sum of each range's distinct
 *	  keys, and the figures skip_cost.c reads from them.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "port/pg_bitutils.h"

/*
 * Add key h to the sketch of st.  The key's hash also chooses its bit
 * positions: it is mixed first (bloom_mix64b, splitmix64's finalizer), so the
 * register and the rank do not follow the positions.
 */
void
skip_stats_add_key(SkipStats *st, uint64 h)
{
	uint64		x = bloom_mix64b(h);
	uint64		rest;
	int			reg, rank;

	/* the register: the top bits; the rank: 1 + the leading zeros of the rest */
	reg = (int) (x >> (64 - SKIP_STAT_BITS));
	rest = x << SKIP_STAT_BITS;
	rank = rest == 0 ? 64 - SKIP_STAT_BITS + 1 : 64 - pg_leftmost_one_pos64(rest);
	st->hll[reg] = Max(st->hll[reg], (uint8) rank);
}

/*
 * Count one range of st whose filter (m bits, unsliced) is bits: its
 * distinct keys estimated from the filter's fill X as -(m / k) ln(1 - X / m).
 * A filter with every bit set (a row whose keys could not be read) says
 * nothing of its keys and is left out.
 */
void
skip_stats_add_filter(SkipStats *st, const SkipMeta *meta, const uint8 *bits)
{
	uint64		set = 0;
	double		m = meta->nbits;

	for (uint32 i = 0; i < meta->nbits / 8; i++)
		set += pg_number_of_ones[bits[i]];
	if (set >= meta->nbits)
		return;
	st->ranges++;
	st->keys += -(m / meta->nhashes) * log(1.0 - (double) set / m);
}

/*
 * The distinct keys of the ranges counted in st: HyperLogLog's estimate
 * (harmonic mean of the registers, bias-corrected), by linear counting of
 * the empty registers while they are many.  Its relative error is about
 * 1.04 / sqrt(registers), 3 %.
 */
static double
skip_stats_distinct(const SkipStats *st)
{
	double		m = SKIP_STAT_REGISTERS;
	double		sum = 0.0;
	int			zeros = 0;
	double		e;

	for (int i = 0; i < SKIP_STAT_REGISTERS; i++)
	{
		sum += ldexp(1.0, -st->hll[i]);
		zeros += st->hll[i] == 0;
	}
	e = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
	if (e <= 2.5 * m && zeros > 0)
		e = m * log(m / zeros);
	return e;
}

/*
 * The figures the planner reads from st: the distinct keys of a range and
 * the ranges a key lies in, on average; false when st counts nothing.
 */
bool
skip_stats_figures(const SkipStats *st, double *keys_per_range, double *ranges_per_key)
{
	double		distinct;

	if (st->ranges == 0 || st->keys < 1.0)
		return false;
	*keys_per_range = st->keys / (double) st->ranges;
	distinct = Max(skip_stats_distinct(st), *keys_per_range);
	*ranges_per_key = Min(Max(st->keys / distinct, 1.0), (double) st->ranges);
	return true;
}
