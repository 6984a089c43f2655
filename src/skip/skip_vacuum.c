/*-------------------------------------------------------------------------
 *
 * skip_vacuum.c
 *	  VACUUM of a bloomskip index.
 *
 * A Bloom filter cannot forget a key (clearing its bits could clear
 * another key's), so the bits of deleted rows stay set: they only cost
 * false positives until REINDEX.  Bulk delete has nothing to remove, but
 * CREATE INDEX CONCURRENTLY and REINDEX CONCURRENTLY call it too (below).  The
 * cleanup summarizes every range the table has moved past (every range
 * below the one of the heap's last page), so that an idle table ends with
 * only its last range open, and re-summarizes the ranges a summarizer that
 * failed left between the summarized and writer boundaries (the protocol
 * is in README); first, if an earlier VACUUM truncated the heap, it
 * forgets the ranges that are gone (skip_forget_truncated: this VACUUM's
 * own truncation comes after the index cleanup).  It then reports the
 * index's size.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/table.h"
#include "commands/vacuum.h"
#include "miscadmin.h"

/*
 * The validation of a concurrent build.  validate_index() asks ambulkdelete
 * for the TIDs the index holds, then inserts every row its snapshot sees
 * whose TID was not reported, one aminsert at a time.  A range index holds
 * no TIDs: reporting none made every row of the table an insert of k bits
 * per key, page by page -- tens of times a plain build for n-grams, more for
 * REINDEX CONCURRENTLY.  So the pass reads the summarized ranges again
 * from the heap and sets their keys' bits (skip_resummarize: a heap scan
 * and one visit of each segment page, as a summarizer does), and only then
 * reports every line pointer of every heap page it read.  No key is
 * missed: validate_index runs after PostgreSQL waited out every
 * transaction that might insert without seeing the index as ready, so a
 * tuple the pass did not read from its page (placed there after, or at a
 * line pointer the scan had passed) was inserted through aminsert, or is a
 * HOT successor of such a tuple or of a tuple read, with the same keys on
 * the same page.  Line pointers without a tuple are reported for nothing:
 * validate_index looks up only the roots of the tuples it sees, and a HOT
 * chain's root, a redirect perhaps, is on the page's line pointers.  Rows
 * of the open tail (summarized on) are left to validate_index's inserts,
 * which write nothing there.  Reporting a TID is never what makes a key
 * found, so calling the pass when it need not run costs time only: it
 * runs for an index that is not valid yet when progress is reported,
 * which up to PostgreSQL 18 only validate_index asks for (VACUUM of a
 * failed build's leftover does not pay for it).
 */
static bool
skip_validating(const IndexVacuumInfo *info)
{
	return info->report_progress && !info->index->rd_index->indisvalid;
}

typedef struct SkipReport
{
	IndexBulkDeleteCallback callback;
	void	   *state;
} SkipReport;

/* SkipPagesFn: report every line pointer of the pages read. */
static void
skip_report_pages(const SkipHeapPages *pages, void *arg)
{
	SkipReport *rep = (SkipReport *) arg;

	for (uint32 i = 0; i < pages->n; i++)
	{
		for (OffsetNumber off = FirstOffsetNumber; off <= pages->maxoff[i]; off++)
		{
			ItemPointerData tid;

			ItemPointerSet(&tid, pages->blk[i], off);
			(void) rep->callback(&tid, rep->state);
		}
		CHECK_FOR_INTERRUPTS();
	}
}

/* ambulkdelete: nothing to remove; the validation of a concurrent build (above). */
IndexBulkDeleteResult *
skip_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	if (skip_validating(info))
	{
		Relation	heap = table_open(info->index->rd_index->indrelid, AccessShareLock);
		SkipReport	rep = {callback, callback_state};

		(void) skip_resummarize(heap, info->index, skip_report_pages, &rep);
		table_close(heap, AccessShareLock);
	}
	return stats;
}

/* Summarize every range below the one of the heap's last page. */
static void
skip_vacuum_summarize(Relation index)
{
	Relation	heap = table_open(index->rd_index->indrelid, AccessShareLock);
	BlockNumber pages = RelationGetNumberOfBlocks(heap);
	uint32		ppr;
	uint64		writer;

	skip_read_bounds(index, &ppr, &writer);
	if (skip_heap_shrank(writer, ppr, pages))
		skip_forget_truncated(heap, index, PG_UINT64_MAX, true);
	skip_summarize_upto(heap, index, pages > 0 ? (pages - 1) / ppr : 0, true);
	table_close(heap, AccessShareLock);
}

/*
 * Report the summarized ranges that have outgrown the filter size the
 * index was built with: a NOTICE when there are any (REINDEX resizes),
 * else a line at VACUUM's index message level.  PostgreSQL 15 on passes
 * index AMs DEBUG2 even for VACUUM VERBOSE, so the NOTICE is what users
 * see; counting reads the index once, little next to VACUUM's heap pass.
 */
static void
skip_vacuum_report(IndexVacuumInfo *info)
{
	SkipMeta	meta;
	SkipFill	fill;
	int			elevel;

	skip_read_meta(info->index, &meta);
	skip_fill(info->index, &meta, &fill);
	elevel = fill.outgrown > 0 ? Max(NOTICE, info->message_level) : info->message_level;
	ereport(elevel,
			(errmsg("bloomskip index \"%s\": " INT64_FORMAT " of " UINT64_FORMAT " summarized ranges have outgrown their filter size",
					RelationGetRelationName(info->index), fill.outgrown, meta.summarized),
			 errdetail("Their estimated false-positive rate is over twice the target %g; the mean over all summarized ranges is %g.",
					   meta.target_rate, meta.summarized ? fill.sumrate / meta.summarized : 0.0),
			 fill.outgrown > 0 ? errhint("REINDEX the index to size its filters for the keys its ranges hold now.") : 0));
}

/* amvacuumcleanup: summarize; the index's pages; its "tuples" are the heap's rows. */
IndexBulkDeleteResult *
skip_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	skip_vacuum_summarize(info->index);
	skip_vacuum_report(info);
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = Max(info->num_heap_tuples, 0);
	stats->estimated_count = info->estimated_count;
	return stats;
}
