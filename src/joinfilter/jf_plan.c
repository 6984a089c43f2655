/*-------------------------------------------------------------------------
 *
 * jf_plan.c
 *	  Runtime join filters in the finished plan: which hash joins get one,
 *	  where their probe goes, and the settings.
 *
 * The planner's own choice is left as it was: a planner hook takes the
 * finished plan and puts two pass-through nodes into it for each hash join
 * that qualifies -- a build node between the join's Hash and the Hash's
 * child, and a probe node above the node the join's outer keys come from,
 * found by following the keys down the join's outer side through nodes
 * that can only lose a row the join would lose too.  Costs and row counts
 * are copied from the wrapped nodes unchanged, so nothing the executor
 * decides from them (a hash join's choice to fetch an outer row before it
 * builds, say) changes.  src/joinfilter/README has the reasoning in full.
 *
 *-------------------------------------------------------------------------
 */
#include "joinfilter.h"

#include <limits.h>

#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"

int			jf_mode = JF_ON;
int			jf_min_rows = 10000;
double		jf_max_pass = 0.5;

static planner_hook_type jf_prev_planner = NULL;

static const struct config_enum_entry jf_mode_options[] = {
	{"off", JF_OFF, false},
	{"on", JF_ON, false},
	{"force", JF_FORCE, false},
	{"true", JF_ON, true},
	{"false", JF_OFF, true},
	{"yes", JF_ON, true},
	{"no", JF_OFF, true},
	{"1", JF_ON, true},
	{"0", JF_OFF, true},
	{NULL, 0, false}
};

typedef struct JfPlanContext
{
	int			next_id;		/* the next free plan_node_id */
	int			nfilters;
} JfPlanContext;

/* Where a probe goes: the plan pointer to wrap, and the keys' columns there. */
typedef struct JfSite
{
	Plan	  **slot;
	List	   *attnos;
} JfSite;

/*
 * The pointers to a plan node's children that this file may rewrite.  Other
 * extensions' custom scans are left alone: what their child plans mean is
 * theirs to say.
 */
static List *
jf_child_slots(Plan *plan)
{
	List	   *slots = NIL;
	ListCell   *lc;
	List	   *children = NIL;

	if (IsA(plan, CustomScan) && !jf_is_probe_plan(plan))
		return NIL;
	if (plan->lefttree)
		slots = lappend(slots, &plan->lefttree);
	if (plan->righttree)
		slots = lappend(slots, &plan->righttree);
	if (IsA(plan, Append))
		children = ((Append *) plan)->appendplans;
	else if (IsA(plan, MergeAppend))
		children = ((MergeAppend *) plan)->mergeplans;
	else if (IsA(plan, BitmapAnd))
		children = ((BitmapAnd *) plan)->bitmapplans;
	else if (IsA(plan, BitmapOr))
		children = ((BitmapOr *) plan)->bitmapplans;
	else if (IsA(plan, SubqueryScan))
		slots = lappend(slots, &((SubqueryScan *) plan)->subplan);
	foreach(lc, children)
		slots = lappend(slots, &lfirst(lc));
	return slots;
}

/* The largest plan_node_id in a tree, custom scans' own children included. */
static int
jf_max_node_id(Plan *plan)
{
	int			max;
	ListCell   *lc;
	List	   *slots;

	if (plan == NULL)
		return -1;
	max = plan->plan_node_id;
	slots = jf_child_slots(plan);
	foreach(lc, slots)
		max = Max(max, jf_max_node_id(*(Plan **) lfirst(lc)));
	if (IsA(plan, CustomScan))
		foreach(lc, ((CustomScan *) plan)->custom_plans)
			max = Max(max, jf_max_node_id(lfirst(lc)));
	list_free(slots);
	return max;
}

bool
jf_is_probe_plan(const Plan *plan)
{
	return IsA(plan, CustomScan) &&
		((const CustomScan *) plan)->methods == &jf_probe_plan_methods;
}

/* May a filter on this join's outer side drop rows?  Not of a preserved side. */
static bool
jf_join_type_ok(JoinType jointype)
{
	switch (jointype)
	{
		case JOIN_INNER:
		case JOIN_SEMI:
		case JOIN_RIGHT:
#if PG_VERSION_NUM >= 160000
		case JOIN_RIGHT_ANTI:
#endif
#if PG_VERSION_NUM >= 180000
		case JOIN_RIGHT_SEMI:
#endif
			return true;
		default:
			return false;
	}
}

