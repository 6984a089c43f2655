/*-------------------------------------------------------------------------
 *
 * skip_utils.c
 *	  The bloomskip index access method: its design, and what every phase
 *	  shares (options, sizing, pages, the metapage, keys).  The handler is in
 *	  skip_handler.c.
 *
 * bloomskip is a skip index: it tells a bitmap scan which block ranges of
 * the table (pages_per_range heap pages each) may hold a key, as BRIN's
 * bloom opclass does, but stores its Bloom filters transposed.
 *
 * Bit-sliced ranges (the BitFunnel idea).  Every range has a Bloom filter
 * of the same m bits and k hashes (classic layout of the bloom type,
 * hashing scheme 2), so a key selects the same k bit positions in every
 * range's filter.  Instead of one filter per range, the index stores for
 * each bit position p a "row": bit r of row p is bit p of range r's filter.
 * A lookup hashes the key, reads its k rows and ANDs them: the bits left
 * set are the ranges that may hold the key.  It reads k rows whatever the
 * number of ranges, where BRIN reads every range's summary.
 *
 * Segments.  A row of C ranges is C/8 bytes; rows are packed several per
 * page.  The ranges are split into segments: segment s holds C_s ranges
 * (a multiple of 64), its m rows on consecutive pages.  When the table
 * grows past the last segment, a new one is added whose capacity is the
 * sum of all before it (so the number of segments grows with the
 * logarithm of the table) and at most what one page row holds
 * (SKIP_MAX_CAPACITY, about 65,000 ranges).  A lookup reads k pages per
 * segment plus the metapage and the staging area's pages in use (at most
 * SKIP_STAGE_MAX_PAGES from block 1; skip_stage.c).  The metapage (block
 * 0) records the format, m, k, the seed, the hashing scheme,
 * pages_per_range, the ranges covered, the staging area and the segment
 * directory.
 *
 * Hashing.  A key hashes exactly as a value added to a bloom filter of
 * scheme 2 does (bloom_hash_datum), with the seed of the index plus the
 * column number, and maps to positions by the bloom type's classic layout
 * (bloom_probe_positions): range r's filter for the first column, rebuilt
 * as a bloom value by bloomskip_range_filter(), answers bloom_contains()
 * exactly as the index does.  The hashing follows the type's equality
 * (int2, int4 and int8 hash alike; numeric 1.0 and 1.00 alike; a
 * nondeterministic collation hashes its sort key), so cross-type equality
 * within the integer family finds the same ranges.  An n-gram column
 * (text_ngram_bloomskip_ops) has a key per n-gram of a value, and a LIKE
 * pattern asks for all of its n-grams (skip_keys.c).
 *
 * Sizing (skip_build.c).  The build counts the distinct keys of every
 * range exactly and sizes m for 1.5 times the 95th percentile (headroom
 * for ranges that grow; bloomskip_info counts the ranges that outgrew it)
 * at the false-positive rate r.  k is at most 6: a lookup reads k pages
 * per segment and an insert changes k pages, and below the optimal k
 * (-log2 r) the bits needed grow slowly (+10 % at 0.1 %, +24 % at 0.01 %).  Each false range costs
 * pages_per_range heap pages, so a lookup reads on average
 * r x (table pages) heap pages for nothing, next to pages_per_range for
 * the range holding the key.  The default rate keeps the expected number
 * of false ranges below one: r = min(1 %, 1 / ranges).  The default
 * pages_per_range is 16 (BRIN's is 128): a lookup then reads about 16 heap
 * pages for the true range and 16 for a false one, plus k index pages, in
 * the order of 50 buffers.  Both can be set (WITH (pages_per_range = ..,
 * false_positive_rate = ..)); the rate is fixed at build, so an index
 * built on an empty table keeps 1 % until REINDEX.
 *
 * Inserts (skip_insert.c) into a summarized range set the key's k bits of
 * its range in its segment, one page at a time under an exclusive lock,
 * WAL-logged as generic WAL; setting bits is monotone, so concurrent
 * inserters lose nothing and a crash between two pages leaves a superset.
 * Deleted keys stay set (false positives until REINDEX), so VACUUM has
 * nothing to remove.
 *
 * The open tail.  Setting k bits on k pages, each through generic WAL
 * (which compares whole pages), costs far more than a btree insert, and
 * appends are most inserts.  So the ranges the table is still filling at
 * its end are left open: a scan returns every page of them, and appends
 * into them write nothing.  Two boundaries in the metapage, both only
 * ever raised (but after VACUUM truncated the heap: "Truncation" below),
 * with summarized <= writer <= nranges:
 *
 *   summarized: ranges below have their bits; a scan reads the bits of
 *	 those and returns every page of every range from summarized on.
 *   writer: an insert whose heap tuple lies in a range below writer sets
 *	 its bits itself; in a range at or past writer it writes nothing.
 *
 * An insert into range r > writer means the table has moved past ranges
 * [writer, r).  That backend summarizes them: (a) it extends the index to
 * cover them and, under the metapage's exclusive lock, raises writer to r
 * (WAL-logged): from now on inserts into them set their bits themselves;
 * (b) it takes the index's summarizing lock (SKIP_SUMMARIZE_LOCK, a
 * heavyweight lock as GIN's pending-list cleanup takes; an insert that
 * finds it held leaves the work to its holder or the next summarizer,
 * VACUUM waits for it), reads summarized S and writer W, and reads the
 * heap's ranges [S, W) (every tuple still on the pages: in progress,
 * live, recently dead or dead but not pruned; see "Standbys" below) into
 * one filter per range, which it writes to the
 * staging area (skip_stage.c: whole filters, one page changed per range,
 * sliced into the segments in bulk when the area is full) or, for a
 * backlog larger than the area, into the segments; (c) it raises
 * summarized to W in the same metapage record that counts the staged
 * ranges.  Only one backend summarizes at a time.
 *
 * Why no key is missed.  Take a tuple T whose keys are in range x and a
 * scan that reads summarized = s > x (if s <= x the scan returns x whole).
 * Some summarizer B was the last to raise summarized past x in (c) before
 * the scan read the metapage, and nothing lowered it to x or below since
 * (see "Truncation": only a holder of the summarizing lock lowers it, and
 * it lowers writer with it).  B read S <= x and W > x from the metapage
 * holding the summarizing lock, which it held until (c), and read the
 * heap's ranges [S, W), x among them, in (b).  T's inserter read writer
 * after placing T on its page: aminsert runs after the heap insert, which
 * released the heap page's lock.  If it read writer > x, it set T's bits
 * in x's segment itself before its transaction could commit, and nothing
 * clears bits below summarized.  If it read writer <= x, that read was not
 * while B held the lock (writer >= W then), nor between B's (c) and the
 * scan's metapage read (writer >= summarized > x then), nor after that
 * read (T committed before the scan's snapshot); so it preceded B's
 * metapage read, T was on its page before, and B's heap read, which
 * locks each page, saw T (SnapshotAny includes uncommitted and
 * deleted tuples; HOT chains carry equal keys as bloomskip is not a
 * summarizing AM, and the chain's root, on the same page, is read), and
 * B wrote T's bits to x's slot or segment before (c).  The scan reads the
 * staged slots after the metapage and the segments after the slots, and
 * answers for x the union of x's slot and x's segment: a slot it finds
 * rewritten held a range that was sliced into its segment first.  Unlike
 * BRIN's placeholder tuple, no summarizer needs to see concurrent inserts:
 * raising writer first hands them to their inserters.
 *
 * Truncation.  VACUUM removes the empty pages at the heap's end after its
 * index cleanup, so the metapage may count ranges the heap no longer has;
 * an append that fills them again would set its keys' bits next to the
 * old rows' (and an append rolled back leaves its keys there too), and
 * lookups of those keys would read the range for nothing until REINDEX.
 * writer is only ever raised to the range of a page the heap had (an
 * insert's, the last page's at VACUUM or build), so a writer past the
 * range of the heap's last page says that pages were removed.  An insert
 * about to set bits (its range below writer) and VACUUM's cleanup check
 * that (a size read of the heap) and, holding the summarizing lock (an
 * insert that finds it held leaves the work to the next), (1) lower
 * summarized and writer to the range of the heap's last page, or to the
 * inserting row's range if lower (the range being filled again becomes
 * the open tail), nranges to the ranges the heap has, and nstaged by as
 * much as summarized drops (the slots left keep their ranges), in one
 * metapage record; (2) read the heap's size again and clear, page by page
 * of the segments, the bits of the ranges past it.  Lowering summarized
 * only makes scans return more.  The bits cleared are of ranges at or
 * past the summarized just set: a scan reading the new metapage returns
 * them whole, and the next summarizer, which takes the lock after (2),
 * reads them from the heap again (a row whose inserter set its bits and
 * saw them cleared was on its page before (1)).  A scan that read the
 * metapage before (1) may read a page after (2): the rows it can see
 * committed before its snapshot, so before its metapage read, before (1)
 * and before (2)'s size read, so they lie on pages that existed then, in
 * ranges below those cleared.  Pages added between the two size reads,
 * and the range being filled again (other scans may count on the bits of
 * its rows), keep their old bits: false positives, a range or so per
 * truncation, until REINDEX; so do ranges that a bulk extension refilled
 * past writer before any insert looked.  The records follow the order (1),
 * (2), so a crash or a standby sees the boundaries lowered before any bit
 * is cleared.
 *
 * Standbys.  A hot standby without hot_standby_feedback runs snapshots
 * older than the primary's horizon, so a tuple the primary counts as dead
 * may still be visible there, and the standby reads the filters the
 * primary wrote.  What protects such a snapshot is the recovery conflict:
 * removing a tuple (pruning, VACUUM) logs the newest xid it removes, and
 * the standby cancels the snapshots that could still see it.  BRIN's
 * summarize_range, and CREATE INDEX, leave out the tuples dead by the
 * primary's horizon without removing them, so no conflict is logged and a
 * standby snapshot that still sees one misses it.  The summarizer here
 * reads every tuple still on the page instead (skip_insert.c): a tuple is
 * either on its page, and its key is in the filter, or was pruned, and the
 * prune logged the conflict.  The alternative, logging a conflict for the
 * tuples left out, would cancel standby queries that need not be; a
 * deleted key costs nothing more than the bit a Bloom filter never clears
 * anyway.  Only tuples whose inserter aborted, which no snapshot saw, are
 * left out.  This holds for what summarizers write; an index built while
 * the standby holds an older snapshot is PostgreSQL's own case for every
 * index AM (CREATE INDEX skips dead tuples too).
 *
 * Concurrent builds.  CREATE INDEX CONCURRENTLY and REINDEX CONCURRENTLY
 * validate an index by asking its bulk delete for the TIDs it holds and
 * inserting every row whose TID it was not given.  A range index holds
 * none, so the bulk delete of an index not valid yet reads the summarized
 * ranges again from the heap, sets their bits, and then reports every
 * line pointer of the pages it read (skip_vacuum.c says why no key is
 * missed): the validation costs a second summarizing pass, not an insert
 * per row.
 *
 * Damage.  Every answer of a scan rests on a few metapage fields (the
 * boundaries, m, k, the seed, pages_per_range) and on bits that a missing
 * key would need cleared, and a damaged field or bit is a silent false
 * negative where PostgreSQL's data checksums are off.  So format 4 checks
 * what it reads (docs/format.md lists it): a CRC-32C of the metapage's
 * fields, of each staging slot, and of each page of rows, and each page's
 * position, verified by every reader; writers verify before they write,
 * so a damaged index is not written to.  Verifying a page of rows costs a
 * CRC-32C of at most a page per row read (hardware CRC instructions where
 * the CPU has them, as PostgreSQL's WAL), measured on point lookups by
 * bench/skip_checks.sh.  Every block number taken from the metapage is
 * checked against the index's size.  Format 3 (1.3) has no checksums and is read with the other
 * checks until REINDEX builds format 4.
 *
 * Crashes and errors.  Every step is WAL-logged, in order: bits (slots or
 * segments) before summarized, so a summarized that survives a crash has
 * its bits.  A summarizer that fails between (a) and (c) (a crash, a
 * cancel, an error in an index expression) leaves [summarized, writer)
 * with writer raised but bits partly written, and releases the
 * summarizing lock with its transaction.  Those ranges stay returned
 * whole, since summarized did not move, and the next summarizer reads
 * them again from the heap, overwriting any slot the failed one wrote.
 * After a crash, the boundaries are those of the last metapage record
 * replayed, and the value of writer any committed inserter read was set
 * by a record before its commit record, so the argument above holds of
 * the history replayed.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "access/amvalidate.h"
#include "access/generic_xlog.h"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "port/pg_crc32c.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

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

/*
 * Initialize a page of an index of format version holding used bytes of
 * data: the special space (its kind, and from format 4 its position), and
 * pd_lower after the data, so that generic WAL compares and page images
 * keep only the bytes in use.  A page of rows gets its checksum when its
 * bits are set (skip_seal_rows_page).
 */
