/*-------------------------------------------------------------------------
 *
 * skip_cost.c
 *	  The planner's cost of a bloomskip bitmap scan.
 *
 * A bloomskip scan returns whole block ranges (pages_per_range heap pages,
 * lossy), so what costs is the number of heap pages of the ranges it
 * returns.  The model predicts that number from the index's design
 * (README), then hands it to PostgreSQL's bitmap heap scan costing in
 * the only form that accepts it: the selectivity.
 *
 * True ranges, from what the index learnt.  The build and every
 * summarization count, in the metapage (SkipStats, format 4, an index of
 * one column of the equality class), the ranges they read, the sum of
 * their distinct keys S (the build's exact counts; a summarized range's
 * from its filter's fill X, -(m / k) ln(1 - X / m)) and a HyperLogLog
 * sketch of their keys, whence the table's distinct keys D (within about
 * 3 %).  A key then lies in S / D ranges on average, and a range of R rows
 * holds R / (S / ranges) rows of each key it holds.  That is what the
 * statistics get wrong when each key's rows sit together: ANALYZE's
 * sample of a large table undercounts such ids (at 10 M rows a quarter of
 * them: each then seems to have 30 rows and 4 ranges).  The statistics still say
 * which values are frequent, and those counts are measured: a value the
 * statistics give more rows than their average value (tuples /
 * n_distinct: an MCV) gets the ranges of that excess on top of the
 * average key's, so a value in every range still costs the whole table.
 * The sketch keeps the keys of rows deleted since and of ranges VACUUM
 * truncated away (the sum loses their share); the figures only steer the
 * planner, no answer depends on them.
 *
 * True ranges, from the statistics (a format 3 index, built by 1.3, or
 * one of several columns or another class).  The build sized the filters
 * for the distinct keys of a range (the metapage's design_distinct is
 * SKIP_HEADROOM times the build's 95th percentile d), so a range of R rows
 * holds about R / d rows of each value it holds.  A value of r rows (the conditions' selectivity, per
 * value probed) thus lies in about r / (R / d) ranges.  It lies in at
 * least the share d / D of the ranges, D being the column's distinct
 * values in the statistics: the ten names of a column where every range
 * holds all ten are in every range, however the rows of one name are
 * counted.  And it lies in at most the ranges r rows placed at random hit,
 * ranges x (1 - e^(-r / ranges)).  Random 64-bit ids written eight at a
 * time then cost one range each, as the scan finds, not eight.  The
 * values probed (every element of an = ANY array) are placed
 * independently, so their ranges overlap as random draws.  The estimate is
 * as good as the statistics (on clustered ids, see above, ALTER TABLE ...
 * SET (n_distinct) corrects it).  The column's correlation with the physical
 * order says how values follow one another, not how the rows of one value
 * group (the ten names correlate at 0.1 and fill every range), so it is
 * used, as BRIN's estimate does (the rows' least share of ranges divided
 * by |correlation|), only for an index built on an empty table, which
 * records no design (d <= 1) and whose rows are otherwise taken as
 * scattered.
 *
 * False ranges.  Each probe passes a range that lacks its key at the
 * filter's false-positive rate at the build's percentile of keys,
 * (1 - e^(-k d / m))^k, lower than the target rate the filter was sized
 * for with headroom; every other summarized range is returned at
 * 1 - (1 - rate)^probes.  The open ranges (not summarized) are returned
 * whole: the table's pages past the summarized ranges.
 *
 * Heap pages.  PostgreSQL (cost_bitmap_heap_scan, compute_bitmap_pages)
 * turns the selectivity s into tuples t = s x reltuples and those into
 * heap pages as if each tuple were on a random page, P = 2Tt / (2T + t) for
 * T table pages: about one page per tuple.  Returning the share of ranges
 * as s would charge a page for every row of them, 75 times too much for a
 * table of 75 rows a page, which put a point lookup on 100 M rows at
 * 1.9 M and over jit_above_cost.  So s is chosen for the predicted pages:
 * t = 2TP / (2T - P) inverts the formula (t = 2T reads every page).  The
 * bitmap heap scan then charges each page it predicts at a cost between
 * random_page_cost and seq_page_cost, nearer the random one the fewer the
 * pages (the square root of their share of the table), as if they were
 * scattered one by one.  A range's pages are not: they are pages_per_range
 * consecutive pages, read in order, so a scan's I/O is one random page per
 * range returned (one more for the open tail) and sequential pages after
 * it.  At half of a table of 16-page ranges, with the default page costs,
 * that is 1.19 a page against PostgreSQL's 1.88, which made a scan of
 * half the table cost more than the sequential scan where it took half
 * its time.  So P is turned into the pages P' whose cost by PostgreSQL's
 * formula is that of the runs, and s chosen for P' (EXPLAIN's rows of the
 * index scan are P' pages' tuples).  The cost must stay on the heap's
 * side: of two indexes for the same conditions PostgreSQL keeps the one
 * of the lower index cost (choose_bitmap_and), so that cost must grow
 * with the pages an index returns, and the saving, taken off it, would
 * favour the index returning more.  The bitmap heap scan also charges
 * cpu_tuple_cost and the quals for t tuples (or more when work_mem makes
 * the bitmap lossy); but every tuple of every page returned is rechecked,
 * so the difference is added to the index's cost, as is I/O the formula
 * cannot reach (every range of a table costs its pages and a random read
 * each, more than any count of pages costs in the formula).  The index's
 * cost thus carries the recheck, and a key present in every range costs
 * a full bitmap heap scan and a random read per range, more than the
 * sequential scan, which wins; a btree's few pages win where it exists.
 * Repeated scans (the inner side of a nested loop) get PostgreSQL's
 * caching estimate over the loops for the heap and, as genericcostestimate
 * does, for the index pages.
 *
 * Index pages: the metapage, then k rows per probe and segment, each a
 * random page read, and the ANDing of k rows of a bit per range.
 *
 * Queries of the other classes (LIKE, ILIKE and regular expressions on an
 * n-gram class, @@ on tsvector, the array and jsonb operators).  Their
 * rows come from PostgreSQL's selectivity functions, which know little of
 * them: patternsel puts a word its histogram does not hold at about a
 * hundred rows of a million whether ten or a thousand rows hold it, the
 * array statistics an element outside the most common ones at a fraction
 * of the least common one's.  And the ranges a needle lies in do not
 * follow from its rows: the n-grams of a word of prose are each in most
 * ranges, so a needle of ten rows may pass two thirds of them; no sketch
 * of each key's ranges kept at build could say which ranges hold all of
 * a needle's keys at once (the least of its keys' counts is only a
 * bound).  So for a constant query the index itself is asked: the
 * ranges whose bits hold its keys, read as the scan's first step reads them
 * (skip_query_share, skip_array_cost.c), are what the scan will return of
 * the summarized ranges, true and false ones together; the rows' ranges
 * only say how many of them are true.  Where no range is summarized, or
 * the query is not a constant (a parameter of a generic plan), the model
 * counts instead: each of the query's keys is a probe of the index pages,
 * and a range lacking the needle passes only if each clause's keys pass,
 * so the false-positive rate is rate^c for c keys it must pass (over the
 * clauses, the fewest keys of an alternative), c capped at
 * SKIP_COST_MAX_CLAUSES (the needle's common n-grams are in every range:
 * only its rare ones test, and the default rate of an n-gram index is
 * chosen for two).  A query that asks nothing returns every range.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/spccache.h"
#include "utils/syscache.h"
#include "access/table.h"

/* absent clauses of a pattern counted at most (see the header comment) */
#define SKIP_COST_MAX_CLAUSES	2

