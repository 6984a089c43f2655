/*-------------------------------------------------------------------------
 *
 * skip_stage.c
 *	  The staging area of a bloomskip index: the filters of the ranges
 *	  summarized last, kept whole until they are sliced into their
 *	  segments together.
 *
 * Why.  Summarizing a range sets each of its keys' k bits in a different
 * row of the segment; with a few hundred keys a range that changes most
 * pages of the segment, and every page changed is generic WAL that
 * compares the whole page.  Appends summarize a range every
 * pages_per_range heap pages, so sliced one at a time, summaries were
 * most of what an append cost.  Staged, a summarized range's filter is
 * written as it is, m bits in one slot of a page: one page changed per
 * range.  When the area is full, the summarizer (skip_insert.c) slices
 * its ranges into their segments together, each segment page changed once
 * for up to SKIP_STAGE_MAX_SLOTS ranges.  GIN's pending list is the same
 * trade: cheap appends to a list that is merged into the index in bulk.
 *
 * Layout.  stage_pages pages from block 1 (after the metapage), each with
 * stage_per_page slots (SkipStageSlot: the range + 1, from format 4 the
 * CRC-32C of the range and the bits, then the filter's m / 8 bytes).  A
 * reader verifies the checksum before it trusts the range: a slot whose
 * range number was damaged would otherwise read as "sliced meanwhile" and
 * be ignored.  The metapage counts nstaged: slots [0, nstaged) hold
 * ranges [summarized - nstaged, summarized), in order.  From format 4 a
 * filter larger than a page has slots of whole pages (stage_per_page 0,
 * up to MAX_GENERIC_XLOG_PAGES pages a slot, so that one WAL record writes
 * one; SKIP_STAGE_MAX_PAGES / pages slots): the n-gram and lexeme filters
 * of text are that large, and sliced one at a time a range changed every
 * page of its segment.  A larger filter, or any filter larger than a page
 * in format 3, is never staged (stage_slots = 0), and neither is a backlog
 * of more ranges than the area holds (VACUUM after a bulk load): those are
 * written into their segments directly, which is as cheap per range.
 *
 * Writers.  Only a summarizer writes the area, holding the index's
 * summarizing lock (skip_insert.c): it slices the staged ranges, sets
 * nstaged to 0, then writes slots from 0 on, and raises summarized and
 * nstaged together in one metapage record after its slots are logged.
 * An insert into a range below the writer boundary never writes a slot:
 * it sets its bits in the segment, the range's final place.
 *
 * Readers.  A scan reads the metapage, then the slots, then the segments,
 * and takes a staged range's answer as the union of its slot's and its
 * segment's (the keys the summarizer read are in the slot; keys inserted
 * later, and everything once sliced, in the segment).  A slot names its
 * range, so a reader that finds a slot rewritten since it read the
 * metapage ignores it: the new range is at or past the summarized
 * boundary the reader read, so it returns that range whole anyway, and
 * the range the slot held before was sliced into its segment before the
 * slot was rewritten, and the reader reads the segment after the slot.
 * A slot is written under the exclusive locks of its page or pages, and
 * read under their share locks, all held together, so no reader sees half
 * of one.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "access/xloginsert.h"
#include "miscadmin.h"

/*
 * Add the staging area's pages, empty, at the end of fork (right after the
 * metapage).  The build logs its main fork as a whole; an init fork's
 * pages are logged here.
 */
void
skip_stage_init_pages(Relation index, const SkipMeta *meta, ForkNumber fork)
{
	for (uint32 i = 0; i < meta->stage_pages; i++)
	{
		Buffer		buf = skip_new_buffer(index, fork);

		if (BufferGetBlockNumber(buf) != meta->stage_first_block + i)
			elog(ERROR, "unexpected block %u in bloomskip build", BufferGetBlockNumber(buf));
		START_CRIT_SECTION();
		skip_init_page(BufferGetPage(buf), meta->version, SKIP_PAGE_STAGE, i,
					   meta->stage_per_page > 0 ?
					   (Size) meta->stage_per_page * skip_stage_slot_bytes(meta) :
					   SKIP_PAGE_AVAIL_V(meta->version));
		MarkBufferDirty(buf);
		if (fork == INIT_FORKNUM)
			log_newpage_buffer(buf, true);
		END_CRIT_SECTION();
		UnlockReleaseBuffer(buf);
	}
}

/* Where slot i is: its (first) block and byte offset. */
static void
skip_slot_location(const SkipMeta *meta, uint32 i, BlockNumber *blk, Size *off)
{
	if (meta->stage_per_page == 0)
	{
		*blk = meta->stage_first_block + i * skip_slot_span(meta);
		*off = MAXALIGN(SizeOfPageHeaderData);
		return;
	}
	*blk = meta->stage_first_block + i / meta->stage_per_page;
	*off = MAXALIGN(SizeOfPageHeaderData) +
		(Size) (i % meta->stage_per_page) * skip_stage_slot_bytes(meta);
}

