/*-------------------------------------------------------------------------
 *
 * skip_stats.c
 *	  What a bloomskip index learnt of its keys, for the planner: a
 *	  HyperLogLog sketch of the keys (src/core/bloom_hll.h) and the sum of
 *	  each range's distinct keys, and the figures skip_cost.c reads from
 *	  them.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "../core/bloom_hll.h"

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
	bloom_hll_add(st->hll, SKIP_STAT_BITS, bloom_mix64b(h));
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
	/* the distinct keys of all the ranges counted: about 3 % off (1,024 registers) */
	distinct = Max(bloom_hll_estimate(st->hll, SKIP_STAT_BITS), *keys_per_range);
	*ranges_per_key = Min(Max(st->keys / distinct, 1.0), (double) st->ranges);
	return true;
}