void
skip_init_page(Page page, uint32 version, uint16 kind, uint32 position, Size used)
{
	SkipPageOpaque *op;

	PageInit(page, BLCKSZ, SKIP_SPECIAL_SIZE(version));
	op = (SkipPageOpaque *) PageGetSpecialPointer(page);
	op->magic = SKIP_MAGIC;
	op->kind = kind;
	if (version >= 4)
	{
		op->version = (uint16) version;
		op->position = position;
	}
	Assert(used <= SKIP_PAGE_AVAIL_V(version));
	((PageHeader) page)->pd_lower = MAXALIGN(SizeOfPageHeaderData) + used;
}

/*
 * The number of segment seg of meta in its pages' positions: its index in
 * the directory, or SKIP_RECENT_SEGNO for the recent segment.
 */
uint32
skip_segno(const SkipMeta *meta, const SkipSegment *seg)
{
	if (seg == &meta->recent)
		return SKIP_RECENT_SEGNO;
	Assert(seg >= meta->segments && seg < meta->segments + SKIP_MAX_SEGMENTS);
	return (uint32) (seg - meta->segments);
}

/* The bytes of a row page of segment seg in use. */
Size
skip_rows_bytes(const SkipSegment *seg)
{
	return (Size) seg->rows_per_page * (seg->capacity / 8);
}

