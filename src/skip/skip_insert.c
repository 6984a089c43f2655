/*-------------------------------------------------------------------------
 *
 * skip_insert.c
 *	  Adding a row's keys to a bloomskip index, and summarizing the ranges
 *	  the table has moved past.
 *
 * A key sets k bits in the column of its range: bit (range - first range
 * of the segment) of k rows.  The rows' pages are visited in block order;
 * a page whose bits are all set already (a repeated key) is only read
 * under a share lock, any other is changed under an exclusive lock and
 * logged as generic WAL.  Each page is its own WAL record: bits are only
 * ever set, so a crash between two records leaves bits that a later
 * transaction can only add to, and the row's heap tuple, whose commit
 * record follows all of them, is not visible.
 *
 * An insert into a range at or past the metapage's writer boundary (the
 * open tail) writes nothing: that is what makes appending cheap.  An
 * insert into a range past writer means the table has moved past ranges
 * [writer, range): this backend summarizes them from the heap
 * (skip_summarize_upto; the protocol and its proof are in skip_utils.c).
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* one bit to set: its page and the byte and bit within the page */
typedef struct SkipBit
{
	BlockNumber blk;
	uint32		byte;
	uint8		mask;
} SkipBit;

/* qsort comparator of SkipBit by block, then byte */
static int
skip_cmp_bit(const void *a, const void *b)
{
	const SkipBit *x = (const SkipBit *) a;
	const SkipBit *y = (const SkipBit *) b;

	if (x->blk != y->blk)
		return (x->blk > y->blk) - (x->blk < y->blk);
	return (x->byte > y->byte) - (x->byte < y->byte);
}

/* Are all bits of bits[0 .. n) set in page? */
static bool
skip_bits_set(Page page, const SkipBit *bits, int n)
{
	for (int i = 0; i < n; i++)
		if ((((uint8 *) page)[bits[i].byte] & bits[i].mask) == 0)
			return false;
	return true;
}

/* Set bits[0 .. n), all on one page, unless they are set already. */
static void
skip_set_page_bits(Relation index, const SkipBit *bits, int n)
{
	Buffer		buf = ReadBuffer(index, bits[0].blk);
	GenericXLogState *state;
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	skip_check_page(index, BufferGetPage(buf), bits[0].blk, SKIP_PAGE_ROWS);
	if (skip_bits_set(BufferGetPage(buf), bits, n))
	{
		UnlockReleaseBuffer(buf);
		return;
	}
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, buf, 0);
	for (int i = 0; i < n; i++)
		((uint8 *) page)[bits[i].byte] |= bits[i].mask;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/* Set the bits of hashes h[0 .. nh) in range's column (range is covered). */
void
skip_set_bits(Relation index, const SkipMeta *meta, uint64 range,
			  const uint64 *h, int nh)
{
	const SkipSegment *seg = skip_segment_of(meta, range);
	uint64		col = range - seg->first_range;
	SkipBit    *bits = palloc(sizeof(SkipBit) * nh * BLOOM_MAX_POSITIONS);
	uint64		pos[BLOOM_MAX_POSITIONS];
	int			n = 0;

	for (int i = 0; i < nh; i++)
	{
		int			np = skip_positions(meta, h[i], pos);

		for (int q = 0; q < np; q++)
		{
			Size		off;

			skip_row_location(seg, pos[q], &bits[n].blk, &off);
			bits[n].byte = (uint32) (off + col / 8);
			bits[n].mask = (uint8) (1 << (col % 8));
			n++;
		}
	}
	qsort(bits, n, sizeof(SkipBit), skip_cmp_bit);
	for (int i = 0; i < n;)
	{
		int			j = i + 1;

		while (j < n && bits[j].blk == bits[i].blk)
			j++;
		skip_set_page_bits(index, bits + i, j - i);
		i = j;
	}
	pfree(bits);
}

/* The per-index hashing information, cached for the statement. */
static SkipKeyInfo *
skip_insert_keyinfo(Relation index, IndexInfo *indexInfo)
{
	if (indexInfo->ii_AmCache == NULL)
	{
		SkipKeyInfo *ki = MemoryContextAlloc(indexInfo->ii_Context, sizeof(SkipKeyInfo));

		skip_keyinfo_init(ki, index, indexInfo->ii_Context);
		indexInfo->ii_AmCache = ki;
	}
	return (SkipKeyInfo *) indexInfo->ii_AmCache;
}

/* heap pages a summarization reads before it writes the bits collected */
#define SKIP_SUMMARIZE_PAGES	1024
/* bits collected at most before they are written (n-gram rows have many) */
#define SKIP_SUMMARIZE_BITS		(1 << 20)

/* A summarization's bits: every key of the rows of a run of heap pages. */
typedef struct SkipSumState
{
	SkipMeta	meta;
	SkipKeyInfo ki;
	const SkipSegment *seg;		/* the segment of every range of the run */
	SkipBit    *bits;
	int64		nbits;
	int64		maxbits;
	MemoryContext tmpcxt;
} SkipSumState;

