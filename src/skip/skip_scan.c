/*-------------------------------------------------------------------------
 *
 * skip_scan.c
 *	  Bitmap scans of a bloomskip index.
 *
 * Only bitmap scans (amgetbitmap), as BRIN: the result is a set of lossy
 * heap pages whose rows the executor rechecks.  For every segment the scan
 * computes a bitmap of its ranges: a scan key asks, through its column's
 * operator class (skip_query_build), an AND of clauses, each an OR of
 * values, each an AND of keys (one key for =, the n-grams of a LIKE
 * pattern, a clause per required string set of a regular expression; the
 * elements of an = ANY array are the values of one clause); each key is
 * the AND of its k rows, and every clause's bitmaps are ANDed (several
 * columns, or several conditions on one).  Reading
 * stops early in a segment once its bitmap is empty, so an absent key
 * usually costs fewer than k pages.  A NULL key, or an array of only
 * NULLs, matches nothing.
 * Every page of every range left, and every heap page of the ranges not
 * summarized (the open tail, at or past the metapage's summarized
 * boundary), goes into the bitmap.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/relscan.h"
#include "access/table.h"
#include "catalog/index.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/*
 * The hashes of one scan key's values: value j asks for all of
 * h[start[j] .. start[j + 1]).
 */
typedef struct SkipKeyHashes
{
	int			attno;			/* 0-based index column */
	int			n;				/* values; -1: every range matches */
	int		   *start;
	uint64	   *h;
} SkipKeyHashes;

typedef struct SkipScanOpaque
{
	MemoryContext cxt;			/* reset by each amgetbitmap */
	SkipKeyInfo *cols;			/* the index columns' hashing, or NULL */
	Oid		   *typid;			/* per scan key: the type ti[i] describes */
	BloomTypeInfo **ti;			/* per scan key, or NULL */
} SkipScanOpaque;

/* ambeginscan */
IndexScanDesc
skip_beginscan(Relation r, int nkeys, int norderbys)
{
	IndexScanDesc scan = RelationGetIndexScan(r, nkeys, norderbys);
	SkipScanOpaque *so = palloc0(sizeof(SkipScanOpaque));

	so->typid = palloc0(sizeof(Oid) * Max(nkeys, 1));
	so->ti = palloc0(sizeof(BloomTypeInfo *) * Max(nkeys, 1));
	so->cxt = AllocSetContextCreate(CurrentMemoryContext, "bloomskip scan",
									ALLOCSET_SMALL_SIZES);
	scan->opaque = so;
	return scan;
}

/* amrescan */
void
skip_rescan(IndexScanDesc scan, ScanKey keys, int nkeys,
			ScanKey orderbys, int norderbys)
{
	if (keys && scan->numberOfKeys > 0)
		memmove(scan->keyData, keys, scan->numberOfKeys * sizeof(ScanKeyData));
}

/* amendscan */
void
skip_endscan(IndexScanDesc scan)
{
	SkipScanOpaque *so = (SkipScanOpaque *) scan->opaque;

	MemoryContextDelete(so->cxt);
	pfree(so);
}

/*
 * The hashing information for values of type typid in scan key i, kept
 * across rescans (a parameterized scan rescans once per outer row).
 */
static BloomTypeInfo *
skip_scan_typeinfo(IndexScanDesc scan, int i, Oid typid)
{
	SkipScanOpaque *so = (SkipScanOpaque *) scan->opaque;
	int			attno = scan->keyData[i].sk_attno - 1;

	Assert(attno >= 0 && attno < RelationGetNumberOfAttributes(scan->indexRelation));
	if (so->ti[i] == NULL || so->typid[i] != typid)
	{
		MemoryContext mcxt = GetMemoryChunkContext(so);

		if (so->ti[i] == NULL)
			so->ti[i] = MemoryContextAllocZero(mcxt, sizeof(BloomTypeInfo));
		bloom_typeinfo_init(so->ti[i], typid, scan->indexRelation->rd_indcollation[attno], mcxt);
		so->typid[i] = typid;
	}
	return so->ti[i];
}

