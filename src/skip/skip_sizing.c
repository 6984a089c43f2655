/*-------------------------------------------------------------------------
 *
 * skip_sizing.c
 *	  The size and layout of a bloomskip index: its options, the default
 *	  rate, m and k for the keys of a range, the staging area's slots and
 *	  the segments' capacities (the model: README, "Sizing" and
 *	  "Segments").
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "access/generic_xlog.h"

/* The index's pages_per_range option (or the default). */
int
skip_options_ppr(Relation index)
{
	SkipOptions *opts = (SkipOptions *) index->rd_options;

	return opts ? opts->pages_per_range : SKIP_DEFAULT_PPR;
}

/* The index's false_positive_rate option; 0 when the build chooses. */
double
skip_options_rate(Relation index)
{
	SkipOptions *opts = (SkipOptions *) index->rd_options;

	return opts ? opts->false_positive_rate : 0.0;
}

/* The default rate: at most one false range per lookup on average. */
double
skip_default_rate(double nranges)
{
	double		r = nranges > 1.0 ? 1.0 / nranges : SKIP_DEFAULT_FPR_MAX;

	return Max(Min(r, SKIP_DEFAULT_FPR_MAX), SKIP_MIN_FPR);
}

/*
 * Fill in m and k of meta for distinct keys per range at rate, with room
 * for SKIP_HEADROOM times the distinct keys, in whole 64-bit words within
 * SKIP_MAX_BITS.  k is the optimal -log2(rate) up to SKIP_MAX_K, and m the
 * bits that reach the rate with that k: m = -k n / ln(1 - rate^(1/k)).
 * version is the page format (skip_new_format).
 */
void
skip_params_for(SkipMeta *meta, uint32 version, double distinct, double rate,
				int ppr, int natts)
{
	double		n = Max(distinct, 1.0) * SKIP_HEADROOM;
	int			k = (int) Min(Max(lround(-log2(rate)), 1), SKIP_MAX_K);
	double		m = ceil(-k * n / log(1.0 - pow(rate, 1.0 / k)) / 64.0) * 64.0;

	m = Min(Max(m, (double) BLOOM_MIN_BITS), (double) SKIP_MAX_BITS);
	memset(meta, 0, sizeof(*meta));
	meta->magic = SKIP_MAGIC;
	meta->version = version;
	meta->nbits = (uint32) m;
	meta->nhashes = (uint16) Min(Max(k, 1), BLOOM_MAX_HASHES);
	meta->scheme = BLOOM_SCHEME_FULL64;
	meta->natts = (uint8) natts;
	meta->seed = 0;
	meta->pages_per_range = (uint32) ppr;
	meta->target_rate = rate;
	meta->design_distinct = n;
	skip_stage_layout(meta, 1);
}

/* Bytes of one slot: the range (and its checksum), then the filter's bits. */
Size
skip_stage_slot_bytes(const SkipMeta *meta)
{
	return SKIP_SLOT_HEADER(meta->version) + (Size) meta->nbits / 8;
}

/*
 * Pages a slot of meta spans: 1 when slots share pages (stage_per_page >
 * 0), else the pages of one slot (format 4 on; skip_stage.c).
 */
uint32
skip_slot_span(const SkipMeta *meta)
{
	Size		avail = SKIP_PAGE_AVAIL_V(meta->version);

	if (meta->stage_per_page > 0)
		return 1;
	return (uint32) ((skip_stage_slot_bytes(meta) + avail - 1) / avail);
}

/*
 * Lay out the staging area of meta (nbits chosen) from first_block: as
 * many slots as SKIP_STAGE_MAX_PAGES pages hold, at most
 * SKIP_STAGE_MAX_SLOTS; from format 4 on, at least SKIP_STAGE_MIN_SLOTS
 * where a page holds one (the pages a slice writes per range fall as the
 * square root of the slots: skip_recent.c; a lookup reads the pages of the
 * slots in use).  A filter larger than a page gets, from format 4 on,
 * slots of whole pages each (stage_per_page 0), as long as a slot spans
 * at most MAX_GENERIC_XLOG_PAGES pages (one WAL record writes it);
 * otherwise, and in format 3, there is no staging area.
 */
