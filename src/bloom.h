/*-------------------------------------------------------------------------
 *
 * bloom.h
 *	  PostgreSQL-side declarations shared by the bloomset C files: fetching
 *	  and validating filter datums, the value-to-hash layer and the
 *	  per-call-site caches.  The stored format itself is in bloom_format.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_H
#define BLOOMSET_BLOOM_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif
#include "access/detoast.h"
#include "common/hashfn.h"
#include "lib/stringinfo.h"

#include "bloom_format.h"

StaticAssertDecl(BLOOM_HEADER_SIZE == 72, "bloom header must be 72 bytes");

/*
 * Value-to-hash information for one element type and collation, computed
 * once per call site (fn_extra) or per aggregate state.
 */
typedef enum BloomHashKind
{
	BLOOM_HASH_GENERIC,			/* call the type's extended hash function */
	BLOOM_HASH_INT2,			/* inlined equivalents, bit-identical */
	BLOOM_HASH_INT4,
	BLOOM_HASH_INT8,
	BLOOM_HASH_BYTES,			/* text/varchar (deterministic), bytea */
	BLOOM_HASH_ENUM				/* hash the label, not the OID */
} BloomHashKind;

typedef struct BloomTypeInfo
{
	Oid			typid;			/* the argument type as given */
	Oid			collation;		/* input collation */
	BloomHashKind kind;
	uint32		collfp;			/* nondeterministic collation fingerprint */
	char		family[BLOOM_FAMILY_LEN];
	FmgrInfo	hashfn;			/* extended hash (GENERIC kind) */
} BloomTypeInfo;

/*
 * Per-call-site cache kept in fn_extra: the value type's hash information
 * and a detoasted copy of a filter stored out of line, keyed by its TOAST
 * pointer, so a filter read from a table is not detoasted once per row.
 */
typedef struct BloomCallCache
{
	BloomTypeInfo ti;
	bool		ti_valid;
	Oid			toastrelid;		/* key of the cached filter, or InvalidOid */
	Oid			valueid;
	bool		const_filter;	/* filter is a copy of a constant argument */
	BloomFilter *filter;		/* in fn_mcxt */
	void	   *raw;			/* the chunk holding filter, to pfree */
	struct varlena *key;		/* compressed in-line datum filter came from */
	const BloomFilter *checked; /* filter whose family matched ti */
} BloomCallCache;

/* The fn_extra cache of this call site, created on first use. */
static inline BloomCallCache *
bloom_call_cache(FunctionCallInfo fcinfo)
{
	if (unlikely(fcinfo->flinfo->fn_extra == NULL))
		fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomCallCache));
	return (BloomCallCache *) fcinfo->flinfo->fn_extra;
}

/*
 * The extended hash of the bytes of a text (deterministic collation) or
 * bytea value, before scheme 1's fmix64: hash_bytes_extended(), inlined.
 */
static inline uint64
bloom_bytes_hash(const char *p, size_t len, uint64 seed)
{
#ifdef WORDS_BIGENDIAN
	return hash_bytes_extended((const unsigned char *) p, (int) len, seed);
#else
	return bloom_lookup3_bytes((const uint8_t *) p, (uint32_t) len, seed);
#endif
}

/* bloom_hash.c */
extern void bloom_typeinfo_init(BloomTypeInfo *ti, Oid typid, Oid collation,
								MemoryContext mcxt);
extern uint64 bloom_hash_datum(const BloomTypeInfo *ti, Datum value,
							   uint64 seed);
extern void bloom_check_element(BloomFilter *f, const BloomTypeInfo *ti,
								bool adopt);
extern BloomTypeInfo *bloom_call_typeinfo(FunctionCallInfo fcinfo, int argno);
extern bool bloom_fast_hash_enabled;

/*
 * The filter this call site has cached for datum d, or NULL: the one
 * detoasted from the same TOAST pointer, or the copy of a Const argument
 * (a plan constant cannot change while the call site lives).  This is the
 * hit test of bloom_from_datum_cached_kind, which handles the misses;
 * inline, so a probe that hits costs no call.
 */
