/*-------------------------------------------------------------------------
 *
 * bloom_setop_agg.h
 *	  The set-operation aggregates of every kind (bloom_setop_agg.c; their
 *	  entry points over bloom_agg_state: bloom_agg_state.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_SETOP_AGG_H
#define BLOOMSET_BLOOM_SETOP_AGG_H

#include "postgres.h"
#include "fmgr.h"

#include "../datum/bloom_kind.h"

/*
 * A set-operation aggregate (union or intersection) of one kind: the step
 * that merges an input or a state into the state; the rest is the kind's.
 */
typedef struct BloomSetopAgg
{
	const BloomKindOps *ops;	/* the kind */
	void	   *(*step) (MemoryContext aggcxt, void *state, const void *in);
	bool		empty_is_null;	/* over no rows: NULL, not the kind's empty */
} BloomSetopAgg;

extern Datum bloom_setop_apply(FunctionCallInfo fcinfo, const BloomSetopAgg *k,
							   bool combine);
extern Datum bloom_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k);
extern void *bloom_setop_result(FunctionCallInfo fcinfo, const BloomSetopAgg *k,
								const void *f, bool *isnull);
extern Datum bloom_setop_serialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k);
extern Datum bloom_setop_deserialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k);

/* bloom_union_agg(bloom) and bloom_intersect_agg(bloom) */
extern const BloomSetopAgg bloom_union_setop;
extern const BloomSetopAgg bloom_intersect_setop;

/* The set-operation aggregates over bloom_agg_state (bloom_agg_state.c). */
extern Datum bloom_agg_state_setop(FunctionCallInfo fcinfo, const BloomSetopAgg *k,
								   bool combine);
extern Datum bloom_agg_state_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k);

#endif							/* BLOOMSET_BLOOM_SETOP_AGG_H */