/* A growing list of the scan's key hashes (ANDed). */
typedef struct SkipKeyList
{
	SkipKeyHashes *k;
	int			n;
	int			cap;
} SkipKeyList;

/* A new entry of l. */
static SkipKeyHashes *
skip_keylist_add(SkipKeyList *l, int attno)
{
	if (l->n == l->cap)
	{
		l->cap = Max(8, 2 * l->cap);
		l->k = l->k ? repalloc(l->k, sizeof(SkipKeyHashes) * l->cap) :
			palloc(sizeof(SkipKeyHashes) * l->cap);
	}
	memset(&l->k[l->n], 0, sizeof(SkipKeyHashes));
	l->k[l->n].attno = attno;
	return &l->k[l->n++];
}

/* Clause c of q as an entry: the OR of its alternatives (values). */
static void
skip_clause_hashes(const SkipQuery *q, int c, SkipKeyHashes *kh)
{
	int			a0 = c > 0 ? q->clause_end[c - 1] : 0;
	int			a1 = q->clause_end[c];
	int			k0 = a0 > 0 ? q->alt_end[a0 - 1] : 0;

	kh->n = a1 - a0;
	kh->start = palloc(sizeof(int) * (kh->n + 1));
	kh->start[0] = 0;
	for (int a = a0; a < a1; a++)
		kh->start[a - a0 + 1] = q->alt_end[a] - k0;
	kh->h = q->keys.h + k0;
}

/*
 * Append to l what scan key i asks (skip_query_build): one entry per
 * clause of a value, ANDed.  The elements of an = ANY array are ORed: each
 * gives its first clause (implied by all of them), all in one entry; an
 * element that asks nothing makes the key match every range.  False if
 * the key matches no row (a NULL, or an array without non-NULL elements).
 * A strategy the column's class does not serve, or a value its class
 * cannot answer, matches every range.
 */
static bool
skip_key_hashes(IndexScanDesc scan, const SkipMeta *meta, int i, SkipKeyList *l)
{
	SkipScanOpaque *so = (SkipScanOpaque *) scan->opaque;
	ScanKey		sk = &scan->keyData[i];
	int			attno = sk->sk_attno - 1;
	Oid			coltype = TupleDescAttr(RelationGetDescr(scan->indexRelation), attno)->atttypid;
	Datum	   *elems = &sk->sk_argument;
	bool	   *nulls = NULL;
	int			nelems = 1,
				nvalues = 0;
	Oid			typid;
	BloomTypeInfo *ti;
	SkipKeyHashes *kh;
	SkipKeyBuf	all = {NULL, 0, 0, CurrentMemoryContext};
	int		   *start;

	if (so->cols == NULL)
	{
		MemoryContext mcxt = GetMemoryChunkContext(so);

		so->cols = MemoryContextAlloc(mcxt, sizeof(SkipKeyInfo));
		skip_keyinfo_init(so->cols, scan->indexRelation, mcxt);
	}
	if (sk->sk_flags & SK_ISNULL)
		return false;
	if (sk->sk_flags & SK_SEARCHARRAY)
	{
		ArrayType  *arr = DatumGetArrayTypeP(sk->sk_argument);
		int16		elmlen;
		bool		elmbyval;
		char		elmalign;

		typid = ARR_ELEMTYPE(arr);
		get_typlenbyvalalign(typid, &elmlen, &elmbyval, &elmalign);
		deconstruct_array(arr, typid, elmlen, elmbyval, elmalign, &elems, &nulls, &nelems);
	}
	else
		typid = OidIsValid(sk->sk_subtype) ? sk->sk_subtype : coltype;
	ti = so->cols->ops[attno]->hashes_type ? skip_scan_typeinfo(scan, i, typid) : NULL;
	start = palloc(sizeof(int) * (nelems + 1));
	start[0] = 0;
	for (int j = 0; j < nelems; j++)
	{
		SkipQuery	q;
		SkipKeyHashes one;

		if (nulls && nulls[j])
			continue;
		skip_query_init(&q, CurrentMemoryContext);
		if (!skip_query_build(so->cols, meta, attno, sk->sk_strategy, sk->sk_collation,
							  ti, elems[j], &q))
		{
			/* this value may be in every range, and so may the key */
			skip_keylist_add(l, attno)->n = -1;
			return true;
		}
		if (!(sk->sk_flags & SK_SEARCHARRAY))
		{
			for (int c = 0; c < q.nclauses; c++)
				skip_clause_hashes(&q, c, skip_keylist_add(l, attno));
			return true;
		}
		skip_clause_hashes(&q, 0, &one);
		for (int a = 0; a < one.n; a++)
		{
			for (int k = one.start[a]; k < one.start[a + 1]; k++)
				skip_keys_push(&all, one.h[k]);
			if (++nvalues >= nelems)
				start = repalloc(start, sizeof(int) * (nvalues + 1));
			start[nvalues] = all.n;
		}
	}
	if (nvalues == 0)
		return false;
	kh = skip_keylist_add(l, attno);
	kh->n = nvalues;
	kh->start = start;
	kh->h = all.h;
	return true;
}

