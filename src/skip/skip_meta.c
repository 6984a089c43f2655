/*-------------------------------------------------------------------------
 *
 * skip_meta.c
 *	  The metapage of a bloomskip index: its checksum, the checks of its
 *	  fields and of the blocks it points to, reading, locking and writing
 *	  it, and the cheap read of the bounds every insert makes.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "port/pg_crc32c.h"

/*
 * CRC-32C of a metapage's fields: everything before the segment directory,
 * then the segments in use (at most SKIP_MAX_SEGMENTS, whatever nsegments
 * says: a damaged count must not make the sum read past the struct), then
 * what the planner reads (stats) and the recent segment.
 */
uint32
skip_meta_checksum(const SkipMeta *meta)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, meta, offsetof(SkipMeta, segments));
	COMP_CRC32C(crc, meta->segments,
				sizeof(SkipSegment) * Min(meta->nsegments, SKIP_MAX_SEGMENTS));
	COMP_CRC32C(crc, &meta->stats, sizeof(SkipStats));
	COMP_CRC32C(crc, &meta->recent, sizeof(SkipSegment));
	FIN_CRC32C(crc);
	return (uint32) crc;
}

/* After a change to its fields: store the metapage's checksum (format 4 on). */
void
skip_seal_meta(SkipMeta *meta)
{
	if (meta->version >= 4)
		meta->checksum = skip_meta_checksum(meta);
}

/* Why the segment directory of meta is inconsistent, or NULL. */
static const char *
skip_check_segments(const SkipMeta *meta)
{
	uint64		covered = 0;
	BlockNumber blk = meta->stage_first_block + meta->stage_pages;

	if (meta->nsegments > SKIP_MAX_SEGMENTS)
		return "too many segments";
	for (uint32 i = 0; i < meta->nsegments; i++)
	{
		const SkipSegment *seg = &meta->segments[i];

		if (seg->capacity < 64 || seg->capacity > SKIP_MAX_CAPACITY_V(meta->version) ||
			seg->capacity % 64 != 0)
			return "a segment has an invalid capacity";
		if (seg->first_range != covered || seg->first_block < blk)
			return "the segments are not consecutive";
		if (seg->rows_per_page != skip_rows_per_page(meta->version, seg->capacity) ||
			seg->npages != (meta->nbits + seg->rows_per_page - 1) / seg->rows_per_page)
			return "a segment's page layout does not match its capacity";
		covered += seg->capacity;
		blk = seg->first_block + seg->npages;
	}
	if (meta->nranges > covered)
		return "the metapage counts more ranges than its segments hold";
	if (meta->summarized > meta->writer || meta->writer > meta->nranges)
		return "the summarized and writer boundaries are out of order";
	return NULL;
}

/* Why the staging area of meta is inconsistent, or NULL. */
static const char *
skip_check_stage(const SkipMeta *meta)
{
	SkipMeta	expect = *meta;

	skip_stage_layout(&expect, 1);
	if (meta->stage_first_block != 1 || meta->stage_per_page != expect.stage_per_page ||
		(meta->stage_slots != expect.stage_slots && meta->stage_slots != 0) ||
		meta->stage_pages != (meta->stage_slots ? expect.stage_pages : 0))
		return "the staging area's layout does not match the number of bits";
	if (meta->nstaged > meta->stage_slots || meta->nstaged > meta->summarized)
		return "the metapage counts more staged ranges than the staging area holds";
	return NULL;
}

/* Why the recent segment of meta is inconsistent, or NULL. */
static const char *
skip_check_recent(const SkipMeta *meta)
{
	const SkipSegment *t = &meta->recent;
	uint64		t0 = t->first_block;
	uint64		t1 = t0 + t->npages;

	if (t->capacity == 0)
		return (t->first_range | t->first_block | t->rows_per_page | t->npages) == 0 ? NULL :
			"the recent segment's fields are set without a capacity";
	if (meta->version < 4 || meta->stage_slots == 0 ||
		t->capacity < SKIP_RECENT_MIN_CAPACITY ||
		t->capacity > SKIP_MAX_CAPACITY_V(meta->version) || t->capacity % 64 != 0 ||
		t->rows_per_page != skip_rows_per_page(meta->version, t->capacity) ||
		t->npages != (meta->nbits + t->rows_per_page - 1) / t->rows_per_page)
		return "the recent segment's layout does not match its capacity";
	if (t0 < (uint64) meta->stage_first_block + meta->stage_pages)
		return "the recent segment overlaps the staging area";
	for (uint32 s = 0; s < Min(meta->nsegments, SKIP_MAX_SEGMENTS); s++)
	{
		const SkipSegment *seg = &meta->segments[s];

		if (t0 < (uint64) seg->first_block + seg->npages && seg->first_block < t1)
			return "the recent segment overlaps a segment";
	}
	return NULL;
}

