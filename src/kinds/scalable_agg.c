/*-------------------------------------------------------------------------
 *
 * scalable_agg.c
 *	  The SQL aggregates of scalable_bloom: scalable_bloom_agg and
 *	  scalable_bloom_union_agg, over the aggregate engine and over the
 *	  bloom_agg_state type.
 *
 * These are the entry points the released SQL scripts name, each a call
 * into the engine (bloom_agg.c, bloom_setop_agg.c, bloom_agg_state.c) with
 * the kind's table; apart from the type (scalable_bloom.c) because they are
 * the engine's side of the kind.  The hooks the engine calls back stay with
 * the kind table in scalable_bloom.c, which this file uses, never the
 * reverse.
 *
 *-------------------------------------------------------------------------
 */
#include "scalable_bloom.h"
#include "../agg/bloom_agg.h"
#include "../agg/bloom_agg_partial.h"
#include "../agg/bloom_setop_agg.h"
#include "../datum/bloom_datum.h"

/* ---- scalable_bloom_agg(anyelement [, capacity, fpr]) ------------------ */

/*
 * The state of scalable_bloom_agg(x [, capacity, fpr]) (NULL sizing
 * arguments: 22004): the filter, or for a partial aggregate (one whose
 * state is combined) the exact phase under the filter's header.
 */
static void *
scalable_make_state(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	ScalableFilter *f;
	ScalableFilter *hdr;
	int64		capacity = SCALABLE_DEFAULT_CAPACITY;
	double		fpr = SCALABLE_DEFAULT_FPR;

	if (PG_NARGS() > 3)
	{
		bloom_agg_args_given(fcinfo, 2, "scalable_bloom_agg", "capacity and false-positive rate");
		capacity = PG_GETARG_INT64(2);
		fpr = PG_GETARG_FLOAT8(3);
	}
	f = scalable_from_args(capacity, fpr, SCALABLE_DEFAULT_GROWTH, aggcxt);
	*exact = bloom_agg_is_partial(fcinfo);
	if (!*exact)
		return f;
	hdr = MemoryContextAlloc(aggcxt, SCALABLE_HEADER_SIZE);
	memcpy(hdr, f, SCALABLE_HEADER_SIZE);
	SET_VARSIZE(hdr, SCALABLE_HEADER_SIZE);
	hdr->nsub = 0;
	hdr->nitems = 0;
	pfree(f);
	return hdr;
}

PG_FUNCTION_INFO_V1(scalable_bloom_agg_trans);
Datum
scalable_bloom_agg_trans(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &scalable_bloom_ops, scalable_make_state, NULL);
}

/* Final, combine, serialize and deserialize: the engine's. */
PG_FUNCTION_INFO_V1(scalable_bloom_agg_final);
Datum
scalable_bloom_agg_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_finish(fcinfo, &scalable_bloom_ops);
}

PG_FUNCTION_INFO_V1(scalable_bloom_agg_combine);
Datum
scalable_bloom_agg_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_merge_states(fcinfo);
}

PG_FUNCTION_INFO_V1(scalable_bloom_agg_serial);
Datum
scalable_bloom_agg_serial(PG_FUNCTION_ARGS)
{
	return bloom_agg_serialize(fcinfo);
}

PG_FUNCTION_INFO_V1(scalable_bloom_agg_deserial);
Datum
scalable_bloom_agg_deserial(PG_FUNCTION_ARGS)
{
	return bloom_agg_deserialize(fcinfo, &scalable_bloom_ops);
}

/* ---- scalable_bloom_union_agg(scalable_bloom) --------------------------- */

/*
 * The step of the union aggregate (bloom_setop_agg.c runs it):
 * scalable_bloom_union's sub-filter-wise OR; the final function reports a
 * union over capacity; states travel in the portable form.
 */
static void *
scalable_union_step(MemoryContext aggcxt, void *state, const void *in)
{
	ScalableFilter *r;

	if (state == NULL)
		return bloom_copy_in(aggcxt, (const BloomFilter *) in);
	r = scalable_merge((ScalableFilter *) state, (const ScalableFilter *) in, aggcxt);
	pfree(state);
	return r;
}

static const BloomSetopAgg scalable_union_setop = {&scalable_bloom_ops, scalable_union_step, false};

PG_FUNCTION_INFO_V1(scalable_bloom_union_trans);
Datum
scalable_bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &scalable_union_setop, false);
}

PG_FUNCTION_INFO_V1(scalable_bloom_union_combine);
Datum
scalable_bloom_union_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &scalable_union_setop, true);
}

PG_FUNCTION_INFO_V1(scalable_bloom_union_final);
Datum
scalable_bloom_union_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &scalable_union_setop);
}

PG_FUNCTION_INFO_V1(scalable_bloom_union_serial);
Datum
scalable_bloom_union_serial(PG_FUNCTION_ARGS)
{
	return bloom_setop_serialize(fcinfo, &scalable_union_setop);
}

PG_FUNCTION_INFO_V1(scalable_bloom_union_deserial);
Datum
scalable_bloom_union_deserial(PG_FUNCTION_ARGS)
{
	return bloom_setop_deserialize(fcinfo, &scalable_union_setop);
}

/*
 * scalable_bloom_union_agg and bloom_union_agg(scalable_bloom) over the bloom_agg_state type
 * (bloom_agg_state.c), which Citus splits: transition, combine and final.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_union_agg_state_add);
Datum
scalable_bloom_union_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &scalable_union_setop, false);
}

PG_FUNCTION_INFO_V1(scalable_bloom_union_agg_state_combine);
Datum
scalable_bloom_union_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &scalable_union_setop, true);
}

PG_FUNCTION_INFO_V1(scalable_bloom_union_agg_state_final);
Datum
scalable_bloom_union_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop_finish(fcinfo, &scalable_union_setop);
}

/*
 * scalable_bloom_agg(T) and scalable_bloom_agg(T, capacity, fpr) for the
 * key types with aggregates of their own, over the bloom_agg_state type:
 * transition, combine and final.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_agg_state_add);
Datum
scalable_bloom_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_apply(fcinfo, &scalable_bloom_ops, scalable_make_state, NULL);
}

PG_FUNCTION_INFO_V1(scalable_bloom_agg_state_combine);
Datum
scalable_bloom_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_merge(fcinfo, &scalable_bloom_ops);
}

PG_FUNCTION_INFO_V1(scalable_bloom_agg_state_final);
Datum
scalable_bloom_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_finish(fcinfo, &scalable_bloom_ops);
}
