/*-------------------------------------------------------------------------
 *
 * bloom_index.c
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
 * A lookup is one statement: the probe's stripes of every segment, then
 * the slot maps of the segments with a match.  A probe whose positions lie
 * in one stripe (one key of a blocked index) is answered row by row
 * (bloom_index_match_stripe); otherwise the aggregate bloom_index_match
 * ANDs each key's positions over its stripes and ORs the keys, per
 * segment (the classic layout's k positions fall in up to k stripes).
 * Segments are numbered from 0 and never dropped, so the lookup checks
 * that as many segments answered as the index has: a missing stripe or
 * slot map is data_corrupted, never filters silently left out.
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

 * This file holds the bit work (transposition, positions of keys, the AND
 * of stripes, the slot map) and the build's row source; the DDL and the
 * queries are PL/pgSQL in the extension script, so lookups run as one SQL
 * statement under the caller's snapshot.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_cache.h"
#include "core/bloom_codec.h"
#include "bloom_datum.h"
#include "bloom_hash.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* filters per segment: one uint64 per position holds a bit of each */
#define BLOOM_INDEX_SLOTS		64
/* positions per stripe row: one block of the blocked layout */
#define BLOOM_INDEX_STRIPE_BITS	256
#define BLOOM_INDEX_STRIPE_WORDS (BLOOM_INDEX_STRIPE_BITS / 64)
#define BLOOM_INDEX_STRIPE_BYTES (BLOOM_INDEX_STRIPE_BITS * BLOOM_INDEX_SLOTS / 8)
/* stripes transposed between interrupt checks (256 kB of output) */
#define BLOOM_INDEX_POLL_STRIPES	128
/* rows the build fetches from its cursor at a time */
#define BLOOM_INDEX_FETCH		64

/* The little-endian uint64 at p. */
static inline uint64
bloom_index_get64(const uint8 *p)
{
	uint64		v = 0;

#ifndef WORDS_BIGENDIAN
	memcpy(&v, p, sizeof(v));
#else
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
#endif
	return v;
}

/* Store v at p, little-endian. */
static inline void
bloom_index_put64(uint8 *p, uint64 v)
{
#ifndef WORDS_BIGENDIAN
	memcpy(p, &v, sizeof(v));
#else
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8) v;
#endif
}

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

/* ---- validation of stored rows ------------------------------------------- */

/* Raise data_corrupted for a bad row of a filter index. */
static void
bloom_index_corrupt(const char *why)
{
	bloom_raise(ERRCODE_DATA_CORRUPTED, "invalid bloom index row", why);
}

/* The stripe bytes of a stored stripe, checked. */
static const uint8 *
bloom_index_stripe_bytes(bytea *bits)
{
	if (VARSIZE_ANY_EXHDR(bits) != BLOOM_INDEX_STRIPE_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid bloom index row"),
				 errdetail("A stripe must be %d bytes, not %zu.",
						   BLOOM_INDEX_STRIPE_BYTES, (size_t) VARSIZE_ANY_EXHDR(bits))));
	return (const uint8 *) VARDATA_ANY(bits);
}

/*
 * The slot map ids as 64 datums and null flags (slot j: element j), checked:
 * a one-dimensional int8 array of 64 elements.
 */
static void
bloom_index_slot_map(ArrayType *ids, Datum **values, bool **nulls)
{
	int			n;

	if (ARR_NDIM(ids) != 1 || ARR_ELEMTYPE(ids) != INT8OID ||
		ARR_DIMS(ids)[0] != BLOOM_INDEX_SLOTS || ARR_LBOUND(ids)[0] != 1)
		bloom_index_corrupt("a slot map must be a one-dimensional bigint array of 64 elements");
	deconstruct_array(ids, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  values, nulls, &n);
}

/*
 * The index header stored as bytea hdr (bloomset's binary header), checked
 * as every filter header is, and of a layout the index stores.
 */
