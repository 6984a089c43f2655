/*-------------------------------------------------------------------------
 *
 * bloom_setops.h
 *	  The operations on whole bloom filters (bloom_setops.c): union and
 *	  intersection, and folding, for the pair estimates and the set-operation
 *	  aggregates.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_SETOPS_H
#define BLOOMSET_BLOOM_SETOPS_H

#include "postgres.h"

#include "../core/bloom_core.h"

extern BloomFilter *bloom_combine(const BloomFilter *a, const BloomFilter *b,
								  bool is_union);
extern uint32 bloom_result_flags(const BloomFilter *a, const BloomFilter *b);
extern bool bloom_differ_in_size_only(const BloomFilter *a, const BloomFilter *b);
extern BloomFilter *bloom_folded(const BloomFilter *f, uint64 factor);

#endif							/* BLOOMSET_BLOOM_SETOPS_H */
