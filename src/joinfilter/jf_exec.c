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
#include "utils/datum.h"
#include "utils/lsyscache.h"
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
static void jf_begin_alt(JfProbeState *state, Plan *alt, EState *estate,
						 int eflags);

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
jf_private_int(List *priv, JfPrivate field)
{
	return intVal(list_nth(priv, field));
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

/* "rf1 on d.id, d.kind": a filter's number and the keys it holds or tests */
static void
jf_append_filter(StringInfo buf, int filter_no, List *key_exprs,
				 List *context, bool prefix)
{
	ListCell   *lc;

	appendStringInfo(buf, "rf%d on ", filter_no);
	foreach(lc, key_exprs)
	{
		if (lc != list_head(key_exprs))
			appendStringInfoString(buf, ", ");
		appendStringInfoString(buf, deparse_expression(lfirst(lc), context,
													   prefix, false));
	}
}

static List *
jf_explain_context(CustomScanState *node, List *ancestors, ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;

	return set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan,
									ancestors);
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
	jf_keys_init(&state->keys, cscan->custom_private);
	jf_filter_init(&state->filter, estate->es_query_cxt,
				   jf_private_int(cscan->custom_private, JF_PRIV_PLANNED_ROWS));
	state->prune = jf_private_int(cscan->custom_private, JF_PRIV_PRUNE) != 0;
	state->prune_type = exprType(linitial(cscan->custom_exprs));
}

/* Keep a row's key for a bloomskip index, while there are few (jf_prune.c). */
static void
jf_build_keep_key(JfBuildState *state)
{
	int16		typlen;
	bool		typbyval;
	MemoryContext old;

	if (state->nprune_keys < 0 || state->nulls[0])
		return;
	if (state->nprune_keys == JF_PRUNE_MAX_KEYS)
	{
		state->nprune_keys = -1;	/* too many: the probe keeps its scan */
		return;
	}
	old = MemoryContextSwitchTo(state->filter.cxt);
	if (state->prune_keys == NULL)
		state->prune_keys = palloc(sizeof(Datum) * JF_PRUNE_MAX_KEYS);
	get_typlenbyval(state->prune_type, &typlen, &typbyval);
	state->prune_keys[state->nprune_keys++] = datumCopy(state->values[0],
														typbyval, typlen);
	MemoryContextSwitchTo(old);
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
	if (state->prune)
		jf_build_keep_key(state);
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
	state->prune_keys = NULL;	/* freed with the filter */
	state->nprune_keys = 0;
	jf_rescan_child(node);
}

static void
jf_build_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	JfBuildState *state = (JfBuildState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	JfFilter   *filter = &state->filter;
	StringInfoData buf;

	initStringInfo(&buf);
	jf_append_filter(&buf, jf_private_int(cscan->custom_private, JF_PRIV_FILTER_NO),
					 cscan->custom_exprs, jf_explain_context(node, ancestors, es),
					 es->verbose || list_length(es->rtable) > 1);
	ExplainPropertyText("Runtime Filter", buf.data, es);
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
	int			maxkeys = 0;
	int			n = 0;
	ListCell   *lc;

	jf_begin_child(node, estate, eflags);
	state->prune_filter = -1;
	state->nfilters = list_length(cscan->custom_private);
	state->filters = palloc0(sizeof(JfProbeFilter) * state->nfilters);
	foreach(lc, cscan->custom_private)
	{
		List	   *priv = lfirst(lc);
		List	   *attnos = list_nth(priv, JF_PRIV_ATTNOS);
		JfProbeFilter *pf = &state->filters[n++];
		int			i = 0;
		ListCell   *la;

		pf->filter_no = jf_private_int(priv, JF_PRIV_FILTER_NO);
		pf->join_id = jf_private_int(priv, JF_PRIV_JOIN_ID);
		pf->build_id = jf_private_int(priv, JF_PRIV_BUILD_ID);
		pf->attnos = palloc(sizeof(AttrNumber) * list_length(attnos));
		foreach(la, attnos)
			pf->attnos[i++] = intVal(lfirst(la));
		jf_keys_init(&pf->keys, priv);
		maxkeys = Max(maxkeys, i);
		if (jf_private_int(priv, JF_PRIV_PRUNE) >= 0)
		{
			state->prune_filter = n - 1;
			state->prune_param = jf_private_int(priv, JF_PRIV_PRUNE);
		}
	}
	if (cscan->custom_plans != NIL)
		jf_begin_alt(state, linitial(cscan->custom_plans), estate, eflags);
	state->values = palloc(sizeof(Datum) * maxkeys);
	state->nulls = palloc(sizeof(bool) * maxkeys);
	jf_probes_begun++;
}

/*
 * The bloomskip alternative to the child: started with it, so that its
 * slot type is known; if it differs from the child's, the node's slot type
 * is no longer fixed.
 */
