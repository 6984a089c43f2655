/*-------------------------------------------------------------------------
 *
 * counting_agg.c
 *	  The SQL aggregates of counting_bloom: counting_bloom_agg (sized and
 *	  automatic) and counting_bloom_union_agg, over the aggregate engine and
 *	  over the bloom_agg_state type.
 *
 * These are the entry points the released SQL scripts name, each a call
 * into the engine (bloom_agg.c, bloom_setop_agg.c, bloom_agg_state.c) with
 * the kind's table; apart from the type (counting_bloom.c) because they are
 * the engine's side of the kind.  The hooks the engine calls back stay with
 * the kind table in counting_bloom.c, which this file uses, never the
 * reverse.
 *
 *-------------------------------------------------------------------------
 */
#include "counting_bloom.h"
#include "../agg/bloom_agg.h"
#include "../agg/bloom_agg_partial.h"
#include "../agg/bloom_setop_agg.h"
#include "../datum/bloom_datum.h"

/* ---- counting_bloom_agg(anyelement [, capacity, fpr]) ------------------ */

/* The filter of counting_bloom_agg(x, capacity, fpr), from the first row. */
static void *
counting_make_sized(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	bloom_agg_args_given(fcinfo, 2, "counting_bloom_agg", "capacity and false-positive rate");
	return bloom_copy_in(aggcxt, counting_new(PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3)));
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_trans);
Datum
counting_bloom_agg_trans(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &counting_bloom_ops, counting_make_sized, NULL);
}

/* counting_bloom_agg(anyelement): automatic sizing. */
PG_FUNCTION_INFO_V1(counting_bloom_agg_auto_trans);
Datum
counting_bloom_agg_auto_trans(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &counting_bloom_ops, bloom_agg_auto_header, NULL);
}

/* Final, combine, serialize and deserialize: the engine's, both forms. */
PG_FUNCTION_INFO_V1(counting_bloom_agg_final);
Datum
counting_bloom_agg_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_finish(fcinfo, &counting_bloom_ops);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_combine);
Datum
counting_bloom_agg_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_merge_states(fcinfo);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_serial);
Datum
counting_bloom_agg_serial(PG_FUNCTION_ARGS)
{
	return bloom_agg_serialize(fcinfo);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_auto_serial);
Datum
counting_bloom_agg_auto_serial(PG_FUNCTION_ARGS)
{
	return bloom_agg_serialize(fcinfo);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_deserial);
Datum
counting_bloom_agg_deserial(PG_FUNCTION_ARGS)
{
	return bloom_agg_deserialize(fcinfo, &counting_bloom_ops);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_auto_deserial);
Datum
counting_bloom_agg_auto_deserial(PG_FUNCTION_ARGS)
{
	return bloom_agg_deserialize(fcinfo, &counting_bloom_ops);
}

/*
 * counting_bloom_agg(T) and counting_bloom_agg(T, capacity, fpr) for the key
 * types with aggregates of their own (the number of arguments says which
 * form): the same states over the type bloom_agg_state (bloom_agg_state.c),
 * which a distributed engine can split.
 */
PG_FUNCTION_INFO_V1(counting_bloom_agg_state_add);
Datum
counting_bloom_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_apply(fcinfo, &counting_bloom_ops,
								 PG_NARGS() == 2 ? bloom_agg_auto_header : counting_make_sized,
								 NULL);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_state_combine);
Datum
counting_bloom_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_merge(fcinfo, &counting_bloom_ops);
}

PG_FUNCTION_INFO_V1(counting_bloom_agg_state_final);
Datum
counting_bloom_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_finish(fcinfo, &counting_bloom_ops);
}

/* ---- counting_bloom_union_agg(counting_bloom) --------------------------- */

/*
 * The step of the union aggregate (bloom_setop_agg.c runs it): counters added in
 * place (counting_merge_checked: same sizes only, as counting_bloom_union);
 * an empty state takes the input.
 */
static void *
counting_union_step(MemoryContext aggcxt, void *state, const void *in)
{
	BloomFilter *st = (BloomFilter *) state;
	const BloomFilter *f = (const BloomFilter *) in;

	if (st == NULL || (st->family[0] == '\0' && f->family[0] != '\0'))
	{
		if (st)
			pfree(st);			/* empty: the identity of union */
		return bloom_copy_in(aggcxt, f);
	}
	counting_merge_checked(st, f);
	return st;
}

static const BloomSetopAgg counting_union_setop = {&counting_bloom_ops, counting_union_step, false};

PG_FUNCTION_INFO_V1(counting_bloom_union_trans);
Datum
counting_bloom_union_trans(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &counting_union_setop, false);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_combine);
Datum
counting_bloom_union_combine(PG_FUNCTION_ARGS)
{
	return bloom_setop_apply(fcinfo, &counting_union_setop, true);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_final);
Datum
counting_bloom_union_final(PG_FUNCTION_ARGS)
{
	return bloom_setop_finish(fcinfo, &counting_union_setop);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_serial);
Datum
counting_bloom_union_serial(PG_FUNCTION_ARGS)
{
	return bloom_setop_serialize(fcinfo, &counting_union_setop);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_deserial);
Datum
counting_bloom_union_deserial(PG_FUNCTION_ARGS)
{
	return bloom_setop_deserialize(fcinfo, &counting_union_setop);
}

/*
 * counting_bloom_union_agg and bloom_union_agg(counting_bloom) over the bloom_agg_state type
 * (bloom_agg_state.c), which Citus splits: transition, combine and final.
 */
PG_FUNCTION_INFO_V1(counting_bloom_union_agg_state_add);
Datum
counting_bloom_union_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &counting_union_setop, false);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_agg_state_combine);
Datum
counting_bloom_union_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &counting_union_setop, true);
}

PG_FUNCTION_INFO_V1(counting_bloom_union_agg_state_final);
Datum
counting_bloom_union_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop_finish(fcinfo, &counting_union_setop);
}
