/*-------------------------------------------------------------------------
 *
 * skip_tools.c
 *	  SQL functions to look into a bloomskip index: bloomskip_info (its
 *	  parameters, boundaries and how full its ranges are), bloomskip_check
 *	  (every visible row's keys in a summarized range are set there, as
 *	  amcheck's heapallindexed checks a btree) and bloomskip_range_filter (one range's filter as a
 *	  bloom value, which answers bloom_contains as the index does).
 *
 * Each takes an index by regclass; anything but a bloomskip index is an
 * error (42809), and reading it needs SELECT on its table.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <limits.h>
#include <math.h>

#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

/* Open relid, which must be a bloomskip index whose table the user may read. */
static Relation
skip_open_checked(Oid relid)
{
	Relation	rel = try_relation_open(relid, AccessShareLock);
	AclResult	acl;

	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (rel->rd_rel->relkind == RELKIND_PARTITIONED_INDEX &&
		rel->rd_indam != NULL && rel->rd_indam->ambuild == skip_build)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a partitioned bloomskip index", RelationGetRelationName(rel)),
				 errdetail("A partitioned index has no pages of its own: each partition's index holds the ranges of its partition."),
				 errhint("Pass the index of one of its partitions: pg_inherits lists them (inhrelid where inhparent is this index).")));
	if (rel->rd_rel->relkind != RELKIND_INDEX || rel->rd_indam == NULL ||
		rel->rd_indam->ambuild != skip_build)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bloomskip index", RelationGetRelationName(rel)),
				 rel->rd_rel->relkind == RELKIND_PARTITIONED_INDEX ?
				 errdetail("A partitioned index has no data of its own; pass the index of one of its partitions.") :
				 errdetail("Pass an index created with USING bloomskip.")));
	acl = pg_class_aclcheck(rel->rd_index->indrelid, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_TABLE, get_rel_name(rel->rd_index->indrelid));
	return rel;
}

/*
 * Refuse an index that CREATE INDEX CONCURRENTLY or REINDEX CONCURRENTLY
 * has not finished (or left behind when it failed): not ready, it may have
 * no pages at all; ready but not valid, it misses the rows that the build
 * has not validated yet, which is no corruption.  Only bloomskip_info
 * (what) reads a ready index that is not valid, with a notice.
 */
static void
skip_require_built(Relation index, const char *what, bool ready_is_enough)
{
	bool		ready = index->rd_index->indisready &&
		RelationGetNumberOfBlocks(index) > SKIP_METAPAGE_BLKNO;

	if (ready && index->rd_index->indisvalid)
		return;
	if (ready && ready_is_enough)
	{
		ereport(NOTICE,
				(errmsg("bloomskip index \"%s\" is not valid", RelationGetRelationName(index)),
				 errdetail("CREATE INDEX CONCURRENTLY or REINDEX CONCURRENTLY has not finished or failed; scans do not use the index.")));
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("%s cannot read bloomskip index \"%s\"", what, RelationGetRelationName(index)),
			 errdetail(ready ? "The index is not valid: CREATE INDEX CONCURRENTLY or REINDEX CONCURRENTLY has not finished, or failed." :
					   "The index is not ready: CREATE INDEX CONCURRENTLY or REINDEX CONCURRENTLY has not built it yet, or failed."),
			 errhint("Wait for the command to finish, or drop the index if it failed.")));
}

/* What skip_count_segment counts with. */
typedef struct SkipCount
{
	const SkipSegment *seg;
	const SkipStaged *st;
	uint64	   *counts;
} SkipCount;

/* skip_each_row's visitor: count a row's bits, and those only st has. */
static void
skip_count_row(uint64 row, const uint8 *bytes, void *arg)
{
	SkipCount  *sc = (SkipCount *) arg;
	const SkipSegment *seg = sc->seg;
	const SkipStaged *st = sc->st;

	for (uint32 b = 0; b < seg->capacity / 8; b++)
		for (uint8 v = bytes[b]; v; v &= v - 1)
			sc->counts[b * 8 + pg_rightmost_one_pos32(v)]++;
	for (uint32 i = 0; i < st->n; i++)
	{
		uint64		c = st->first + i - seg->first_range;

		if (st->bits[i] == NULL || st->first + i < seg->first_range || c >= seg->capacity)
			continue;
		if (((st->bits[i][row / 8] >> (row % 8)) & 1) && !((bytes[c / 8] >> (c % 8)) & 1))
			sc->counts[c]++;
	}
}

