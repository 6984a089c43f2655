/*-------------------------------------------------------------------------
 *
 * bloom_lru.h
 *	  The call site's filters kept whole (bloom_lru.c), for bloom_cache.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_LRU_H
#define BLOOMSET_BLOOM_LRU_H

#include "bloom_cache_internal.h"

extern int	bloom_probe_cache_kb;

extern void *bloom_cache_lookup(BloomCallCache *cache, Datum d, BloomKind kind,
								uint8 **path);
extern void *bloom_cache_add_stored(FunctionCallInfo fcinfo, BloomCallCache *cache,
									Datum d, BloomKind kind, uint8 **path);
extern void *bloom_cache_set_const(FunctionCallInfo fcinfo, BloomCallCache *cache,
								   Datum d, BloomKind kind, uint8 **path);
extern void bloom_cache_clear(BloomCallCache *cache);

#endif							/* BLOOMSET_BLOOM_LRU_H */