/* Raise the corruption error for block blk of the index. */
void
skip_corrupt(Relation index, BlockNumber blk, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("bloomskip index \"%s\" is corrupted", RelationGetRelationName(index)),
			 errdetail("Block %u: %s.", blk, why),
			 errhint("REINDEX the index.")));
}

/*
 * Check that block blk's page is a page of an index of format version, of
 * the given kind and, from format 4, at the given position.
 */
void
skip_check_page(Relation index, uint32 version, Page page, BlockNumber blk, uint16 kind,
				uint32 position)
{
	SkipPageOpaque *op;

	if (PageIsNew(page))
		skip_corrupt(index, blk, "the page is not initialized");
	if (PageGetSpecialSize(page) != SKIP_SPECIAL_SIZE(version))
		skip_corrupt(index, blk, "the page's special space has the wrong size");
	op = (SkipPageOpaque *) PageGetSpecialPointer(page);
	if (op->magic != SKIP_MAGIC)
		skip_corrupt(index, blk, "the page has the wrong magic number");
	if (op->kind != kind)
		skip_corrupt(index, blk, kind == SKIP_PAGE_META ? "block 0 is not a metapage" :
					 kind == SKIP_PAGE_STAGE ? "a page of the staging area was expected" :
					 "a page of rows was expected");
	if (version >= 4 && (op->version != version || op->position != position))
		skip_corrupt(index, blk, "the page does not belong where it is");
}

