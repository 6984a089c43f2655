/*-------------------------------------------------------------------------
 *
 * bloom_scan.c
 *	  The batched probe: a custom scan node (BloomProbe) that overlaps the
 *	  cache misses of a scan's bloom_contains probes.
 *
 * A scan such as SELECT ... FROM t WHERE bloom_contains($1, s) with a large
 * filter takes a cache miss and a TLB miss per row, which nothing overlaps:
 * each row's test is followed by the scan's work for the next row (fetch,
 * visibility, deforming: hundreds of instructions), more than the CPU's
 * out-of-order window, so the misses are taken one at a time.  The node
 * below pulls a batch of rows from its child scan, hashes the probed value
 * of each exactly as bloom_contains does (it calls bloom_contains_hash, the
 * first half of that function, through an FmgrInfo of its own, so the
 * call-site cache serves it as it serves the function), then runs the
 * batch's tests back to back -- independent loads, whose misses the CPU
 * overlaps -- and returns the rows that pass in their order.
 *
 * Planning.  A set_rel_pathlist_hook looks, for a plain table scanned by a
 * SELECT (no FOR UPDATE / SHARE, no DML anywhere above: the node supports
 * no EvalPlanQual recheck), for one restriction clause that is a probe of
 * the plain bloom kind -- bloom_contains(f, x) or f @> x, recognised by
 * the C function it calls (search_path and schema do not matter), possibly
 * under NOT -- whose filter f is constant for the scan: no Vars, no
 * volatile functions, no sub-plans; a Const, a Param (extern, an
 * init-plan's or an outer query's) or an expression of those.  The value x
 * must be made of Vars, constants and leakproof functions only, so that
 * evaluating it for rows the node reads ahead (past a LIMIT) raises no
 * error the plain scan would not.  For the table's sequential scan (and its
 * partial, parallel, form) it adds a CustomPath, a little cheaper, whose
 * child is a new sequential scan with the table's physical target list and
 * every other restriction clause; the probe clause moves to the node
 * (custom_exprs, where setrefs fixes it).  The child returns only tuples
 * it has checked for visibility and row-level security (the probe runs
 * after the other clauses, so a probe is claimed only when no other clause
 * has a higher security level).  Tables whose physical target list cannot
 * be built (dropped columns, columns added with a default) are left to
 * the plain scan.  bloomset.batched_probe = off adds nothing.  The
 * counting and scalable kinds are not batched: bloom_contains on them
 * calls the kind's own C function (as the prefixed names do), which the
 * recognition above does not match, so the plain scan keeps the clause.
 *
 * Joins.  A probe whose filter comes from another relation of the join --
 * t JOIN filters ON ... WHERE bloom_contains(filters.f, t.s) -- is a join
 * clause, evaluated by the join node for every pair, one row at a time.
 * For it the hook adds a parameterized path (required_outer: the
 * relations the filter argument reads): a nested loop with that side outer
 * rescans the node once per outer row, the filter's Vars replaced by the
 * nested loop's parameters (replace_nestloop_param_var, as the core does
 * for an index scan's join clauses), so within each rescan the filter is
 * constant and the batch works as above.  Offered only when the probe is
 * the one join clause such a path would move into the scan.
 *
 * Execution.  A ring of BLOOM_SCAN_BATCH slots of the table's slot type:
 * copying the child's buffer tuple into one pins the buffer, nothing more.
 * The filter argument is evaluated once per (re)scan, when the first row
 * arrives (an empty scan never evaluates it, as the plain scan does not).
 * Phase 1 fills the ring: for each row, the value argument is evaluated
 * (a per-row memory context) and bloom_contains_hash gives the filter and
 * the hash; the test is deferred when the filter stays valid across rows
 * (bloom_call_stable), else -- the reused image of a filter read in
 * slices, a filter read whole without being kept -- the row is tested at
 * once.  Phase 2 runs the deferred tests; phase 3 returns the rows whose
 * test passed (the NOT form: failed), in order, projecting when the target
 * list asks it.  A NULL filter or value rejects the row, as the strict
 * function does.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_scan.h"
#include "../probe/bloom_cache.h"
#include "bloom_type.h"

#include "access/tableam.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/nodeCustom.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paramassign.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/plancat.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"
#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif

/*
 * Rows per batch.  The batch's tests run back to back, so that the CPU
 * overlaps their cache and TLB misses (as many as its out-of-order window
 * holds: about ten); a larger batch adds nothing to that but costs buffer
 * pins -- a ring slot keeps its page pinned, and re-pins only when the next
 * batch puts a tuple of another page in it, which a batch smaller than a
 * page's tuples mostly avoids (batches of 8 to 32 rows measured alike for a
 * filter larger than the caches, 64 and more slower; docs/performance.md).
 */
