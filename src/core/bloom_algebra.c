/*-------------------------------------------------------------------------
 *
 * bloom_algebra.c
 *	  Set algebra and resizing: which filters combine, folding and unfolding
 *	  of both layouts, resize_into.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_algebra.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_algebra.h"
#include "bloom_header.h"
#include "bloom_kernels.h"
#include "bloom_internal.h"

/* Bits in the unit that folding keeps together: a block, or a 64-bit word. */
uint64_t
bloom_unit_bits(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_BITS : 64;
}

/* Can filters of a and b bits be combined: one a multiple of the other? */
bool
bloom_sizes_combinable(uint64_t a, uint64_t b, uint64_t unit)
{
	uint64_t	lo = a < b ? a : b,
				hi = a < b ? b : a;

	return (lo / unit) != 0 && ((hi / unit) % (lo / unit)) == 0;
}

/*
 * Can a and b be unioned/intersected?  On false, writes a sentence naming
 * the mismatch into detail.  An empty family (nothing added yet) matches any.
 */
bool
bloom_check_compatible(const BloomFilter *a, const BloomFilter *b,
					   char *detail, size_t detail_len)
{
	if (a->layout != b->layout)
		snprintf(detail, detail_len, "The layouts differ (%s and %s).",
				 bloom_layout_name(a->layout), bloom_layout_name(b->layout));
	else if (a->scheme != b->scheme)
		snprintf(detail, detail_len,
				 "The filters use different hashing schemes (%d and %d): the same value sets different bits in each.",
				 a->scheme, b->scheme);
	else if (a->nhashes != b->nhashes)
		snprintf(detail, detail_len, "The numbers of hashes differ (%d and %d).",
				 a->nhashes, b->nhashes);
	else if (a->seed != b->seed)
		snprintf(detail, detail_len, "The seeds differ (%llu and %llu).",
				 (unsigned long long) a->seed, (unsigned long long) b->seed);
	else if (a->family[0] && b->family[0] &&
			 memcmp(a->family, b->family, BLOOM_FAMILY_LEN) != 0)
		snprintf(detail, detail_len, "The element type families differ (%s and %s).",
				 a->family, b->family);
	else if (a->family[0] && b->family[0] && a->collfp != b->collfp)
		snprintf(detail, detail_len, "The filters were built under different collations.");
	else if (!bloom_sizes_combinable(a->nbits, b->nbits, bloom_unit_bits(a)))
		snprintf(detail, detail_len,
				 "The sizes (%llu and %llu bits) are not multiples of each other, so neither can be folded onto the other.",
				 (unsigned long long) a->nbits, (unsigned long long) b->nbits);
	else
		return true;
	return false;
}

/* Is any bit in [lo, hi) set? */
static bool
bloom_any_bit(const BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);

		if (bloom_load_word(f, w) & bloom_range_mask(a, b))
			return true;
		lo = w * 64 + b;
	}
	return false;
}

/* Set bits [lo, hi). */
static void
bloom_set_bits(BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);
		uint64_t	m = bloom_range_mask(a, b);

#ifdef BLOOM_BIG_ENDIAN
		m = bloom_bswap64(m);
#endif
		f->words[w] |= m;
		lo = w * 64 + b;
	}
}

/* Store a little-endian 64-bit value OR-ed into word w of the bit array. */
static inline void
bloom_or_word(BloomFilter *f, uint64_t w, uint64_t v)
{
#ifdef BLOOM_BIG_ENDIAN
	f->words[w] |= bloom_bswap64(v);
#else
	f->words[w] |= v;
#endif
}

/* Bit i of the low 32 bits of x to bits 2i and 2i+1. */
static inline uint64_t
bloom_double_bits(uint64_t x)
{
	x &= UINT64_C(0xffffffff);
	x = (x | x << 16) & UINT64_C(0x0000ffff0000ffff);
	x = (x | x << 8) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	x = (x | x << 2) & UINT64_C(0x3333333333333333);
	x = (x | x << 1) & UINT64_C(0x5555555555555555);
	return x | x << 1;
}

