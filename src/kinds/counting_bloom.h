/*-------------------------------------------------------------------------
 *
 * counting_bloom.h
 *	  The counting_bloom type (counting_bloom.c): what other modules call.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_COUNTING_BLOOM_H
#define BLOOMSET_COUNTING_BLOOM_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "../datum/bloom_kind.h"
#include "../core/bloom_core.h"

extern void counting_check_full(const BloomFilter *c, FunctionCallInfo fcinfo);
/* for counting_agg.c */
extern BloomFilter *counting_new(int64 capacity, double fpr);
extern void counting_merge_checked(BloomFilter *dst, const BloomFilter *src);

/* the operations of the counting kind (registered at module load) */
extern const BloomKindOps counting_bloom_ops;

#endif							/* BLOOMSET_COUNTING_BLOOM_H */