/* Why meta is not a valid metapage of an index of natts columns, or NULL. */
static const char *
skip_check_meta(const SkipMeta *meta, int natts)
{
	const char *why;

	if (meta->magic != SKIP_MAGIC)
		return "the metapage has the wrong magic number";
	if (meta->version < SKIP_FORMAT_VERSION_OLDEST || meta->version > SKIP_FORMAT_VERSION)
		return "the metapage has an unsupported format version";
	if (meta->version >= 4 && meta->checksum != skip_meta_checksum(meta))
		return "the metapage's checksum does not match its contents";
	/* what every format so far writes: scheme 2 (4 since 1.5, format 4), seed 0 */
	if ((meta->scheme != BLOOM_SCHEME_FULL64 &&
		 (meta->scheme != BLOOM_SCHEME_XXH3 || meta->version < 4)) || meta->seed != 0)
		return "the metapage's hashing scheme or seed is not one bloomskip writes";
	if (meta->nbits < BLOOM_MIN_BITS || meta->nbits > SKIP_MAX_BITS || meta->nbits % 64 != 0)
		return "the number of bits per range is out of range";
	if (meta->nhashes < 1 || meta->nhashes > BLOOM_MAX_HASHES)
		return "the number of hashes is out of range";
	if (meta->natts != natts)
		return "the metapage's number of columns does not match the index";
	if (meta->pages_per_range < 1 || meta->pages_per_range > SKIP_MAX_PPR)
		return "pages_per_range is out of range";
	if (!(meta->stats.keys >= 0.0 && meta->stats.keys < 1e300))
		return "the metapage's count of keys is out of range";
	why = skip_check_stage(meta);
	if (why == NULL)
		why = skip_check_segments(meta);
	return why ? why : skip_check_recent(meta);
}

/*
 * Why the blocks meta points to are not all in the index, or NULL: every
 * block number a reader takes from the metapage (the staging area, the
 * segments and the recent segment; a row's page lies within its segment) is checked here, once
 * per metapage read, against the index's size.  Segments are published
 * after their pages are written, and an index never shrinks.
 */
static const char *
skip_check_extent(Relation index, const SkipMeta *meta)
{
	uint64		end = (uint64) meta->stage_first_block + meta->stage_pages;

	if (meta->nsegments > 0)
	{
		const SkipSegment *last = &meta->segments[meta->nsegments - 1];

		end = Max(end, (uint64) last->first_block + last->npages);
	}
	end = Max(end, (uint64) meta->recent.first_block + meta->recent.npages);
	if (end > RelationGetNumberOfBlocks(index))
		return "the metapage points past the end of the index";
	return NULL;
}

/* Check the copy meta of index's metapage: raise the corruption error if bad. */
static void
skip_check_meta_or_fail(Relation index, const SkipMeta *meta, Buffer locked)
{
	const char *why = skip_check_meta(meta, RelationGetNumberOfAttributes(index));

	if (why == NULL)
		why = skip_check_extent(index, meta);
	if (why)
	{
		if (BufferIsValid(locked))
			UnlockReleaseBuffer(locked);
		skip_corrupt(index, SKIP_METAPAGE_BLKNO, why);
	}
}

/*
 * Check that page is a metapage and copy its contents into *meta; the
 * special space's size says the format (a format 3 metapage has no
 * statistics and no checksum: their fields read as 0).
 */