static void
bloom_index_header_of(bytea *hdr, BloomFilter *out)
{
	const char *why;

	if (VARSIZE_ANY_EXHDR(hdr) != BLOOM_WIRE_HEADER_SIZE)
		bloom_index_corrupt("the header row must hold a 68-byte filter header");
	why = bloom_wire_decode_fields((const uint8 *) VARDATA_ANY(hdr), out);
	if (why == NULL && out->layout != BLOOM_LAYOUT_CLASSIC && out->layout != BLOOM_LAYOUT_BLOCKED)
		why = "the header's layout is neither classic nor blocked";
	if (why != NULL)
		bloom_index_corrupt(why);
}

/* The header of f as the index stores it: parameters only, no items or flags. */
static bytea *
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
static int64
bloom_index_groups(uint64 nbits)
{
	return (int64) ((nbits + BLOOM_INDEX_STRIPE_BITS - 1) / BLOOM_INDEX_STRIPE_BITS);
}

/*
 * Check that f has the index's parameters (hdr; a filter nothing was added
 * to fits any element family), and let hdr adopt f's element family if it
 * has none yet.  22023 naming the parameter that differs.
 */
static void
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

/*
 * bloom_index_check(header bytea, filter bloom) -> bytea: the index header
 * after admitting filter (its own header when the index has none yet).
 */
PG_FUNCTION_INFO_V1(bloom_index_check);
Datum
bloom_index_check(PG_FUNCTION_ARGS)
{
	BloomFilter *f;
	BloomFilter hdr;

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("a bloom index cannot hold a NULL filter")));
	f = PG_GETARG_BLOOM_P(1);
	if (PG_ARGISNULL(0))
		PG_RETURN_BYTEA_P(bloom_index_header_bytea(f));
	bloom_index_header_of(PG_GETARG_BYTEA_PP(0), &hdr);
	bloom_index_admit(&hdr, f);
	PG_RETURN_BYTEA_P(bloom_index_header_bytea(&hdr));
}

/*
 * bloom_index_header(header bytea) -> record: the index's parameters
 * (layout, nbits, nhashes, seed, scheme, element_family, stripes per
 * segment).
 */