/* CRC-32C of the rows of a page of rows (pd_lower: their end). */
static uint32
skip_rows_checksum(Page page)
{
	pg_crc32c	crc;
	Size		start = MAXALIGN(SizeOfPageHeaderData);

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, (char *) page + start, ((PageHeader) page)->pd_lower - start);
	FIN_CRC32C(crc);
	return (uint32) crc;
}

/*
 * Check the page blk of segment seg of meta's index: a page of rows in its
 * place, its rows where the segment has them and, from format 4, their
 * checksum (a bit cleared by damage would be a missed key).
 */
void
skip_check_rows_page(Relation index, const SkipMeta *meta, const SkipSegment *seg,
					 Page page, BlockNumber blk)
{
	skip_check_page(index, meta->version, page, blk, SKIP_PAGE_ROWS,
					SKIP_ROWS_POSITION(skip_segno(meta, seg), blk - seg->first_block));
	if (meta->version < 4)
		return;
	if (((PageHeader) page)->pd_lower != MAXALIGN(SizeOfPageHeaderData) + skip_rows_bytes(seg))
		skip_corrupt(index, blk, "the page's rows do not have the segment's size");
	if (skip_rows_checksum(page) != ((SkipPageOpaque *) PageGetSpecialPointer(page))->checksum)
		skip_corrupt(index, blk, "the checksum of the page's rows does not match");
}

/* After a change to its rows: store the checksum of a page of rows (format 4 on). */
void
skip_seal_rows_page(const SkipMeta *meta, Page page)
{
	if (meta->version >= 4)
		((SkipPageOpaque *) PageGetSpecialPointer(page))->checksum = skip_rows_checksum(page);
}

/*
 * CRC-32C of a metapage's fields: everything before the segment directory,
 * then the segments in use (at most SKIP_MAX_SEGMENTS, whatever nsegments
 * says: a damaged count must not make the sum read past the struct), then
 * what the planner reads (stats) and the recent segment.
 */
uint32
skip_meta_checksum(const SkipMeta *meta)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, meta, offsetof(SkipMeta, segments));
	COMP_CRC32C(crc, meta->segments,
				sizeof(SkipSegment) * Min(meta->nsegments, SKIP_MAX_SEGMENTS));
	COMP_CRC32C(crc, &meta->stats, sizeof(SkipStats));
	COMP_CRC32C(crc, &meta->recent, sizeof(SkipSegment));
	FIN_CRC32C(crc);
	return (uint32) crc;
}

/* After a change to its fields: store the metapage's checksum (format 4 on). */
void
skip_seal_meta(SkipMeta *meta)
{
	if (meta->version >= 4)
		meta->checksum = skip_meta_checksum(meta);
}

/* CRC-32C of a staging slot: its range and its bits (format 4 on). */
uint32
skip_slot_checksum(const SkipMeta *meta, const SkipStageSlot *slot)
{
	pg_crc32c	crc;

	INIT_CRC32C(crc);
	COMP_CRC32C(crc, &slot->range_plus1, sizeof(slot->range_plus1));
	COMP_CRC32C(crc, SKIP_SLOT_BITS(meta, slot), meta->nbits / 8);
	FIN_CRC32C(crc);
	return (uint32) crc;
}

/* Why the segment directory of meta is inconsistent, or NULL. */
static const char *
skip_check_segments(const SkipMeta *meta)
{
	uint64		covered = 0;
	BlockNumber blk = meta->stage_first_block + meta->stage_pages;

	if (meta->nsegments > SKIP_MAX_SEGMENTS)
		return "too many segments";
	for (uint32 i = 0; i < meta->nsegments; i++)
	{
		const SkipSegment *seg = &meta->segments[i];

		if (seg->capacity < 64 || seg->capacity > SKIP_MAX_CAPACITY_V(meta->version) ||
			seg->capacity % 64 != 0)
			return "a segment has an invalid capacity";
		if (seg->first_range != covered || seg->first_block < blk)
			return "the segments are not consecutive";
		if (seg->rows_per_page != skip_rows_per_page(meta->version, seg->capacity) ||
			seg->npages != (meta->nbits + seg->rows_per_page - 1) / seg->rows_per_page)
			return "a segment's page layout does not match its capacity";
		covered += seg->capacity;
		blk = seg->first_block + seg->npages;
	}
	if (meta->nranges > covered)
		return "the metapage counts more ranges than its segments hold";
	if (meta->summarized > meta->writer || meta->writer > meta->nranges)
		return "the summarized and writer boundaries are out of order";
	return NULL;
}

/* Why the staging area of meta is inconsistent, or NULL. */
static const char *
skip_check_stage(const SkipMeta *meta)
{
	SkipMeta	expect = *meta;

	skip_stage_layout(&expect, 1);
	if (meta->stage_first_block != 1 || meta->stage_per_page != expect.stage_per_page ||
		(meta->stage_slots != expect.stage_slots && meta->stage_slots != 0) ||
		meta->stage_pages != (meta->stage_slots ? expect.stage_pages : 0))
		return "the staging area's layout does not match the number of bits";
	if (meta->nstaged > meta->stage_slots || meta->nstaged > meta->summarized)
		return "the metapage counts more staged ranges than the staging area holds";
	return NULL;
}

