/*-------------------------------------------------------------------------
 *
 * findex.c
 *	  A filter index: many filters of identical parameters stored
 *	  bit-sliced (BitFunnel, SIGIR 2017), so "which filters may hold key X"
 *	  reads the few bits the key hashes to, across every filter at once.
 *
 * Filters with the same layout, size, hashes, seed, scheme, element family
 * and collation hash a key to the same positions.  Stored transposed, one
 * key reads, per group of filters, only its positions: one 256-bit block
 * (blocked layout) or k bits (classic), instead of one header and one block
 * per filter.
 *
 * The index is an ordinary table (WAL-logged, dumped, replicated, vacuumed
 * like any data) with columns (seg int4, blk int4, ids int8[], bits bytea)
 * and a btree on (blk, seg).  Filters are grouped in segments of
 * BLOOM_INDEX_SLOTS (64) slots, in the order of their ids at build time,
 * then in order of arrival.  The rows:
 *
 *	 seg -1, blk -1   the header (bits: bloomset's binary header, 68 bytes,
 *					  of the filters' common parameters; NULL while no
 *					  filter was ever added)
 *	 seg s,  blk -1   segment s's slot map (ids: 64 ids, NULL for a free
 *					  slot -- never used, or removed)
 *	 seg s,  blk b    stripe b of segment s (bits: 2048 bytes): the 256 bits
 *					  [256 b, 256 b + 256) of the segment's 64 filters,
 *					  position-major: the little-endian uint64 at byte 8 p
 *					  has bit j set when slot j's filter has bit 256 b + p
 *
 * Why 64 slots and 256 bits a row: a segment's bits for one position are
 * one uint64 (the AND of a key's positions is 8 word ANDs), and 256 bits
 * are one block of the blocked layout, so a blocked key reads exactly one
 * row per segment.  The row is 2 kB, stored in line uncompressed (column
 * storage PLAIN: just over the TOAST threshold, and random bits do not
 * compress), so a lookup reads one heap tuple per segment, found through
 * the btree.  Larger rows (more slots) would read fewer tuples but no
 * longer fit a heap page in line; smaller ones would read more tuples.
 *
 * A lookup reads the probe's stripes of every segment, then the slot
 * maps of the segments with a match.  Per segment, each key's positions
 * are ANDed over the stripes they lie in (one stripe for a key of a
 * blocked index; up to k for the classic layout) and the keys ORed
 * (BloomIndexMatch).  Segments are numbered from 0 and never dropped, so
 * the lookup checks that every segment answered with every stripe it
 * needs: a missing stripe or slot map is data_corrupted, never filters
 * silently left out.
 *
 * Answers equal the per-filter ones (bloom_contains) bit for bit: the same
 * hash, the same positions, the same bits.  A filter that never had an
 * element added (empty family) answers false to everything, so its slot
 * stores zeros.  Removing a filter frees its slot in the map (its bits stay
 * until the slot is reused, and never reach an answer: answers go through
 * the map).
 *
 * The build reads the (id, filter) rows from a cursor in groups of
 * segments whose stripes fit maintenance_work_mem.  Each segment is
 * transposed as soon as its 64 filters are read (64 x 64 bit-matrix
 * transposes, the recursive block swap of Hacker's Delight 7.3: 4 per
 * stripe, a few hundred instructions, while the 64 filters are in the CPU's
 * caches), then the group's rows are emitted block-major -- every
 * segment's stripe 0, then stripe 1, ... -- so the rows one lookup reads
 * share pages.  Appends rewrite the slot's column in every stripe of one
 * segment: untranspose, replace the slot's words, transpose back.
 *
 * This file holds the bit work (transposition, the checks of stored rows)
 * and the build's row source; reading -- the positions of keys and the AND
 * of stripes -- is findex_match.c's; the SQL entry points and their statements over the index table are in
 * findex_table.c, findex_write.c, findex_update.c and findex_lookup.c.
 * Nothing here is an SQL object: the steps of the
 * index are reachable only through its user-facing functions.
 *
 *-------------------------------------------------------------------------
 */
#include "findex.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* stripes transposed between interrupt checks (256 kB of output) */
#define BLOOM_INDEX_POLL_STRIPES	128
/* rows the build fetches from its cursor at a time */
#define BLOOM_INDEX_FETCH		64

