/*-------------------------------------------------------------------------
 *
 * bloom_agg_args.c
 *	  The arguments of an aggregate call: the value's type and collation
 *	  (also for calls without an expression, as Citus makes them), the
 *	  sizing arguments every row must repeat, and whether the call is a
 *	  partial aggregate.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_agg_args.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_element.h"

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/primnodes.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/*
 * The type of argument i of this call: the call's expression says it; a
 * call without one (Citus's worker_partial_agg calls the transition
 * function through fmgr alone) takes it from the function's declared
 * signature, which for the per-type entry points is the key's type.  A
 * polymorphic declaration without an expression cannot say: an error.
 */
Oid
bloom_agg_argtype(FunctionCallInfo fcinfo, int i)
{
	Oid			t = get_fn_expr_argtype(fcinfo->flinfo, i);
	HeapTuple	tup;

	if (OidIsValid(t))
		return t;
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
	if (HeapTupleIsValid(tup))
	{
		Form_pg_proc p = (Form_pg_proc) GETSTRUCT(tup);

		if (i < p->pronargs)
			t = p->proargtypes.values[i];
		ReleaseSysCache(tup);
	}
	if (!OidIsValid(t) || IsPolymorphicType(t))
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_DATATYPE),
				 errmsg("could not determine the data type of the aggregated value"),
				 errdetail("The aggregate's transition function was called without an expression, and its argument is polymorphic."),
				 errhint("Aggregate a column of a type with its own aggregate (see bloom_agg_state in the reference), or cast the value to one.")));
	return t;
}

/*
 * The collation of the value (of type typid) of this aggregate call.  Citus
 * wraps the arguments of a multi-argument aggregate in a ROW, which has no
 * collation, and calls the transition function without an expression: the
 * value is hashed under its type's default collation (what a column of that
 * type has unless declared otherwise).
 */
Oid
bloom_agg_collation(FunctionCallInfo fcinfo, Oid typid)
{
	Oid			coll = PG_GET_COLLATION();

	if (!OidIsValid(coll) && fcinfo->flinfo->fn_expr == NULL)
		coll = get_typcollation(typid);
	return coll;
}

/*
 * The hash information of the value argument (1) of this aggregate call,
 * set up on the first non-null value in v (allocated in cxt), when the
 * element family and collation are checked against, or adopted into, the
 * filter's fields (family, collfp).
 */
void
bloom_agg_first_value(FunctionCallInfo fcinfo, BloomAggValue *v, char *family,
					  uint32 *collfp, MemoryContext cxt)
{
	Oid			typid = bloom_agg_argtype(fcinfo, 1);

	bloom_typeinfo_init(&v->ti, typid, bloom_agg_collation(fcinfo, typid), cxt);
	v->valid = true;
	bloom_check_element_fields(family, collfp, &v->ti, true);
}

/* The bits of argument i of type t (int4, int8 or float8). */
static int64
bloom_arg_bits(FunctionCallInfo fcinfo, int i, Oid t)
{
	double		d;
	int64		b;

	if (t == INT4OID)
		return PG_GETARG_INT32(i);
	if (t == INT8OID)
		return PG_GETARG_INT64(i);
	d = PG_GETARG_FLOAT8(i);
	memcpy(&b, &d, sizeof(b));
	return b;
}

/* Raise the error for sizing arguments that differ from the first row's. */
void
bloom_args_differ(const char *aggname, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the sizing arguments of %s must be the same in every row", aggname),
			 errdetail("The filter is sized once, by the first row's arguments; %s.", detail),
			 errhint("Pass constants, or build one filter per size (GROUP BY the sizing arguments).")));
}

/*
 * Check that the sizing arguments first.. of this row are those of the
 * first row (recorded in a on the first call): the filter was sized by the
 * first row's, so a row asking for another size is an error, not silently
 * ignored.  NULL arguments are the caller's first-row error.
 */
void
bloom_agg_same_args(BloomAggArgs *a, FunctionCallInfo fcinfo, int first,
					const char *aggname)
{
	int			n = Min(PG_NARGS() - first, BLOOM_AGG_MAX_ARGS);

	if (a->n == 0)
	{
		a->quick = true;
		for (int i = 0; i < n; i++)
		{
			a->types[i] = bloom_agg_argtype(fcinfo, first + i);
			a->bits[i] = bloom_arg_bits(fcinfo, first + i, a->types[i]);
			a->datums[i] = PG_GETARG_DATUM(first + i);
			/* a by-reference datum (int8, float8 on 32-bit builds) is a pointer */
			a->quick &= (a->types[i] == INT4OID || FLOAT8PASSBYVAL);
		}
		a->n = n;
		return;
	}
	if (likely(bloom_agg_args_as_first(a, fcinfo, first)))
		return;
	for (int i = 0; i < a->n; i++)
		if (PG_ARGISNULL(first + i) ||
			bloom_arg_bits(fcinfo, first + i, a->types[i]) != a->bits[i])
			bloom_args_differ(aggname, psprintf("argument %d of this row differs", first + i));
}

/* Are a and b the same sizing arguments? */
bool
bloom_args_equal(const BloomAggArgs *a, const BloomAggArgs *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->types[i] != b->types[i] || a->bits[i] != b->bits[i])
			return false;
	return true;
}

/*
 * Does this aggregate call's state get combined (a partial aggregate)?  A
 * transition call without an expression is one: Citus calls the transition
 * function that way on the shards (worker_partial_agg) and combines the
 * states on the coordinator; the executor always passes the expression.
 */
bool
bloom_agg_is_partial(FunctionCallInfo fcinfo)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);

	if (fcinfo->flinfo == NULL || fcinfo->flinfo->fn_expr == NULL)
		return true;
	return aggref != NULL && DO_AGGSPLIT_SKIPFINAL(aggref->aggsplit);
}

/*
 * 22004 unless the n sizing arguments of this row (from argument 2) are
 * all given: "<aggname> <what> must not be NULL".
 */
void
bloom_agg_args_given(FunctionCallInfo fcinfo, int n, const char *aggname,
					 const char *what)
{
	for (int i = 2; i < 2 + n; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s %s must not be NULL", aggname, what)));
}