/* Bits 2i and 2i+1 of x OR-ed to bit i (the inverse of bloom_double_bits). */
static inline uint64_t
bloom_halve_bits(uint64_t x)
{
	x = (x | x >> 1) & UINT64_C(0x5555555555555555);
	x = (x | x >> 1) & UINT64_C(0x3333333333333333);
	x = (x | x >> 2) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	x = (x | x >> 4) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x >> 8) & UINT64_C(0x0000ffff0000ffff);
	x = (x | x >> 16) & UINT64_C(0x00000000ffffffff);
	return x;
}

/* log2(f) if f is 2, 4, 8, 16 or 32, else 0. */
static int
bloom_small_pow2_shift(uint64_t f)
{
	for (int s = 1; s <= 5; s++)
		if (f == (UINT64_C(1) << s))
			return s;
	return 0;
}

/*
 * Blocked layout, fold (OR each run of f adjacent source blocks into one)
 * or unfold (copy each source block into f adjacent ones).  A block is four
 * 64-bit words; byte order does not matter for OR and copies.  Chunked by
 * the larger side, so a fold onto one block still polls.
 */
static void
bloom_resize_blocked(const BloomFilter *src, BloomFilter *dst)
{
	uint64_t	nsrc = src->nbits / BLOOM_BLOCK_BITS,
				ndst = dst->nbits / BLOOM_BLOCK_BITS;
	size_t		per = BLOOM_POLL_BYTES / (BLOOM_BLOCK_BITS / 8);

	if (nsrc >= ndst)
	{
		uint64_t	f = nsrc / ndst;

		for (size_t lo = 0, hi; lo < nsrc; lo = hi)
		{
			uint64_t   *dw = dst->words + (lo / f) * 4;
			uint64_t	r = lo % f;

			hi = bloom_chunk_end(lo, nsrc, per);
			for (size_t b = lo; b < hi; b++)
			{
				const uint64_t *sw = src->words + b * 4;

				dw[0] |= sw[0];
				dw[1] |= sw[1];
				dw[2] |= sw[2];
				dw[3] |= sw[3];
				if (++r == f)
				{
					r = 0;
					dw += 4;
				}
			}
		}
	}
	else
	{
		uint64_t	f = ndst / nsrc;

		for (size_t lo = 0, hi; lo < ndst; lo = hi)
		{
			hi = bloom_chunk_end(lo, ndst, per);
			for (size_t d = lo; d < hi; d++)
				for (int j = 0; j < 4; j++)
					dst->words[d * 4 + j] |= src->words[(d / f) * 4 + j];
		}
	}
}

/*
 * Classic layout, fold by f: bit d of dst is the OR of src bits [d f,
 * (d+1) f).  For f = 2 .. 32, a power of two, each source word is halved
 * s = log2(f) times (bloom_halve_bits) into 64/f bits of its destination
 * word; otherwise each destination bit tests its run of source bits.
 * Chunked by source words.
 */
static void
bloom_fold_classic(const BloomFilter *src, BloomFilter *dst)
{
	uint64_t	f = src->nbits / dst->nbits;
	int			shift = bloom_small_pow2_shift(f);

	if (shift > 0)
	{
		size_t		nw = BLOOM_NWORDS(src);
		unsigned	per_word = 64 >> shift; /* dst bits from one src word */

		for (size_t lo = 0, hi; lo < nw; lo = hi)
		{
			hi = bloom_chunk_end(lo, nw, BLOOM_POLL_WORDS);
			for (size_t w = lo; w < hi; w++)
			{
				uint64_t	v = bloom_load_word(src, w);

				if (v == 0)
					continue;
				for (int i = 0; i < shift; i++)
					v = bloom_halve_bits(v);
				bloom_or_word(dst, w >> shift, v << ((w & ((UINT64_C(1) << shift) - 1)) * per_word));
			}
		}
	}
	else
	{
		size_t		per = f >= BLOOM_POLL_BYTES * 8 ? 1 : BLOOM_POLL_BYTES * 8 / f;

		for (size_t lo = 0, hi; lo < dst->nbits; lo = hi)
		{
			hi = bloom_chunk_end(lo, dst->nbits, per);
			for (uint64_t d = lo; d < hi; d++)
				if (bloom_any_bit(src, d * f, (d + 1) * f))
					bloom_set_bits(dst, d, d + 1);
		}
	}
}

