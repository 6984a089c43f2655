/*-------------------------------------------------------------------------
 *
 * bloom_setop_agg.c
 *	  The set-operation aggregates of every kind (bloom_union_agg,
 *	  bloom_intersect_agg, counting_bloom_union_agg,
 *	  scalable_bloom_union_agg): the state is the result so far, a filter,
 *	  into which the kind's step merges each input.  The internal-state
 *	  entry points are here; those over bloom_agg_state (bloom_agg_state.c)
 *	  run the same step and the same result (bloom_setop_result).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_setop_agg.h"
#include "bloom_agg.h"
#include "bloom_agg_partial.h"
#include "../datum/bloom_datum.h"
#include "../bloom/bloom_type.h"
#include "../bloom/bloom_setops.h"

#include "utils/memutils.h"

/* ---- bloom_union_agg / bloom_intersect_agg ----------------------------- */

/*
 * State: a filter in the aggregate context (NULL before the first non-null
 * input).  Same-size inputs are OR-ed/AND-ed in place; other sizes go
 * through bloom_combine (unfolding), which also reports mismatches.
 */
static BloomFilter *
bloom_setop_step(MemoryContext aggcxt, BloomFilter *state,
				 const BloomFilter *in, bool is_union)
{
	MemoryContext old;
	BloomFilter *r;
	char		detail[256];

	if (state == NULL)
	{
		return bloom_copy_in(aggcxt, in);
	}
	if (state->nbits == in->nbits && in->family[0] && state->family[0] &&
		bloom_check_compatible(state, in, detail, sizeof(detail)))
	{
		if (is_union)
		{
			bloom_or_words(state->words, in->words, BLOOM_NWORDS(state));
			bloom_add_items(state, in->nitems);
		}
		else
		{
			bloom_and_words(state->words, in->words, BLOOM_NWORDS(state));
			state->nitems = Min(state->nitems, in->nitems);
		}
		state->flags = bloom_result_flags(state, in);
		return state;
	}
	old = MemoryContextSwitchTo(aggcxt);
	r = bloom_combine(state, in, is_union);
	MemoryContextSwitchTo(old);
	pfree(state);
	return r;
}

/* The steps of bloom_union_agg and bloom_intersect_agg. */
static void *
bloom_union_step(MemoryContext aggcxt, void *state, const void *in)
{
	return bloom_setop_step(aggcxt, (BloomFilter *) state, (const BloomFilter *) in, true);
}

static void *
bloom_intersect_step(MemoryContext aggcxt, void *state, const void *in)
{
	return bloom_setop_step(aggcxt, (BloomFilter *) state, (const BloomFilter *) in, false);
}

const BloomSetopAgg bloom_union_setop = {&bloom_plain_ops, bloom_union_step, false};

/* intersection over no rows is NULL (the intersection of nothing cannot be represented) */
const BloomSetopAgg bloom_intersect_setop = {&bloom_plain_ops, bloom_intersect_step, true};

/*
 * The machinery of the set-operation aggregates of every kind
 * (bloom_union_agg, bloom_intersect_agg, counting_bloom_union_agg,
 * scalable_bloom_union_agg): the state is the result so far, a filter in
 * the aggregate context, NULL before the first non-null input; the kind's
 * step merges an input or another state into it.  Transition (combine =
 * false: argument 1 is a filter datum) or combine (argument 1 is a state).
 */
Datum
bloom_setop_apply(FunctionCallInfo fcinfo, const BloomSetopAgg *k, bool combine)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	void	   *state = PG_ARGISNULL(0) ? NULL : PG_GETARG_POINTER(0);
	const void *in;

	if (PG_ARGISNULL(1))
	{
		if (state == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(state);
	}
	in = combine ? PG_GETARG_POINTER(1) : bloom_from_datum_kind(PG_GETARG_DATUM(1), k->ops->kind);
	PG_RETURN_POINTER(k->step(aggcxt, state, in));
}

/*
 * The result of set-operation aggregate k whose state's filter is f (NULL:
 * no rows), for both state types: a copy (the final function must not
 * change the state), checked for fullness; over no rows, the kind's empty
 * filter, or NULL (*isnull).
 */
void *
bloom_setop_result(FunctionCallInfo fcinfo, const BloomSetopAgg *k, const void *f,
				   bool *isnull)
{
	void	   *r;

	*isnull = false;
	if (f == NULL)
	{
		*isnull = k->empty_is_null;
		return k->empty_is_null ? NULL : k->ops->empty();
	}
	r = bloom_copy((const BloomFilter *) f);
	k->ops->check_full(r, fcinfo);
	return r;
}

/* The final function of set-operation aggregate k over an internal state. */
Datum
bloom_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	bool		isnull;
	void	   *f;

	bloom_agg_context(fcinfo);
	f = bloom_setop_result(fcinfo, k, PG_ARGISNULL(0) ? NULL : PG_GETARG_POINTER(0), &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(f);
}

/* Serialize: the filter's binary form (the kind's portable image). */
Datum
bloom_setop_serialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	void	   *f = PG_GETARG_POINTER(0);

	bloom_agg_context(fcinfo);
	PG_RETURN_BYTEA_P(bloom_wire_bytea(k->ops->portable ? k->ops->portable(f) : (BloomFilter *) f));
}

/* Deserialize: validated like the kind's binary input. */
Datum
bloom_setop_deserialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	StringInfoData buf;

	buf.data = VARDATA_ANY(b);
	buf.len = VARSIZE_ANY_EXHDR(b);
	buf.cursor = 0;
	PG_RETURN_POINTER(bloom_agg_filter_recv(k->ops, &buf, aggcxt));
}

PG_FUNCTION_INFO_V1(bloom_union_trans);
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_union_setop, false);
}

PG_FUNCTION_INFO_V1(bloom_intersect_trans);
Datum
bloom_intersect_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_intersect_setop, false);
}

/*
 * Final functions: union over no rows gives an empty filter (so NOT
 * bloom_contains stays correct); intersection over no rows is NULL.
 */
PG_FUNCTION_INFO_V1(bloom_union_final);
Datum
bloom_union_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &bloom_union_setop);
}

PG_FUNCTION_INFO_V1(bloom_intersect_final);
Datum
bloom_intersect_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &bloom_intersect_setop);
}

PG_FUNCTION_INFO_V1(bloom_union_combine);
Datum
bloom_union_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_union_setop, true);
}

PG_FUNCTION_INFO_V1(bloom_intersect_combine);
Datum
bloom_intersect_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &bloom_intersect_setop, true);
}

/* Serialize (both aggregates): the filter's send form. */
PG_FUNCTION_INFO_V1(bloom_setop_serial);
Datum
bloom_setop_serial(PG_FUNCTION_ARGS)
{
	return bloom_setop_serialize(fcinfo, &bloom_union_setop);
}

/* Deserialize (both aggregates): validated like bloom_recv. */
PG_FUNCTION_INFO_V1(bloom_setop_deserial);
Datum
bloom_setop_deserial(PG_FUNCTION_ARGS)
{
	return bloom_setop_deserialize(fcinfo, &bloom_union_setop);
}