/*
 * One round of the transpose: swap the bits of a[k] at j .. 2j - 1 (mod
 * 2j, mask m) with those of a[k + j] at 0 .. j - 1, for each k with bit j
 * clear.  j is a constant at every call, so the inner loop runs over
 * contiguous words and vectorizes.
 */
static inline void
bloom_index_swap_round(uint64 *a, int j, uint64 m)
{
	for (int b = 0; b < 64; b += 2 * j)
	{
		for (int k = b; k < b + j; k++)
		{
			uint64		t = ((a[k] >> j) ^ a[k + j]) & m;

			a[k] ^= t << j;
			a[k + j] ^= t;
		}
	}
}

/*
 * Transpose the 64 x 64 bit matrix a in place: bit i of a[j] becomes bit j
 * of a[i].  Swaps the off-diagonal halves, then quarters, ... (Hacker's
 * Delight 7.3: 6 rounds of 32 word pairs).
 */
static inline void
bloom_index_transpose64(uint64 *a)
{
	bloom_index_swap_round(a, 32, UINT64CONST(0x00000000FFFFFFFF));
	bloom_index_swap_round(a, 16, UINT64CONST(0x0000FFFF0000FFFF));
	bloom_index_swap_round(a, 8, UINT64CONST(0x00FF00FF00FF00FF));
	bloom_index_swap_round(a, 4, UINT64CONST(0x0F0F0F0F0F0F0F0F));
	bloom_index_swap_round(a, 2, UINT64CONST(0x3333333333333333));
	bloom_index_swap_round(a, 1, UINT64CONST(0x5555555555555555));
}

/*
 * Word q (0 .. 3) of group blk of filter f, as a little-endian value; 0
 * beyond the bit array (a classic filter's last group may be partial) and
 * for a filter nothing was added to (it answers false to everything).
 */
static inline uint64
bloom_index_filter_word(const BloomFilter *f, int64 blk, int q)
{
	uint64		w = (uint64) blk * BLOOM_INDEX_STRIPE_WORDS + q;

	if (f == NULL || f->family[0] == '\0' || w >= BLOOM_NWORDS(f))
		return 0;
	return bloom_index_get64((const uint8 *) &f->words[w]);
}

/* Stripe blk of the filters f[0 .. n) (n <= 64; NULL: an empty slot) into out. */
static void
bloom_index_stripe(BloomFilter *const *f, int n, int64 blk, uint8 *out)
{
	uint64		a[BLOOM_INDEX_STRIPE_WORDS][BLOOM_INDEX_SLOTS];

	for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
	{
		const BloomFilter *fj = j < n ? f[j] : NULL;

		if (fj != NULL && fj->family[0] != '\0' &&
			(uint64) (blk + 1) * BLOOM_INDEX_STRIPE_WORDS <= BLOOM_NWORDS(fj))
		{
			const uint8 *w = (const uint8 *) &fj->words[blk * BLOOM_INDEX_STRIPE_WORDS];

			for (int q = 0; q < BLOOM_INDEX_STRIPE_WORDS; q++)
				a[q][j] = bloom_index_get64(w + 8 * q);
		}
		else
			for (int q = 0; q < BLOOM_INDEX_STRIPE_WORDS; q++)
				a[q][j] = j < n ? bloom_index_filter_word(fj, blk, q) : 0;
	}
	for (int q = 0; q < BLOOM_INDEX_STRIPE_WORDS; q++)
	{
		bloom_index_transpose64(a[q]);
		for (int i = 0; i < 64; i++)
			bloom_index_put64(out + 8 * (64 * q + i), a[q][i]);
	}
}

/* ---- checks of stored rows ------------------------------------------------ */

/*
 * Raise data_corrupted for a bad row of the index named index (NULL: not
 * known): a user can UPDATE the table, so every stored row is checked
 * before it is used.
 */
void
bloom_index_corrupt(const char *index, const char *fmt,...)
{
	char		detail[512];
	va_list		args;

	va_start(args, fmt);
	vsnprintf(detail, sizeof(detail), fmt, args);
	va_end(args);
	if (index == NULL)			/* a row given to a 1.2 helper (findex_compat_1_2.c) */
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid bloom index row"),
				 errdetail("%s", detail)));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid row in bloom index \"%s\"", index),
			 errdetail("%s", detail),
			 errhint("Rebuild the index with bloom_index_create from the table of its filters.")));
	pg_unreachable();
}