/*
 * A slot of several pages (stage_per_page 0): its bytes fill its pages one
 * after the other from the end of the page header.  Lock them in block
 * order (exclusive for a writer, which then registers them in state, or
 * shared), each checked; bufs and pages receive them.
 */
static void
skip_lock_span(Relation index, const SkipMeta *meta, uint32 i, int mode,
			   GenericXLogState *state, Buffer *bufs, Page *pages)
{
	BlockNumber blk;
	Size		off;

	skip_slot_location(meta, i, &blk, &off);
	for (uint32 j = 0; j < skip_slot_span(meta); j++)
	{
		bufs[j] = ReadBuffer(index, blk + j);
		LockBuffer(bufs[j], mode);
		skip_check_page(index, meta->version, BufferGetPage(bufs[j]), blk + j,
						SKIP_PAGE_STAGE, blk + j - meta->stage_first_block);
		pages[j] = state ? GenericXLogRegisterBuffer(state, bufs[j], 0) : BufferGetPage(bufs[j]);
	}
}

/* Copy between a slot image of slot_bytes and its pages (to the pages if out). */
static void
skip_copy_span(const SkipMeta *meta, uint8 *image, Page *pages, bool out)
{
	Size		avail = SKIP_PAGE_AVAIL_V(meta->version);
	Size		left = skip_stage_slot_bytes(meta);

	for (uint32 j = 0; left > 0; j++)
	{
		Size		n = Min(avail, left);
		uint8	   *at = (uint8 *) pages[j] + MAXALIGN(SizeOfPageHeaderData);

		if (out)
			memcpy(at, image + j * avail, n);
		else
			memcpy(image + j * avail, at, n);
		left -= n;
	}
}

/* Write the filter of range into slot i, a slot of several pages: one WAL record. */
static void
skip_stage_write_span(Relation index, const SkipMeta *meta, uint32 i, uint64 range,
					  const uint8 *filter)
{
	uint32		span = skip_slot_span(meta);
	uint8	   *image = palloc0(skip_stage_slot_bytes(meta));
	SkipStageSlot *slot = (SkipStageSlot *) image;
	GenericXLogState *state;
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
	Page		pages[MAX_GENERIC_XLOG_PAGES];

	Assert(span <= MAX_GENERIC_XLOG_PAGES);
	slot->range_plus1 = range + 1;
	memcpy(SKIP_SLOT_BITS(meta, slot), filter, meta->nbits / 8);
	slot->checksum = skip_slot_checksum(meta, slot);
	state = GenericXLogStart(index);
	skip_lock_span(index, meta, i, BUFFER_LOCK_EXCLUSIVE, state, bufs, pages);
	skip_copy_span(meta, image, pages, true);
	GenericXLogFinish(state);
	for (uint32 j = 0; j < span; j++)
		UnlockReleaseBuffer(bufs[j]);
	pfree(image);
}

/*
 * Read slot i, a slot of several pages, into image (slot_bytes), its pages
 * share-locked together: a writer holds them all while it writes, so the
 * image is one slot's, old or new.  Returns the block of its first page.
 */
static BlockNumber
skip_stage_read_span(Relation index, const SkipMeta *meta, uint32 i, uint8 *image)
{
	uint32		span = skip_slot_span(meta);
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
	Page		pages[MAX_GENERIC_XLOG_PAGES];
	BlockNumber blk;
	Size		off;

	Assert(span <= MAX_GENERIC_XLOG_PAGES);	/* skip_stage_layout, checked with the metapage */
	skip_slot_location(meta, i, &blk, &off);
	skip_lock_span(index, meta, i, BUFFER_LOCK_SHARE, NULL, bufs, pages);
	skip_copy_span(meta, image, pages, false);
	for (uint32 j = 0; j < span; j++)
		UnlockReleaseBuffer(bufs[j]);
	return blk;
}

/*
 * Write the filters of ranges [from, from + n) (m / 8 bytes each, one
 * after the other) into slots [nstaged, nstaged + n), up to
 * MAX_GENERIC_XLOG_PAGES pages a record.  The caller holds the
 * summarizing lock and has checked that the slots exist.
 */
