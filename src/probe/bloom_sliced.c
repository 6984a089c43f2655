/*-------------------------------------------------------------------------
 *
 * bloom_sliced.c
 *	  Sliced reads of filters stored out of line uncompressed: the memo of
 *	  the values a call site has read so (their validated headers and how
 *	  many TOAST chunks it read of each), the image a sliced read returns,
 *	  and the parts of it a probe's hashes need (see bloom_cache.c's header
 *	  for when a read is sliced and when it is kept whole).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_sliced.h"
#include "../datum/bloom_datum.h"

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#ifndef VARATT_EXTERNAL_GET_EXTSIZE
#define VARATT_EXTERNAL_GET_EXTSIZE(ptr)	((ptr).va_extsize)
#endif

/*
 * Ranges at most this many chunks apart are read by one slice: the chunks
 * between cost less than another index scan.
 */
#define BLOOM_SLICE_GAP_CHUNKS		2


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
 * The memo slot of the value stored out of line as d (kind), filled --
 * its headers read in slices and validated -- when it held another value.
 * *keep: the value was remembered and its slices have read their share of
 * it (BLOOM_SLICE_CACHE_SHARE; at once for a value not read in slices), so
 * the caller keeps it whole now (bloom_lru.c) if the budget allows.
 */
BloomSliceMemo *
bloom_sliced_memo(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
				  BloomKind kind, bool *keep)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	struct varatt_external ptr;
	Size		stored;
	BloomSliceMemo *m;

	VARATT_EXTERNAL_GET_POINTER(ptr, attr);
	stored = (Size) VARATT_EXTERNAL_GET_EXTSIZE(ptr) + VARHDRSZ;
	m = bloom_memo_slot(fcinfo, cache, &ptr);
	*keep = false;
	if (m->valueid == ptr.va_valueid && m->toastrelid == ptr.va_toastrelid)
		*keep = (uint64) m->chunks * BLOOM_SLICE_CACHE_SHARE >= bloom_chunks_of(stored - VARHDRSZ);
	else
		bloom_memo_fill(fcinfo, cache, m, attr, &ptr, stored, kind);
	return m;
}

/*
 * The value stored out of line as d (kind), remembered in m and not kept
 * whole: read whole without keeping it (its next probe here keeps it), or
 * -- sliced, a sliceable value -- the image holding its header, for
 * bloom_sliced_parts to complete.  *path points at how values reach it.
 */
void *
bloom_sliced_image(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
				   BloomSliceMemo *m, BloomKind kind, bool sliced, uint8 **path)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	struct varatt_external ptr;
	char	   *image;

	*path = &m->path;
	if (!sliced || !m->sliceable)
	{
		/* whole, not kept: the next probe of it here keeps it */
		m->chunks = PG_UINT32_MAX / BLOOM_SLICE_CACHE_SHARE;
		return bloom_from_datum_kind(d, kind);
	}
	VARATT_EXTERNAL_GET_POINTER(ptr, attr);
	image = bloom_image(fcinfo, cache, (Size) VARATT_EXTERNAL_GET_EXTSIZE(ptr) + VARHDRSZ);
	memcpy(image, m->hdr, bloom_kind_ops(kind)->header_size);
	if (m->subs != NULL)
		for (int i = 0; i < ((ScalableFilter *) image)->nsub; i++)
			memcpy(image + m->subs[i].off, m->subs[i].hdr, BLOOM_HEADER_SIZE);
	cache->sliced_attr = attr;
	cache->sliced_memo = m;
	return image;
}

/* Forget every remembered value (the call site's filters changed kind). */
void
bloom_sliced_forget(BloomCallCache *cache)
{
	if (cache->memo == NULL)
		return;
	for (int i = 0; i < BLOOM_MEMO_SLOTS; i++)
		if (cache->memo[i].subs != NULL)
			pfree(cache->memo[i].subs);
	memset(cache->memo, 0, sizeof(BloomSliceMemo) * BLOOM_MEMO_SLOTS);
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
void *
bloom_sliced_parts(BloomCallCache *cache, struct varlena *attr, BloomSliceMemo *m,
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
