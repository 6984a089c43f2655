/*-------------------------------------------------------------------------
 *
 * bloom_agg_args.h
 *	  The arguments of an aggregate call (bloom_agg_args.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_AGG_ARGS_H
#define BLOOMSET_BLOOM_AGG_ARGS_H

#include "postgres.h"
#include "fmgr.h"

#include "../datum/bloom_hash.h"

/*
 * The sizing arguments of an aggregate call (capacity and rate, or size,
 * hashes and seed), as the first row gave them.
 */
#define BLOOM_AGG_MAX_ARGS	3
typedef struct BloomAggArgs
{
	int			n;				/* 0 until the first row */
	Oid			types[BLOOM_AGG_MAX_ARGS];
	int64		bits[BLOOM_AGG_MAX_ARGS];
	Datum		datums[BLOOM_AGG_MAX_ARGS]; /* as passed: a row's quick check */
	bool		quick;			/* datums are set and all by value */
} BloomAggArgs;

/* The value argument's hash information, set up by the first non-null row. */
typedef struct BloomAggValue
{
	bool		valid;
	BloomTypeInfo ti;
} BloomAggValue;

extern Oid	bloom_agg_argtype(FunctionCallInfo fcinfo, int i);
extern Oid	bloom_agg_collation(FunctionCallInfo fcinfo, Oid typid);
extern void bloom_agg_first_value(FunctionCallInfo fcinfo, BloomAggValue *v, char *family,
								  uint32 *collfp, MemoryContext cxt);
extern void bloom_args_differ(const char *aggname, const char *detail);
extern void bloom_agg_same_args(BloomAggArgs *a, FunctionCallInfo fcinfo, int first,
								const char *aggname);
extern bool bloom_args_equal(const BloomAggArgs *a, const BloomAggArgs *b);
extern bool bloom_agg_is_partial(FunctionCallInfo fcinfo);
extern void bloom_agg_args_given(FunctionCallInfo fcinfo, int n,
								 const char *aggname, const char *what);

/*
 * Are the sizing arguments first.. of this row, non-null, passed as the
 * same by-value datums as the first row's (recorded in a)?  Then they are
 * the same values; any other row, and every row of a state read from its
 * serialized form (no datums), is compared by value (bloom_agg_same_args).  The
 * sizing arguments are constants in nearly every call, so a row costs two
 * comparisons an argument, not a type dispatch.
 */
static inline bool
bloom_agg_args_as_first(const BloomAggArgs *a, FunctionCallInfo fcinfo, int first)
{
	if (!a->quick)
		return false;
	for (int i = 0; i < a->n; i++)
		if (PG_ARGISNULL(first + i) || PG_GETARG_DATUM(first + i) != a->datums[i])
			return false;
	return true;
}

#endif							/* BLOOMSET_BLOOM_AGG_ARGS_H */
