/*-------------------------------------------------------------------------
 *
 * bloom_parquet.h
 *	  Parquet filters in and out of SQL (bloom_parquet.c): the registration
 *	  of the Parquet hashing scheme, and what the aggregate engine needs to
 *	  size a filter of that scheme.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_PARQUET_H
#define BLOOMSET_BLOOM_PARQUET_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "core/bloom_core.h"

/* bloom_parquet.c: Parquet filters in and out */
extern void bloom_parquet_register(void);
extern void bloom_parquet_sized_header(BloomFilter *hdr, int64 capacity,
									   double fpr, Oid typid, Oid collation);

#endif							/* BLOOMSET_BLOOM_PARQUET_H */
