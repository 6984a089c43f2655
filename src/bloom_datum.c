/*-------------------------------------------------------------------------
 *
 * bloom_datum.c
 *	  The datum layer: the one owner of filter memory and filter datums.
 *
 * Everything that turns bytes into a filter the rest of bloomset may read
 * goes through here, and so does everything that allocates one:
 *
 *  - Allocation.  Filters are allocated by bloom_alloc_bytes() only, zeroed,
 *	  through PostgreSQL's allocator: cache-line aligned with
 *	  MemoryContextAllocAligned where it exists (16 and later), MAXALIGNed
 *	  before.  The pointer returned is the chunk itself, so every filter can
 *	  be pfree'd and repalloc'd; nothing here advises the kernel about memory
 *	  the allocator owns.
 *  - Validation.  A stored datum is checked cheaply (bloom_kind_reason: the
 *	  fields memory safety depends on, the exact length, the SQL type) every
 *	  time it is fetched; values arriving from outside (text, binary, bytea,
 *	  aggregate states) are checked in full (every header field, including
 *	  the element family, and the bits an empty filter must not have).
 *  - Errors.  Validators of the core return reason strings; bloom_raise()
 *	  is the one place that turns a reason into an ereport with a detail.
 *  - The call-site cache (fn_extra).  One struct, private to this file,
 *	  created and filled only by the functions below.  It holds the value
 *	  type's hash information and one detoasted, validated filter, keyed by
 *	  what identifies the stored value: its TOAST pointer, its compressed
 *	  bytes, or the plan constant it came from.  A key is stored only after
 *	  the entry it names was filled without error.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "access/detoast.h"
#include "common/hashfn.h"
#include "lib/ilist.h"
#include "libpq/pqformat.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "scalable_format.h"

/* ---- errors ------------------------------------------------------------- */

/*
 * Raise sqlerrcode with message and the reason why as its detail (a core
 * reason string: lower case, no period; the detail is a sentence).
 */
void
bloom_raise(int sqlerrcode, const char *message, const char *why)
{
	ereport(ERROR,
			(errcode(sqlerrcode),
			 errmsg("%s", message),
			 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1)));
}

/* ---- allocation ----------------------------------------------------------- */

/*
 * size uninitialised bytes for a filter image in cxt: the one allocation of
 * filters.  Aligned to a cache line where PostgreSQL can do so within its
 * allocator; either way the result is an allocator chunk of its own.
 */
static void *
bloom_alloc_raw(MemoryContext cxt, size_t size)
{
#if PG_VERSION_NUM >= 160000
	return MemoryContextAllocAligned(cxt, size, PG_CACHE_LINE_SIZE, MCXT_ALLOC_HUGE);
#else
	return MemoryContextAllocExtended(cxt, size, MCXT_ALLOC_HUGE);
#endif
}

/*
 * size zeroed bytes for a filter image in cxt, zeroed in chunks that poll
 * for interrupts (the page faults of 256 MiB alone take about a second).
 */
void *
bloom_alloc_bytes(MemoryContext cxt, size_t size)
{
	void	   *p = bloom_alloc_raw(cxt, size);

	bloom_zero_bytes(p, size);
	return p;
}

/* A zeroed filter image of nbits in cxt, its varlena length set. */
BloomFilter *
bloom_alloc_in(MemoryContext cxt, uint64 nbits)
{
	BloomFilter *f;

	Assert(nbits >= BLOOM_MIN_BITS && nbits <= BLOOM_MAX_BITS);
	f = (BloomFilter *) bloom_alloc_bytes(cxt, BLOOM_TOTAL_SIZE(nbits));
	SET_VARSIZE(f, BLOOM_TOTAL_SIZE(nbits));
	return f;
}

/* An empty filter with the given parameters (validated by the caller). */
BloomFilter *
bloom_alloc(int layout, int nhashes, uint64 nbits, uint64 seed)
{
	BloomFilter *f = bloom_alloc_in(CurrentMemoryContext, nbits);

	bloom_init_header(f, layout, nhashes, nbits, seed);
	return f;
}

