/*-------------------------------------------------------------------------
 *
 * bloom_agg_partial.h
 *	  Partial states of the aggregate engine (bloom_agg_partial.c): two
 *	  states combined, a state serialized and read back.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_AGG_PARTIAL_H
#define BLOOMSET_BLOOM_AGG_PARTIAL_H

#include "bloom_agg.h"

/* the combine, serialize and deserialize functions of the internal states */
extern Datum bloom_agg_merge_states(FunctionCallInfo fcinfo);
extern Datum bloom_agg_serialize(FunctionCallInfo fcinfo);
extern Datum bloom_agg_deserialize(FunctionCallInfo fcinfo, const BloomKindOps *k);

/*
 * For the bloom_agg_state type (bloom_agg_state.c): two states merged, and
 * the serialized form (what bloom_agg_serial and bloom_agg_deserial
 * exchange) written, read back and checked.
 */
extern BloomAggState *bloom_agg_combine_into(BloomAggState *a, BloomAggState *b,
											 MemoryContext cxt);
extern void bloom_agg_write(StringInfo buf, BloomAggState *st);
extern BloomAggState *bloom_agg_read(const char *data, int len, const BloomKindOps *k,
									 MemoryContext cxt);
extern void bloom_agg_check(const char *data, int len, MemoryContext cxt);

/* A filter of kind k from its serialized form, the rest of buf, in aggcxt. */
extern void *bloom_agg_filter_recv(const BloomKindOps *k, StringInfo buf,
								   MemoryContext aggcxt);

#endif							/* BLOOMSET_BLOOM_AGG_PARTIAL_H */
