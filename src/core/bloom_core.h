/*-------------------------------------------------------------------------
 *
 * bloom_core.h
 *	  The stored format of a bloomset filter and the PostgreSQL-free core
 *	  that operates on it.  One header for the core's files, one section a
 *	  file, each section naming the file that owns it ("owner: ..."; the
 *	  import-graph check reads these names and counts the files as one
 *	  module with this header):
 *
 *	   bloom_core.c       the design of the core; the interrupt hook
 *	   bloom_sizing.c     sizing for a capacity and a rate, model rates
 *	   bloom_header.c     the header: initialisation, names, validators
 *	   bloom_positions.c  hash to bits: position sequences, probe positions
 *	   bloom_counting.c   the counting layout's 4-bit counters
 *	   bloom_algebra.c    which filters combine; folding and unfolding
 *	   bloom_kernels.c    word kernels with run-time CPU dispatch (AVX2),
 *	                      popcount, chunked byte loops
 *	   bloom_estimate.c   distinct items, pair cardinalities, rates
 *	   bloom_slices.c     bit-sliced columns: filters transposed into rows,
 *	                      runs of bits moved between rows
 *
 *	  What these files share and nobody else calls is in
 *	  bloom_core_internal.h.  The text/binary codecs are a module of their
 *	  own (bloom_codec.c).
 *
 * This header must not include any PostgreSQL header: the core is also
 * compiled into the C unit test, the microbenchmark and the fuzz targets.
 *
 * Stored format, version 1 (a varlena; header integers in host byte order on
 * disk and in network byte order in the binary send/recv form).  The bit
 * array is a byte string in every form: bit b is bit (b % 8) of byte b / 8,
 * so it never depends on the host's byte order (on little-endian hosts this
 * is the same as 64-bit words, which the code uses for speed):
 *
 *	 offset size field
 *	 0		4	 varlena length word
 *	 4		1	 version		 BLOOM_FORMAT_VERSION (1)
 *	 5		1	 layout		 BLOOM_LAYOUT_* (below)
 *	 6		1	 scheme		 hashing scheme, BLOOM_SCHEME_PGEXT (1.0, 1.1),
 *						 BLOOM_SCHEME_FULL64 (new filters 1.2 to 1.4) or
 *						 BLOOM_SCHEME_XXH3 (new filters since 1.5)
 *	 7		1	 nhashes		 k: probes per item (8 for blocked)
 *	 8		8	 seed		 seed given to the element hash
 *	 16		8	 nbits		 m: bits in the array
 *	 24		8	 nitems		 items added (saturating upper bound)
 *	 32		4	 flags		 BLOOM_FLAG_* (bits 0..15); bits 16..31: the
 *						 target rate (BLOOM_FLAG_TARGET_MASK, below)
 *	 36		4	 collfp		 fingerprint of a nondeterministic collation, or 0
 *	 40		32	 family		 element type family, NUL padded ("" = none yet)
 *	 72		nbits/8 the bit array, in 64-bit words
 *
 * Layouts reserved for later variants keep this header and give the bit
 * array their own meaning; a reader rejects any layout it does not know.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BLOOM_FORMAT_VERSION	1

/* layouts: how hashes map to bits */
#define BLOOM_LAYOUT_CLASSIC	0	/* k positions anywhere in m bits */
#define BLOOM_LAYOUT_BLOCKED	1	/* split block: 8 bits in one 256-bit block */
#define BLOOM_LAYOUT_COUNTING	2	/* 4-bit counters (type counting_bloom) */
#define BLOOM_COUNTER_MAX		15	/* where a 4-bit counter saturates */
#define BLOOM_LAYOUT_SCALABLE	3	/* chain of sub-filters (type scalable_bloom) */
#define BLOOM_LAYOUT_COUNTING_BLOCKED 4 /* 4-bit counters, split block (since 1.4) */
#define BLOOM_LAYOUT_MAX		BLOOM_LAYOUT_COUNTING_BLOCKED

/*
 * The blocked counting layout (type counting_bloom, new filters since 1.4):
 * the bloom type's split-block layout with a 4-bit counter in place of
 * each bit.  A block is 256 counters (128 bytes, two adjacent cache
 * lines), eight groups of 32; a hash picks one block and one counter in
 * each group, exactly where the blocked bloom layout of nbits / 4 bits puts
 * its eight bits (bloom_counting.c), so the cast to bloom is exact.
 */
