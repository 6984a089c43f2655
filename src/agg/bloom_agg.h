/*-------------------------------------------------------------------------
 *
 * bloom_agg.h
 *	  The aggregate engine (bloom_agg.c): one state design for the value
 *	  aggregates of every kind, reached through the kind's table of
 *	  operations (bloom_kind.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_AGG_H
#define BLOOMSET_BLOOM_AGG_H

#include "postgres.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "../datum/bloom_datum.h"
#include "../datum/bloom_kind.h"
#include "bloom_agg_args.h"

/*
 * The aggregate engine (bloom_agg.c): one state design for the value
 * aggregates of every kind (bloom_agg and its n-gram, token and Parquet
 * forms, counting_bloom_agg, scalable_bloom_agg).  A kind's aggregate hooks are part of its one
 * table of operations (BloomKindOps, bloom_kind.h); its SQL entry points
 * are thin wrappers over the bloom_agg_* functions.
 *
 * A value-aggregate state is in one of two phases: a filter of the kind
 * being filled (through the prefetch queue), or an exact set of the
 * distinct element hashes under a header of the kind (the parameters and
 * element fields) -- automatic sizing, and scalable_bloom_agg's partial
 * states -- which turns into a filter (from_exact) at the end, or past
 * exact_max distinct hashes.
 */

/* A new state's filter, or its exact-phase header (*exact), in aggcxt. */
typedef void *(*BloomAggMake) (FunctionCallInfo fcinfo, MemoryContext aggcxt,
							   bool *exact);

typedef struct BloomAggState BloomAggState;

extern Datum bloom_agg_apply(FunctionCallInfo fcinfo, const BloomKindOps *k,
							 BloomAggMake make, const char *aggname);
extern Datum bloom_agg_finish(FunctionCallInfo fcinfo, const BloomKindOps *k);
extern void *bloom_agg_auto_header(FunctionCallInfo fcinfo, MemoryContext aggcxt,
								   bool *exact);
extern BloomAggState *bloom_agg_auto_state(FunctionCallInfo fcinfo,
										   const char *family);
extern void bloom_agg_push(BloomAggState *st, uint64 h, bool count_item);
extern const char *bloom_agg_family(BloomAggState *st);

/*
 * The pieces of the entry points, for the aggregates whose state is the
 * bloom_agg_state type (bloom_agg_state.c) rather than `internal`: a row
 * into a state and a state's final filter (two states merged and the
 * serialized form are bloom_agg_partial.h's).
 */
extern BloomAggState *bloom_agg_step(FunctionCallInfo fcinfo, BloomAggState *st,
									 const BloomKindOps *k, BloomAggMake make,
									 const char *aggname, MemoryContext cxt);
extern Datum bloom_agg_row(FunctionCallInfo fcinfo, BloomAggState *st,
						   const BloomKindOps *k, const char *aggname);
extern void *bloom_agg_result(FunctionCallInfo fcinfo, BloomAggState *st);
extern const BloomKindOps *bloom_agg_state_kind(const BloomAggState *st);
extern BloomAggState *bloom_agg_new_state(FunctionCallInfo fcinfo, const BloomKindOps *k,
										  BloomAggMake make, MemoryContext cxt);
extern BloomAggState *bloom_agg_filter_state(const BloomKindOps *k, void *f,
											 MemoryContext cxt);
extern void *bloom_agg_state_filter(BloomAggState *st);
extern void bloom_agg_state_set_filter(BloomAggState *st, void *f);
extern void *bloom_make_sized(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact);
extern void *bloom_make_explicit(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact);

/* The per-type aggregates over bloom_agg_state (bloom_agg_state.c). */
extern Datum bloom_agg_state_apply(FunctionCallInfo fcinfo, const BloomKindOps *k,
								   BloomAggMake make, const char *aggname);
extern Datum bloom_agg_state_merge(FunctionCallInfo fcinfo, const BloomKindOps *k);
extern Datum bloom_agg_state_finish(FunctionCallInfo fcinfo, const BloomKindOps *k);
extern BloomAggState *bloom_agg_state_again(FunctionCallInfo fcinfo, const BloomKindOps *k);
extern BloomAggState *bloom_agg_state_open(FunctionCallInfo fcinfo, const BloomKindOps *k,
										   BloomAggMake make, Datum *result, bool *again);

#endif							/* BLOOMSET_BLOOM_AGG_H */
