/*-------------------------------------------------------------------------
 *
 * bloom_codec.h
 *	  The text and binary forms of a filter (bloom_codec.c, PostgreSQL-free):
 *	  encoders, and decoders that validate every field and return a reason
 *	  string instead of raising an error.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CODEC_H
#define BLOOM_CODEC_H

#include "bloom_format.h"

extern size_t bloom_text_size(const BloomFilter *f);
extern void bloom_text_encode(const BloomFilter *f, char *out);
extern const char *bloom_text_decode_header(const char *s, BloomFilter *hdr,
											const char **hex);
extern const char *bloom_text_decode_bits(const char *hex, BloomFilter *f);
extern void bloom_wire_encode_header(const BloomFilter *f, uint8_t *out);
extern const char *bloom_wire_decode_header(const uint8_t *buf, size_t len,
											BloomFilter *hdr);
extern const char *bloom_wire_decode_fields(const uint8_t *buf, BloomFilter *hdr);

#endif							/* BLOOM_CODEC_H */