static void skip_write_bits(Relation index, const SkipSegment *seg, SkipBit *collected,
							int64 m);

/*
 * table_index_build_range_scan's callback: collect the row's bits, writing
 * those collected first when there are many (the heap page is not locked
 * while the callback runs).
 */
static void
skip_sum_callback(Relation index, ItemPointer tid, Datum *values,
				  bool *isnull, bool tupleIsAlive, void *state)
{
	SkipSumState *ss = (SkipSumState *) state;
	uint64		col = ItemPointerGetBlockNumber(tid) / ss->meta.pages_per_range -
		ss->seg->first_range;
	uint64		pos[BLOOM_MAX_POSITIONS];
	SkipKeyBuf	keys = {NULL, 0, 0, ss->tmpcxt};
	MemoryContext old = MemoryContextSwitchTo(ss->tmpcxt);

	for (int i = 0; i < ss->ki.natts; i++)
		if (!isnull[i])
			skip_value_keys(&ss->ki, &ss->meta, i, values[i], &keys);
	MemoryContextSwitchTo(old);
	for (int i = 0; i < keys.n; i++)
	{
		int			np = skip_positions(&ss->meta, keys.h[i], pos);

		if (ss->nbits + np > SKIP_SUMMARIZE_BITS)
		{
			skip_write_bits(index, ss->seg, ss->bits, ss->nbits);
			ss->nbits = 0;
		}
		if (ss->nbits + np > ss->maxbits)
		{
			ss->maxbits *= 2;
			ss->bits = repalloc_huge(ss->bits, ss->maxbits * sizeof(SkipBit));
		}
		for (int q = 0; q < np; q++)
		{
			SkipBit    *b = &ss->bits[ss->nbits++];
			Size		off;

			skip_row_location(ss->seg, pos[q], &b->blk, &off);
			b->byte = (uint32) (off + col / 8);
			b->mask = (uint8) (1 << (col % 8));
		}
	}
	MemoryContextReset(ss->tmpcxt);
}

/*
 * Set bits[0 .. n) (grouped by block in block order, on at most
 * MAX_GENERIC_XLOG_PAGES pages) in one generic WAL record: the pages are locked in block order,
 * as every writer of several pages does, and a page whose bits are all set
 * already is left out.
 */
static void
skip_set_group(Relation index, const SkipBit *bits, int64 n)
{
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
	int			nb = 0;
	GenericXLogState *state = NULL;

	for (int64 i = 0; i < n;)
	{
		int64		j = i + 1;
		Buffer		buf;

		while (j < n && bits[j].blk == bits[i].blk)
			j++;
		buf = ReadBuffer(index, bits[i].blk);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		bufs[nb++] = buf;
		skip_check_page(index, BufferGetPage(buf), bits[i].blk, SKIP_PAGE_ROWS);
		if (!skip_bits_set(BufferGetPage(buf), bits + i, (int) (j - i)))
		{
			Page		page;

			if (state == NULL)
				state = GenericXLogStart(index);
			page = GenericXLogRegisterBuffer(state, buf, 0);
			for (int64 q = i; q < j; q++)
				((uint8 *) page)[bits[q].byte] |= bits[q].mask;
		}
		i = j;
	}
	if (state)
		GenericXLogFinish(state);
	for (int b = 0; b < nb; b++)
		UnlockReleaseBuffer(bufs[b]);
}

/*
 * Order bits[0 .. n), all on pages of segment seg, by block: a counting
 * sort (one pass, no comparisons) when the segment has few pages for the
 * bits, which is the usual case, else qsort.  Duplicates stay: setting a
 * bit twice is harmless.
 */
static SkipBit *
skip_order_bits(const SkipSegment *seg, SkipBit *bits, int64 n)
{
	uint32	   *start;
	SkipBit    *out;

	if ((int64) seg->npages > 4 * n)
	{
		qsort(bits, n, sizeof(SkipBit), skip_cmp_bit);
		return bits;
	}
	start = palloc0(sizeof(uint32) * ((Size) seg->npages + 1));
	out = palloc_extended(sizeof(SkipBit) * Max(n, 1), MCXT_ALLOC_HUGE);
	for (int64 i = 0; i < n; i++)
		start[bits[i].blk - seg->first_block + 1]++;
	for (uint32 p = 1; p <= seg->npages; p++)
		start[p] += start[p - 1];
	for (int64 i = 0; i < n; i++)
		out[start[bits[i].blk - seg->first_block]++] = bits[i];
	pfree(start);
	return out;
}