void
skip_stage_layout(SkipMeta *meta, BlockNumber first_block)
{
	Size		avail = SKIP_PAGE_AVAIL_V(meta->version);
	Size		slot = skip_stage_slot_bytes(meta);
	uint32		per_page = (uint32) (avail / slot);
	uint32		span = (uint32) ((slot + avail - 1) / avail);

	meta->stage_first_block = first_block;
	meta->stage_per_page = per_page;
	if (per_page > 0)
	{
		uint32		pages = SKIP_STAGE_MAX_PAGES;

		if (meta->version >= 4 && per_page * pages < SKIP_STAGE_MIN_SLOTS)
			pages = (SKIP_STAGE_MIN_SLOTS + per_page - 1) / per_page;
		meta->stage_slots = Min(SKIP_STAGE_MAX_SLOTS, per_page * pages);
		meta->stage_pages = (meta->stage_slots + per_page - 1) / per_page;
	}
	else if (meta->version >= 4 && span <= MAX_GENERIC_XLOG_PAGES)
	{
		meta->stage_slots = SKIP_STAGE_MAX_PAGES / span;
		meta->stage_pages = meta->stage_slots * span;
	}
	else
	{
		meta->stage_slots = 0;
		meta->stage_pages = 0;
	}
	meta->nstaged = 0;
}

/* Rows of a segment of capacity ranges that one page of format version holds. */
uint32
skip_rows_per_page(uint32 version, uint32 capacity)
{
	return (uint32) (SKIP_PAGE_AVAIL_V(version) / (capacity / 8));
}

/*
 * The largest capacity, from format 4 on, whose rows pack as many to a
 * page as capacity's do.  A segment's pages are whole whatever its rows
 * leave over, so the ranges they can still hold cost no page: a table's
 * growth fills them before it needs a new segment.  (Format 3 keeps the
 * capacity asked for, as 1.3 lays it out.)
 */
static uint32
skip_packed_capacity(uint32 version, uint32 capacity)
{
	uint32		rows;

	if (version < 4)
		return capacity;
	rows = skip_rows_per_page(version, capacity);
	/* rows <= avail / (capacity / 8), so this is at least capacity */
	return (uint32) (SKIP_PAGE_AVAIL_V(version) / rows * 8 / 64 * 64);
}

/*
 * The capacity to ask for the first segment of an index built over nranges
 * ranges: room for a quarter more in format 3; from format 4 on, a fifth
 * more, which skip_plan_segments aligns and packs to whole pages (above).
 * The room is there so that a table growing a little past its build does
 * not add a segment.
 */
uint32
skip_build_capacity(uint32 version, uint64 nranges)
{
	uint64		want = nranges + (version >= 4 ? nranges / 5 : nranges / 4);

	return (uint32) Min(want, SKIP_MAX_CAPACITY_V(version));
}

/*
 * Append segments to meta until they cover nranges ranges, the first new
 * one at block first_block.  An index's first segment holds first_capacity
 * ranges; each later one as many as all before it, so that a new segment
 * doubles what the index covers: the number of segments (k pages each per
 * lookup) grows with the logarithm of the table, and a table that grows
 * a little past the index allocates what the index holds, not twice that.
 * Each capacity is then packed to its pages (skip_packed_capacity).
 * (The segment directory records every capacity, so an index whose
 * segments another plan laid out reads the same.)
 */
void
skip_plan_segments(SkipMeta *meta, uint64 nranges, uint32 first_capacity,
				   BlockNumber first_block)
{
	uint64		covered = 0;
	BlockNumber blk = first_block;

	if (meta->nsegments > 0)
	{
		SkipSegment *last = &meta->segments[meta->nsegments - 1];

		covered = last->first_range + last->capacity;
	}
	while (covered < nranges)
	{
		SkipSegment *seg;
		uint64		cap;

		if (meta->nsegments >= SKIP_MAX_SEGMENTS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("bloomskip index has too many segments"),
					 errdetail("The index covers %llu ranges in %d segments.",
							   (unsigned long long) covered, SKIP_MAX_SEGMENTS),
					 errhint("Use a larger pages_per_range.")));
		cap = meta->nsegments == 0 ? first_capacity : covered;
		cap = Min(Max(TYPEALIGN(64, cap), 64), SKIP_MAX_CAPACITY_V(meta->version));
		cap = skip_packed_capacity(meta->version, (uint32) cap);
		seg = &meta->segments[meta->nsegments++];
		seg->first_range = covered;
		seg->capacity = (uint32) cap;
		seg->first_block = blk;
		seg->rows_per_page = skip_rows_per_page(meta->version, seg->capacity);
		seg->npages = (meta->nbits + seg->rows_per_page - 1) / seg->rows_per_page;
		blk += seg->npages;
		covered += cap;
	}
}
