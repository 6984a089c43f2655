/*-------------------------------------------------------------------------
 *
 * skip_rows.c
 *	  The columns of a bloomskip index's bit-sliced rows: writing ranges'
 *	  filters into them, clearing them, and reading a range's positions.
 *
 * A segment (skip_sizing.c) holds ranges as columns: bit c of row p is bit
 * p of the filter of its c-th range.  These are the operations on whole
 * columns, shared by the summarizers (skip_insert.c), the recent segment
 * (skip_recent.c) and bloomskip_check's reader of one range (skip_scan.c):
 * every page is checked before it is read or changed, and sealed after it
 * is changed, as every reader and writer of rows does.
 *
 * Columns are written from rows (SkipColumns): filters are transposed into
 * rows once (skip_columns_of_filters), and each page's rows then take a
 * shifted OR of bytes (bloom_or_bit_run, src/core/bloom_slices.c), not a
 * bit at a time per filter.  The recent segment's merge hands over its own
 * rows the same way (skip_recent.c).
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "miscadmin.h"

/*
 * Filters f[0 .. n) (m bits each, NULL: none) as columns: transposed into
 * m rows of (n + 7) / 8 bytes (palloc'd in the current context).
 */
SkipColumns
skip_columns_of_filters(const SkipMeta *meta, uint8 *const *filters, uint32 n)
{
	SkipColumns cols;
	uint8	   *rows;

	cols.stride = (n + 7) / 8;
	cols.first_bit = 0;
	cols.n = n;
	rows = palloc0((Size) meta->nbits * Max(cols.stride, 1));
	bloom_transpose_filters((const uint8 *const *) filters, n, meta->nbits, rows, cols.stride);
	cols.rows = rows;
	return cols;
}

/* Columns [from, from + n) of cols. */
SkipColumns
skip_columns_part(const SkipColumns *cols, uint32 from, uint32 n)
{
	SkipColumns part = *cols;

	Assert((uint64) from + n <= cols->n);
	part.first_bit += from;
	part.n = n;
	return part;
}

/*
 * Rows [r0, r1) of cols set in columns [col0, col0 + cols->n) of page,
 * whose first row is r0, of segment seg: does the page lack any of their
 * bits (set: setting them all, if it does)?
 */
static bool
skip_page_columns(const SkipSegment *seg, Page page, uint64 r0, uint64 r1,
				  uint32 col0, const SkipColumns *cols, bool set)
{
	uint8	   *rows = (uint8 *) page + MAXALIGN(SizeOfPageHeaderData);
	Size		rowbytes = seg->capacity / 8;
	bool		lacks = false;

	for (uint64 p = r0; p < r1; p++)
	{
		if (bloom_or_bit_run(rows + (p - r0) * rowbytes, col0,
							 cols->rows + p * cols->stride, cols->first_bit, cols->n, set))
		{
			if (!set)
				return true;
			lacks = true;
		}
	}
	return lacks;
}

/* Has any of the columns of cols a bit of rows [r0, r1) set? */
static bool
skip_columns_have_rows(const SkipColumns *cols, uint64 r0, uint64 r1)
{
	for (uint64 p = r0; p < r1; p++)
		if (bloom_bit_run_any(cols->rows + p * cols->stride, cols->first_bit, cols->n))
			return true;
	return false;
}

/* Log the pages registered in *state (if any) and release bufs[0 .. *nb). */
static void
skip_finish_pages(GenericXLogState **state, Buffer *bufs, int *nb)
{
	if (*state)
		GenericXLogFinish(*state);
	for (int b = 0; b < *nb; b++)
		UnlockReleaseBuffer(bufs[b]);
	*state = NULL;
	*nb = 0;
}

/*
 * Set the bits of cols in columns [col0, col0 + cols->n) of segment seg of
 * meta (a segment of its directory, or its recent segment): page by page,
 * in block order (as every writer of several pages locks them), each page
 * checked before it is changed (a damaged index is not written to) and
 * left out if it has every bit already, up to MAX_GENERIC_XLOG_PAGES
 * changed pages a WAL record.  Page by page, each page is visited once,
 * however many ranges are set: slicing sets about half of every filter's m
 * bits.
 */
void
skip_write_segment_columns(Relation index, const SkipMeta *meta, const SkipSegment *seg,
						   uint32 col0, const SkipColumns *cols)
{
	GenericXLogState *state = NULL;
	Buffer		bufs[MAX_GENERIC_XLOG_PAGES];
	int			nb = 0;

	Assert((uint64) col0 + cols->n <= seg->capacity);
	for (uint32 pg = 0; pg < seg->npages; pg++)
	{
		BlockNumber blk = seg->first_block + pg;
		uint64		r0 = (uint64) pg * seg->rows_per_page;
		uint64		r1 = Min(r0 + seg->rows_per_page, (uint64) meta->nbits);
		Buffer		buf;
		Page		page;

		if (!skip_columns_have_rows(cols, r0, r1))
			continue;
		buf = ReadBuffer(index, blk);
		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		skip_check_rows_page(index, meta, seg, BufferGetPage(buf), blk);
		if (!skip_page_columns(seg, BufferGetPage(buf), r0, r1, col0, cols, false))
		{
			UnlockReleaseBuffer(buf);
			continue;
		}
		if (state == NULL)
			state = GenericXLogStart(index);
		page = GenericXLogRegisterBuffer(state, buf, 0);
		skip_page_columns(seg, page, r0, r1, col0, cols, true);
		skip_seal_rows_page(meta, page);
		bufs[nb++] = buf;
		if (nb == MAX_GENERIC_XLOG_PAGES)
		{
			skip_finish_pages(&state, bufs, &nb);
			CHECK_FOR_INTERRUPTS();
		}
	}
	skip_finish_pages(&state, bufs, &nb);
}

