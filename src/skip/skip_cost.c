/*-------------------------------------------------------------------------
 *
 * skip_cost.c
 *	  The planner's cost of a bloomskip bitmap scan.
 *
 * The model follows the index's design (skip_utils.c):
 *  - true ranges: the rows the conditions select (their selectivity times
 *	  the table's rows) fill at least rows / rows-per-range ranges; as
 *	  BRIN's estimate does, that minimum is divided by the column's
 *	  |correlation| with the physical order, and it is at most what rows
 *	  placed at random hit (ranges x (1 - e^(-rows / ranges)));
 *  - false ranges: each value probed (every element of an = ANY array)
 *	  adds the target rate times the other ranges;
 *  - index pages: the metapage, then k rows per value and segment, each a
 *	  random page read;
 *  - the heap: the selectivity returned is the fraction of ranges read,
 *	  so the bitmap heap scan costs their pages and rechecks their rows.
 * A key present in every range thus costs the whole table plus the index,
 * and a sequential scan wins; a btree's few pages win where it exists.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"
#include "utils/syscache.h"
#include "access/table.h"

/*
 * Is clause (an index condition on column indexcol) a LIKE of an n-gram
 * column?  Its matches do not follow the column's sort order, so the
 * column's correlation with the physical order says nothing of them.
 */
static bool
skip_clause_is_like(IndexOptInfo *index, IndexClause *iclause)
{
	Expr	   *clause = iclause->rinfo->clause;
	Oid			opno;

	if (IsA(clause, OpExpr))
		opno = ((OpExpr *) clause)->opno;
	else if (IsA(clause, ScalarArrayOpExpr))
		opno = ((ScalarArrayOpExpr *) clause)->opno;
	else
		return false;
	return get_op_opfamily_strategy(opno, index->opfamily[iclause->indexcol]) ==
		SKIP_STRATEGY_LIKE;
}

/*
 * The largest |correlation| of the physical order and an indexed column in
 * the conditions (equality conditions only).
 */
static double
skip_correlation(PlannerInfo *root, IndexPath *path)
{
	IndexOptInfo *index = path->indexinfo;
	RangeTblEntry *rte = planner_rt_fetch(index->rel->relid, root);
	double		corr = 0.0;
	ListCell   *lc;

	if (rte->rtekind != RTE_RELATION)
		return 0.0;
	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		AttrNumber	attnum = index->indexkeys[iclause->indexcol];
		HeapTuple	tup;
		AttStatsSlot sslot;

		if (attnum == 0 || skip_clause_is_like(index, iclause))
			continue;
		tup = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(rte->relid),
							  Int16GetDatum(attnum), BoolGetDatum(rte->inh));
		if (!HeapTupleIsValid(tup))
			continue;
		if (get_attstatsslot(&sslot, tup, STATISTIC_KIND_CORRELATION, InvalidOid,
							 ATTSTATSSLOT_NUMBERS))
		{
			if (sslot.nnumbers > 0)
				corr = Max(corr, fabs(sslot.numbers[0]));
			free_attstatsslot(&sslot);
		}
		ReleaseSysCache(tup);
	}
	return corr;
}

/* The values the conditions probe: 1 per clause, an array's length for = ANY. */
static double
skip_probes(PlannerInfo *root, IndexPath *path)
{
	double		probes = 0;
	ListCell   *lc;

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		foreach(lc2, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc2);

			if (IsA(rinfo->clause, ScalarArrayOpExpr))
			{
				Node	   *arr = lsecond(((ScalarArrayOpExpr *) rinfo->clause)->args);

#if PG_VERSION_NUM >= 170000
				probes += estimate_array_length(root, arr);
#else
				probes += estimate_array_length(arr);
#endif
			}
			else
				probes += 1;
		}
	}
	return Max(probes, 1);
}

/* amcostestimate */
void
skip_costestimate(PlannerInfo *root, IndexPath *path, double loop_count,
				  Cost *indexStartupCost, Cost *indexTotalCost,
				  Selectivity *indexSelectivity, double *indexCorrelation,
				  double *indexPages)
{
	IndexOptInfo *index = path->indexinfo;
	RelOptInfo *rel = index->rel;
	Relation	irel = index_open(index->indexoid, NoLock);
	SkipMeta	meta;
	double		spc_random_page_cost;
	double		nranges, sel, rows, per_range, clustered, scattered, true_ranges,
				false_ranges, open_ranges, probes, corr, pages;
	List	   *quals = get_quals_from_indexclauses(path->indexclauses);

	skip_read_meta(irel, &meta);
	index_close(irel, NoLock);
	get_tablespace_page_costs(index->reltablespace, &spc_random_page_cost, NULL);

	nranges = Max(ceil((double) Max(rel->pages, 1) / meta.pages_per_range), 1.0);
	sel = clauselist_selectivity(root, quals, rel->relid, JOIN_INNER, NULL);
	rows = sel * Max(rel->tuples, 1.0);
	per_range = Max(rel->tuples, 1.0) / nranges;
	clustered = Min(nranges, ceil(rows / per_range));
	scattered = nranges * (1.0 - exp(-rows / nranges));
	corr = skip_correlation(root, path);
	true_ranges = corr > 0 ? Min(scattered, clustered / corr) : scattered;
	true_ranges = Max(true_ranges, Min(clustered, scattered));
	probes = skip_probes(root, path);
	false_ranges = Min(1.0, meta.target_rate * probes) * (nranges - true_ranges);
	/* the open ranges (not summarized) are returned whole */
	open_ranges = Min(nranges, Max(nranges - (double) meta.summarized, 0.0));
	*indexSelectivity = Min(1.0, (true_ranges + false_ranges + open_ranges) / nranges);

	pages = 1.0 + probes * meta.nhashes * Max(meta.nsegments, 1);
	pages = Min(pages, (double) Max(index->pages, 1));
	*indexPages = pages;
	*indexStartupCost = pages * spc_random_page_cost +
		probes * meta.nhashes * nranges / 64.0 * cpu_operator_cost +
		list_length(quals) * cpu_operator_cost;
	*indexTotalCost = *indexStartupCost +
		(true_ranges + false_ranges + open_ranges) * cpu_operator_cost;
	*indexCorrelation = corr;
}
