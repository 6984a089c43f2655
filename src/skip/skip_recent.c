/*-------------------------------------------------------------------------
 *
 * skip_recent.c
 *	  The recent segment of a bloomskip index (format 4): the bits of the
 *	  ranges sliced last, kept in a narrow segment of their own until they
 *	  are merged into their segments together.
 *
 * Why.  Slicing the staging area's ranges into their segment changes
 * nearly every page of the segment, and a segment's pages grow with its
 * capacity: a segment of C ranges has m rows of C / 8 bytes.  Appends go
 * into the last segment, whose capacity is what the index held before it
 * (skip_sizing.c), so a slice of S staged ranges changed about m C / 8 / S
 * bytes of pages per range, more as the table grows: at 5 M rows and
 * 10,000 ranges, thousands of pages for every 8 to 24 ranges.  The recent
 * segment holds T ranges (T much smaller than C): the staging area is
 * sliced into it (m T / 8 / S bytes per range), and it is merged into the
 * segments once per T ranges (m C / 8 / T per range).  The sum is least
 * at T = sqrt(S C).  A lookup reads k more pages: the recent segment's
 * rows.  This is the levelling of a log-structured merge tree, with the
 * staging area, the recent segment and the segments as its levels.
 *
 * Layout.  The metapage's recent field is a segment (SkipSegment) whose
 * first_range is the first range of its window: it holds ranges
 * [first_range, first_range + capacity), range r in column r % capacity (a
 * ring: a column's range needs no base, so a reader holding an older
 * metapage still finds a range in the column it was written to).  Its
 * pages are pages of rows at position SKIP_RECENT_SEGNO.  There is none
 * (capacity 0) in format 3, without a staging area, and while the segment
 * receiving the slices is small (T > C / 4: slicing into it is as cheap).
 *
 * Writers.  Only a summarizer, holding the summarizing lock: it slices the
 * staged ranges into the recent segment when they fall in its window;
 * else it first merges it (ORs every column into its range's segment
 * column), clears its pages, and moves the window to start at the first
 * range to slice, in one metapage record.  A crash midway leaves a range's
 * bits in both places, or in its segment only: never in neither.  The
 * slice that adds the recent segment still goes into the segments, and
 * the window starts after it; the recent segment never moves.
 *
 * Readers.  A scan reads the metapage, the slots, then for each key the
 * recent segment's rows, then the segments' rows (skip_scan.c), and takes
 * the union.  It consults the recent segment's column of the ranges of its
 * metapage's window and of its staged ranges (which may be sliced into the
 * recent segment meanwhile).  A range merged meanwhile is in its segment
 * before its column is cleared, and the segment is read after the recent
 * segment; a column reused by a later range adds bits, never removes any.
 * A reader whose metapage has no recent segment yet has its staged ranges
 * sliced into the segments (by the slice that adds it).
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/lmgr.h"

/*
 * May the recent segment of meta hold bits of range, for a reader of meta:
 * a range of its window, or a staged one (sliced into it meanwhile, maybe).
 */
bool
skip_recent_covers(const SkipMeta *meta, uint64 range)
{
	const SkipSegment *t = &meta->recent;

	if (t->capacity == 0)
		return false;
	if (range >= t->first_range && range - t->first_range < t->capacity)
		return true;
	return range < meta->summarized && meta->summarized - range <= meta->nstaged;
}

/* May the recent segment of meta hold bits of any range of [lo, hi)? */
bool
skip_recent_overlaps(const SkipMeta *meta, uint64 lo, uint64 hi)
{
	const SkipSegment *t = &meta->recent;

	if (t->capacity == 0)
		return false;
	return (t->first_range < hi && lo < t->first_range + t->capacity) ||
		(meta->nstaged > 0 && meta->summarized - meta->nstaged < hi && lo < meta->summarized);
}

/* The recent segment's column of range. */
static uint32
skip_recent_column(const SkipMeta *meta, uint64 range)
{
	return (uint32) (range % meta->recent.capacity);
}

/*
 * OR into dst the ranges of [dst_first, dst_end) (bit r - dst_first: byte
 * / 8, bit % 8) whose recent column is set in cols (bit c: column c), of the
 * ranges skip_recent_covers.
 */
void
skip_recent_fold(const SkipMeta *meta, const uint8 *cols, uint8 *dst,
				 uint64 dst_first, uint64 dst_end)
{
	const SkipSegment *t = &meta->recent;
	uint64		from[2] = {t->first_range, meta->summarized - meta->nstaged};
	uint64		to[2] = {t->first_range + t->capacity, meta->summarized};

	if (t->capacity == 0)
		return;
	for (int i = 0; i < 2; i++)
	{
		for (uint64 r = Max(from[i], dst_first); r < Min(to[i], dst_end); r++)
		{
			uint32		c = skip_recent_column(meta, r);

			if ((cols[c / 8] >> (c % 8)) & 1)
				dst[(r - dst_first) / 8] |= (uint8) (1 << ((r - dst_first) % 8));
		}
	}
}

