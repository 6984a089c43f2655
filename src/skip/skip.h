/*-------------------------------------------------------------------------
 *
 * skip.h
 *	  The bloomskip index access method: shared declarations of its phases
 *	  (skip_handler.c: handler, options, validation; skip_sizing.c: options,
 *	  m and k, layout; skip_page.c: pages and their checks; skip_meta.c: the
 *	  metapage; skip_bounds.c: the open tail's boundaries; skip_extend.c:
 *	  growth; skip_positions.c: where a key's bits are; skip_stats.c: the
 *	  planner's sketch; skip_keys.c: a column's operator class and
 *	  the equality class; skip_query.c: a scan value's query; the classes
 *	  skip_ngram.c (with skip_regex.c), skip_tsvector.c, skip_array.c and
 *	  skip_jsonb.c; skip_build.c;
 *	  skip_insert.c; skip_stage.c: the staging area; skip_recent.c: the
 *	  recent segment; skip_rows.c: the columns of the rows; skip_scan.c;
 *	  skip_vacuum.c; skip_cost.c; skip_tools.c).
 *	  The design is described in README.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_SKIP_H
#define BLOOMSET_SKIP_H

#include "postgres.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "access/reloptions.h"
#include "nodes/pathnodes.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/rel.h"

#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"

#define SKIP_MAGIC				0x534B4950	/* "SKIP" */
/* the format new indexes get, and the oldest still read (1.3's) */
#define SKIP_FORMAT_VERSION		4
#define SKIP_FORMAT_VERSION_OLDEST	3
#define SKIP_METAPAGE_BLKNO		0

/*
 * Heavyweight locks on the index (lock tags, as GIN's LockPage on its
 * metapage; not buffer locks): summarizers and extenders each take turns.
 */
#define SKIP_SUMMARIZE_LOCK		0
#define SKIP_EXTEND_LOCK		1

/* page kinds, in the special space */
#define SKIP_PAGE_META			1
#define SKIP_PAGE_ROWS			2
#define SKIP_PAGE_STAGE			3

/*
 * Segments the metapage can list.  Capacities at least double from one
 * segment to the next until a row fills a page (SKIP_MAX_CAPACITY ranges),
 * so 64 entries cover far more ranges than a relation's 2^32 blocks make.
 */
#define SKIP_MAX_SEGMENTS		64
/* the segment number in the position of a page of the recent segment */
#define SKIP_RECENT_SEGNO			255
/* its least capacity: a full staging area fits a fresh window (skip_recent.c) */
#define SKIP_RECENT_MIN_CAPACITY	(2 * SKIP_STAGE_MAX_SLOTS)

/* Defaults and limits of the reloptions (the model is in README). */
#define SKIP_DEFAULT_PPR		16
#define SKIP_MAX_PPR			131072
#define SKIP_DEFAULT_FPR_MAX	0.01	/* the rate when there are few ranges */
#define SKIP_MIN_FPR			1e-6
#define SKIP_MAX_FPR			0.25
/* distinct keys assumed per range when the table is empty at build */
#define SKIP_EMPTY_DISTINCT		1024
/* ranges the first segment of an empty index holds */
#define SKIP_EMPTY_CAPACITY		1024
/* distinct keys a range's filter is sized for, over the build's 95th percentile */
#define SKIP_HEADROOM			1.5
/* hashes at most: the pages a lookup reads per segment and an insert changes */
#define SKIP_MAX_K				6
/* ranges the staging area holds at most, and its pages at most */
#define SKIP_STAGE_MAX_SLOTS	64
#define SKIP_STAGE_MAX_PAGES	8
/*
 * format 4 on: ranges the staging area holds at least, where a page holds
 * one slot (filters of half a page to a page), in more pages if needed
 */
#define SKIP_STAGE_MIN_SLOTS	16
/* bits of a range's filter at most (rows of a segment) */
#define SKIP_MAX_BITS			(1 << 24)