/* Why the recent segment of meta is inconsistent, or NULL. */
static const char *
skip_check_recent(const SkipMeta *meta)
{
	const SkipSegment *t = &meta->recent;
	uint64		t0 = t->first_block;
	uint64		t1 = t0 + t->npages;

	if (t->capacity == 0)
		return (t->first_range | t->first_block | t->rows_per_page | t->npages) == 0 ? NULL :
			"the recent segment's fields are set without a capacity";
	if (meta->version < 4 || meta->stage_slots == 0 ||
		t->capacity < SKIP_RECENT_MIN_CAPACITY ||
		t->capacity > SKIP_MAX_CAPACITY_V(meta->version) || t->capacity % 64 != 0 ||
		t->rows_per_page != skip_rows_per_page(meta->version, t->capacity) ||
		t->npages != (meta->nbits + t->rows_per_page - 1) / t->rows_per_page)
		return "the recent segment's layout does not match its capacity";
	if (t0 < (uint64) meta->stage_first_block + meta->stage_pages)
		return "the recent segment overlaps the staging area";
	for (uint32 s = 0; s < Min(meta->nsegments, SKIP_MAX_SEGMENTS); s++)
	{
		const SkipSegment *seg = &meta->segments[s];

		if (t0 < (uint64) seg->first_block + seg->npages && seg->first_block < t1)
			return "the recent segment overlaps a segment";
	}
	return NULL;
}

/* Why meta is not a valid metapage of an index of natts columns, or NULL. */
static const char *
skip_check_meta(const SkipMeta *meta, int natts)
{
	const char *why;

	if (meta->magic != SKIP_MAGIC)
		return "the metapage has the wrong magic number";
	if (meta->version < SKIP_FORMAT_VERSION_OLDEST || meta->version > SKIP_FORMAT_VERSION)
		return "the metapage has an unsupported format version";
	if (meta->version >= 4 && meta->checksum != skip_meta_checksum(meta))
		return "the metapage's checksum does not match its contents";
	/* what every format so far writes: scheme 2 (4 since 1.5, format 4), seed 0 */
	if ((meta->scheme != BLOOM_SCHEME_FULL64 &&
		 (meta->scheme != BLOOM_SCHEME_XXH3 || meta->version < 4)) || meta->seed != 0)
		return "the metapage's hashing scheme or seed is not one bloomskip writes";
	if (meta->nbits < BLOOM_MIN_BITS || meta->nbits > SKIP_MAX_BITS || meta->nbits % 64 != 0)
		return "the number of bits per range is out of range";
	if (meta->nhashes < 1 || meta->nhashes > BLOOM_MAX_HASHES)
		return "the number of hashes is out of range";
	if (meta->natts != natts)
		return "the metapage's number of columns does not match the index";
	if (meta->pages_per_range < 1 || meta->pages_per_range > SKIP_MAX_PPR)
		return "pages_per_range is out of range";
	if (!(meta->stats.keys >= 0.0 && meta->stats.keys < 1e300))
		return "the metapage's count of keys is out of range";
	why = skip_check_stage(meta);
	if (why == NULL)
		why = skip_check_segments(meta);
	return why ? why : skip_check_recent(meta);
}

/*
 * Why the blocks meta points to are not all in the index, or NULL: every
 * block number a reader takes from the metapage (the staging area, the
 * segments and the recent segment; a row's page lies within its segment) is checked here, once
 * per metapage read, against the index's size.  Segments are published
 * after their pages are written, and an index never shrinks.
 */
static const char *
skip_check_extent(Relation index, const SkipMeta *meta)
{
	uint64		end = (uint64) meta->stage_first_block + meta->stage_pages;

	if (meta->nsegments > 0)
	{
		const SkipSegment *last = &meta->segments[meta->nsegments - 1];

		end = Max(end, (uint64) last->first_block + last->npages);
	}
	end = Max(end, (uint64) meta->recent.first_block + meta->recent.npages);
	if (end > RelationGetNumberOfBlocks(index))
		return "the metapage points past the end of the index";
	return NULL;
}

/* Check the copy meta of index's metapage: raise the corruption error if bad. */
static void
skip_check_meta_or_fail(Relation index, const SkipMeta *meta, Buffer locked)
{
	const char *why = skip_check_meta(meta, RelationGetNumberOfAttributes(index));

	if (why == NULL)
		why = skip_check_extent(index, meta);
	if (why)
	{
		if (BufferIsValid(locked))
			UnlockReleaseBuffer(locked);
		skip_corrupt(index, SKIP_METAPAGE_BLKNO, why);
	}
}

/*
 * Check that page is a metapage and copy its contents into *meta; the
 * special space's size says the format (a format 3 metapage has no
 * statistics and no checksum: their fields read as 0).
 */
