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
 * size zeroed bytes for a filter image in cxt.  Aligned to a cache line
 * where PostgreSQL can do so within its allocator; either way the result is
 * an allocator chunk of its own.
 */
void *
bloom_alloc_bytes(MemoryContext cxt, size_t size)
{
#if PG_VERSION_NUM >= 160000
	return MemoryContextAllocAligned(cxt, size, PG_CACHE_LINE_SIZE,
									 MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
#else
	return MemoryContextAllocExtended(cxt, size, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
#endif
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
	BloomFilter *c = (BloomFilter *) bloom_alloc_bytes(cxt, VARSIZE(f));

	memcpy(c, f, VARSIZE(f));
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
	memcpy(f->words, p + BLOOM_WIRE_HEADER_SIZE, BLOOM_DATA_BYTES(f));
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
	appendBinaryStringInfo(buf, (const char *) f->words, (int) BLOOM_DATA_BYTES(f));
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
 * What a call site keeps between rows (fn_extra, in fn_mcxt).  Written only
 * by the functions of this section.
 */
typedef struct BloomCallCache
{
	/* hash information of the value argument; valid when ti_valid */
	bool		ti_valid;
	BloomTypeInfo ti;

	/*
	 * The cached filter and its key: filter is NULL, or a validated filter
	 * of kind (in fn_mcxt, or the Const argument itself); exactly one key
	 * names it: the TOAST pointer (toastrelid valid), a copy of the
	 * compressed in-line datum (ckey), or is_const.
	 */
	BloomKind	kind;
	void	   *filter;
	bool		filter_owned;	/* filter was allocated here (pfree it) */
	Oid			toastrelid;
	Oid			valueid;
	struct varlena *ckey;
	bool		is_const;

	/* the filter whose element family matched ti (probe fast path) */
	const void *checked;
} BloomCallCache;

/* The call site's cache, created empty on first use. */
static BloomCallCache *
bloom_cache_get(FunctionCallInfo fcinfo)
{
	if (unlikely(fcinfo->flinfo->fn_extra == NULL))
		fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomCallCache));
	return (BloomCallCache *) fcinfo->flinfo->fn_extra;
}

/* Forget the cached filter and its key. */
static void
bloom_cache_drop_filter(BloomCallCache *cache)
{
	if (cache->filter_owned && cache->filter != NULL)
		pfree(cache->filter);
	if (cache->ckey != NULL)
		pfree(cache->ckey);
	cache->filter = NULL;
	cache->filter_owned = false;
	cache->toastrelid = InvalidOid;
	cache->ckey = NULL;
	cache->is_const = false;
	cache->checked = NULL;
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
	cache->checked = NULL;
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

/* The cached filter if it is the one d names, else NULL. */
static void *
bloom_cache_lookup(const BloomCallCache *cache, Datum d, BloomKind kind)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);

	if (cache == NULL || cache->filter == NULL || cache->kind != kind)
		return NULL;
	if (VARATT_IS_EXTERNAL_ONDISK(attr))
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
		return OidIsValid(cache->toastrelid) &&
			ptr.va_toastrelid == cache->toastrelid &&
			ptr.va_valueid == cache->valueid ? cache->filter : NULL;
	}
	if (VARATT_IS_COMPRESSED(attr))
		return cache->ckey != NULL &&
			VARSIZE_ANY(cache->ckey) == VARSIZE_ANY(attr) &&
			memcmp(cache->ckey, attr, VARSIZE_ANY(attr)) == 0 ? cache->filter : NULL;
	return cache->is_const ? cache->filter : NULL;
}

/*
 * Fill the cache with the filter of datum d (argument argno), if d is worth
 * keeping: a filter stored out of line (keyed by its TOAST pointer: toast
 * relation and value OID identify the stored value whichever row carries
 * it), a compressed in-line filter (keyed by its compressed bytes: an
 * address may be reused for another value), or a plan constant (a Const
 * cannot change while the call site lives; a Param can).  Returns the
 * validated filter either way.
 */
static void *
bloom_cache_fill(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
				 int argno, BloomKind kind)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	MemoryContext mcxt = fcinfo->flinfo->fn_mcxt;
	bool		external = VARATT_IS_EXTERNAL_ONDISK(attr);
	bool		compressed = !external && VARATT_IS_COMPRESSED(attr);
	bool		is_const = !external && !compressed && bloom_arg_is_const(fcinfo->flinfo, argno);
	void	   *f;

	if (!external && !compressed && !is_const)
		return bloom_from_datum_kind(d, kind);	/* in-line: free to fetch */
	bloom_cache_drop_filter(cache);
	f = bloom_from_datum_kind(d, kind);
	if (is_const && (Pointer) f == DatumGetPointer(d))
		cache->filter = f;		/* the plan constant itself */
	else
	{
		cache->filter = bloom_copy_in(mcxt, (BloomFilter *) f);
		cache->filter_owned = true;
		if ((Pointer) f != DatumGetPointer(d))
			pfree(f);
	}
	cache->kind = kind;
	/* the key, last */
	if (external)
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
		cache->valueid = ptr.va_valueid;
		cache->toastrelid = ptr.va_toastrelid;
	}
	else if (compressed)
	{
		struct varlena *key = MemoryContextAlloc(mcxt, VARSIZE_ANY(attr));

		memcpy(key, attr, VARSIZE_ANY(attr));
		cache->ckey = key;
	}
	else
		cache->is_const = true;
	return cache->filter;
}

/*
 * The filter argument argno of kind, validated, without detoasting or
 * copying it once per row when it is stored out of line, compressed or a
 * plan constant (see bloom_cache_fill).
 */
void *
bloom_call_filter(FunctionCallInfo fcinfo, int argno, BloomKind kind)
{
	BloomCallCache *cache = bloom_cache_get(fcinfo);
	void	   *hit = bloom_cache_lookup(cache, PG_GETARG_DATUM(argno), kind);

	return hit != NULL ? hit : bloom_cache_fill(fcinfo, cache, PG_GETARG_DATUM(argno),
												argno, kind);
}

/*
 * For probes f(filter, value): the filter (argument 0, cached) checked
 * against the hash information of the value (argument 1), which is
 * returned in *ti.  The family check is done once per cached filter; the
 * common case of a WHERE clause -- the same constant or stored filter row
 * after row -- costs one comparison.
 */
void *
bloom_call_probe(FunctionCallInfo fcinfo, BloomKind kind, BloomTypeInfo **ti)
{
	BloomCallCache *cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	void	   *f = bloom_cache_lookup(cache, PG_GETARG_DATUM(0), kind);

	if (likely(f != NULL && f == cache->checked))
	{
		*ti = &cache->ti;
		return f;
	}
	f = bloom_call_filter(fcinfo, 0, kind);
	*ti = bloom_call_typeinfo(fcinfo, 1);
	if (kind == BLOOM_KIND_SCALABLE)
		bloom_check_element_fields(((ScalableFilter *) f)->family,
								   &((ScalableFilter *) f)->collfp, *ti, false);
	else
		bloom_check_element((BloomFilter *) f, *ti, false);
	cache = (BloomCallCache *) fcinfo->flinfo->fn_extra;
	if (f == cache->filter)
		cache->checked = f;
	return f;
}
