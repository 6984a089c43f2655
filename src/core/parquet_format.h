/*-------------------------------------------------------------------------
 *
 * parquet_format.h
 *	  Parquet's split-block Bloom filter (SBBF) as it travels: the Thrift
 *	  compact BloomFilterHeader that precedes the bitset in a Parquet file,
 *	  and the hash of a value's PLAIN encoding (PostgreSQL-free: also
 *	  compiled into the unit test and the fuzzer).
 *
 * The bitset itself is bloomset's blocked layout bit for bit: 32-byte blocks
 * of eight little-endian 32-bit words, the block chosen by the upper half of
 * the 64-bit hash (multiply-shift), one bit per word by the lower half times
 * the eight salts (bloom_format.h).  Only the hash differs from bloomset's
 * own schemes: XXH64 with seed 0 of the value's PLAIN encoding, no further
 * mixing (apache/parquet-format, BloomFilter.md).
 *
 * The header (parquet.thrift):
 *	 struct BloomFilterHeader {
 *	   1: required i32 numBytes;                         bitset size
 *	   2: required BloomFilterAlgorithm algorithm;       union { 1: BLOCK }
 *	   3: required BloomFilterHash hash;                 union { 1: XXHASH }
 *	   4: required BloomFilterCompression compression;   union { 1: UNCOMPRESSED }
 *	 }
 * encoded with Thrift's compact protocol: 17 bytes for a bitset of 2^k bytes,
 * 2^7 <= 2^k < 2^21 (one byte more or fewer outside that range).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PARQUET_FORMAT_H
#define PARQUET_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bitset sizes a reader accepts: whole 32-byte blocks, at most the largest
 * bloomset filter (BLOOM_MAX_BITS / 8 = 256 MiB; Parquet writers stop at
 * 128 MiB).
 */
#define PARQUET_BLOCK_BYTES		32
#define PARQUET_MAX_BITSET		((size_t) 256 * 1024 * 1024)

/* the longest header the encoder writes (a 5-byte varint for numBytes) */
#define PARQUET_HEADER_MAX		20

/*
 * Where the bitset is in bytes handed over as a Parquet filter: with its
 * header (the bytes at a column chunk's bloom_filter_offset) or without
 * (the bitset alone).  A header is never a multiple of 32 bytes long, so
 * the total length tells the two apart: a multiple of 32 is a bare bitset.
 * Returns NULL and sets *offset and *nbytes, or a reason the bytes are not
 * a Parquet split-block filter.
 */
extern const char *parquet_locate_bitset(const uint8_t *buf, size_t len,
										 size_t *offset, size_t *nbytes);

/* Writes the header of a bitset of nbytes bytes; returns its length. */
extern size_t parquet_encode_header(size_t nbytes, uint8_t *out);

/* XXH64, seed 0, of a PLAIN-encoded value: Parquet's Bloom filter hash. */
extern uint64_t parquet_hash(const void *plain, size_t len);

/* parquet_hash of the width-byte (4 or 8) little-endian encoding of v */
extern uint64_t parquet_hash_fixed(uint64_t v, int width);

#endif							/* PARQUET_FORMAT_H */
