/*-------------------------------------------------------------------------
 *
 * bloom_algebra.h
 *	  Set algebra and resizing (bloom_algebra.c): which filters combine,
 *	  folding and unfolding.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_ALGEBRA_H
#define BLOOM_ALGEBRA_H

#include "bloom_format.h"

extern bool bloom_check_compatible(const BloomFilter *a,
								   const BloomFilter *b,
								   char *detail, size_t detail_len);
extern bool bloom_sizes_combinable(uint64_t a, uint64_t b, uint64_t unit);
extern void bloom_resize_into(const BloomFilter *src, BloomFilter *dst);
extern uint64_t bloom_unit_bits(const BloomFilter *f);

#endif							/* BLOOM_ALGEBRA_H */
