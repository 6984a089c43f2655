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

struct ScalableFilter;
extern void scalable_check_full(const struct ScalableFilter *f,
								FunctionCallInfo fcinfo);
extern void scalable_add_hashes(struct ScalableFilter **pf, const uint64 *h, int n);
extern bool scalable_test_hash(const struct ScalableFilter *f, uint64 h);

/* the operations of the scalable kind (registered at module load) */
extern const BloomKindOps scalable_bloom_ops;

#endif							/* BLOOMSET_SCALABLE_BLOOM_H */
