/*-------------------------------------------------------------------------
 *
 * scalable_format.h
 *	  The stored layout of a scalable_bloom value and its validator,
 *	  PostgreSQL-free like bloom_format.h (the datum layer validates stored
 *	  scalable values with it; scalable_bloom.c builds and probes them).
 *
 * Format 1 (bloomset 1.0): the bloom header with layout 3 ("scalable");
 * its nhashes field holds the number of sub-filters and nbits the payload
 * size in bits.  The payload is ScalableMeta (capacity, target rate as an
 * IEEE-754 binary64, growth; host byte order on disk like every header
 * field) followed by the sub-filters, each a complete bloom image (header
 * and bits).  In the text and binary forms the meta and every sub-filter
 * header are in network byte order (see scalable_bloom.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCALABLE_FORMAT_H
#define SCALABLE_FORMAT_H

#include "bloom_format.h"

#define SCALABLE_MAX_SUB	32		/* sub-filters: growth^31 covers any stream */
#define SCALABLE_SUB_HDR	72		/* wire header (68) + 4 zero bytes */
#define SCALABLE_MIN_GROWTH 2
#define SCALABLE_MAX_GROWTH 16

typedef struct ScalableMeta
{
	uint64_t	capacity;		/* items of the first sub-filter */
	double		fpr;			/* target rate of the whole filter */
	uint64_t	growth;			/* capacity factor from one to the next */
} ScalableMeta;

#define SCALABLE_META(f)	((ScalableMeta *) (f)->words)
#define SCALABLE_FIRST(f)	((BloomFilter *) ((char *) (f)->words + sizeof(ScalableMeta)))
#define SCALABLE_PAYLOAD(f) ((size_t) ((f)->nbits / 8))
#define SCALABLE_NSUB(f)	((int) (f)->nhashes)

/* The sub-filter after s (its size is its varlena length word). */
static inline BloomFilter *
scalable_next(const BloomFilter *s)
{
	uint32_t	len;

	memcpy(&len, s, sizeof(len));
#ifdef BLOOM_BIG_ENDIAN
	return (BloomFilter *) ((char *) s + (len & 0x3FFFFFFF));
#else
	return (BloomFilter *) ((char *) s + (len >> 2));
#endif
}

extern const char *scalable_check_meta(const ScalableMeta *m);
extern const char *scalable_check(const BloomFilter *f, size_t size);

#endif							/* SCALABLE_FORMAT_H */
