/*-------------------------------------------------------------------------
 *
 * bloom_type.h
 *	  The bloom type (bloom_type.c): the probe other modules run, sizing,
 *	  and the full-filter check every kind reports through.  The set
 *	  operations are in bloom_setops.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_TYPE_H
#define BLOOMSET_BLOOM_TYPE_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "../core/bloom_core.h"
#include "../datum/bloom_kind.h"

/* the probe and sizing of the bloom type */
extern BloomFilter *bloom_contains_hash(FunctionCallInfo fcinfo, uint64 *h);
extern uint64 bloom_key_pick(const BloomFilter *f, const uint64 *h, int n);
extern PGDLLEXPORT Datum bloom_contains(PG_FUNCTION_ARGS);
extern BloomSizing bloom_sizing_checked(int64 capacity, double fpr, int layout,
									   bool pow2);
extern int	bloom_counting_layout_for(int64 capacity, double fpr);
extern void bloom_warn_saturated(const BloomFilter *f, uint64 bits_set,
								 double estimate);
extern void bloom_sized_header(BloomFilter *hdr, int64 capacity, double fpr,
							   bool pow2);
extern void bloom_explicit_header(BloomFilter *hdr, int32 size_bytes,
								  int32 nhashes, int64 seed);

/*
 * bloomset.full_filter (bloom_module.c): what bloom_check_full does when a
 * filter a call returns is estimated at more than BLOOM_FULL_FACTOR times
 * its target rate.
 */
typedef enum BloomFullAction
{
	BLOOM_FULL_OFF,
	BLOOM_FULL_WARNING,
	BLOOM_FULL_ERROR
} BloomFullAction;
extern int	bloom_full_filter_action;

/*
 * How far above its target a returned filter's estimated rate may go before
 * the full-filter check reports it, for every kind and path.  A filter used
 * within its capacity stays at or below its target (sizing rounds up, and
 * the estimate's spread at capacity is a few percent), far from 1.5 times
 * it; at 2 a union of filters each sized for part of the data could answer
 * "maybe" two thirds more often than promised and say nothing.
 */
#define BLOOM_FULL_FACTOR		1.5
extern uint64 bloom_statement_id;
extern bool bloom_full_check_wanted(void);
extern void bloom_full_report(FunctionCallInfo fcinfo, const char *what_kind,
							  double rate, double target, const char *detail);
extern void bloom_check_full(const BloomFilter *f, FunctionCallInfo fcinfo);

/*
 * the operations of the bloom kind (registered at module load; also the
 * aggregate engine's hooks of bloom_agg, bloom_parquet_agg and the n-gram
 * and token aggregates), and the exact-phase header check it shares with
 * counting_bloom
 */
extern const BloomKindOps bloom_plain_ops;
extern const char *bloom_check_exact_hdr(const void *hdr);

#endif							/* BLOOMSET_BLOOM_TYPE_H */
