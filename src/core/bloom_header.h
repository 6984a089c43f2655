/*-------------------------------------------------------------------------
 *
 * bloom_header.h
 *	  The header of a filter (bloom_header.c): its initialisation, the
 *	  layouts' and families' names, and the validators that return a reason
 *	  string.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_HEADER_H
#define BLOOM_HEADER_H

#include "bloom_format.h"

extern void bloom_init_header(BloomFilter *f, int layout, int nhashes,
							  uint64_t nbits, uint64_t seed);
extern const char *bloom_check_shape(const BloomFilter *f);
extern const char *bloom_check_header(const BloomFilter *f);
extern const char *bloom_check_bits(const BloomFilter *f);
extern const char *bloom_layout_name(int layout);
extern int	bloom_layout_from_name(const char *name);
extern bool bloom_family_char_ok(char c);
extern int	bloom_family_ngram_n(const char *family);
extern bool bloom_family_is_token(const char *family);

#endif							/* BLOOM_HEADER_H */