/*
 * An empty filter of nbits with every other header field of f (family,
 * collation, flags, items): the target of folding, unfolding and resizing.
 */
BloomFilter *
bloom_alloc_like(MemoryContext cxt, const BloomFilter *f, uint64 nbits)
{
	BloomFilter *r = bloom_alloc_in(cxt, nbits);

	memcpy((char *) r + VARHDRSZ, (const char *) f + VARHDRSZ,
		   BLOOM_HEADER_SIZE - VARHDRSZ);
	r->nbits = nbits;
	return r;
}

/* A copy of the datum image f (any kind) in cxt. */
BloomFilter *
bloom_copy_in(MemoryContext cxt, const BloomFilter *f)
{
	BloomFilter *c = (BloomFilter *) bloom_alloc_raw(cxt, VARSIZE(f));

	bloom_copy_bytes(c, f, VARSIZE(f));
	return c;
}

/* A copy of f in the current context. */
BloomFilter *
bloom_copy(const BloomFilter *f)
{
	return bloom_copy_in(CurrentMemoryContext, f);
}

/* ---- aggregates ---------------------------------------------------------- */

/* The aggregate memory context, or an error if not called as aggregate. */
MemoryContext
bloom_agg_context(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloom aggregate support function called in non-aggregate context")));
	return aggcxt;
}

/* ---- validation ----------------------------------------------------------- */

/* The SQL type name of a kind, for messages. */
static const char *
bloom_kind_name(BloomKind kind)
{
	switch (kind)
	{
		case BLOOM_KIND_COUNTING:
			return "counting_bloom";
		case BLOOM_KIND_SCALABLE:
			return "scalable_bloom";
		default:
			return "bloom";
	}
}

/* Does f's layout belong to the SQL type of kind? */
static bool
bloom_layout_is_kind(const BloomFilter *f, BloomKind kind)
{
	switch (kind)
	{
		case BLOOM_KIND_COUNTING:
			return f->layout == BLOOM_LAYOUT_COUNTING;
		case BLOOM_KIND_SCALABLE:
			return f->layout == BLOOM_LAYOUT_SCALABLE;
		default:
			return f->layout == BLOOM_LAYOUT_CLASSIC || f->layout == BLOOM_LAYOUT_BLOCKED;
	}
}

/* Is the detoasted scalable value d in bloomset 1.0's format 1? */
static bool
bloom_scalable_is_v1(const void *d, size_t size)
{
	return size > offsetof(BloomFilter, version) &&
		((const BloomFilter *) d)->version == BLOOM_FORMAT_VERSION;
}

/*
 * Why d (size bytes, detoasted) is not a readable value of kind, or NULL:
 * the fields memory safety depends on, the exact length (the cheap check of
 * every fetch; scalable values, either format, sub-filter by sub-filter).
 */
const char *
bloom_kind_reason(const void *d, size_t size, BloomKind kind)
{
	const BloomFilter *f = (const BloomFilter *) d;
	const char *why;

	if (kind == BLOOM_KIND_SCALABLE)
		return bloom_scalable_is_v1(d, size) ? scalable_check_v1(f, size)
			: scalable_check((const ScalableFilter *) d, size);
	if (size < BLOOM_HEADER_SIZE)
		return "the value is shorter than a filter header";
	if ((why = bloom_check_shape(f)) != NULL)
		return why;
	if (size != BLOOM_TOTAL_SIZE(f->nbits))
		return "the length of the bit array does not match the header";
	return NULL;
}

/* Raise sqlerrcode unless f's layout belongs to the SQL type of kind. */
static void
bloom_require_kind(const BloomFilter *f, BloomKind kind, int sqlerrcode)
{
	if (!bloom_layout_is_kind(f, kind))
		ereport(ERROR,
				(errcode(sqlerrcode),
				 errmsg("a %s filter is not a %s value",
						bloom_layout_name(f->layout), bloom_kind_name(kind)),
				 errhint("Classic and blocked filters are bloom values, counting filters counting_bloom, scalable filters scalable_bloom.")));
}