PG_FUNCTION_INFO_V1(bloom_index_header);
Datum
bloom_index_header(PG_FUNCTION_ARGS)
{
	BloomFilter hdr;
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {0};

	bloom_index_header_of(PG_GETARG_BYTEA_PP(0), &hdr);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = CStringGetTextDatum(bloom_layout_name(hdr.layout));
	values[1] = Int64GetDatum((int64) hdr.nbits);
	values[2] = Int32GetDatum(hdr.nhashes);
	values[3] = Int64GetDatum((int64) hdr.seed);
	values[4] = Int32GetDatum(hdr.scheme);
	values[5] = CStringGetTextDatum(hdr.family);
	values[6] = Int32GetDatum((int32) bloom_index_groups(hdr.nbits));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/* ---- writing ------------------------------------------------------------- */

/*
 * bloom_index_put(stripe bytea, blk int4, slots int4[], filters bloom[])
 * -> bytea: stripe blk (NULL: all zeros) with the columns of slots (0 .. 63)
 * replaced by group blk of the filters (the same order).  The filters'
 * parameters were admitted by the caller; their sizes are checked here.
 */
PG_FUNCTION_INFO_V1(bloom_index_put);
Datum
bloom_index_put(PG_FUNCTION_ARGS)
{
	int32		blk = PG_GETARG_INT32(1);
	ArrayType  *slots = PG_GETARG_ARRAYTYPE_P(2);
	ArrayType  *filters = PG_GETARG_ARRAYTYPE_P(3);
	int32	   *slot = (int32 *) ARR_DATA_PTR(slots);
	int			n = ArrayGetNItems(ARR_NDIM(slots), ARR_DIMS(slots));
	Datum	   *fv;
	bool	   *fnull;
	int			nf;
	BloomFilter **f;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	uint64		a[BLOOM_INDEX_SLOTS];
	bytea	   *out = palloc0(VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
	uint8	   *o = (uint8 *) VARDATA(out);

	SET_VARSIZE(out, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
	if (!PG_ARGISNULL(0))
		memcpy(o, bloom_index_stripe_bytes(PG_GETARG_BYTEA_PP(0)), BLOOM_INDEX_STRIPE_BYTES);
	get_typlenbyvalalign(ARR_ELEMTYPE(filters), &typlen, &typbyval, &typalign);
	deconstruct_array(filters, ARR_ELEMTYPE(filters), typlen, typbyval, typalign,
					  &fv, &fnull, &nf);
	if (ARR_ELEMTYPE(slots) != INT4OID || ARR_HASNULL(slots) || nf != n)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom_index_put needs one slot number for each filter")));
	f = palloc(sizeof(BloomFilter *) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		f[i] = fnull[i] ? NULL : bloom_from_datum_kind(fv[i], BLOOM_KIND_PLAIN);
		if (slot[i] < 0 || slot[i] >= BLOOM_INDEX_SLOTS || blk < 0 ||
			(f[i] != NULL && blk >= bloom_index_groups(f[i]->nbits)))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("slot %d or stripe %d is out of range for a bloom index segment", slot[i], blk),
					 errdetail("Slots are 0 .. 63; stripes 0 .. one less than the filter's bits / 256.")));
	}
	for (int q = 0; q < BLOOM_INDEX_STRIPE_WORDS; q++)
	{
		for (int i = 0; i < 64; i++)
			a[i] = bloom_index_get64(o + 8 * (64 * q + i));
		bloom_index_transpose64(a);	/* a[j]: slot j's word */
		for (int i = 0; i < n; i++)
			a[slot[i]] = bloom_index_filter_word(f[i], blk, q);
		bloom_index_transpose64(a);
		for (int i = 0; i < 64; i++)
			bloom_index_put64(o + 8 * (64 * q + i), a[i]);
	}
	PG_RETURN_BYTEA_P(out);
}

/*
 * The build's state: the cursor of (id, filter) rows (ordered by id), the
 * filters of the current group of segments, and where the output is.
 */
typedef struct BloomIndexBuild
{
	char	   *cursor;
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
	bool		hdr_emitted;
	BloomFilter hdr;			/* parameters so far (valid when has_hdr); last:
								 * its words[] are not used */
} BloomIndexBuild;

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
 * fit); false when there is none.
 */
