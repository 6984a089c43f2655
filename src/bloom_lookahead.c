/*-------------------------------------------------------------------------
 *
 * bloom_lookahead.c
 *	  Prefetching the filter blocks of the rows a scan will probe next.
 *
 * `WHERE bloom_contains(f, col)` with a filter larger than the CPU caches
 * costs one memory miss per row (plus a TLB miss), 100-150 ns here, two to
 * three times what the executor spends on the row itself.  The aggregate
 * hides its misses by queueing hashes and prefetching (bloom_agg.c), but a
 * function in a WHERE clause sees one row at a time and must answer at once.
 *
 * It can still look ahead.  When the probed value is a varlena stored in
 * line in a shared buffer page (a sequential or bitmap heap scan passes a
 * pointer into the page), the rows the scan returns next are, most of the
 * time, the following tuples of that page.  This module reads the same
 * attribute of those tuples, assuming it lies at the same offset within its
 * tuple (true when the columns before it are fixed-width and not null),
 * hashes it and prefetches its filter block LOOKAHEAD_DISTANCE rows ahead,
 * so the miss is taken while the executor works on the rows in between.
 *
 * The hashes computed ahead are kept, with a copy of the bytes they were
 * computed from, so the probe of that row need not hash again.
 *
 * Nothing here can change an answer: a prefetch is a hint, and a kept hash
 * is used only for a value whose bytes equal, byte for byte, the copy it was
 * computed from, under the same filter seed (the hash is a function of the
 * bytes, the call site's type and the seed alone).  Reads never leave the page
 * that holds the current value, which the caller's scan holds a pin on, so
 * its memory stays valid; every line pointer, offset and length read from
 * it is checked against the page and tuple bounds before use, so a tuple of
 * another layout, a dead or redirected line pointer, or a line pointer a
 * concurrent inserter is writing, only ever yields a useless prefetch.
 * Only hashes that accept any bytes are computed (text and varchar under a
 * deterministic collation, bytea): garbage bytes given to another type's
 * hash function could raise an error.  A call site whose predictions keep
 * failing (a column after variable-width ones, an index scan) turns the
 * lookahead off for the rest of the query.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "miscadmin.h"

bool		bloom_lookahead_enabled = true;

/* how many rows ahead to prefetch: a miss takes about two rows' work */
#define LOOKAHEAD_DISTANCE	6

/* how far to look for the current value past the previous one */
#define LOOKAHEAD_SKIP		4

/* judge the predictions every this many calls ... */
#define LOOKAHEAD_WINDOW	4096

/*
 * The page holding p if p points into a shared buffer, else NULL.  Local
 * buffers (temporary tables) and values copied out of pages are not seen.
 */
static inline const char *
lookahead_page_of(const char *p)
{
	size_t		rel = (size_t) (p - BufferBlocks);

	if (p < BufferBlocks || rel >= (size_t) NBuffers * BLCKSZ)
		return NULL;
	return BufferBlocks + (rel / BLCKSZ) * BLCKSZ;
}

/* The number of line pointers of page, bounded by what fits in it. */
static inline OffsetNumber
lookahead_maxoff(const char *page)
{
	LocationIndex lower = ((const PageHeaderData *) page)->pd_lower;

	if (lower <= SizeOfPageHeaderData || lower > BLCKSZ)
		return 0;
	return (lower - SizeOfPageHeaderData) / sizeof(ItemIdData);
}

/*
 * The in-line varlena at byte offset attoff of the tuple of line pointer
 * off, or NULL when there is none that lies wholly inside the tuple.
 */
static const char *
lookahead_value(const char *page, OffsetNumber off, uint32 attoff)
{
	ItemIdData	lp = *(const ItemIdData *) PageGetItemId((Page) page, off);
	uint32		start = ItemIdGetOffset(&lp);
	uint32		len = ItemIdGetLength(&lp);
	const char *v;
	uint32		vlen;

	if (!ItemIdIsNormal(&lp) || start < SizeOfPageHeaderData ||
		start + len > BLCKSZ || attoff >= len)
		return NULL;
	v = page + start + attoff;
	if (VARATT_IS_1B(v))
	{
		if (VARATT_IS_1B_E(v))
			return NULL;		/* TOAST pointer */
		vlen = VARSIZE_1B(v);
	}
	else if (attoff + VARHDRSZ <= len && VARATT_IS_4B_U(v))
		vlen = VARSIZE_4B(v);
	else
		return NULL;			/* compressed, or not enough room */
	if (vlen < VARHDRSZ_SHORT || attoff + vlen > len)
		return NULL;
	return v;
}

/*
 * Find the line pointer whose tuple holds p and remember where p lies in
 * it.  Returns false if p is in no tuple of the page.
 */
