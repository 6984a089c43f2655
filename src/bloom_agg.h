/*-------------------------------------------------------------------------
 *
 * bloom_agg.h
 *	  The aggregate engine (bloom_agg.c): one state design for the value
 *	  aggregates of every kind, reached through the hooks each kind hands it,
 *	  and the set-operation aggregates.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_AGG_H
#define BLOOMSET_BLOOM_AGG_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

#include "bloom_datum.h"

/*
 * The aggregate engine (bloom_agg.c): one state design for the value
 * aggregates of every kind (bloom_agg and its n-gram, token and Parquet
 * forms, counting_bloom_agg, scalable_bloom_agg) and one machinery for the
 * set-operation aggregates.  A kind gives its hooks here; its SQL entry
 * points are thin wrappers over the bloom_agg_* and bloom_setop_* functions.
 *
 * A value-aggregate state is in one of two phases: a filter of the kind
 * being filled (through the prefetch queue), or an exact set of the
 * distinct element hashes under a header of the kind (the parameters and
 * element fields) -- automatic sizing, and scalable_bloom_agg's partial
 * states -- which turns into a filter (from_exact) at the end, or past
 * exact_max distinct hashes.
 */
typedef struct BloomAggFields
{
	char	   *family;			/* where the kind keeps them in a filter or */
	uint32	   *collfp;			/* an exact-phase header */
	uint64		seed;
	int			scheme;
} BloomAggFields;

typedef struct BloomAggKind
{
	/* the type: shared by its value and set-operation aggregates */
	const BloomKindOps *ops;	/* the kind: validation, the full-filter check */
	const char *state_msg;		/* error message of a bad serialized state */
	void	   *(*empty) (void);	/* the result over no rows */
	BloomFilter *(*portable) (void *f); /* the wire image, if not f itself */
	void	   *(*decode) (BloomFilter *wire, MemoryContext aggcxt);	/* or NULL */

	/* the value aggregate */
	const char *name;			/* for messages */
	char		tag;			/* first byte of a serialized state */
	uint32		exact_max;		/* distinct hashes the exact phase keeps */
	uint32		list_max;		/* hashes the list phase keeps; 0: no list */
	bool		counted;		/* the exact phase keeps multiplicities */
	bool		items_are_rows; /* the result counts the non-null rows */
	Size		hdr_size;		/* of an exact-phase header */
	const char *(*check_hdr) (const void *hdr); /* why it is invalid, or NULL */
	BloomAggFields (*fields) (void *f);	/* of a filter or header */
	void		(*adopted) (void *f);	/* its element fields were set; or NULL */
	void		(*prefetch) (const void *f, uint64 h);	/* or NULL */
	void		(*insert) (void **f, const uint64 *h, int n, MemoryContext cxt);
	/* an empty filter for the exact set: the result (final) or an overflow */
	void	   *(*from_exact) (const void *hdr, uint64 ndistinct, MemoryContext cxt,
							   bool final);
	void		(*merge) (void **dst, const void *src, MemoryContext cxt);
	void	   *(*result) (const void *f);	/* final of a filter; NULL: a copy */
} BloomAggKind;

/* A new state's filter, or its exact-phase header (*exact), in aggcxt. */
typedef void *(*BloomAggMake) (FunctionCallInfo fcinfo, MemoryContext aggcxt,
							   bool *exact);

typedef struct BloomAggState BloomAggState;

extern Datum bloom_agg_apply(FunctionCallInfo fcinfo, const BloomAggKind *k,
							 BloomAggMake make, const char *aggname);
extern Datum bloom_agg_finish(FunctionCallInfo fcinfo, const BloomAggKind *k);
extern Datum bloom_agg_merge_states(FunctionCallInfo fcinfo);
extern Datum bloom_agg_serialize(FunctionCallInfo fcinfo);
extern Datum bloom_agg_deserialize(FunctionCallInfo fcinfo, const BloomAggKind *k);
extern bool bloom_agg_is_partial(FunctionCallInfo fcinfo);
extern void bloom_agg_args_given(FunctionCallInfo fcinfo, int n,
								 const char *aggname, const char *what);
extern void *bloom_agg_auto_header(FunctionCallInfo fcinfo, MemoryContext aggcxt,
								   bool *exact);
extern BloomAggFields bloom_agg_filter_fields(void *f);
extern const char *bloom_agg_check_filter_hdr(const void *hdr);
extern BloomAggState *bloom_agg_auto_state(FunctionCallInfo fcinfo,
										   const char *family);
extern void bloom_agg_push(BloomAggState *st, uint64 h, bool count_item);
extern const char *bloom_agg_family(BloomAggState *st);
extern BloomFilter *bloom_empty_result(void);

/*
 * A set-operation aggregate (union or intersection) of one kind: the step
 * that merges an input or a state into the state; the rest is the kind's.
 */
typedef struct BloomSetopAgg
{
	const BloomAggKind *kind;
	void	   *(*step) (MemoryContext aggcxt, void *state, const void *in);
	bool		empty_is_null;	/* over no rows: NULL, not the kind's empty */
} BloomSetopAgg;

extern Datum bloom_setop_apply(FunctionCallInfo fcinfo, const BloomSetopAgg *k,
							   bool combine);
extern Datum bloom_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k);
extern Datum bloom_setop_serialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k);
extern Datum bloom_setop_deserialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k);

#endif							/* BLOOMSET_BLOOM_AGG_H */