static bool
bloom_index_fill(BloomIndexBuild *b)
{
	Portal		portal;

	MemoryContextReset(b->groupcxt);
	b->first_seg += (b->n + BLOOM_INDEX_SLOTS - 1) / BLOOM_INDEX_SLOTS;
	b->n = 0;
	b->cap = 0;
	b->ids = NULL;
	b->segbits = NULL;
	b->npending = 0;
	if (b->done)
		return false;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	portal = SPI_cursor_find(b->cursor);
	if (portal == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_CURSOR),
				 errmsg("cursor \"%s\" does not exist", b->cursor)));
	while (b->group_segs == 0 || b->n < b->group_segs * BLOOM_INDEX_SLOTS)
	{
		int			want = BLOOM_INDEX_FETCH;

		if (b->group_segs > 0)
			want = Min(want, b->group_segs * BLOOM_INDEX_SLOTS - b->n);
		SPI_cursor_fetch(portal, true, want);
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
	SPI_finish();
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
 * The next row of the build into values/nulls (seg, blk, ids, bits); false
 * at the end.  Per group: stripes block-major (every segment's stripe 0,
 * then 1, ...), then the slot maps; after the last group, the header row.
 */
static bool
bloom_index_next_row(BloomIndexBuild *b, Datum *values, bool *nulls)
{
	int			nsegs = (b->n + BLOOM_INDEX_SLOTS - 1) / BLOOM_INDEX_SLOTS;

	if (b->n == 0 || b->out_blk > b->ngroups)
	{
		if (!bloom_index_fill(b))
		{
			if (b->hdr_emitted)
				return false;
			b->hdr_emitted = true;
			values[0] = Int32GetDatum(-1);
			values[1] = Int32GetDatum(-1);
			nulls[2] = true;
			nulls[3] = !b->has_hdr;
			if (b->has_hdr)
				values[3] = PointerGetDatum(bloom_index_header_bytea(&b->hdr));
			return true;
		}
		nsegs = (b->n + BLOOM_INDEX_SLOTS - 1) / BLOOM_INDEX_SLOTS;
	}
	values[0] = Int32GetDatum(b->first_seg + b->out_seg);
	if (b->out_blk < b->ngroups)
	{
		bytea	   *bits = palloc(VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);

		SET_VARSIZE(bits, VARHDRSZ + BLOOM_INDEX_STRIPE_BYTES);
		memcpy(VARDATA(bits), b->segbits[b->out_seg] + b->out_blk * BLOOM_INDEX_STRIPE_BYTES,
			   BLOOM_INDEX_STRIPE_BYTES);
		values[1] = Int32GetDatum((int32) b->out_blk);
		nulls[2] = true;
		values[3] = PointerGetDatum(bits);
	}
	else
	{
		values[1] = Int32GetDatum(-1);
		values[2] = PointerGetDatum(bloom_index_map_of(b, b->out_seg));
		nulls[3] = true;
	}
	if (++b->out_seg == nsegs)
	{
		b->out_seg = 0;
		b->out_blk++;			/* ngroups: the slot maps; past it: the next group */
	}
	return true;
}

/*
 * bloom_index_rows(cursor refcursor, header bytea, first_seg int4,
 * after_id int8) -> SETOF (seg, blk, ids, bits): the rows of an index
 * holding the cursor's (id, filter) rows (ordered by id, every id above
 * after_id) in segments first_seg, first_seg + 1, ...; the last row is the
 * header (seg -1, blk -1) after admitting them all.  Value per call, so
 * the rows stream into the INSERT that takes them.
 */
PG_FUNCTION_INFO_V1(bloom_index_rows);
Datum
bloom_index_rows(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	BloomIndexBuild *b;
	Datum		values[4];
	bool		nulls[4] = {0};

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	tupdesc;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
			elog(ERROR, "bloom_index_rows: cursor and first segment are required");
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		fctx->tuple_desc = BlessTupleDesc(tupdesc);
		b = palloc0(sizeof(BloomIndexBuild));
		b->cursor = text_to_cstring(PG_GETARG_TEXT_PP(0));
		if (!PG_ARGISNULL(1))
		{
			bloom_index_header_of(PG_GETARG_BYTEA_PP(1), &b->hdr);
			b->has_hdr = true;
			b->group_segs = bloom_index_group_segs(b->hdr.nbits);
			b->ngroups = bloom_index_groups(b->hdr.nbits);
		}
		b->first_seg = PG_GETARG_INT32(2);
		b->has_last = !PG_ARGISNULL(3);
		b->last_id = b->has_last ? PG_GETARG_INT64(3) : 0;
		b->groupcxt = AllocSetContextCreate(fctx->multi_call_memory_ctx,
											"bloom index build group",
											ALLOCSET_DEFAULT_SIZES);
		b->bufcxt = fctx->multi_call_memory_ctx;
		fctx->user_fctx = b;
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	b = (BloomIndexBuild *) fctx->user_fctx;
	CHECK_FOR_INTERRUPTS();
	if (!bloom_index_next_row(b, values, nulls))
		SRF_RETURN_DONE(fctx);
	SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc, values, nulls)));
}

/* ---- reading ------------------------------------------------------------- */