/*
 * Count the set bits of every range of segment seg into counts[capacity]:
 * the bits of its column, or of its staged filter or its column of the
 * recent segment (both in st) where only those have them.
 */
static void
skip_count_segment(Relation index, const SkipMeta *meta, const SkipSegment *seg,
				   const SkipStaged *st, uint64 *counts)
{
	SkipCount	sc = {seg, st, counts};

	skip_each_row(index, meta, seg, skip_count_row, &sc);
}

/*
 * How full the summarized ranges of the index are: the sum and maximum of
 * their fill (set bits / m), the sum of their estimated rates (fill^k), and
 * how many have outgrown the size (a rate over twice the target).
 */
void
skip_fill(Relation index, const SkipMeta *meta, SkipFill *fill)
{
	SkipStaged	st;

	memset(fill, 0, sizeof(*fill));
	skip_stage_read(index, meta, &st, false);
	skip_recent_into_staged(index, meta, &st);
	for (uint32 s = 0; s < meta->nsegments && meta->segments[s].first_range < meta->summarized; s++)
	{
		const SkipSegment *seg = &meta->segments[s];
		uint64	   *counts = palloc0(sizeof(uint64) * seg->capacity);

		skip_count_segment(index, meta, seg, &st, counts);
		for (uint64 c = 0; c < seg->capacity && seg->first_range + c < meta->summarized; c++)
		{
			double		f = (double) counts[c] / meta->nbits;
			double		rate = pow(f, meta->nhashes);

			fill->sumfill += f;
			fill->maxfill = Max(fill->maxfill, f);
			fill->sumrate += rate;
			if (rate > 2 * meta->target_rate)
				fill->outgrown++;
		}
		pfree(counts);
	}
}

/* bloomskip_info's columns, and those of its declaration by 1.3 */
#define SKIP_INFO_COLUMNS		17
#define SKIP_INFO_COLUMNS_1_3	15

PG_FUNCTION_INFO_V1(bloomskip_info);
/*
 * bloomskip_info(index): parameters, size, boundaries and fill of a
 * bloomskip index (the fill over the summarized ranges), and the figures
 * its planner reads (NULL where it keeps none).
 */
Datum
bloomskip_info(PG_FUNCTION_ARGS)
{
	Relation	index = skip_open_checked(PG_GETARG_OID(0));
	SkipMeta	meta;
	TupleDesc	desc;
	Datum		v[SKIP_INFO_COLUMNS];
	bool		nulls[SKIP_INFO_COLUMNS] = {0};
	double		keys_per_range, ranges_per_key;
	Relation	heap;
	uint64		heap_ranges;
	SkipFill	fill;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	skip_require_built(index, "bloomskip_info", true);
	skip_read_meta(index, &meta);
	skip_fill(index, &meta, &fill);
	/* the ranges the table has: VACUUM may have truncated it since the index counted */
	heap = table_open(index->rd_index->indrelid, AccessShareLock);
	heap_ranges = (RelationGetNumberOfBlocks(heap) + (uint64) meta.pages_per_range - 1) /
		meta.pages_per_range;
	table_close(heap, AccessShareLock);
	v[0] = Int32GetDatum(meta.pages_per_range);
	v[1] = Int64GetDatum(Min(meta.nranges, heap_ranges));
	v[2] = Int32GetDatum(meta.nsegments);
	v[3] = Int32GetDatum(meta.nbits);
	v[4] = Int32GetDatum(meta.nhashes);
	v[5] = Float8GetDatum(meta.target_rate);
	v[6] = Float8GetDatum(meta.design_distinct);
	v[7] = Int64GetDatum(RelationGetNumberOfBlocks(index));
	v[8] = Float8GetDatum(meta.summarized ? fill.sumfill / meta.summarized : 0);
	v[9] = Float8GetDatum(fill.maxfill);
	v[10] = Float8GetDatum(meta.summarized ? fill.sumrate / meta.summarized : 0);
	v[11] = Int64GetDatum(fill.outgrown);
	v[12] = Int64GetDatum(Min(meta.summarized, heap_ranges));
	v[13] = Int64GetDatum(heap_ranges > meta.summarized ? heap_ranges - meta.summarized : 0);
	v[14] = Int64GetDatum(meta.nstaged);
	nulls[15] = nulls[16] = !skip_stats_figures(&meta.stats, &keys_per_range, &ranges_per_key);
	v[15] = Float8GetDatum(nulls[15] ? 0.0 : keys_per_range);
	v[16] = Float8GetDatum(nulls[16] ? 0.0 : ranges_per_key);
	/* 1.3's declaration (a database not updated yet) has the first 15 */
	if (desc->natts != SKIP_INFO_COLUMNS && desc->natts != SKIP_INFO_COLUMNS_1_3)
		elog(ERROR, "bloomskip_info is declared with %d columns", desc->natts);
	relation_close(index, AccessShareLock);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), v, nulls)));
}

