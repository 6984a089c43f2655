/*-------------------------------------------------------------------------
 *
 * bloom_cache.c
 *	  The call-site cache: how probes read the filters they are given.
 *
 * A probe (bloom_contains, @>, the batch and substring probes) asks this
 * file for its filter argument; one struct per call site (fn_extra, in
 * fn_mcxt), created and filled only here, keeps what makes the next row
 * cheap.  What a probe costs depends on where the value is:
 *
 *  - In line (and not compressed): used in place.  A plan constant is
 *	  validated once and kept.
 *  - Compressed in line: decompressed once and kept (LRU entries, below).
 *  - Out of line uncompressed (STORAGE external, or data that did not
 *	  compress): read in slices.  The first probe of the value at this call
 *	  site reads its header (one TOAST chunk, detoast_attr_slice), validates
 *	  it exactly as a whole read would be validated against the stored length
 *	  (the TOAST pointer's extsize), and returns an image of the filter's
 *	  full size in a buffer the call site reuses, holding only the header;
 *	  the probe hashes its key(s) and bloom_call_parts() reads into the image
 *	  the bytes those hashes need (bloom_probe_positions: blocked, one
 *	  32-byte block per key; classic and counting, the k words holding its
 *	  bits or counters), the
 *	  ranges sorted by offset and grouped by TOAST chunk, or the whole value
 *	  when that reads fewer chunks.  The image is never faulted in beyond
 *	  the pages these reads touch.  Headers of values read in slices are
 *	  remembered (a direct-mapped memo keyed by the TOAST pointer), so later
 *	  probes of the value read only their parts; once a value's slices have
 *	  read 1/BLOOM_SLICE_CACHE_SHARE of its chunks, its next probe reads it
 *	  whole into the LRU cache, so joins and batches with many keys per
 *	  filter keep cache speed while a point lookup reads a few chunks per
 *	  filter and copies nothing whole.  Admission counts bytes read, not
 *	  probes: "probed before at this call site" cannot tell a join probing
 *	  the filter again for another row from one row probed several times
 *	  (f @> ANY (ARRAY[...]) calls the operator once per element at one
 *	  call site), and admitting on the second probe made a three-key lookup
 *	  read every filter whole.  A value larger than the cache's budget stays
 *	  sliced, its header read once.
 *  - Scalable filters stored so are read the same way: the outer header
 *	  and the sub-filters' headers (walked in slices to the end of each TOAST
 *	  chunk, so the small first sub-filters share reads), then per key each
 *	  sub-filter's part.
 *  - Out of line compressed (or a scalable value of 1.0's format, or one
 *	  nothing was added to): read whole; the first probe at a call site reads
 *	  it without keeping it, the second enters the LRU cache.
 *
 * bloomset.sliced_reads = off restores 1.1's behaviour (every stored value
 * read whole and kept from its first probe), for comparison.
 *
 * The LRU cache holds detoasted, validated filters keyed by what identifies
 * the stored value: its TOAST pointer or its compressed bytes; the plan
 * constant is kept beside it.  A key (of an entry or a memo slot) is stored
 * only after what it names was filled without error.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "common/hashfn.h"
#include "lib/ilist.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/memutils.h"

#include "../core/scalable_format.h"

/* 13 has the field itself; 14 added the accessor (and compression methods) */
#ifndef VARATT_EXTERNAL_GET_EXTSIZE
#define VARATT_EXTERNAL_GET_EXTSIZE(ptr)	((ptr).va_extsize)
#endif


/*
 * Budget of each call site's cache of stored filters, in kB (GUC
 * bloomset.probe_cache_size).  A query that probes many stored filters in
 * turn -- a join of incoming keys with per-chunk filters, say -- keeps the
 * most recently used ones detoasted here instead of fetching one from TOAST
 * (hundreds of 2 kB chunks for a filter of a megabyte) on every row.
 */
int			bloom_probe_cache_kb = 256 * 1024;

/* bloomset.sliced_reads: read stored filters in slices (off: 1.1's whole reads) */
bool		bloom_sliced_reads = true;

/* entries beyond this are evicted whatever the budget: lookups scan the list */
#define BLOOM_CACHE_MAX_ENTRIES		256

/* how the call site's values reach a cached filter */
#define BLOOM_PATH_UNCHECKED	0	/* not known yet */
#define BLOOM_PATH_DIRECT		1	/* same element family: hashed as they are */
#define BLOOM_PATH_CONVERT		2	/* converted by the call site's conversion */

/* One stored filter kept by a call site, keyed by what identifies it. */
typedef struct BloomCacheEntry
{
	dlist_node	lru;			/* in BloomCallCache.lru, most recent first */
	Oid			toastrelid;		/* key of a filter stored out of line */
	Oid			valueid;
	struct varlena *ckey;		/* key of a compressed in-line filter */
	uint32		khash;			/* hash of ckey */
	void	   *filter;			/* validated, of the cache's kind, in fn_mcxt */
	Size		size;
	uint8		path;			/* BLOOM_PATH_*: how values reach this filter */
	void	   *kind_memo;		/* the kind's memo of filter (bloom_call_memo) */
} BloomCacheEntry;

/*
 * A value read in slices becomes a cache entry once its slices have read
 * this share of its TOAST chunks (1/32: a filter of 1.3 MB, 650 chunks,
 * after about 20 probes at one call site; one of 64 kB on its second
 * probe).  A sliced chunk costs about two chunks of a whole read (an index
 * scan each), so the slices read before a value is kept cost at most about
 * a sixteenth of reading it once, and a lookup of a few keys per filter
 * never pays for a whole read.
 */
