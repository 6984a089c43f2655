/*-------------------------------------------------------------------------
 *
 * skip_extend.c
 *	  Growing a bloomskip index: new pages, and new segments written while
 *	  scans and inserts go on, then published in the metapage.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "miscadmin.h"
#include "storage/lmgr.h"

/* A new page at the end of a fork of the index, locked exclusively. */
Buffer
skip_new_buffer(Relation index, ForkNumber fork)
{
	Buffer		buf;

#if PG_VERSION_NUM >= 160000
	buf = ExtendBufferedRel(BMR_REL(index), fork, NULL,
							EB_LOCK_FIRST | (fork == INIT_FORKNUM ? EB_SKIP_EXTENSION_LOCK : 0));
#else
	bool		needlock = !RELATION_IS_LOCAL(index) && fork != INIT_FORKNUM;

	if (needlock)
		LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBufferExtended(index, fork, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (needlock)
		UnlockRelationForExtension(index, ExclusiveLock);
#endif
	return buf;
}

/*
 * Raise the metapage's nranges to cover range if its segments hold it;
 * returns false if a new segment is needed.
 */
static bool
skip_cover_in_place(Relation index, uint64 range)
{
	SkipMeta	meta;
	Buffer		buf = skip_lock_meta(index, &meta);
	bool		held = meta.nsegments > 0 &&
		range < meta.segments[meta.nsegments - 1].first_range +
		meta.segments[meta.nsegments - 1].capacity;

	if (range >= meta.nranges && held)
	{
		GenericXLogState *state = GenericXLogStart(index);
		SkipMeta   *m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));

		m->nranges = range + 1;
		skip_seal_meta(m);
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return range < meta.nranges || held;
}

/*
 * Append the pages of segment seg of meta (a new one, at the end of the
 * index), zeroed and WAL-logged.  The caller holds SKIP_EXTEND_LOCK.
 */
void
skip_write_new_rows_pages(Relation index, const SkipMeta *meta, const SkipSegment *seg)
{
	for (uint32 i = 0; i < seg->npages; i++)
	{
		Buffer		buf = skip_new_buffer(index, MAIN_FORKNUM);
		GenericXLogState *state;
		Page		page;

		if (BufferGetBlockNumber(buf) != seg->first_block + i)
			elog(ERROR, "bloomskip index \"%s\" was extended concurrently",
				 RelationGetRelationName(index));
		state = GenericXLogStart(index);
		page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
		skip_init_page(page, meta->version, SKIP_PAGE_ROWS,
					   SKIP_ROWS_POSITION(skip_segno(meta, seg), i), skip_rows_bytes(seg));
		skip_seal_rows_page(meta, page);
		GenericXLogFinish(state);
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Extend the index so that it covers range.  Within the last segment that
 * only raises nranges.  A new segment's pages (up to thousands) are
 * written without the metapage's lock, so scans and inserts go on
 * meanwhile; the extension lock (a heavyweight lock, SKIP_EXTEND_LOCK)
 * makes extenders take turns, so a segment's pages are consecutive, and
 * the segment is published in the metapage once its pages are logged.  A
 * crash before that leaves unused pages at the end, which the next
 * extension skips.
 */
void
skip_extend(Relation index, uint64 range)
{
	SkipMeta	meta;
	SkipMeta	cur;
	uint32		old_nsegments;
	Buffer		metabuf;
	GenericXLogState *state;
	SkipMeta   *m;

	if (skip_cover_in_place(index, range))
		return;
	LockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
	if (skip_cover_in_place(index, range))
	{
		UnlockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
		return;
	}
	skip_read_meta(index, &meta);
	old_nsegments = meta.nsegments;
	skip_plan_segments(&meta, range + 1, SKIP_EMPTY_CAPACITY,
					   RelationGetNumberOfBlocks(index));
	for (uint32 s = old_nsegments; s < meta.nsegments; s++)
		skip_write_new_rows_pages(index, &meta, &meta.segments[s]);
	/* publish: only the extender changes segments, others other fields */
	metabuf = skip_lock_meta(index, &cur);
	state = GenericXLogStart(index);
	m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, metabuf, 0));
	m->nsegments = meta.nsegments;
	memcpy(m->segments, meta.segments, sizeof(meta.segments));
	m->nranges = Max(cur.nranges, range + 1);
	skip_seal_meta(m);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);
	UnlockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
}
