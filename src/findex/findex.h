/*-------------------------------------------------------------------------
 *
 * findex.h
 *	  The filter index: the bit work and the build (findex.c) that the
 *	  SQL layer drives over the index table -- findex_table.c (the table and
 *	  its statements, findex_table.h), findex_write.c (writing rows,
 *	  findex_write.h), and the entry points in findex_update.c (create, add,
 *	  remove) and findex_lookup.c (lookups, info).
 *
 * findex.c explains the table's rows; this header is what the SPI
 * layer needs of them: the row geometry, the checks of stored rows (each
 * names the index, for its XX001 error), writing filters into a stripe and
 * the build's row source; matching a probe against stripes is
 * findex_match.h's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_FINDEX_H
#define BLOOM_FINDEX_H

#include "../probe/bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../core/bloom_codec.h"

#include "utils/array.h"
#include "utils/portal.h"

/* filters per segment: one uint64 per position holds a bit of each */
#define BLOOM_INDEX_SLOTS		64
/* positions per stripe row: one block of the blocked layout */
#define BLOOM_INDEX_STRIPE_BITS	256
#define BLOOM_INDEX_STRIPE_WORDS (BLOOM_INDEX_STRIPE_BITS / 64)
#define BLOOM_INDEX_STRIPE_BYTES (BLOOM_INDEX_STRIPE_BITS * BLOOM_INDEX_SLOTS / 8)

/* The little-endian uint64 at p: a stripe's words are little-endian on every machine. */
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

/* checks of stored rows: XX001 naming the index (its quoted name) */
#if PG_VERSION_NUM >= 180000
extern pg_noreturn void bloom_index_corrupt(const char *index, const char *fmt,...)
			pg_attribute_printf(2, 3);
#else
extern void bloom_index_corrupt(const char *index, const char *fmt,...)
			pg_attribute_printf(2, 3) pg_attribute_noreturn();
#endif
extern const uint8 *bloom_index_stripe_bytes(const char *index, bytea *bits);
extern void bloom_index_slot_map(const char *index, ArrayType *ids,
								 Datum **values, bool **nulls);
extern void bloom_index_header_of(const char *index, bytea *hdr, BloomFilter *out);

/* the parameters every filter of an index shares */
extern bytea *bloom_index_header_bytea(const BloomFilter *f);
extern int64 bloom_index_groups(uint64 nbits);
extern void bloom_index_admit(BloomFilter *hdr, const BloomFilter *f);

/* writing: replace the columns of slots[0 .. n) of stripe blk by filters f */
extern void bloom_index_put_slots(uint8 *stripe, int64 blk, int n, const int *slots,
							BloomFilter *const *f);

/* the build: rows of an index of a cursor's (id, filter) rows */
typedef struct BloomIndexBuild BloomIndexBuild;
extern BloomIndexBuild *bloom_index_build_begin(Portal source, const BloomFilter *hdr,
												int32 first_seg, bool has_last,
												int64 last_id);
extern void bloom_index_build_source(BloomIndexBuild *b, Portal source);
extern bool bloom_index_build_next(BloomIndexBuild *b, int32 *seg, int32 *blk,
								   ArrayType **ids, bytea **bits);
extern bool bloom_index_build_header(BloomIndexBuild *b, BloomFilter *hdr);

/* findex_lookup.c: a lookup's keys, hashed as the filters hash them */
extern int	bloom_index_hash_keys(FunctionCallInfo fcinfo, BloomFilter *hdr,
								  bool many, uint64 **h);

#endif							/* BLOOM_FINDEX_H */
