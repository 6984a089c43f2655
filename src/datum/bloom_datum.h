/*-------------------------------------------------------------------------
 *
 * bloom_datum.h
 *	  The datum layer (bloom_datum.c): allocation and copies of filters,
 *	  validation of stored and incoming values, the text and binary entry
 *	  points, and the one helper that turns a reason string into an error.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_DATUM_H
#define BLOOMSET_BLOOM_DATUM_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif
#include "lib/stringinfo.h"

#include "bloom_kind.h"
#include "../core/bloom_core.h"

StaticAssertDecl(BLOOM_HEADER_SIZE == 72, "bloom header must be 72 bytes");

/*
 * bloom_datum.c: the one owner of filter datums -- allocation, copies,
 * validation of stored and incoming values, the text and binary entry
 * points and the reason-string errors.
 */


#if PG_VERSION_NUM >= 180000
extern pg_noreturn void bloom_raise(int sqlerrcode, const char *message,
									const char *why);
#else
extern void bloom_raise(int sqlerrcode, const char *message, const char *why)
			pg_attribute_noreturn();
#endif
extern void *bloom_alloc_bytes(MemoryContext cxt, size_t size);
extern BloomFilter *bloom_alloc_in(MemoryContext cxt, uint64 nbits);
extern BloomFilter *bloom_alloc(int layout, int nhashes, uint64 nbits,
								uint64 seed);
extern BloomFilter *bloom_alloc_like(MemoryContext cxt, const BloomFilter *f,
									 uint64 nbits);
extern BloomFilter *bloom_copy_in(MemoryContext cxt, const BloomFilter *f);
extern BloomFilter *bloom_copy(const BloomFilter *f);
extern void *bloom_from_datum_kind(Datum d, BloomKind kind);
extern void bloom_check_stored_size(const BloomFilter *f, Size size,
									BloomKind kind);
extern BloomFilter *bloom_from_datum_any(Datum d);
extern void bloom_free_copy(void *f, Datum d);
extern int	bloom_compare(const BloomFilter *a, const BloomFilter *b);
extern int	bloom_datum_compare(Datum a, Datum b, BloomKind kind);
extern const char *bloom_header_reason(const void *d, size_t size);
extern BloomElementFields bloom_header_fields(void *f);
extern const char *bloom_kind_reason(const void *f, size_t size,
									 BloomKind kind);
extern BloomFilter *bloom_parse_text(const char *str, BloomKind kind);
extern BloomFilter *bloom_parse_wire(const uint8 *p, size_t len,
									 MemoryContext cxt, BloomKind kind,
									 const char *message);
extern BloomFilter *bloom_parse_recv(StringInfo buf, BloomKind kind,
									 const char *message);
extern void bloom_wire_append(StringInfo buf, const BloomFilter *f);
extern bytea *bloom_wire_bytea(const BloomFilter *f);

/* Count n more items added (saturating). */
static inline void
bloom_add_items(BloomFilter *f, uint64 n)
{
	f->nitems = (f->nitems > PG_UINT64_MAX - n) ? PG_UINT64_MAX : f->nitems + n;
}

/* the aggregate context of an aggregate support call, or an error */
extern MemoryContext bloom_agg_context(FunctionCallInfo fcinfo);

#define PG_GETARG_BLOOM_P(n)	bloom_from_datum_kind(PG_GETARG_DATUM(n), BLOOM_KIND_PLAIN)
#define PG_RETURN_BLOOM_P(x)	PG_RETURN_POINTER(x)

#endif							/* BLOOMSET_BLOOM_DATUM_H */
