/*-------------------------------------------------------------------------
 *
 * scalable_stages.h
 *	  The sub-filters of a scalable filter (scalable_stages.c): growing,
 *	  adding to and probing them, for the scalable_bloom type.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_SCALABLE_STAGES_H
#define BLOOMSET_SCALABLE_STAGES_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "../core/scalable_format.h"

/*
 * The sub-filters of a scalable filter as probes and adds use them:
 * pointers to each, oldest first, found once for a batch of hashes (the
 * chain is walked header by header).
 */
typedef struct ScalableStages
{
	int			n;
	BloomFilter *sub[SCALABLE_MAX_SUB];
} ScalableStages;

extern void scalable_sub_target(const ScalableFilter *f, int i, double *capacity,
								double *fpr);
extern ScalableFilter *scalable_append(const ScalableFilter *old, MemoryContext cxt);
extern ScalableFilter *scalable_new(uint64 capacity, double fpr, uint32 growth,
									MemoryContext cxt);
extern bool scalable_stages_test(const ScalableStages *st, uint64 h);
extern const ScalableStages *scalable_probe_stages(FunctionCallInfo fcinfo,
												   const ScalableFilter *f,
												   ScalableStages *local);
extern void scalable_add_batch(ScalableFilter **pf, const uint64 *h, int n,
							   MemoryContext cxt);
extern void scalable_add_hash(ScalableFilter **pf, uint64 h, MemoryContext cxt);
extern void scalable_adopt(ScalableFilter *f, const char *family, uint32 collfp);
extern void scalable_add_hashes(ScalableFilter **pf, const uint64 *h, int n);
extern bool scalable_test_hash(const ScalableFilter *f, uint64 h);

#endif							/* BLOOMSET_SCALABLE_STAGES_H */
