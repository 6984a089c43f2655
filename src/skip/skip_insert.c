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
 * [writer, range): this backend summarizes them from the heap into whole
 * filters, which go to the staging area (skip_stage.c) or, for a backlog,
 * straight into the segments (skip_summarize_upto; the protocol and its
 * proof are in README).  Writing filters into segments is one
 * mechanism (skip_write_columns) for both: the filters are transposed
 * into rows (skip_columns_of_filters), and each page is changed once,
 * MAX_GENERIC_XLOG_PAGES pages a record.  The validation of a concurrent
 * build reads the summarized ranges again the same way (skip_resummarize,
 * called by skip_vacuum.c).
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/generic_xlog.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/lmgr.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

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

/*
 * Set bits[0 .. n), all on one page of segment seg, unless they are set
 * already.  The page is checked (with its rows' checksum) before it is
 * changed: a damaged index is not written to.
 */
static void
skip_set_page_bits(Relation index, const SkipMeta *meta, const SkipSegment *seg,
				   const SkipBit *bits, int n)
{
	Buffer		buf = ReadBuffer(index, bits[0].blk);
	GenericXLogState *state;
	Page		page;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	skip_check_rows_page(index, meta, seg, BufferGetPage(buf), bits[0].blk);
	if (skip_bits_set(BufferGetPage(buf), bits, n))
	{
		UnlockReleaseBuffer(buf);
		return;
	}
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	skip_check_rows_page(index, meta, seg, BufferGetPage(buf), bits[0].blk);
	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, buf, 0);
	for (int i = 0; i < n; i++)
		((uint8 *) page)[bits[i].byte] |= bits[i].mask;
	skip_seal_rows_page(meta, page);
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
		skip_set_page_bits(index, meta, seg, bits + i, j - i);
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

/*
 * Slice the staged ranges (skip_stage.c) into the recent segment, or where
 * the index has none into their segments (skip_recent.c), and empty the
 * area (nstaged = 0 in the metapage, *meta updated).  The caller holds the
 * summarizing lock.  The slots keep their bits until they are rewritten:
 * a reader that read the old metapage may still use them, soundly.
 */
static void
skip_slice_staged(Relation index, SkipMeta *meta)
{
	SkipStaged	st;

	if (meta->nstaged == 0)
		return;
	skip_stage_read(index, meta, &st, true);
	skip_recent_slice(index, meta, st.first, st.n, st.bits);
	skip_set_summarized(index, meta->summarized, 0, NULL, meta);
	for (uint32 i = 0; i < st.n; i++)
		pfree(st.bits[i]);
	pfree(st.bits);
}

/* A summarizing batch: the filters of ranges [first, first + n), built from the heap. */
typedef struct SkipSumState
{
	SkipMeta	meta;
	SkipKeyInfo ki;
	uint64		first;
	uint32		n;
	uint8	   *filters;		/* n filters of m / 8 bytes, one after the other */
	SkipStats  *learnt;			/* the keys' sketch, or NULL (skip_stats_kept) */
	MemoryContext tmpcxt;
} SkipSumState;

/* table_index_build_range_scan's callback: add the row's keys to its range's filter. */
static void
skip_sum_callback(Relation index, ItemPointer tid, Datum *values,
				  bool *isnull, bool tupleIsAlive, void *state)
{
	SkipSumState *ss = (SkipSumState *) state;
	uint64		range = ItemPointerGetBlockNumber(tid) / ss->meta.pages_per_range;
	uint8	   *f;
	uint64		pos[BLOOM_MAX_POSITIONS];
	SkipKeyBuf	keys = {NULL, 0, 0, ss->tmpcxt};
	MemoryContext old;

	if (range < ss->first || range - ss->first >= ss->n)
		elog(ERROR, "bloomskip summarizing read a row outside its ranges");
	f = ss->filters + (Size) (range - ss->first) * (ss->meta.nbits / 8);
	old = MemoryContextSwitchTo(ss->tmpcxt);
	for (int i = 0; i < ss->ki.natts; i++)
		if (!isnull[i])
			skip_value_keys(&ss->ki, &ss->meta, i, values[i], &keys);
	MemoryContextSwitchTo(old);
	for (int j = 0; j < keys.n; j++)
	{
		int			np = skip_positions(&ss->meta, keys.h[j], pos);

		if (ss->learnt)
			skip_stats_add_key(ss->learnt, keys.h[j]);
		for (int q = 0; q < np; q++)
			f[pos[q] / 8] |= (uint8) (1 << (pos[q] % 8));
	}
	MemoryContextReset(ss->tmpcxt);
}

