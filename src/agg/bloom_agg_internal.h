/*-------------------------------------------------------------------------
 *
 * bloom_agg_internal.h
 *	  The value-aggregate state as the engine's two files see it:
 *	  bloom_agg.c (rows into a state, the final filter) and
 *	  bloom_agg_partial.c (combine, serialize, deserialize).  Every other
 *	  file reaches a state through bloom_agg.h only.  (It names the struct,
 *	  not bloom_agg.h's typedef, so that it stands below bloom_agg.h.)
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_AGG_INTERNAL_H
#define BLOOMSET_BLOOM_AGG_INTERNAL_H

#include "bloom_agg_args.h"
#include "bloom_hashset.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_kind.h"


/*
 * The prefetch queue: hashes wait here a few rows while the cache lines
 * they will touch are fetched, so a filter larger than the caches costs
 * overlapping misses, not one after another.  32 rows is where a longer
 * queue stopped helping in the agg-text benchmark.
 */
#define BLOOM_QUEUE_LEN		32

typedef struct BloomHashQueue
{
	int			n;
	uint64		h[BLOOM_QUEUE_LEN];
} BloomHashQueue;


typedef enum BloomAggMode
{
	BLOOM_AGG_FILTER = 'f',		/* a filter of the kind is being filled */
	BLOOM_AGG_EXACT = 'x',		/* the exact set of the distinct hashes */
	BLOOM_AGG_LIST = 'l'		/* every hash in order (never serialized) */
} BloomAggMode;

struct BloomAggState
{
	const BloomKindOps *kind;
	BloomAggMode mode;
	void	   *filter;			/* BLOOM_AGG_FILTER: the kind's filter */
	void	   *hdr;			/* BLOOM_AGG_EXACT: the kind's header */
	BloomHashSet set;			/* BLOOM_AGG_EXACT: the distinct hashes */
	uint64	   *list;			/* BLOOM_AGG_LIST: the hashes, in order */
	uint64		nlist;
	uint64		listcap;
	BloomAggValue value;		/* the value argument's type information */
	uint64		seed;			/* how values are hashed: the filter's, fixed */
	int			scheme;			/* when the state is made */
	uint64		nadded;			/* non-null values seen */
	bool		deserialized;	/* made by deserialize: combine may keep it */
	BloomAggArgs args;			/* sizing arguments of the first row */
	uint64		keyh[BLOOM_KEY_MAX_HASHES]; /* a row's key hashes (Parquet) */
	BloomHashQueue queue;
};

/* bloom_agg.c: the state's phases, for bloom_agg_partial.c */
extern void bloom_set_into_filter(const BloomKindOps *k, const BloomHashSet *s, void **f,
								  MemoryContext cxt);
extern struct BloomAggState *bloom_state_new(MemoryContext aggcxt, const BloomKindOps *k,
											 void *f, bool exact);
extern void *bloom_state_header(struct BloomAggState *st);
extern void bloom_state_list_to_filter(struct BloomAggState *st);
extern void bloom_state_flush(struct BloomAggState *st);
extern void bloom_state_push(struct BloomAggState *st, uint64 h);

#endif							/* BLOOMSET_BLOOM_AGG_INTERNAL_H */