static void
skip_copy_metapage(Relation index, Page page, SkipMeta *meta)
{
	uint32		version = PageGetSpecialSize(page) == SKIP_SPECIAL_SIZE(SKIP_FORMAT_VERSION) ?
		SKIP_FORMAT_VERSION : SKIP_FORMAT_VERSION_OLDEST;

	skip_check_page(index, version, page, SKIP_METAPAGE_BLKNO, SKIP_PAGE_META, 0);
	memcpy(meta, PageGetContents(page), sizeof(SkipMeta));
	if (version < 4)
	{
		/* format 3 ends with the segments: the rest is not its */
		memset(&meta->stats, 0, sizeof(SkipStats));
		memset(&meta->recent, 0, sizeof(SkipSegment));
		meta->checksum = meta->reserved = 0;
	}
	if (meta->version != version)
		skip_corrupt(index, SKIP_METAPAGE_BLKNO,
					 "the metapage's format version does not match its page");
}

/* Read and check the metapage into *meta (a copy). */
void
skip_read_meta(Relation index, SkipMeta *meta)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);

	/* an error raised holding the lock releases it with the transaction */
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	skip_copy_metapage(index, BufferGetPage(buf), meta);
	UnlockReleaseBuffer(buf);
	skip_check_meta_or_fail(index, meta, InvalidBuffer);
}

/*
 * Write meta to the metapage (buffer locked exclusively by the caller, or
 * not at all when log is false: a build, logged as a whole afterwards).
 */
void
skip_write_meta(Relation index, const SkipMeta *meta, bool log)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);
	SkipMeta	sealed = *meta;

	skip_seal_meta(&sealed);
	meta = &sealed;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (log)
	{
		GenericXLogState *state = GenericXLogStart(index);
		Page		page = GenericXLogRegisterBuffer(state, buf, 0);

		memcpy(PageGetContents(page), meta, sizeof(SkipMeta));
		GenericXLogFinish(state);
	}
	else
	{
		memcpy(PageGetContents(BufferGetPage(buf)), meta, sizeof(SkipMeta));
		MarkBufferDirty(buf);
	}
	UnlockReleaseBuffer(buf);
}

/*
 * Does meta (a format 4 metapage's contents, on its locked page) match its
 * checksum?  Every insert asks (skip_read_bounds), and the metapage
 * changes once per summarized range, so the answer is kept: the copy this
 * backend last found to match (rd_amcache, freed with the index's relcache
 * entry).  The same bytes match again, and comparing costs a fraction of
 * summing them, whose planner's sketch alone is 1 kB.
 */
static bool
skip_meta_sum_matches(Relation index, const SkipMeta *meta)
{
	if (index->rd_amcache != NULL && memcmp(index->rd_amcache, meta, sizeof(SkipMeta)) == 0)
		return true;
	if (meta->checksum != skip_meta_checksum(meta))
		return false;
	if (index->rd_amcache == NULL)
		index->rd_amcache = MemoryContextAlloc(index->rd_indexcxt, sizeof(SkipMeta));
	memcpy(index->rd_amcache, meta, sizeof(SkipMeta));
	return true;
}

/*
 * Read pages_per_range and the writer boundary of the metapage, checking
 * only the page, the format and the checksum: the cheap read of every
 * insert.
 */
void
skip_read_bounds(Relation index, uint32 *ppr, uint64 *writer)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);
	Page		page;
	const SkipMeta *meta;
	bool		ok;

	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	meta = (const SkipMeta *) PageGetContents(page);
	ok = !PageIsNew(page) && meta->magic == SKIP_MAGIC &&
		PageGetSpecialSize(page) == SKIP_SPECIAL_SIZE(meta->version) &&
		meta->pages_per_range >= 1 && meta->pages_per_range <= SKIP_MAX_PPR;
	if (ok && meta->version == SKIP_FORMAT_VERSION)
		ok = skip_meta_sum_matches(index, meta);
	else
		ok = ok && meta->version == SKIP_FORMAT_VERSION_OLDEST;
	*ppr = meta->pages_per_range;
	*writer = meta->writer;
	UnlockReleaseBuffer(buf);
	if (!ok)
	{
		SkipMeta	full;

		skip_read_meta(index, &full);	/* reports what is wrong */
		skip_corrupt(index, SKIP_METAPAGE_BLKNO, "the metapage is invalid");
	}
}

/*
 * Lock the metapage exclusively, check it and copy it into *meta; returns
 * the buffer.
 */
static Buffer
skip_lock_meta(Relation index, SkipMeta *meta)
{
	Buffer		buf = ReadBuffer(index, SKIP_METAPAGE_BLKNO);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	skip_copy_metapage(index, BufferGetPage(buf), meta);
	skip_check_meta_or_fail(index, meta, buf);
	return buf;
}

/*
 * Raise the metapage's writer boundary to at least writer (never past
 * nranges), WAL-logged if it moves; *meta receives the metapage before the
 * change.  Returns whether writer moved.
 */
bool
skip_advance_writer(Relation index, uint64 writer, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	uint64		new_writer = Max(meta->writer, Min(writer, meta->nranges));

	if (new_writer != meta->writer)
	{
		GenericXLogState *state = GenericXLogStart(index);
		SkipMeta   *m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));

		m->writer = new_writer;
		skip_seal_meta(m);
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return new_writer != meta->writer;
}

/*
 * Set the metapage's summarized boundary and staged count in one record,
 * adding learnt (what the batch taught of its keys, or NULL) to the
 * metapage's statistics; *meta receives the metapage after the change.
 * Only a summarizer calls it, holding the summarizing lock, so nothing
 * else moves summarized, and the statistics change under the same locks
 * as the boundaries they describe.  They only steer the planner: no
 * answer depends on them (a scan reads the bits), so a count that a crash
 * or a race leaves off costs at most a worse plan.
 */
