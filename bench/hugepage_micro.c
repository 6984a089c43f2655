/*
 * bench/hugepage_micro.c -- do 2 MiB pages make a probe of a large filter
 * cheaper on this machine?  (issue 16, item 1)
 *
 *   cc -O2 -o /tmp/hugepage_micro bench/hugepage_micro.c && /tmp/hugepage_micro
 *
 * A filter-sized array (1, 12.6 and 128 MiB: the benchmark's small and big
 * filters and the automatic-sizing aggregate's second-phase filter) is
 * mapped twice, once advised MADV_NOHUGEPAGE (4 KiB pages) and once
 * MADV_HUGEPAGE (transparent huge pages, 2 MiB), and probed at random
 * 32-byte blocks, as a blocked filter is:
 *
 *  - dependent: each probe's address depends on the previous probe's result,
 *    so misses do not overlap -- the executor's case, where one probe per
 *    row is separated from the next by a few hundred instructions of tuple
 *    handling;
 *  - independent: addresses known in advance, so the CPU overlaps the misses
 *    -- what a prefetching loop (the aggregate's queue) gets.
 *
 * Rounds alternate 4 KiB and 2 MiB; the medians are printed in ns per probe,
 * and the AnonHugePages of each mapping, which says whether the kernel
 * really gave huge pages.  PostgreSQL-free on purpose: it isolates the
 * translation cost from everything else a query does.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../src/core/bloom_core.h"	/* bloom_mix64: the hashes filters get */

#define ROUNDS	7
#define PROBES	10000000L
#define HUGE_SZ	((size_t) 2 << 20)

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* size bytes on a 2 MiB boundary, advised huge or not, touched */
static char *
map_filter(size_t size, int huge)
{
	size_t		len = size + HUGE_SZ;
	char	   *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
						 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char	   *a;

	if (p == MAP_FAILED)
	{
		perror("mmap");
		exit(1);
	}
	a = (char *) (((uintptr_t) p + HUGE_SZ - 1) & ~(uintptr_t) (HUGE_SZ - 1));
	if (madvise(a, size, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0)
		perror("madvise");
	memset(a, 0x55, size);
	return a;
}

/* kB of the mapping at a that the kernel backs with huge pages */
static long
anon_huge_kb(const char *a)
{
	FILE	   *f = fopen("/proc/self/smaps", "r");
	char		line[256];
	int			in = 0;
	long		kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
	{
		unsigned long lo,
					hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = ((uintptr_t) a >= lo && (uintptr_t) a < hi);
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static double
probe(const char *a, size_t size, int dependent)
{
	size_t		nblk = size / 32;
	uint64_t	acc = 0;
	double		t0 = now();

	for (long i = 0; i < PROBES; i++)
	{
		uint64_t	h = bloom_mix64((uint64_t) i + (dependent ? (acc & 1) : 0));
		const uint64_t *b = (const uint64_t *) (a + (h % nblk) * 32);

		acc += (b[(h >> 40) & 3] >> (h >> 58)) & 1;
	}
	if (acc == UINT64_MAX)
		puts("");				/* keep acc alive */
	return (now() - t0) / PROBES * 1e9;
}

static int
cmp(const void *x, const void *y)
{
	double		a = *(const double *) x,
				b = *(const double *) y;

	return (a > b) - (a < b);
}

int
main(void)
{
	const double sizes_mib[] = {1.0, 12.6, 128.0};

	printf("| filter | probes | 4 KiB pages ns/probe | 2 MiB pages ns/probe | 2 MiB / 4 KiB | AnonHugePages (4 KiB map / 2 MiB map) |\n");
	printf("|---:|---|---:|---:|---:|---|\n");
	for (int s = 0; s < 3; s++)
	{
		size_t		size = (size_t) (sizes_mib[s] * 1048576) & ~(size_t) 31;
		char	   *small = map_filter(size, 0);
		char	   *huge = map_filter(size, 1);

		for (int dep = 1; dep >= 0; dep--)
		{
			double		t[2][ROUNDS];

			for (int r = 0; r < ROUNDS; r++)
			{
				t[0][r] = probe(small, size, dep);
				t[1][r] = probe(huge, size, dep);
			}
			qsort(t[0], ROUNDS, sizeof(double), cmp);
			qsort(t[1], ROUNDS, sizeof(double), cmp);
			printf("| %.1f MiB | %s | %.1f | %.1f | %.2f | %ld kB / %ld kB |\n",
				   sizes_mib[s], dep ? "dependent" : "independent",
				   t[0][ROUNDS / 2], t[1][ROUNDS / 2],
				   t[1][ROUNDS / 2] / t[0][ROUNDS / 2],
				   anon_huge_kb(small), anon_huge_kb(huge));
		}
		/* the mappings stay until exit: 2 x 141.6 MiB at most */
	}
	return 0;
}