#define BLOOM_SCAN_BATCH	16

/*
 * The cost the node saves, as a share of the probe's per-row cost: the
 * memory stalls the batch overlaps.  Enough that the planner prefers the
 * node over the plain scan (add_path sees costs within 1% as equal).
 */
#define BLOOM_SCAN_SAVING	0.5

#define BLOOM_SCAN_NAME		"BloomProbe"

/* 14 gave pull_varnos the planner's state */
#if PG_VERSION_NUM >= 140000
#define bloom_pull_varnos(root, node)	pull_varnos((root), (node))
#else
#define bloom_pull_varnos(root, node)	pull_varnos(node)
#endif

/* bloomset.batched_probe */
bool		bloom_batched_probe = true;

static set_rel_pathlist_hook_type bloom_prev_pathlist = NULL;

/* Per row of the ring: the test deferred to the batch's tests, or its answer. */
typedef struct BloomScanRow
{
	BloomFilter *f;				/* deferred: the filter to test h against */
	uint64		h;
	bool		pass;			/* answered: does the row qualify */
} BloomScanRow;

typedef struct BloomScanState
{
	CustomScanState css;
	PlanState  *child;
	bool		negate;			/* NOT bloom_contains(...) */
	ExprState  *filter_expr;	/* the filter argument (constant for a scan) */
	ExprState  *value_expr;		/* the value argument (per row) */
	AttrNumber	value_attno;	/* or, when it is a column, its number */
	bool		no_columns;		/* the node returns no columns (count(*)) */
	BloomFilter *stable;		/* a filter bloom_call_stable accepted */
	ExprContext *row_cxt;		/* per-row memory of phase 1 */
	MemoryContext scan_cxt;		/* the filter's value, reset by a rescan */
	FmgrInfo	flinfo;			/* bloom_contains, for the call-site cache */
	FunctionCallInfo fcinfo;
	bool		filter_ready;	/* filter evaluated for this scan */
	bool		filter_null;
	bool		child_done;
	TupleTableSlot *ring[BLOOM_SCAN_BATCH];
	BloomScanRow rows[BLOOM_SCAN_BATCH];
	int			nrows;			/* rows in the ring */
	int			next;			/* next row of the ring to return */
} BloomScanState;

static Plan *bloom_scan_plan(PlannerInfo *root, RelOptInfo *rel,
							 CustomPath *best_path, List *tlist,
							 List *clauses, List *custom_plans);
static Node *bloom_scan_create_state(CustomScan *cscan);
static void bloom_scan_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *bloom_scan_exec(CustomScanState *node);
static void bloom_scan_end(CustomScanState *node);
static void bloom_scan_rescan(CustomScanState *node);
static void bloom_scan_explain(CustomScanState *node, List *ancestors,
							   ExplainState *es);

static const CustomPathMethods bloom_path_methods = {
	.CustomName = BLOOM_SCAN_NAME,
	.PlanCustomPath = bloom_scan_plan,
};

static const CustomScanMethods bloom_plan_methods = {
	.CustomName = BLOOM_SCAN_NAME,
	.CreateCustomScanState = bloom_scan_create_state,
};

static const CustomExecMethods bloom_exec_methods = {
	.CustomName = BLOOM_SCAN_NAME,
	.BeginCustomScan = bloom_scan_begin,
	.ExecCustomScan = bloom_scan_exec,
	.EndCustomScan = bloom_scan_end,
	.ReScanCustomScan = bloom_scan_rescan,
	.ExplainCustomScan = bloom_scan_explain,
};

