/*-------------------------------------------------------------------------
 *
 * skip_build.c
 *	  Building a bloomskip index.
 *
 * One heap scan in block order (no synchronized scan) hashes every key;
 * the hashes of one range are deduplicated when the scan leaves the range
 * and spilled to a temporary file with the range number, and the range's
 * distinct count is kept.  The counts size the filters (skip_params_for:
 * the 95th percentile, doubled); the segments are then laid out and
 * filled a slice of pages at a time, each slice within
 * maintenance_work_mem, by re-reading the spill file.  The counts and a
 * sketch of the distinct hashes also go to the metapage's statistics for
 * the planner (SkipStats, skip_cost.c).  The pages are
 * written through the buffer manager and WAL-logged as whole images at
 * the end (log_newpage_range), as other index builds do.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"
#include "../datum/bloom_version.h"

#include <math.h>

#include "access/tableam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "storage/buffile.h"
#include "utils/memutils.h"

/* a range's record in the spill file: its number and hash count, then the hashes */
typedef struct SkipSpillHeader
{
	uint64		range;
	uint64		count;
} SkipSpillHeader;

typedef struct SkipBuildState
{
	SkipKeyInfo *ki;
	SkipMeta	meta;			/* seed and scheme for hashing */
	int			ppr;
	BufFile    *spill;
	int64		cur_range;		/* range whose hashes are collected, or -1 */
	uint64	   *hashes;
	int64		nhashes;
	int64		maxhashes;
	uint64	   *counts;			/* distinct hashes per range */
	int64		ncounts;		/* allocated */
	int64		nranges_seen;	/* highest range seen + 1 */
	SkipKeyBuf	keys;			/* the keys of one row */
	SkipStats  *stats;			/* the keys' sketch, or NULL (skip_stats_kept) */
	double		indtuples;
	MemoryContext tmpcxt;
} SkipBuildState;

/*
 * Does the build or a summarizer of this index keep statistics of its keys
 * (skip.h, SkipStats)?  Format 4 on, for one column of the equality class,
 * whose keys are its values: ranges per key then means ranges per value.
 */
bool
skip_stats_kept(const SkipKeyInfo *ki, const SkipMeta *meta)
{
	return meta->version >= 4 && ki->natts == 1 && ki->ops[0] == &skip_equal_class;
}

/*
 * The page format of a new index: what the installed bloomset version
 * builds (a database builds what its installed version builds until it is
 * updated), so that the library it was released with still reads it.
 * 1.3 built format 3.
 */
uint32
skip_new_format(void)
{
	return bloom_installed_version() < BLOOM_VERSION_SKIP_FORMAT4 ?
		SKIP_FORMAT_VERSION_OLDEST : SKIP_FORMAT_VERSION;
}

/*
 * The hashing scheme of a new index: scheme 4 once the installed version
 * is 1.5 or later, scheme 2 before, for the same reason as the page
 * format.  An index keeps its scheme until it is rebuilt.
 */
static uint8
skip_new_scheme(void)
{
	return bloom_installed_version() < BLOOM_VERSION_SCHEME4 ?
		BLOOM_SCHEME_FULL64 : BLOOM_SCHEME_XXH3;
}

/* skip_params_for a new index: the installed version's format and scheme. */
static void
skip_params_new(SkipMeta *meta, double rate, int ppr, int natts)
{
	skip_params_for(meta, skip_new_format(), SKIP_EMPTY_DISTINCT, rate, ppr, natts);
	meta->scheme = skip_new_scheme();
}