/* What the index does with the conditions' constant patterns. */
typedef struct SkipPatterns
{
	double		keys;			/* probes beyond one per pattern clause */
	int			clauses;		/* the most keys a lacking range must pass (0: none) */
	bool		every_range;	/* a pattern asks nothing */
	double		share;			/* the share of the summarized ranges the
								 * index says pass (-1: not read) */
} SkipPatterns;

/* What the model predicts a scan reads. */
typedef struct SkipEstimate
{
	double		nranges;		/* ranges of the table */
	double		true_ranges;	/* ranges holding the rows */
	double		false_ranges;	/* summarized ranges returned for nothing */
	double		open_ranges;	/* not summarized: returned whole */
	double		heap_pages;		/* pages of the ranges returned */
} SkipEstimate;

/*
 * Is clause (an index condition on column indexcol) a pattern (LIKE,
 * ILIKE, a regular expression) of an n-gram column?  Its matches do not follow the column's sort order, so the
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
	return get_op_opfamily_strategy(opno, index->opfamily[iclause->indexcol]) !=
		SKIP_STRATEGY_EQUAL;
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

/*
 * The values the conditions probe: 1 per clause, an array's length for
 * = ANY.  *values is the largest count of one clause: the groups the rows
 * selected fall into (conditions on two columns AND, they do not add).
 */