#define BLOOM_SLICE_CACHE_SHARE		32

/*
 * Slots of the memo of values read in slices (direct mapped by TOAST value
 * id; about 90 bytes each).  More than the LRU cache's entries, so a join
 * probing its filters in turn finds each one's header and slice count.
 */
#define BLOOM_MEMO_SLOTS			512

/*
 * Ranges at most this many chunks apart are read by one slice: the chunks
 * between cost less than another index scan.
 */
#define BLOOM_SLICE_GAP_CHUNKS		2

/* One value stored out of line, as this call site has read it so far. */
typedef struct BloomSliceMemo
{
	Oid			toastrelid;		/* key; valueid InvalidOid: empty */
	Oid			valueid;
	uint32		chunks;			/* TOAST chunks read from it here so far */
	bool		sliceable;		/* header read and valid, layout sliced */
	uint8		path;			/* BLOOM_PATH_*: how values reach it */
	/* when sliceable: the header (bloom's or, scalable, the outer one) */
	uint64		hdr[SCALABLE_HEADER_SIZE / sizeof(uint64)];
	/* scalable: its sub-filters' headers, at their offsets (fn_mcxt) */
	struct BloomSubHeader *subs;
} BloomSliceMemo;

/* A sub-filter's header and where it is in a scalable filter's image. */
typedef struct BloomSubHeader
{
	Size		off;
	uint64		hdr[BLOOM_HEADER_SIZE / sizeof(uint64)];
} BloomSubHeader;

StaticAssertDecl(SCALABLE_HEADER_SIZE >= BLOOM_HEADER_SIZE,
				 "the memo's header holds either kind's");

/*
 * What a call site keeps between rows (fn_extra, in fn_mcxt).  Written only
 * by the functions of this file.
 */
typedef struct BloomCallCache
{
	/* hash information of the value argument; valid when ti_valid */
	bool		ti_valid;
	BloomTypeInfo ti;

	BloomKind	kind;			/* of every cached filter (a call site has one) */

	/* stored filters, least recently used evicted past the budget */
	dlist_head	lru;
	int			nentries;
	Size		bytes;

	/* the conversion of values to the cached filters' element type */
	bool		conv_valid;
	BloomConversion conv;

	/* the plan constant: the argument itself or a copy (const_owned) */
	void	   *const_filter;
	bool		const_owned;
	uint8		const_path;
	void	   *const_memo;		/* the kind's memo of it (bloom_call_memo) */

	/* values read in slices (BLOOM_MEMO_SLOTS, allocated on first use) */
	BloomSliceMemo *memo;

	/*
	 * The image a sliced read returns: the filter's full size, reused from
	 * value to value, holding its header and the parts read.  sliced_attr
	 * and sliced_memo name the value between bloom_call_probe and
	 * bloom_call_parts of one call (NULL otherwise).
	 */
	char	   *image;
	Size		image_size;
	struct varlena *sliced_attr;
	BloomSliceMemo *sliced_memo;
} BloomCallCache;

/* The call site's cache, created empty on first use. */
static BloomCallCache *
bloom_cache_get(FunctionCallInfo fcinfo)
{
	if (unlikely(fcinfo->flinfo->fn_extra == NULL))
	{
		BloomCallCache *cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
													   sizeof(BloomCallCache));

		dlist_init(&cache->lru);
		fcinfo->flinfo->fn_extra = cache;
	}
	return (BloomCallCache *) fcinfo->flinfo->fn_extra;
}

/* Forget that any cached filter matched the value type (it changed). */
static void
bloom_cache_uncheck(BloomCallCache *cache)
{
	dlist_iter	it;

	dlist_foreach(it, &cache->lru)
		dlist_container(BloomCacheEntry, lru, it.cur)->path = BLOOM_PATH_UNCHECKED;
	cache->const_path = BLOOM_PATH_UNCHECKED;
	if (cache->memo != NULL)
		for (int i = 0; i < BLOOM_MEMO_SLOTS; i++)
			cache->memo[i].path = BLOOM_PATH_UNCHECKED;
}

/*
 * Hash information for values of typid under the call's collation, cached:
 * the single place that fills ti (argument and array-element types alike).
 */
static BloomTypeInfo *
bloom_cache_typeinfo(FunctionCallInfo fcinfo, Oid typid)
{
	BloomCallCache *cache = bloom_cache_get(fcinfo);
	Oid			collation = PG_GET_COLLATION();
	BloomTypeInfo ti;

	if (cache->ti_valid && cache->ti.typid == typid &&
		cache->ti.collation == collation)
		return &cache->ti;
	cache->ti_valid = false;
	bloom_cache_uncheck(cache);
	bloom_typeinfo_init(&ti, typid, collation, fcinfo->flinfo->fn_mcxt);
	cache->ti = ti;
	cache->ti_valid = true;		/* last: only a complete entry is valid */
	return &cache->ti;
}

/* Hash information for argument argno, cached per call site. */
BloomTypeInfo *
bloom_call_typeinfo(FunctionCallInfo fcinfo, int argno)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	Oid			typid;

	/* a call site's argument type never changes: skip the expression walk */
	if (likely(cache != NULL && cache->ti_valid &&
			   cache->ti.collation == PG_GET_COLLATION()))
		return &cache->ti;
	typid = get_fn_expr_argtype(fcinfo->flinfo, argno);
	if (!OidIsValid(typid))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine the data type of the value")));
	return bloom_cache_typeinfo(fcinfo, typid);
}