static void
jf_begin_alt(JfProbeState *state, Plan *alt, EState *estate, int eflags)
{
	bool		fixed;

	state->alt = ExecInitNode(alt, estate, eflags);
	state->css.custom_ps = list_make1(state->alt);
	if (ExecGetResultSlotOps(state->alt, &fixed) != state->css.ss.ps.resultops ||
		!fixed)
		state->css.ss.ps.resultopsfixed = false;
}

/* May the filter be trusted now?  (The file's header says why this.) */
static bool
jf_probe_ready(JfProbeFilter *pf)
{
	if (pf->join == NULL || pf->build == NULL)
		return false;			/* not wired: an EvalPlanQual copy, say */
	return pf->join->hj_HashTable != NULL && pf->build->built;
}

/* Start testing: a sample of JF_SAMPLE_ROWS rows from the next row on. */
static void
jf_probe_switch_on(JfProbeFilter *pf)
{
	pf->switched_off = false;
	pf->testing = true;
	pf->sample_left = JF_SAMPLE_ROWS;
	pf->sample_removed = pf->removed;
}

/*
 * A row the filter does not test (it is not ready yet, or it switched
 * itself off) passes.  Counts it, and switches the filter on when it
 * becomes ready or when it has passed JF_RESAMPLE_ROWS rows untested.
 */
static pg_noinline bool
jf_probe_untested(JfProbeFilter *pf)
{
	if (!pf->ready)
	{
		if (!(pf->ready = jf_probe_ready(pf)))
		{
			pf->unready++;
			return true;
		}
		/* a filter the build gave up on passes everything: skip it */
		pf->useless = pf->build->filter.pass_all;
		if (!pf->useless)
		{
			jf_probe_switch_on(pf);
			return false;		/* the caller tests this row */
		}
		pf->switched_off = true;
	}
	pf->skipped++;
	if (!pf->useless && ++pf->off_rows == JF_RESAMPLE_ROWS)
		jf_probe_switch_on(pf);
	return true;
}

/* The end of a sample: switch off if the filter passed too many of it. */
static pg_noinline void
jf_probe_sampled(JfProbeFilter *pf)
{
	int64		passed = JF_SAMPLE_ROWS - (pf->removed - pf->sample_removed);

	if (passed > JF_SWITCH_OFF_PASS * JF_SAMPLE_ROWS)
	{
		pf->testing = false;
		pf->switched_off = true;
		pf->off_rows = 0;
		pf->switch_offs++;
	}
}

/*
 * May the row match the filter's build side?  The per-row path of a
 * filter that is testing is kept to the key fetch, the hash, the test and
 * one counter; the rest is out of line.
 */
static inline bool
jf_probe_filter(JfProbeState *state, JfProbeFilter *pf, TupleTableSlot *slot)
{
	uint64		hash;
	bool		pass;

	if (unlikely(!pf->testing) && jf_probe_untested(pf))
		return true;
	for (int i = 0; i < pf->keys.nkeys; i++)
		state->values[i] = slot_getattr(slot, pf->attnos[i], &state->nulls[i]);
	if (!jf_keys_hash(&pf->keys, state->values, state->nulls, &hash))
		return true;			/* NULL keys are the join's to judge */
	pass = jf_filter_test(&pf->build->filter, hash);
	pf->removed += !pass;
	if (unlikely(pf->sample_left > 0) && --pf->sample_left == 0)
		jf_probe_sampled(pf);
	return pass;
}

/*
 * Once the filter whose keys the bloomskip alternative reads is ready: read
 * the table through the index from now on, if the build had few rows and
 * the rows already passed can be told apart (jf_prune.c).
 */
static void
jf_prune_decide(JfProbeState *state)
{
	JfProbeFilter *pf = &state->filters[state->prune_filter];

	if (!jf_probe_ready(pf))
		return;
	state->prune_decided = true;
	if (pf->build->nprune_keys <= 0 || pf->build->filter.pass_all)
		return;
	jf_prune_set_keys(state->css.ss.ps.state, state->prune_param, pf->build);
	ExecReScan(state->alt);
	state->use_alt = true;
	state->alt_scans++;
}

/* A row passed from the child before deciding: skip it from the index. */
static void
jf_prune_remember(JfProbeState *state, TupleTableSlot *slot)
{
	if (state->nseen == JF_PRUNE_MAX_SEEN || !ItemPointerIsValid(&slot->tts_tid))
		state->prune_decided = true;	/* too late to switch */
	else
		state->seen[state->nseen++] = slot->tts_tid;
}

static bool
jf_prune_seen(JfProbeState *state, TupleTableSlot *slot)
{
	for (int i = 0; i < state->nseen; i++)
		if (ItemPointerEquals(&state->seen[i], &slot->tts_tid))
			return true;
	return false;
}