/*
 * The special space of every page.  Format 3 has the first 8 bytes (and 0
 * in version); format 4 all: where the page belongs, and for a page of
 * rows the CRC-32C of its rows in use.
 */
typedef struct SkipPageOpaque
{
	uint32		magic;
	uint16		kind;			/* SKIP_PAGE_* */
	uint16		version;		/* the index's format version; 0 in format 3 */
	uint32		position;		/* rows: segment << 24 | page within it;
								 * staging: page within the area; meta: 0 */
	uint32		checksum;		/* rows: CRC-32C of the rows; else 0 */
} SkipPageOpaque;

/* Bytes of the special space, and usable bytes of a page, by format version. */
#define SKIP_SPECIAL_SIZE(version) \
	((version) >= 4 ? MAXALIGN(sizeof(SkipPageOpaque)) : \
	 MAXALIGN(offsetof(SkipPageOpaque, position)))
#define SKIP_PAGE_AVAIL_V(version) \
	(BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - SKIP_SPECIAL_SIZE(version))
#define SKIP_PAGE_AVAIL			SKIP_PAGE_AVAIL_V(SKIP_FORMAT_VERSION)
/* ranges one row may hold: a row of bits must fit one page, in 64-bit words */
#define SKIP_MAX_CAPACITY_V(version)	((SKIP_PAGE_AVAIL_V(version) * 8) / 64 * 64)
#define SKIP_MAX_CAPACITY		SKIP_MAX_CAPACITY_V(SKIP_FORMAT_VERSION)
/* a row page's position: its segment and its page within the segment */
#define SKIP_ROWS_POSITION(seg, page)	((uint32) (seg) << 24 | (uint32) (page))

/*
 * A segment: the bits of ranges [first_range, first_range + capacity), as
 * nbits rows of capacity bits; row p is at byte (p % rows_per_page) *
 * capacity / 8 of block first_block + p / rows_per_page.
 */
typedef struct SkipSegment
{
	uint64		first_range;
	uint32		capacity;		/* ranges, a multiple of 64 */
	uint32		first_block;
	uint32		rows_per_page;
	uint32		npages;
} SkipSegment;

/*
 * What the build and the summarizers learnt of an index's keys, for the
 * planner (skip_cost.c): the ranges counted, the sum of their distinct
 * keys, and a HyperLogLog sketch of the keys of all of them (registers of
 * SKIP_STAT_REGISTERS, the rank of a key's mixed hash), whence the keys of
 * the table and the ranges a key lies in.  Format 4 on, and only for an
 * index of one column of the equality class (its keys are its values);
 * zero otherwise: the cost model then uses the statistics alone.
 */
#define SKIP_STAT_BITS			10
#define SKIP_STAT_REGISTERS		(1 << SKIP_STAT_BITS)
typedef struct SkipStats
{
	uint64		ranges;			/* ranges counted */
	double		keys;			/* sum of their distinct keys */
	uint8		hll[SKIP_STAT_REGISTERS];
} SkipStats;

/* The metapage's contents (block 0). */
typedef struct SkipMeta
{
	uint32		magic;
	uint32		version;
	uint32		nbits;			/* m: bits per range */
	uint16		nhashes;		/* k */
	uint8		scheme;			/* hashing scheme of bloom (2; 4 since 1.5) */
	uint8		natts;			/* indexed columns */
	uint64		seed;			/* column c hashes with seed + c */
	uint32		pages_per_range;
	uint32		nsegments;
	uint64		nranges;		/* ranges whose bits have pages */
	uint64		summarized;		/* ranges below have their bits; scans return
								 * every page of the others */
	uint64		writer;			/* an insert into a range below sets its bits;
								 * into one above, nothing (summarized <=
								 * writer <= nranges) */
	uint32		stage_first_block;	/* the staging area (skip_stage.c) */
	uint32		stage_pages;
	uint32		stage_per_page; /* slots a page holds */
	uint32		stage_slots;	/* 0: no staging area */
	uint32		nstaged;		/* slots [0, nstaged) were written for ranges
								 * [summarized - nstaged, summarized) */
	double		target_rate;	/* the rate m and k were chosen for */
	double		design_distinct;	/* distinct keys per range m was sized for */
	SkipSegment segments[SKIP_MAX_SEGMENTS];
	/* format 4 on: what the planner reads (zero in format 3) */
	SkipStats	stats;
	/*
	 * format 4 on: the recent segment (capacity 0: none; skip_recent.c), the
	 * bits of the ranges sliced last, [recent.first_range, + capacity), until
	 * they are merged into their segments together
	 */
	SkipSegment recent;
	/* format 4 on: CRC-32C of the fields above (skip_meta_checksum) */
	uint32		checksum;
	uint32		reserved;
} SkipMeta;