/* Hash information for array elements of type elemtype, cached per call site. */
BloomTypeInfo *
bloom_call_elem_typeinfo(FunctionCallInfo fcinfo, Oid elemtype)
{
	return bloom_cache_typeinfo(fcinfo, elemtype);
}

/* Is argument argnum of the call a plan constant (a Const node)? */
static bool
bloom_arg_is_const(FmgrInfo *flinfo, int argnum)
{
	Node	   *expr = flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argnum < list_length(args) && IsA(list_nth(args, argnum), Const);
}

/* Does entry e hold the filter of the stored datum attr (khash: of attr)? */
static inline bool
bloom_entry_matches(const BloomCacheEntry *e, const struct varlena *attr,
					const struct varatt_external *ptr, uint32 khash)
{
	if (ptr != NULL)
		return e->ckey == NULL && e->valueid == ptr->va_valueid &&
			e->toastrelid == ptr->va_toastrelid;
	return e->ckey != NULL && e->khash == khash &&
		VARSIZE_ANY(e->ckey) == VARSIZE_ANY(attr) &&
		memcmp(e->ckey, attr, VARSIZE_ANY(attr)) == 0;
}

/*
 * The entry holding the filter of datum attr (stored out of line or
 * compressed), moved to the front, or NULL.
 */
static BloomCacheEntry *
bloom_cache_find(BloomCallCache *cache, const struct varlena *attr)
{
	struct varatt_external ptr;
	uint32		khash = 0;
	dlist_iter	it;

	if (VARATT_IS_EXTERNAL_ONDISK(attr))
		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
	else
		khash = hash_bytes((const unsigned char *) attr, (int) VARSIZE_ANY(attr));
	dlist_foreach(it, &cache->lru)
	{
		BloomCacheEntry *e = dlist_container(BloomCacheEntry, lru, it.cur);

		if (bloom_entry_matches(e, attr, VARATT_IS_EXTERNAL_ONDISK(attr) ? &ptr : NULL,
								khash))
		{
			if (cache->lru.head.next != &e->lru)
				dlist_move_head(&cache->lru, &e->lru);
			return e;
		}
	}
	return NULL;
}

/* Drop the least recently used entry. */
static void
bloom_cache_evict(BloomCallCache *cache)
{
	BloomCacheEntry *e = dlist_container(BloomCacheEntry, lru,
										 dlist_tail_node(&cache->lru));

	dlist_delete(&e->lru);
	cache->nentries--;
	cache->bytes -= e->size;
	pfree(e->filter);
	if (e->ckey != NULL)
		pfree(e->ckey);
	if (e->kind_memo != NULL)
		pfree(e->kind_memo);
	pfree(e);
}

/* Forget the kind's memo of the plan constant (it is being replaced). */
static void
bloom_cache_forget_const_memo(BloomCallCache *cache)
{
	if (cache->const_memo != NULL)
		pfree(cache->const_memo);
	cache->const_memo = NULL;
}

/*
 * The cached filter of datum d of kind, or NULL; *path points at how
 * values reach it (BLOOM_PATH_*).
 */
static void *
bloom_cache_lookup(BloomCallCache *cache, Datum d, BloomKind kind, uint8 **path)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	BloomCacheEntry *e;

	if (cache == NULL || cache->kind != kind)
		return NULL;
	if (VARATT_IS_EXTERNAL_ONDISK(attr) || VARATT_IS_COMPRESSED(attr))
	{
		if (dlist_is_empty(&cache->lru) || (e = bloom_cache_find(cache, attr)) == NULL)
			return NULL;
		*path = &e->path;
		return e->filter;
	}
	if (cache->const_filter == NULL)
		return NULL;
	*path = &cache->const_path;
	return cache->const_filter;
}

/* Raw size of a stored (external or compressed) datum. */
static Size
bloom_stored_rawsize(const struct varlena *attr)
{
	if (VARATT_IS_EXTERNAL_ONDISK(attr))
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
		return (Size) ptr.va_rawsize;
	}
	return (Size) VARDATA_COMPRESSED_GET_EXTSIZE(attr) + VARHDRSZ;
}

/*
 * Keep the filter of the stored datum d (out of line or compressed) as the
 * most recent entry, evicting least recently used ones past the budget.
 * A filter larger than the whole budget is not kept: NULL.
 */
static void *
bloom_cache_add_stored(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
					   BloomKind kind, uint8 **path)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	Size		budget = (Size) bloom_probe_cache_kb * 1024;
	Size		size = bloom_stored_rawsize(attr);
	MemoryContext old;
	BloomCacheEntry *e;

	if (size > budget)
		return NULL;
	while (cache->nentries > 0 &&
		   (cache->bytes + size > budget || cache->nentries >= BLOOM_CACHE_MAX_ENTRIES))
		bloom_cache_evict(cache);
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	e = palloc0(sizeof(BloomCacheEntry));
	e->filter = bloom_from_datum_kind(d, kind);	/* detoasted here */
	e->size = size;
	if (VARATT_IS_EXTERNAL_ONDISK(attr))
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
		e->valueid = ptr.va_valueid;
		e->toastrelid = ptr.va_toastrelid;
	}
	else
	{
		e->ckey = palloc(VARSIZE_ANY(attr));
		memcpy(e->ckey, attr, VARSIZE_ANY(attr));
		e->khash = hash_bytes((const unsigned char *) attr, (int) VARSIZE_ANY(attr));
	}
	MemoryContextSwitchTo(old);
	/* the entry becomes findable last, complete */
	dlist_push_head(&cache->lru, &e->lru);
	cache->nentries++;
	cache->bytes += size;
	*path = &e->path;
	return e->filter;
}