/* ---- planning ---------------------------------------------------------- */

/* Does funcid call bloom_contains (this library's C function)? */
static bool
bloom_scan_is_probe_func(Oid funcid)
{
	FmgrInfo	fi;

	if (!OidIsValid(funcid) || get_func_nargs(funcid) != 2 ||
		get_func_rettype(funcid) != BOOLOID)
		return false;
	fmgr_info(funcid, &fi);
	return fi.fn_addr == bloom_contains;
}

/*
 * The probe call of clause -- bloom_contains(f, x) or f @> x, possibly
 * under NOT (*negate) -- or NULL; *args gets its two arguments.
 */
static Expr *
bloom_scan_probe_call(Expr *clause, bool *negate, List **args)
{
	*negate = false;
	if (is_notclause(clause))
	{
		*negate = true;
		clause = get_notclausearg(clause);
	}
	if (IsA(clause, FuncExpr) &&
		bloom_scan_is_probe_func(((FuncExpr *) clause)->funcid))
		*args = ((FuncExpr *) clause)->args;
	else if (IsA(clause, OpExpr))
	{
		set_opfuncid((OpExpr *) clause);
		if (!bloom_scan_is_probe_func(((OpExpr *) clause)->opfuncid))
			return NULL;
		*args = ((OpExpr *) clause)->args;
	}
	else
		return NULL;
	return list_length(*args) == 2 ? clause : NULL;
}

/* Walker: is the value argument made of Vars, constants, leakproof calls? */
static bool
bloom_scan_value_unsafe(Node *node, void *context)
{
	if (node == NULL)
		return false;
	switch (nodeTag(node))
	{
		case T_Var:
		case T_Const:
		case T_Param:
		case T_RelabelType:
		case T_CollateExpr:
			break;
		case T_FuncExpr:
			if (!get_func_leakproof(((FuncExpr *) node)->funcid))
				return true;
			break;
		case T_OpExpr:
			set_opfuncid((OpExpr *) node);
			if (!get_func_leakproof(((OpExpr *) node)->opfuncid))
				return true;
			break;
		default:
			return true;
	}
	return expression_tree_walker(node, bloom_scan_value_unsafe, context);
}

/* Walker: does node hold a PlaceHolderVar? */
static bool
bloom_scan_has_phv(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, PlaceHolderVar))
		return true;
	return expression_tree_walker(node, bloom_scan_has_phv, context);
}

/*
 * May the node evaluate the probe clause of rinfo, as the last clause of
 * the scan, with the filter evaluated once per scan?  For a join clause
 * (the filter reads other relations: *outer, else NULL), once per rescan.
 */
static bool
bloom_scan_claimable(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *rinfo,
					 Relids *outer)
{
	bool		negate;
	List	   *args;
	Node	   *filter;
	ListCell   *lc;

	*outer = NULL;
	if (rinfo->pseudoconstant ||
		bloom_scan_probe_call(rinfo->clause, &negate, &args) == NULL)
		return false;
	filter = linitial(args);
	if (contain_volatile_functions(filter) || contain_subplans(filter))
		return false;
	if (contain_var_clause(filter))
	{
		/* a join clause: the filter reads other relations only, no PHVs */
		*outer = bloom_pull_varnos(root, filter);
		if (bms_is_empty(*outer) || bms_overlap(*outer, rel->relids) ||
			!bms_is_subset(bloom_pull_varnos(root, lsecond(args)), rel->relids) ||
			bloom_scan_has_phv(filter, NULL))
			return false;
	}
	if (!contain_var_clause(lsecond(args)) ||
		contain_volatile_functions(lsecond(args)) ||
		bloom_scan_value_unsafe(lsecond(args), NULL))
		return false;
	/* the child evaluates every other clause first: security levels allow it? */
	foreach(lc, rel->baserestrictinfo)
	{
		RestrictInfo *other = lfirst_node(RestrictInfo, lc);

		if (other != rinfo &&
			(other->security_level > rinfo->security_level || other->pseudoconstant))
			return false;
	}
	return true;
}

