/*-------------------------------------------------------------------------
 *
 * bloom_positions.c
 *	  Hash to bits: the classic position sequence of schemes 1 and 2, the
 *	  positions a probe touches (sliced reads), the insert and test of the
 *	  layouts the inline kernels of bloom_positions.h do not serve, and the
 *	  AVX2 block kernels those inline kernels and bloom_insert_hashes call.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_positions.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_positions.h"

#ifdef BLOOM_BIG_ENDIAN
#define BLOOM_SET_BIT(bytes, b)  ((bytes)[(b) >> 3] |= (uint8_t) (1U << ((b) & 7)))
#define BLOOM_GET_BIT(bytes, b)  (((bytes)[(b) >> 3] >> ((b) & 7)) & 1)
#endif

#ifdef BLOOM_BLOCK_DISPATCH
#include <immintrin.h>

/* set by bloom_cpu_init (bloom_kernels.c) when the CPU has AVX2 */
bool		bloom_block_avx2 = false;

/* The eight salted bits of h32 in a block, one per 32-bit word. */
__attribute__((target("avx2")))
static inline __m256i
bloom_block_mask_avx2(uint32_t h32)
{
	const __m256i salt = _mm256_setr_epi32((int) 0x47b6137bU, (int) 0x44974d91U,
										   (int) 0x8824ad5bU, (int) 0xa2b7289dU,
										   (int) 0x705495c7U, (int) 0x2df1424bU,
										   (int) 0x9efc4947U, (int) 0x5c6bfb31U);
	__m256i		bit = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int) h32), salt), 27);

	return _mm256_sllv_epi32(_mm256_set1_epi32(1), bit);
}

/* Set h32's bits in a block (see bloom_insert_hash). */
__attribute__((target("avx2")))
void
bloom_block_insert_avx2(uint32_t *block, uint32_t h32)
{
	__m256i    *blk = (__m256i *) block;

	_mm256_storeu_si256(blk, _mm256_or_si256(_mm256_loadu_si256(blk),
											 bloom_block_mask_avx2(h32)));
}

/* Are all of h32's bits set in a block? (see bloom_test_hash) */
__attribute__((target("avx2")))
bool
bloom_block_test_avx2(const uint32_t *block, uint32_t h32)
{
	return _mm256_testc_si256(_mm256_loadu_si256((const __m256i *) block),
							  bloom_block_mask_avx2(h32)) != 0;
}

/*
 * Insert n hashes into a blocked filter with AVX2: the eight salted bit
 * positions of a block are computed in one 256-bit multiply, shift and
 * variable shift, and OR-ed into the block with one load and one store.
 */
__attribute__((target("avx2")))
void
bloom_insert_hashes_avx2(BloomFilter *f, const uint64_t *h, int n)
{
	for (int i = 0; i < n; i++)
	{
		__m256i    *blk = (__m256i *) ((uint32_t *) f->words +
									   bloom_block_of(f, h[i]) * BLOOM_BLOCK_WORDS32);

		_mm256_storeu_si256(blk, _mm256_or_si256(_mm256_loadu_si256(blk),
												 bloom_block_mask_avx2((uint32_t) h[i])));
	}
}
#endif

/*
 * The classic position sequence of hash h over n slots (bits of a classic
 * filter, counters of a counting one), by the filter's scheme (see the
 * file header).  The reduction mulhi(g, n) comes last, so position p over
 * n slots is p / f over n / f slots: folding stays exact.
 */
typedef struct BloomProbeSeq
{
	uint64_t	a;
	uint64_t	b;
	uint64_t	i;
	uint64_t	n;
	bool		remix;			/* scheme 2: g = remix(a), b constant */
} BloomProbeSeq;

/*
 * Scheme 2's per-probe remix of g_i = a + i b: one xorshift and one
 * multiply.  The reduction keeps the high bits of the product, which
 * depend on every bit of g (the xorshift brings the high half down first),
 * so the non-linear step breaks the arithmetic progression that makes
 * plain double hashing collapse in small filters.  Measured against k
 * truly independent positions (k = 17 in 320 bits, 2 million keys): the
 * same distribution of distinct positions per key (12 or fewer: 25 vs 31;
 * scheme 1: 2,123 per 200,000; "enhanced" double hashing with a third
 * hash for the cubic term: 361), at a third of fmix64's instructions.
 */
static inline uint64_t
bloom_probe_remix(uint64_t g)
{
	return (g ^ (g >> 32)) * UINT64_C(0xd6e8feb86659fd93);
}