/* Keep the Const argument d (validated once; copied unless plain in-line). */
static void *
bloom_cache_set_const(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
					  BloomKind kind, uint8 **path)
{
	void	   *f = bloom_from_datum_kind(d, kind);

	bloom_cache_forget_const_memo(cache);
	if (cache->const_owned)
		pfree(cache->const_filter);
	cache->const_filter = NULL;
	cache->const_owned = (Pointer) f != DatumGetPointer(d);
	if (cache->const_owned)
	{
		void	   *copy = bloom_copy_in(fcinfo->flinfo->fn_mcxt, f);

		pfree(f);
		f = copy;
	}
	cache->const_path = BLOOM_PATH_UNCHECKED;
	cache->const_filter = f;	/* last */
	*path = &cache->const_path;
	return f;
}
/* ---- sliced reads of values stored out of line ------------------------------ */

/* TOAST chunks of a value whose data (without the length word) is size bytes */
static inline uint32
bloom_chunks_of(Size size)
{
	return (uint32) ((size + TOAST_MAX_CHUNK_SIZE - 1) / TOAST_MAX_CHUNK_SIZE);
}

/* The memo slot of the value ptr points at (allocated on first use). */
static BloomSliceMemo *
bloom_memo_slot(FunctionCallInfo fcinfo, BloomCallCache *cache,
				const struct varatt_external *ptr)
{
	if (cache->memo == NULL)
		cache->memo = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
											 sizeof(BloomSliceMemo) * BLOOM_MEMO_SLOTS);
	return &cache->memo[hash_uint32(ptr->va_valueid ^ ptr->va_toastrelid) % BLOOM_MEMO_SLOTS];
}

/*
 * Bytes [off, off + len) of the data (after the length word) of the stored
 * value attr, into dst: one detoast_attr_slice.  A value shorter than its
 * TOAST pointer says is corrupt.
 */
static void
bloom_read_slice(struct varlena *attr, Size off, Size len, char *dst)
{
	struct varlena *s = detoast_attr_slice(attr, (int32) off, (int32) len);

	if (VARSIZE(s) - VARHDRSZ != len)
		bloom_raise(ERRCODE_DATA_CORRUPTED, "invalid bloom filter value",
					"the stored value is shorter than its TOAST pointer says");
	memcpy(dst, VARDATA(s), len);
	pfree(s);
}

/* The call site's image buffer, at least size bytes (contents undefined). */
static char *
bloom_image(FunctionCallInfo fcinfo, BloomCallCache *cache, Size size)
{
	if (cache->image_size < size)
	{
		if (cache->image != NULL)
			pfree(cache->image);
		cache->image = NULL;
		cache->image_size = 0;
		/* not zeroed: pages the reads do not touch are never faulted in */
		cache->image = MemoryContextAllocExtended(fcinfo->flinfo->fn_mcxt, size,
												  MCXT_ALLOC_HUGE);
		cache->image_size = size;
	}
	return cache->image;
}

/*
 * Read the headers of the sub-filters of the scalable value attr (stored
 * bytes with the length word) whose outer header is in img, into img at
 * their offsets and into m->subs: one slice to the end of the TOAST chunk
 * holding each header, so the small first sub-filters share reads.  The
 * walk follows the sizes the headers give and stops where they leave the
 * value; what it read is what scalable_check reads.  The chunks read.
 */
static uint32
bloom_read_sub_headers(BloomSliceMemo *m, struct varlena *attr, char *img,
					   Size stored, MemoryContext mcxt)
{
	const ScalableFilter *sf = (const ScalableFilter *) img;
	Size		off = SCALABLE_HEADER_SIZE;
	Size		have = 0;		/* img holds data bytes [.., have) read */
	uint32		chunks = 0;

	m->subs = MemoryContextAllocZero(mcxt, sizeof(BloomSubHeader) * SCALABLE_MAX_SUB);
	for (int i = 0; i < sf->nsub && i < SCALABLE_MAX_SUB; i++)
	{
		const BloomFilter *sub = (const BloomFilter *) (img + off);

		if (stored - off < BLOOM_HEADER_SIZE)
			break;
		if (off + BLOOM_HEADER_SIZE - VARHDRSZ > have)
		{
			Size		from = off - VARHDRSZ;
			Size		to = Min(((from + BLOOM_HEADER_SIZE - 1) / TOAST_MAX_CHUNK_SIZE + 1) * TOAST_MAX_CHUNK_SIZE,
								 stored - VARHDRSZ);

			bloom_read_slice(attr, from, to - from, img + off);
			have = to;
			chunks++;
		}
		m->subs[i].off = off;
		memcpy(m->subs[i].hdr, sub, BLOOM_HEADER_SIZE);
		if (sub->nbits > BLOOM_MAX_BITS || BLOOM_TOTAL_SIZE(sub->nbits) > stored - off)
			break;
		off += BLOOM_TOTAL_SIZE(sub->nbits);
	}
	return chunks;
}

/*
 * The header (and, scalable, the sub-filter headers) of the value attr of
 * kind, read in slices into img (size stored) and validated exactly as a
 * whole read validates the value (raises for a corrupt one); into m.
 * False, having read nothing more, for a value read whole: compressed, a
 * layout not sliced, a scalable value in 1.0's format or with nothing
 * added (its bits are checked too).
 */