/*
 * bloomskip_check.  It walks the table in block order under an MVCC
 * snapshot (taken before the metapage is read), as a build does, and tests
 * each live row's keys against its range's filters held in memory: the
 * range's staged filter and its column of the recent segment (read once,
 * at the start, in the order a scan reads them: metapage, staging area,
 * recent segment) and its column of its segment, read with the columns of
 * the ranges after it, as many as maintenance_work_mem holds (a chunk).
 * Each page of a segment is then read once per chunk, where testing a key
 * page by page would read k pages per key.  A scan tests each of the three
 * filters on its own (a row's keys all go to one of them), and so does the
 * check: a key is found where one of them has all its bits, never where
 * only their union has.
 */
typedef struct SkipCheckState
{
	Relation	index;
	SkipMeta	meta;
	SkipStaged	st;
	uint8	  **recent;			/* skip_recent_filters, or NULL: none */
	SkipKeyInfo ki;
	/* the chunk: columns [c0, c1) of segment seg, m / 8 bytes each */
	const SkipSegment *seg;
	uint64		c0,
				c1;
	uint32		room;			/* columns cols holds */
	uint8	   *cols;
	uint64		range;			/* the range of the rows being tested */
	/* progress: a NOTICE as the scan passes a tenth of the table's pages */
	BlockNumber heap_pages;
	BlockNumber next_tenth;
	TimestampTz last_notice;
	int64		rows;
	int64		violations;
	MemoryContext tmpcxt;
} SkipCheckState;

/*
 * bloomset.check_progress_interval: the least time between two progress
 * notices of bloomskip_check, in milliseconds (0: one at every tenth).
 */
static int	skip_check_progress_ms = 10000;

/* _PG_init's part: bloomskip_check's setting. */
void
skip_tools_init(void)
{
	DefineCustomIntVariable("bloomset.check_progress_interval",
							"Least time between two progress notices of bloomskip_check.",
							"bloomskip_check reports its progress as it passes each tenth of the table's pages, at most once per interval; 0 reports every tenth (for tests).",
							&skip_check_progress_ms, 10000, 0, INT_MAX,
							PGC_USERSET, GUC_UNIT_MS | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							NULL, NULL, NULL);
}

/* Report the first row whose key the index misses. */
static void
skip_report_violation(Relation index, SkipCheckState *cs, ItemPointer tid, int attno,
					  const char *why)
{
	if (cs->violations++ > 0)
		return;
	ereport(WARNING,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("bloomskip index \"%s\" misses the key of column %d of the row at (%u,%u)",
					RelationGetRelationName(index), attno + 1,
					ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid)),
			 errdetail("%s", why),
			 errhint("REINDEX the index.")));
}

/*
 * Columns a chunk holds: as many filters of m bits as maintenance_work_mem
 * holds, a multiple of 8 (a chunk starts on a byte of the rows), at least
 * 8, at most the widest segment's.
 */
static uint32
skip_check_room(const SkipMeta *meta)
{
	uint64		budget = (uint64) maintenance_work_mem * 1024;
	uint64		room = budget / (meta->nbits / 8) / 8 * 8;
	uint32		widest = 8;

	for (uint32 s = 0; s < meta->nsegments; s++)
		widest = Max(widest, meta->segments[s].capacity);
	return (uint32) Max(Min(room, (uint64) widest), 8);
}

/* skip_each_row's visitor: bit row of each chunk column set in bytes. */
static void
skip_check_take_row(uint64 row, const uint8 *bytes, void *arg)
{
	SkipCheckState *cs = (SkipCheckState *) arg;
	Size		rowbytes = cs->meta.nbits / 8;
	uint8		bit = (uint8) (1 << (row % 8));

	/* c0 is a multiple of 8 and c1 <= the capacity: whole bytes of the row */
	for (uint64 b = cs->c0 / 8; b < (cs->c1 + 7) / 8; b++)
	{
		for (uint8 v = bytes[b]; v; v &= v - 1)
		{
			uint64		c = b * 8 + pg_rightmost_one_pos32(v);

			if (c < cs->c1)
				cs->cols[(c - cs->c0) * rowbytes + row / 8] |= bit;
		}
	}
}