#define BLOOM_COUNTING_BLOCK_COUNTERS	256
#define BLOOM_COUNTING_BLOCK_BYTES		(BLOOM_COUNTING_BLOCK_COUNTERS / 2)

/* Is layout one of the counting_bloom type's (4-bit counters)? */
static inline bool
bloom_layout_is_counting(int layout)
{
	return layout == BLOOM_LAYOUT_COUNTING || layout == BLOOM_LAYOUT_COUNTING_BLOCKED;
}

/*
 * Hashing schemes: how a value becomes a 64-bit hash, and (classic and
 * counting layouts) how the hash becomes k positions.  A filter keeps the
 * scheme it was created with for life: adding to it, folding it, combining
 * it use that scheme, so the answers of a stored filter never change.
 *	 1 (pgext, bloomset 1.0 and 1.1): the type's extended hash, fmix64; the
 *	   classic positions by double hashing of that hash.
 *	 2 (full64, new filters since 1.2): integer-like types hashed over their
 *	   full 64 (interval: 128) bits, numerics with their sign, jsonb by its
 *	   structure (bloom_hash.c); classic positions remixed per probe, so
 *	   they behave as independent (bloom_positions.c).
 *	 3 (parquet, since 1.2): XXH64, seed 0, of the value's Parquet PLAIN
 *	   encoding, no further mixing (bloom_parquet.c); blocked layout and
 *	   seed 0 only, element family "parquet:<type>" (one concrete type: the
 *	   encoding depends on it).  The bit array is then exactly the bitset of
 *	   a Parquet split-block filter (parquet_format.h).
 *	 4 (xxh3, new filters since 1.5): as 2, except that the types whose
 *	   equality is byte equality (text and varchar under a deterministic
 *	   collation, bytea, name, char(n) without its trailing spaces, "char",
 *	   uuid) hash their bytes with XXH3-64 under the filter's seed
 *	   (bloom_xxh3.h), which reads bytes, not host words, so it does not
 *	   depend on the CPU's byte order.  Positions as in scheme 2.
 */
#define BLOOM_SCHEME_PGEXT		1
#define BLOOM_SCHEME_FULL64		2
#define BLOOM_SCHEME_PARQUET	3	/* bloom type, blocked layout only */
#define BLOOM_SCHEME_XXH3		4
#define BLOOM_SCHEME_DEFAULT	BLOOM_SCHEME_XXH3	/* what new filters get */

/* the element family prefix of Parquet filters, and only theirs */
#define BLOOM_FAMILY_PARQUET	"parquet:"

/*
 * Is scheme one this build reads and writes for every layout?  (The
 * Parquet scheme is known too, for blocked bloom filters only: see
 * bloom_check_shape.)
 */
static inline bool
bloom_scheme_known(int scheme)
{
	return scheme == BLOOM_SCHEME_PGEXT || scheme == BLOOM_SCHEME_FULL64 ||
		scheme == BLOOM_SCHEME_XXH3;
}

/* flags */
#define BLOOM_FLAG_AUTOSIZED	0x0001	/* sized by bloom_agg(x) (power of two) */
#define BLOOM_FLAG_FOLDED		0x0002	/* folded/unfolded by union or fold */
/*
 * Bits 16..31 of flags (written since bloomset 1.1; 1.0 wrote 0 there and
 * its binary refuses any value with them set): the false-positive rate the
 * filter was sized for, as round(-log2(rate) * 256), so rates in (0, 0.5]
 * are codes 256 .. 65535 (1.0 ... 2^-256), recorded to 0.3 %.  0 means none
 * was recorded: the filter was made with explicit parameters, or by 1.0 --
 * where an automatically sized filter (BLOOM_FLAG_AUTOSIZED) still has the
 * automatic rate as its target.  Codes 1 .. 255 are invalid.
 */
#define BLOOM_FLAG_TARGET_SHIFT	16
#define BLOOM_FLAG_TARGET_MASK	UINT32_C(0xFFFF0000)
#define BLOOM_TARGET_CODE_MIN	256
#define BLOOM_FLAGS_KNOWN		(UINT32_C(0x0003) | BLOOM_FLAG_TARGET_MASK)

/* the rate automatic sizing (bloom_agg(x)) aims at */
#define BLOOM_AUTO_FPR			0.01

#define BLOOM_FAMILY_LEN		32	/* bytes, including the terminating NUL */