/* qsort comparator of uint64 */
static int
skip_cmp_u64(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/* Spill the current range's distinct hashes and count them. */
static void
skip_flush_range(SkipBuildState *bs)
{
	SkipSpillHeader hdr;
	int64		n = 0;

	if (bs->cur_range < 0)
		return;
	qsort(bs->hashes, bs->nhashes, sizeof(uint64), skip_cmp_u64);
	for (int64 i = 0; i < bs->nhashes; i++)
		if (n == 0 || bs->hashes[n - 1] != bs->hashes[i])
			bs->hashes[n++] = bs->hashes[i];
	if (bs->cur_range >= bs->ncounts)
	{
		int64		newn = Max(bs->ncounts * 2, bs->cur_range + 1024);

		bs->counts = repalloc_huge(bs->counts, newn * sizeof(uint64));
		memset(bs->counts + bs->ncounts, 0, (newn - bs->ncounts) * sizeof(uint64));
		bs->ncounts = newn;
	}
	bs->counts[bs->cur_range] += n;
	for (int64 i = 0; bs->stats && i < n; i++)
		skip_stats_add_key(bs->stats, bs->hashes[i]);
	hdr.range = bs->cur_range;
	hdr.count = n;
	BufFileWrite(bs->spill, &hdr, sizeof(hdr));
	if (n > 0)
		BufFileWrite(bs->spill, bs->hashes, n * sizeof(uint64));
	bs->nhashes = 0;
	bs->cur_range = -1;
}

/* Add one hash to the current range's list. */
static void
skip_collect(SkipBuildState *bs, uint64 h)
{
	if (bs->nhashes >= bs->maxhashes)
	{
		bs->maxhashes *= 2;
		bs->hashes = repalloc_huge(bs->hashes, bs->maxhashes * sizeof(uint64));
	}
	bs->hashes[bs->nhashes++] = h;
}

/* table_index_build_scan's callback: hash the row's keys into its range. */
static void
skip_build_callback(Relation index, ItemPointer tid, Datum *values,
					bool *isnull, bool tupleIsAlive, void *state)
{
	SkipBuildState *bs = (SkipBuildState *) state;
	int64		range = ItemPointerGetBlockNumber(tid) / bs->ppr;
	MemoryContext old;

	if (range != bs->cur_range)
	{
		skip_flush_range(bs);
		bs->cur_range = range;
		bs->nranges_seen = Max(bs->nranges_seen, range + 1);
	}
	old = MemoryContextSwitchTo(bs->tmpcxt);
	bs->keys.n = 0;
	for (int i = 0; i < bs->ki->natts; i++)
		if (!isnull[i])
			skip_value_keys(bs->ki, &bs->meta, i, values[i], &bs->keys);
	for (int j = 0; j < bs->keys.n; j++)
		skip_collect(bs, bs->keys.h[j]);
	MemoryContextSwitchTo(old);
	MemoryContextReset(bs->tmpcxt);
	bs->indtuples += 1;
}

/* The 95th percentile of the distinct counts of the non-empty ranges. */
static double
skip_distinct_p95(const SkipBuildState *bs)
{
	uint64	   *v = palloc_extended(Max(bs->ncounts, 1) * sizeof(uint64), MCXT_ALLOC_HUGE);
	int64		n = 0;
	double		result;

	for (int64 i = 0; i < Min(bs->ncounts, bs->nranges_seen); i++)
		if (bs->counts[i] > 0)
			v[n++] = bs->counts[i];
	if (n == 0)
		result = skip_keys_empty_distinct(bs->ki);
	else
	{
		qsort(v, n, sizeof(uint64), skip_cmp_u64);
		result = (double) v[Min(n - 1, (int64) ceil(0.95 * n) - 1)];
	}
	pfree(v);
	return result;
}

/*
 * What the build learnt of the keys of ranges [0, nranges): their exact
 * distinct counts and the sketch of their keys (the last range, left open,
 * is counted too: one range counted twice when it is summarized).
 */
static void
skip_build_stats(const SkipBuildState *bs, uint64 nranges, SkipStats *stats)
{
	*stats = *bs->stats;
	stats->ranges = nranges;
	stats->keys = 0;
	for (int64 i = 0; i < Min(bs->ncounts, bs->nranges_seen); i++)
		stats->keys += (double) bs->counts[i];
}

/* Read n bytes of the spill file; false at its end. */
static bool
skip_spill_read(BufFile *f, void *p, size_t n)
{
	size_t		got = BufFileRead(f, p, n);

	if (got == 0)
		return false;
	if (got != n)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read from a bloomskip build's temporary file")));
	return true;
}

/*
 * Set the bits of pages [p0, p1) of segment seg, held in mem (page i at
 * mem + (i - p0) * BLCKSZ), from every range of the spill file in seg.
 */
static void
skip_fill_slice(SkipBuildState *bs, const SkipMeta *meta, const SkipSegment *seg,
				char *mem, uint32 p0, uint32 p1)
{
	SkipSpillHeader hdr;
	uint64	   *buf = palloc(sizeof(uint64) * 1024);
	uint64		pos[BLOOM_MAX_POSITIONS];

	if (BufFileSeek(bs->spill, 0, 0, SEEK_SET) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not seek in a bloomskip build's temporary file")));
	while (skip_spill_read(bs->spill, &hdr, sizeof(hdr)))
	{
		bool		mine = hdr.range >= seg->first_range &&
			hdr.range - seg->first_range < seg->capacity;
		uint64		col = hdr.range - seg->first_range;

		for (uint64 done = 0; done < hdr.count;)
		{
			uint64		n = Min(hdr.count - done, 1024);

			if (!skip_spill_read(bs->spill, buf, n * sizeof(uint64)))
				elog(ERROR, "bloomskip build's temporary file is truncated");
			for (uint64 j = 0; mine && j < n; j++)
			{
				int			np = skip_positions(meta, buf[j], pos);

				for (int q = 0; q < np; q++)
				{
					uint32		pg = (uint32) (pos[q] / seg->rows_per_page);
					BlockNumber blk;
					Size		off;
					uint8	   *row;

					if (pg < p0 || pg >= p1)
						continue;
					skip_row_location(seg, pos[q], &blk, &off);
					row = (uint8 *) mem + (Size) (pg - p0) * BLCKSZ + off;
					row[col / 8] |= (uint8) (1 << (col % 8));
				}
			}
			done += n;
			CHECK_FOR_INTERRUPTS();
		}
	}
	pfree(buf);
}

/* Write the pages of segment seg, a slice of pages at a time. */
static void
skip_write_segment(SkipBuildState *bs, Relation index, const SkipMeta *meta,
				   const SkipSegment *seg)
{
	uint32		slice = (uint32) Max((Size) maintenance_work_mem * 1024 / BLCKSZ, 16);
	char	   *mem = palloc_extended((Size) Min(slice, seg->npages) * BLCKSZ, MCXT_ALLOC_HUGE);

	for (uint32 p0 = 0; p0 < seg->npages; p0 += slice)
	{
		uint32		p1 = Min(p0 + slice, seg->npages);

		for (uint32 i = p0; i < p1; i++)
			skip_init_page((Page) (mem + (Size) (i - p0) * BLCKSZ), meta->version,
						   SKIP_PAGE_ROWS, SKIP_ROWS_POSITION(seg - meta->segments, i),
						   skip_rows_bytes(seg));
		skip_fill_slice(bs, meta, seg, mem, p0, p1);
		for (uint32 i = p0; i < p1; i++)
			skip_seal_rows_page(meta, (Page) (mem + (Size) (i - p0) * BLCKSZ));
		for (uint32 i = p0; i < p1; i++)
		{
			Buffer		buf = skip_new_buffer(index, MAIN_FORKNUM);

			if (BufferGetBlockNumber(buf) != seg->first_block + i)
				elog(ERROR, "unexpected block %u in bloomskip build", BufferGetBlockNumber(buf));
			memcpy(BufferGetPage(buf), mem + (Size) (i - p0) * BLCKSZ, BLCKSZ);
			MarkBufferDirty(buf);
			UnlockReleaseBuffer(buf);
			CHECK_FOR_INTERRUPTS();
		}
	}
	pfree(mem);
}

/* Write a metapage with meta to block 0 of fork. */
static void
skip_write_new_metapage(Relation index, ForkNumber fork, const SkipMeta *meta)
{
	Buffer		buf = skip_new_buffer(index, fork);
	Page		page;
	SkipMeta	sealed = *meta;

	skip_seal_meta(&sealed);
	if (BufferGetBlockNumber(buf) != SKIP_METAPAGE_BLKNO)
		elog(ERROR, "bloomskip index \"%s\" is not empty", RelationGetRelationName(index));
	START_CRIT_SECTION();
	page = BufferGetPage(buf);
	skip_init_page(page, meta->version, SKIP_PAGE_META, 0, sizeof(SkipMeta));
	memcpy(PageGetContents(page), &sealed, sizeof(SkipMeta));
	MarkBufferDirty(buf);
	if (fork == INIT_FORKNUM)
		log_newpage_buffer(buf, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(buf);
}

/* ambuild */
IndexBuildResult *
skip_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	SkipBuildState bs;
	IndexBuildResult *result;
	double		rate = skip_options_rate(index);
	uint64		nranges;
	BlockNumber heap_pages;

	if (RelationGetNumberOfBlocks(index) != 0)
		elog(ERROR, "index \"%s\" already contains data", RelationGetRelationName(index));
	memset(&bs, 0, sizeof(bs));
	bs.ppr = skip_options_ppr(index);
	skip_params_new(&bs.meta, SKIP_DEFAULT_FPR_MAX, bs.ppr,
					RelationGetNumberOfAttributes(index));
	/* block 0 first: the metapage, written at the end */
	skip_write_new_metapage(index, MAIN_FORKNUM, &bs.meta);
	bs.ki = palloc(sizeof(SkipKeyInfo));
	skip_keyinfo_init(bs.ki, index, CurrentMemoryContext);
	bs.spill = BufFileCreateTemp(false);
	bs.cur_range = -1;
	bs.keys.cxt = CurrentMemoryContext;
	bs.maxhashes = 1024;
	bs.hashes = palloc(bs.maxhashes * sizeof(uint64));
	bs.ncounts = 1024;
	bs.counts = palloc0(bs.ncounts * sizeof(uint64));
	bs.tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "bloomskip build",
									  ALLOCSET_DEFAULT_SIZES);
	if (skip_stats_kept(bs.ki, &bs.meta))
		bs.stats = palloc0(sizeof(SkipStats));
	table_index_build_scan(heap, index, indexInfo, false, true,
						   skip_build_callback, &bs, NULL);
	skip_flush_range(&bs);

	heap_pages = RelationGetNumberOfBlocks(heap);
	nranges = Max((uint64) bs.nranges_seen, (heap_pages + bs.ppr - 1) / (uint64) bs.ppr);
	if (rate == 0.0)
		rate = skip_keys_default_rate(bs.ki, (double) nranges);
	{
		/* the keys were hashed with the seed and scheme chosen above */
		uint64		seed = bs.meta.seed;
		uint8		scheme = bs.meta.scheme;

		skip_params_for(&bs.meta, bs.meta.version, skip_distinct_p95(&bs), rate,
						bs.ppr, RelationGetNumberOfAttributes(index));
		bs.meta.seed = seed;
		bs.meta.scheme = scheme;
	}
	if (bs.stats)
		skip_build_stats(&bs, nranges, &bs.meta.stats);
	if (bs.meta.nbits >= SKIP_MAX_BITS)
		ereport(NOTICE,
				(errmsg("the filters of bloomskip index \"%s\" are capped at %d bits per range",
						RelationGetRelationName(index), SKIP_MAX_BITS),
				 errdetail("95 %% of the ranges hold up to %.0f distinct keys each; their false-positive rate will exceed %g.",
						   skip_distinct_p95(&bs), rate),
				 errhint("Use a smaller pages_per_range.")));
	skip_stage_init_pages(index, &bs.meta, MAIN_FORKNUM);
	if (nranges > 0)
		skip_plan_segments(&bs.meta, nranges,
						   skip_build_capacity(bs.meta.version, nranges),
						   bs.meta.stage_first_block + bs.meta.stage_pages);
	bs.meta.nranges = nranges;
	/*
	 * Every range but the last is summarized; the last, which appends fill,
	 * stays open (its bits are set all the same, but no insert adds to them
	 * until the table moves past it).
	 */
	bs.meta.writer = nranges > 0 ? nranges - 1 : 0;
	bs.meta.summarized = bs.meta.writer;
	for (uint32 s = 0; s < bs.meta.nsegments; s++)
		skip_write_segment(&bs, index, &bs.meta, &bs.meta.segments[s]);
	skip_write_meta(index, &bs.meta, false);
	BufFileClose(bs.spill);
	if (RelationNeedsWAL(index))
		log_newpage_range(index, MAIN_FORKNUM, 0, RelationGetNumberOfBlocks(index), true);

	result = palloc0(sizeof(IndexBuildResult));
	result->heap_tuples = bs.indtuples;
	result->index_tuples = bs.indtuples;
	return result;
}

/* ambuildempty: the init fork of an unlogged index, a metapage alone. */
void
skip_buildempty(Relation index)
{
	SkipMeta	meta;
	double		rate = skip_options_rate(index);

	skip_params_new(&meta, rate > 0.0 ? rate : SKIP_DEFAULT_FPR_MAX,
					skip_options_ppr(index), RelationGetNumberOfAttributes(index));
	skip_write_new_metapage(index, INIT_FORKNUM, &meta);
	skip_stage_init_pages(index, &meta, INIT_FORKNUM);
}