static double
skip_probes(PlannerInfo *root, IndexPath *path, double *values)
{
	double		probes = 0;
	ListCell   *lc;

	*values = 1;
	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		ListCell   *lc2;

		foreach(lc2, iclause->indexquals)
		{
			RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc2);
			double		n = 1;

			if (IsA(rinfo->clause, ScalarArrayOpExpr))
			{
				Node	   *arr = lsecond(((ScalarArrayOpExpr *) rinfo->clause)->args);

#if PG_VERSION_NUM >= 170000
				n = estimate_array_length(root, arr);
#else
				n = estimate_array_length(arr);
#endif
			}
			probes += n;
			*values = Max(*values, n);
		}
	}
	return Max(probes, 1);
}

/*
 * The least distinct count of the columns the conditions name, from the
 * statistics (0: none known).
 */
static double
skip_column_distinct(PlannerInfo *root, IndexPath *path)
{
	IndexOptInfo *index = path->indexinfo;
	double		least = 0;
	ListCell   *lc;

	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		TargetEntry *tle = list_nth_node(TargetEntry, index->indextlist, iclause->indexcol);
		VariableStatData vardata;
		bool		isdefault;
		double		n;

		examine_variable(root, (Node *) tle->expr, index->rel->relid, &vardata);
		n = get_variable_numdistinct(&vardata, &isdefault);
		ReleaseVariableStats(vardata);
		if (!isdefault && n >= 1.0 && (least == 0 || n < least))
			least = n;
	}
	return least;
}

/*
 * What the index learnt of its keys (the metapage's SkipStats), as the
 * model uses it; known is false for an index that keeps none.
 */
typedef struct SkipLearnt
{
	bool		known;
	double		per_range;		/* distinct keys of a range, on average */
	double		ranges_per_key; /* ranges a key lies in, on average */
} SkipLearnt;

/* Read meta's statistics into *l. */
static void
skip_learnt(const SkipMeta *meta, SkipLearnt *l)
{
	memset(l, 0, sizeof(SkipLearnt));
	l->known = skip_stats_figures(&meta->stats, &l->per_range, &l->ranges_per_key);
}

/*
 * Ranges one value of per_value rows (by the statistics) lies in, from
 * what the index learnt: the average key's ranges, and the ranges the rows
 * the statistics give it beyond the average value's fill (a frequent value
 * ANALYZE counted); *per_value becomes the rows that makes.
 */
static double
skip_learnt_ranges(const SkipLearnt *l, double per_range, double tuples,
				   double ndistinct, double *per_value)
{
	double		in_range = Max(1.0, per_range / l->per_range);
	double		excess = ndistinct > 0 ? Max(0.0, *per_value - tuples / ndistinct) : 0.0;

	*per_value = l->ranges_per_key * in_range + excess;
	return l->ranges_per_key + excess / in_range;
}

/*
 * Ranges holding rows selected rows, split into values groups, in a table
 * of tuples rows: see the essay.  d is the distinct keys of a range the
 * build saw (0: unknown); l what the index learnt.
 */