/*
 * Read the chunk starting at range's column (rounded down to a byte): the
 * columns of its segment up to the room, the segment's end or the last
 * summarized range, whichever comes first.  Reads every page of the
 * segment, each checked (skip_each_row, which checks for interrupts).
 */
static void
skip_check_load_chunk(SkipCheckState *cs, uint64 range)
{
	const SkipSegment *seg = skip_segment_of(&cs->meta, range);
	uint64		end = Min((uint64) seg->capacity, cs->meta.summarized - seg->first_range);

	cs->seg = seg;
	cs->c0 = (range - seg->first_range) / 8 * 8;
	cs->c1 = Min(cs->c0 + cs->room, end);
	memset(cs->cols, 0, (Size) (cs->c1 - cs->c0) * (cs->meta.nbits / 8));
	skip_each_row(cs->index, &cs->meta, seg, skip_check_take_row, cs);
}

/* range's column of its segment, from the chunk (read first if need be). */
static const uint8 *
skip_check_column(SkipCheckState *cs, uint64 range)
{
	if (cs->seg == NULL || range < cs->seg->first_range + cs->c0 ||
		range >= cs->seg->first_range + cs->c1)
		skip_check_load_chunk(cs, range);
	return cs->cols + (Size) (range - cs->seg->first_range - cs->c0) * (cs->meta.nbits / 8);
}

/*
 * Does range's filter hold hash h, as a scan answers: all of its bits in
 * range's staged filter, or in its column of the recent segment, or in its
 * column of its segment.
 */
static bool
skip_check_has(SkipCheckState *cs, uint64 range, uint64 h)
{
	uint64		pos[BLOOM_MAX_POSITIONS];
	int			np = skip_positions(&cs->meta, h, pos);
	const uint8 *staged = skip_staged_bits(&cs->st, range);
	const uint8 *recent = skip_recent_filter(&cs->meta, cs->recent, range);

	if (staged && skip_bits_have(staged, pos, np))
		return true;
	if (recent && skip_bits_have(recent, pos, np))
		return true;
	return skip_bits_have(skip_check_column(cs, range), pos, np);
}

/*
 * A NOTICE of the check's progress when the scan, now at block blk, has
 * passed the next tenth of the table's pages and the interval has gone by
 * since the start or the last notice: at most ten per check, none for a
 * check shorter than the interval.
 */
static void
skip_check_progress(SkipCheckState *cs, BlockNumber blk)
{
	uint64		tenth;

	if (blk < cs->next_tenth || blk >= cs->heap_pages)
		return;				/* (past the end: pages added since the check began) */
	tenth = (uint64) blk * 10 / cs->heap_pages;
	cs->next_tenth = (BlockNumber) (((tenth + 1) * cs->heap_pages + 9) / 10);
	if (!TimestampDifferenceExceeds(cs->last_notice, GetCurrentTimestamp(),
									skip_check_progress_ms))
		return;
	cs->last_notice = GetCurrentTimestamp();
	ereport(NOTICE,
			(errmsg("bloomskip_check of index \"%s\": " UINT64_FORMAT " %% of the table read (%u of %u pages), " INT64_FORMAT " keys missing so far",
					RelationGetRelationName(cs->index), tenth * 10, blk, cs->heap_pages,
					cs->violations)));
}

