/*-------------------------------------------------------------------------
 *
 * bloom_sliced.h
 *	  Sliced reads of filters stored out of line (bloom_sliced.c), for
 *	  bloom_cache.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_SLICED_H
#define BLOOMSET_BLOOM_SLICED_H

#include "bloom_cache_internal.h"

extern BloomSliceMemo *bloom_sliced_memo(FunctionCallInfo fcinfo, BloomCallCache *cache,
										 Datum d, BloomKind kind, bool *keep);
extern void *bloom_sliced_image(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
								BloomSliceMemo *m, BloomKind kind, bool sliced,
								uint8 **path);
extern void *bloom_sliced_parts(BloomCallCache *cache, struct varlena *attr,
								BloomSliceMemo *m, BloomFilter *f, const uint64 *h, int n);
extern void bloom_sliced_forget(BloomCallCache *cache);

#endif							/* BLOOMSET_BLOOM_SLICED_H */
