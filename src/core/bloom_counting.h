/*-------------------------------------------------------------------------
 *
 * bloom_counting.h
 *	  The counting layouts' 4-bit counters (bloom_counting.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_COUNTING_H
#define BLOOM_COUNTING_H

#include "bloom_format.h"

extern void bloom_counting_add(BloomFilter *f, uint64_t h);
extern void bloom_counting_prefetch(const BloomFilter *f, uint64_t h);
extern bool bloom_counting_test(const BloomFilter *f, uint64_t h);
extern bool bloom_counting_remove(BloomFilter *f, uint64_t h);
extern void bloom_counting_merge(BloomFilter *dst, const BloomFilter *src);
extern void bloom_counting_to_bits(const BloomFilter *src, BloomFilter *dst);

#endif							/* BLOOM_COUNTING_H */
