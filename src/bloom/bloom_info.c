/*-------------------------------------------------------------------------
 *
 * bloom_info.c
 *	  Introspection of the bloom type: bloom_info, bloom_estimate_card and
 *	  bloom_params, what a user reads about a filter or a sizing.  Apart
 *	  from bloom_type.c because nothing calls them but SQL; they read
 *	  filters and sizings through it and never change one.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_type.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_family.h"
#include "../datum/bloom_hash.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

/*
 * bloom_estimate_card(bloom) -> float8: distinct items, from the fill at
 * the size the bits are independent at (bloom_estimate_distinct).
 */
PG_FUNCTION_INFO_V1(bloom_estimate_card);
Datum
bloom_estimate_card(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	double		card = bloom_estimate_distinct(f);

	bloom_warn_saturated(f, bloom_popcount(f), card);
	PG_RETURN_FLOAT8(card);
}

/*
 * Build a composite result from values and nulls (NULL: none is null).  The
 * arrays may be longer than the declared row type: bloom_info as declared
 * by the 1.0 script, before ALTER EXTENSION UPDATE, has fewer columns, and
 * gets the first ones.
 */
static Datum
bloom_make_record(FunctionCallInfo fcinfo, Datum *values, bool *nulls)
{
	TupleDesc	tupdesc;
	bool		none[16] = {false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	Assert(tupdesc->natts <= 16);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls ? nulls : none));
}

/* bloom_info(bloom) -> record describing the filter. */
PG_FUNCTION_INFO_V1(bloom_info);
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	uint64		set = bloom_popcount(f);
	double		target = bloom_target_fpr(f);
	Datum		v[14];
	bool		nulls[14] = {false};

	v[0] = CStringGetTextDatum(bloom_layout_name(f->layout));
	v[1] = Int64GetDatum((int64) f->nbits);
	v[2] = Int64GetDatum((int64) VARSIZE(f));
	v[3] = Int32GetDatum(f->nhashes);
	v[4] = Int64GetDatum((int64) f->seed);
	v[5] = Int64GetDatum(f->nitems > PG_INT64_MAX ? PG_INT64_MAX : (int64) f->nitems);
	v[6] = Int64GetDatum((int64) set);
	v[7] = Float8GetDatum((double) set / (double) f->nbits);
	v[8] = Float8GetDatum(bloom_estimate_distinct(f));
	v[9] = Float8GetDatum(bloom_current_fpr(f));
	v[10] = CStringGetTextDatum(f->family);
	v[11] = Int32GetDatum(f->version);
	v[12] = Float8GetDatum(target);
	nulls[12] = target == 0.0;
	v[13] = f->collfp ? CStringGetTextDatum(bloom_collation_name(f->collfp)) : (Datum) 0;
	nulls[13] = f->collfp == 0;
	PG_RETURN_DATUM(bloom_make_record(fcinfo, v, nulls));
}

/*
 * bloom_params(capacity bigint, fpr float8 [, layout text]) -> record: the
 * sizing bloom_empty/bloom_agg would choose (layout NULL = automatic).
 */
PG_FUNCTION_INFO_V1(bloom_params);
Datum
bloom_params(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	int			layout;
	BloomSizing s;
	Datum		v[6];

	layout = bloom_choose_layout(fpr);
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(2));

		layout = bloom_layout_from_name(name);
		/* "counting" is the counting filter this database builds */
		if (layout == BLOOM_LAYOUT_COUNTING)
			layout = bloom_counting_layout_for(capacity, fpr);
		if (layout != BLOOM_LAYOUT_CLASSIC && layout != BLOOM_LAYOUT_BLOCKED &&
			!bloom_layout_is_counting(layout))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("bloom_params cannot size layout \"%s\"", name),
					 errdetail("It sizes the layouts \"blocked\", \"classic\", \"counting\" and \"blockcounting\"."),
					 errhint("A scalable filter grows by itself: use scalable_bloom_info() to see its sub-filters.")));
	}
	s = bloom_sizing_checked(capacity, fpr, layout, false);
	v[0] = CStringGetTextDatum(bloom_layout_name(s.layout));
	v[1] = Int64GetDatum((int64) s.nbits);
	v[2] = Int64GetDatum((int64) BLOOM_TOTAL_SIZE(s.nbits));
	v[3] = Int32GetDatum(s.nhashes);
	v[4] = Float8GetDatum(s.expected_fpr);
	v[5] = Float8GetDatum((double) s.nbits / (double) capacity);
	PG_RETURN_DATUM(bloom_make_record(fcinfo, v, NULL));
}