/* Raise data_corrupted unless the detoasted f is a valid value of kind. */
static void
bloom_check_stored(const BloomFilter *f, BloomKind kind)
{
	const char *why = bloom_kind_reason(f, VARSIZE(f), kind);

	if (why != NULL)
		bloom_raise(ERRCODE_DATA_CORRUPTED,
					kind == BLOOM_KIND_SCALABLE ? "invalid scalable bloom filter value"
					: "invalid bloom filter value", why);
	bloom_require_kind(f, kind, ERRCODE_DATA_CORRUPTED);
}

/*
 * Detoast and check a stored datum of the given kind.  A scalable value
 * stored by bloomset 1.0 (format 1) comes back converted to format 2.
 */
void *
bloom_from_datum_kind(Datum d, BloomKind kind)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(d);
	ScalableFilter *s;

	bloom_check_stored(f, kind);
	if (kind != BLOOM_KIND_SCALABLE || !bloom_scalable_is_v1(f, VARSIZE(f)))
		return f;
	s = (ScalableFilter *) bloom_alloc_bytes(CurrentMemoryContext,
											 VARSIZE(f) - (BLOOM_HEADER_SIZE + SCALABLE_V1_META - SCALABLE_HEADER_SIZE));
	scalable_from_v1(f, s);
	if ((Pointer) f != DatumGetPointer(d))
		pfree(f);
	return s;
}

/* Detoast and check a bloom or counting_bloom datum (shared output functions). */
BloomFilter *
bloom_from_datum_any(Datum d)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(d);
	const char *why = bloom_kind_reason(f, VARSIZE(f), BLOOM_KIND_PLAIN);

	if (why != NULL)
		bloom_raise(ERRCODE_DATA_CORRUPTED, "invalid bloom filter value", why);
	return f;
}

/* ---- text and binary input ------------------------------------------------ */

/* Raise invalid_text_representation for input str, with a reason. */
static void
bloom_syntax_error(const char *str, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type bloom: \"%.60s%s\"",
					str, strlen(str) > 60 ? "..." : ""),
			 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1),
			 errhint("The text form is \"bloom:v1 layout=... k=... seed=... bits=... items=... flags=... coll=... family=... hex=...\", as bloom_out writes it.")));
}

/*
 * A filter from its text form, every header field validated, of the SQL
 * type of kind (a scalable value comes back with its payload still in the
 * portable form: scalable_bloom.c finishes it).
 */
BloomFilter *
bloom_parse_text(const char *str, BloomKind kind)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *hex;
	const char *why;

	if ((why = bloom_text_decode_header(str, &hdr, &hex)) != NULL)
		bloom_syntax_error(str, why);
	if (strlen(hex) != 2 * BLOOM_DATA_BYTES(&hdr))
		bloom_syntax_error(str, "the bit array does not have the length the header gives");
	bloom_require_kind(&hdr, kind, ERRCODE_INVALID_TEXT_REPRESENTATION);
	f = bloom_alloc_like(CurrentMemoryContext, &hdr, hdr.nbits);
	if ((why = bloom_text_decode_bits(hex, f)) != NULL ||
		(why = bloom_check_bits(f)) != NULL)
		bloom_syntax_error(str, why);
	return f;
}

/*
 * A filter in cxt from its binary form (exactly len bytes), every field
 * validated, of the SQL type of kind (scalable: see bloom_parse_text);
 * otherwise invalid_binary_representation with the given message.
 */
BloomFilter *
bloom_parse_wire(const uint8 *p, size_t len, MemoryContext cxt, BloomKind kind,
				 const char *message)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *why;

	if ((why = bloom_wire_decode_header(p, len, &hdr)) != NULL)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, message, why);
	bloom_require_kind(&hdr, kind, ERRCODE_INVALID_BINARY_REPRESENTATION);
	f = bloom_alloc_like(cxt, &hdr, hdr.nbits);
	bloom_copy_bytes(f->words, p + BLOOM_WIRE_HEADER_SIZE, BLOOM_DATA_BYTES(f));
	if ((why = bloom_check_bits(f)) != NULL)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, message, why);
	return f;
}