/* The stripe bytes of a stored stripe, checked. */
const uint8 *
bloom_index_stripe_bytes(const char *index, bytea *bits)
{
	if (VARSIZE_ANY_EXHDR(bits) != BLOOM_INDEX_STRIPE_BYTES)
		bloom_index_corrupt(index, "A stripe must be %d bytes, not %zu.",
							BLOOM_INDEX_STRIPE_BYTES, (size_t) VARSIZE_ANY_EXHDR(bits));
	return (const uint8 *) VARDATA_ANY(bits);
}

/*
 * The slot map ids as 64 datums and null flags (slot j: element j), checked:
 * a one-dimensional int8 array of 64 elements.
 */
void
bloom_index_slot_map(const char *index, ArrayType *ids, Datum **values, bool **nulls)
{
	int			n;

	if (ARR_NDIM(ids) != 1 || ARR_ELEMTYPE(ids) != INT8OID ||
		ARR_DIMS(ids)[0] != BLOOM_INDEX_SLOTS || ARR_LBOUND(ids)[0] != 1)
		bloom_index_corrupt(index, "A slot map must be a one-dimensional bigint array of %d elements.",
							BLOOM_INDEX_SLOTS);
	deconstruct_array(ids, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  values, nulls, &n);
}

/*
 * The index header stored as bytea hdr (bloomset's binary header), checked
 * as every filter header is, and of a layout the index stores.
 */
void
bloom_index_header_of(const char *index, bytea *hdr, BloomFilter *out)
{
	const char *why;

	if (VARSIZE_ANY_EXHDR(hdr) != BLOOM_WIRE_HEADER_SIZE)
		bloom_index_corrupt(index, "The header row must hold a %d-byte filter header, not %zu bytes.",
							(int) BLOOM_WIRE_HEADER_SIZE, (size_t) VARSIZE_ANY_EXHDR(hdr));
	why = bloom_wire_decode_fields((const uint8 *) VARDATA_ANY(hdr), out);
	if (why == NULL && out->layout != BLOOM_LAYOUT_CLASSIC && out->layout != BLOOM_LAYOUT_BLOCKED)
		why = "the header's layout is neither classic nor blocked";
	if (why != NULL)
		bloom_index_corrupt(index, "The header row is not a filter header: %s.", why);
}

/* ---- the parameters every filter of an index shares ----------------------- */

/* The header of f as the index stores it: parameters only, no items or flags. */
bytea *
bloom_index_header_bytea(const BloomFilter *f)
{
	bytea	   *out = palloc(VARHDRSZ + BLOOM_WIRE_HEADER_SIZE);
	BloomFilter h;

	memcpy(&h, f, BLOOM_HEADER_SIZE);
	h.nitems = 0;
	h.flags = 0;
	SET_VARSIZE(out, VARHDRSZ + BLOOM_WIRE_HEADER_SIZE);
	bloom_wire_encode_header(&h, (uint8 *) VARDATA(out));
	return out;
}

/* Stripe rows of a segment: groups of 256 bits of a filter of nbits. */
int64
bloom_index_groups(uint64 nbits)
{
	return (int64) ((nbits + BLOOM_INDEX_STRIPE_BITS - 1) / BLOOM_INDEX_STRIPE_BITS);
}

/*
 * Check that f has the index's parameters (hdr; a filter nothing was added
 * to fits any element family), and let hdr adopt f's element family if it
 * has none yet.  22023 naming the parameter that differs.
 */
void
bloom_index_admit(BloomFilter *hdr, const BloomFilter *f)
{
	char		detail[256];

	if (f->layout != BLOOM_LAYOUT_CLASSIC && f->layout != BLOOM_LAYOUT_BLOCKED)
		elog(ERROR, "bloom value of layout %d", f->layout);
	/* sizes first: the generic check speaks of folding, which needs none */
	if (f->layout == hdr->layout && f->nbits != hdr->nbits)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the filter's parameters differ from the bloom index's"),
				 errdetail("The sizes differ (%llu bits in the index, %llu in the filter).",
						   (unsigned long long) hdr->nbits, (unsigned long long) f->nbits),
				 errhint("Every filter of an index must have the same layout, size, hashes, seed, scheme, element type and collation.")));
	if (!bloom_check_compatible(hdr, f, detail, sizeof(detail)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the filter's parameters differ from the bloom index's"),
				 errdetail("%s", detail),
				 errhint("Every filter of an index must have the same layout, size, hashes, seed, scheme, element type and collation.")));
	if (hdr->family[0] == '\0' && f->family[0] != '\0')
	{
		memcpy(hdr->family, f->family, BLOOM_FAMILY_LEN);
		hdr->collfp = f->collfp;
	}
}