/* AND row p of segment seg into acc (seg->capacity / 64 words). */
static void
skip_and_row(Relation index, const SkipMeta *meta, const SkipSegment *seg, uint64 p,
			 uint64 *acc)
{
	BlockNumber blk;
	Size		off;
	Buffer		buf;
	const uint64 *row;

	skip_row_location(seg, p, &blk, &off);
	buf = ReadBuffer(index, blk);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	skip_check_rows_page(index, meta, seg, BufferGetPage(buf), blk);
	row = (const uint64 *) ((char *) BufferGetPage(buf) + off);
	for (uint32 w = 0; w < seg->capacity / 64; w++)
		acc[w] &= row[w];
	UnlockReleaseBuffer(buf);
}

/* Is any bit of words[0 .. n) set? */
static bool
skip_any(const uint64 *words, uint32 n)
{
	for (uint32 w = 0; w < n; w++)
		if (words[w] != 0)
			return true;
	return false;
}

/*
 * OR into acc the ranges of segment seg that may hold every hash of
 * h[0 .. nh): the AND of their k rows each (stopping once nothing is left;
 * no hashes: every range).
 */
static void
skip_or_hashes(Relation index, const SkipMeta *meta, const SkipSegment *seg,
			   const uint64 *h, int nh, uint64 *acc, uint64 *tmp)
{
	uint64		pos[BLOOM_MAX_POSITIONS];
	uint32		nw = seg->capacity / 64;

	memset(tmp, 0xFF, nw * sizeof(uint64));
	for (int j = 0; j < nh && skip_any(tmp, nw); j++)
	{
		int			np = skip_positions(meta, h[j], pos);

		for (int q = 0; q < np && skip_any(tmp, nw); q++)
			skip_and_row(index, meta, seg, pos[q], tmp);
		CHECK_FOR_INTERRUPTS();
	}
	for (uint32 w = 0; w < nw; w++)
		acc[w] |= tmp[w];
}

/*
 * Does any value of key kh have every position of every one of its keys
 * set in the staged filter bits?  (A row's keys all go to one place, its
 * slot or its segment, so a value need not be split between the two.)
 */
static bool
skip_staged_match(const SkipMeta *meta, const uint8 *bits, const SkipKeyHashes *kh)
{
	uint64		pos[BLOOM_MAX_POSITIONS];

	for (int j = 0; j < kh->n; j++)
	{
		bool		all = true;

		for (int q = kh->start[j]; q < kh->start[j + 1] && all; q++)
			all = skip_bits_have(bits, pos, skip_positions(meta, kh->h[q], pos));
		if (all)
			return true;
	}
	return false;
}