static TupleTableSlot *
jf_probe_exec(CustomScanState *node)
{
	JfProbeState *state = (JfProbeState *) node;
	PlanState  *child = outerPlanState(node);

	for (;;)
	{
		TupleTableSlot *slot;
		bool		pass = true;

		if (state->alt != NULL && !state->prune_decided)
			jf_prune_decide(state);
		slot = ExecProcNode(state->use_alt ? state->alt : child);
		if (TupIsNull(slot))
			return NULL;
		if (state->use_alt && state->nseen > 0 && jf_prune_seen(state, slot))
			continue;
		/* most selective first (jf_plan.c orders them) */
		for (int i = 0; i < state->nfilters && pass; i++)
			pass = jf_probe_filter(state, &state->filters[i], slot);
		if (pass)
		{
			if (state->alt != NULL && !state->prune_decided)
				jf_prune_remember(state, slot);
			return slot;
		}
		InstrCountFiltered1(node, 1);
		CHECK_FOR_INTERRUPTS();
	}
}

static void
jf_probe_end(CustomScanState *node)
{
	JfProbeState *state = (JfProbeState *) node;

	ExecEndNode(outerPlanState(node));
	if (state->alt != NULL)
		ExecEndNode(state->alt);
}

static void
jf_probe_rescan(CustomScanState *node)
{
	JfProbeState *state = (JfProbeState *) node;

	for (int i = 0; i < state->nfilters; i++)
	{
		JfProbeFilter *pf = &state->filters[i];

		pf->testing = false;
		pf->ready = false;
		pf->switched_off = false;
		pf->useless = false;
		pf->sample_left = 0;
		pf->off_rows = 0;
	}
	/* the alternative is rescanned when it is chosen again */
	state->prune_decided = false;
	state->use_alt = false;
	state->nseen = 0;
	jf_rescan_child(node);
}

/* "rf2 on f.a, rf1 on f.b" and, with ANALYZE, what they did */
static void
jf_probe_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	JfProbeState *state = (JfProbeState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Instrumentation *instr = node->ss.ps.instrument;
	List	   *context = jf_explain_context(node, ancestors, es);
	bool		prefix = es->verbose || list_length(es->rtable) > 1;
	StringInfoData buf;
	int64		unready = 0,
				switch_offs = 0,
				skipped = 0;
	ListCell   *lc;
	int			i = 0;

	initStringInfo(&buf);
	foreach(lc, cscan->custom_exprs)
	{
		if (i > 0)
			appendStringInfoString(&buf, ", ");
		jf_append_filter(&buf, state->filters[i++].filter_no, lfirst(lc),
						 context, prefix);
	}
	ExplainPropertyText(state->nfilters > 1 ? "Runtime Filters" : "Runtime Filter",
						buf.data, es);
	if (!es->analyze || instr == NULL)
		return;
	/* summed over the workers (InstrAggNode), per loop as EXPLAIN counts rows */
	ExplainPropertyFloat("Rows Removed by Runtime Filter", NULL,
						 instr->nloops > 0 ? instr->nfiltered1 / instr->nloops : 0,
						 0, es);
	/* the rest is this process's own: the leader's, in a parallel plan */
	resetStringInfo(&buf);
	for (i = 0; i < state->nfilters; i++)
	{
		JfProbeFilter *pf = &state->filters[i];

		unready += pf->unready;
		switch_offs += pf->switch_offs;
		skipped += pf->skipped;
		if (state->nfilters > 1)
			appendStringInfo(&buf, "%srf%d %lld", i > 0 ? ", " : "",
							 pf->filter_no, (long long) pf->removed);
	}
	if (state->nfilters > 1)
		ExplainPropertyText("Rows Removed per Filter", buf.data, es);
	if (state->alt != NULL)
		ExplainPropertyInteger("Scans Through bloomskip Index", NULL,
							   state->alt_scans, es);
	if (unready > 0 || es->format != EXPLAIN_FORMAT_TEXT)
		ExplainPropertyInteger("Rows Passed Before Filter Was Ready", NULL,
							   unready, es);
	if (switch_offs > 0 || es->format != EXPLAIN_FORMAT_TEXT)
	{
		ExplainPropertyInteger("Switched Off", NULL, switch_offs, es);
		ExplainPropertyInteger("Rows Passed Untested", NULL, skipped, es);
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

		for (int i = 0; i < probe->nfilters; i++)
		{
			JfProbeFilter *pf = &probe->filters[i];

			pf->join = (HashJoinState *) jf_find_node(cxt.joins, pf->join_id);
			pf->build = (JfBuildState *) jf_find_node(cxt.builds, pf->build_id);
		}
	}
	list_free(cxt.joins);
	list_free(cxt.builds);
	list_free(cxt.probes);
}