/*
 * range's column of the recent segment in cols (skip_recent_filters' copy),
 * or NULL where the segment has none for range (or there is no copy).
 */
const uint8 *
skip_recent_filter(const SkipMeta *meta, uint8 *const *cols, uint64 range)
{
	if (cols == NULL || !skip_recent_covers(meta, range))
		return NULL;
	return cols[skip_recent_column(meta, range)];
}

/* What skip_recent_filters collects: m bits per column, or NULL. */
typedef struct SkipRecentCols
{
	const SkipMeta *meta;
	uint8	  **out;
} SkipRecentCols;

/* skip_each_row's visitor: bit row of each column set in bytes. */
static void
skip_recent_collect(uint64 row, const uint8 *bytes, void *arg)
{
	SkipRecentCols *rc = (SkipRecentCols *) arg;

	for (uint32 b = 0; b < rc->meta->recent.capacity / 8; b++)
	{
		for (uint8 v = bytes[b]; v; v &= v - 1)
		{
			uint32		c = b * 8 + pg_rightmost_one_pos32(v);

			if (rc->out[c] == NULL)
				rc->out[c] = palloc0(rc->meta->nbits / 8);
			rc->out[c][row / 8] |= (uint8) (1 << (row % 8));
		}
	}
}

/*
 * The recent segment's columns as filters: out[c] the m / 8 bytes of
 * column c, or NULL where the column has no bit set.  Reads every page of
 * it.
 */
uint8 **
skip_recent_filters(Relation index, const SkipMeta *meta)
{
	SkipRecentCols rc;

	rc.meta = meta;
	rc.out = palloc0(sizeof(uint8 *) * meta->recent.capacity);
	skip_each_row(index, meta, &meta->recent, skip_recent_collect, &rc);
	return rc.out;
}

/*
 * OR the recent segment's columns into what st holds (a copy read before), for
 * the ranges skip_recent_covers: st then covers those ranges and its own, each
 * with the union of its staged filter and its recent column (NULL where
 * neither has bits).  For the tools that read whole filters.
 */
void
skip_recent_into_staged(Relation index, const SkipMeta *meta, SkipStaged *st)
{
	const SkipSegment *t = &meta->recent;
	uint64		lo,
				hi;
	uint8	  **cols;
	uint8	  **bits;

	if (t->capacity == 0)
		return;
	cols = skip_recent_filters(index, meta);
	lo = Min(t->first_range, meta->summarized - meta->nstaged);
	hi = Max(t->first_range + t->capacity, meta->summarized);
	if (st->n > 0)
	{
		lo = Min(lo, st->first);
		hi = Max(hi, st->first + st->n);
	}
	bits = palloc0(sizeof(uint8 *) * (hi - lo));
	for (uint64 r = lo; r < hi; r++)
	{
		const uint8 *staged = skip_staged_bits(st, r);
		const uint8 *col = skip_recent_filter(meta, cols, r);

		if (staged == NULL && col == NULL)
			continue;
		bits[r - lo] = palloc0(meta->nbits / 8);
		for (uint32 b = 0; b < meta->nbits / 8; b++)
			bits[r - lo][b] = (staged ? staged[b] : 0) | (col ? col[b] : 0);
	}
	st->first = lo;
	st->n = (uint32) (hi - lo);
	st->bits = bits;
}

/*
 * The recent segment's capacity for meta, whose staged ranges go into segment
 * seg: sqrt(S C) in multiples of 64, or 0 where seg is too small to need one.
 */
static uint32
skip_recent_capacity(const SkipMeta *meta, const SkipSegment *seg)
{
	double		best = sqrt((double) meta->stage_slots * seg->capacity);
	uint32		cap = (uint32) TYPEALIGN(64, (uint64) best);

	cap = Max(cap, SKIP_RECENT_MIN_CAPACITY);
	if (meta->version < 4 || meta->stage_slots == 0 || (uint64) cap * 4 > seg->capacity)
		return 0;
	return cap;
}

/*
 * Add a recent segment of capacity cap whose window starts at first: its pages
 * at the end of the index, then the metapage record that publishes it (as a
 * new segment is, skip_extend).
 */
static void
skip_recent_create(Relation index, SkipMeta *meta, uint32 cap, uint64 first)
{
	SkipMeta	next;
	SkipSegment t;

	LockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
	t.first_range = first;
	t.capacity = cap;
	t.first_block = RelationGetNumberOfBlocks(index);
	t.rows_per_page = skip_rows_per_page(meta->version, cap);
	t.npages = (meta->nbits + t.rows_per_page - 1) / t.rows_per_page;
	next = *meta;
	next.recent = t;
	skip_write_new_rows_pages(index, &next, &next.recent);
	skip_set_recent(index, &t, meta);
	UnlockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
}

/*
 * What skip_recent_columns copies: the window's first n ranges' columns,
 * the ring's columns [c0, c0 + n1) then [0, n - n1).
 */
