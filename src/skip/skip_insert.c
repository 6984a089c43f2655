/*-------------------------------------------------------------------------
 *
 * skip_insert.c
 *	  Adding a row's keys to a bloomskip index.
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
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "catalog/index.h"
#include "miscadmin.h"

/* one bit to set: its page and the byte and bit within the page */
typedef struct SkipBit
{
	BlockNumber blk;
	uint32		byte;
	uint8		mask;
} SkipBit;

/* qsort comparator of SkipBit by block */
static int
skip_cmp_bit(const void *a, const void *b)
{
	BlockNumber x = ((const SkipBit *) a)->blk;
	BlockNumber y = ((const SkipBit *) b)->blk;

	return (x > y) - (x < y);
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

/* aminsert: set the row's keys in its range, extending the index first if needed. */
bool
skip_insert(Relation index, Datum *values, bool *isnull,
			ItemPointer ht_ctid, Relation heapRel,
			IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
			bool indexUnchanged,
#endif
			IndexInfo *indexInfo)
{
	SkipKeyInfo *ki = skip_insert_keyinfo(index, indexInfo);
	SkipMeta	meta;
	uint64		h[INDEX_MAX_KEYS];
	int			nh = 0;
	uint64		range;

	skip_read_meta(index, &meta);
	for (int i = 0; i < ki->natts; i++)
		if (!isnull[i])
			h[nh++] = skip_hash_value(&ki->ti[i], &meta, i, values[i]);
	if (nh == 0)
		return false;			/* NULL keys match nothing: no bits */
	range = ItemPointerGetBlockNumber(ht_ctid) / meta.pages_per_range;
	if (range >= meta.nranges)
	{
		skip_extend(index, range);
		skip_read_meta(index, &meta);
	}
	skip_set_bits(index, &meta, range, h, nh);
	return false;
}