/*
 * May a probe go below this join, on its outer side?  Each output row of an
 * inner, semi, anti or left join comes from one outer row and carries that
 * row's columns, so dropping an outer row the upper join would not match
 * drops only output rows it would not match either.  (Of a right or full
 * join, dropping an outer row can bring an inner row out unmatched.)  No
 * volatile functions: they would run fewer times.
 */
static bool
jf_passes_join(Join *join)
{
	switch (join->jointype)
	{
		case JOIN_INNER:
		case JOIN_SEMI:
		case JOIN_ANTI:
		case JOIN_LEFT:
			break;
		default:
			return false;
	}
	return !contain_volatile_functions((Node *) join->plan.targetlist) &&
		!contain_volatile_functions((Node *) join->plan.qual) &&
		!contain_volatile_functions((Node *) join->joinqual);
}

/*
 * The keys' columns in the child, where each key column of this node's
 * output is a bare column of its outer child (varno OUTER_VAR); NIL if any
 * is computed, or comes from the inner side.
 */
static List *
jf_map_attnos(List *tlist, List *attnos)
{
	List	   *mapped = NIL;
	ListCell   *lc;

	foreach(lc, attnos)
	{
		TargetEntry *tle = list_nth(tlist, intVal(lfirst(lc)) - 1);
		Var		   *var = (Var *) tle->expr;

		if (!IsA(var, Var) || var->varno != OUTER_VAR)
			return NIL;
		mapped = lappend(mapped, makeInteger(var->varattno));
	}
	return mapped;
}

/* Follow the keys down from *slot; add where the probe goes to *sites. */
static void
jf_find_sites(Plan **slot, List *attnos, List **sites)
{
	Plan	   *plan = *slot;
	List	   *next = NIL;
	JfSite	   *site;

	switch (nodeTag(plan))
	{
		case T_HashJoin:
		case T_NestLoop:
		case T_MergeJoin:
			if (jf_passes_join((Join *) plan) &&
				(next = jf_map_attnos(plan->targetlist, attnos)) != NIL)
			{
				jf_find_sites(&plan->lefttree, next, sites);
				return;
			}
			break;
		case T_Result:
			if (plan->lefttree != NULL &&
				!contain_volatile_functions((Node *) plan->targetlist) &&
				!contain_volatile_functions((Node *) plan->qual) &&
				(next = jf_map_attnos(plan->targetlist, attnos)) != NIL)
			{
				jf_find_sites(&plan->lefttree, next, sites);
				return;
			}
			break;
		case T_Append:
		case T_MergeAppend:
			{
				List	   *children = IsA(plan, Append)
					? ((Append *) plan)->appendplans
					: ((MergeAppend *) plan)->mergeplans;
				ListCell   *lc;

				if (children == NIL ||
					(next = jf_map_attnos(plan->targetlist, attnos)) == NIL)
					break;
				foreach(lc, children)
					jf_find_sites((Plan **) &lfirst(lc), next, sites);
				return;
			}
		case T_CustomScan:
			/* another filter's probe: the same columns below it */
			if (jf_is_probe_plan(plan))
			{
				jf_find_sites(&plan->lefttree, attnos, sites);
				return;
			}
			break;
		default:
			break;
	}
	site = palloc(sizeof(JfSite));
	site->slot = slot;
	site->attnos = attnos;
	*sites = lappend(*sites, site);
}

/* A pass-through custom scan over child, with the child's costs and columns. */
static CustomScan *
jf_wrap(Plan *child, const CustomScanMethods *methods, JfPlanContext *cxt)
{
	CustomScan *cscan = makeNode(CustomScan);
	Plan	   *plan = &cscan->scan.plan;
	ListCell   *lc;

	plan->startup_cost = child->startup_cost;
	plan->total_cost = child->total_cost;
	plan->plan_rows = child->plan_rows;
	plan->plan_width = child->plan_width;
#if PG_VERSION_NUM >= 180000
	plan->disabled_nodes = child->disabled_nodes;
#endif
	plan->parallel_aware = false;
	plan->parallel_safe = child->parallel_safe;
	plan->plan_node_id = cxt->next_id++;
	plan->lefttree = child;
	/* the child's parameters: a change must still reach it (ExecReScan) */
	plan->extParam = bms_copy(child->extParam);
	plan->allParam = bms_copy(child->allParam);
	foreach(lc, child->targetlist)
	{
		TargetEntry *tle = lfirst(lc);
		Oid			type = exprType((Node *) tle->expr);
		int32		typmod = exprTypmod((Node *) tle->expr);
		Oid			coll = exprCollation((Node *) tle->expr);

		cscan->custom_scan_tlist =
			lappend(cscan->custom_scan_tlist,
					makeTargetEntry((Expr *) makeVar(OUTER_VAR, tle->resno, type, typmod, coll, 0),
									tle->resno, tle->resname, tle->resjunk));
		plan->targetlist =
			lappend(plan->targetlist,
					makeTargetEntry((Expr *) makeVar(INDEX_VAR, tle->resno, type, typmod, coll, 0),
									tle->resno, tle->resname, tle->resjunk));
	}
	cscan->scan.scanrelid = 0;
	cscan->methods = methods;
	return cscan;
}