/* ---- writing ------------------------------------------------------------- */

/*
 * Replace, in stripe blk (2048 bytes at o), the columns of slots[0 .. n)
 * (each 0 .. 63, distinct) by group blk of the filters f (the same order;
 * NULL: zeros).  The filters were admitted: they have the index's size.
 */
void
bloom_index_put_slots(uint8 *o, int64 blk, int n, const int *slots, BloomFilter *const *f)
{
	uint64		a[BLOOM_INDEX_SLOTS];

	for (int i = 0; i < n; i++)
		if (slots[i] < 0 || slots[i] >= BLOOM_INDEX_SLOTS)
			elog(ERROR, "bloom index slot %d out of range", slots[i]);
	for (int q = 0; q < BLOOM_INDEX_STRIPE_WORDS; q++)
	{
		for (int i = 0; i < 64; i++)
			a[i] = bloom_index_get64(o + 8 * (64 * q + i));
		bloom_index_transpose64(a); /* a[j]: slot j's word */
		for (int i = 0; i < n; i++)
			a[slots[i]] = bloom_index_filter_word(f[i], blk, q);
		bloom_index_transpose64(a);
		for (int i = 0; i < 64; i++)
			bloom_index_put64(o + 8 * (64 * q + i), a[i]);
	}
}

/*
 * The build's state: the cursor of (id, filter) rows (ordered by id), the
 * filters of the current group of segments, and where the output is.
 */
struct BloomIndexBuild
{
	Portal		source;			/* (id int8, filter bloom), ordered by id */
	bool		has_hdr;
	bool		has_last;		/* last_id is set */
	int64		last_id;		/* ids must increase */
	int32		first_seg;		/* of the current group */
	int			group_segs;		/* segments per group, set by the first filter */
	MemoryContext groupcxt;		/* the current group's filters */
	int			n;				/* filters in the group */
	int			cap;			/* room in ids */
	int64	   *ids;
	uint8	  **segbits;		/* per segment of the group: its stripes */
	MemoryContext bufcxt;		/* the stripe buffers, reused group after group */
	uint8	  **segbuf;
	int			nsegbuf;
	int			npending;		/* filters read, not transposed yet */
	BloomFilter *pending[BLOOM_INDEX_SLOTS];
	bool		done;			/* the cursor is exhausted */
	int64		ngroups;		/* stripes per segment */
	/* output position within the group */
	int64		out_blk;		/* -1: slot maps; ngroups: the group is done */
	int			out_seg;		/* segment of the group */
	BloomFilter hdr;			/* parameters so far (valid when has_hdr); last:
								 * its words[] are not used */
};

/* Segments whose filters fit maintenance_work_mem (at least one). */
static int
bloom_index_group_segs(uint64 nbits)
{
	double		seg_bytes = (double) BLOOM_INDEX_SLOTS * (double) BLOOM_TOTAL_SIZE(nbits);
	double		budget = (double) maintenance_work_mem * 1024.0;

	return (int) Max(1.0, Min(budget / seg_bytes, 1024.0));
}

/*
 * Transpose the pending filters (the group's last segment) into the
 * segment's stripes, and free them.  Segment by segment, so the 64 filters
 * read stay in the CPU's caches; the rows are then emitted block-major
 * from these buffers.
 */
