/*-------------------------------------------------------------------------
 *
 * bloom_planner.c
 *	  Selectivity of a probe, for the planner: one estimate, used both by
 *	  the support function of the contains functions (bloom_contains(f, x)
 *	  in a WHERE clause) and by the restriction and join estimators of the
 *	  @> operators, so the function and the operator plan alike.
 *
 * With a constant filter f and a column x the planner has statistics for:
 * the filter holds about n = estimated_card(f) distinct values and answers
 * "maybe" for a value outside it with probability p = estimated_fpr(f).
 * Every kind has both (its stats operation, bloom_kind.h): a counting
 * filter from its non-zero counters, a scalable one summed over its
 * sub-filters (any of which may answer "maybe"), so bloom_contains on any
 * kind -- under the shared name or the kind's prefixed one -- and its @>
 * plan alike.
 * If the column has D distinct values (pg_stats n_distinct) and the
 * filter's values are drawn from them, a fraction min(1, n / D) of the
 * column's distinct values is in the set, so
 *
 *	   selectivity = (1 - nullfrac) * (in + (1 - in) * p),  in = min(1, n / D)
 *
 * (NULLs never match: the functions are strict).  The model assumes the
 * filter's values are drawn from the column's; a filter of other values
 * (keys that are new to the table) makes it an overestimate.  Without a
 * constant filter (a join, a parameter) or without statistics the estimate
 * is BLOOM_DEFAULT_SELECTIVITY: a filter of one chunk among ten, say.
 *
 *-------------------------------------------------------------------------
 */
#include "../datum/bloom_datum.h"
#include "../datum/bloom_kind.h"

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/selfuncs.h"

/* selectivity when the filter or the column's statistics are unknown */
#define BLOOM_DEFAULT_SELECTIVITY	0.1

/*
 * (estimated distinct items, current false-positive rate) of a constant
 * filter datum of any kind, or false if it is not one this build can read
 * (the planner must not fail on it: the executor reports the problem).
 * The layout byte names the kind (bloom_kind_of); the kind's validator
 * checks the rest before its stats read anything else.
 */
static bool
bloom_const_stats(Const *c, double *items, double *fpr)
{
	struct varlena *v;
	const BloomKindOps *ops;
	bool		ok = false;

	if (c->constisnull)
		return false;
	v = PG_DETOAST_DATUM(c->constvalue);
	if (VARSIZE(v) > offsetof(BloomFilter, layout) &&
		(ops = bloom_kind_of((const BloomFilter *) v)) != NULL &&
		ops->reason(v, VARSIZE(v)) == NULL)
	{
		ops->stats(v, items, fpr);
		ok = true;
	}
	if ((Pointer) v != DatumGetPointer(c->constvalue))
		pfree(v);
	return ok;
}

/*
 * The selectivity of probe(filter, value) for args = (filter, value) in a
 * restriction on relation varRelid (see the file header).
 */
static Selectivity
bloom_probe_selectivity(PlannerInfo *root, List *args, int varRelid)
{
	Node	   *fnode,
			   *vnode;
	VariableStatData vardata;
	double		items,
				fpr,
				ndistinct,
				nullfrac = 0.0,
				in;
	bool		isdefault;
	Selectivity sel = BLOOM_DEFAULT_SELECTIVITY;

	if (list_length(args) != 2)
		return sel;
	fnode = estimate_expression_value(root, (Node *) linitial(args));
	vnode = (Node *) lsecond(args);
	if (!IsA(fnode, Const) || !bloom_const_stats((Const *) fnode, &items, &fpr))
		return sel;
	examine_variable(root, vnode, varRelid, &vardata);
	ndistinct = get_variable_numdistinct(&vardata, &isdefault);
	if (HeapTupleIsValid(vardata.statsTuple))
		nullfrac = ((Form_pg_statistic) GETSTRUCT(vardata.statsTuple))->stanullfrac;
	ReleaseVariableStats(vardata);
	if (isdefault || ndistinct <= 0)
		return sel;
	in = Min(1.0, items / ndistinct);
	sel = (1.0 - nullfrac) * (in + (1.0 - in) * fpr);
	CLAMP_PROBABILITY(sel);
	return sel;
}

/*
 * bloom_contains_support(internal) -> internal: planner support of the
 * contains functions (selectivity, as the @> operators estimate it).
 */
PG_FUNCTION_INFO_V1(bloom_contains_support);
Datum
bloom_contains_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;

		req->selectivity = req->is_join ? BLOOM_DEFAULT_SELECTIVITY
			: bloom_probe_selectivity(req->root, req->args, req->varRelid);
		PG_RETURN_POINTER(req);
	}
	PG_RETURN_POINTER(NULL);
}

/*
 * bloom_contains_restrict(internal, oid, internal, integer) -> float8: the
 * restriction estimator of the @> operators.
 */
PG_FUNCTION_INFO_V1(bloom_contains_restrict);
Datum
bloom_contains_restrict(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);

	PG_RETURN_FLOAT8(bloom_probe_selectivity(root, args, varRelid));
}

/*
 * bloom_contains_joinsel(internal, oid, internal, smallint, internal) ->
 * float8: the join estimator of the @> operators (the default, as the
 * support function gives for a join).
 */
PG_FUNCTION_INFO_V1(bloom_contains_joinsel);
Datum
bloom_contains_joinsel(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(BLOOM_DEFAULT_SELECTIVITY);
}
