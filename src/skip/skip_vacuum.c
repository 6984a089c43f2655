/*-------------------------------------------------------------------------
 *
 * skip_vacuum.c
 *	  VACUUM of a bloomskip index.
 *
 * A Bloom filter cannot forget a key (clearing its bits could clear
 * another key's), so the bits of deleted rows stay set: they only cost
 * false positives until REINDEX.  Bulk delete has nothing to remove and
 * the cleanup reports the index's size.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

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

/* amvacuumcleanup: the index's pages; its "tuples" are the heap's rows. */
IndexBulkDeleteResult *
skip_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	if (info->analyze_only)
		return stats;
	if (stats == NULL)
		stats = palloc0(sizeof(IndexBulkDeleteResult));
	stats->num_pages = RelationGetNumberOfBlocks(info->index);
	stats->num_index_tuples = Max(info->num_heap_tuples, 0);
	stats->estimated_count = info->estimated_count;
	return stats;
}