static double
skip_true_ranges(double nranges, double tuples, double rows, double values,
				 double d, double ndistinct, double corr, const SkipLearnt *l)
{
	double		per_range = tuples / nranges;
	double		per_value = rows / values;
	double		scattered;
	double		least = Min(nranges, rows / per_range);
	double		ranges;

	if (l->known)
	{
		ranges = skip_learnt_ranges(l, per_range, tuples, ndistinct, &per_value);
		scattered = nranges * (1.0 - exp(-per_value / nranges));
		ranges = Min(scattered, ranges);
		least = Min(nranges, per_value * values / per_range);
	}
	else if (d > 1.0)
	{
		double		in_range = Max(1.0, per_range / d);

		scattered = nranges * (1.0 - exp(-per_value / nranges));
		ranges = Max(per_value / in_range, Min(per_value, 1.0));
		if (ndistinct > 0)
			ranges = Max(ranges, nranges * Min(1.0, d / ndistinct));
		ranges = Min(scattered, ranges);
	}
	else
	{
		scattered = nranges * (1.0 - exp(-per_value / nranges));
		ranges = scattered;
		if (corr > 0)
			ranges = Min(ranges, least / values / corr);
	}
	/* the values' ranges, independently placed, overlap */
	ranges = nranges * (1.0 - pow(1.0 - Min(ranges / nranges, 1.0), values));
	return Min(nranges, Max(ranges, least));
}

/* The heap pages a scan of the conditions returns. */
static void
skip_estimate(const SkipMeta *meta, RelOptInfo *rel, double rows, double probes,
			  double values, double ndistinct, double corr,
			  const SkipPatterns *pat, SkipEstimate *est)
{
	double		tuples = Max(rel->tuples, 1.0);
	double		pages = Max((double) rel->pages, 1.0);
	double		d = meta->design_distinct / SKIP_HEADROOM;
	double		summarized, rate, per_range_pages;
	SkipLearnt	learnt;

	skip_learnt(meta, &learnt);
	est->nranges = Max(ceil(pages / meta->pages_per_range), 1.0);
	summarized = Min(est->nranges, (double) meta->summarized);
	est->open_ranges = est->nranges - summarized;
	est->true_ranges = skip_true_ranges(est->nranges, tuples, rows, values,
										d > 1.0 ? d : 0.0, ndistinct, corr, &learnt);
	/* of the true ranges, those summarized (the open ones are read anyway) */
	est->true_ranges *= summarized / est->nranges;
	if (d > 1.0 && meta->nbits > 0)
		rate = pow(1.0 - exp(-(double) meta->nhashes * d / meta->nbits), meta->nhashes);
	else
		rate = meta->target_rate;
	rate = Min(Max(rate, 0.0), 1.0);
	if (pat->every_range)
		rate = 1.0;
	else if (pat->clauses > 1)
		rate = pow(rate, Min(pat->clauses, SKIP_COST_MAX_CLAUSES));
	est->false_ranges = (1.0 - pow(1.0 - rate, probes)) *
		Max(summarized - est->true_ranges, 0.0);
	if (pat->share >= 0)
	{
		/* the scan returns the ranges counted, whatever the rows say */
		double		passed = pat->share * summarized;

		est->true_ranges = Min(est->true_ranges, passed);
		est->false_ranges = passed - est->true_ranges;
	}
	/* a summarized range is whole; the open ones are the rest of the table */
	per_range_pages = Min((double) meta->pages_per_range, pages);
	est->heap_pages = Min(pages, (est->true_ranges + est->false_ranges) * per_range_pages +
						  Max(pages - summarized * per_range_pages, 0.0));
}

/*
 * The runs of consecutive pages a scan of est reads: a summarized range
 * returned is one (ranges returned side by side are counted apart), the
 * open ranges at the table's end another.
 */
static double
skip_runs(const SkipMeta *meta, RelOptInfo *rel, const SkipEstimate *est)
{
	double		pages = Max((double) rel->pages, 1.0);
	double		summarized = Min(est->nranges, (double) meta->summarized);

	return est->true_ranges + est->false_ranges +
		(pages > summarized * meta->pages_per_range ? 1.0 : 0.0);
}

