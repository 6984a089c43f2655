/*-------------------------------------------------------------------------
 *
 * bloom_positions.h
 *	  Hash to bits (bloom_positions.c): the hash mixers and scheme 1's
 *	  lookup3, the positions a probe touches, and the insert and test of a
 *	  hash, the little-endian blocked path inlined here with its AVX2 block
 *	  kernels.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_POSITIONS_H
#define BLOOM_POSITIONS_H

#include "bloom_format.h"

extern void bloom_insert_hash_other(BloomFilter *f, uint64_t h);
extern bool bloom_test_hash_other(const BloomFilter *f, uint64_t h);

/*
 * The positions a probe of hash h touches, from the header alone (for reads
 * of only the bytes a probe needs): blocked, 1 block index (the block is
 * bytes [32 b, 32 b + 32) of the bit array); classic, k bit indexes (bit p:
 * bit p % 8 of byte p / 8); counting, k counter indexes (counter j: the low
 * (even j) or high (odd j) nibble of byte j / 2); blocked counting, 1 block
 * index (bytes [128 b, 128 b + 128)).  Returns the count
 * written to pos, which has room for BLOOM_MAX_POSITIONS; 0 for a layout
 * without positions of its own (scalable).  Positions may repeat.
 */
#define BLOOM_MAX_POSITIONS		BLOOM_MAX_HASHES
extern int	bloom_probe_positions(const BloomFilter *hdr, uint64_t h, uint64_t *pos);

/* Final mixer of MurmurHash3: spreads every input bit over the output. */
static inline uint64_t
bloom_mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

/*
 * A second, independent 64-bit mixer (Stafford's variant 13, SplitMix64's
 * finalizer), a bijection: scheme 2 uses it where the two hashes must not
 * be related through the same mixer.
 */
static inline uint64_t
bloom_mix64b(uint64_t h)
{
	h ^= h >> 30;
	h *= UINT64_C(0xbf58476d1ce4e5b9);
	h ^= h >> 27;
	h *= UINT64_C(0x94d049bb133111eb);
	h ^= h >> 31;
	return h;
}

/*
 * Scheme 2's hash of a 64-bit integer key v (integers widened to 64 bits,
 * so int2/int4/int8 agree; int8-based types): SplitMix64 -- v times the
 * golden ratio plus a key derived from the seed, then variant 13.  A
 * bijection of v for every seed: distinct keys never share a hash, and
 * every bit of v reaches every bit of the hash.
 */
static inline uint64_t
bloom_hash_int64(uint64_t v, uint64_t seed)
{
	uint64_t	key = bloom_mix64(seed ^ UINT64_C(0x5851f42d4c957f2d));

	return bloom_mix64b(v * UINT64_C(0x9e3779b97f4a7c15) + key);
}

/*
 * Bob Jenkins' lookup3, as PostgreSQL's hash_bytes_extended() and
 * hash_bytes_uint32_extended() compute it (src/common/hashfn.c), which is
 * what the extended hash functions of text, bytea and the integer types
 * return: scheme 1 hashes those values with these inlined equivalents.
 * The byte version reads the key as little-endian words, which is what
 * PostgreSQL computes on little-endian machines whatever the alignment
 * (PostgreSQL itself reads native-endian words, so its results differ on
 * big-endian machines, where bloomset calls it instead; see bloom_hash.c).
 */
#define BLOOM_ROT32(x, k)	(((x) << (k)) | ((x) >> (32 - (k))))
#define BLOOM_LOOKUP3_MIX(a, b, c) \
	do { \
		a -= c; a ^= BLOOM_ROT32(c, 4);  c += b; \
		b -= a; b ^= BLOOM_ROT32(a, 6);  a += c; \
		c -= b; c ^= BLOOM_ROT32(b, 8);  b += a; \
		a -= c; a ^= BLOOM_ROT32(c, 16); c += b; \
		b -= a; b ^= BLOOM_ROT32(a, 19); a += c; \
		c -= b; c ^= BLOOM_ROT32(b, 4);  b += a; \
	} while (0)