/*
 * Element families (the family field).  "" means nothing added yet; the
 * PostgreSQL layer writes a type family (hash operator family name, with
 * array(...)/range(...) decorations and a collation suffix) for filters of
 * values, "token" for bloom_token_agg and "ngram:N" for bloom_ngram_agg with
 * n-grams of N characters, N in 1 .. BLOOM_NGRAM_MAX written in canonical
 * decimal.  Every input path rejects any other family that starts with
 * "token" or "ngram", so the probes never meet an impossible n.
 */
#define BLOOM_FAMILY_TOKEN		"token"
#define BLOOM_FAMILY_NGRAM		"ngram:"
#define BLOOM_NGRAM_MAX			8	/* longest n-gram; ClickHouse allows 1..8 */

/*
 * Limits.  The bit array is capped at 256 MiB (2^31 bits): large enough for
 * about 200 million items at 1 %, small enough that a filter, its text form
 * (hex, twice the size) and an aggregate's serialized state stay well under
 * PostgreSQL's 1 GB varlena limit.
 */
#define BLOOM_MAX_BITS			(UINT64_C(1) << 31)
#define BLOOM_MIN_BITS			256		/* one block / four words */
#define BLOOM_MAX_HASHES		32		/* classic layout */
#define BLOOM_BLOCK_BITS		256
#define BLOOM_BLOCK_WORDS32		8
#define BLOOM_BLOCKED_HASHES	8
#define BLOOM_MAX_FPR			0.5
#define BLOOM_MAX_CAPACITY		(INT64_C(1) << 40)

/* below this rate the blocked layout pays > 20 % more space than classic
 * (1.18x at 0.1 %, 1.37x at 0.01 %), so classic is chosen */
#define BLOOM_BLOCKED_MIN_FPR	5e-4

typedef struct BloomFilter
{
	int32_t		vl_len_;		/* varlena header (do not touch directly) */
	uint8_t		version;
	uint8_t		layout;
	uint8_t		scheme;
	uint8_t		nhashes;
	uint64_t	seed;
	uint64_t	nbits;
	uint64_t	nitems;
	uint32_t	flags;
	uint32_t	collfp;
	char		family[BLOOM_FAMILY_LEN];
	uint64_t	words[];		/* nbits / 64 words */
} BloomFilter;

#define BLOOM_HEADER_SIZE		offsetof(BloomFilter, words)
#define BLOOM_NWORDS(f)			((f)->nbits / 64)
#define BLOOM_DATA_BYTES(f)		((size_t) ((f)->nbits / 8))
#define BLOOM_TOTAL_SIZE(nbits) (BLOOM_HEADER_SIZE + (size_t) ((nbits) / 8))

/* size of the binary (send/recv) header: fields in network order */
#define BLOOM_WIRE_HEADER_SIZE	(4 + 8 + 8 + 8 + 4 + 4 + BLOOM_FAMILY_LEN)

/* sizing (owner: bloom_sizing.c) ------------------------------------- */

/*
 * Result of bloom_size_for.  Three outcomes:
 *	 - nbits > 0: a filter of nbits bits whose model rate at capacity items
 *	   is expected_fpr (at most the request, up to the rounding of k);
 *	 - unreachable != NULL (nbits = 0): the rate is below what the layout's
 *	   hash limit (classic: at most BLOOM_MAX_HASHES, blocked: exactly 8) can
 *	   reach for capacity items within BLOOM_MAX_BITS, although an ideal
 *	   filter (any number of hashes) would fit; min_fpr is then the smallest
 *	   rate the layout reaches for that capacity.  An invalid parameter
 *	   (SQLSTATE 22023), not a size limit;
 *	 - otherwise nbits = 0: the filter would exceed BLOOM_MAX_BITS even with
 *	   the ideal number of hashes (needed_bits says how many it needs): the
 *	   program limit (SQLSTATE 54000).
 */
typedef struct BloomSizing
{
	int			layout;
	int			nhashes;
	uint64_t	nbits;			/* 0 if no filter within BLOOM_MAX_BITS */
	double		needed_bits;	/* before the limit and rounding */
	double		expected_fpr;	/* model rate at the requested capacity */
	const char *unreachable;	/* NULL, or why the rate cannot be reached */
	double		min_fpr;		/* with unreachable: smallest reachable rate */
} BloomSizing;

extern const char *bloom_check_sizing_args(int64_t capacity, double fpr);
extern BloomSizing bloom_size_for(int64_t capacity, double fpr, int layout,
								  bool pow2);