/*
 * What cost_bitmap_heap_scan() charges for the I/O of P of T pages: each
 * at an interpolation between the random and the sequential page cost.
 */
static double
skip_pg_heap_io(double P, double T, double random_cost, double seq_cost)
{
	return P * (random_cost - (random_cost - seq_cost) * sqrt(P / T));
}

/*
 * The pages P' <= T whose cost by skip_pg_heap_io() is io, or T when io is
 * beyond what any count of pages costs there (the caller adds the rest).
 * The function rises up to P / T = (r / (1.5 (r - s)))^2 and falls after
 * it (to T s at T): search the rising part.
 */
static double
skip_pages_costing(double io, double T, double random_cost, double seq_cost)
{
	double		lo = 0.0, hi = T;

	if (random_cost > seq_cost)
		hi = T * Min(1.0, pow(random_cost / (1.5 * (random_cost - seq_cost)), 2.0));
	if (io >= skip_pg_heap_io(hi, T, random_cost, seq_cost))
		return T;
	for (int i = 0; i < 60; i++)
	{
		double		mid = (lo + hi) / 2;

		if (skip_pg_heap_io(mid, T, random_cost, seq_cost) < io)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/*
 * The selectivity for which the bitmap heap scan charges the I/O of
 * heap_pages pages read in runs runs (see the essay), and the cost it
 * leaves out: the I/O beyond what it charges, and the recheck of every
 * tuple on the pages beyond those it charges.  qual_cost: the conditions'
 * cost per tuple.
 */
static Selectivity
skip_heap_selectivity(RelOptInfo *rel, double heap_pages, double runs, double qual_cost,
					  double spc_random_page_cost, double spc_seq_page_cost,
					  Cost *missing)
{
	double		T = Max((double) rel->pages, 1.0);
	double		tuples = Max(rel->tuples, 1.0);
	double		P = Min(Max(heap_pages, 1.0), T);
	double		io, charged, t, sel, pg_pages, pg_tuples, maxentries;

	/* a run's first page is a random read, the pages after it sequential */
	runs = Min(Max(runs, 1.0), P);
	io = runs * spc_random_page_cost + (P - runs) * spc_seq_page_cost;
	charged = skip_pages_costing(io, T, spc_random_page_cost, spc_seq_page_cost);

	t = (charged >= T) ? 2.0 * T : 2.0 * T * charged / (2.0 * T - charged);
	sel = Min(1.0, t / tuples);

	/* what compute_bitmap_pages() makes of sel, loop_count 1 */
	t = clamp_row_est(sel * tuples);
	pg_pages = Min(2.0 * T * t / (2.0 * T + t), T);
	pg_tuples = t;
	maxentries = (double) tbm_calculate_entries((Size) work_mem * 1024);
	if (maxentries < pg_pages)
	{
		double		lossy = Max(0.0, pg_pages - maxentries / 2);
		double		exact = pg_pages - lossy;

		pg_tuples = clamp_row_est(sel * (exact / pg_pages) * tuples +
								  (lossy / pg_pages) * tuples);
	}

	*missing = Max(0.0, io - skip_pg_heap_io(ceil(pg_pages), T, spc_random_page_cost,
											  spc_seq_page_cost)) +
		Max(0.0, P * tuples / T - pg_tuples) * (cpu_tuple_cost + qual_cost);
	return sel;
}

/*
 * The keys of q a range lacking the needle must all pass: over the
 * clauses, the fewest keys of one of its alternatives.
 */
static int
skip_query_tests(const SkipQuery *q)
{
	int			tests = 0;

	for (int c = 0; c < q->nclauses; c++)
	{
		int			a0 = c > 0 ? q->clause_end[c - 1] : 0;
		int			least = INT_MAX;

		for (int a = a0; a < q->clause_end[c]; a++)
			least = Min(least, q->alt_end[a] - (a > 0 ? q->alt_end[a - 1] : 0));
		tests += least == INT_MAX ? 0 : least;
	}
	return tests;
}

/*
 * What the index asks of the ranges for each constant pattern of the
 * conditions, as its scan will (skip_query_build).
 */
static void
skip_patterns(IndexPath *path, Relation irel, const SkipMeta *meta, SkipPatterns *pat)
{
	IndexOptInfo *index = path->indexinfo;
	SkipKeyInfo *ki = NULL;
	ListCell   *lc;

	memset(pat, 0, sizeof(SkipPatterns));
	pat->share = -1.0;
	foreach(lc, path->indexclauses)
	{
		IndexClause *iclause = lfirst_node(IndexClause, lc);
		OpExpr	   *op = (OpExpr *) iclause->rinfo->clause;
		int			strategy;
		Node	   *arg;
		SkipQuery	q;
		double		share;

		if (!IsA(op, OpExpr) || list_length(op->args) != 2)
			continue;
		strategy = get_op_opfamily_strategy(op->opno, index->opfamily[iclause->indexcol]);
		arg = (Node *) lsecond(op->args);
		if (strategy == SKIP_STRATEGY_EQUAL || !IsA(arg, Const) || ((Const *) arg)->constisnull)
			continue;
		if (ki == NULL)
		{
			ki = palloc(sizeof(SkipKeyInfo));
			skip_keyinfo_init(ki, irel, CurrentMemoryContext);
		}
		skip_query_init(&q, CurrentMemoryContext);
		if (!skip_query_build(ki, meta, iclause->indexcol, strategy, op->inputcollid,
							  &ki->ti[iclause->indexcol], ((Const *) arg)->constvalue, &q))
		{
			pat->every_range = true;
			continue;
		}
		pat->keys += Max(q.keys.n - 1, 0);
		pat->clauses = Max(pat->clauses, skip_query_tests(&q));
		/* the ranges the query passes, counted from the index (see the essay) */
		share = skip_query_share(irel, meta, &q);
		if (share >= 0)
			pat->share = pat->share < 0 ? share : Min(pat->share, share);
	}
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
	SkipEstimate est;
	QualCost	qcost;
	double		spc_random_page_cost, spc_seq_page_cost;
	double		sel, probes, values, corr, pages;
	Cost		missing;
	List	   *quals = get_quals_from_indexclauses(path->indexclauses);
	SkipPatterns patterns;

	skip_read_meta(irel, &meta);
	skip_patterns(path, irel, &meta, &patterns);
	index_close(irel, NoLock);
	get_tablespace_page_costs(index->reltablespace, &spc_random_page_cost,
							  &spc_seq_page_cost);

	sel = clauselist_selectivity(root, quals, rel->relid, JOIN_INNER, NULL);
	probes = skip_probes(root, path, &values);
	corr = skip_correlation(root, path);
	skip_estimate(&meta, rel, sel * Max(rel->tuples, 1.0), probes, values,
				  skip_column_distinct(root, path), corr, &patterns, &est);
	probes += patterns.keys;
	cost_qual_eval(&qcost, quals, root);
	*indexSelectivity = skip_heap_selectivity(rel, est.heap_pages, skip_runs(&meta, rel, &est),
											  qcost.per_tuple,
											  spc_random_page_cost,
											  spc_seq_page_cost, &missing);

	/* k rows per probe in each segment, and in the recent segment if any */
	pages = 1.0 + probes * meta.nhashes *
		(Max(meta.nsegments, 1) + (meta.recent.capacity > 0 ? 1 : 0));
	pages = Min(pages, (double) Max(index->pages, 1));
	*indexPages = pages;
	if (loop_count > 1)
		pages = index_pages_fetched(pages * loop_count, (BlockNumber) Max(index->pages, 1),
									(double) Max(index->pages, 1), root) / loop_count;
	*indexStartupCost = pages * spc_random_page_cost +
		probes * meta.nhashes * est.nranges / 64.0 * cpu_operator_cost +
		list_length(quals) * cpu_operator_cost;
	*indexTotalCost = *indexStartupCost +
		(est.true_ranges + est.false_ranges + est.open_ranges) * cpu_operator_cost +
		missing;
	*indexCorrelation = corr;
}