static void
skip_copy_metapage(Relation index, Page page, SkipMeta *meta)
{
	uint32		version = PageGetSpecialSize(page) == SKIP_SPECIAL_SIZE(SKIP_FORMAT_VERSION) ?
		SKIP_FORMAT_VERSION : SKIP_FORMAT_VERSION_OLDEST;

	skip_check_page(index, version, page, SKIP_METAPAGE_BLKNO, SKIP_PAGE_META, 0);
	memcpy(meta, PageGetContents(page), sizeof(SkipMeta));
	if (version < 4)
	{
		/* format 3 ends with the segments: the rest is not its */
		memset(&meta->stats, 0, sizeof(SkipStats));
		memset(&meta->recent, 0, sizeof(SkipSegment));
		meta->checksum = meta->reserved = 0;
	}
	if (meta->version != version)
		skip_corrupt(index, SKIP_METAPAGE_BLKNO,
					 "the metapage's format version does not match its page");
}

/* Read and check the metapage into *meta (a copy). */
void
skip_read_meta(Relation index, SkipMeta *meta)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);

	/* an error raised holding the lock releases it with the transaction */
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	skip_copy_metapage(index, BufferGetPage(buf), meta);
	UnlockReleaseBuffer(buf);
	skip_check_meta_or_fail(index, meta, InvalidBuffer);
}

/*
 * Write meta to the metapage (buffer locked exclusively by the caller, or
 * not at all when log is false: a build, logged as a whole afterwards).
 */
void
skip_write_meta(Relation index, const SkipMeta *meta, bool log)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);
	SkipMeta	sealed = *meta;

	skip_seal_meta(&sealed);
	meta = &sealed;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (log)
	{
		GenericXLogState *state = GenericXLogStart(index);
		Page		page = GenericXLogRegisterBuffer(state, buf, 0);

		memcpy(PageGetContents(page), meta, sizeof(SkipMeta));
		GenericXLogFinish(state);
	}
	else
	{
		memcpy(PageGetContents(BufferGetPage(buf)), meta, sizeof(SkipMeta));
		MarkBufferDirty(buf);
	}
	UnlockReleaseBuffer(buf);
}

/*
 * Does meta (a format 4 metapage's contents, on its locked page) match its
 * checksum?  Every insert asks (skip_read_bounds), and the metapage
 * changes once per summarized range, so the answer is kept: the copy this
 * backend last found to match (rd_amcache, freed with the index's relcache
 * entry).  The same bytes match again, and comparing costs a fraction of
 * summing them, whose planner's sketch alone is 1 kB.
 */
static bool
skip_meta_sum_matches(Relation index, const SkipMeta *meta)
{
	if (index->rd_amcache != NULL && memcmp(index->rd_amcache, meta, sizeof(SkipMeta)) == 0)
		return true;
	if (meta->checksum != skip_meta_checksum(meta))
		return false;
	if (index->rd_amcache == NULL)
		index->rd_amcache = MemoryContextAlloc(index->rd_indexcxt, sizeof(SkipMeta));
	memcpy(index->rd_amcache, meta, sizeof(SkipMeta));
	return true;
}

/*
 * Read pages_per_range and the writer boundary of the metapage, checking
 * only the page, the format and the checksum: the cheap read of every
 * insert.
 */
void
skip_read_bounds(Relation index, uint32 *ppr, uint64 *writer)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);
	Page		page;
	const SkipMeta *meta;
	bool		ok;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	meta = (const SkipMeta *) PageGetContents(page);
	ok = !PageIsNew(page) && meta->magic == SKIP_MAGIC &&
		PageGetSpecialSize(page) == SKIP_SPECIAL_SIZE(meta->version) &&
		meta->pages_per_range >= 1 && meta->pages_per_range <= SKIP_MAX_PPR;
	if (ok && meta->version == SKIP_FORMAT_VERSION)
		ok = skip_meta_sum_matches(index, meta);
	else
		ok = ok && meta->version == SKIP_FORMAT_VERSION_OLDEST;
	*ppr = meta->pages_per_range;
	*writer = meta->writer;
	UnlockReleaseBuffer(buf);
	if (!ok)
	{
		SkipMeta	full;

		skip_read_meta(index, &full);	/* reports what is wrong */
		skip_corrupt(index, SKIP_METAPAGE_BLKNO, "the metapage is invalid");
	}
}

/*
 * Lock the metapage exclusively, check it and copy it into *meta; returns
 * the buffer.
 */
Buffer
skip_lock_meta(Relation index, SkipMeta *meta)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	skip_copy_metapage(index, BufferGetPage(buf), meta);
	skip_check_meta_or_fail(index, meta, buf);
	return buf;
}
