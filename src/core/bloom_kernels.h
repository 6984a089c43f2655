/*-------------------------------------------------------------------------
 *
 * bloom_kernels.h
 *	  Word kernels with run-time CPU dispatch (bloom_kernels.c): popcount,
 *	  OR and AND of word arrays, the batch insert, chunked byte loops, and
 *	  the interrupt hook every long loop of the core polls.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_KERNELS_H
#define BLOOM_KERNELS_H

#include "bloom_format.h"

extern void bloom_cpu_init(bool portable_only);
extern void bloom_insert_hashes(BloomFilter *f, const uint64_t *h, int n);
extern const char *bloom_cpu_path(void);
extern uint64_t bloom_popcount(const BloomFilter *f);
extern void bloom_or_words(uint64_t *dst, const uint64_t *src, size_t n);
extern void bloom_and_words(uint64_t *dst, const uint64_t *src, size_t n);
extern bool bloom_bytes_equal(const void *a, const void *b, size_t n);
extern void bloom_copy_bytes(void *dst, const void *src, size_t n);
extern void bloom_zero_bytes(void *dst, size_t n);

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

#endif							/* BLOOM_KERNELS_H */