/*
 * The positions of a key's hash h under hdr into pos (room for
 * BLOOM_MAX_POSITIONS): blocked, the 8 bits of its block; classic, its k
 * bits.  Bit b of the bit array is bit b % 8 of byte b / 8 (bloom_core.h),
 * and word32 i of a block covers its bits 32 i .. 32 i + 31.
 */
static int
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

/* A probe: positions per key, then each key's positions. */
static ArrayType *
bloom_index_probe_array(const BloomFilter *hdr, const uint64 *h, int nkeys)
{
	int			k = hdr->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_WORDS32 : hdr->nhashes;
	Datum	   *v = palloc(sizeof(Datum) * (1 + (Size) nkeys * k));
	uint64		pos[BLOOM_MAX_POSITIONS];

	v[0] = Int64GetDatum(k);
	for (int i = 0; i < nkeys; i++)
	{
		if (bloom_index_positions(hdr, h[i], pos) != k)
			elog(ERROR, "bloom index probe: unexpected number of positions");
		for (int j = 0; j < k; j++)
			v[1 + i * k + j] = Int64GetDatum((int64) pos[j]);
	}
	return construct_array(v, 1 + nkeys * k, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
}

/*
 * bloom_index_probe(header bytea, key anycompatible) -> int8[]: the
 * probe of key (see bloom_index_probe_array) against the index whose
 * header is given; no key when no filter had an element added yet.  The
 * key is converted as bloom_contains converts it (bloom_call_value).
 */
PG_FUNCTION_INFO_V1(bloom_index_probe);
Datum
bloom_index_probe(PG_FUNCTION_ARGS)
{
	BloomFilter hdr;
	BloomTypeInfo *ti;
	Datum		value;
	uint64		h[BLOOM_KEY_MAX_HASHES];
	int			nh;

	bloom_index_header_of(PG_GETARG_BYTEA_PP(0), &hdr);
	if (hdr.family[0] == '\0')
		PG_RETURN_ARRAYTYPE_P(bloom_index_probe_array(&hdr, NULL, 0));
	ti = bloom_call_value(fcinfo, 1, hdr.family, &hdr.collfp, hdr.scheme, &value);
	/* a key of several hashes (bloom_key_hashes) matches where any does */
	nh = bloom_key_hashes(ti, value, hdr.seed, hdr.scheme, h);
	PG_RETURN_ARRAYTYPE_P(bloom_index_probe_array(&hdr, h, nh));
}

/*
 * bloom_index_probe_any(header bytea, keys anycompatiblearray) -> int8[]:
 * the probe of the array's non-null elements (converted as
 * bloom_contains_any converts them).
 */
PG_FUNCTION_INFO_V1(bloom_index_probe_any);
Datum
bloom_index_probe_any(PG_FUNCTION_ARGS)
{
	BloomFilter hdr;
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	BloomTypeInfo *ti;
	BloomConversion *conv;
	Datum	   *values;
	bool	   *nulls;
	int			n,
				nh = 0;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	uint64	   *h;

	bloom_index_header_of(PG_GETARG_BYTEA_PP(0), &hdr);
	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
					  &values, &nulls, &n);
	h = palloc(sizeof(uint64) * BLOOM_KEY_MAX_HASHES * Max(n, 1));
	if (hdr.family[0] != '\0')
	{
		conv = bloom_call_elements(fcinfo, ARR_ELEMTYPE(arr), hdr.family, &hdr.collfp, hdr.scheme,
								   false, &ti);
		for (int i = 0; i < n; i++)
			if (!nulls[i])
				nh += bloom_key_hashes(ti, conv ? bloom_convert(conv, values[i]) : values[i],
									   hdr.seed, hdr.scheme, h + nh);
	}
	PG_RETURN_ARRAYTYPE_P(bloom_index_probe_array(&hdr, h, nh));
}

/*
 * Check a probe (as bloom_index_probe returns it: positions per key, then
 * each key's positions, every one a bit number of a filter): its number of
 * elements.  Raises 22023 for anything else, so no position can address
 * outside a stripe.
 */