static inline BloomFilter *
bloom_cache_lookup(const BloomCallCache *cache, Datum d)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);

	if (cache == NULL || cache->filter == NULL)
		return NULL;
	if (VARATT_IS_EXTERNAL_ONDISK(attr))
	{
		struct varatt_external ptr;

		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
		return OidIsValid(cache->toastrelid) &&
			ptr.va_toastrelid == cache->toastrelid &&
			ptr.va_valueid == cache->valueid ? cache->filter : NULL;
	}
	return cache->const_filter ? cache->filter : NULL;
}

/* bloom_io.c */
extern BloomFilter *bloom_alloc(int layout, int nhashes, uint64 nbits,
								uint64 seed);
extern BloomFilter *bloom_from_datum(Datum d);
extern BloomFilter *bloom_from_datum_any(Datum d);
/* kinds of filter datum: the three SQL types sharing the format */
#define BLOOM_KIND_PLAIN		0	/* bloom: classic or blocked */
#define BLOOM_KIND_COUNTING		1	/* counting_bloom */
#define BLOOM_KIND_SCALABLE		2	/* scalable_bloom */

extern BloomFilter *bloom_from_datum_kind(Datum d, int kind);
extern const char *bloom_scalable_check(const BloomFilter *f, size_t size);
extern void bloom_require_kind(const BloomFilter *f, bool counting, int sqlerrcode);
extern BloomFilter *bloom_parse_any_text(char *str);
extern BloomFilter *bloom_parse_text(char *str, bool counting);
extern BloomFilter *bloom_parse_wire(StringInfo buf, bool counting);
extern BloomFilter *bloom_from_datum_cached(FunctionCallInfo fcinfo, Datum d);
extern BloomFilter *bloom_from_datum_cached_kind(FunctionCallInfo fcinfo, Datum d,
												 int kind);
extern void bloom_validate(const BloomFilter *f, size_t size, int sqlerrcode);
extern BloomFilter *bloom_copy(const BloomFilter *f);
extern BloomFilter *bloom_alloc_large(MemoryContext cxt, uint64 nbits, void **raw);
extern BloomFilter *bloom_copy_large(MemoryContext cxt, const BloomFilter *f,
									 void **raw);
extern void bloom_wire_append(StringInfo buf, const BloomFilter *f);
extern bytea *bloom_wire_bytea(const BloomFilter *f);
extern BloomFilter *bloom_wire_read_large(const uint8 *p, size_t len,
										  MemoryContext cxt, const char *errmsg_text);
extern BloomFilter *bloom_wire_read(const uint8 *p, size_t len,
									MemoryContext cxt, const char *errmsg_text);

/* bloom_ops.c */
extern BloomFilter *bloom_combine(const BloomFilter *a, const BloomFilter *b,
								  bool is_union);
extern void bloom_add_items(BloomFilter *f, uint64 n);
extern void bloom_sized_header(BloomFilter *hdr, int64 capacity, double fpr,
							   bool pow2);
extern void bloom_explicit_header(BloomFilter *hdr, int32 size_bytes,
								  int32 nhashes, int64 seed);
extern BloomFilter *bloom_new_sized(int64 capacity, double fpr, bool pow2);
extern BloomFilter *bloom_new_explicit(int32 size_bytes, int32 nhashes,
									   int64 seed);

/* bloom_agg.c: aggregate states shared with bloom_text.c */
typedef struct BloomAggState BloomAggState;
extern MemoryContext bloom_agg_context(FunctionCallInfo fcinfo);
extern BloomAggState *bloom_agg_auto_state(FunctionCallInfo fcinfo,
										   const char *family);
extern void bloom_agg_push(BloomAggState *st, uint64 h, bool count_item);

#define PG_GETARG_BLOOM_P(n)	bloom_from_datum(PG_GETARG_DATUM(n))
#define PG_RETURN_BLOOM_P(x)	PG_RETURN_POINTER(x)

#endif							/* BLOOMSET_BLOOM_H */