/* table_index_build_scan's callback for bloomskip_check. */
static void
skip_check_callback(Relation index, ItemPointer tid, Datum *values,
					bool *isnull, bool tupleIsAlive, void *state)
{
	SkipCheckState *cs = (SkipCheckState *) state;
	BlockNumber blk = ItemPointerGetBlockNumber(tid);
	uint64		range = blk / cs->meta.pages_per_range;
	MemoryContext old;

	cs->rows++;
	if (range >= cs->meta.summarized)
		return;					/* open: every scan returns its pages */
	if (range != cs->range)
	{
		/* a range at a time (the scan checks for interrupts per row too) */
		CHECK_FOR_INTERRUPTS();
		skip_check_progress(cs, blk);
		cs->range = range;
	}
	old = MemoryContextSwitchTo(cs->tmpcxt);
	for (int i = 0; i < cs->ki.natts; i++)
	{
		SkipKeyBuf	keys = {NULL, 0, 0, cs->tmpcxt};

		if (isnull[i])
			continue;
		skip_value_keys(&cs->ki, &cs->meta, i, values[i], &keys);
		for (int j = 0; j < keys.n; j++)
			if (!skip_check_has(cs, range, keys.h[j]))
			{
				skip_report_violation(index, cs, tid, i, "A bit of the key is not set in its range.");
				break;
			}
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(cs->tmpcxt);
}

/*
 * What bloomskip_check reads before the table, in a scan's order:
 * metapage, staging area, recent segment; and the chunk's memory.
 */
static void
skip_check_begin(SkipCheckState *cs, Relation index, Relation heap)
{
	cs->index = index;
	skip_read_meta(index, &cs->meta);
	skip_stage_read(index, &cs->meta, &cs->st, false);
	cs->recent = cs->meta.recent.capacity > 0 ? skip_recent_filters(index, &cs->meta) : NULL;
	skip_keyinfo_init(&cs->ki, index, CurrentMemoryContext);
	cs->room = skip_check_room(&cs->meta);
	cs->cols = MemoryContextAllocHuge(CurrentMemoryContext,
									  (Size) cs->room * (cs->meta.nbits / 8));
	cs->range = UINT64_MAX;
	cs->heap_pages = RelationGetNumberOfBlocks(heap);
	cs->next_tenth = (cs->heap_pages + 9) / 10;
	cs->last_notice = GetCurrentTimestamp();
	cs->tmpcxt = AllocSetContextCreate(CurrentMemoryContext, "bloomskip check",
									   ALLOCSET_DEFAULT_SIZES);
}

PG_FUNCTION_INFO_V1(bloomskip_check);
/*
 * bloomskip_check(index): the number of keys of visible rows in summarized
 * ranges that the index does not find in their range (0 for a sound
 * index); the first is reported.  The rows of open ranges are not checked:
 * every scan returns all their pages, so no key there can be missed; a
 * notice says which ranges were checked.
 */
Datum
bloomskip_check(PG_FUNCTION_ARGS)
{
	Relation	index = skip_open_checked(PG_GETARG_OID(0));
	Relation	heap = table_open(index->rd_index->indrelid, AccessShareLock);
	IndexInfo  *ii = BuildIndexInfo(index);
	SkipCheckState *cs = palloc0(sizeof(SkipCheckState));
	Snapshot	snapshot;
	TableScanDesc scan;

	skip_require_built(index, "bloomskip_check", false);
	/*
	 * An MVCC snapshot, as amcheck's heapallindexed: the rows visible now.
	 * Taken before the index is read, so that every row it sees had its
	 * bits written before the check reads them.
	 */
	snapshot = RegisterSnapshot(GetTransactionSnapshot());
	skip_check_begin(cs, index, heap);
	ii->ii_Concurrent = true;
	/* in block order from the first page (no synchronized scan): a chunk at a time */
	scan = table_beginscan_strat(heap, snapshot, 0, NULL, true, false);
	table_index_build_scan(heap, index, ii, true, false, skip_check_callback, cs, scan);
	UnregisterSnapshot(snapshot);
	ereport(NOTICE,
			(errmsg("bloomskip_check checked the rows of the " UINT64_FORMAT " summarized ranges of index \"%s\"",
					cs->meta.summarized, RelationGetRelationName(index)),
			 errdetail("The ranges from " UINT64_FORMAT " on are open: every scan returns all their pages.",
					   cs->meta.summarized)));
	table_close(heap, AccessShareLock);
	relation_close(index, AccessShareLock);
	PG_RETURN_INT64(cs->violations);
}

/* What skip_copy_column copies: a column into a filter's bits. */
typedef struct SkipCopy
{
	uint64		col;
	uint8	   *bits;
} SkipCopy;

/* skip_each_row's visitor: bit row of the filter from the column's bit. */
static void
skip_copy_row(uint64 row, const uint8 *bytes, void *arg)
{
	SkipCopy   *cp = (SkipCopy *) arg;

	if ((bytes[cp->col / 8] >> (cp->col % 8)) & 1)
		cp->bits[row / 8] |= (uint8) (1 << (row % 8));
}

/* Copy range's bits of segment seg into the bit array of f (bit p = row p). */
static void
skip_copy_column(Relation index, const SkipMeta *meta, const SkipSegment *seg,
				 uint64 range, BloomFilter *f)
{
	SkipCopy	cp = {range - seg->first_range, (uint8 *) f->words};

	skip_each_row(index, meta, seg, skip_copy_row, &cp);
}

/*
 * An empty bloom value for index column col (0-based): the index's m, k
 * and scheme, the column's seed, and its element family (its class's:
 * its type's, or "ngram:n", as bloom_ngram_agg names it).  The classes
 * that hash byte strings (n-grams, lexemes, jsonb keys) hash them with
 * bloom_hash_bytes in every index, which is scheme 2's hash of a text
 * value: their filters say scheme 2 in an index of scheme 4, so that a
 * probe with a text value hashes as the index did.
 */
static BloomFilter *
skip_column_filter(Relation index, const SkipMeta *meta, int col)
{
	SkipKeyInfo *ki = palloc(sizeof(SkipKeyInfo));
	BloomFilter *f;

	skip_keyinfo_init(ki, index, CurrentMemoryContext);
	f = bloom_alloc(BLOOM_LAYOUT_CLASSIC, meta->nhashes, meta->nbits, meta->seed + (uint64) col);
	f->scheme = meta->scheme;
	if (meta->scheme == BLOOM_SCHEME_XXH3 && ki->ops[col] != &skip_equal_class &&
		ki->ops[col] != &skip_array_class)
		f->scheme = BLOOM_SCHEME_FULL64;
	skip_column_family(ki, col, f->family, &f->collfp);
	return f;
}

/*
 * OR range's bits into f, as a scan reads them (its staged filter, its
 * column of the recent segment, then its segment column), and estimate
 * f's item count from the fill.
 */
static void
skip_range_bits(Relation index, const SkipMeta *meta, uint64 range, BloomFilter *f)
{
	SkipStaged	st;
	const uint8 *staged;
	uint64		set = 0;

	skip_stage_read(index, meta, &st, false);
	skip_recent_into_staged(index, meta, &st);
	skip_copy_column(index, meta, skip_segment_of(meta, range), range, f);
	staged = skip_staged_bits(&st, range);
	for (uint32 b = 0; staged && b < meta->nbits / 8; b++)
		((uint8 *) f->words)[b] |= staged[b];
	for (uint32 b = 0; b < meta->nbits / 8; b++)
		set += pg_popcount32(((uint8 *) f->words)[b]);
	f->nitems = set >= meta->nbits ? meta->nbits :
		(uint64) llround(-((double) meta->nbits / meta->nhashes) *
						 log(1.0 - (double) set / meta->nbits));
}

PG_FUNCTION_INFO_V1(bloomskip_range_filter);
/*
 * bloomskip_range_filter(index, range, col = 1): range's filter as a bloom
 * value for the index's column col.  Every column's keys share the range's
 * bits, each hashed with its own seed, so the value answers for col's
 * values as the index does (and may say "maybe" for another column's).
 */
Datum
bloomskip_range_filter(PG_FUNCTION_ARGS)
{
	Relation	index = skip_open_checked(PG_GETARG_OID(0));
	int64		range = PG_GETARG_INT64(1);
	int32		col = PG_NARGS() > 2 ? PG_GETARG_INT32(2) : 1;
	SkipMeta	meta;
	BloomFilter *f;

	skip_require_built(index, "bloomskip_range_filter", false);
	skip_read_meta(index, &meta);
	if (range < 0 || (uint64) range >= meta.summarized)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("range " INT64_FORMAT " is not summarized in bloomskip index \"%s\"",
						range, RelationGetRelationName(index)),
				 meta.summarized == 0 ?
				 errdetail("The index has no summarized range yet; every scan returns all pages of the open ranges.") :
				 errdetail("Pass a range from 0 to " UINT64_FORMAT "; every scan returns all pages of the open ranges after it.",
						   meta.summarized - 1)));
	if (col < 1 || col > meta.natts)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloomskip index \"%s\" has no column %d",
						RelationGetRelationName(index), col),
				 errdetail("Pass a column number from 1 to %d.", meta.natts)));
	f = skip_column_filter(index, &meta, col - 1);
	skip_range_bits(index, &meta, (uint64) range, f);
	relation_close(index, AccessShareLock);
	PG_RETURN_BLOOM_P(f);
}
