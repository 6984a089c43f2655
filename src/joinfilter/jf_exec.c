/*-------------------------------------------------------------------------
 *
 * jf_exec.c
 *	  The runtime join filter's two executor nodes, their EXPLAIN output and
 *	  the wiring of each probe to its build and join at executor start.
 *
 * Both nodes pass their child's tuples through unchanged (they return the
 * child's own slot, and declare its slot type, so the parent's compiled
 * expressions deform it as before).  The build node, between a hash join's
 * Hash and the Hash's child, adds each row's keys to the filter; the probe
 * node, above the scan the join's outer keys come from, drops the rows the
 * filter rules out.
 *
 * When a probe may trust the filter (src/joinfilter/README, "Facts that
 * make this hard"): only while the join's hash table exists and the build
 * node has reached its end since it was last rescanned.  A hash join may
 * fetch an outer row before it builds (the filter is then not built, or
 * belongs to the previous build), and a parameter change resets the build
 * side lazily, at its first fetch -- after the join's first outer fetch.
 * The join destroys its table at any rescan that rebuilds it, and creates
 * the next one just before the build pulls its first row, so no outer row
 * is fetched between the two; a rescan that keeps the table keeps the
 * build side's rows, so the filter is still the table's.  A probe that
 * cannot trust the filter passes every row, which is always sound.
 *
 *-------------------------------------------------------------------------
 */
#include "joinfilter.h"

#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
#include "executor/executor.h"
#include "executor/hashjoin.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"

/* bumped as each probe node is initialised: does a statement need wiring? */
uint64		jf_probes_begun = 0;

static Node *jf_build_create(CustomScan *cscan);
static void jf_build_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *jf_build_exec(CustomScanState *node);
static void jf_build_end(CustomScanState *node);
static void jf_build_rescan(CustomScanState *node);
static void jf_build_explain(CustomScanState *node, List *ancestors,
							 ExplainState *es);
static Node *jf_probe_create(CustomScan *cscan);
static void jf_probe_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *jf_probe_exec(CustomScanState *node);
static void jf_probe_end(CustomScanState *node);
static void jf_probe_rescan(CustomScanState *node);
static void jf_probe_explain(CustomScanState *node, List *ancestors,
							 ExplainState *es);

const CustomScanMethods jf_build_plan_methods = {
	.CustomName = JF_BUILD_NAME,
	.CreateCustomScanState = jf_build_create,
};

const CustomScanMethods jf_probe_plan_methods = {
	.CustomName = JF_PROBE_NAME,
	.CreateCustomScanState = jf_probe_create,
};

static const CustomExecMethods jf_build_exec_methods = {
	.CustomName = JF_BUILD_NAME,
	.BeginCustomScan = jf_build_begin,
	.ExecCustomScan = jf_build_exec,
	.EndCustomScan = jf_build_end,
	.ReScanCustomScan = jf_build_rescan,
	.ExplainCustomScan = jf_build_explain,
};

static const CustomExecMethods jf_probe_exec_methods = {
	.CustomName = JF_PROBE_NAME,
	.BeginCustomScan = jf_probe_begin,
	.ExecCustomScan = jf_probe_exec,
	.EndCustomScan = jf_probe_end,
	.ReScanCustomScan = jf_probe_rescan,
	.ExplainCustomScan = jf_probe_explain,
};

void
jf_exec_register(void)
{
	RegisterCustomScanMethods(&jf_build_plan_methods);
	RegisterCustomScanMethods(&jf_probe_plan_methods);
}

/* ---- both nodes -------------------------------------------------------- */

static int
jf_private_int(CustomScan *cscan, JfPrivate field)
{
	return intVal(list_nth(cscan->custom_private, field));
}

static List *
jf_private_list(CustomScan *cscan, JfPrivate field)
{
	return (List *) list_nth(cscan->custom_private, field);
}

/*
 * Start the child, and declare its result slot type as the node's own: the
 * node returns the child's slot, and the parent compiles its expressions
 * for the slot type its child declares (as ExecInitLimit does).
 */