/*
 * OR into acc (the ranges of segment seg that may hold key kh) the staged
 * ranges of the segment whose staged filter holds it.
 */
static void
skip_or_staged(const SkipMeta *meta, const SkipSegment *seg, const SkipStaged *st,
			   const SkipKeyHashes *kh, uint64 *acc)
{
	uint64		r0 = Max(st->first, seg->first_range);
	uint64		r1 = Min(st->first + st->n, seg->first_range + seg->capacity);

	for (uint64 r = r0; r < r1; r++)
	{
		const uint8 *bits = skip_staged_bits(st, r);
		uint64		c = r - seg->first_range;

		if (bits && skip_staged_match(meta, bits, kh))
			acc[c / 64] |= UINT64CONST(1) << (c % 64);
	}
}

/*
 * OR into acc (the ranges of segment seg that may hold key kh) those whose
 * column of the recent segment holds it (skip_recent.c): the AND of its
 * k rows for each value of kh, folded onto seg's ranges.  Read before the
 * segment's own rows: a range merged meanwhile is in its segment by then.
 */
static void
skip_or_recent(Relation index, const SkipMeta *meta, const SkipSegment *seg,
			   const SkipKeyHashes *kh, uint64 *acc)
{
	const SkipSegment *t = &meta->recent;
	uint32		nw = t->capacity / 64;
	uint64	   *tacc,
			   *ttmp;

	if (!skip_recent_overlaps(meta, seg->first_range, seg->first_range + seg->capacity))
		return;
	tacc = palloc0(nw * sizeof(uint64));
	ttmp = palloc(nw * sizeof(uint64));
	for (int j = 0; j < kh->n; j++)
		skip_or_hashes(index, meta, t, kh->h + kh->start[j], kh->start[j + 1] - kh->start[j],
					   tacc, ttmp);
	skip_recent_fold(meta, (const uint8 *) tacc, (uint8 *) acc, seg->first_range,
				   seg->first_range + seg->capacity);
	pfree(tacc);
	pfree(ttmp);
}

/* Add the heap pages of ranges [r0, r1) below heap_pages to tbm; returns how many. */
static int64
skip_add_ranges(TIDBitmap *tbm, const SkipMeta *meta, uint64 r0, uint64 r1,
				BlockNumber heap_pages)
{
	uint64		b0 = r0 * meta->pages_per_range;
	uint64		b1 = Min(r1 * meta->pages_per_range, (uint64) heap_pages);
	int64		n = 0;

	for (uint64 b = b0; b < b1; b++)
	{
		tbm_add_page(tbm, (BlockNumber) b);
		n++;
		if (n % 4096 == 0)
			CHECK_FOR_INTERRUPTS();
	}
	return n;
}

