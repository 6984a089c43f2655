/*-------------------------------------------------------------------------
 *
 * bloom_sizing.h
 *	  Sizing (bloom_sizing.c): the layout, bits and hashes for a capacity and
 *	  a rate, the model false-positive rates, the smallest rate a layout
 *	  reaches.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_SIZING_H
#define BLOOM_SIZING_H

#include "bloom_format.h"

/* below this rate the blocked layout pays > 20 % more space than classic
 * (1.18x at 0.1 %, 1.37x at 0.01 %), so classic is chosen */
#define BLOOM_BLOCKED_MIN_FPR	5e-4

/*
 * Result of bloom_size_for.  Three outcomes:
 *	 - nbits > 0: a filter of nbits bits whose model rate at capacity items
 *	   is expected_fpr (at most the request, up to the rounding of k);
 *	 - unreachable != NULL (nbits = 0): the rate is below what the layout's
 *	   hash limit (classic: at most BLOOM_MAX_HASHES, blocked: exactly 8) can
 *	   reach for capacity items within BLOOM_MAX_BITS, although an ideal
 *	   filter (any number of hashes) would fit; min_fpr is then the smallest
 *	   rate the layout reaches for that capacity.  An invalid parameter
 *	   (SQLSTATE 22023), not a size limit;
 *	 - otherwise nbits = 0: the filter would exceed BLOOM_MAX_BITS even with
 *	   the ideal number of hashes (needed_bits says how many it needs): the
 *	   program limit (SQLSTATE 54000).
 */
typedef struct BloomSizing
{
	int			layout;
	int			nhashes;
	uint64_t	nbits;			/* 0 if no filter within BLOOM_MAX_BITS */
	double		needed_bits;	/* before the limit and rounding */
	double		expected_fpr;	/* model rate at the requested capacity */
	const char *unreachable;	/* NULL, or why the rate cannot be reached */
	double		min_fpr;		/* with unreachable: smallest reachable rate */
} BloomSizing;

extern const char *bloom_check_sizing_args(int64_t capacity, double fpr);
extern BloomSizing bloom_size_for(int64_t capacity, double fpr, int layout,
								  bool pow2);
extern double bloom_min_reachable_fpr(int64_t capacity, int layout);
extern double bloom_blocked_fpr(double items_per_block);
extern double bloom_classic_fpr(double n, double m, int k);
extern int	bloom_choose_layout(double fpr);
extern int	bloom_choose_counting_layout(int64_t capacity, double fpr);

#endif							/* BLOOM_SIZING_H */
