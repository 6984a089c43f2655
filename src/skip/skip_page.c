/*-------------------------------------------------------------------------
 *
 * skip_page.c
 *	  The pages of a bloomskip index: their special space, the checks every
 *	  reader makes of a page (kind, position and, from format 4, the
 *	  CRC-32C of a page of rows or a staging slot), the corruption error.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "port/pg_crc32c.h"

/*
 * Initialize a page of an index of format version holding used bytes of
 * data: the special space (its kind, and from format 4 its position), and
 * pd_lower after the data, so that generic WAL compares and page images
 * keep only the bytes in use.  A page of rows gets its checksum when its
 * bits are set (skip_seal_rows_page).
 */
void
skip_init_page(Page page, uint32 version, uint16 kind, uint32 position, Size used)
{
	SkipPageOpaque *op;

	PageInit(page, BLCKSZ, SKIP_SPECIAL_SIZE(version));
	op = (SkipPageOpaque *) PageGetSpecialPointer(page);
	op->magic = SKIP_MAGIC;
	op->kind = kind;
	if (version >= 4)
	{
		op->version = (uint16) version;
		op->position = position;
	}
	Assert(used <= SKIP_PAGE_AVAIL_V(version));
	((PageHeader) page)->pd_lower = MAXALIGN(SizeOfPageHeaderData) + used;
}

/*
 * The number of segment seg of meta in its pages' positions: its index in
 * the directory, or SKIP_RECENT_SEGNO for the recent segment.
 */
uint32
skip_segno(const SkipMeta *meta, const SkipSegment *seg)
{
	if (seg == &meta->recent)
		return SKIP_RECENT_SEGNO;
	Assert(seg >= meta->segments && seg < meta->segments + SKIP_MAX_SEGMENTS);
	return (uint32) (seg - meta->segments);
}

/* The bytes of a row page of segment seg in use. */
Size
skip_rows_bytes(const SkipSegment *seg)
{
	return (Size) seg->rows_per_page * (seg->capacity / 8);
}

/* Raise the corruption error for block blk of the index. */
void
skip_corrupt(Relation index, BlockNumber blk, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("bloomskip index \"%s\" is corrupted", RelationGetRelationName(index)),
			 errdetail("Block %u: %s.", blk, why),
			 errhint("REINDEX the index.")));
}

/*
 * Check that block blk's page is a page of an index of format version, of
 * the given kind and, from format 4, at the given position.
 */
void
skip_check_page(Relation index, uint32 version, Page page, BlockNumber blk, uint16 kind,
				uint32 position)
{
	SkipPageOpaque *op;

	if (PageIsNew(page))
		skip_corrupt(index, blk, "the page is not initialized");
	if (PageGetSpecialSize(page) != SKIP_SPECIAL_SIZE(version))
		skip_corrupt(index, blk, "the page's special space has the wrong size");
	op = (SkipPageOpaque *) PageGetSpecialPointer(page);
	if (op->magic != SKIP_MAGIC)
		skip_corrupt(index, blk, "the page has the wrong magic number");
	if (op->kind != kind)
		skip_corrupt(index, blk, kind == SKIP_PAGE_META ? "block 0 is not a metapage" :
					 kind == SKIP_PAGE_STAGE ? "a page of the staging area was expected" :
					 "a page of rows was expected");
	if (version >= 4 && (op->version != version || op->position != position))
		skip_corrupt(index, blk, "the page does not belong where it is");
}

/* CRC-32C of the rows of a page of rows (pd_lower: their end). */
static uint32
skip_rows_checksum(Page page)
{
	pg_crc32c	crc;
	Size		start = MAXALIGN(SizeOfPageHeaderData);

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, (char *) page + start, ((PageHeader) page)->pd_lower - start);
	FIN_CRC32C(crc);
	return (uint32) crc;
}

/*
 * Check the page blk of segment seg of meta's index: a page of rows in its
 * place, its rows where the segment has them and, from format 4, their
 * checksum (a bit cleared by damage would be a missed key).
 */
void
skip_check_rows_page(Relation index, const SkipMeta *meta, const SkipSegment *seg,
					 Page page, BlockNumber blk)
{
	skip_check_page(index, meta->version, page, blk, SKIP_PAGE_ROWS,
					SKIP_ROWS_POSITION(skip_segno(meta, seg), blk - seg->first_block));
	if (meta->version < 4)
		return;
	if (((PageHeader) page)->pd_lower != MAXALIGN(SizeOfPageHeaderData) + skip_rows_bytes(seg))
		skip_corrupt(index, blk, "the page's rows do not have the segment's size");
	if (skip_rows_checksum(page) != ((SkipPageOpaque *) PageGetSpecialPointer(page))->checksum)
		skip_corrupt(index, blk, "the checksum of the page's rows does not match");
}

/* After a change to its rows: store the checksum of a page of rows (format 4 on). */
void
skip_seal_rows_page(const SkipMeta *meta, Page page)
{
	if (meta->version >= 4)
		((SkipPageOpaque *) PageGetSpecialPointer(page))->checksum = skip_rows_checksum(page);
}

/* CRC-32C of a staging slot: its range and its bits (format 4 on). */
uint32
skip_slot_checksum(const SkipMeta *meta, const SkipStageSlot *slot)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, &slot->range_plus1, sizeof(slot->range_plus1));
	COMP_CRC32C(crc, SKIP_SLOT_BITS(meta, slot), meta->nbits / 8);
	FIN_CRC32C(crc);
	return (uint32) crc;
}