/*
 * Classic layout, unfold by f: dst bits [i f, (i+1) f) take src bit i.
 * For f = 2 .. 32, a power of two, each non-zero source word is cut into
 * the f pieces of 64/f bits that make its f destination words, each doubled
 * s = log2(f) times (bloom_double_bits): zero words cost one test.
 * Otherwise one destination word at a time from the set source bits among
 * the (at most 64/f + 2) that reach it, each as a mask.  Either way the work
 * per word is bounded however dense the source; chunked by destination
 * words.
 */
static void
bloom_unfold_classic(const BloomFilter *src, BloomFilter *dst)
{
	uint64_t	f = dst->nbits / src->nbits;
	int			shift = bloom_small_pow2_shift(f);

	if (shift > 0)
	{
		size_t		nw = BLOOM_NWORDS(src);
		unsigned	per_word = 64 >> shift; /* src bits per dst word */

		for (size_t lo = 0, hi; lo < nw; lo = hi)
		{
			hi = bloom_chunk_end(lo, nw, BLOOM_POLL_WORDS >> shift);
			for (size_t w = lo; w < hi; w++)
			{
				uint64_t	v = bloom_load_word(src, w);

				if (v == 0)
					continue;
				for (uint64_t j = 0; j < f; j++)
				{
					uint64_t	m = (v >> (j * per_word)) & ((UINT64_C(1) << per_word) - 1);

					for (int i = 0; i < shift && m != 0; i++)
						m = bloom_double_bits(m);
					if (m != 0)
						bloom_or_word(dst, w * f + j, m);
				}
			}
		}
		return;
	}
	for (size_t lo = 0, hi; lo < BLOOM_NWORDS(dst); lo = hi)
	{
		hi = bloom_chunk_end(lo, BLOOM_NWORDS(dst), BLOOM_POLL_WORDS);
		for (size_t w = lo; w < hi; w++)
		{
			uint64_t	m = 0,
						b0 = (uint64_t) w * 64,
						b1 = b0 + 64,
						i = b0 / f,
						last = (b1 - 1) / f;

			while (i <= last)
			{
				unsigned	off = (unsigned) (i % 64);
				uint64_t	span = last - i + 1 < 64 - (uint64_t) off ? last - i + 1 : 64 - off;
				uint64_t	v = bloom_load_word(src, i / 64) >> off;

				if (span < 64)
					v &= (UINT64_C(1) << span) - 1;
				while (v)
				{
					uint64_t	j = i + (uint64_t) bloom_ctz64(v);
					uint64_t	a = j * f > b0 ? j * f : b0,
								b = (j + 1) * f < b1 ? (j + 1) * f : b1;

					v &= v - 1;
					m |= bloom_range_mask((unsigned) (a - b0), (unsigned) (b - b0));
				}
				i += span;
			}
			if (m != 0)
				bloom_or_word(dst, w, m);
		}
	}
}

/*
 * Copy the bits of src into dst, which has the same parameters but a size
 * that is a multiple or a divisor of src's: fold (OR runs of adjacent units)
 * or unfold (replicate each unit).  dst's bits must be zero on entry (fold
 * and unfold OR into it).  For the classic layout a unit is a bit; for the
 * blocked one, a block.
 */
void
bloom_resize_into(const BloomFilter *src, BloomFilter *dst)
{
	if (src->nbits == dst->nbits)
		bloom_or_words(dst->words, src->words, BLOOM_NWORDS(src));
	else if (src->layout == BLOOM_LAYOUT_BLOCKED)
		bloom_resize_blocked(src, dst);
	else if (src->nbits >= dst->nbits)
		bloom_fold_classic(src, dst);
	else
		bloom_unfold_classic(src, dst);
}