/* Set every bit of the filter of the range of tid: it may hold any key. */
static void
skip_sum_all(SkipSumState *ss, ItemPointer tid)
{
	uint64		range = ItemPointerGetBlockNumber(tid) / ss->meta.pages_per_range;

	if (range < ss->first || range - ss->first >= ss->n)
		elog(ERROR, "bloomskip summarizing read a row outside its ranges");
	memset(ss->filters + (Size) (range - ss->first) * (ss->meta.nbits / 8), 0xFF,
		   ss->meta.nbits / 8);
}

/*
 * Which tuples still on a heap page a summarizer reads into its range's
 * filter (README says why every one an old snapshot may see): all but
 * those no snapshot ever saw (their inserter aborted).  A tuple dead by
 * this server's horizon (HEAPTUPLE_DEAD, not pruned yet) was seen by
 * snapshots a standby may still hold; its key goes in, except where
 * reading it may fail: its TOAST may be gone already (VACUUM of the TOAST
 * table), and an index expression or predicate was perhaps never computed
 * on it (it died before the index was built; 1/x on x = 0) -- for those
 * the whole filter is set (SKIP_TUPLE_ALL), which is sound and costs one
 * range read in vain per lookup until REINDEX.
 */
typedef enum SkipTupleFate
{
	SKIP_TUPLE_SKIP,
	SKIP_TUPLE_READ,
	SKIP_TUPLE_ALL
} SkipTupleFate;

/* The oldest transaction whose deletions the heap may still hold. */
static TransactionId
skip_oldest_xmin(Relation heap)
{
#if PG_VERSION_NUM >= 140000
	return GetOldestNonRemovableTransactionId(heap);
#else
	return GetOldestXmin(heap, PROCARRAY_FLAGS_VACUUM);
#endif
}

/* The fate of the heap tuple in slot, on page buf (pinned). */
static SkipTupleFate
skip_tuple_fate(TupleTableSlot *slot, Buffer buf, TransactionId oldest, bool computed)
{
	HeapTuple	tup = ExecFetchSlotHeapTuple(slot, false, NULL);
	HeapTupleHeader hdr = tup->t_data;
	SkipTupleFate fate = SKIP_TUPLE_READ;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	if (HeapTupleSatisfiesVacuum(tup, oldest, buf) == HEAPTUPLE_DEAD)
	{
		if (HeapTupleHeaderXminInvalid(hdr) ||
			(!HeapTupleHeaderXminCommitted(hdr) &&
			 !TransactionIdDidCommit(HeapTupleHeaderGetRawXmin(hdr))))
			fate = SKIP_TUPLE_SKIP;
		else if (computed || HeapTupleHasExternal(tup))
			fate = SKIP_TUPLE_ALL;
	}
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	return fate;
}

/*
 * Note in pages the heap page buf (pinned) the scan has come to, with the
 * line pointers it has now: every tuple of the page the scan will return
 * is at one of them (tuples placed later at higher ones may be returned
 * too, which only adds keys).
 */
static void
skip_note_page(SkipHeapPages *pages, Buffer buf)
{
	if (pages->n == pages->cap)
	{
		uint32		cap = Max(pages->cap * 2, 256);

		/* in the caller's context: skip_read_filters deletes its own */
		if (pages->blk == NULL)
		{
			pages->blk = MemoryContextAllocHuge(pages->cxt, cap * sizeof(BlockNumber));
			pages->maxoff = MemoryContextAllocHuge(pages->cxt, cap * sizeof(OffsetNumber));
		}
		else
		{
			pages->blk = repalloc_huge(pages->blk, cap * sizeof(BlockNumber));
			pages->maxoff = repalloc_huge(pages->maxoff, cap * sizeof(OffsetNumber));
		}
		pages->cap = cap;
	}
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	pages->blk[pages->n] = BufferGetBlockNumber(buf);
	pages->maxoff[pages->n] = PageGetMaxOffsetNumber(BufferGetPage(buf));
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);
	pages->n++;
}