/* A filter of kind from the rest of a recv buffer (bloom_parse_wire), consumed. */
BloomFilter *
bloom_parse_recv(StringInfo buf, BloomKind kind, const char *message)
{
	BloomFilter *f = bloom_parse_wire((const uint8 *) buf->data + buf->cursor,
									  (size_t) (buf->len - buf->cursor),
									  CurrentMemoryContext, kind, message);

	buf->cursor = buf->len;
	return f;
}

/* Append f in the binary form: wire header, then the bit array. */
void
bloom_wire_append(StringInfo buf, const BloomFilter *f)
{
	uint8		hdr[BLOOM_WIRE_HEADER_SIZE];

	bloom_wire_encode_header(f, hdr);
	appendBinaryStringInfo(buf, (const char *) hdr, BLOOM_WIRE_HEADER_SIZE);
	/* the bit array: copied in chunks that poll for interrupts */
	enlargeStringInfo(buf, (int) BLOOM_DATA_BYTES(f));
	bloom_copy_bytes(buf->data + buf->len, f->words, BLOOM_DATA_BYTES(f));
	buf->len += (int) BLOOM_DATA_BYTES(f);
	buf->data[buf->len] = '\0';
}

/*
 * f in the binary form as a bytea (send functions, aggregate serialization),
 * allocated once at its full size.
 */
bytea *
bloom_wire_bytea(const BloomFilter *f)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	enlargeStringInfo(&buf, BLOOM_WIRE_HEADER_SIZE + (int) BLOOM_DATA_BYTES(f));
	bloom_wire_append(&buf, f);
	return pq_endtypsend(&buf);
}

/* ---- the call-site cache -------------------------------------------------- */

/*
 * Budget of each call site's cache of stored filters, in kB (GUC
 * bloomset.probe_cache_size).  A query that probes many stored filters in
 * turn -- a join of incoming keys with per-chunk filters, say -- keeps the
 * most recently used ones detoasted here instead of fetching one from TOAST
 * (hundreds of 2 kB chunks for a filter of a megabyte) on every row.
 */
int			bloom_probe_cache_kb = 256 * 1024;

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
} BloomCacheEntry;

/*
 * What a call site keeps between rows (fn_extra, in fn_mcxt).  Written only
 * by the functions of this section.
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
	pfree(e);
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

/*
 * The filter argument argno of kind, validated; *path points at how
 * values reach the cached filter (BLOOM_PATH_*), or at a scratch
 * BLOOM_PATH_UNCHECKED for a filter that is not cached.  Filters stored
 * out of line or compressed are detoasted once and kept (several, LRU,
 * within the budget: see bloom_cache_add_stored); a plan constant is
 * validated once
 * (a Const cannot change while the call site lives; a Param can); in-line
 * values cost nothing to fetch and are used in place.
 */
static void *
bloom_call_filter_path(FunctionCallInfo fcinfo, int argno, BloomKind kind,
					   uint8 **path)
{
	static uint8 scratch;
	BloomCallCache *cache = bloom_cache_get(fcinfo);
	Datum		d = PG_GETARG_DATUM(argno);
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	void	   *f;

	if (cache->kind != kind)
	{
		while (cache->nentries > 0)
			bloom_cache_evict(cache);
		if (cache->const_owned)
			pfree(cache->const_filter);
		cache->const_filter = NULL;
		cache->const_owned = false;
		cache->kind = kind;
	}
	if ((f = bloom_cache_lookup(cache, d, kind, path)) != NULL)
		return f;
	scratch = BLOOM_PATH_UNCHECKED;
	*path = &scratch;
	if (VARATT_IS_EXTERNAL_ONDISK(attr) || VARATT_IS_COMPRESSED(attr))
	{
		if ((f = bloom_cache_add_stored(fcinfo, cache, d, kind, path)) != NULL)
			return f;
	}
	else if (bloom_arg_is_const(fcinfo->flinfo, argno))
		return bloom_cache_set_const(fcinfo, cache, d, kind, path);
	return bloom_from_datum_kind(d, kind);
}

