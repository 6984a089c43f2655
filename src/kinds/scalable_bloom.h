/*-------------------------------------------------------------------------
 *
 * scalable_bloom.h
 *	  The scalable_bloom type (scalable_bloom.c): what other modules call.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_SCALABLE_BLOOM_H
#define BLOOMSET_SCALABLE_BLOOM_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "../datum/bloom_kind.h"
#include "../core/scalable_format.h"

/* defaults of scalable_bloom_agg(x) and scalable_bloom_empty() */
#define SCALABLE_DEFAULT_CAPACITY	1000
#define SCALABLE_DEFAULT_FPR		0.01
#define SCALABLE_DEFAULT_GROWTH		2

extern void scalable_check_full(const ScalableFilter *f, FunctionCallInfo fcinfo);
/* for scalable_agg.c */
extern ScalableFilter *scalable_from_args(int64 capacity, double fpr, int64 growth,
										  MemoryContext cxt);
extern ScalableFilter *scalable_merge(const ScalableFilter *a, const ScalableFilter *b,
									  MemoryContext cxt);

/* the operations of the scalable kind (registered at module load) */
extern const BloomKindOps scalable_bloom_ops;

#endif							/* BLOOMSET_SCALABLE_BLOOM_H */