extern double bloom_min_reachable_fpr(int64_t capacity, int layout);
extern double bloom_blocked_fpr(double items_per_block);
extern double bloom_classic_fpr(double n, double m, int k);
extern int	bloom_choose_layout(double fpr);
extern int	bloom_choose_counting_layout(int64_t capacity, double fpr);

/* header (owner: bloom_header.c) ------------------------------------- */

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

/* hash to bits (owner: bloom_positions.c; the AVX2 block kernels:
 * bloom_kernels.c) ----------------------------------------------------- */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BLOOM_BIG_ENDIAN 1
#endif

/* Parquet's split-block salts: word i of a block uses bit (h32 * SALT[i]) >> 27 */
static const uint32_t bloom_salt[BLOOM_BLOCK_WORDS32] = {
	0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
	0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U
};

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

/* Index of the block a hash falls into (multiply-shift of the high half). */
static inline uint64_t
bloom_block_of(const BloomFilter *f, uint64_t h)
{
	return ((h >> 32) * (f->nbits / BLOOM_BLOCK_BITS)) >> 32;
}

/*
 * The block of a blocked counting filter a hash falls into: the same
 * multiply-shift over its nbits / 1024 blocks of 256 counters, so it is the
 * block bloom_block_of picks in the blocked bloom filter of nbits / 4 bits.
 */
static inline uint64_t
bloom_counting_block_of(const BloomFilter *f, uint64_t h)
{
	return ((h >> 32) * (f->nbits / (4 * BLOOM_COUNTING_BLOCK_COUNTERS))) >> 32;
}

/*
 * On x86-64 CPUs with AVX2 (checked at run time by bloom_cpu_init), one
 * block operation is a 256-bit multiply, shift and variable shift plus one
 * load (and store): about a fifth of the instructions of the scalar loop,
 * which lets the CPU keep several times more cache misses in flight
 * (bench/micro.c: finds in a filter larger than the caches take about half
 * the time).  These kernels live in
 * bloom_kernels.c, compiled for AVX2; the inline functions below call them
 * when bloom_block_avx2 is set.  Both paths compute the same bits.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(BLOOM_BIG_ENDIAN)
#define BLOOM_BLOCK_DISPATCH 1
extern bool bloom_block_avx2;
extern void bloom_block_insert_avx2(uint32_t *block, uint32_t h32);
extern bool bloom_block_test_avx2(const uint32_t *block, uint32_t h32);
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

/* counting layout (owner: bloom_counting.c) -------------------------- */

extern void bloom_counting_add(BloomFilter *f, uint64_t h);
extern void bloom_counting_prefetch(const BloomFilter *f, uint64_t h);
extern bool bloom_counting_test(const BloomFilter *f, uint64_t h);
extern bool bloom_counting_remove(BloomFilter *f, uint64_t h);
extern void bloom_counting_merge(BloomFilter *dst, const BloomFilter *src);
extern void bloom_counting_to_bits(const BloomFilter *src, BloomFilter *dst);

/* set algebra and resizing (owner: bloom_algebra.c) ------------------ */

extern bool bloom_check_compatible(const BloomFilter *a,
								   const BloomFilter *b,
								   char *detail, size_t detail_len);
extern bool bloom_sizes_combinable(uint64_t a, uint64_t b, uint64_t unit);
extern void bloom_resize_into(const BloomFilter *src, BloomFilter *dst);
extern uint64_t bloom_unit_bits(const BloomFilter *f);

/* estimates (owner: bloom_estimate.c) -------------------------------- */

extern double bloom_estimate_items(const BloomFilter *f, uint64_t bits_set);
extern double bloom_estimate_distinct(const BloomFilter *f);

/*
 * bloom_estimate_distinct looks for the factors a union across sizes
 * unfolded a filter by among the divisors of its size in units: at most
 * this many of them (a power-of-two size has at most 25; the most divisible
 * explicit sizes have up to 1,344, whose largest are then not tried), and
 * at most BLOOM_UNFOLD_MAX_TRIES passes over the bits, so an estimate
 * reads a filter a bounded number of times.
 */
#define BLOOM_UNFOLD_MAX_DIVISORS	1024
#define BLOOM_UNFOLD_MAX_TRIES		64

/* Estimated cardinalities of two filters and of their union and intersection. */
typedef struct BloomPairCard
{
	double		a;				/* |A| */
	double		b;				/* |B| */
	double		uni;			/* |A ∪ B| */
	double		inter;			/* |A ∩ B| */
} BloomPairCard;