static List *
jf_int_list(List *oids)
{
	List	   *ints = NIL;
	ListCell   *lc;

	foreach(lc, oids)
		ints = lappend(ints, makeInteger((int) lfirst_oid(lc)));
	return ints;
}

static List *
jf_private(int filter_no, int join_id, int build_id, List *funcs,
		   List *collations, bool strict, List *attnos, double planned)
{
	List	   *priv = NIL;

	/* in JfPrivate's order */
	priv = lappend(priv, makeInteger(filter_no));
	priv = lappend(priv, makeInteger(join_id));
	priv = lappend(priv, makeInteger(build_id));
	priv = lappend(priv, jf_int_list(funcs));
	priv = lappend(priv, jf_int_list(collations));
	priv = lappend(priv, makeInteger(strict ? 1 : 0));
	priv = lappend(priv, attnos);
	priv = lappend(priv, makeInteger((int) Min(planned, (double) INT_MAX)));
	return priv;
}

/*
 * The join's outer keys as columns of its outer child, or NIL: a key that is
 * computed (not a column, give or take a binary-compatible relabelling) is
 * left to the join.
 */
static List *
jf_outer_attnos(HashJoin *hj)
{
	List	   *attnos = NIL;
	ListCell   *lc;

	foreach(lc, hj->hashkeys)
	{
		Node	   *key = lfirst(lc);

		while (IsA(key, RelabelType))
			key = (Node *) ((RelabelType *) key)->arg;
		if (!IsA(key, Var) || ((Var *) key)->varno != OUTER_VAR)
			return NIL;
		attnos = lappend(attnos, makeInteger(((Var *) key)->varattno));
	}
	return attnos;
}

/* Does the estimate say a filter pays?  (JF_FORCE: wherever it is sound.) */
static bool
jf_worth_it(HashJoin *hj)
{
	Plan	   *outer = outerPlan(hj);
	double		pass;

	if (jf_mode == JF_FORCE)
		return true;
	if (outer->plan_rows < jf_min_rows)
		return false;
	/* exact for semi and unique-inner joins, an upper bound for the rest */
	pass = hj->join.plan.plan_rows / Max(outer->plan_rows, 1.0);
	return pass <= jf_max_pass;
}