/*
 * Read heap pages [b0, b0 + n) of a heap table into ss's filters: every
 * tuple on them (SnapshotAny: a scan that prunes a page first logs the
 * recovery conflict a standby needs), by skip_tuple_fate.  pages (or
 * NULL) receives the pages that had a tuple to read, in block order.
 */
static void
skip_read_heap_pages(Relation heap, Relation index, IndexInfo *ii, SkipSumState *ss,
					 BlockNumber b0, BlockNumber n, SkipHeapPages *pages)
{
	EState	   *estate = CreateExecutorState();
	ExprContext *econtext = GetPerTupleExprContext(estate);
	TupleTableSlot *slot = table_slot_create(heap, NULL);
	ExprState  *pred = ExecPrepareQual(ii->ii_Predicate, estate);
	TableScanDesc scan = table_beginscan_strat(heap, SnapshotAny, 0, NULL, true, false);
	TransactionId oldest = skip_oldest_xmin(heap);
	bool		computed = ii->ii_Expressions != NIL || ii->ii_Predicate != NIL;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	heap_setscanlimits(scan, b0, n);
	econtext->ecxt_scantuple = slot;
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		Buffer		buf = ((HeapScanDesc) scan)->rs_cbuf;
		SkipTupleFate fate;

		if (pages && (pages->n == 0 ||
					  pages->blk[pages->n - 1] != ItemPointerGetBlockNumber(&slot->tts_tid)))
			skip_note_page(pages, buf);
		fate = skip_tuple_fate(slot, buf, oldest, computed);
		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(econtext->ecxt_per_tuple_memory);
		if (fate == SKIP_TUPLE_ALL)
			skip_sum_all(ss, &slot->tts_tid);
		if (fate != SKIP_TUPLE_READ || (pred && !ExecQual(pred, econtext)))
			continue;
		FormIndexDatum(ii, slot, estate, values, isnull);
		skip_sum_callback(index, &slot->tts_tid, values, isnull, true, ss);
	}
	table_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	FreeExecutorState(estate);
}

/*
 * Read every row on the heap pages of ranges [first, first + n) into
 * filters (n x m / 8 bytes, zeroed): live, in progress, recently dead or
 * dead but not pruned yet.  A table of another access method than heap is
 * read as BRIN reads it (table_index_build_range_scan with anyvisible:
 * what is dead by this server's horizon is left out).  learnt (zeroed, or
 * NULL) receives what the ranges teach of their keys where the index keeps
 * it; pages (or NULL; heap tables only) the heap pages read.
 */
static void
skip_read_filters(Relation heap, Relation index, const SkipMeta *meta,
				  uint64 first, uint32 n, uint8 *filters, SkipStats *learnt,
				  SkipHeapPages *pages)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "bloomskip summarize",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	SkipSumState *ss = palloc0(sizeof(SkipSumState));
	IndexInfo  *ii = BuildIndexInfo(index);
	uint64		ppr = meta->pages_per_range;
	uint64		b0 = first * ppr;
	uint64		b1 = Min((first + n) * ppr, (uint64) RelationGetNumberOfBlocks(heap));

	ss->meta = *meta;
	skip_keyinfo_init(&ss->ki, index, cxt);
	ss->first = first;
	ss->n = n;
	ss->filters = filters;
	ss->learnt = skip_stats_kept(&ss->ki, meta) ? learnt : NULL;
	ss->tmpcxt = AllocSetContextCreate(cxt, "bloomskip summarize row", ALLOCSET_SMALL_SIZES);
	if (b1 > b0 && heap->rd_tableam == GetHeapamTableAmRoutine())
		skip_read_heap_pages(heap, index, ii, ss, (BlockNumber) b0, (BlockNumber) (b1 - b0), pages);
	else if (b1 > b0)
		table_index_build_range_scan(heap, index, ii, false, true, false,
									 (BlockNumber) b0, (BlockNumber) (b1 - b0),
									 skip_sum_callback, ss, NULL);
	for (uint32 i = 0; ss->learnt && i < n; i++)
		skip_stats_add_filter(ss->learnt, meta, filters + (Size) i * (meta->nbits / 8));
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