StaticAssertDecl(sizeof(SkipMeta) <= SKIP_PAGE_AVAIL, "metapage contents must fit a page");

/*
 * A slot of the staging area: one range's filter, unsliced (bit p of the
 * nbits / 8 bytes that follow the header is bit p of the range's filter).
 * Format 3's header is range_plus1 alone; format 4 adds the CRC-32C of
 * range_plus1 and the bits.
 */
typedef struct SkipStageSlot
{
	uint64		range_plus1;	/* the range it holds + 1; 0: never written */
	uint32		checksum;		/* format 4 on */
	uint32		reserved;
} SkipStageSlot;

#define SKIP_SLOT_HEADER(version) \
	((version) >= 4 ? sizeof(SkipStageSlot) : offsetof(SkipStageSlot, checksum))
#define SKIP_SLOT_BITS(meta, slot) \
	((uint8 *) (slot) + SKIP_SLOT_HEADER((meta)->version))

/* The staged filters a scan or a tool read: copies, for ranges [first, first + n). */
typedef struct SkipStaged
{
	uint64		first;
	uint32		n;
	uint8	  **bits;			/* per range, or NULL where its slot holds another */
} SkipStaged;

/* Reloptions. */
typedef struct SkipOptions
{
	int32		vl_len_;
	int			pages_per_range;
	double		false_positive_rate;	/* 0: chosen at build */
} SkipOptions;

/*
 * Strategies.  Which of them a column serves is its operator class's
 * (SkipClassOps.strategies), not inferred from the numbers.
 */
#define SKIP_STRATEGY_EQUAL		1	/* = */
#define SKIP_STRATEGY_LIKE		2	/* ~~ */
#define SKIP_STRATEGY_ILIKE		3	/* ~~* */
#define SKIP_STRATEGY_REGEX		4	/* ~ (and SIMILAR TO, which becomes ~) */
#define SKIP_STRATEGY_IREGEX	5	/* ~* */
#define SKIP_STRATEGY_TSQUERY	6	/* tsvector @@ tsquery */
#define SKIP_STRATEGY_CONTAINS	7	/* @> (arrays, jsonb) */
#define SKIP_STRATEGY_OVERLAP	8	/* && (arrays) */
#define SKIP_STRATEGY_CONTAINED	9	/* <@ (arrays) */
#define SKIP_STRATEGY_EXISTS	10	/* jsonb ? */
#define SKIP_STRATEGY_EXISTS_ANY	11	/* jsonb ?| */
#define SKIP_STRATEGY_EXISTS_ALL	12	/* jsonb ?& */
#define SKIP_STRATEGY_PATH_EXISTS	13	/* jsonb @? jsonpath */
#define SKIP_STRATEGY_PATH_MATCH	14	/* jsonb @@ jsonpath */
#define SKIP_NSTRATEGIES		14
#define SKIP_STRATEGY_BIT(s)	(((uint32) 1) << (s))
/* support functions: the opclass options, the class's operations */
#define SKIP_OPTIONS_PROC		1
#define SKIP_CLASS_PROC			2
#define SKIP_NSUPPORT			2
#define SKIP_NGRAM_DEFAULT_N	3	/* as bloom_ngram_agg's */

