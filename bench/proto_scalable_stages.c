/*
 * bench/proto_scalable_stages.c -- the floor of scalable_bloom_agg(id) and
 * scalable_bloom_contains over 10 M rows (issue 16, item 3), without
 * PostgreSQL: the 14 blocked stages scalable_bloom_agg(id) grows for 10 M
 * distinct keys (first capacity 1000, growth 2, rate 1 %: 132 MB, the
 * newest 75 MB), the first 13 filled as the aggregate fills them; then
 *  - add: the last 1.8 M keys each tested against every stage
 *    (blocks_test_any, below) and inserted into the newest, prefetching the
 *    stages' lines `ahead` keys ahead (0: none) from stage `minstage` on;
 *  - probe: all 10 M keys, one at a time as a scalar function probes them,
 *    three ways: every stage tested without branches against h's bits
 *    computed once (blocks_test_any); as the extension does (every stage
 *    prefetched, then tested newest first, stopping at the first "maybe");
 *    newest first without the prefetch;
 *  - lat: one load at a time from the 132 MB (the memory latency a probe
 *    waits for at least once).
 * Arguments: ahead huge(0/1: madvise for transparent huge pages)
 * [minstage [x: time the adds as 1.2 does them instead]].
 *
 *	 cc -O2 -o /tmp/ps bench/proto_scalable_stages.c src/core/bloom_core.c -lm
 *	 for a in 0 8 32; do /tmp/ps $a 0; /tmp/ps $a 1; done
 *
 * Measured 2026-11-24 (2-core KVM, AMD EPYC, load 2-3 from other work):
 * adds 243-320 ns/key whatever `ahead` (0, 4, 8, 16, 32), 208-227 with
 * huge pages, 287-340 as 1.2 does them; probes without branches 271-309
 * ns/key (222-243 with huge pages), as 1.2 does 76-117, newest first
 * without prefetch 150-175; a dependent load 185-298 ns.  In this tight
 * loop 1.2's probes of successive keys overlap; in SQL, with the executor's
 * work between rows, they do not: a probe costs about one latency there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <sys/mman.h>

#include "../src/core/bloom_core.h"

#define NS 14

static uint64_t zero_word = 0;

/* The first word of hash h's block in blocked filter f. */
static inline const uint32_t *
bloom_block_ptr(const BloomFilter *f, uint64_t h)
{
	return (const uint32_t *) f->words + bloom_block_of(f, h) * BLOOM_BLOCK_WORDS32;
}

/*
 * Every block tested without branches against h's eight bits computed
 * once (a variant measured for the extension and not kept: see above).
 */
