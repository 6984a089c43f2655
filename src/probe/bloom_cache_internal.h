/*-------------------------------------------------------------------------
 *
 * bloom_cache_internal.h
 *	  What a probe's call site keeps between rows (fn_extra, in fn_mcxt):
 *	  the struct the three files of the call-site cache share --
 *	  bloom_cache.c (the probes' entry points, type information, where a
 *	  filter comes from), bloom_lru.c (detoasted filters kept whole) and
 *	  bloom_sliced.c (values stored out of line, read in slices).  Nothing
 *	  outside those files sees it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_CACHE_INTERNAL_H
#define BLOOMSET_BLOOM_CACHE_INTERNAL_H

#include "postgres.h"
#include "fmgr.h"
#include "lib/ilist.h"

#include "../datum/bloom_convert.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_kind.h"
#include "../core/scalable_format.h"

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


/* What a call site keeps between rows; written only by the cache's files. */
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

#endif							/* BLOOMSET_BLOOM_CACHE_INTERNAL_H */