struct SkipClassOps;

/*
 * Per-column keys of an index (skip_keys.c): the column's operator class
 * (its table of operations), the bloom type's value-to-hash layer (for a
 * class that hashes_type), the
 * n-gram length of an n-gram column (0 for another) and the column's
 * collation.
 */
typedef struct SkipKeyInfo
{
	int			natts;
	BloomTypeInfo ti[INDEX_MAX_KEYS];
	uint8		ngram[INDEX_MAX_KEYS];
	Oid			coll[INDEX_MAX_KEYS];
	const struct SkipClassOps *ops[INDEX_MAX_KEYS];
} SkipKeyInfo;

/* A growing list of keys (hashes), allocated in cxt. */
typedef struct SkipKeyBuf
{
	uint64	   *h;
	int			n;
	int			cap;
	MemoryContext cxt;
} SkipKeyBuf;

/*
 * What a scan value asks of a range (skip_keys.c builds it): an AND of
 * clauses, each an OR of alternatives, each an AND of keys.  Alternative a
 * is keys.h[alt_end[a - 1] .. alt_end[a]) (alt_end[-1] = 0), clause c the
 * alternatives [clause_end[c - 1], clause_end[c]).  No clause: every range.
 */
typedef struct SkipQuery
{
	SkipKeyBuf	keys;
	int			nalts;
	int			altcap;
	int		   *alt_end;
	int			nclauses;
	int			clausecap;
	int		   *clause_end;
	bool		clause_dropped; /* the open clause has an empty alternative */
	bool		matches_none;	/* no row can satisfy the value (skip_query_none) */
} SkipQuery;

/*
 * The operations of a bloomskip operator class: what it hashes for a
 * stored value and for a query, and which strategies it serves.  Support
 * function 2 (SKIP_CLASS_PROC) of a class returns a pointer to one
 * (pgvector's per-type support functions are the model); a class is one
 * file defining its table plus the SQL declaring the class.
 */
typedef struct SkipClassOps
{
	uint32		magic;			/* SKIP_CLASS_MAGIC */
	const char *name;			/* for messages */
	uint32		strategies;		/* SKIP_STRATEGY_BIT of each served */
	/* keys per value assumed at an empty build, relative to one */
	double		empty_factor;
	/* a query asks for several keys at once: a looser rate suffices */
	bool		many_keys;
	/*
	 * values are hashed by their type's hashing: ki->ti of the column and the
	 * ti of a scan value are set up for query (else both are zeroed, and a
	 * type without an extended hash function may be indexed)
	 */
	bool		hashes_type;
	/* check column attno of index and fill ki's fields for it (opts: its options) */
	void		(*init) (SkipKeyInfo *ki, Relation index, int attno, bytea *opts);
	/* append the keys of a non-null value; returns how many */
	int			(*value_keys) (const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
							   uint64 seed, Datum value, SkipKeyBuf *buf);
	/*
	 * add to q what a range must hold to match a non-null scan value of type
	 * ti under strategy and collation; false: every range may match
	 */
	bool		(*query) (const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
						  uint64 seed, StrategyNumber strategy, Oid collation,
						  const BloomTypeInfo *ti, Datum value, SkipQuery *q);
	/* the element family a range's filter of the column is returned with */
	void		(*family) (const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp);
} SkipClassOps;

#define SKIP_CLASS_MAGIC		0x534B4331	/* "SKC1" */

/* skip_sizing.c: options, m and k, the staging area's and segments' layout */
extern int	skip_options_ppr(Relation index);
extern double skip_options_rate(Relation index);
extern double skip_default_rate(double nranges);
extern void skip_params_for(SkipMeta *meta, uint32 version, double distinct,
							double rate, int ppr, int natts);