static bool
blocks_test_any(const uint32_t *const *blocks, int n, uint32_t h32)
{
	uint32_t	bit[BLOOM_BLOCK_WORDS32],
				any = 0;

	for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
		bit[i] = UINT32_C(1) << ((h32 * bloom_salt[i]) >> 27);
	for (int b = 0; b < n; b++)
	{
		uint32_t	miss = 0;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			miss |= ~blocks[b][i] & bit[i];
		any |= miss == 0;
	}
	return any != 0;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	int			ahead = argc > 1 ? atoi(argv[1]) : 0,
				huge = argc > 2 ? atoi(argv[2]) : 0,
				minst = argc > 3 ? atoi(argv[3]) : 0;
	long		N = 10000000,
				k = 0,
				dup = 0,
				hit = 0;
	BloomFilter *sub[NS];
	BloomSizing sz[NS];
	size_t		tot = 0,
				off = 0,
				mb2 = 2 << 20;
	char	   *mem,
			   *base;
	double		t0,
				t1,
				t2,
				t3,
				t4,
				t2b,
				t3b;
	long		hit2 = 0,
				hit3 = 0;
	uint64_t	v = 1,
				x = 0,
				mask = *(volatile uint64_t *) &zero_word;

	bloom_cpu_init(false);
	for (int i = 0; i < NS; i++)
	{
		sz[i] = bloom_size_for((int64_t) ceil(1000 * pow(2, i)), 0.9 * 0.01 * pow(0.5, i + 1),
							   BLOOM_LAYOUT_BLOCKED, false);
		tot += BLOOM_TOTAL_SIZE(sz[i].nbits);
	}
	mem = mmap(NULL, tot + 2 * mb2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	base = (char *) (((uintptr_t) mem + mb2 - 1) & ~(uintptr_t) (mb2 - 1));
	madvise(base, tot + mb2, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(base, 0, tot);
	for (int i = 0; i < NS; i++)
	{
		sub[i] = (BloomFilter *) (base + off);
		bloom_init_header(sub[i], BLOOM_LAYOUT_BLOCKED, sz[i].nhashes, sz[i].nbits, 0);
		off += BLOOM_TOTAL_SIZE(sz[i].nbits);
	}
	for (int i = 0; i < NS - 1; i++)
		for (long j = 0; j < (1000L << i); j++, k++)
			bloom_insert_hash(sub[i], bloom_mix64(k + 1));

	t0 = now();
	for (long i0 = k; i0 < N; i0 += 32)
	{
		long		n = i0 + 32 < N ? 32 : N - i0;
		uint64_t	h[32];

		for (int j = 0; j < n; j++)
			h[j] = bloom_mix64(i0 + j + 1);
		for (int j = 0; j < n && j < ahead; j++)
			for (int s = minst; s < NS; s++)
				bloom_prefetch_hash(sub[s], h[j], s == NS - 1);
		for (int j = 0; j < n; j++)
		{
			const uint32_t *blk[NS];

			if (j + ahead < n && ahead > 0)
				for (int s = minst; s < NS; s++)
					bloom_prefetch_hash(sub[s], h[j + ahead], s == NS - 1);
			for (int s = 0; s < NS; s++)
				blk[s] = bloom_block_ptr(sub[s], h[j]);
			if (blocks_test_any(blk, NS, (uint32_t) h[j]))
			{
				dup++;
				continue;
			}
			bloom_insert_hash(sub[NS - 1], h[j]);
		}
	}
	t1 = now();
	if (argc > 4)
	{
		/* adds as 1.2 did them: prefetch every stage, test newest first */
		for (int s = 0; s < NS; s++)
			memset(sub[s]->words, 0, BLOOM_DATA_BYTES(sub[s]));
		k = 0;
		for (int i = 0; i < NS - 1; i++)
			for (long j = 0; j < (1000L << i); j++, k++)
				bloom_insert_hash(sub[i], bloom_mix64(k + 1));
		t0 = now();
		dup = 0;
		for (long i = k; i < N; i++)
		{
			uint64_t	h = bloom_mix64(i + 1);
			bool		found = false;

			for (int s = 0; s < NS; s++)
				bloom_prefetch_hash(sub[s], h, false);
			for (int s = NS - 1; s >= 0 && !found; s--)
				found = bloom_test_hash(sub[s], h);
			if (found)
				dup++;
			else
				bloom_insert_hash(sub[NS - 1], h);
		}
		t1 = now();
		printf("1.2-style add %.1f ns/key (%ld taken as present)\n", (t1 - t0) / (N - k) * 1e9, dup);
	}
	for (long i = 0; i < N; i++)
	{
		uint64_t	h = bloom_mix64(i + 1);
		const uint32_t *blk[NS];

		for (int s = 0; s < NS; s++)
			blk[s] = bloom_block_ptr(sub[s], h);
		hit += blocks_test_any(blk, NS, (uint32_t) h);
	}
	t2 = now();
	/* probe as 1.2 did: every stage prefetched, then tested newest first */
	for (long i = 0; i < N; i++)
	{
		uint64_t	h = bloom_mix64(i + 1);

		for (int s = 0; s < NS; s++)
			bloom_prefetch_hash(sub[s], h, false);
		for (int s = NS - 1; s >= 0; s--)
			if (bloom_test_hash(sub[s], h))
			{
				hit2++;
				break;
			}
	}
	t3 = now();
	/* newest first, stopping at the first stage that answers "maybe" */
	for (long i = 0; i < N; i++)
	{
		uint64_t	h = bloom_mix64(i + 1);
		const uint32_t *blk[NS];

		for (int s = 0; s < NS; s++)
			blk[s] = bloom_block_ptr(sub[s], h);
		for (int s = NS - 1; s >= 0; s--)
			if (blocks_test_any(blk + s, 1, (uint32_t) h))
			{
				hit3++;
				break;
			}
	}
	t4 = now();
	t2b = now();
	for (long i = 0; i < 2000000; i++)
	{
		/* the next address depends on this load (mask is 0, unknown to the compiler) */
		v = (uint8_t) base[((bloom_mix64(i) + (v & mask)) % (tot / 64)) * 64];
		x += v;
	}
	t3b = now();
	printf("ahead=%d huge=%d minstage=%d: add %.1f ns/key (%ld keys, %ld taken as present), "
		   "probe %.1f ns/key (%ld of %ld found), 1.2-style %.1f (%ld), newest-first early exit %.1f (%ld), lat %.1f ns (%lu), %.0f MB\n",
		   ahead, huge, minst, (t1 - t0) / (N - k) * 1e9, N - k, dup,
		   (t2 - t1) / N * 1e9, hit, N, (t3 - t2) / N * 1e9, hit2, (t4 - t3) / N * 1e9, hit3, (t3b - t2b) / 2000000 * 1e9, (unsigned long) (x & 1), tot / 1e6);
	return 0;
}