#define BLOOM_LOOKUP3_FINAL(a, b, c) \
	do { \
		c ^= b; c -= BLOOM_ROT32(b, 14); \
		a ^= c; a -= BLOOM_ROT32(c, 11); \
		b ^= a; b -= BLOOM_ROT32(a, 25); \
		c ^= b; c -= BLOOM_ROT32(b, 16); \
		a ^= c; a -= BLOOM_ROT32(c, 4); \
		b ^= a; b -= BLOOM_ROT32(a, 14); \
		c ^= b; c -= BLOOM_ROT32(b, 24); \
	} while (0)

/* The little-endian 32-bit word at p (any alignment). */
static inline uint32_t
bloom_le32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t	v;

	memcpy(&v, p, sizeof(v));
	return v;
#else
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) |
		((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24);
#endif
}

/* Initial state of lookup3 for a key of len bytes and a seed. */
#define BLOOM_LOOKUP3_INIT(a, b, c, len, seed) \
	do { \
		a = b = c = 0x9e3779b9U + (uint32_t) (len) + 3923095U; \
		if ((seed) != 0) \
		{ \
			a += (uint32_t) ((seed) >> 32); \
			b += (uint32_t) (seed); \
			BLOOM_LOOKUP3_MIX(a, b, c); \
		} \
	} while (0)

/* hash_bytes_extended(k, len, seed) on a little-endian machine */
static inline uint64_t
bloom_lookup3_bytes(const uint8_t *k, uint32_t len, uint64_t seed)
{
	uint32_t	a, b, c;

	BLOOM_LOOKUP3_INIT(a, b, c, len, seed);
	for (; len >= 12; k += 12, len -= 12)
	{
		a += bloom_le32(k);
		b += bloom_le32(k + 4);
		c += bloom_le32(k + 8);
		BLOOM_LOOKUP3_MIX(a, b, c);
	}
	/* the last 0..11 bytes; the lowest byte of c takes none of them */
	switch (len)
	{
		case 11:
			c += (uint32_t) k[10] << 24;
			/* fall through */
		case 10:
			c += (uint32_t) k[9] << 16;
			/* fall through */
		case 9:
			c += (uint32_t) k[8] << 8;
			/* fall through */
		case 8:
			b += bloom_le32(k + 4);
			a += bloom_le32(k);
			break;
		case 7:
			b += (uint32_t) k[6] << 16;
			/* fall through */
		case 6:
			b += (uint32_t) k[5] << 8;
			/* fall through */
		case 5:
			b += k[4];
			/* fall through */
		case 4:
			a += bloom_le32(k);
			break;
		case 3:
			a += (uint32_t) k[2] << 16;
			/* fall through */
		case 2:
			a += (uint32_t) k[1] << 8;
			/* fall through */
		case 1:
			a += k[0];
			break;
		default:
			break;
	}
	BLOOM_LOOKUP3_FINAL(a, b, c);
	return ((uint64_t) b << 32) | c;
}

/* hash_bytes_uint32_extended(k, seed), on any machine */
static inline uint64_t
bloom_lookup3_u32(uint32_t k, uint64_t seed)
{
	uint32_t	a, b, c;

	BLOOM_LOOKUP3_INIT(a, b, c, sizeof(uint32_t), seed);
	a += k;
	BLOOM_LOOKUP3_FINAL(a, b, c);
	return ((uint64_t) b << 32) | c;
}

/* High 64 bits of a * b: maps a uniform a to [0, b). */
static inline uint64_t
bloom_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t) (((unsigned __int128) a * b) >> 64);
#else
	uint64_t	a_lo = (uint32_t) a,
				a_hi = a >> 32,
				b_lo = (uint32_t) b,
				b_hi = b >> 32;
	uint64_t	mid1 = a_hi * b_lo + ((a_lo * b_lo) >> 32);
	uint64_t	mid2 = a_lo * b_hi + (uint32_t) mid1;

	return a_hi * b_hi + (mid1 >> 32) + (mid2 >> 32);
