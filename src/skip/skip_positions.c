/*-------------------------------------------------------------------------
 *
 * skip_positions.c
 *	  Where a key's bits are in a bloomskip index: its k bit positions (the
 *	  bloom type's classic layout), the segment of a range and the block
 *	  and offset of a row.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

/* The segment holding range (which the caller knows is covered). */
const SkipSegment *
skip_segment_of(const SkipMeta *meta, uint64 range)
{
	for (uint32 i = 0; i < meta->nsegments; i++)
	{
		const SkipSegment *seg = &meta->segments[i];

		if (range >= seg->first_range && range - seg->first_range < seg->capacity)
			return seg;
	}
	elog(ERROR, "bloomskip range " UINT64_FORMAT " is in no segment", range);
	return NULL;				/* keep the compiler quiet */
}

/* Where row (a bit position) of a segment is: its block and byte offset. */
void
skip_row_location(const SkipSegment *seg, uint64 row, BlockNumber *blk, Size *offset)
{
	*blk = seg->first_block + (BlockNumber) (row / seg->rows_per_page);
	*offset = MAXALIGN(SizeOfPageHeaderData) +
		(Size) (row % seg->rows_per_page) * (seg->capacity / 8);
}

/* The k bit positions of hash h (classic layout of the bloom type). */
int
skip_positions(const SkipMeta *meta, uint64 h, uint64 *pos)
{
	BloomFilter hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.version = BLOOM_FORMAT_VERSION;
	hdr.layout = BLOOM_LAYOUT_CLASSIC;
	hdr.scheme = meta->scheme;
	hdr.nhashes = (uint8) meta->nhashes;
	hdr.nbits = meta->nbits;
	hdr.seed = meta->seed;
	return bloom_probe_positions(&hdr, h, pos);
}
