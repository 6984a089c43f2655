/*-------------------------------------------------------------------------
 *
 * scalable_format.h
 *	  The stored format of a scalable_bloom value, its validators and the
 *	  conversions from and to the 1.0 format, PostgreSQL-free like
 *	  bloom_format.h (the datum layer validates and converts stored values
 *	  with it; scalable_bloom.c builds and probes them).
 *
 * Format 2 (bloomset 1.1 and later), a varlena; header integers in host
 * byte order on disk, like bloom's:
 *
 *	 offset size field
 *	 0		4	 varlena length word
 *	 4		1	 version		 SCALABLE_FORMAT_VERSION (2)
 *	 5		1	 layout		 BLOOM_LAYOUT_SCALABLE (3)
 *	 6		1	 scheme		 hashing scheme (bloom_format.h)
 *	 7		1	 nsub		 sub-filters, 1 .. SCALABLE_MAX_SUB
 *	 8		8	 seed		 seed of every sub-filter
 *	 16		8	 capacity	 items of the first sub-filter
 *	 24		8	 fpr_bits	 target rate, the bits of an IEEE-754 binary64
 *	 32		4	 growth		 capacity factor from one sub-filter to the next
 *	 36		4	 flags		 none defined yet: 0
 *	 40		8	 nitems		 items added (saturating upper bound)
 *	 48		4	 collfp		 as bloom's
 *	 52		4	 reserved	 0
 *	 56		32	 family		 as bloom's
 *	 88		...	 the sub-filters, each a complete bloom image (header and
 *				 bits, a multiple of 8 bytes), oldest first
 *
 * Format 1 (bloomset 1.0) reused the bloom header: layout 3, nhashes = the
 * number of sub-filters, nbits = the payload size in bits, then a payload
 * of capacity (8), target rate (a host double, 8), growth (8) and the same
 * sub-filters.  Values stored by 1.0 are read by converting them to format
 * 2 in memory (scalable_from_v1); the text and binary forms are still the
 * format-1 image with the payload's integers in network byte order, so
 * dumps and binary COPY files of 1.0 load unchanged.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCALABLE_FORMAT_H
#define SCALABLE_FORMAT_H

#include "bloom_format.h"

#define SCALABLE_FORMAT_VERSION 2
#define SCALABLE_MAX_SUB	32		/* sub-filters: growth^31 covers any stream */
#define SCALABLE_SUB_HDR	72		/* wire header (68) + 4 zero bytes */
#define SCALABLE_MIN_GROWTH 2
#define SCALABLE_MAX_GROWTH 16
#define SCALABLE_V1_META	24		/* capacity, rate, growth of format 1 */

typedef struct ScalableFilter
{
	int32_t		vl_len_;		/* varlena header (do not touch directly) */
	uint8_t		version;
	uint8_t		layout;
	uint8_t		scheme;
	uint8_t		nsub;
	uint64_t	seed;
	uint64_t	capacity;
	uint64_t	fpr_bits;
	uint32_t	growth;
	uint32_t	flags;
	uint64_t	nitems;
	uint32_t	collfp;
	uint32_t	reserved;
	char		family[BLOOM_FAMILY_LEN];
	uint64_t	subs[];			/* the sub-filter images */
} ScalableFilter;

#define SCALABLE_HEADER_SIZE	offsetof(ScalableFilter, subs)

/* The varlena length of a (4-byte header) image. */
static inline size_t
scalable_image_size(const void *p)
{
	uint32_t	len;

	memcpy(&len, p, sizeof(len));
#ifdef BLOOM_BIG_ENDIAN
	return len & 0x3FFFFFFF;
#else
	return (len >> 2) & 0x3FFFFFFF;
#endif
}

/* The first sub-filter. */
static inline BloomFilter *
scalable_first(const ScalableFilter *f)
{
	return (BloomFilter *) f->subs;
}

/* The sub-filter after s. */
static inline BloomFilter *
scalable_next(const BloomFilter *s)
{
	return (BloomFilter *) ((char *) s + scalable_image_size(s));
}

/* The target rate. */
static inline double
scalable_fpr(const ScalableFilter *f)
{
	double		d;

	memcpy(&d, &f->fpr_bits, sizeof(d));
	return d;
}

extern const char *scalable_check_params(uint64_t capacity, double fpr,
										 uint64_t growth);
extern const char *scalable_check(const ScalableFilter *f, size_t size);
extern const char *scalable_check_v1(const BloomFilter *f, size_t size);
extern void scalable_from_v1(const BloomFilter *v1, ScalableFilter *out);
extern void scalable_to_v1(const ScalableFilter *f, BloomFilter *out);

#endif							/* SCALABLE_FORMAT_H */