/* The filter argument argno of kind, validated and cached (see above). */
void *
bloom_call_filter(FunctionCallInfo fcinfo, int argno, BloomKind kind)
{
	uint8	   *path;

	return bloom_call_filter_path(fcinfo, argno, kind, &path);
}

/* The element family and collation fields of a filter of kind. */
static void
bloom_element_fields(void *f, BloomKind kind, char **family, uint32 **collfp)
{
	if (kind == BLOOM_KIND_SCALABLE)
	{
		*family = ((ScalableFilter *) f)->family;
		*collfp = &((ScalableFilter *) f)->collfp;
	}
	else
	{
		*family = ((BloomFilter *) f)->family;
		*collfp = &((BloomFilter *) f)->collfp;
	}
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
				 const BloomTypeInfo *ti, bool adopt)
{
	BloomCallCache *cache = bloom_cache_get(fcinfo);
	BloomConversion cv;
	Oid			target;

	if (family[0] == '\0' || memcmp(family, ti->family, BLOOM_FAMILY_LEN) == 0)
	{
		bloom_check_element_fields(family, collfp, ti, adopt);
		return BLOOM_PATH_DIRECT;
	}
	if (cache->conv_valid && cache->conv.from == ti->typid &&
		cache->conv.ti.collation == ti->collation &&
		memcmp(cache->conv.ti.family, family, BLOOM_FAMILY_LEN) == 0 &&
		cache->conv.ti.collfp == *collfp)
		return BLOOM_PATH_CONVERT;
	target = bloom_family_type(family);
	if (!OidIsValid(target) ||
		!bloom_conversion_init(&cv, ti->typid, target, ti->collation,
							   fcinfo->flinfo->fn_mcxt) ||
		memcmp(cv.ti.family, family, BLOOM_FAMILY_LEN) != 0)
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
				 uint32 *collfp, Datum *value)
{
	BloomTypeInfo *ti = bloom_call_typeinfo(fcinfo, argno);

	*value = PG_GETARG_DATUM(argno);
	if (bloom_value_path(fcinfo, family, collfp, ti, true) == BLOOM_PATH_DIRECT)
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
					uint32 *collfp, bool adopt, BloomTypeInfo **ti)
{
	*ti = bloom_call_elem_typeinfo(fcinfo, elemtype);
	if (bloom_value_path(fcinfo, family, collfp, *ti, adopt) == BLOOM_PATH_DIRECT)
		return NULL;
	*ti = &((BloomCallCache *) fcinfo->flinfo->fn_extra)->conv.ti;
	return &((BloomCallCache *) fcinfo->flinfo->fn_extra)->conv;
}

/*
 * For probes f(filter, value): the filter (argument 0, cached), with in
 * *ti and *value the hash information and the value to hash (argument 1,
 * converted to the filter's element type when it is of another: see
 * bloom_call_value).  The family check is done once per cached filter; the
 * common case of a WHERE clause -- the same constant or stored filter row
 * after row, or a few stored filters in turn -- costs a lookup.
 */
void *
bloom_call_probe(FunctionCallInfo fcinfo, BloomKind kind, BloomTypeInfo **ti,
				 Datum *value)
{
	uint8	   *path;
	void	   *f = bloom_call_filter_path(fcinfo, 0, kind, &path);
	BloomCallCache *cache;

	*ti = bloom_call_typeinfo(fcinfo, 1);
	*value = PG_GETARG_DATUM(1);
	if (unlikely(*path == BLOOM_PATH_UNCHECKED))
	{
		char	   *family;
		uint32	   *collfp;

		bloom_element_fields(f, kind, &family, &collfp);
		*path = bloom_value_path(fcinfo, family, collfp, *ti, false);
	}
	if (likely(*path == BLOOM_PATH_DIRECT))
		return f;
	cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	*ti = &cache->conv.ti;
	*value = bloom_convert(&cache->conv, *value);
	return f;
}
