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
 * The LRU cache (bloom_lru.c) holds detoasted, validated filters keyed by
 * what identifies the stored value: its TOAST pointer or its compressed
 * bytes; the plan constant is kept beside it.  Sliced reads and their memo
 * are bloom_sliced.c's.  A key (of an entry or a memo slot) is stored only
 * after what it names was filled without error.  This file owns the call
 * site's struct (bloom_cache_internal.h): the probes' entry points, the
 * value's type information and conversion, and where a filter comes from.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_convert.h"
#include "../datum/bloom_element.h"

#include "bloom_cache.h"
#include "bloom_cache_internal.h"
#include "bloom_lru.h"
#include "bloom_sliced.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"

#include "miscadmin.h"
#include "nodes/primnodes.h"

/* bloomset.sliced_reads: read stored filters in slices (off: 1.1's whole reads) */
bool		bloom_sliced_reads = true;


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

/*
 * The filter argument stored out of line as d, not found in the cache:
 * kept whole once its slices have read their share of it (or on its second
 * probe when it is not read in slices), else as bloom_sliced_image gives
 * it: read whole without keeping it, or the image holding its header, for
 * bloom_call_parts to complete.
 */
static void *
bloom_read_ondisk(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
				  BloomKind kind, bool sliced, uint8 **path)
{
	bool		keep;
	BloomSliceMemo *m = bloom_sliced_memo(fcinfo, cache, d, kind, &keep);
	void	   *f;

	if (keep && (f = bloom_cache_add_stored(fcinfo, cache, d, kind, path)) != NULL)
		return f;
	return bloom_sliced_image(fcinfo, cache, d, m, kind, sliced, path);
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
	return bloom_sliced_parts(cache, attr, cache->sliced_memo, (BloomFilter *) f, h, n);
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
		bloom_cache_clear(cache);
		bloom_sliced_forget(cache);
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