static int
bloom_index_probe_check(ArrayType *probe)
{
	int			n = ArrayGetNItems(ARR_NDIM(probe), ARR_DIMS(probe));
	int64	   *p = (int64 *) ARR_DATA_PTR(probe);
	bool		ok = ARR_ELEMTYPE(probe) == INT8OID && !ARR_HASNULL(probe) && n >= 1 &&
		p[0] >= 1 && p[0] <= BLOOM_MAX_POSITIONS && (n - 1) % p[0] == 0;

	for (int i = 1; ok && i < n; i++)
		ok = p[i] >= 0 && (uint64) p[i] < BLOOM_MAX_BITS;
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid bloom index probe"),
				 errdetail("A probe is the number of positions per key, then each key's positions, as bloom_index_probe returns it.")));
	return n;
}

/*
 * The state of bloom_index_match over one segment's stripes: per key the
 * AND of its positions' slot words seen so far, and which positions were
 * seen (every one must be, else a stripe row is missing).
 */
typedef struct BloomIndexMatch
{
	int			k;				/* positions per key */
	int			npos;			/* k * keys */
	int64	   *pos;
	uint64	   *and;			/* per key */
	bool	   *seen;			/* per position */
} BloomIndexMatch;

/* The match state for probe (allocated in cxt). */
static BloomIndexMatch *
bloom_index_match_init(MemoryContext cxt, ArrayType *probe)
{
	BloomIndexMatch *m = MemoryContextAllocZero(cxt, sizeof(BloomIndexMatch));
	int			n = bloom_index_probe_check(probe);
	int64	   *p = (int64 *) ARR_DATA_PTR(probe);

	m->k = (int) p[0];
	m->npos = n - 1;
	m->pos = MemoryContextAlloc(cxt, sizeof(int64) * Max(m->npos, 1));
	memcpy(m->pos, p + 1, sizeof(int64) * m->npos);
	m->and = MemoryContextAlloc(cxt, sizeof(uint64) * Max(m->npos / m->k, 1));
	for (int i = 0; i < m->npos / m->k; i++)
		m->and[i] = ~UINT64CONST(0);
	m->seen = MemoryContextAllocZero(cxt, Max(m->npos, 1));
	return m;
}

/*
 * bloom_index_match_trans(state, blk int4, stripe bytea, probe int8[]):
 * AND the slot words of stripe blk at the probe's positions into each key.
 */
PG_FUNCTION_INFO_V1(bloom_index_match_trans);
Datum
bloom_index_match_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt;
	BloomIndexMatch *m = PG_ARGISNULL(0) ? NULL : (BloomIndexMatch *) PG_GETARG_POINTER(0);
	const uint8 *s;
	int32		blk;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		elog(ERROR, "bloom_index_match_trans called in non-aggregate context");
	if (PG_ARGISNULL(3))
		PG_RETURN_POINTER(m);
	if (m == NULL)
		m = bloom_index_match_init(aggcxt, PG_GETARG_ARRAYTYPE_P(3));
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		bloom_index_corrupt("a stripe row has no block number or no bits");
	blk = PG_GETARG_INT32(1);
	s = bloom_index_stripe_bytes(PG_GETARG_BYTEA_PP(2));
	for (int i = 0; i < m->npos; i++)
	{
		if (m->pos[i] / BLOOM_INDEX_STRIPE_BITS != blk)
			continue;
		m->and[i / m->k] &= bloom_index_get64(s + 8 * (m->pos[i] % BLOOM_INDEX_STRIPE_BITS));
		m->seen[i] = true;
	}
	PG_RETURN_POINTER(m);
}

/*
 * bloom_index_match_final(state) -> int8: the slots (bit j: slot j) that
 * may hold any of the probe's keys.
 */