/* Is the query (and each one it is part of) a SELECT without row marks? */
static bool
bloom_scan_plain_select(PlannerInfo *root)
{
	for (; root != NULL; root = root->parent_root)
		if (root->parse->commandType != CMD_SELECT ||
			root->parse->rowMarks != NIL || root->parse->hasModifyingCTE)
			return false;
	return true;
}

/*
 * A BloomProbe path over a new sequential scan of rel (partial, with
 * workers, when workers > 0) returning the table's physical tuples
 * (ptarget), with the probe clause rinfo taken out of its quals.
 */
static CustomPath *
bloom_scan_path(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *rinfo,
				PathTarget *ptarget, int workers, ParamPathInfo *ppi)
{
	Path	   *child = create_seqscan_path(root, rel, NULL, workers);
	CustomPath *cpath = makeNode(CustomPath);
	QualCost	probe;

	child->pathtarget = ptarget;
	cost_qual_eval_node(&probe, (Node *) rinfo->clause, root);
	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	cpath->path.param_info = ppi;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = child->parallel_safe &&
		is_parallel_safe(root, (Node *) rinfo->clause);
	cpath->path.parallel_workers = child->parallel_workers;
	cpath->path.rows = ppi ? ppi->ppi_rows : child->rows;
#if PG_VERSION_NUM >= 180000
	cpath->path.disabled_nodes = child->disabled_nodes;
#endif
	cpath->path.startup_cost = child->startup_cost;
	cpath->path.total_cost = child->total_cost -
		BLOOM_SCAN_SAVING * probe.per_tuple * Max(rel->tuples, child->rows);
	cpath->path.total_cost = Max(cpath->path.total_cost, cpath->path.startup_cost);
	cpath->path.pathkeys = NIL;
#ifdef CUSTOMPATH_SUPPORT_PROJECTION
	cpath->flags = CUSTOMPATH_SUPPORT_PROJECTION;
#endif
	cpath->custom_paths = list_make1(child);
	cpath->custom_private = list_make1(rinfo->clause);
	cpath->methods = &bloom_path_methods;
	return cpath;
}

/*
 * The parameterized BloomProbe path for the join clause rinfo, whose
 * filter reads the relations outer: offered when it is the one join clause
 * a path parameterized by outer would evaluate in the scan.
 */
static void
bloom_scan_join_path(PlannerInfo *root, RelOptInfo *rel, RestrictInfo *rinfo,
					 Relids outer, PathTarget *ptarget)
{
	ParamPathInfo *ppi = get_baserel_parampathinfo(root, rel, outer);

	if (list_length(ppi->ppi_clauses) != 1 || linitial(ppi->ppi_clauses) != rinfo)
		return;
	add_path(rel, (Path *) bloom_scan_path(root, rel, rinfo, ptarget, 0, ppi));
}

/* set_rel_pathlist_hook: offer BloomProbe paths for a claimable probe. */
static void
bloom_scan_pathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
					RangeTblEntry *rte)
{
	RestrictInfo *rinfo = NULL;
	List	   *joins = NIL;
	List	   *outers = NIL;
	Relids		outer;
	List	   *ptlist;
	PathTarget *ptarget;
	ListCell   *lc,
			   *lc2;

	if (bloom_prev_pathlist)
		bloom_prev_pathlist(root, rel, rti, rte);
	if (!bloom_batched_probe || rel->reloptkind != RELOPT_BASEREL ||
		rte->rtekind != RTE_RELATION || rte->inh || rte->tablesample != NULL ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW) ||
		!bloom_scan_plain_select(root))
		return;
	foreach(lc, rel->baserestrictinfo)
		if (bloom_scan_claimable(root, rel, lfirst_node(RestrictInfo, lc), &outer))
		{
			rinfo = lfirst_node(RestrictInfo, lc);
			break;
		}
	foreach(lc, rel->joininfo)
		if (bloom_scan_claimable(root, rel, lfirst_node(RestrictInfo, lc), &outer) &&
			outer != NULL)
		{
			joins = lappend(joins, lfirst(lc));
			outers = lappend(outers, outer);
		}
	if ((rinfo == NULL && joins == NIL) ||
		(ptlist = build_physical_tlist(root, rel)) == NIL)
		return;
	ptarget = create_pathtarget(root, ptlist);
	if (rinfo != NULL)
	{
		add_path(rel, (Path *) bloom_scan_path(root, rel, rinfo, ptarget, 0, NULL));
		if (rel->consider_parallel && rel->partial_pathlist != NIL)
		{
			int			workers = ((Path *) linitial(rel->partial_pathlist))->parallel_workers;
			CustomPath *p = bloom_scan_path(root, rel, rinfo, ptarget, workers, NULL);

			if (p->path.parallel_safe)
				add_partial_path(rel, (Path *) p);
		}
	}
	forboth(lc, joins, lc2, outers)
		bloom_scan_join_path(root, rel, lfirst_node(RestrictInfo, lc),
							 (Relids) lfirst(lc2), ptarget);
}