extern Size skip_stage_slot_bytes(const SkipMeta *meta);
extern uint32 skip_slot_span(const SkipMeta *meta);
extern void skip_stage_layout(SkipMeta *meta, BlockNumber first_block);
extern uint32 skip_rows_per_page(uint32 version, uint32 capacity);
extern uint32 skip_build_capacity(uint32 version, uint64 nranges);
extern void skip_plan_segments(SkipMeta *meta, uint64 nranges, uint32 first_capacity,
							   BlockNumber first_block);

/* skip_page.c: page initialization and checks, page and slot checksums */
extern void skip_init_page(Page page, uint32 version, uint16 kind, uint32 position,
						   Size used);
extern uint32 skip_segno(const SkipMeta *meta, const SkipSegment *seg);
extern Size skip_rows_bytes(const SkipSegment *seg);
#if PG_VERSION_NUM >= 180000
extern pg_noreturn void skip_corrupt(Relation index, BlockNumber blk, const char *why);
#else
extern void skip_corrupt(Relation index, BlockNumber blk, const char *why)
			pg_attribute_noreturn();
#endif
extern void skip_check_page(Relation index, uint32 version, Page page, BlockNumber blk,
							uint16 kind, uint32 position);
extern void skip_check_rows_page(Relation index, const SkipMeta *meta,
								 const SkipSegment *seg, Page page, BlockNumber blk);
extern void skip_seal_rows_page(const SkipMeta *meta, Page page);
extern uint32 skip_slot_checksum(const SkipMeta *meta, const SkipStageSlot *slot);

/* skip_meta.c: the metapage: its checksum and checks, reading and writing it */
extern uint32 skip_meta_checksum(const SkipMeta *meta);
extern void skip_seal_meta(SkipMeta *meta);
extern void skip_read_meta(Relation index, SkipMeta *meta);
extern void skip_write_meta(Relation index, const SkipMeta *meta, bool log);
extern void skip_read_bounds(Relation index, uint32 *ppr, uint64 *writer);
extern Buffer skip_lock_meta(Relation index, SkipMeta *meta);

/* skip_bounds.c: moving the open tail's boundaries */
extern bool skip_advance_writer(Relation index, uint64 writer, SkipMeta *meta);
extern void skip_set_summarized(Relation index, uint64 summarized, uint32 nstaged,
								const SkipStats *learnt, SkipMeta *meta);
extern void skip_set_recent(Relation index, const SkipSegment *recent, SkipMeta *meta);
extern bool skip_lower_bounds(Relation index, uint64 upto, uint64 nranges, SkipMeta *meta);

/* skip_extend.c: new pages and segments */
extern Buffer skip_new_buffer(Relation index, ForkNumber fork);
extern void skip_write_new_rows_pages(Relation index, const SkipMeta *meta,
									  const SkipSegment *seg);
extern void skip_extend(Relation index, uint64 range);

/* skip_positions.c: a key's bit positions, a range's segment, a row's place */
extern int	skip_positions(const SkipMeta *meta, uint64 h, uint64 *pos);
extern const SkipSegment *skip_segment_of(const SkipMeta *meta, uint64 range);
extern void skip_row_location(const SkipSegment *seg, uint64 row,
							  BlockNumber *blk, Size *offset);

/* skip_stats.c: the planner's sketch of the keys */
extern void skip_stats_add_key(SkipStats *st, uint64 h);
extern void skip_stats_add_filter(SkipStats *st, const SkipMeta *meta, const uint8 *bits);
extern bool skip_stats_figures(const SkipStats *st, double *keys_per_range,
							   double *ranges_per_key);

/* skip_handler.c: the handler, reloptions, operator class validation */
extern bytea *skip_options(Datum reloptions, bool validate);
extern bool skip_validate(Oid opclassoid);

/* skip_keys.c */
extern void skip_keyinfo_init(SkipKeyInfo *ki, Relation index, MemoryContext mcxt);
extern bool skip_keyinfo_has_ngram(const SkipKeyInfo *ki);
extern double skip_keys_empty_distinct(const SkipKeyInfo *ki);
extern double skip_keys_default_rate(const SkipKeyInfo *ki, double nranges);
extern int	skip_value_keys(const SkipKeyInfo *ki, const SkipMeta *meta, int attno,
							Datum value, SkipKeyBuf *buf);