extern BloomPairCard bloom_estimate_pair(const BloomFilter *a, const BloomFilter *b,
										 const BloomFilter *u);
extern double bloom_current_fpr(const BloomFilter *f);
extern double bloom_model_fpr(const BloomFilter *f, double n);
extern void bloom_set_target_fpr(BloomFilter *f, double fpr);
extern double bloom_target_fpr(const BloomFilter *f);
extern uint32_t bloom_combined_flags(const BloomFilter *a, const BloomFilter *b);

/* word kernels, run-time CPU dispatch (owner: bloom_kernels.c) ------- */

extern void bloom_cpu_init(bool portable_only);
extern void bloom_insert_hashes(BloomFilter *f, const uint64_t *h, int n);
extern const char *bloom_cpu_path(void);
extern uint64_t bloom_popcount(const BloomFilter *f);
extern void bloom_or_words(uint64_t *dst, const uint64_t *src, size_t n);
extern void bloom_and_words(uint64_t *dst, const uint64_t *src, size_t n);
extern bool bloom_bytes_equal(const void *a, const void *b, size_t n);
extern void bloom_copy_bytes(void *dst, const void *src, size_t n);
extern void bloom_zero_bytes(void *dst, size_t n);

/* bit-sliced columns (owner: bloom_slices.c) ------------------------ */

/*
 * Bit b of a row or a filter is bit b % 8 of byte b / 8.
 *
 * bloom_transpose_filters: filters[0 .. n) (nbits bits each, nbits a
 * multiple of 8; NULL: no bits) as nbits rows of stride bytes (stride at
 * least (n + 7) / 8) in rows: bit i of row p is bit p of filters[i].  Writes
 * only the bytes that have a bit set: rows must be zeroed by the caller.
 *
 * bloom_or_bit_run: OR bits [sbit, sbit + n) of src into bits [dbit,
 * dbit + n) of dst; with apply false, only look.  Returns whether dst
 * lacked any of them (with apply false, it stops at the first).
 *
 * bloom_bit_run_any: is any of bits [sbit, sbit + n) of src set?
 *
 * Each reads and writes only the bytes that hold the bits it names.
 */
extern void bloom_transpose_filters(const uint8_t *const *filters, uint32_t n, uint64_t nbits,
									uint8_t *rows, size_t stride);
extern bool bloom_or_bit_run(uint8_t *dst, uint64_t dbit, const uint8_t *src, uint64_t sbit,
							 uint64_t n, bool apply);
extern bool bloom_bit_run_any(const uint8_t *src, uint64_t sbit, uint64_t n);

/* interrupts (owner: bloom_core.c) ----------------------------------- */

/*
 * Every loop of the core that can run over a large filter calls
 * bloom_interrupt_hook (the PostgreSQL layer sets it to a function running
 * CHECK_FOR_INTERRUPTS) after each BLOOM_POLL_BYTES of filter data it
 * processed; loops over less data than that never call it.  The hook may
 * not return (an error unwinds the stack): the core holds no resources
 * across a call, and leaves only partly written output behind.
 *
 * 256 KiB takes 10-20 us in the fastest kernels (OR, popcount) and about
 * 1 ms in the slowest (hex decoding), so a cancel is seen within a
 * millisecond and the call costs nothing measurable.
 */
#define BLOOM_POLL_BYTES		((size_t) 256 * 1024)
#define BLOOM_POLL_WORDS		(BLOOM_POLL_BYTES / sizeof(uint64_t))

extern void (*bloom_interrupt_hook) (void);

/*
 * The one chunking step of every long loop: the end of the chunk that
 * starts at unit lo of n, at most per units long, where per units are about
 * BLOOM_POLL_BYTES of work.  Calls the hook before every chunk but the first.
 *
 *	 for (size_t lo = 0, hi; lo < n; lo = hi)
 *	 {
 *		 hi = bloom_chunk_end(lo, n, per);
 *		 ... units [lo, hi) ...
 *	 }
 */
static inline size_t
bloom_chunk_end(size_t lo, size_t n, size_t per)
{
	if (lo > 0 && bloom_interrupt_hook != NULL)
		bloom_interrupt_hook();
	if (per == 0)
		per = 1;
	return n - lo <= per ? n : lo + per;
}

#endif							/* BLOOM_CORE_H */