static bool
bloom_memo_read(BloomSliceMemo *m, struct varlena *attr, char *img,
				Size stored, BloomKind kind, MemoryContext mcxt)
{
	const BloomKindOps *ops = bloom_kind_ops(kind);
	Size		hsize = ops->header_size;
	const BloomFilter *hdr = (const BloomFilter *) img;

	memset(img, 0, hsize);
	bloom_read_slice(attr, 0, Min(stored, hsize) - VARHDRSZ, img + VARHDRSZ);
	SET_VARSIZE(img, stored);
	m->chunks = 1;
	if (ops->has_subfilters)
	{
		const ScalableFilter *sf = (const ScalableFilter *) img;

		if (stored < hsize || sf->version != SCALABLE_FORMAT_VERSION ||
			sf->family[0] == '\0')
			return false;
		m->chunks += bloom_read_sub_headers(m, attr, img, stored, mcxt);
	}
	/* raises for a corrupt value, as a whole read would */
	bloom_check_stored_size(hdr, stored, kind);
	memcpy(m->hdr, img, hsize);
	return ops->probe_width != NULL;	/* the kind says where probes read */
}

/*
 * Fill memo slot m for the value (ptr, stored bytes with the length word)
 * attr of kind: its headers read in slices (into the call site's image)
 * and validated when it can be read in slices, else only counted as read.
 * Keys last.
 */
static void
bloom_memo_fill(FunctionCallInfo fcinfo, BloomCallCache *cache, BloomSliceMemo *m,
				struct varlena *attr, const struct varatt_external *ptr, Size stored,
				BloomKind kind)
{
	m->valueid = InvalidOid;
	m->sliceable = false;
	m->path = BLOOM_PATH_UNCHECKED;
	m->chunks = 0;
	if (m->subs != NULL)
		pfree(m->subs);
	m->subs = NULL;
	if (!VARATT_EXTERNAL_IS_COMPRESSED(*ptr))
		m->sliceable = bloom_memo_read(m, attr, bloom_image(fcinfo, cache, Max(stored, SCALABLE_HEADER_SIZE)),
									   stored, kind, fcinfo->flinfo->fn_mcxt);
	m->toastrelid = ptr->va_toastrelid;
	m->valueid = ptr->va_valueid;	/* last */
}

/*
 * The filter argument stored out of line as attr (d), not found in the
 * cache: kept whole once its slices have read their share of it (or on its
 * second probe when it is not read in slices), read whole without keeping
 * it on its first, or -- sliced, a sliced read of a sliceable value -- the
 * image holding its header, for bloom_call_parts to complete.
 */
static void *
bloom_read_ondisk(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
				  BloomKind kind, bool sliced, uint8 **path)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	struct varatt_external ptr;
	Size		stored;
	BloomSliceMemo *m;
	char	   *image;
	void	   *f;

	VARATT_EXTERNAL_GET_POINTER(ptr, attr);
	stored = (Size) VARATT_EXTERNAL_GET_EXTSIZE(ptr) + VARHDRSZ;
	m = bloom_memo_slot(fcinfo, cache, &ptr);
	if (m->valueid == ptr.va_valueid && m->toastrelid == ptr.va_toastrelid)
	{
		if ((uint64) m->chunks * BLOOM_SLICE_CACHE_SHARE >= bloom_chunks_of(stored - VARHDRSZ) &&
			(f = bloom_cache_add_stored(fcinfo, cache, d, kind, path)) != NULL)
			return f;
	}
	else
		bloom_memo_fill(fcinfo, cache, m, attr, &ptr, stored, kind);
	*path = &m->path;
	if (!sliced || !m->sliceable)
	{
		/* whole, not kept: the next probe of it here keeps it */
		m->chunks = PG_UINT32_MAX / BLOOM_SLICE_CACHE_SHARE;
		return bloom_from_datum_kind(d, kind);
	}
	image = bloom_image(fcinfo, cache, stored);
	memcpy(image, m->hdr, bloom_kind_ops(kind)->header_size);
	if (m->subs != NULL)
		for (int i = 0; i < ((ScalableFilter *) image)->nsub; i++)
			memcpy(image + m->subs[i].off, m->subs[i].hdr, BLOOM_HEADER_SIZE);
	cache->sliced_attr = attr;
	cache->sliced_memo = m;
	return image;
}

/* A byte range of a value's data, as the TOAST chunks first .. last. */
typedef struct BloomChunkRange
{
	uint32		first;
	uint32		last;
} BloomChunkRange;

