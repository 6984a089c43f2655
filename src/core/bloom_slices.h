/*-------------------------------------------------------------------------
 *
 * bloom_slices.h
 *	  Bit-sliced columns (bloom_slices.c): filters transposed into rows of
 *	  bits, runs of bits moved between rows.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_SLICES_H
#define BLOOM_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif							/* BLOOM_SLICES_H */