extern bool skip_query_build(const SkipKeyInfo *ki, const SkipMeta *meta, int attno,
							 StrategyNumber strategy, Oid collation,
							 const BloomTypeInfo *ti, Datum value, SkipQuery *q);
extern void skip_column_family(const SkipKeyInfo *ki, int attno, char *family,
							   uint32 *collfp);
extern const SkipClassOps skip_equal_class;

/* skip_query.c: building a query, growing key buffers */
extern void skip_query_init(SkipQuery *q, MemoryContext cxt);
extern void skip_query_key(void *q, uint64 h);
extern void skip_query_end_alt(SkipQuery *q);
extern void skip_query_end_clause(SkipQuery *q);
extern void skip_query_none(SkipQuery *q);
extern void skip_keys_push(void *arg, uint64 h);

/* skip_ngram.c: the n-gram classes */
extern const SkipClassOps skip_ngram_class;
extern const SkipClassOps skip_ngram_ci_class;

/* skip_tsvector.c: the full-text class */
extern const SkipClassOps skip_tsvector_class;

/* skip_array.c, skip_jsonb.c: the classes of arrays and jsonb */
extern const SkipClassOps skip_array_class;
extern const SkipClassOps skip_jsonb_class;

/* skip_array_cost.c: the share of the ranges a query passes, for the planner */
extern double skip_query_share(Relation index, const SkipMeta *meta,
							   const SkipQuery *q);

/* skip_regex.c: the literal strings every match of a regular expression holds */
typedef struct SkipRegexString
{
	const char *s;
	int			len;
} SkipRegexString;
typedef struct SkipRegexClause
{
	int			n;				/* alternatives: every match holds one of them */
	SkipRegexString *alt;
} SkipRegexClause;
extern int	skip_regex_required(const char *pat, int len, bool icase,
								SkipRegexClause **clauses, bool *icase_out);

/* skip_build.c */
extern uint32 skip_new_format(void);
extern IndexBuildResult *skip_build(Relation heap, Relation index,
									struct IndexInfo *indexInfo);
extern void skip_buildempty(Relation index);
extern bool skip_stats_kept(const SkipKeyInfo *ki, const SkipMeta *meta);

/* skip_insert.c */
extern bool skip_insert(Relation index, Datum *values, bool *isnull,
						ItemPointer ht_ctid, Relation heapRel,
						IndexUniqueCheck checkUnique,
#if PG_VERSION_NUM >= 140000
						bool indexUnchanged,
#endif
						struct IndexInfo *indexInfo);
extern void skip_set_bits(Relation index, const SkipMeta *meta, uint64 range,
						  const uint64 *h, int nh);
extern void skip_summarize_upto(Relation heap, Relation index, uint64 upto, bool always);

/* heap pages a summarizer read: blk[i], and the line pointers it had then */
typedef struct SkipHeapPages
{
	MemoryContext cxt;			/* where the arrays are allocated */
	BlockNumber *blk;
	OffsetNumber *maxoff;
	uint32		n;
	uint32		cap;
} SkipHeapPages;
typedef void (*SkipPagesFn) (const SkipHeapPages *pages, void *arg);
extern bool skip_resummarize(Relation heap, Relation index, SkipPagesFn fn, void *arg);
extern bool skip_heap_shrank(uint64 writer, uint32 ppr, BlockNumber heap_pages);
extern void skip_forget_truncated(Relation heap, Relation index, uint64 keep, bool wait);

/*
 * skip_rows.c: the columns of the bit-sliced rows.  Columns to write are
 * given as rows too: n columns of m rows, bit first_bit + i of row p (the
 * stride bytes at rows + p * stride) being bit p of column i.
 */
