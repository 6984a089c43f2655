/*-------------------------------------------------------------------------
 *
 * bloom_lru.c
 *	  The call site's filters kept whole: stored filters (out of line or
 *	  compressed) detoasted and validated once, least recently used evicted
 *	  past the budget bloomset.probe_cache_size, and the plan constant.
 *	  Which reads enter here is bloom_cache.c's decision (see its header).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_lru.h"
#include "../datum/bloom_datum.h"

#include "access/detoast.h"
#include "common/hashfn.h"
#include "utils/memutils.h"

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
void *
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
void *
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
void *
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

/* Drop every kept filter and the plan constant (the call site's filters changed kind). */
void
bloom_cache_clear(BloomCallCache *cache)
{
	while (cache->nentries > 0)
		bloom_cache_evict(cache);
	bloom_cache_forget_const_memo(cache);
	if (cache->const_owned)
		pfree(cache->const_filter);
	cache->const_filter = NULL;
	cache->const_owned = false;
}