PG_FUNCTION_INFO_V1(bloom_index_match_final);
Datum
bloom_index_match_final(PG_FUNCTION_ARGS)
{
	BloomIndexMatch *m;
	uint64		any = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	m = (BloomIndexMatch *) PG_GETARG_POINTER(0);
	for (int i = 0; i < m->npos; i++)
		if (!m->seen[i])
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("invalid bloom index row"),
					 errdetail("A segment has no stripe for bits %lld .. %lld.",
							   (long long) (m->pos[i] / BLOOM_INDEX_STRIPE_BITS * BLOOM_INDEX_STRIPE_BITS),
							   (long long) (m->pos[i] / BLOOM_INDEX_STRIPE_BITS * BLOOM_INDEX_STRIPE_BITS + BLOOM_INDEX_STRIPE_BITS - 1))));
	for (int i = 0; i < m->npos / m->k; i++)
		any |= m->and[i];
	PG_RETURN_INT64((int64) any);
}

/*
 * bloom_index_match_stripe(blk int4, stripe bytea, probe int8[]) -> int8:
 * the slots that may hold any of the probe's keys whose positions all lie in
 * stripe blk (keys with positions elsewhere are left out).  For a probe
 * whose every position lies in one stripe -- one key of a blocked index --
 * this is the segment's answer without the aggregate's grouping.
 */
PG_FUNCTION_INFO_V1(bloom_index_match_stripe);
Datum
bloom_index_match_stripe(PG_FUNCTION_ARGS)
{
	int32		blk = PG_GETARG_INT32(0);
	const uint8 *s = bloom_index_stripe_bytes(PG_GETARG_BYTEA_PP(1));
	ArrayType  *probe = PG_GETARG_ARRAYTYPE_P(2);
	int			n = bloom_index_probe_check(probe);
	int64	   *p = (int64 *) ARR_DATA_PTR(probe);
	uint64		any = 0;

	for (int64 *key = p + 1; key < p + n; key += p[0])
	{
		uint64		and = ~UINT64CONST(0);

		for (int j = 0; j < p[0] && and != 0; j++)
		{
			if (key[j] / BLOOM_INDEX_STRIPE_BITS != blk)
			{
				and = 0;
				break;
			}
			and &= bloom_index_get64(s + 8 * (key[j] % BLOOM_INDEX_STRIPE_BITS));
		}
		any |= and;
	}
	PG_RETURN_INT64((int64) any);
}

/*
 * bloom_index_expect(found int8, expected int8) -> boolean: true, or
 * data_corrupted when a lookup found another number of segments than the
 * index has (a stripe row or a slot map missing, or one too many).
 */
PG_FUNCTION_INFO_V1(bloom_index_expect);
Datum
bloom_index_expect(PG_FUNCTION_ARGS)
{
	int64		found = PG_GETARG_INT64(0);
	int64		expected = PG_GETARG_INT64(1);

	if (found != expected)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid bloom index row"),
				 errdetail("The lookup found stripes of %lld segments; the index has %lld.",
						   (long long) found, (long long) expected)));
	PG_RETURN_BOOL(true);
}

/*
 * bloom_index_ids(slots int8, ids int8[]) -> int8[]: the ids of the slot
 * map ids at the set bits of slots (free slots skipped).
 */
PG_FUNCTION_INFO_V1(bloom_index_ids);
Datum
bloom_index_ids(PG_FUNCTION_ARGS)
{
	uint64		slots;
	Datum	   *v;
	bool	   *nulls;
	Datum		out[BLOOM_INDEX_SLOTS];
	int			n = 0;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	slots = (uint64) PG_GETARG_INT64(0);
	if (PG_ARGISNULL(1))
	{
		if (slots != 0)
			bloom_index_corrupt("a segment has stripes but no slot map");
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	}
	bloom_index_slot_map(PG_GETARG_ARRAYTYPE_P(1), &v, &nulls);
	for (int j = 0; j < BLOOM_INDEX_SLOTS; j++)
		if ((slots >> j) & 1 && !nulls[j])
			out[n++] = v[j];
	PG_RETURN_ARRAYTYPE_P(construct_array(out, n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