#endif
}

/*
 * On x86-64 CPUs with AVX2 (checked at run time by bloom_cpu_init), one
 * block operation is a 256-bit multiply, shift and variable shift plus one
 * load (and store): about a fifth of the instructions of the scalar loop,
 * which lets the CPU keep several times more cache misses in flight
 * (bench/micro.c: finds in a filter larger than the caches take about half
 * the time).  These kernels live in bloom_positions.c, compiled for AVX2;
 * the inline functions below call them when bloom_block_avx2 is set
 * (bloom_cpu_init sets it, bloom_kernels.c), and so does bloom_insert_hashes
 * with bloom_insert_hashes_avx2.  Both paths compute the same bits.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BLOOM_BIG_ENDIAN)
#define BLOOM_BLOCK_DISPATCH 1
extern bool bloom_block_avx2;
extern void bloom_block_insert_avx2(uint32_t *block, uint32_t h32);
extern bool bloom_block_test_avx2(const uint32_t *block, uint32_t h32);
extern void bloom_insert_hashes_avx2(BloomFilter *f, const uint64_t *h, int n);
#endif

/*
 * Add a hashed item to a classic or blocked filter (not nitems).  The
 * blocked layout on little-endian hosts, the hot path of every aggregate,
 * is inlined here; everything else is in bloom_positions.c.
 */
static inline void
bloom_insert_hash(BloomFilter *f, uint64_t h)
{
#ifndef BLOOM_BIG_ENDIAN
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		uint32_t	h32 = (uint32_t) h;
		uint32_t   *w = (uint32_t *) f->words + bloom_block_of(f, h) * BLOOM_BLOCK_WORDS32;

#ifdef BLOOM_BLOCK_DISPATCH
		if (bloom_block_avx2)
		{
			bloom_block_insert_avx2(w, h32);
			return;
		}
#endif
		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			w[i] |= UINT32_C(1) << ((h32 * bloom_salt[i]) >> 27);
		return;
	}
#endif
	bloom_insert_hash_other(f, h);
}

/* May the hashed item be in a classic or blocked filter? */
static inline bool
bloom_test_hash(const BloomFilter *f, uint64_t h)
{
#ifndef BLOOM_BIG_ENDIAN
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		uint32_t	h32 = (uint32_t) h;
		const uint32_t *w = (const uint32_t *) f->words + bloom_block_of(f, h) * BLOOM_BLOCK_WORDS32;
		uint32_t	miss = 0;

#ifdef BLOOM_BLOCK_DISPATCH
		if (bloom_block_avx2)
			return bloom_block_test_avx2(w, h32);
#endif

		/* branch-free: the eight words share one cache line */
		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			miss |= ~w[i] & (UINT32_C(1) << ((h32 * bloom_salt[i]) >> 27));
		return miss == 0;
	}
#endif
	return bloom_test_hash_other(f, h);
}

/* Hint the CPU to fetch the cache line an insert (write) or test of h touches. */
static inline void
bloom_prefetch_hash(const BloomFilter *f, uint64_t h, bool for_write)
{
#if defined(__GNUC__) || defined(__clang__)
	const void *p = f->layout == BLOOM_LAYOUT_BLOCKED
		? (const void *) ((const uint32_t *) f->words + bloom_block_of(f, h) * BLOOM_BLOCK_WORDS32)
		: (const void *) &f->words[bloom_mulhi64(f->scheme == BLOOM_SCHEME_PGEXT ? h : bloom_mix64(h),
												 f->nbits) >> 6];

	if (for_write)
		__builtin_prefetch(p, 1, 3);
	else
		__builtin_prefetch(p, 0, 3);
#endif
}

#endif							/* BLOOM_POSITIONS_H */