static void
bloom_index_flush(BloomIndexBuild *b)
{
	int			seg = (b->n - 1) / BLOOM_INDEX_SLOTS;
	uint8	   *out;

	if (b->npending == 0)
		return;
	if (seg >= b->nsegbuf)
	{
		int			n = Max(seg + 1, 2 * b->nsegbuf);

		b->segbuf = b->segbuf ? repalloc(b->segbuf, sizeof(uint8 *) * n)
			: MemoryContextAlloc(b->bufcxt, sizeof(uint8 *) * n);
		for (int i = b->nsegbuf; i < n; i++)
			b->segbuf[i] = NULL;
		b->nsegbuf = n;
	}
	if (b->segbuf[seg] == NULL)		/* every segment has ngroups stripes */
		b->segbuf[seg] = MemoryContextAllocHuge(b->bufcxt, (Size) b->ngroups * BLOOM_INDEX_STRIPE_BYTES);
	out = b->segbuf[seg];
	for (int64 blk = 0; blk < b->ngroups; blk++)
	{
		if (blk % BLOOM_INDEX_POLL_STRIPES == 0)
			CHECK_FOR_INTERRUPTS();
		bloom_index_stripe(b->pending, b->npending, blk, out + blk * BLOOM_INDEX_STRIPE_BYTES);
	}
	for (int j = 0; j < b->npending; j++)
		pfree(b->pending[j]);
	b->npending = 0;
	b->segbits[seg] = out;
}

/* Admit one (id, filter) row of the cursor into the group. */
static void
bloom_index_take(BloomIndexBuild *b, HeapTuple tup, TupleDesc desc)
{
	bool		isnull;
	Datum		id = SPI_getbinval(tup, desc, 1, &isnull);
	Datum		fd;
	BloomFilter *f;
	MemoryContext old;

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a bloom index cannot hold a NULL id")));
	if (b->has_last && DatumGetInt64(id) <= b->last_id)
		ereport(ERROR,
				(errcode(ERRCODE_UNIQUE_VIOLATION),
				 errmsg("duplicate id %lld for a bloom index", (long long) DatumGetInt64(id)),
				 errdetail("Every filter of an index has an id of its own.")));
	fd = SPI_getbinval(tup, desc, 2, &isnull);
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a bloom index cannot hold a NULL filter"),
				 errdetail("The filter of id %lld is NULL.", (long long) DatumGetInt64(id))));
	old = MemoryContextSwitchTo(b->groupcxt);
	f = bloom_from_datum_kind(fd, BLOOM_KIND_PLAIN);	/* detoasted here */
	if ((Pointer) f == DatumGetPointer(fd))
		f = bloom_copy(f);		/* in line in the fetched tuple */
	if (b->n == b->cap)
	{
		b->cap = Max(2 * b->cap, BLOOM_INDEX_SLOTS);
		b->ids = b->ids ? repalloc(b->ids, sizeof(int64) * b->cap) : palloc(sizeof(int64) * b->cap);
		b->segbits = b->segbits ? repalloc(b->segbits, sizeof(uint8 *) * (b->cap / BLOOM_INDEX_SLOTS))
			: palloc(sizeof(uint8 *) * (b->cap / BLOOM_INDEX_SLOTS));
	}
	MemoryContextSwitchTo(old);
	if (!b->has_hdr)
	{
		memcpy(&b->hdr, f, BLOOM_HEADER_SIZE);
		b->has_hdr = true;
		b->group_segs = bloom_index_group_segs(f->nbits);
		b->ngroups = bloom_index_groups(f->nbits);
	}
	bloom_index_admit(&b->hdr, f);
	b->ids[b->n++] = DatumGetInt64(id);
	b->pending[b->npending++] = f;
	b->has_last = true;
	b->last_id = DatumGetInt64(id);
	if (b->npending == BLOOM_INDEX_SLOTS)
		bloom_index_flush(b);
}

/*
 * Read the next group of filters from the cursor (as many segments as
 * fit); false when there is none.  The caller is connected to SPI.
 */
static bool
bloom_index_fill(BloomIndexBuild *b)
{
	MemoryContextReset(b->groupcxt);
	b->first_seg += (b->n + BLOOM_INDEX_SLOTS - 1) / BLOOM_INDEX_SLOTS;
	b->n = 0;
	b->cap = 0;
	b->ids = NULL;
	b->segbits = NULL;
	b->npending = 0;
	if (b->done)
		return false;
	while (b->group_segs == 0 || b->n < b->group_segs * BLOOM_INDEX_SLOTS)
	{
		int			want = BLOOM_INDEX_FETCH;

		if (b->group_segs > 0)
			want = Min(want, b->group_segs * BLOOM_INDEX_SLOTS - b->n);
		SPI_cursor_fetch(b->source, true, want);
		if (SPI_processed == 0)
		{
			b->done = true;
			break;
		}
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			CHECK_FOR_INTERRUPTS();
			bloom_index_take(b, SPI_tuptable->vals[i], SPI_tuptable->tupdesc);
		}
		SPI_freetuptable(SPI_tuptable);
	}
	bloom_index_flush(b);
	b->out_blk = 0;
	b->out_seg = 0;
	return b->n > 0;
}

