/*-------------------------------------------------------------------------
 *
 * bloom_cache.h
 *	  How probes read the filters they are given (bloom_cache.c, over
 *	  bloom_lru.c and bloom_sliced.c): the per-call-site cache of type
 *	  information and detoasted filters, and sliced reads of stored filters.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_CACHE_H
#define BLOOMSET_BLOOM_CACHE_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_convert.h"

/*
 * bloom_cache.c: the per-call-site cache (fn_extra) and how probes read
 * stored filters.  A probe gets its filter from bloom_call_probe or
 * bloom_call_probe_filter -- possibly a sliced image holding only the
 * header of a value stored out of line -- hashes its keys with the header's
 * seed, and passes the hashes to bloom_call_parts, which returns the filter
 * to test them against (the image with their parts read).
 */
extern bool bloom_sliced_reads;
extern BloomTypeInfo *bloom_call_typeinfo(FunctionCallInfo fcinfo, int argno);
extern BloomTypeInfo *bloom_call_elem_typeinfo(FunctionCallInfo fcinfo,
											   Oid elemtype);
extern void *bloom_call_filter(FunctionCallInfo fcinfo, int argno,
							   BloomKind kind);
extern void *bloom_call_probe_filter(FunctionCallInfo fcinfo, int argno,
									 BloomKind kind);
extern void *bloom_call_probe(FunctionCallInfo fcinfo, BloomKind kind,
							  BloomTypeInfo **ti, Datum *value);
extern void *bloom_call_parts(FunctionCallInfo fcinfo, void *f,
							  const uint64 *h, int n);
extern BloomTypeInfo *bloom_call_value(FunctionCallInfo fcinfo, int argno,
									   char *family, uint32 *collfp,
									   int scheme, Datum *value);
extern BloomConversion *bloom_call_elements(FunctionCallInfo fcinfo, Oid elemtype,
											char *family, uint32 *collfp,
											int scheme, bool adopt,
											BloomTypeInfo **ti);

extern bool bloom_call_stable(FunctionCallInfo fcinfo, const void *f);
extern void **bloom_call_memo(FunctionCallInfo fcinfo, const void *f);

#endif							/* BLOOMSET_BLOOM_CACHE_H */