/* Mutator: the Vars of the outer relations, as nested-loop parameters. */
static Node *
bloom_scan_outer_params(Node *node, PlannerInfo *root)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Var) && ((Var *) node)->varlevelsup == 0 &&
		bms_is_member(((Var *) node)->varno, root->curOuterRels))
		return (Node *) replace_nestloop_param_var(root, (Var *) copyObject(node));
	return expression_tree_mutator(node, bloom_scan_outer_params, root);
}

/*
 * PlanCustomPath: the CustomScan over the child scan (already planned),
 * with the probe clause moved from the child's quals to custom_exprs.
 */
static Plan *
bloom_scan_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
				List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	Plan	   *child = linitial(custom_plans);
	Expr	   *probe = linitial(best_path->custom_private);
	int			before = list_length(child->qual);

	if (best_path->path.param_info != NULL)
		/* a join clause, never among the child's quals */
		probe = (Expr *) bloom_scan_outer_params((Node *) probe, root);
	else
	{
		child->qual = list_delete_ptr(child->qual, probe);
		if (list_length(child->qual) == before)
			elog(ERROR, "bloomset: the probe clause is not among the scan's quals");
	}
	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = NIL;
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_exprs = list_make1(copyObject(probe));
	cscan->custom_private = NIL;
	cscan->custom_scan_tlist = NIL;
	cscan->methods = &bloom_plan_methods;
	return &cscan->scan.plan;
}

/* ---- execution --------------------------------------------------------- */