/* qsort order of chunk ranges: by first chunk */
static int
bloom_range_cmp(const void *a, const void *b)
{
	uint32		x = ((const BloomChunkRange *) a)->first;
	uint32		y = ((const BloomChunkRange *) b)->first;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The kind of the sub-filter image sub, validated with its value: one that
 * says where its probes read (a can't-happen otherwise).
 */
static const BloomKindOps *
bloom_image_ops(const BloomFilter *sub)
{
	const BloomKindOps *ops = bloom_kind_of(sub);

	if (ops == NULL || ops->probe_span == NULL)
		elog(ERROR, "bloomset: a sub-filter of layout %d is not read in slices", sub->layout);
	return ops;
}

/*
 * The chunk ranges of the data bytes the hashes h[0 .. n) probe in the
 * filter without sub-filters whose header is hdr (of the kind ops), at byte
 * base of the image, into r; their number.  A position's bytes are the
 * kind's probe_span (the bytes its test may load).
 */
static int
bloom_filter_ranges(const BloomKindOps *ops, const BloomFilter *hdr, Size base,
					const uint64 *h, int n, BloomChunkRange *r)
{
	uint64		pos[BLOOM_MAX_POSITIONS];
	int			nr = 0;

	for (int i = 0; i < n; i++)
	{
		int			k = bloom_probe_positions(hdr, h[i], pos);

		for (int j = 0; j < k; j++)
		{
			Size		off,
						len;

			ops->probe_span(hdr, pos[j], &off, &len);
			off += base + BLOOM_HEADER_SIZE - VARHDRSZ;
			r[nr].first = (uint32) (off / TOAST_MAX_CHUNK_SIZE);
			r[nr].last = (uint32) ((off + len - 1) / TOAST_MAX_CHUNK_SIZE);
			nr++;
		}
	}
	return nr;
}

/*
 * The chunk ranges of the data bytes the hashes h[0 .. n) probe in the
 * filter image f of the kind ops (room for n times its probe_width): its
 * own, or, for a kind with sub-filters, its sub-filters' (their headers are
 * in the image; each is a bloom image of the kind its layout names).
 */
static int
bloom_parts_ranges(const BloomKindOps *ops, const BloomFilter *f, const uint64 *h, int n,
				   BloomChunkRange *r)
{
	const ScalableFilter *sf = (const ScalableFilter *) f;
	const BloomFilter *sub;
	int			nr = 0;

	if (!ops->has_subfilters)
		return bloom_filter_ranges(ops, f, 0, h, n, r);
	sub = scalable_first(sf);
	for (int i = 0; i < sf->nsub; i++, sub = scalable_next(sub))
		nr += bloom_filter_ranges(bloom_image_ops(sub), sub, (const char *) sub - (const char *) f,
								  h, n, r + nr);
	return nr;
}

/*
 * Sort ranges r[0 .. n) and merge those at most BLOOM_SLICE_GAP_CHUNKS
 * apart; the number of merged ranges, the chunks they read in *chunks.
 */
static int
bloom_merge_ranges(BloomChunkRange *r, int n, uint64 *chunks)
{
	int			out = 0;

	qsort(r, n, sizeof(BloomChunkRange), bloom_range_cmp);
	for (int i = 0; i < n; i++)
	{
		if (out > 0 && r[i].first <= r[out - 1].last + BLOOM_SLICE_GAP_CHUNKS + 1)
			r[out - 1].last = Max(r[out - 1].last, r[i].last);
		else
			r[out++] = r[i];
	}
	*chunks = 0;
	for (int i = 0; i < out; i++)
		*chunks += r[i].last - r[i].first + 1;
	return out;
}

/*
 * Complete the sliced image f of the value attr for the hashes h[0 .. n):
 * the chunks they need, in offset order, or the whole value (validated,
 * not kept) when that reads fewer chunks.  The filter to probe.
 */
static void *
bloom_read_parts(BloomCallCache *cache, struct varlena *attr, BloomSliceMemo *m,
				 BloomFilter *f, const uint64 *h, int n)
{
	const BloomKindOps *ops = bloom_kind_ops(cache->kind);
	Size		datasize = VARSIZE(f) - VARHDRSZ;
	uint32		total = bloom_chunks_of(datasize);
	int			width;
	BloomChunkRange *r;
	uint64		chunks;
	int			nr;

	if (n == 0)
		return f;
	width = ops->probe_width(f);
	if ((uint64) n * width >= total)
	{
		/* at least a position per chunk: the whole value reads no more */
		m->chunks = PG_UINT32_MAX / BLOOM_SLICE_CACHE_SHARE;
		return bloom_from_datum_kind(PointerGetDatum(attr), cache->kind);
	}
	r = palloc(sizeof(BloomChunkRange) * n * width);
	nr = bloom_merge_ranges(r, bloom_parts_ranges(ops, f, h, n, r), &chunks);
	if (chunks >= total)
	{
		pfree(r);
		m->chunks = PG_UINT32_MAX / BLOOM_SLICE_CACHE_SHARE;
		return bloom_from_datum_kind(PointerGetDatum(attr), cache->kind);
	}
	for (int i = 0; i < nr; i++)
	{
		Size		off = (Size) r[i].first * TOAST_MAX_CHUNK_SIZE;
		Size		end = Min((Size) (r[i].last + 1) * TOAST_MAX_CHUNK_SIZE, datasize);

		bloom_read_slice(attr, off, end - off, (char *) f + VARHDRSZ + off);
		CHECK_FOR_INTERRUPTS();	/* a batch may read many slices */
	}
	m->chunks = (uint32) Min((uint64) m->chunks + chunks, (uint64) PG_UINT32_MAX / BLOOM_SLICE_CACHE_SHARE);
	pfree(r);
	return f;
}

/*
 * The filter to probe for the hashes h[0 .. n) of the keys of this call,
 * given what bloom_call_probe or bloom_call_probe_filter returned: that
 * filter itself, or for a sliced read its image completed with the parts
 * these hashes need (or the whole value, when that reads less).  Every
 * probe calls this between hashing its keys and testing them.
 */
void *
bloom_call_parts(FunctionCallInfo fcinfo, void *f, const uint64 *h, int n)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	struct varlena *attr;

	if (cache == NULL || cache->sliced_attr == NULL || f != (void *) cache->image)
		return f;
	attr = cache->sliced_attr;
	cache->sliced_attr = NULL;
	return bloom_read_parts(cache, attr, cache->sliced_memo, (BloomFilter *) f, h, n);
}


/*
 * Does f, the filter a probe at this call site was just given (by
 * bloom_call_parts), stay valid and unchanged until the filter argument
 * changes?  True for the argument itself used in place, the kept plan
 * constant and the cached filter in use (nothing evicts it while the same
 * argument is probed); false for the reused image of a sliced read and for
 * a copy read without being kept (in the caller's memory context).  For
 * callers that test a hash after probing other rows (bloom_scan.c).
 */
bool
bloom_call_stable(FunctionCallInfo fcinfo, const void *f)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;

	if (f == (const void *) DatumGetPointer(PG_GETARG_DATUM(0)))
		return true;
	if (cache == NULL)
		return false;
	if (f == cache->const_filter)
		return true;
	return !dlist_is_empty(&cache->lru) &&
		f == dlist_head_element(BloomCacheEntry, lru, &cache->lru)->filter;
}