/* The slot map of segment seg of the group, as an int8[64]. */
static ArrayType *
bloom_index_map_of(BloomIndexBuild *b, int seg)
{
	Datum		v[BLOOM_INDEX_SLOTS];
	bool		nulls[BLOOM_INDEX_SLOTS];
	int			dims[1] = {BLOOM_INDEX_SLOTS};
	int			lbs[1] = {1};

	for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
	{
		int			i = seg * BLOOM_INDEX_SLOTS + j;

		nulls[j] = i >= b->n;
		v[j] = nulls[j] ? (Datum) 0 : Int64GetDatum(b->ids[i]);
	}
	return construct_md_array(v, nulls, 1, dims, lbs, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

/*
 * The next row of the build (seg, blk and either ids or bits); false at
 * the end.  Per group: stripes block-major (every segment's stripe 0, then
 * 1, ...), then the slot maps.  The header is the caller's to write
 * (bloom_index_build_header), once the last row is out.
 */
bool
bloom_index_build_next(BloomIndexBuild *b, int32 *seg, int32 *blk,
					   ArrayType **ids, bytea **bits)
{
	int			nsegs = (b->n + BLOOM_INDEX_SLOTS - 1) / BLOOM_INDEX_SLOTS;

	CHECK_FOR_INTERRUPTS();
	if (b->n == 0 || b->out_blk > b->ngroups)
	{
		if (!bloom_index_fill(b))
			return false;
		nsegs = (b->n + BLOOM_INDEX_SLOTS - 1) / BLOOM_INDEX_SLOTS;
	}
	*seg = b->first_seg + b->out_seg;
	*ids = NULL;
	*bits = NULL;
	if (b->out_blk < b->ngroups)
	{
		*bits = palloc(VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
		SET_VARSIZE(*bits, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
		memcpy(VARDATA(*bits), b->segbits[b->out_seg] + b->out_blk * BLOOM_INDEX_STRIPE_BYTES,
			   BLOOM_INDEX_STRIPE_BYTES);
		*blk = (int32) b->out_blk;
	}
	else
	{
		*blk = -1;
		*ids = bloom_index_map_of(b, b->out_seg);
	}
	if (++b->out_seg == nsegs)
	{
		b->out_seg = 0;
		b->out_blk++;			/* ngroups: the slot maps; past it: the next group */
	}
	return true;
}

/*
 * Start a build reading (id, filter) rows, ordered by id, from the cursor
 * source (the caller stays connected to SPI while it reads), into segments
 * first_seg, first_seg + 1, ...; hdr: the index's parameters (NULL: none
 * yet, the first filter's); every id must exceed last_id when has_last.
 */
BloomIndexBuild *
bloom_index_build_begin(Portal source, const BloomFilter *hdr, int32 first_seg,
						bool has_last, int64 last_id)
{
	BloomIndexBuild *b = palloc0(sizeof(BloomIndexBuild));

	b->source = source;
	if (hdr != NULL)
	{
		memcpy(&b->hdr, hdr, BLOOM_HEADER_SIZE);
		b->has_hdr = true;
		b->group_segs = bloom_index_group_segs(b->hdr.nbits);
		b->ngroups = bloom_index_groups(b->hdr.nbits);
	}
	b->first_seg = first_seg;
	b->has_last = has_last;
	b->last_id = last_id;
	b->groupcxt = AllocSetContextCreate(CurrentMemoryContext,
										"bloom index build group",
										ALLOCSET_DEFAULT_SIZES);
	b->bufcxt = AllocSetContextCreate(CurrentMemoryContext,
									  "bloom index build stripes",
									  ALLOCSET_DEFAULT_SIZES);
	return b;
}

/* Read the rest of the rows from source (the same cursor, found again). */
void
bloom_index_build_source(BloomIndexBuild *b, Portal source)
{
	b->source = source;
}

/* The parameters of the filters read (false: none read, and none given). */
bool
bloom_index_build_header(BloomIndexBuild *b, BloomFilter *hdr)
{
	if (b->has_hdr)
		memcpy(hdr, &b->hdr, BLOOM_HEADER_SIZE);
	return b->has_hdr;
}
