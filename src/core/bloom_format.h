/*-------------------------------------------------------------------------
 *
 * bloom_format.h
 *	  The stored format of a bloomset filter: the header struct, the layouts,
 *	  schemes, flags and families, the limits and size macros, the host's
 *	  byte order, and where a hash falls in a split-block filter.  What
 *	  every file of the core (and the PostgreSQL layer) reads; it belongs
 *	  to no one .c file, and includes no other header of the core, so any
 *	  module can include it without depending on another.
 *
 * No core header may include a PostgreSQL header: the core is also
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
#ifndef BLOOM_FORMAT_H
#define BLOOM_FORMAT_H

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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BLOOM_BIG_ENDIAN 1
#endif

/* Parquet's split-block salts: word i of a block uses bit (h32 * SALT[i]) >> 27 */
static const uint32_t bloom_salt[BLOOM_BLOCK_WORDS32] = {
	0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
	0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U
};

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

#endif							/* BLOOM_FORMAT_H */