/*
 * Where a kind keeps what it derives once from f, the filter a probe at
 * this call site was just given (by bloom_call_parts), when f is one the
 * cache keeps unchanged -- the plan constant or the cached filter in use:
 * a slot holding NULL or the kind's memo (one palloc'd block in fn_mcxt,
 * freed with the filter, so a memo never outlives the filter it describes).
 * NULL for any other f (the caller derives what it needs per call).
 */
void	  **
bloom_call_memo(FunctionCallInfo fcinfo, const void *f)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	BloomCacheEntry *e;

	if (cache == NULL || f == NULL)
		return NULL;
	if (f == cache->const_filter)
		return &cache->const_memo;
	if (dlist_is_empty(&cache->lru))
		return NULL;
	e = dlist_head_element(BloomCacheEntry, lru, &cache->lru);
	return e->filter == f ? &e->kind_memo : NULL;
}

/*
 * The filter argument argno of kind, validated; *path points at how
 * values reach it (BLOOM_PATH_*), or at a scratch BLOOM_PATH_UNCHECKED for
 * a filter that is not cached.  Where the value is decides the read (see
 * the file header): cached filters cost a lookup, a plan constant is
 * validated once (a Const cannot change while the call site lives; a Param
 * can), in-line values are used in place, values stored out of line go
 * through bloom_read_ondisk (sliced: the caller completes a sliced image
 * with bloom_call_parts), compressed in-line ones are kept.
 */
static void *
bloom_call_filter_path(FunctionCallInfo fcinfo, int argno, BloomKind kind,
					   bool sliced, uint8 **path)
{
	static uint8 scratch;
	BloomCallCache *cache = bloom_cache_get(fcinfo);
	Datum		d = PG_GETARG_DATUM(argno);
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	void	   *f;

	cache->sliced_attr = NULL;
	if (cache->kind != kind)
	{
		while (cache->nentries > 0)
			bloom_cache_evict(cache);
		bloom_cache_forget_const_memo(cache);
		if (cache->const_owned)
			pfree(cache->const_filter);
		cache->const_filter = NULL;
		cache->const_owned = false;
		if (cache->memo != NULL)
		{
			for (int i = 0; i < BLOOM_MEMO_SLOTS; i++)
				if (cache->memo[i].subs != NULL)
					pfree(cache->memo[i].subs);
			memset(cache->memo, 0, sizeof(BloomSliceMemo) * BLOOM_MEMO_SLOTS);
		}
		cache->kind = kind;
	}
	if ((f = bloom_cache_lookup(cache, d, kind, path)) != NULL)
		return f;
	scratch = BLOOM_PATH_UNCHECKED;
	*path = &scratch;
	if (VARATT_IS_EXTERNAL_ONDISK(attr) && bloom_sliced_reads)
		return bloom_read_ondisk(fcinfo, cache, d, kind, sliced, path);
	if (VARATT_IS_EXTERNAL_ONDISK(attr) || VARATT_IS_COMPRESSED(attr))
	{
		if ((f = bloom_cache_add_stored(fcinfo, cache, d, kind, path)) != NULL)
			return f;
	}
	else if (bloom_arg_is_const(fcinfo->flinfo, argno))
		return bloom_cache_set_const(fcinfo, cache, d, kind, path);
	return bloom_from_datum_kind(d, kind);
}

/* The whole filter argument argno of kind, validated and cached (see above). */
void *
bloom_call_filter(FunctionCallInfo fcinfo, int argno, BloomKind kind)
{
	uint8	   *path;

	return bloom_call_filter_path(fcinfo, argno, kind, false, &path);
}

/*
 * The filter argument argno of kind for a probe: the filter, or a sliced
 * image holding only its header (family, seed, sizes) until
 * bloom_call_parts has read what the probe's hashes need.
 */
void *
bloom_call_probe_filter(FunctionCallInfo fcinfo, int argno, BloomKind kind)
{
	uint8	   *path;

	return bloom_call_filter_path(fcinfo, argno, kind, true, &path);
}

/* The element family, collation and scheme fields of a filter of kind. */
static void
bloom_element_fields(void *f, BloomKind kind, char **family, uint32 **collfp,
					 int *scheme)
{
	BloomElementFields e = bloom_kind_ops(kind)->fields(f);

	*family = e.family;
	*collfp = e.collfp;
	*scheme = e.scheme;
}

/*
 * How values described by ti reach a filter of family and *collfp: as they
 * are (BLOOM_PATH_DIRECT: same family, or a filter nothing was added to,
 * which adopts ti's family when adopt), or converted to the filter's own
 * element type (BLOOM_PATH_CONVERT: the call site's conversion, set up
 * here).  Anything else is an error: 42804 for a value that cannot be
 * converted, 42P21 for another collation.
 */
