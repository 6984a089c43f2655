/*-------------------------------------------------------------------------
 *
 * skip_array_cost.c
 *	  The share of a bloomskip index's summarized ranges that a query of a
 *	  class with queries (n-gram, tsvector, array, jsonb) passes, read from
 *	  the index itself when a plan is costed (skip_cost.c).
 *
 * PostgreSQL's estimate of how many rows hold an array element or a jsonb
 * key is its statistics' (the most common elements; for any other, a
 * fraction of the least common one's frequency): a tag on 10 rows of a
 * million is estimated at thousands, which the cost model, not knowing
 * where those rows sit, spreads over every range, and the sequential scan
 * wins.  For a substring it is worse in both directions: a word of prose
 * of a few rows in 100,000 has n-grams that are each in most ranges, so
 * the scan returns most of the table however few rows match, and a
 * mid-frequency word is estimated at a few hundred rows of a million
 * however many hold it.  No statistic kept at build could say which
 * ranges hold all of a needle's n-grams at once; the index can: the
 * ranges a query passes are the ones whose bits hold its keys, and
 * counting them reads what the scan's first step reads -- k rows of bits
 * per key and segment, each row holding a bit per range -- plus the
 * staging area.  So the planner gets the very count the scan will return
 * (true and false ranges together), at the price of a few buffer reads
 * per plan, and no stored format changes.
 *
 * At most SKIP_SHARE_MAX_CLAUSES clauses, SKIP_SHARE_MAX_ALTS alternatives
 * of a clause and SKIP_SHARE_MAX_KEYS keys of an alternative are read
 * (spread over it: a needle's n-grams that follow one another overlap, and
 * the first ones of "req=c4ca4238a0b9" are in every range); beyond, a
 * clause counts as passing everywhere or an alternative as needing only
 * the keys read: the share is never below the scan's.  An alternative no
 * range passes reads no further key.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "miscadmin.h"
#include "port/pg_bitutils.h"

#define SKIP_SHARE_MAX_CLAUSES	8
#define SKIP_SHARE_MAX_ALTS		16
#define SKIP_SHARE_MAX_KEYS		16

/* AND into dst[0 .. nbytes) the first nbytes of rows pos[0 .. np) of segment seg. */
static void
skip_and_rows(Relation index, const SkipMeta *meta, const SkipSegment *seg,
			  const uint64 *pos, int np, uint8 *dst, uint64 nbytes)
{
	for (int q = 0; q < np; q++)
	{
		BlockNumber blk;
		Size		off;
		Buffer		buf;
		const uint8 *row;

		skip_row_location(seg, pos[q], &blk, &off);
		buf = ReadBuffer(index, blk);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		skip_check_rows_page(index, meta, seg, BufferGetPage(buf), blk);
		row = (const uint8 *) BufferGetPage(buf) + off;
		for (uint64 j = 0; j < nbytes; j++)
			dst[j] &= row[j];
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * In bits (n ranges, n / 8 rounded up bytes): the ranges whose filter may
 * hold h, read as a scan reads them: the recent segment's columns, then
 * the segments' (skip_recent.c), and the staged filters.
 */
static void
skip_share_key(Relation index, const SkipMeta *meta, const SkipStaged *st,
			   uint64 h, uint8 *bits, uint64 n)
{
	uint64		pos[BLOOM_MAX_POSITIONS];
	int			np = skip_positions(meta, h, pos);
	uint8	   *cols = NULL;

	if (meta->recent.capacity > 0)
	{
		cols = palloc(meta->recent.capacity / 8);
		memset(cols, 0xFF, meta->recent.capacity / 8);
		skip_and_rows(index, meta, &meta->recent, pos, np, cols, meta->recent.capacity / 8);
	}
	memset(bits, 0xFF, (n + 7) / 8);
	for (uint32 s = 0; s < meta->nsegments; s++)
	{
		const SkipSegment *seg = &meta->segments[s];
		uint64		last = Min(seg->first_range + seg->capacity, n);

		if (seg->first_range >= n)
			continue;
		/*
		 * A segment starts at a multiple of 64 ranges (its capacity and all
		 * before it are, as the metapage's check ensures), so its column c is
		 * bit c of bits from byte first_range / 8 on: AND the row in whole
		 * bytes.  Bits past n in the last byte are never counted
		 * (skip_query_share masks them).
		 */
		skip_and_rows(index, meta, seg, pos, np, bits + seg->first_range / 8,
					  (last - seg->first_range + 7) / 8);
	}
	if (cols)
	{
		skip_recent_fold(meta, cols, bits, 0, n);
		pfree(cols);
	}
	/* a staged range's filter holds its keys until it is sliced */
	for (uint64 r = n - Min((uint64) meta->nstaged, n); r < n; r++)
	{
		const uint8 *staged = skip_staged_bits(st, r);

		if (staged && skip_bits_have(staged, pos, np))
			bits[r / 8] |= (uint8) (1 << (r % 8));
	}
}

/*
 * The share (0 to 1) of the summarized ranges of index whose filters pass
 * q, as a scan reads them; -1 when no range is summarized.
 */
double
skip_query_share(Relation index, const SkipMeta *meta, const SkipQuery *q)
{
	uint64		n = meta->summarized;
	Size		bytes = (n + 7) / 8;
	uint8	   *all, *clause, *alt, *key;
	SkipStaged	st;
	uint64		set = 0;

	if (n == 0)
		return -1.0;
	skip_stage_read(index, meta, &st, false);
	all = palloc(bytes);
	clause = palloc(bytes);
	alt = palloc(bytes);
	key = palloc(bytes);
	memset(all, 0xFF, bytes);
	for (int c = 0; c < Min(q->nclauses, SKIP_SHARE_MAX_CLAUSES); c++)
	{
		int			a0 = c > 0 ? q->clause_end[c - 1] : 0;

		if (q->clause_end[c] - a0 > SKIP_SHARE_MAX_ALTS)
			continue;
		memset(clause, 0, bytes);
		for (int a = a0; a < q->clause_end[c]; a++)
		{
			int			k0 = a > 0 ? q->alt_end[a - 1] : 0;
			int			nk = q->alt_end[a] - k0;
			int			take = Min(nk, SKIP_SHARE_MAX_KEYS);

			memset(alt, 0xFF, bytes);
			/* keys spread over the alternative; none left passing ends it */
			for (int i = 0; i < take; i++)
			{
				uint8		any = 0;

				skip_share_key(index, meta, &st, q->keys.h[k0 + (int) ((int64) i * nk / take)], key, n);
				for (Size b = 0; b < bytes; b++)
					any |= (alt[b] &= key[b]);
				if (!any)
					break;
			}
			for (Size b = 0; b < bytes; b++)
				clause[b] |= alt[b];
		}
		for (Size b = 0; b < bytes; b++)
			all[b] &= clause[b];
	}
	if (n % 8)
		all[bytes - 1] &= (uint8) ((1 << (n % 8)) - 1);
	for (Size b = 0; b < bytes; b++)
		set += pg_popcount32(all[b]);
	return (double) set / (double) n;
}
