/*-------------------------------------------------------------------------
 *
 * findex_match.c
 *	  Reading a filter index: the positions a probe's keys hash to, the
 *	  stripes holding them, and the AND of a stripe's rows into the set of
 *	  filters that may hold a key (findex.c explains the rows).
 *
 *-------------------------------------------------------------------------
 */
#include "findex_match.h"

#include "utils/memutils.h"

/*
 * The positions of a key's hash h under hdr into pos (room for
 * BLOOM_MAX_POSITIONS): blocked, the 8 bits of its block; classic, its k
 * bits.  Bit b of the bit array is bit b % 8 of byte b / 8 (bloom_format.h),
 * and word32 i of a block covers its bits 32 i .. 32 i + 31.
 */
int
bloom_index_positions(const BloomFilter *hdr, uint64 h, uint64 *pos)
{
	int			n = bloom_probe_positions(hdr, h, pos);

	if (hdr->layout == BLOOM_LAYOUT_BLOCKED)
	{
		uint64		block = pos[0];
		uint32		h32 = (uint32) h;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			pos[i] = block * BLOOM_BLOCK_BITS + i * 32 + ((h32 * bloom_salt[i]) >> 27);
		n = BLOOM_BLOCK_WORDS32;
	}
	return n;
}

/* One position of a probe: the stripe it lies in, its key, its bit there. */
typedef struct BloomIndexPos
{
	int32		blk;
	int32		key;
	int32		bit;
} BloomIndexPos;

/*
 * A probe matched against the stripes of every segment, one stripe row at
 * a time: its positions grouped by stripe (the entries of blks[i] are
 * pos[start[i] .. start[i + 1]), by key within a stripe).  A key whose
 * positions all lie in one stripe (every key of a blocked index) is
 * answered by that row alone; the others ("multi": the classic layout's k
 * positions fall in up to k stripes) are ANDed over rows by the caller.
 */
struct BloomIndexMatch
{
	int			nkeys;
	int			nblks;
	int32	   *blks;			/* ascending */
	int		   *start;			/* nblks + 1 */
	BloomIndexPos *pos;
	int		   *multi;			/* per key: its index among the multi keys, or -1 */
	int			nmulti;
};

/* Order positions by stripe, then key. */
static int
bloom_index_pos_cmp(const void *a, const void *b)
{
	const BloomIndexPos *x = a;
	const BloomIndexPos *y = b;

	if (x->blk != y->blk)
		return x->blk < y->blk ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->bit > y->bit) - (x->bit < y->bit);
}

/* The probe of the keys hashed to h[0 .. nkeys) under the index's hdr. */
BloomIndexMatch *
bloom_index_match_begin(const BloomFilter *hdr, const uint64 *h, int nkeys)
{
	BloomIndexMatch *m = palloc0(sizeof(BloomIndexMatch));
	int			k = hdr->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_WORDS32 : hdr->nhashes;
	uint64		p[BLOOM_MAX_POSITIONS];
	Size		npos = (Size) nkeys * k;

	/* a probe's positions fit one allocation (and an int) */
	if (npos > MaxAllocSize / sizeof(BloomIndexPos))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many keys for one bloom index lookup"),
				 errdetail("%d keys of %d positions each exceed the limit of %zu positions.",
						   nkeys, k, (size_t) (MaxAllocSize / sizeof(BloomIndexPos))),
				 errhint("Look the keys up in smaller arrays.")));
	m->nkeys = nkeys;
	m->pos = palloc(sizeof(BloomIndexPos) * Max(npos, 1));
	m->multi = palloc(sizeof(int) * Max(nkeys, 1));
	for (int i = 0; i < nkeys; i++)
	{
		if (bloom_index_positions(hdr, h[i], p) != k)
			elog(ERROR, "bloom index probe: unexpected number of positions");
		m->multi[i] = -1;
		for (int j = 0; j < k; j++)
		{
			BloomIndexPos *e = &m->pos[(Size) i * k + j];

			e->blk = (int32) (p[j] / BLOOM_INDEX_STRIPE_BITS);
			e->key = i;
			e->bit = (int32) (p[j] % BLOOM_INDEX_STRIPE_BITS);
			if (e->blk != m->pos[(Size) i * k].blk && m->multi[i] < 0)
				m->multi[i] = m->nmulti++;
		}
	}
	if (npos > 1)
		qsort(m->pos, npos, sizeof(BloomIndexPos), bloom_index_pos_cmp);
	m->blks = palloc(sizeof(int32) * Max(npos, 1));
	m->start = palloc(sizeof(int) * (npos + 1));
	for (Size i = 0; i < npos; i++)
		if (i == 0 || m->pos[i].blk != m->pos[i - 1].blk)
		{
			m->blks[m->nblks] = m->pos[i].blk;
			m->start[m->nblks++] = (int) i;
		}
	m->start[m->nblks] = (int) npos;
	return m;
}

/* The stripes the probe reads, ascending; their number. */
int
bloom_index_match_blks(const BloomIndexMatch *m, const int32 **blks)
{
	*blks = m->blks;
	return m->nblks;
}

/* The number of keys whose positions lie in more than one stripe. */
int
bloom_index_match_multi(const BloomIndexMatch *m)
{
	return m->nmulti;
}

/*
 * Match stripe blks[blkno] of one segment (2048 bytes): OR into *any the
 * slots (bit j: slot j) that may hold a key lying wholly in this stripe,
 * and AND into and[i] the slot words of multi key i's positions here.
 */
void
bloom_index_match_row(const BloomIndexMatch *m, int blkno, const uint8 *stripe,
					  uint64 *any, uint64 *and)
{
	int			end = m->start[blkno + 1];

	for (int i = m->start[blkno]; i < end;)
	{
		int			key = m->pos[i].key;
		uint64		w = ~UINT64CONST(0);

		for (; i < end && m->pos[i].key == key; i++)
			w &= bloom_index_get64(stripe + 8 * m->pos[i].bit);
		if (m->multi[key] < 0)
			*any |= w;
		else
			and[m->multi[key]] &= w;
	}
}