typedef struct SkipRecentCopy
{
	uint8	   *rows;			/* m rows of stride bytes */
	Size		stride;
	uint32		n;
	uint32		c0;				/* the column of the window's first range */
	uint32		n1;				/* columns before the ring wraps */
} SkipRecentCopy;

/*
 * skip_each_row's visitor: a row of the ring, from its window's first
 * column on, into the unrotated row: bit i for range first_range + i.
 */
static void
skip_recent_copy_row(uint64 row, const uint8 *bytes, void *arg)
{
	SkipRecentCopy *rc = (SkipRecentCopy *) arg;
	uint8	   *dst = rc->rows + row * rc->stride;

	bloom_or_bit_run(dst, 0, bytes, rc->c0, rc->n1, true);
	if (rc->n1 < rc->n)
		bloom_or_bit_run(dst, rc->n1, bytes, 0, rc->n - rc->n1, true);
}

/*
 * The columns of the first n ranges of the recent segment's window, read
 * from every page of it, as columns for skip_write_columns (range
 * first_range + i in column i).
 */
static SkipColumns
skip_recent_columns(Relation index, const SkipMeta *meta, uint32 n)
{
	SkipRecentCopy rc;
	SkipColumns cols;

	rc.n = n;
	rc.stride = Max((n + 7) / 8, 1);
	rc.c0 = skip_recent_column(meta, meta->recent.first_range);
	rc.n1 = Min(n, meta->recent.capacity - rc.c0);
	rc.rows = palloc0((Size) meta->nbits * rc.stride);
	skip_each_row(index, meta, &meta->recent, skip_recent_copy_row, &rc);
	cols.rows = rc.rows;
	cols.stride = rc.stride;
	cols.first_bit = 0;
	cols.n = n;
	return cols;
}

/*
 * Merge the recent segment into the segments: OR the column of each range of
 * its window into the range's segment column, clear its pages, then move the
 * window to start at first (one metapage record; *meta updated).
 */
static void
skip_recent_merge(Relation index, SkipMeta *meta, uint64 first)
{
	SkipSegment t = meta->recent;
	const SkipSegment *last = &meta->segments[meta->nsegments - 1];
	uint64		covered = last->first_range + last->capacity;
	uint32		n = (uint32) Min((uint64) t.capacity, covered - Min(covered, t.first_range));
	SkipColumns cols = skip_recent_columns(index, meta, n);

	skip_write_columns(index, meta, t.first_range, &cols);
	/* every column: the window's ranges are all of them */
	skip_clear_segment_columns(index, meta, &meta->recent, t.first_range,
							   t.first_range + t.capacity);
	pfree((void *) cols.rows);
	t.first_range = first;
	skip_set_recent(index, &t, meta);
}

/*
 * Merge the recent segment, if any, into the segments, its window then
 * starting at the summarized boundary: before VACUUM clears the columns of the
 * ranges a truncation cut (skip_insert.c), which only the segments' columns
 * are cleared of.  The caller holds the summarizing lock.
 */
void
skip_recent_flush(Relation index, SkipMeta *meta)
{
	if (meta->recent.capacity > 0)
		skip_recent_merge(index, meta, meta->summarized);
}

/*
 * Slice the filters of ranges [first, first + n) (n at most
 * SKIP_STAGE_MAX_SLOTS; filters[i] range first + i's, or NULL) into the recent
 * segment, adding it, or merging it first, as needed; or, where the index has
 * none and needs none, into their segments.  The caller holds the summarizing
 * lock.
 */
void
skip_recent_slice(Relation index, SkipMeta *meta, uint64 first, uint32 n,
				  uint8 *const *filters)
{
	const SkipSegment *t = &meta->recent;
	SkipColumns cols = skip_columns_of_filters(meta, filters, n);
	uint32		c0,
				n1;

	Assert(n <= SKIP_STAGE_MAX_SLOTS);
	if (t->capacity == 0)
	{
		uint32		cap = skip_recent_capacity(meta, skip_segment_of(meta, first));

		/*
		 * Into the segments, whether or not the recent segment is added now:
		 * a reader whose metapage has none looks for its staged ranges there
		 * (a later slice is of ranges staged after the segment was added)
		 */
		skip_write_columns(index, meta, first, &cols);
		if (cap > 0)
			skip_recent_create(index, meta, cap, first + n);
	}
	else
	{
		SkipColumns part;

		if (first < t->first_range || first + n > t->first_range + t->capacity)
			skip_recent_merge(index, meta, first);
		/* the ring's columns from first's on, wrapping at most once */
		c0 = skip_recent_column(meta, first);
		n1 = Min(n, t->capacity - c0);
		part = skip_columns_part(&cols, 0, n1);
		skip_write_segment_columns(index, meta, t, c0, &part);
		if (n1 < n)
		{
			part = skip_columns_part(&cols, n1, n - n1);
			skip_write_segment_columns(index, meta, t, 0, &part);
		}
	}
	pfree((void *) cols.rows);
}
