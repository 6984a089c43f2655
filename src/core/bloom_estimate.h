/*-------------------------------------------------------------------------
 *
 * bloom_estimate.h
 *	  Estimates (bloom_estimate.c): distinct items, pair cardinalities, the
 *	  current, model and target rates.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_ESTIMATE_H
#define BLOOM_ESTIMATE_H

#include "bloom_format.h"

extern double bloom_estimate_items(const BloomFilter *f, uint64_t bits_set);
extern double bloom_estimate_distinct(const BloomFilter *f);

/*
 * bloom_estimate_distinct looks for the factors a union across sizes
 * unfolded a filter by among the divisors of its size in units: at most
 * this many of them (a power-of-two size has at most 25; the most divisible
 * explicit sizes have up to 1,344, whose largest are then not tried), and
 * at most BLOOM_UNFOLD_MAX_TRIES passes over the bits, so an estimate
 * reads a filter a bounded number of times.
 */
#define BLOOM_UNFOLD_MAX_DIVISORS	1024
#define BLOOM_UNFOLD_MAX_TRIES		64

/* Estimated cardinalities of two filters and of their union and intersection. */
typedef struct BloomPairCard
{
	double		a;				/* |A| */
	double		b;				/* |B| */
	double		uni;			/* |A ∪ B| */
	double		inter;			/* |A ∩ B| */
} BloomPairCard;

extern BloomPairCard bloom_estimate_pair(const BloomFilter *a, const BloomFilter *b,
										 const BloomFilter *u);
extern double bloom_current_fpr(const BloomFilter *f);
extern double bloom_model_fpr(const BloomFilter *f, double n);
extern void bloom_set_target_fpr(BloomFilter *f, double fpr);
extern double bloom_target_fpr(const BloomFilter *f);
extern uint32_t bloom_combined_flags(const BloomFilter *a, const BloomFilter *b);

#endif							/* BLOOM_ESTIMATE_H */