static void
jf_begin_child(CustomScanState *node, EState *estate, int eflags)
{
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	PlanState  *child;
	bool		fixed;

	child = ExecInitNode(outerPlan(cscan), estate, eflags);
	outerPlanState(node) = child;
	node->ss.ps.resultops = ExecGetResultSlotOps(child, &fixed);
	node->ss.ps.resultopsfixed = fixed;
	node->ss.ps.resultopsset = true;
}

/* Rescan the child now, unless a changed parameter will at its next fetch. */
static void
jf_rescan_child(CustomScanState *node)
{
	PlanState  *child = outerPlanState(node);

	if (child->chgParam == NULL)
		ExecReScan(child);
}

/* "rf1 on d.id, d.kind": the filter's number and the keys it holds or tests */
static void
jf_explain_keys(CustomScanState *node, List *ancestors, ExplainState *es,
				List *key_exprs)
{
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context;
	StringInfoData buf;
	ListCell   *lc;

	context = set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan,
									   ancestors);
	initStringInfo(&buf);
	appendStringInfo(&buf, "rf%d on ",
					 jf_private_int(cscan, JF_PRIV_FILTER_NO));
	foreach(lc, key_exprs)
	{
		if (lc != list_head(key_exprs))
			appendStringInfoString(&buf, ", ");
		appendStringInfoString(&buf, deparse_expression(lfirst(lc), context,
														es->verbose || list_length(es->rtable) > 1,
														false));
	}
	ExplainPropertyText("Runtime Filter", buf.data, es);
}

/* ---- the build node ---------------------------------------------------- */

