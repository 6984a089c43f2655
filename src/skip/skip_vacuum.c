/*-------------------------------------------------------------------------
 *
 * skip_vacuum.c
 *	  VACUUM of a bloomskip index.
 *
 * A Bloom filter cannot forget a key (clearing its bits could clear
 * another key's), so the bits of deleted rows stay set: they only cost
 * false positives until REINDEX.  Bulk delete has nothing to remove.  The
 * cleanup summarizes every range the table has moved past (every range
 * below the one of the heap's last page), so that an idle table ends with
 * only its last range open, and re-summarizes the ranges a summarizer that
 * failed left between the summarized and writer boundaries (the protocol
 * is in skip_utils.c); it then reports the index's size.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/table.h"
#include "commands/vacuum.h"

/* ambulkdelete: nothing to remove (see the header). */
IndexBulkDeleteResult *
skip_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
				IndexBulkDeleteCallback callback, void *callback_state)
{
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
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
	skip_summarize_upto(heap, index, pages > 0 ? (pages - 1) / ppr : 0, true);
	table_close(heap, AccessShareLock);
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
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = Max(info->num_heap_tuples, 0);
	stats->estimated_count = info->estimated_count;
	return stats;
}