/* memory a summarizing batch's filters may take */
#define SKIP_SUMMARIZE_MEM	(16 * 1024 * 1024)

/*
 * Summarize ranges [summarized, writer) of *meta, read under the
 * summarizing lock, a batch at a time: staged when the staging area can
 * take them all, else (a backlog, or filters too large to stage) written
 * into the segments after the staged ranges are sliced.
 */
static void
skip_summarize_locked(Relation heap, Relation index, SkipMeta *meta)
{
	uint64		to = meta->writer;
	bool		stage = meta->stage_slots > 0 && to - meta->summarized <= meta->stage_slots;
	Size		fbytes = meta->nbits / 8;
	uint32		batch = (uint32) Max(1, Min(SKIP_SUMMARIZE_MEM / fbytes, SKIP_STAGE_MAX_SLOTS));

	if (!stage)
		skip_slice_staged(index, meta);
	while (meta->summarized < to)
	{
		uint64		from = meta->summarized;
		uint32		n = (uint32) Min((uint64) batch, to - from);
		uint8	   *filters = palloc0(fbytes * n);
		SkipStats  *learnt = palloc0(sizeof(SkipStats));

		skip_read_filters(heap, index, meta, from, n, filters, learnt, NULL);
		if (stage)
		{
			if (meta->nstaged + n > meta->stage_slots)
				skip_slice_staged(index, meta);
			skip_stage_write(index, meta, from, n, filters);
			skip_set_summarized(index, from + n, meta->nstaged + n, learnt, meta);
		}
		else
		{
			uint8	  **each = palloc(sizeof(uint8 *) * n);
			SkipColumns cols;

			for (uint32 i = 0; i < n; i++)
				each[i] = filters + (Size) i * fbytes;
			cols = skip_columns_of_filters(meta, each, n);
			skip_write_columns(index, meta, from, &cols);
			skip_set_summarized(index, from + n, 0, learnt, meta);
			pfree((void *) cols.rows);
			pfree(each);
		}
		pfree(learnt);
		pfree(filters);
	}
}

/*
 * Summarize every range below upto: extend the index to cover them, raise
 * writer to upto, then, holding the summarizing lock, summarize the ranges
 * from summarized to writer.  Called by an insert (upto: its range, past
 * writer), which leaves the work to a summarizer already at it, and by
 * VACUUM (upto: the range of the heap's last page), which waits for it.
 */
void
skip_summarize_upto(Relation heap, Relation index, uint64 upto, bool always)
{
	SkipMeta	meta;

	if (upto > 0)
		skip_extend(index, upto - 1);
	if (!skip_advance_writer(index, upto, &meta) && !always)
		return;
	if (always)
		LockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock);
	else if (!ConditionalLockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock))
		return;
	skip_read_meta(index, &meta);
	skip_summarize_locked(heap, index, &meta);
	UnlockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock);
}

/*
 * Read the summarized ranges [0, summarized) of a heap table's index again
 * from the heap, as a summarizer reads them (every tuple still on its
 * page), and set their bits in the segments: an OR, so nothing a scan
 * counts on is cleared, and a page that has every bit already is not
 * written.  A batch of ranges at a time within maintenance_work_mem (the
 * filters and their transposition), each batch's segment pages visited
 * once; after a batch is written, fn receives the heap pages it read.
 * Holding the summarizing lock, so that summarized stays put and no slice
 * or merge moves bits meanwhile; inserters go on setting bits.  False
 * (and nothing read) for a table of another access method: its tuples'
 * TIDs are not known from its pages.
 */
