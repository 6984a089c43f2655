/*-------------------------------------------------------------------------
 *
 * bloom_slices.c
 *	  Bit-sliced columns: filters transposed into rows of bits, and runs of
 *	  bits ORed from one row into another at any bit offset.
 *
 * A bit-sliced store keeps many filters of the same m bits as m rows, bit
 * c of row p being bit p of filter c (bloomskip's segments).  Writing
 * filters into it, or moving columns from one such store into another, is
 * a transposition and then a shifted OR of each row.  Done a bit at a time,
 * that is m x n steps (20,000 x 576 for one merge of bloomskip's recent
 * segment); here a transposition takes an 8 x 8 block of bits in a few word
 * operations, and a run of bits moves a byte at a time.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_slices.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_slices.h"
#include "bloom_kernels.h"

/*
 * Transpose the 8 x 8 bit matrix in x (byte i its row i, bit j of a byte
 * its column j): bit 8 i + j moves to bit 8 j + i (Hacker's Delight, 7-3).
 */
static inline uint64_t
bloom_transpose8(uint64_t x)
{
	uint64_t	t;

	t = (x ^ (x >> 7)) & UINT64_C(0x00AA00AA00AA00AA);
	x = x ^ t ^ (t << 7);
	t = (x ^ (x >> 14)) & UINT64_C(0x0000CCCC0000CCCC);
	x = x ^ t ^ (t << 14);
	t = (x ^ (x >> 28)) & UINT64_C(0x00000000F0F0F0F0);
	x = x ^ t ^ (t << 28);
	return x;
}

/*
 * Byte q of filters 8 g .. 8 g + 7 (those of [0, n) that are not NULL) as
 * the rows of an 8 x 8 matrix: byte i of the result is filter 8 g + i's.
 */
static inline uint64_t
bloom_gather8(const uint8_t *const *filters, uint32_t n, uint32_t g, size_t q)
{
	uint64_t	x = 0;

	for (uint32_t i = 0; i < 8 && 8 * g + i < n; i++)
		if (filters[8 * g + i] != NULL)
			x |= (uint64_t) filters[8 * g + i][q] << (8 * i);
	return x;
}

void
bloom_transpose_filters(const uint8_t *const *filters, uint32_t n, uint64_t nbits,
						uint8_t *rows, size_t stride)
{
	uint32_t	groups = (n + 7) / 8;
	size_t		nbytes = (size_t) (nbits / 8);
	size_t		per = BLOOM_POLL_BYTES / (groups > 0 ? groups : 1);

	for (size_t lo = 0, hi; lo < nbytes; lo = hi)
	{
		hi = bloom_chunk_end(lo, nbytes, per);
		for (size_t q = lo; q < hi; q++)
		{
			for (uint32_t g = 0; g < groups; g++)
			{
				uint64_t	x = bloom_gather8(filters, n, g, q);

				if (x == 0)
					continue;
				x = bloom_transpose8(x);
				/* byte j of x: bit 8 q + j of the group's eight filters */
				for (int j = 0; j < 8; j++)
					rows[(8 * q + j) * stride + g] = (uint8_t) (x >> (8 * j));
			}
		}
	}
}

/*
 * Bits [bit, bit + len) of src (len 1 to 8) as the low bits of a byte;
 * reads only the bytes holding them.
 */
static inline uint8_t
bloom_bits_at(const uint8_t *src, uint64_t bit, unsigned len)
{
	unsigned	shift = (unsigned) (bit % 8);
	unsigned	v = (unsigned) src[bit / 8] >> shift;

	if (shift + len > 8)
		v |= (unsigned) src[bit / 8 + 1] << (8 - shift);
	return (uint8_t) (v & ((1u << len) - 1));
}

bool
bloom_or_bit_run(uint8_t *dst, uint64_t dbit, const uint8_t *src, uint64_t sbit,
				 uint64_t n, bool apply)
{
	bool		lacks = false;

	for (uint64_t i = 0; i < n;)
	{
		uint64_t	d = dbit + i;
		unsigned	len = (unsigned) (8 - d % 8 < n - i ? 8 - d % 8 : n - i);
		uint8_t		v = (uint8_t) (bloom_bits_at(src, sbit + i, len) << (d % 8));

		if ((dst[d / 8] & v) != v)
		{
			if (!apply)
				return true;
			dst[d / 8] |= v;
			lacks = true;
		}
		i += len;
	}
	return lacks;
}

bool
bloom_bit_run_any(const uint8_t *src, uint64_t sbit, uint64_t n)
{
	for (uint64_t i = 0; i < n;)
	{
		unsigned	len = (unsigned) (n - i < 8 ? n - i : 8);

		if (bloom_bits_at(src, sbit + i, len) != 0)
			return true;
		i += len;
	}
	return false;
}
