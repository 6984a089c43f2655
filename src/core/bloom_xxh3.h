/*-------------------------------------------------------------------------
 *
 * bloom_xxh3.h
 *	  The byte hash of hashing scheme 4: XXH3-64 with the filter's seed.
 *
 * XXH3's output is frozen since xxHash 0.8.0 (the project keeps it stable
 * across versions, and the sanity tests of xxHash pin it), and it reads its
 * input as little-endian words on every host, so a filter's bits depend
 * neither on the library's version nor on the CPU's byte order -- unlike
 * PostgreSQL's hash_bytes, which reads native words.  libxxhash-dev's
 * header is used inline (XXH_INLINE_ALL), as for Parquet's XXH64, so the
 * aggregates' row path hashes a short key without a call.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_XXH3_H
#define BLOOMSET_BLOOM_XXH3_H

#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Scheme 4's hash of len bytes at p under seed. */
static inline uint64_t
bloom_xxh3_bytes(const void *p, size_t len, uint64_t seed)
{
	return (uint64_t) XXH3_64bits_withSeed(p, len, (XXH64_hash_t) seed);
}

#endif							/* BLOOMSET_BLOOM_XXH3_H */