void
skip_set_summarized(Relation index, uint64 summarized, uint32 nstaged,
					const SkipStats *learnt, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	GenericXLogState *state;
	SkipMeta   *m;

	if (summarized < meta->summarized || summarized > meta->writer ||
		nstaged > meta->stage_slots || nstaged > summarized)
	{
		UnlockReleaseBuffer(buf);
		elog(ERROR, "bloomskip summarized boundary " UINT64_FORMAT " (staged %u) is out of order",
			 summarized, nstaged);
	}
	state = GenericXLogStart(index);
	m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));
	m->summarized = summarized;
	m->nstaged = nstaged;
	if (learnt && m->version >= 4)
	{
		m->stats.ranges += learnt->ranges;
		m->stats.keys += learnt->keys;
		for (int i = 0; i < SKIP_STAT_REGISTERS; i++)
			m->stats.hll[i] = Max(m->stats.hll[i], learnt->hll[i]);
	}
	skip_seal_meta(m);
	*meta = *m;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/*
 * Set the metapage's recent segment (skip_recent.c) in one record; *meta
 * receives the metapage after the change.  Only a summarizer calls it,
 * holding the summarizing lock (and, for a new one, the extension lock).
 */
void
skip_set_recent(Relation index, const SkipSegment *recent, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	GenericXLogState *state = GenericXLogStart(index);
	SkipMeta   *m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));

	m->recent = *recent;
	skip_seal_meta(m);
	*meta = *m;
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/*
 * Lower the metapage's boundaries after the heap shrank (skip_insert.c,
 * skip_forget_truncated): summarized and writer to at most upto, nranges
 * to at most nranges, and nstaged by as much as summarized drops (slots
 * [0, nstaged) keep the ranges they held), in one record; *meta receives
 * the metapage before the change.  Only a holder of the summarizing lock
 * calls it.  Returns whether anything moved.
 */
bool
skip_lower_bounds(Relation index, uint64 upto, uint64 nranges, SkipMeta *meta)
{
	Buffer		buf = skip_lock_meta(index, meta);
	uint64		summarized = Min(meta->summarized, upto);
	uint64		drop = meta->summarized - summarized;
	bool		moved;
	GenericXLogState *state;
	SkipMeta   *m;

	nranges = Max(Min(meta->nranges, nranges), Min(meta->writer, upto));
	moved = summarized != meta->summarized || Min(meta->writer, upto) != meta->writer ||
		nranges != meta->nranges;
	if (moved)
	{
		state = GenericXLogStart(index);
		m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));
		m->summarized = summarized;
		m->writer = Min(m->writer, upto);
		m->nranges = nranges;
		m->nstaged = m->nstaged > drop ? (uint32) (m->nstaged - drop) : 0;
		/* the ranges cut lose their share of the keys (the sketch keeps them) */
		if (m->version >= 4 && m->stats.ranges > summarized)
		{
			m->stats.keys *= (double) summarized / (double) m->stats.ranges;
			m->stats.ranges = summarized;
		}
		skip_seal_meta(m);
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return moved;
}

/* A new page at the end of a fork of the index, locked exclusively. */
Buffer
skip_new_buffer(Relation index, ForkNumber fork)
{
	Buffer		buf;

#if PG_VERSION_NUM >= 160000
	buf = ExtendBufferedRel(BMR_REL(index), fork, NULL,
							EB_LOCK_FIRST | (fork == INIT_FORKNUM ? EB_SKIP_EXTENSION_LOCK : 0));
#else
	bool		needlock = !RELATION_IS_LOCAL(index) && fork != INIT_FORKNUM;

	if (needlock)
		LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBufferExtended(index, fork, P_NEW, RBM_NORMAL, NULL);
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	if (needlock)
		UnlockRelationForExtension(index, ExclusiveLock);
#endif
	return buf;
}

/*
 * Raise the metapage's nranges to cover range if its segments hold it;
 * returns false if a new segment is needed.
 */
static bool
skip_cover_in_place(Relation index, uint64 range)
{
	SkipMeta	meta;
	Buffer		buf = skip_lock_meta(index, &meta);
	bool		held = meta.nsegments > 0 &&
		range < meta.segments[meta.nsegments - 1].first_range +
		meta.segments[meta.nsegments - 1].capacity;

	if (range >= meta.nranges && held)
	{
		GenericXLogState *state = GenericXLogStart(index);
		SkipMeta   *m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, buf, 0));

		m->nranges = range + 1;
		skip_seal_meta(m);
		GenericXLogFinish(state);
	}
	UnlockReleaseBuffer(buf);
	return range < meta.nranges || held;
}

/*
 * Append the pages of segment seg of meta (a new one, at the end of the
 * index), zeroed and WAL-logged.  The caller holds SKIP_EXTEND_LOCK.
 */