void
skip_stage_write(Relation index, const SkipMeta *meta, uint64 from, uint32 n,
				 const uint8 *filters)
{
	Size		fbytes = (Size) meta->nbits / 8;

	Assert(meta->nstaged + n <= meta->stage_slots);
	if (meta->stage_per_page == 0)
	{
		for (uint32 i = 0; i < n; i++)
		{
			skip_stage_write_span(index, meta, meta->nstaged + i, from + i,
								  filters + (Size) i * fbytes);
			CHECK_FOR_INTERRUPTS();
		}
		return;
	}
	for (uint32 i = 0; i < n;)
	{
		GenericXLogState *state = GenericXLogStart(index);
		Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
		Page		page = NULL;
		BlockNumber cur = InvalidBlockNumber;
		int			nb = 0;

		for (; i < n; i++)
		{
			BlockNumber blk;
			Size		off;
			SkipStageSlot *slot;

			skip_slot_location(meta, meta->nstaged + i, &blk, &off);
			if (blk != cur)
			{
				if (nb == MAX_GENERIC_XLOG_PAGES)
					break;
				bufs[nb] = ReadBuffer(index, blk);
				LockBuffer(bufs[nb], BUFFER_LOCK_EXCLUSIVE);
				skip_check_page(index, meta->version, BufferGetPage(bufs[nb]), blk,
								SKIP_PAGE_STAGE, blk - meta->stage_first_block);
				page = GenericXLogRegisterBuffer(state, bufs[nb], 0);
				nb++;
				cur = blk;
			}
			slot = (SkipStageSlot *) ((char *) page + off);
			slot->range_plus1 = from + i + 1;
			memcpy(SKIP_SLOT_BITS(meta, slot), filters + (Size) i * fbytes, fbytes);
			if (meta->version >= 4)
				slot->checksum = skip_slot_checksum(meta, slot);
		}
		GenericXLogFinish(state);
		for (int b = 0; b < nb; b++)
			UnlockReleaseBuffer(bufs[b]);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Take slot i's filter into st if the slot holds the range meta says it
 * does (see skip_stage_read); why the slot is corrupt, or NULL.
 */
static const char *
skip_take_slot(const SkipMeta *meta, SkipStaged *st, uint32 i, const SkipStageSlot *slot,
			   bool strict)
{
	Size		fbytes = (Size) meta->nbits / 8;

	if (meta->version >= 4 && slot->checksum != skip_slot_checksum(meta, slot))
		return "the checksum of a slot of the staging area does not match";
	if (slot->range_plus1 == st->first + i + 1)
		st->bits[i] = memcpy(palloc(fbytes), SKIP_SLOT_BITS(meta, slot), fbytes);
	else if (strict)
		return "a slot of the staging area holds another range than the metapage says";
	return NULL;
}

/* skip_stage_read for slots of several pages (stage_per_page 0). */
static void
skip_stage_read_spans(Relation index, const SkipMeta *meta, SkipStaged *st, bool strict)
{
	uint8	   *image = palloc(skip_stage_slot_bytes(meta));

	for (uint32 i = 0; i < st->n; i++)
	{
		BlockNumber blk = skip_stage_read_span(index, meta, i, image);
		const char *why = skip_take_slot(meta, st, i, (const SkipStageSlot *) image, strict);

		if (why)
			skip_corrupt(index, blk, why);
		CHECK_FOR_INTERRUPTS();
	}
	pfree(image);
}

/*
 * Copy the staged filters of meta's slots into *st.  A slot that holds
 * another range than meta says is left NULL, which for a reader without
 * the summarizing lock means the range was sliced meanwhile; a summarizer
 * (strict) holds the lock, so for it the area is corrupt.
 */
void
skip_stage_read(Relation index, const SkipMeta *meta, SkipStaged *st, bool strict)
{
	Buffer		buf = InvalidBuffer;
	BlockNumber cur = InvalidBlockNumber;

	st->first = meta->summarized - meta->nstaged;
	st->n = meta->nstaged;
	st->bits = palloc0(sizeof(uint8 *) * Max(st->n, 1));
	if (meta->stage_per_page == 0)
	{
		skip_stage_read_spans(index, meta, st, strict);
		return;
	}
	for (uint32 i = 0; i < st->n; i++)
	{
		BlockNumber blk;
		Size		off;
		const char *why;

		skip_slot_location(meta, i, &blk, &off);
		if (blk != cur)
		{
			if (BufferIsValid(buf))
				UnlockReleaseBuffer(buf);
			buf = ReadBuffer(index, blk);
			LockBuffer(buf, BUFFER_LOCK_SHARE);
			skip_check_page(index, meta->version, BufferGetPage(buf), blk, SKIP_PAGE_STAGE,
							blk - meta->stage_first_block);
			cur = blk;
		}
		why = skip_take_slot(meta, st, i,
							 (const SkipStageSlot *) ((const char *) BufferGetPage(buf) + off),
							 strict);
		if (why)
		{
			UnlockReleaseBuffer(buf);
			skip_corrupt(index, blk, why);
		}
	}
	if (BufferIsValid(buf))
		UnlockReleaseBuffer(buf);
}

/* The staged filter of range in st, or NULL. */
const uint8 *
skip_staged_bits(const SkipStaged *st, uint64 range)
{
	if (range < st->first || range - st->first >= st->n)
		return NULL;
	return st->bits[range - st->first];
}

/* Are bits pos[0 .. np) all set in the filter bits? */
bool
skip_bits_have(const uint8 *bits, const uint64 *pos, int np)
{
	for (int q = 0; q < np; q++)
		if (((bits[pos[q] / 8] >> (pos[q] % 8)) & 1) == 0)
			return false;
	return true;
}