typedef struct SkipColumns
{
	const uint8 *rows;
	Size		stride;
	uint64		first_bit;
	uint32		n;
} SkipColumns;

extern SkipColumns skip_columns_of_filters(const SkipMeta *meta, uint8 *const *filters,
										   uint32 n);
extern SkipColumns skip_columns_part(const SkipColumns *cols, uint32 from, uint32 n);
extern void skip_write_segment_columns(Relation index, const SkipMeta *meta,
									   const SkipSegment *seg, uint32 col0,
									   const SkipColumns *cols);
extern void skip_write_columns(Relation index, const SkipMeta *meta, uint64 first,
							   const SkipColumns *cols);
extern void skip_clear_segment_columns(Relation index, const SkipMeta *meta,
									   const SkipSegment *seg, uint64 from, uint64 to);
typedef void (*SkipRowFn) (uint64 row, const uint8 *bytes, void *arg);
extern void skip_each_row(Relation index, const SkipMeta *meta, const SkipSegment *seg,
						  SkipRowFn fn, void *arg);

/* skip_recent.c */
extern bool skip_recent_covers(const SkipMeta *meta, uint64 range);
extern bool skip_recent_overlaps(const SkipMeta *meta, uint64 lo, uint64 hi);
extern void skip_recent_fold(const SkipMeta *meta, const uint8 *cols, uint8 *dst,
						   uint64 dst_first, uint64 dst_end);
extern const uint8 *skip_recent_filter(const SkipMeta *meta, uint8 *const *cols,
									   uint64 range);
extern uint8 **skip_recent_filters(Relation index, const SkipMeta *meta);
extern void skip_recent_into_staged(Relation index, const SkipMeta *meta, SkipStaged *st);
extern void skip_recent_flush(Relation index, SkipMeta *meta);
extern void skip_recent_slice(Relation index, SkipMeta *meta, uint64 first, uint32 n,
							uint8 *const *filters);

/* skip_stage.c */
extern void skip_stage_init_pages(Relation index, const SkipMeta *meta, ForkNumber fork);
extern void skip_stage_write(Relation index, const SkipMeta *meta, uint64 from,
							 uint32 n, const uint8 *filters);
extern void skip_stage_read(Relation index, const SkipMeta *meta, SkipStaged *st,
							bool strict);
extern const uint8 *skip_staged_bits(const SkipStaged *st, uint64 range);
extern bool skip_bits_have(const uint8 *bits, const uint64 *pos, int np);

/* skip_scan.c */
extern IndexScanDesc skip_beginscan(Relation r, int nkeys, int norderbys);
extern void skip_rescan(IndexScanDesc scan, ScanKey keys, int nkeys,
						ScanKey orderbys, int norderbys);
extern int64 skip_getbitmap(IndexScanDesc scan, TIDBitmap *tbm);
extern void skip_endscan(IndexScanDesc scan);

/* skip_vacuum.c */
extern IndexBulkDeleteResult *skip_bulkdelete(IndexVacuumInfo *info,
											  IndexBulkDeleteResult *stats,
											  IndexBulkDeleteCallback callback,
											  void *callback_state);
extern IndexBulkDeleteResult *skip_vacuumcleanup(IndexVacuumInfo *info,
												 IndexBulkDeleteResult *stats);

/* skip_tools.c */
typedef struct SkipFill
{
	double		sumfill;		/* over the summarized ranges: set bits / m */
	double		maxfill;
	double		sumrate;		/* fill^k */
	int64		outgrown;		/* ranges whose rate is over twice the target */
} SkipFill;
extern void skip_fill(Relation index, const SkipMeta *meta, SkipFill *fill);
extern void skip_tools_init(void);

/* skip_cost.c */
extern void skip_costestimate(PlannerInfo *root, IndexPath *path,
							  double loop_count, Cost *indexStartupCost,
							  Cost *indexTotalCost, Selectivity *indexSelectivity,
							  double *indexCorrelation, double *indexPages);

#endif							/* BLOOMSET_SKIP_H */