/* Set the bits collected, each page once, MAX_GENERIC_XLOG_PAGES pages a record. */
static void
skip_write_bits(Relation index, const SkipSegment *seg, SkipBit *collected, int64 m)
{
	SkipBit    *bits = skip_order_bits(seg, collected, m);

	for (int64 i = 0; i < m;)
	{
		int64		j = i;
		int			pages = 0;

		/* up to MAX_GENERIC_XLOG_PAGES distinct pages, each whole */
		for (; j < m; j++)
		{
			if (j == i || bits[j].blk != bits[j - 1].blk)
			{
				if (pages == MAX_GENERIC_XLOG_PAGES)
					break;
				pages++;
			}
		}
		skip_set_group(index, bits + i, j - i);
		i = j;
		CHECK_FOR_INTERRUPTS();
	}
	if (bits != collected)
		pfree(bits);
}

/*
 * Summarize the heap's ranges [from, to) (covered by the index's
 * segments): read every row on their pages, live, dead or in progress,
 * and set its keys' bits, a run of pages of one segment at a time.
 */
static void
skip_summarize_ranges(Relation heap, Relation index, const SkipMeta *meta,
					  uint64 from, uint64 to)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "bloomskip summarize",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	SkipSumState *ss = palloc0(sizeof(SkipSumState));
	IndexInfo  *ii = BuildIndexInfo(index);
	uint64		ppr = meta->pages_per_range;
	uint64		heap_pages = RelationGetNumberOfBlocks(heap);

	ss->meta = *meta;
	skip_keyinfo_init(&ss->ki, index, cxt);
	ss->maxbits = 4096;
	ss->bits = palloc(ss->maxbits * sizeof(SkipBit));
	ss->tmpcxt = AllocSetContextCreate(cxt, "bloomskip summarize row", ALLOCSET_SMALL_SIZES);
	for (uint64 r = from; r < to;)
	{
		const SkipSegment *seg = skip_segment_of(meta, r);
		uint64		r1 = Min(to, seg->first_range + seg->capacity);
		uint64		b0 = r * ppr;
		uint64		b1 = Min(r1 * ppr, heap_pages);

		ss->seg = seg;
		for (uint64 b = b0; b < b1; b += SKIP_SUMMARIZE_PAGES)
		{
			ss->nbits = 0;
			table_index_build_range_scan(heap, index, ii, false, true, false,
										 (BlockNumber) b,
										 (BlockNumber) Min(SKIP_SUMMARIZE_PAGES, b1 - b),
										 skip_sum_callback, ss, NULL);
			skip_write_bits(index, seg, ss->bits, ss->nbits);
		}
		r = r1;
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

/*
 * Summarize every range below upto: move writer to upto (after extending
 * the index to cover the ranges below it), read the heap's ranges from
 * summarized to writer, set their bits, and only then move summarized to
 * writer.  Called by an insert (upto: its range, past writer) and by
 * VACUUM (upto: the range of the heap's last page).  An insert that did
 * not move writer itself leaves the work to the backend that did.
 */
void
skip_summarize_upto(Relation heap, Relation index, uint64 upto, bool always)
{
	SkipMeta	meta;
	uint64		to;

	if (upto > 0)
		skip_extend(index, upto - 1);
	if (!skip_advance_meta(index, upto, 0, &meta) && !always)
		return;
	to = Max(meta.writer, Min(upto, meta.nranges));
	if (meta.summarized >= to)
		return;
	skip_read_meta(index, &meta);
	skip_summarize_ranges(heap, index, &meta, meta.summarized, to);
	skip_advance_meta(index, to, to, &meta);
}

/*
 * aminsert: nothing for a row in the open tail (its range at or past
 * writer); a row past it first summarizes the ranges the table moved past;
 * a row below writer sets its keys' bits, extending the index if needed.
 */
bool
skip_insert(Relation index, Datum *values, bool *isnull,
			ItemPointer ht_ctid, Relation heapRel,
			IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
			bool indexUnchanged,
#endif
			IndexInfo *indexInfo)
{
	SkipKeyInfo *ki;
	SkipMeta	meta;
	SkipKeyBuf	keys = {NULL, 0, 0, CurrentMemoryContext};
	uint32		ppr;
	uint64		writer;
	uint64		range;

	skip_read_bounds(index, &ppr, &writer);
	range = ItemPointerGetBlockNumber(ht_ctid) / ppr;
	if (range > writer)
	{
		skip_summarize_upto(heapRel, index, range, false);
		skip_read_bounds(index, &ppr, &writer);
	}
	if (range >= writer)
		return false;
	ki = skip_insert_keyinfo(index, indexInfo);
	skip_read_meta(index, &meta);
	for (int i = 0; i < ki->natts; i++)
		if (!isnull[i])
			skip_value_keys(ki, &meta, i, values[i], &keys);
	if (keys.n == 0)
		return false;			/* NULL keys match nothing: no bits */
	if (range >= meta.nranges)
	{
		skip_extend(index, range);
		skip_read_meta(index, &meta);
	}
	skip_set_bits(index, &meta, range, keys.h, keys.n);
	return false;
}