bool
skip_resummarize(Relation heap, Relation index, SkipPagesFn fn, void *arg)
{
	SkipMeta	meta;
	Size		fbytes;
	uint64		batch;
	uint64		upto;

	if (heap->rd_tableam != GetHeapamTableAmRoutine())
		return false;
	LockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock);
	skip_read_meta(index, &meta);
	fbytes = meta.nbits / 8;
	batch = Max((Size) maintenance_work_mem * 1024 / 2 / fbytes, 1);
	batch = Min(batch, MaxAllocHugeSize / 2 / fbytes);
	upto = Min(meta.summarized, meta.nranges);
	for (uint64 from = 0; from < upto;)
	{
		uint32		n = (uint32) Min(Min(batch, upto - from), (uint64) PG_UINT32_MAX);
		uint8	   *filters = palloc_extended(fbytes * n, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
		uint8	  **each = palloc_extended(sizeof(uint8 *) * n, MCXT_ALLOC_HUGE);
		SkipHeapPages pages = {CurrentMemoryContext, NULL, NULL, 0, 0};
		SkipColumns cols;

		skip_read_filters(heap, index, &meta, from, n, filters, NULL, &pages);
		for (uint32 i = 0; i < n; i++)
			each[i] = filters + (Size) i * fbytes;
		cols = skip_columns_of_filters(&meta, each, n);
		pfree(each);
		pfree(filters);
		skip_write_columns(index, &meta, from, &cols);
		pfree((void *) cols.rows);
		fn(&pages, arg);
		if (pages.blk)
		{
			pfree(pages.blk);
			pfree(pages.maxoff);
		}
		from += n;
	}
	UnlockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock);
	return true;
}

/*
 * Has the heap lost pages the boundaries count (VACUUM truncated it)?
 * writer is only ever raised to the range of a page the heap had (an
 * insert's, or the last page's at VACUUM or build), so a writer past the
 * range of the heap's last page means pages were removed since.
 */
bool
skip_heap_shrank(uint64 writer, uint32 ppr, BlockNumber heap_pages)
{
	return writer > 0 && writer * (uint64) ppr >= (uint64) heap_pages;
}

/* Clear the columns of ranges [from, to) in the segments of meta. */
static void
skip_clear_columns(Relation index, const SkipMeta *meta, uint64 from, uint64 to)
{
	for (uint32 s = 0; s < meta->nsegments; s++)
		skip_clear_segment_columns(index, meta, &meta->segments[s], from, to);
}

/*
 * After VACUUM truncated the heap: forget the ranges it no longer has
 * (the argument is in README, "Truncation").  Holding the
 * summarizing lock (waiting for it if wait, else leaving the work to the
 * next caller): lower summarized and writer to the range of the heap's
 * last page, or to keep if lower (an insert's range: the range being
 * filled again becomes the open tail), and nranges to the ranges the heap
 * has; then read the heap's size again and clear the bits of the ranges
 * past it, which no row visible to any scan can lie in.
 */
void
skip_forget_truncated(Relation heap, Relation index, uint64 keep, bool wait)
{
	SkipMeta	before;
	uint32		ppr;
	uint64		writer;
	BlockNumber pages;
	uint64		last;
	uint64		exist;
	SkipMeta	now;

	if (wait)
		LockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock);
	else if (!ConditionalLockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock))
		return;
	skip_read_bounds(index, &ppr, &writer);
	pages = RelationGetNumberOfBlocks(heap);
	if (skip_heap_shrank(writer, ppr, pages))
	{
		last = pages > 0 ? (pages - 1) / ppr : 0;
		exist = ((uint64) pages + ppr - 1) / ppr;
		skip_lower_bounds(index, Min(keep, last), exist, &before);
		/* the recent segment into the segments first, whose columns are cleared */
		skip_read_meta(index, &now);
		skip_recent_flush(index, &now);
		/* pages added since the first read are left alone: rows may be there */
		pages = RelationGetNumberOfBlocks(heap);
		exist = ((uint64) pages + ppr - 1) / ppr;
		if (before.nranges > exist)
			skip_clear_columns(index, &before, exist, before.nranges);
	}
	UnlockPage(index, SKIP_SUMMARIZE_LOCK, ExclusiveLock);
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
	/* about to set bits: first see that the range was not truncated away */
	if (range < writer && skip_heap_shrank(writer, ppr, RelationGetNumberOfBlocks(heapRel)))
	{
		skip_forget_truncated(heapRel, index, range, false);
		skip_read_bounds(index, &ppr, &writer);
	}
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
