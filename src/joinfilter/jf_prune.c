/*-------------------------------------------------------------------------
 *
 * jf_prune.c
 *	  A runtime join filter's keys through a bloomskip index: when the probe
 *	  side is a sequential scan of a table with a bloomskip index on the key
 *	  and the build side turns out to have few rows, the probe reads the
 *	  table through the index (a bitmap scan of "key = ANY (build keys)")
 *	  instead, so that ranges without a key are never read.
 *
 * The plan carries the alternative from the start: a Bitmap Heap Scan with
 * the sequential scan's relation, condition and columns over a bloomskip
 * Bitmap Index Scan, whose array is a parameter of the plan's own (a new
 * PARAM_EXEC slot) that the probe sets from the build's keys.  Dropping the
 * rows the array rules out -- NULL keys among them -- is sound only for
 * what the filter may drop too, under a strict operator: the join would
 * drop them.  The probe switches at most once per scan, before it has
 * passed more than a few rows of the sequential scan (a hash join fetches
 * one outer row before it builds); those rows are remembered and skipped
 * when the bitmap scan returns them again.
 *
 *-------------------------------------------------------------------------
 */
#include "joinfilter.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_index.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/* A valid bloomskip index of rel whose first column is attno, or InvalidOid. */
static Oid
jf_prune_index(Relation rel, AttrNumber attno, Oid opno)
{
	Oid			amoid = get_index_am_oid("bloomskip", true);
	List	   *indexes;
	ListCell   *lc;
	Oid			found = InvalidOid;

	if (!OidIsValid(amoid))
		return InvalidOid;
	indexes = RelationGetIndexList(rel);
	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);

		if (index->rd_rel->relam == amoid &&
			index->rd_index->indisvalid &&
			index->rd_index->indkey.values[0] == attno &&
			heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL) &&
			heap_attisnull(index->rd_indextuple, Anum_pg_index_indexprs, NULL) &&
			op_in_opfamily(opno, index->rd_opfamily[0]))
			found = RelationGetRelid(index);
		index_close(index, AccessShareLock);
		if (OidIsValid(found))
			break;
	}
	list_free(indexes);
	return found;
}

static ScalarArrayOpExpr *
jf_any_expr(Oid opno, Var *column, Param *array)
{
	ScalarArrayOpExpr *saop = makeNode(ScalarArrayOpExpr);

	saop->opno = opno;
	saop->opfuncid = get_opcode(opno);
	saop->useOr = true;
	saop->inputcollid = column->varcollid;
	saop->args = list_make2(column, array);
	saop->location = -1;
	return saop;
}

/*
 * The bitmap scan that replaces scan when the build has few keys, or NULL
 * when there is no bloomskip index to use.  key_attno: the key's position
 * in scan's columns; opno: the join's operator (probe type, build type).
 * Sets *paramid to the array's parameter.
 */
Plan *
jf_prune_plan(PlannedStmt *stmt, Plan *scan, AttrNumber key_attno, Oid opno,
			  int *next_node_id, int *paramid)
{
	Scan	   *seq = (Scan *) scan;
	TargetEntry *tle = list_nth(scan->targetlist, key_attno - 1);
	Var		   *column = (Var *) tle->expr;
	RangeTblEntry *rte;
	Relation	rel;
	Oid			indexid;
	Oid			lefttype,
				righttype,
				arraytype;
	Param	   *array;
	Var		   *index_column;
	BitmapIndexScan *bis;
	BitmapHeapScan *bhs;

	if (!IsA(scan, SeqScan) || scan->parallel_aware ||
		!IsA(column, Var) || column->varno != seq->scanrelid ||
		column->varattno <= 0)
		return NULL;
	op_input_types(opno, &lefttype, &righttype);
	arraytype = get_array_type(righttype);
	/* the index hashes with the column's type: the keys must be of it */
	if (lefttype != righttype || lefttype != column->vartype ||
		!OidIsValid(arraytype))
		return NULL;
	rte = rt_fetch(seq->scanrelid, stmt->rtable);
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_RELATION)
		return NULL;
	rel = table_open(rte->relid, NoLock);	/* the planner holds its lock */
	indexid = jf_prune_index(rel, column->varattno, opno);
	table_close(rel, NoLock);
	if (!OidIsValid(indexid))
		return NULL;

	*paramid = list_length(stmt->paramExecTypes);
	stmt->paramExecTypes = lappend_oid(stmt->paramExecTypes, arraytype);
	array = makeNode(Param);
	array->paramkind = PARAM_EXEC;
	array->paramid = *paramid;
	array->paramtype = arraytype;
	array->paramtypmod = -1;
	array->paramcollid = InvalidOid;
	array->location = -1;

	bis = makeNode(BitmapIndexScan);
	bis->scan.scanrelid = seq->scanrelid;
	bis->scan.plan.plan_node_id = (*next_node_id)++;
	bis->scan.plan.parallel_safe = scan->parallel_safe;
	bis->indexid = indexid;
	/* index conditions name the index's column as INDEX_VAR (createplan.c) */
	index_column = copyObject(column);
	index_column->varno = INDEX_VAR;
	index_column->varattno = 1;
	bis->indexqual = list_make1(jf_any_expr(opno, index_column, array));
	bis->indexqualorig = list_make1(jf_any_expr(opno, copyObject(column),
												copyObject(array)));

	bhs = makeNode(BitmapHeapScan);
	bhs->scan.scanrelid = seq->scanrelid;
	bhs->scan.plan.plan_node_id = (*next_node_id)++;
	bhs->scan.plan.startup_cost = scan->startup_cost;
	bhs->scan.plan.total_cost = scan->total_cost;
	bhs->scan.plan.plan_rows = scan->plan_rows;
	bhs->scan.plan.plan_width = scan->plan_width;
	bhs->scan.plan.parallel_safe = scan->parallel_safe;
	bhs->scan.plan.targetlist = copyObject(scan->targetlist);
	bhs->scan.plan.qual = copyObject(scan->qual);
	bhs->scan.plan.extParam = bms_copy(scan->extParam);
	bhs->scan.plan.allParam = bms_copy(scan->allParam);
	bhs->scan.plan.lefttree = &bis->scan.plan;
	bhs->bitmapqualorig = copyObject(bis->indexqualorig);
	return &bhs->scan.plan;
}

/*
 * Set the array parameter from the build's keys (the build side had at
 * most JF_PRUNE_MAX_KEYS rows), ready for a rescan of the bitmap scan.
 */
void
jf_prune_set_keys(EState *estate, int paramid, JfBuildState *build)
{
	ParamExecData *prm = &estate->es_param_exec_vals[paramid];
	Oid			type = build->prune_type;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	MemoryContext old = MemoryContextSwitchTo(build->filter.cxt);

	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	prm->execPlan = NULL;
	prm->value = PointerGetDatum(construct_array(build->prune_keys,
												 build->nprune_keys, type,
												 typlen, typbyval, typalign));
	prm->isnull = false;
	MemoryContextSwitchTo(old);
}