/*
 * Set the bits of cols, the columns of ranges [first, first + cols->n),
 * in the columns of the segments of meta's directory that hold them.
 */
void
skip_write_columns(Relation index, const SkipMeta *meta, uint64 first,
				   const SkipColumns *cols)
{
	for (uint64 r = first; r < first + cols->n;)
	{
		const SkipSegment *seg = skip_segment_of(meta, r);
		uint64		r1 = Min(first + cols->n, seg->first_range + seg->capacity);
		SkipColumns part = skip_columns_part(cols, (uint32) (r - first), (uint32) (r1 - r));

		skip_write_segment_columns(index, meta, seg, (uint32) (r - seg->first_range), &part);
		r = r1;
	}
}

/* Clear bits [c0, c1) of a row of bits. */
static void
skip_clear_bit_range(uint8 *row, uint64 c0, uint64 c1)
{
	while (c0 < c1 && c0 % 8 != 0)
	{
		row[c0 / 8] &= (uint8) ~(1 << (c0 % 8));
		c0++;
	}
	if (c1 - c0 >= 8)
	{
		memset(row + c0 / 8, 0, (c1 - c0) / 8);
		c0 += (c1 - c0) / 8 * 8;
	}
	while (c0 < c1)
	{
		row[c0 / 8] &= (uint8) ~(1 << (c0 % 8));
		c0++;
	}
}

/* Is any of bits [c0, c1) of a row set? */
static bool
skip_any_bit_in_range(const uint8 *row, uint64 c0, uint64 c1)
{
	for (uint64 c = c0; c < c1; c++)
	{
		if (c % 8 == 0 && c + 8 <= c1)
		{
			if (row[c / 8] != 0)
				return true;
			c += 7;
		}
		else if ((row[c / 8] >> (c % 8)) & 1)
			return true;
	}
	return false;
}

/*
 * Clear the columns of ranges [from, to) in every row of segment seg of
 * meta, a page at a time (only pages with a bit set are written), each
 * page checked before and sealed after, as every writer of rows does.
 */
void
skip_clear_segment_columns(Relation index, const SkipMeta *meta, const SkipSegment *seg,
						   uint64 from, uint64 to)
{
	uint64		c0,
				c1;
	Size		rowbytes = seg->capacity / 8;

	if (seg->first_range + seg->capacity <= from || seg->first_range >= to)
		return;
	c0 = Max(from, seg->first_range) - seg->first_range;
	c1 = Min(to, seg->first_range + seg->capacity) - seg->first_range;
	for (uint32 i = 0; i < seg->npages; i++)
	{
		BlockNumber blk = seg->first_block + i;
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;
		bool		any = false;

		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(buf);
		skip_check_rows_page(index, meta, seg, page, blk);
		for (uint32 r = 0; r < seg->rows_per_page && !any; r++)
			any = skip_any_bit_in_range((uint8 *) page + MAXALIGN(SizeOfPageHeaderData) +
										r * rowbytes, c0, c1);
		if (any)
		{
			GenericXLogState *state = GenericXLogStart(index);

			page = GenericXLogRegisterBuffer(state, buf, 0);
			for (uint32 r = 0; r < seg->rows_per_page; r++)
				skip_clear_bit_range((uint8 *) page + MAXALIGN(SizeOfPageHeaderData) +
									 r * rowbytes, c0, c1);
			skip_seal_rows_page(meta, page);
			GenericXLogFinish(state);
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Call fn(row, bytes, arg) for every row of segment seg (bytes: its
 * capacity / 8 bytes, bit c for column c), page by page in block order,
 * each page checked and share-locked while its rows are visited: the
 * tools' and the merge's way of reading a whole segment.
 */
void
skip_each_row(Relation index, const SkipMeta *meta, const SkipSegment *seg,
			  SkipRowFn fn, void *arg)
{
	for (uint32 pg = 0; pg < seg->npages; pg++)
	{
		BlockNumber blk = seg->first_block + pg;
		Buffer		buf = ReadBuffer(index, blk);
		Page		page;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		skip_check_rows_page(index, meta, seg, page, blk);
		for (uint32 r = 0; r < seg->rows_per_page; r++)
		{
			uint64		row = (uint64) pg * seg->rows_per_page + r;

			if (row >= meta->nbits)
				break;
			fn(row, (const uint8 *) page + MAXALIGN(SizeOfPageHeaderData) +
			   (Size) r * (seg->capacity / 8), arg);
		}
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}