void
skip_write_new_rows_pages(Relation index, const SkipMeta *meta, const SkipSegment *seg)
{
	for (uint32 i = 0; i < seg->npages; i++)
	{
		Buffer		buf = skip_new_buffer(index, MAIN_FORKNUM);
		GenericXLogState *state;
		Page		page;

		if (BufferGetBlockNumber(buf) != seg->first_block + i)
			elog(ERROR, "bloomskip index \"%s\" was extended concurrently",
				 RelationGetRelationName(index));
		state = GenericXLogStart(index);
		page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
		skip_init_page(page, meta->version, SKIP_PAGE_ROWS,
					   SKIP_ROWS_POSITION(skip_segno(meta, seg), i), skip_rows_bytes(seg));
		skip_seal_rows_page(meta, page);
		GenericXLogFinish(state);
		UnlockReleaseBuffer(buf);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Extend the index so that it covers range.  Within the last segment that
 * only raises nranges.  A new segment's pages (up to thousands) are
 * written without the metapage's lock, so scans and inserts go on
 * meanwhile; the extension lock (a heavyweight lock, SKIP_EXTEND_LOCK)
 * makes extenders take turns, so a segment's pages are consecutive, and
 * the segment is published in the metapage once its pages are logged.  A
 * crash before that leaves unused pages at the end, which the next
 * extension skips.
 */
void
skip_extend(Relation index, uint64 range)
{
	SkipMeta	meta;
	SkipMeta	cur;
	uint32		old_nsegments;
	Buffer		metabuf;
	GenericXLogState *state;
	SkipMeta   *m;

	if (skip_cover_in_place(index, range))
		return;
	LockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
	if (skip_cover_in_place(index, range))
	{
		UnlockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
		return;
	}
	skip_read_meta(index, &meta);
	old_nsegments = meta.nsegments;
	skip_plan_segments(&meta, range + 1, SKIP_EMPTY_CAPACITY,
					   RelationGetNumberOfBlocks(index));
	for (uint32 s = old_nsegments; s < meta.nsegments; s++)
		skip_write_new_rows_pages(index, &meta, &meta.segments[s]);
	/* publish: only the extender changes segments, others other fields */
	metabuf = skip_lock_meta(index, &cur);
	state = GenericXLogStart(index);
	m = (SkipMeta *) PageGetContents(GenericXLogRegisterBuffer(state, metabuf, 0));
	m->nsegments = meta.nsegments;
	memcpy(m->segments, meta.segments, sizeof(meta.segments));
	m->nranges = Max(cur.nranges, range + 1);
	skip_seal_meta(m);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(metabuf);
	UnlockPage(index, SKIP_EXTEND_LOCK, ExclusiveLock);
}

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

/*
 * Add key h to the sketch of st.  The key's hash also chooses its bit
 * positions: it is mixed first (bloom_mix64b, splitmix64's finalizer), so the
 * register and the rank do not follow the positions.
 */
void
skip_stats_add_key(SkipStats *st, uint64 h)
{
	uint64		x = bloom_mix64b(h);
	uint64		rest;
	int			reg, rank;

	/* the register: the top bits; the rank: 1 + the leading zeros of the rest */
	reg = (int) (x >> (64 - SKIP_STAT_BITS));
	rest = x << SKIP_STAT_BITS;
	rank = rest == 0 ? 64 - SKIP_STAT_BITS + 1 : 64 - pg_leftmost_one_pos64(rest);
	st->hll[reg] = Max(st->hll[reg], (uint8) rank);
}

/*
 * Count one range of st whose filter (m bits, unsliced) is bits: its
 * distinct keys estimated from the filter's fill X as -(m / k) ln(1 - X / m).
 * A filter with every bit set (a row whose keys could not be read) says
 * nothing of its keys and is left out.
 */
void
skip_stats_add_filter(SkipStats *st, const SkipMeta *meta, const uint8 *bits)
{
	uint64		set = 0;
	double		m = meta->nbits;

	for (uint32 i = 0; i < meta->nbits / 8; i++)
		set += pg_number_of_ones[bits[i]];
	if (set >= meta->nbits)
		return;
	st->ranges++;
	st->keys += -(m / meta->nhashes) * log(1.0 - (double) set / m);
}

/*
 * The distinct keys of the ranges counted in st: HyperLogLog's estimate
 * (harmonic mean of the registers, bias-corrected), by linear counting of
 * the empty registers while they are many.  Its relative error is about
 * 1.04 / sqrt(registers), 3 %.
 */
static double
skip_stats_distinct(const SkipStats *st)
{
	double		m = SKIP_STAT_REGISTERS;
	double		sum = 0.0;
	int			zeros = 0;
	double		e;

	for (int i = 0; i < SKIP_STAT_REGISTERS; i++)
	{
		sum += ldexp(1.0, -st->hll[i]);
		zeros += st->hll[i] == 0;
	}
	e = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
	if (e <= 2.5 * m && zeros > 0)
		e = m * log(m / zeros);
	return e;
}

/*
 * The figures the planner reads from st: the distinct keys of a range and
 * the ranges a key lies in, on average; false when st counts nothing.
 */
bool
skip_stats_figures(const SkipStats *st, double *keys_per_range, double *ranges_per_key)
{
	double		distinct;

	if (st->ranges == 0 || st->keys < 1.0)
		return false;
	*keys_per_range = st->keys / (double) st->ranges;
	distinct = Max(skip_stats_distinct(st), *keys_per_range);
	*ranges_per_key = Min(Max(st->keys / distinct, 1.0), (double) st->ranges);
	return true;
}