static Node *
jf_build_create(CustomScan *cscan)
{
	JfBuildState *state = palloc0(sizeof(JfBuildState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &jf_build_exec_methods;
	return (Node *) state;
}

static void
jf_build_begin(CustomScanState *node, EState *estate, int eflags)
{
	JfBuildState *state = (JfBuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	int			nkeys = list_length(cscan->custom_exprs);

	jf_begin_child(node, estate, eflags);
	/* the Hash's keys, over the child's columns (OUTER_VAR), as the Hash does */
	state->key_exprs = ExecInitExprList(cscan->custom_exprs, &node->ss.ps);
	state->values = palloc(sizeof(Datum) * nkeys);
	state->nulls = palloc(sizeof(bool) * nkeys);
	jf_keys_init(&state->keys, jf_private_list(cscan, JF_PRIV_FUNCS),
				 jf_private_list(cscan, JF_PRIV_COLLATIONS),
				 jf_private_int(cscan, JF_PRIV_STRICT) != 0);
	jf_filter_init(&state->filter, estate->es_query_cxt,
				   jf_private_int(cscan, JF_PRIV_PLANNED_ROWS));
}

static TupleTableSlot *
jf_build_exec(CustomScanState *node)
{
	JfBuildState *state = (JfBuildState *) node;
	ExprContext *econtext = node->ss.ps.ps_ExprContext;
	TupleTableSlot *slot = ExecProcNode(outerPlanState(node));
	ListCell   *lc;
	int			i = 0;
	uint64		hash;

	if (TupIsNull(slot))
	{
		if (!state->built)
		{
			jf_filter_finish(&state->filter);
			state->built = true;
			state->nbuilds++;
		}
		return NULL;
	}
	ResetExprContext(econtext);
	econtext->ecxt_outertuple = slot;
	foreach(lc, state->key_exprs)
	{
		state->values[i] = ExecEvalExprSwitchContext(lfirst(lc), econtext,
													 &state->nulls[i]);
		i++;
	}
	if (jf_keys_hash(&state->keys, state->values, state->nulls, &hash))
		jf_filter_add(&state->filter, hash);
	else if (!state->keys.all_strict)
		state->filter.pass_all = true;	/* a NULL key may match: no filter */
	return slot;
}

static void
jf_build_end(CustomScanState *node)
{
	JfBuildState *state = (JfBuildState *) node;

	ExecEndNode(outerPlanState(node));
	MemoryContextDelete(state->filter.cxt);
}

static void
jf_build_rescan(CustomScanState *node)
{
	JfBuildState *state = (JfBuildState *) node;

	state->built = false;
	jf_filter_reset(&state->filter);
	jf_rescan_child(node);
}

static void
jf_build_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	JfBuildState *state = (JfBuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	JfFilter   *filter = &state->filter;

	jf_explain_keys(node, ancestors, es, cscan->custom_exprs);
	if (!es->analyze || state->nbuilds == 0)
		return;
	/* the last build's filter (in this process; each worker builds its own) */
	ExplainPropertyInteger("Filter Keys", NULL, filter->nadded, es);
	if (filter->pass_all || filter->bloom == NULL)
		ExplainPropertyText("Filter", "not used (every row passes)", es);
	else
		ExplainPropertyInteger("Filter Size", "kB",
							   (int64) (BLOOM_DATA_BYTES(filter->bloom) + 1023) / 1024,
							   es);
}

/* ---- the probe node ---------------------------------------------------- */

static Node *
jf_probe_create(CustomScan *cscan)
{
	JfProbeState *state = palloc0(sizeof(JfProbeState));

	NodeSetTag(state, T_CustomScanState);
	state->css.methods = &jf_probe_exec_methods;
	return (Node *) state;
}

static void
jf_probe_begin(CustomScanState *node, EState *estate, int eflags)
{
	JfProbeState *state = (JfProbeState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *attnos = jf_private_list(cscan, JF_PRIV_ATTNOS);
	int			i = 0;
	ListCell   *lc;

	jf_begin_child(node, estate, eflags);
	state->join_id = jf_private_int(cscan, JF_PRIV_JOIN_ID);
	state->build_id = jf_private_int(cscan, JF_PRIV_BUILD_ID);
	state->attnos = palloc(sizeof(AttrNumber) * list_length(attnos));
	foreach(lc, attnos)
		state->attnos[i++] = intVal(lfirst(lc));
	state->values = palloc(sizeof(Datum) * i);
	state->nulls = palloc(sizeof(bool) * i);
	jf_keys_init(&state->keys, jf_private_list(cscan, JF_PRIV_FUNCS),
				 jf_private_list(cscan, JF_PRIV_COLLATIONS),
				 jf_private_int(cscan, JF_PRIV_STRICT) != 0);
	jf_probes_begun++;
}

/* May the filter be trusted now?  (The file's header says why this.) */
static bool
jf_probe_ready(JfProbeState *state)
{
	if (state->join == NULL || state->build == NULL)
		return false;			/* not wired: an EvalPlanQual copy, say */
	return state->join->hj_HashTable != NULL && state->build->built;
}

/* Test one row; false: it cannot match the build side. */
static bool
jf_probe_row(JfProbeState *state, TupleTableSlot *slot)
{
	uint64		hash;
	bool		pass;

	for (int i = 0; i < state->keys.nkeys; i++)
		state->values[i] = slot_getattr(slot, state->attnos[i], &state->nulls[i]);
	if (!jf_keys_hash(&state->keys, state->values, state->nulls, &hash))
		return true;			/* NULL keys are the join's to judge */
	pass = jf_filter_test(&state->build->filter, hash);
	state->tested++;
	state->cycle_tested++;
	state->cycle_passed += pass;
	if (state->cycle_tested == JF_SAMPLE_ROWS &&
		state->cycle_passed > JF_SWITCH_OFF_PASS * JF_SAMPLE_ROWS)
	{
		state->switched_off = true;
		state->switch_offs++;
	}
	return pass;
}

static TupleTableSlot *
jf_probe_exec(CustomScanState *node)
{
	JfProbeState *state = (JfProbeState *) node;
	PlanState  *child = outerPlanState(node);

	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(child);

		if (TupIsNull(slot))
			return NULL;
		if (!state->ready)
		{
			if (!(state->ready = jf_probe_ready(state)))
			{
				state->unready++;
				return slot;
			}
			/* a filter the build gave up on passes everything: skip it */
			state->switched_off = state->build->filter.pass_all;
		}
		if (state->switched_off)
		{
			state->skipped++;
			return slot;
		}
		if (jf_probe_row(state, slot))
			return slot;
		InstrCountFiltered1(node, 1);
		CHECK_FOR_INTERRUPTS();
	}
}

static void
jf_probe_end(CustomScanState *node)
{
	ExecEndNode(outerPlanState(node));
}

static void
jf_probe_rescan(CustomScanState *node)
{
	JfProbeState *state = (JfProbeState *) node;

	state->ready = false;
	state->switched_off = false;
	state->cycle_tested = 0;
	state->cycle_passed = 0;
	jf_rescan_child(node);
}

static void
jf_probe_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	JfProbeState *state = (JfProbeState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Instrumentation *instr = node->ss.ps.instrument;

	jf_explain_keys(node, ancestors, es, cscan->custom_exprs);
	if (!es->analyze || instr == NULL)
		return;
	/* summed over the workers (InstrAggNode), per loop as EXPLAIN counts rows */
	ExplainPropertyFloat("Rows Removed by Runtime Filter", NULL,
						 instr->nloops > 0 ? instr->nfiltered1 / instr->nloops : 0,
						 0, es);
	/* this process's own counts: the leader's, in a parallel plan */
	if (state->unready > 0 || es->format != EXPLAIN_FORMAT_TEXT)
		ExplainPropertyInteger("Rows Passed Before Filter Was Ready", NULL,
							   state->unready, es);
	if (state->switch_offs > 0 || es->format != EXPLAIN_FORMAT_TEXT)
	{
		ExplainPropertyInteger("Switched Off", NULL, state->switch_offs, es);
		ExplainPropertyInteger("Rows Passed Untested", NULL, state->skipped, es);
	}
}

/* ---- wiring ------------------------------------------------------------ */

typedef struct JfWireContext
{
	List	   *joins;			/* HashJoinState */
	List	   *builds;			/* JfBuildState */
	List	   *probes;			/* JfProbeState */
} JfWireContext;

static bool
jf_wire_walker(PlanState *ps, void *arg)
{
	JfWireContext *cxt = (JfWireContext *) arg;

	if (ps == NULL)
		return false;
	if (IsA(ps, HashJoinState))
		cxt->joins = lappend(cxt->joins, ps);
	else if (IsA(ps, CustomScanState))
	{
		CustomScanState *css = (CustomScanState *) ps;

		if (css->methods == &jf_build_exec_methods)
			cxt->builds = lappend(cxt->builds, ps);
		else if (css->methods == &jf_probe_exec_methods)
			cxt->probes = lappend(cxt->probes, ps);
	}
	return planstate_tree_walker(ps, jf_wire_walker, arg);
}

static PlanState *
jf_find_node(List *states, int plan_node_id)
{
	ListCell   *lc;

	foreach(lc, states)
	{
		PlanState  *ps = lfirst(lc);

		if (ps->plan->plan_node_id == plan_node_id)
			return ps;
	}
	return NULL;
}

/*
 * After the executor has initialised a statement's nodes: give each probe
 * its join and build.  A probe left without them (a copy of the tree made
 * later, for EvalPlanQual) passes every row.
 */
void
jf_wire(QueryDesc *queryDesc)
{
	JfWireContext cxt = {NIL, NIL, NIL};
	ListCell   *lc;

	jf_wire_walker(queryDesc->planstate, &cxt);
	foreach(lc, queryDesc->estate->es_subplanstates)
		jf_wire_walker(lfirst(lc), &cxt);
	foreach(lc, cxt.probes)
	{
		JfProbeState *probe = lfirst(lc);

		probe->join = (HashJoinState *) jf_find_node(cxt.joins, probe->join_id);
		probe->build = (JfBuildState *) jf_find_node(cxt.builds, probe->build_id);
	}
	list_free(cxt.joins);
	list_free(cxt.builds);
	list_free(cxt.probes);
}