static uint8
bloom_value_path(FunctionCallInfo fcinfo, char *family, uint32 *collfp,
				 int scheme, const BloomTypeInfo *ti, bool adopt)
{
	BloomCallCache *cache = bloom_cache_get(fcinfo);
	BloomConversion cv;
	Oid			target;

	if (family[0] == '\0' || memcmp(family, bloom_ti_family(ti, family), BLOOM_FAMILY_LEN) == 0)
	{
		bloom_check_element_fields(family, collfp, ti, adopt);
		return BLOOM_PATH_DIRECT;
	}
	if (cache->conv_valid && cache->conv.from == ti->typid &&
		cache->conv.ti.collation == ti->collation &&
		memcmp(bloom_ti_family(&cache->conv.ti, family), family, BLOOM_FAMILY_LEN) == 0 &&
		cache->conv.ti.collfp == *collfp &&
		cache->conv.trim_asked == (scheme != BLOOM_SCHEME_PGEXT))
		return BLOOM_PATH_CONVERT;
	target = bloom_family_type(family);
	if (!OidIsValid(target) ||
		!bloom_conversion_init(&cv, ti->typid, target, ti->collation, scheme,
							   fcinfo->flinfo->fn_mcxt) ||
		memcmp(bloom_ti_family(&cv.ti, family), family, BLOOM_FAMILY_LEN) != 0)
	{
		bloom_check_element_fields(family, collfp, ti, false);	/* raises */
		elog(ERROR, "element family check passed after a mismatch");
	}
	bloom_check_element_fields(family, collfp, &cv.ti, false);	/* collation */
	/* another conversion replaces the call site's one: recheck the others */
	if (cache->conv_valid)
		bloom_cache_uncheck(cache);
	cache->conv_valid = false;
	cache->conv = cv;
	cache->conv_valid = true;	/* last */
	return BLOOM_PATH_CONVERT;
}

/*
 * The value argument argno for adding to a filter of kind whose element
 * fields are family and *collfp (a filter nothing was added to adopts the
 * value's family): *value becomes the value to hash -- converted to the
 * filter's own element type if it is of another (an untyped literal, a text
 * parameter, a type with an implicit cast to it) -- and the result is the
 * hash information to hash it with.
 */
BloomTypeInfo *
bloom_call_value(FunctionCallInfo fcinfo, int argno, char *family,
				 uint32 *collfp, int scheme, Datum *value)
{
	BloomTypeInfo *ti = bloom_call_typeinfo(fcinfo, argno);

	*value = PG_GETARG_DATUM(argno);
	if (bloom_value_path(fcinfo, family, collfp, scheme, ti, true) == BLOOM_PATH_DIRECT)
		return ti;
	*value = bloom_convert(&((BloomCallCache *) fcinfo->flinfo->fn_extra)->conv, *value);
	return &((BloomCallCache *) fcinfo->flinfo->fn_extra)->conv.ti;
}

/*
 * For the elements (of type elemtype) of an array argument given to a
 * filter whose element fields are family and *collfp: the conversion to
 * apply to each element, or NULL when they are hashed as they are, and in
 * *ti the hash information to hash them with -- the same rules as for one
 * value (bloom_call_value), so batch and scalar forms accept the same
 * values.
 */
BloomConversion *
bloom_call_elements(FunctionCallInfo fcinfo, Oid elemtype, char *family,
					uint32 *collfp, int scheme, bool adopt, BloomTypeInfo **ti)
{
	*ti = bloom_call_elem_typeinfo(fcinfo, elemtype);
	if (bloom_value_path(fcinfo, family, collfp, scheme, *ti, adopt) == BLOOM_PATH_DIRECT)
		return NULL;
	*ti = &((BloomCallCache *) fcinfo->flinfo->fn_extra)->conv.ti;
	return &((BloomCallCache *) fcinfo->flinfo->fn_extra)->conv;
}

/*
 * For probes f(filter, value): the filter (argument 0, as
 * bloom_call_probe_filter gives it: possibly a sliced image, which
 * bloom_call_parts completes once the value is hashed), with in *ti and
 * *value the hash information and the value to hash (argument 1, converted
 * to the filter's element type when it is of another: see
 * bloom_call_value).  The family check is done once per cached or
 * remembered filter; the common case of a WHERE clause -- the same
 * constant or stored filter row after row, or a few stored filters in
 * turn -- costs a lookup.
 */
void *
bloom_call_probe(FunctionCallInfo fcinfo, BloomKind kind, BloomTypeInfo **ti,
				 Datum *value)
{
	uint8	   *path;
	void	   *f = bloom_call_filter_path(fcinfo, 0, kind, true, &path);
	BloomCallCache *cache;

	*ti = bloom_call_typeinfo(fcinfo, 1);
	*value = PG_GETARG_DATUM(1);
	if (unlikely(*path == BLOOM_PATH_UNCHECKED))
	{
		char	   *family;
		uint32	   *collfp;
		int			scheme;

		bloom_element_fields(f, kind, &family, &collfp, &scheme);
		*path = bloom_value_path(fcinfo, family, collfp, scheme, *ti, false);
	}
	if (likely(*path == BLOOM_PATH_DIRECT))
		return f;
	cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	*ti = &cache->conv.ti;
	*value = bloom_convert(&cache->conv, *value);
	return f;
}