static bool
lookahead_locate(BloomLookahead *la, const char *page, const char *p)
{
	OffsetNumber maxoff = lookahead_maxoff(page);
	uint32		pos = (uint32) (p - page);

	for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ItemIdData	lp = *(const ItemIdData *) PageGetItemId((Page) page, off);

		if (ItemIdIsNormal(&lp) && ItemIdGetOffset(&lp) <= pos &&
			pos < ItemIdGetOffset(&lp) + ItemIdGetLength(&lp))
		{
			la->page = page;
			la->attoff = pos - ItemIdGetOffset(&lp);
			la->cur = off;
			la->next = off + 1;
			return true;
		}
	}
	la->page = NULL;
	return false;
}

/*
 * Is p the value of one of the next few tuples after the previous one?
 * Tuples the scan skipped (invisible, filtered out by another qual) are
 * passed over.
 */
static bool
lookahead_advance(BloomLookahead *la, const char *p)
{
	OffsetNumber maxoff = lookahead_maxoff(la->page);

	for (OffsetNumber off = la->cur + 1;
		 off <= maxoff && off <= la->cur + LOOKAHEAD_SKIP; off++)
	{
		if (lookahead_value(la->page, off, la->attoff) == p)
		{
			la->cur = off;
			if (la->next <= off)
				la->next = off + 1;
			return true;
		}
	}
	return false;
}

/* Judge the predictions of the last window; turn a failing site off. */
static void
lookahead_judge(BloomLookahead *la)
{
	if (la->misses * 4 > la->calls)
		la->disabled = true;
	la->calls = la->misses = 0;
}

/* Hash the value v of line pointer off ahead, keep the hash, prefetch. */
static void
lookahead_prefetch(BloomLookahead *la, const BloomFilter *f,
				   const BloomTypeInfo *ti, OffsetNumber off, const char *v)
{
	BloomLookaheadEntry *e = &la->ring[off & (BLOOM_LOOKAHEAD_RING - 1)];
	uint64		h = bloom_hash_datum(ti, PointerGetDatum(v), f->seed);
	uint32		len = VARSIZE_ANY(v);

	bloom_prefetch_hash(f, h, false);
	if (len <= BLOOM_LOOKAHEAD_COPY_MAX)
	{
		e->ptr = v;
		e->seed = f->seed;
		e->hash = h;
		e->len = len;
		memcpy(e->bytes, v, len);
	}
	else
		e->ptr = NULL;
}

/*
 * The hash kept for the value p of line pointer off, if it was computed
 * from the same bytes under the same seed.
 */
static inline bool
lookahead_kept(const BloomLookahead *la, OffsetNumber off, const char *p,
			   uint64 seed, uint64 *hash)
{
	const BloomLookaheadEntry *e = &la->ring[off & (BLOOM_LOOKAHEAD_RING - 1)];

	if (e->ptr != p || e->seed != seed || e->len != VARSIZE_ANY(p) ||
		memcmp(e->bytes, p, e->len) != 0)
		return false;
	*hash = e->hash;
	return true;
}

/*
 * Called by a probe of f with value before it probes: prefetch the filter
 * blocks of the values the scan will most likely pass next.  Returns true
 * and sets *hash if the value's hash was computed ahead (same bytes, same
 * seed); otherwise the caller hashes it.
 */
bool
bloom_lookahead(BloomLookahead *la, const BloomFilter *f,
				const BloomTypeInfo *ti, Datum value, uint64 *hash)
{
	const char *p = DatumGetPointer(value);
	const char *page;
	OffsetNumber maxoff;
	OffsetNumber last;

	bool		kept = false;

	if (la->disabled)
		return false;
	if (++la->calls >= LOOKAHEAD_WINDOW)
		lookahead_judge(la);
	page = lookahead_page_of(p);
	if (page == NULL)
	{
		la->misses++;
		la->page = NULL;
		return false;
	}
	if (page == la->page && lookahead_advance(la, p))
		kept = lookahead_kept(la, la->cur, p, f->seed, hash);
	else
	{
		/* a new page is normal; another miss on the same page is not */
		if (page == la->page)
			la->misses++;
		if (!lookahead_locate(la, page, p))
		{
			la->misses++;
			return false;
		}
	}
	maxoff = lookahead_maxoff(page);
	last = Min(maxoff, la->cur + LOOKAHEAD_DISTANCE);
	for (; la->next <= last; la->next++)
	{
		const char *v = lookahead_value(page, la->next, la->attoff);

		if (v != NULL)
			lookahead_prefetch(la, f, ti, la->next, v);
		else
			la->ring[la->next & (BLOOM_LOOKAHEAD_RING - 1)].ptr = NULL;
	}
	return kept;
}

/*
 * Whether probes of the (classic or blocked) filter f with values described
 * by ti should look ahead: the filter must be larger than the CPU's
 * middle-level cache and the hash safe on arbitrary bytes.
 */
bool
bloom_lookahead_useful(const BloomFilter *f, const BloomTypeInfo *ti)
{
	return bloom_lookahead_enabled &&
		ti->kind == BLOOM_HASH_BYTES &&
		f->nbits / 8 >= BLOOM_LOOKAHEAD_MIN_BYTES;
}