/* A filter for one hash join, if it qualifies. */
static void
jf_consider_join(HashJoin *hj, JfPlanContext *cxt)
{
	Hash	   *hash = (Hash *) innerPlan(hj);
	List	   *attnos;
	List	   *lhs = NIL,
			   *rhs = NIL;
	List	   *sites = NIL;
	bool		strict = true;
	ListCell   *lc;
	CustomScan *build;
	int			filter_no;

	/*
	 * Parallel-aware joins share one hash table that every participant
	 * fills a part of; a filter of its own build side would miss the others'
	 * keys.  (A parallel-oblivious join builds the whole table in each.)
	 */
	if (!jf_join_type_ok(hj->join.jointype) || !IsA(hash, Hash) ||
		hj->join.plan.parallel_aware || hash->plan.parallel_aware ||
		hj->hashkeys == NIL ||
		list_length(hj->hashkeys) != list_length(hash->hashkeys) ||
		contain_volatile_functions((Node *) hash->hashkeys) ||
		!jf_worth_it(hj) ||
		(attnos = jf_outer_attnos(hj)) == NIL)
		return;
	foreach(lc, hj->hashoperators)
	{
		Oid			left,
					right;

		if (!get_op_hash_functions(lfirst_oid(lc), &left, &right))
			return;
		lhs = lappend_oid(lhs, left);
		rhs = lappend_oid(rhs, right);
		strict = strict && op_strict(lfirst_oid(lc));
	}
	jf_find_sites(&hj->join.plan.lefttree, attnos, &sites);

	filter_no = ++cxt->nfilters;
	build = jf_wrap(hash->plan.lefttree, &jf_build_plan_methods, cxt);
	build->custom_exprs = copyObject(hash->hashkeys);
	build->custom_private = jf_private(filter_no, hj->join.plan.plan_node_id,
									   build->scan.plan.plan_node_id, rhs,
									   hj->hashcollations, strict, NIL,
									   hash->plan.plan_rows);
	hash->plan.lefttree = &build->scan.plan;
	foreach(lc, sites)
	{
		JfSite	   *site = lfirst(lc);
		CustomScan *probe = jf_wrap(*site->slot, &jf_probe_plan_methods, cxt);
		ListCell   *la;

		foreach(la, site->attnos)
		{
			TargetEntry *tle = list_nth(probe->custom_scan_tlist, intVal(lfirst(la)) - 1);

			probe->custom_exprs = lappend(probe->custom_exprs, copyObject(tle->expr));
		}
		probe->custom_private = jf_private(filter_no, hj->join.plan.plan_node_id,
										   build->scan.plan.plan_node_id, lhs,
										   hj->hashcollations, strict,
										   site->attnos, 0);
		*site->slot = &probe->scan.plan;
	}
}

/* Children first, so that a lower join's probe is in place for an upper's. */
static void
jf_rewrite(Plan *plan, JfPlanContext *cxt)
{
	List	   *slots = jf_child_slots(plan);
	ListCell   *lc;

	foreach(lc, slots)
		jf_rewrite(*(Plan **) lfirst(lc), cxt);
	list_free(slots);
	if (IsA(plan, HashJoin))
		jf_consider_join((HashJoin *) plan, cxt);
}

/*
 * Only plain reads: a statement that writes, locks rows or re-checks them
 * (EvalPlanQual) gets no filters, as BloomProbe's policy is.
 */
static void
jf_rewrite_statement(PlannedStmt *stmt)
{
	JfPlanContext cxt;
	ListCell   *lc;

	if (stmt->commandType != CMD_SELECT || stmt->rowMarks != NIL ||
		stmt->hasModifyingCTE || stmt->planTree == NULL)
		return;
	cxt.nfilters = 0;
	cxt.next_id = jf_max_node_id(stmt->planTree);
	foreach(lc, stmt->subplans)
		cxt.next_id = Max(cxt.next_id, jf_max_node_id(lfirst(lc)));
	cxt.next_id++;
	jf_rewrite(stmt->planTree, &cxt);
	foreach(lc, stmt->subplans)
		if (lfirst(lc) != NULL)
			jf_rewrite(lfirst(lc), &cxt);
}

static PlannedStmt *
jf_planner(Query *parse, const char *query_string, int cursorOptions,
		   ParamListInfo boundParams)
{
	PlannedStmt *stmt;

	if (jf_prev_planner)
		stmt = jf_prev_planner(parse, query_string, cursorOptions, boundParams);
	else
		stmt = standard_planner(parse, query_string, cursorOptions, boundParams);
	if (jf_mode != JF_OFF)
		jf_rewrite_statement(stmt);
	return stmt;
}

void
jf_init(void)
{
	DefineCustomEnumVariable("bloomset.runtime_filter",
							 "Let hash joins drop probe-side rows that cannot match with a Bloom filter of their build side: on, off, or force (every join where it is sound, for tests).",
							 "Needs bloomset loaded before planning (shared_preload_libraries, session_preload_libraries or LOAD).  Answers never depend on it.",
							 &jf_mode, JF_ON, jf_mode_options, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("bloomset.runtime_filter_min_rows",
							"Fewest estimated probe-side rows of a hash join that gets a runtime filter.",
							NULL, &jf_min_rows, 10000, 0, INT_MAX,
							PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("bloomset.runtime_filter_max_pass",
							 "Largest estimated share of probe-side rows that match for a hash join to get a runtime filter.",
							 NULL, &jf_max_pass, 0.5, 0.0, 1.0,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	jf_exec_register();
	jf_prev_planner = planner_hook;
	planner_hook = jf_planner;
}