/* Start the probe sequence of h over n slots. */
static inline void
bloom_seq_init(BloomProbeSeq *s, const BloomFilter *f, uint64_t h, uint64_t n)
{
	s->a = h;
	s->i = 0;
	s->n = n;
	s->remix = f->scheme != BLOOM_SCHEME_PGEXT;
	if (s->remix)
		s->b = bloom_mix64b(h ^ UINT64_C(0x2545f4914f6cdd1d)) | 1;
	else
		s->b = ((h >> 32) | (h << 32)) * UINT64_C(0x9e3779b97f4a7c15) | 1;
}

/* The next position of the sequence. */
static inline uint64_t
bloom_seq_next(BloomProbeSeq *s)
{
	uint64_t	pos;

	if (s->remix)
	{
		pos = bloom_mulhi64(bloom_probe_remix(s->a), s->n);
		s->a += s->b;
		return pos;
	}
	pos = bloom_mulhi64(s->a, s->n);
	s->a += s->b;
	s->b += s->i++;
	return pos;
}

/* Slots the positions of a classic-kind layout range over. */
static inline uint64_t
bloom_position_slots(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_COUNTING ? f->nbits / 4 : f->nbits;
}

/*
 * The positions a probe (insert or test) of hash h touches in a filter
 * with header hdr (its bits are not read): blocked, the block index (one
 * position; the block is bytes [32 b, 32 b + 32) of the bit array);
 * classic, the k bit indexes (bit p is bit p % 8 of byte p / 8); counting,
 * the k counter indexes (counter j is the low (even j) or high (odd j)
 * nibble of byte j / 2); blocked counting, the block index (one position;
 * the block is bytes [128 b, 128 b + 128), bloom_counting.c).  Returns how many were written to pos (room for
 * BLOOM_MAX_POSITIONS), 0 for a layout without positions of its own
 * (scalable: each sub-filter has its own header).  The insert and test
 * code below use the same sequence; positions may repeat.
 */
int
bloom_probe_positions(const BloomFilter *hdr, uint64_t h, uint64_t *pos)
{
	BloomProbeSeq s;

	switch (hdr->layout)
	{
		case BLOOM_LAYOUT_BLOCKED:
			pos[0] = bloom_block_of(hdr, h);
			return 1;
		case BLOOM_LAYOUT_COUNTING_BLOCKED:
			pos[0] = bloom_counting_block_of(hdr, h);
			return 1;
		case BLOOM_LAYOUT_CLASSIC:
		case BLOOM_LAYOUT_COUNTING:
			bloom_seq_init(&s, hdr, h, bloom_position_slots(hdr));
			for (int i = 0; i < hdr->nhashes; i++)
				pos[i] = bloom_seq_next(&s);
			return hdr->nhashes;
		default:
			return 0;
	}
}

/*
 * Add a hashed item to a classic filter, or to a blocked one on big-endian
 * hosts (the little-endian blocked path is inlined in bloom_positions.h).
 */
void
bloom_insert_hash_other(BloomFilter *f, uint64_t h)
{
	BloomProbeSeq s;

	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
#ifdef BLOOM_BIG_ENDIAN
		uint32_t	h32 = (uint32_t) h;
		uint64_t	block = bloom_block_of(f, h);
		uint8_t    *bytes = (uint8_t *) f->words;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			BLOOM_SET_BIT(bytes, block * 256 + i * 32 + ((h32 * bloom_salt[i]) >> 27));
#else
		bloom_insert_hash(f, h);
#endif
		return;
	}
	bloom_seq_init(&s, f, h, f->nbits);
	for (int i = 0; i < f->nhashes; i++)
	{
		uint64_t	pos = bloom_seq_next(&s);

#ifdef BLOOM_BIG_ENDIAN
		BLOOM_SET_BIT((uint8_t *) f->words, pos);
#else
		f->words[pos >> 6] |= UINT64_C(1) << (pos & 63);
#endif
	}
}

/* May the hashed item be in a classic filter (or blocked, big-endian)? */
bool
bloom_test_hash_other(const BloomFilter *f, uint64_t h)
{
	BloomProbeSeq s;

	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
#ifdef BLOOM_BIG_ENDIAN
		uint32_t	h32 = (uint32_t) h;
		uint64_t	block = bloom_block_of(f, h);
		const uint8_t *bytes = (const uint8_t *) f->words;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			if (!BLOOM_GET_BIT(bytes, block * 256 + i * 32 + ((h32 * bloom_salt[i]) >> 27)))
				return false;
		return true;
#else
		return bloom_test_hash(f, h);
#endif
	}
	bloom_seq_init(&s, f, h, f->nbits);
	for (int i = 0; i < f->nhashes; i++)
	{
		uint64_t	pos = bloom_seq_next(&s);

#ifdef BLOOM_BIG_ENDIAN
		if (!BLOOM_GET_BIT((const uint8_t *) f->words, pos))
			return false;
#else
		if (!(f->words[pos >> 6] & (UINT64_C(1) << (pos & 63))))
			return false;
#endif
	}
	return true;
}
