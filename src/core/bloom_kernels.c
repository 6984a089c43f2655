/*-------------------------------------------------------------------------
 *
 * bloom_kernels.c
 *	  The word kernels with run-time CPU dispatch (AVX2, POPCNT, portable C),
 *	  the interrupt hook and the chunked byte loops that poll it.  The AVX2
 *	  block kernels of the blocked layout are in bloom_positions.c, beside
 *	  the inline insert and test that call them; bloom_cpu_init chooses
 *	  them too.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_kernels.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_kernels.h"
#include "bloom_positions.h"
#include "bloom_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BLOOM_X86_DISPATCH 1
#include <immintrin.h>

__attribute__((target("popcnt")))
static uint64_t
bloom_popcount_popcnt(const uint64_t *w, size_t n)
{
	uint64_t	c = 0;

	for (size_t i = 0; i < n; i++)
		c += (uint64_t) __builtin_popcountll(w[i]);
	return c;
}

__attribute__((target("avx2")))
static void
bloom_or_avx2(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] |= src[i];
}

__attribute__((target("avx2")))
static void
bloom_and_avx2(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] &= src[i];
}
#endif

static void
bloom_insert_hashes_portable(BloomFilter *f, const uint64_t *h, int n)
{
	for (int i = 0; i < n; i++)
		bloom_insert_hash(f, h[i]);
}

static void
bloom_or_portable(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] |= src[i];
}

static void
bloom_and_portable(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] &= src[i];
}

static uint64_t (*bloom_popcount_impl) (const uint64_t *, size_t) = bloom_popcount_portable;
static void (*bloom_or_impl) (uint64_t *, const uint64_t *, size_t) = bloom_or_portable;
static void (*bloom_and_impl) (uint64_t *, const uint64_t *, size_t) = bloom_and_portable;
static void (*bloom_insert_hashes_impl) (BloomFilter *, const uint64_t *, int) = bloom_insert_hashes_portable;
static const char *bloom_path = "portable";

/* called between chunks of long loops (PostgreSQL: CHECK_FOR_INTERRUPTS) */
void		(*bloom_interrupt_hook) (void) = NULL;

/*
 * Choose the word kernels for this CPU.  portable_only forces the plain C
 * versions (the test suite runs both).  Results never depend on the choice.
 */
void
bloom_cpu_init(bool portable_only)
{
	bloom_popcount_impl = bloom_popcount_portable;
	bloom_or_impl = bloom_or_portable;
	bloom_and_impl = bloom_and_portable;
	bloom_insert_hashes_impl = bloom_insert_hashes_portable;
	bloom_path = "portable";
#ifdef BLOOM_BLOCK_DISPATCH
	bloom_block_avx2 = false;
#endif
#ifdef BLOOM_X86_DISPATCH
	if (portable_only)
		return;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("popcnt"))
	{
		bloom_popcount_impl = bloom_popcount_popcnt;
		bloom_path = "popcnt";
	}
	if (__builtin_cpu_supports("avx2"))
	{
		bloom_or_impl = bloom_or_avx2;
		bloom_and_impl = bloom_and_avx2;
#ifdef BLOOM_BLOCK_DISPATCH
		bloom_insert_hashes_impl = bloom_insert_hashes_avx2;
		bloom_block_avx2 = true;
#endif
		bloom_path = "avx2";
	}
#else
	(void) portable_only;
#endif
}

/* Name of the kernels in use ("portable", "popcnt", "avx2"). */
const char *
bloom_cpu_path(void)
{
	return bloom_path;
}

/* Insert n hashes (nitems untouched); AVX2 for the blocked layout. */
void
bloom_insert_hashes(BloomFilter *f, const uint64_t *h, int n)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
		bloom_insert_hashes_impl(f, h, n);
	else
		bloom_insert_hashes_portable(f, h, n);
}

/*
 * Run a two-array word kernel (whichever CPU path was chosen) over n words
 * in chunks of BLOOM_POLL_WORDS, polling between them.
 */
static inline void
bloom_words_chunked(void (*kernel) (uint64_t *, const uint64_t *, size_t),
					uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, BLOOM_POLL_WORDS);
		kernel(dst + lo, src + lo, hi - lo);
	}
}

/* dst |= src over n words. */
void
bloom_or_words(uint64_t *dst, const uint64_t *src, size_t n)
{
	bloom_words_chunked(bloom_or_impl, dst, src, n);
}

/* dst &= src over n words. */
void
bloom_and_words(uint64_t *dst, const uint64_t *src, size_t n)
{
	bloom_words_chunked(bloom_and_impl, dst, src, n);
}

/*
 * memcmp(a, b, n) == 0, memcpy and memset(0) of large arrays, polling every
 * BLOOM_POLL_BYTES: for the PostgreSQL layer's comparisons, copies and
 * zeroing of whole filters, where a first touch of fresh memory also pays
 * its page faults (about 1 s for 256 MiB on a busy 2-core VM).
 */
bool
bloom_bytes_equal(const void *a, const void *b, size_t n)
{
	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, BLOOM_POLL_BYTES);
		if (memcmp((const char *) a + lo, (const char *) b + lo, hi - lo) != 0)
			return false;
	}
	return true;
}

/* memcpy(dst, src, n) in chunks (see bloom_bytes_equal). */
void
bloom_copy_bytes(void *dst, const void *src, size_t n)
{
	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, BLOOM_POLL_BYTES);
		memcpy((char *) dst + lo, (const char *) src + lo, hi - lo);
	}
}

/* memset(dst, 0, n) in chunks (see bloom_bytes_equal). */
void
bloom_zero_bytes(void *dst, size_t n)
{
	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, BLOOM_POLL_BYTES);
		memset((char *) dst + lo, 0, hi - lo);
	}
}

/* Number of set bits. */
uint64_t
bloom_popcount(const BloomFilter *f)
{
	uint64_t	c = 0;

	for (size_t lo = 0, hi; lo < BLOOM_NWORDS(f); lo = hi)
	{
		hi = bloom_chunk_end(lo, BLOOM_NWORDS(f), BLOOM_POLL_WORDS);
		c += bloom_popcount_impl(f->words + lo, hi - lo);
	}
	return c;
}