/* CreateCustomScanState: an empty BloomScanState. */
static Node *
bloom_scan_create_state(CustomScan *cscan)
{
	BloomScanState *state = palloc0(sizeof(BloomScanState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &bloom_exec_methods;
	return (Node *) state;
}

/* BeginCustomScan: the child, the probe's expressions and call, the ring. */
static void
bloom_scan_begin(CustomScanState *node, EState *estate, int eflags)
{
	BloomScanState *state = (BloomScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Relation	rel = node->ss.ss_currentRelation;
	Expr	   *call;
	List	   *args;

	/*
	 * The node's expressions read the ring's slots (the table's slot type),
	 * not the virtual scan slot the core set up: say so before compiling
	 * them, and compile the projection again (the core's was compiled for
	 * virtual slots, which it would read without deforming).
	 */
	node->ss.ps.scanops = table_slot_callbacks(rel);
	node->ss.ps.scanopsfixed = true;
	node->ss.ps.scanopsset = true;
	ExecAssignScanProjectionInfoWithVarno(&node->ss, cscan->scan.scanrelid);
	state->child = ExecInitNode(linitial(cscan->custom_plans), estate, eflags);
	node->custom_ps = list_make1(state->child);
	call = bloom_scan_probe_call(linitial(cscan->custom_exprs), &state->negate, &args);
	if (call == NULL)
		elog(ERROR, "bloomset: the batched probe's clause is not a probe");
	state->filter_expr = ExecInitExpr(linitial(args), &node->ss.ps);
	state->value_expr = ExecInitExpr(lsecond(args), &node->ss.ps);
	if (IsA(lsecond(args), Var))
		state->value_attno = ((Var *) lsecond(args))->varattno;
	state->no_columns = cscan->scan.plan.targetlist == NIL;
	state->row_cxt = CreateExprContext(estate);
	state->scan_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"bloomset batched probe",
											ALLOCSET_SMALL_SIZES);
	fmgr_info(IsA(call, OpExpr) ? ((OpExpr *) call)->opfuncid
			  : ((FuncExpr *) call)->funcid, &state->flinfo);
	fmgr_info_set_expr((Node *) call, &state->flinfo);
	state->fcinfo = palloc0(SizeForFunctionCallInfo(2));
	InitFunctionCallInfoData(*state->fcinfo, &state->flinfo, 2,
							 exprInputCollation((Node *) call), NULL, NULL);
	for (int i = 0; i < BLOOM_SCAN_BATCH; i++)
		state->ring[i] = ExecAllocTableSlot(&estate->es_tupleTable,
											RelationGetDescr(rel),
											table_slot_callbacks(rel));
}

/* The filter argument, evaluated once per scan (as the first row arrives). */
static void
bloom_scan_filter(BloomScanState *state)
{
	ExprContext *econtext = state->row_cxt;
	MemoryContext old;
	bool		isnull;
	Datum		d;

	MemoryContextReset(state->scan_cxt);
	old = MemoryContextSwitchTo(state->scan_cxt);
	econtext->ecxt_scantuple = NULL;
	d = ExecEvalExpr(state->filter_expr, econtext, &isnull);
	MemoryContextSwitchTo(old);
	state->fcinfo->args[0].value = d;
	state->fcinfo->args[0].isnull = isnull;
	state->filter_null = isnull;
	state->stable = NULL;
	state->filter_ready = true;
}

/*
 * Phase 1 for the row in ring slot i: hash its value (bloom_contains_hash),
 * deferring the test to the batch's, or answer at once when the filter is
 * not one that stays valid (bloom_call_stable).
 */
static void
bloom_scan_hash_row(BloomScanState *state, int i)
{
	ExprContext *econtext = state->row_cxt;
	BloomScanRow *row = &state->rows[i];
	MemoryContext old;
	bool		isnull;
	Datum		value;
	BloomFilter *f;

	row->f = NULL;
	row->pass = false;
	if (state->filter_null)
		return;
	/* most rows allocate nothing: skip the call */
	if (!econtext->ecxt_per_tuple_memory->isReset)
		MemoryContextReset(econtext->ecxt_per_tuple_memory);
	old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
	if (state->value_attno > 0)
		value = slot_getattr(state->ring[i], state->value_attno, &isnull);
	else
	{
		econtext->ecxt_scantuple = state->ring[i];
		value = ExecEvalExpr(state->value_expr, econtext, &isnull);
	}
	if (!isnull)
	{
		state->fcinfo->args[1].value = value;
		state->fcinfo->args[1].isnull = false;
		f = bloom_contains_hash(state->fcinfo, &row->h);
		if (f == NULL)
			row->pass = state->negate;
		else if (f == state->stable || bloom_call_stable(state->fcinfo, f))
		{
			state->stable = f;
			row->f = f;			/* tested with the batch */
		}
		else
			row->pass = bloom_test_hash(f, row->h) != state->negate;
	}
	MemoryContextSwitchTo(old);
}

/*
 * Phase 2: the deferred tests of the batch, back to back: nothing between
 * them depends on their loads, so their misses overlap.  (Prefetching each
 * hash's block as it is computed, the design first tried, made the scan
 * slower than testing at once on the development machine, a VM: see
 * docs/performance.md.)
 */
static void
bloom_scan_test_batch(BloomScanState *state)
{
	for (int i = 0; i < state->nrows; i++)
	{
		BloomScanRow *row = &state->rows[i];

		if (row->f != NULL)
			row->pass = bloom_test_hash(row->f, row->h) != state->negate;
	}
}

/* Phase 1 and 2: fill the ring from the child; false when it had no more rows. */
static bool
bloom_scan_fill(BloomScanState *state)
{
	int			n = 0;

	state->nrows = 0;
	state->next = 0;
	while (n < BLOOM_SCAN_BATCH && !state->child_done)
	{
		TupleTableSlot *slot = ExecProcNode(state->child);

		if (TupIsNull(slot))
		{
			state->child_done = true;
			break;
		}
		if (!state->filter_ready)
			bloom_scan_filter(state);
		ExecCopySlot(state->ring[n], slot);
		bloom_scan_hash_row(state, n);
		n++;
	}
	state->nrows = n;
	bloom_scan_test_batch(state);
	return n > 0;
}

/* ExecCustomScan: the next row of the ring that passes (phase 3). */
static TupleTableSlot *
bloom_scan_exec(CustomScanState *node)
{
	BloomScanState *state = (BloomScanState *) node;

	for (;;)
	{
		while (state->next < state->nrows)
		{
			int			i = state->next++;

			if (state->rows[i].pass)
			{
				ProjectionInfo *proj = node->ss.ps.ps_ProjInfo;

				if (proj == NULL)
					return state->ring[i];
				if (state->no_columns)
				{
					/* what projecting no columns gives, without the work */
					TupleTableSlot *slot = node->ss.ps.ps_ResultTupleSlot;

					ExecClearTuple(slot);
					return ExecStoreVirtualTuple(slot);
				}
				ResetExprContext(node->ss.ps.ps_ExprContext);
				node->ss.ps.ps_ExprContext->ecxt_scantuple = state->ring[i];
				return ExecProject(proj);
			}
		}
		CHECK_FOR_INTERRUPTS();
		if (!bloom_scan_fill(state))
			return NULL;
	}
}

/* Drop the batch (and the buffer pins its slots hold). */
static void
bloom_scan_drop_batch(BloomScanState *state)
{
	for (int i = 0; i < BLOOM_SCAN_BATCH; i++)
		if (state->ring[i] != NULL)
			ExecClearTuple(state->ring[i]);
	state->nrows = 0;
	state->next = 0;
}

/* EndCustomScan. */
static void
bloom_scan_end(CustomScanState *node)
{
	BloomScanState *state = (BloomScanState *) node;

	bloom_scan_drop_batch(state);
	ExecEndNode(state->child);
	MemoryContextDelete(state->scan_cxt);
}

/* ReScanCustomScan: the child from the start, the filter evaluated again. */
static void
bloom_scan_rescan(CustomScanState *node)
{
	BloomScanState *state = (BloomScanState *) node;

	bloom_scan_drop_batch(state);
	if (node->ss.ps.chgParam != NULL)
		UpdateChangedParamSet(state->child, node->ss.ps.chgParam);
	ExecReScan(state->child);
	state->filter_ready = false;
	state->child_done = false;
}

/* ExplainCustomScan: the probe clause (and, VERBOSE, the batch size). */
static void
bloom_scan_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context;
	char	   *probe;

	context = set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan,
									   ancestors);
	probe = deparse_expression(linitial(cscan->custom_exprs), context,
							   es->verbose || list_length(es->rtable) > 1, false);
	ExplainPropertyText("Probe", probe, es);
	if (es->verbose)
		ExplainPropertyInteger("Batch Size", NULL, BLOOM_SCAN_BATCH, es);
}

/* _PG_init's part: the setting, the hook, the plan node's methods. */
void
bloom_scan_init(void)
{
	DefineCustomBoolVariable("bloomset.batched_probe",
							 "Probe the rows of a scan in batches, overlapping the filter's cache misses.",
							 "A scan whose condition probes a filter that is constant for the scan (a constant, a parameter, a sub-select's result) is run by a BloomProbe node that hashes a batch of rows and then tests them back to back.  Answers never depend on it.",
							 &bloom_batched_probe, true, PGC_USERSET,
							 GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,	/* a test switch */
							 NULL, NULL, NULL);
	RegisterCustomScanMethods(&bloom_plan_methods);
	bloom_prev_pathlist = set_rel_pathlist_hook;
	set_rel_pathlist_hook = bloom_scan_pathlist;
}