/* The ranges of segment seg matching every key: into tbm; returns the pages added. */
static int64
skip_scan_segment(IndexScanDesc scan, const SkipMeta *meta, const SkipSegment *seg,
				  const SkipStaged *st, const SkipKeyHashes *keys, int nkeys,
				  TIDBitmap *tbm, BlockNumber heap_pages)
{
	uint32		nw = seg->capacity / 64;
	uint64	   *res = palloc(nw * sizeof(uint64));
	uint64	   *acc = palloc(nw * sizeof(uint64));
	uint64	   *tmp = palloc(nw * sizeof(uint64));
	uint64		ncols = Min((uint64) seg->capacity, meta->summarized - seg->first_range);
	int64		added = 0;

	memset(res, 0xFF, nw * sizeof(uint64));
	for (int i = 0; i < nkeys && skip_any(res, nw); i++)
	{
		if (keys[i].n < 0)
			continue;
		memset(acc, 0, nw * sizeof(uint64));
		skip_or_recent(scan->indexRelation, meta, seg, &keys[i], acc);
		for (int j = 0; j < keys[i].n; j++)
		{
			skip_or_hashes(scan->indexRelation, meta, seg, keys[i].h + keys[i].start[j],
						   keys[i].start[j + 1] - keys[i].start[j], acc, tmp);
			CHECK_FOR_INTERRUPTS();
		}
		skip_or_staged(meta, seg, st, &keys[i], acc);
		for (uint32 w = 0; w < nw; w++)
			res[w] &= acc[w];
	}
	/* a word of no range passing is skipped whole (whatever the byte order) */
	for (uint64 c0 = 0; c0 < ncols; c0 += 64)
	{
		if (res[c0 / 64] == 0)
			continue;
		for (uint64 c = c0; c < Min(c0 + 64, ncols); c++)
			if ((((const uint8 *) res)[c / 8] >> (c % 8)) & 1)
				added += skip_add_ranges(tbm, meta, seg->first_range + c,
										 seg->first_range + c + 1, heap_pages);
		CHECK_FOR_INTERRUPTS();
	}
	pfree(res);
	pfree(acc);
	pfree(tmp);
	return added;
}

/* The heap's size in pages, now. */
static BlockNumber
skip_heap_pages(Relation index)
{
	Relation	heap = table_open(IndexGetRelation(RelationGetRelid(index), false),
								  AccessShareLock);
	BlockNumber n = RelationGetNumberOfBlocks(heap);

	table_close(heap, AccessShareLock);
	return n;
}

/* amgetbitmap */
int64
skip_getbitmap(IndexScanDesc scan, TIDBitmap *tbm)
{
	SkipScanOpaque *so = (SkipScanOpaque *) scan->opaque;
	MemoryContext old = MemoryContextSwitchTo(so->cxt);
	SkipMeta	meta;
	SkipStaged	st;
	SkipKeyList keys = {NULL, 0, 0};
	BlockNumber heap_pages;
	int64		added = 0;
	bool		none = false;

	skip_read_meta(scan->indexRelation, &meta);
	for (int i = 0; i < scan->numberOfKeys && !none; i++)
		none = !skip_key_hashes(scan, &meta, i, &keys);
	if (!none)
	{
		heap_pages = skip_heap_pages(scan->indexRelation);
		/* the staged filters before the segments: see skip_stage.c */
		skip_stage_read(scan->indexRelation, &meta, &st, false);
		for (uint32 s = 0; s < meta.nsegments; s++)
		{
			if (meta.segments[s].first_range >= meta.summarized)
				break;
			added += skip_scan_segment(scan, &meta, &meta.segments[s], &st, keys.k,
									   keys.n, tbm, heap_pages);
		}
		/* the open tail: every page of the ranges not summarized */
		added += skip_add_ranges(tbm, &meta, meta.summarized,
								 (uint64) heap_pages / meta.pages_per_range + 1, heap_pages);
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(so->cxt);
	/* as BRIN: an approximate row count, pages times ten */
	return added * 10;
}

/*
 * May range's filter hold hash h?  For bloomskip_check: what a scan reads,
 * in its order: its staged filter (st, read before), its column of the
 * recent segment, or its segment's rows -- or column, those rows' bits of
 * range as a filter's (bit p = row p), when the caller read them already.
 */
bool
skip_range_has(Relation index, const SkipMeta *meta, const SkipStaged *st,
			   uint64 range, uint64 h, const uint8 *column)
{
	const SkipSegment *seg = skip_segment_of(meta, range);
	uint64		pos[BLOOM_MAX_POSITIONS];
	int			np = skip_positions(meta, h, pos);
	const uint8 *staged = skip_staged_bits(st, range);

	if (staged && skip_bits_have(staged, pos, np))
		return true;
	if (skip_recent_has(index, meta, range, pos, np))
		return true;
	if (column)
		return skip_bits_have(column, pos, np);
	return skip_column_has(index, meta, seg, range - seg->first_range, pos, np);
}
