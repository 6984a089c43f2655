/*-------------------------------------------------------------------------
 *
 * micro.c
 *	  PostgreSQL-free microbenchmark of the bloomset core (src/core/bloom_*.c):
 *	  ns per add and per lookup (present and absent keys) for the blocked
 *	  and the classic layout, plus the batched add the aggregate uses (a
 *	  queue of 16 hashes, each prefetched when queued), and the measured
 *	  false-positive rate.  Keys are random 64-bit integers hashed with
 *	  bloom_mix64, as in fastfilter_cpp's benchmark.
 *
 *	  Built by bench/micro.sh with the extension's flags (PostgreSQL's CFLAGS
 *	  plus -O3, no -march), linked against bloom_core.o compiled the same
 *	  way: calls into the core cross a translation unit, as in the server.
 *
 *	  usage: micro [keys ...]	(default 1000000 10000000 100000000)
 *			 micro kernels [portable]	(only the whole-array kernels: OR, AND,
 *			 popcount, hex encode/decode, fold/unfold; GB/s)
 *	  env:	 MICRO_REPS (timed repetitions per measurement, median; default 3)
 *
 *	  Figures are this thread's CPU time per operation (the machine's cores
 *	  are shared), medians of repetitions interleaved across the layouts.
 *
 * Filter placement.  In the server a filter is a palloc'd varlena whose bit
 * array starts 72 bytes after the chunk; a large palloc chunk starts 16
 * bytes after a 64-byte boundary (glibc's 16-byte header, then aset.c's
 * block and chunk headers: 56 bytes), so the bit array starts 16 bytes past
 * a cache-line boundary and every other 32-byte block of the blocked layout
 * straddles two cache lines.  The "blocked (pg offset)" rows reproduce that
 * placement (filters under 4 MiB in the server are still placed so); the
 * "blocked" rows put the bit array on a 64-byte boundary; the "blocked
 * (huge pages)" rows on a 2 MiB boundary advised MADV_HUGEPAGE, as
 * bloom_alloc_large does for filters from 4 MiB (the row says how much of
 * the array the kernel actually backed with huge pages).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"
#include "bloom_codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define QUEUE_LEN 16

typedef struct Variant
{
	const char *name;
	int			layout;
	size_t		array_offset;	/* bit array address mod 64 */
	int			hugepages;		/* bit array 2 MiB-aligned, MADV_HUGEPAGE */
	/* fastfilter_cpp's published figures on a 2 vCPU EPYC, ns: add, find (midpoint of range) */
	double		ref_add[3];
	double		ref_find[3];
	const char *ref_find_txt[3];
} Variant;

static const Variant variants[] = {
	{"blocked", BLOOM_LAYOUT_BLOCKED, 0, 0,
	 {3.5, 16, 23}, {6.5, 25, 35.5}, {"6-7", "25", "33-38"}},
	{"blocked (pg offset)", BLOOM_LAYOUT_BLOCKED, 16, 0,
	 {3.5, 16, 23}, {6.5, 25, 35.5}, {"6-7", "25", "33-38"}},
	{"blocked (huge pages)", BLOOM_LAYOUT_BLOCKED, 0, 1,
	 {3.5, 16, 23}, {6.5, 25, 35.5}, {"6-7", "25", "33-38"}},
	{"classic", BLOOM_LAYOUT_CLASSIC, 0, 0,
	 {9.2, 46, 84}, {17, 49.5, 92}, {"12-22", "43-56", "78-106"}},
};

/*
 * Timing.  The machine's 2 cores are shared with other developers' test
 * runs, so figures are this thread's CPU time (time spent descheduled is
 * not counted; caches shared with other processes still are).  Wall time
 * is summed too, to report the share of it the benchmark was on a CPU.
 */
static double wall_total,
			cpu_total;

static double
clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

typedef struct Timer
{
	double		cpu,
				wall;
} Timer;

static Timer
timer_start(void)
{
	Timer		t = {clock_ns(CLOCK_THREAD_CPUTIME_ID), clock_ns(CLOCK_MONOTONIC)};

	return t;
}

/* CPU ns since t per op, n ops */
static double
timer_per_op(Timer t, size_t n)
{
	double		cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t.cpu;

	cpu_total += cpu;
	wall_total += clock_ns(CLOCK_MONOTONIC) - t.wall;
	return cpu / n;
}

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* kB of anonymous huge pages in this process */
static long
anon_huge_kb(void)
{
	FILE	   *fp = fopen("/proc/self/smaps_rollup", "r");
	char		line[256];
	long		kb = -1;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(fp);
	return kb;
}

/*
 * A zeroed filter whose bit array starts array_offset bytes past a cache
 * line, or (hugepages) on a 2 MiB boundary advised MADV_HUGEPAGE, as
 * bloom_alloc_large does in the server for filters from 4 MiB.
 */
static BloomFilter *
filter_new(BloomSizing s, const Variant *v, void **raw)
{
	size_t		total = BLOOM_TOTAL_SIZE(s.nbits);
	size_t		align = v->hugepages ? (size_t) 2 << 20 : 4096;
	char	   *base;
	BloomFilter *f;

	if (posix_memalign(raw, align, total + align) != 0)
	{
		perror("posix_memalign");
		exit(1);
	}
	base = (char *) *raw;
	if (v->hugepages)
	{
		/* the bit array at base + align, the header just before it */
		f = (BloomFilter *) (base + align - BLOOM_HEADER_SIZE);
#ifdef MADV_HUGEPAGE
		madvise(base + align, (total - BLOOM_HEADER_SIZE) & ~(align - 1), MADV_HUGEPAGE);
#endif
	}
	else
		/* f->words = f + 72; want (f + 72) % 64 == array_offset */
		f = (BloomFilter *) (base + ((v->array_offset + 64 - BLOOM_HEADER_SIZE % 64) % 64));
	memset(f, 0, total);
	bloom_init_header(f, s.layout, s.nhashes, s.nbits, 0);
	/* MICRO_SCHEME=1: the positions of 1.0/1.1 filters (default: new filters') */
	if (getenv("MICRO_SCHEME"))
		f->scheme = (uint8_t) atoi(getenv("MICRO_SCHEME"));
	return f;
}

/* volatile sink so the compiler keeps the lookups */
static volatile uint64_t sink;

static double
run_add(BloomFilter *f, const uint64_t *keys, size_t n)
{
	Timer		t0 = timer_start();

	for (size_t i = 0; i < n; i++)
		bloom_insert_hash(f, bloom_mix64(keys[i]));
	return timer_per_op(t0, n);
}

/* As bloom_agg's transition: queue hashes, prefetch each when queued,
 * insert the queue with bloom_insert_hashes. */
static double
run_add_batched(BloomFilter *f, const uint64_t *keys, size_t n)
{
	uint64_t	queue[QUEUE_LEN];
	int			nq = 0;
	Timer		t0 = timer_start();

	for (size_t i = 0; i < n; i++)
	{
		uint64_t	h = bloom_mix64(keys[i]);

		bloom_prefetch_hash(f, h, true);
		queue[nq++] = h;
		if (nq == QUEUE_LEN)
		{
			bloom_insert_hashes(f, queue, QUEUE_LEN);	/* AVX2 when available */
			nq = 0;
		}
	}
	bloom_insert_hashes(f, queue, nq);
	return timer_per_op(t0, n);
}

static double
run_find(const BloomFilter *f, const uint64_t *keys, size_t n, uint64_t *found)
{
	uint64_t	c = 0;
	Timer		t0 = timer_start();
	double		ns;

	for (size_t i = 0; i < n; i++)
		c += bloom_test_hash(f, bloom_mix64(keys[i]));
	ns = timer_per_op(t0, n);
	*found = c;
	sink += c;
	return ns;
}

static void
fill_keys(uint64_t *keys, size_t n, uint64_t seed)
{
	uint64_t	s = seed;

	for (size_t i = 0; i < n; i++)
		keys[i] = splitmix64(&s);
}

/* A filter of nbytes (64-byte aligned), about a quarter of its bits set. */
static BloomFilter *
kernel_filter(int layout, size_t nbytes, uint64_t seed, void **raw)
{
	BloomFilter *f;
	char	   *p;
	uint64_t	s = seed;

	if (posix_memalign((void **) &p, 64, nbytes + 64 + 64))
		exit(1);
	*raw = p;
	f = (BloomFilter *) (p + 64 - BLOOM_HEADER_SIZE % 64);
	memset(f, 0, BLOOM_HEADER_SIZE);
	bloom_init_header(f, layout, layout == BLOOM_LAYOUT_BLOCKED ? 8 : 7,
					  (uint64_t) nbytes * 8, 0);
	strcpy(f->family, "integer_ops");
	for (size_t i = 0; i < nbytes / 8; i++)
		f->words[i] = splitmix64(&s) & splitmix64(&s);
	return f;
}

/* GB/s of one whole-array operation, median of reps passes of rounds calls */
typedef enum
{
	K_OR, K_AND, K_POPCOUNT, K_ENCODE, K_DECODE, K_FOLD, K_UNFOLD
} KernelOp;

static double
kernel_gbps(KernelOp op, size_t nbytes, int rounds, int reps)
{
	void	   *ra,
			   *rb,
			   *rc;
	BloomFilter *a = kernel_filter(BLOOM_LAYOUT_CLASSIC, nbytes, 42, &ra);
	BloomFilter *b = kernel_filter(BLOOM_LAYOUT_CLASSIC, nbytes, 43, &rb);
	BloomFilter *c = kernel_filter(BLOOM_LAYOUT_CLASSIC, op == K_UNFOLD ? nbytes : nbytes / 8, 44, &rc);
	size_t		nw = nbytes / 8;
	char	   *text = NULL;
	const char *hex = NULL;
	double		t[16];

	if (op == K_ENCODE || op == K_DECODE)
	{
		BloomFilter hdr;

		text = malloc(bloom_text_size(a));
		bloom_text_encode(a, text);
		if (bloom_text_decode_header(text, &hdr, &hex) != NULL)
			exit(1);
	}
	if (op == K_UNFOLD)
	{
		/* a sparse 1/8-size source (1 bit in 64) unfolded onto a */
		c->nbits = nbytes;
		for (size_t i = 0; i < nbytes / 64; i++)
			c->words[i] = UINT64_C(1) << (i % 64);
	}
	if (op == K_FOLD)
		memset(c->words, 0, nbytes / 8);
	for (int r = 0; r < reps && r < 16; r++)
	{
		Timer		t0 = timer_start();

		for (int k = 0; k < rounds; k++)
		{
			switch (op)
			{
				case K_OR:
					bloom_or_words(a->words, b->words, nw);
					break;
				case K_AND:
					bloom_and_words(a->words, b->words, nw);
					break;
				case K_POPCOUNT:
					sink += bloom_popcount(a);
					break;
				case K_ENCODE:
					bloom_text_encode(a, text);
					break;
				case K_DECODE:
					if (bloom_text_decode_bits(hex, b) != NULL)
						exit(1);
					break;
				case K_FOLD:
					bloom_resize_into(a, c);
					break;
				case K_UNFOLD:
					bloom_resize_into(c, a);
					break;
			}
		}
		t[r] = (double) nbytes * rounds / (timer_per_op(t0, 1));
	}
	sink += a->words[nw / 2];
	free(text);
	free(ra);
	free(rb);
	free(rc);
	return median(t, reps < 16 ? reps : 16);
}

/* The whole-array kernels, in and out of cache, as a Markdown table. */
static void
print_kernels(int reps)
{
	static const struct
	{
		KernelOp	op;
		const char *name;
	}			ops[] = {
		{K_OR, "bloom_or_words (dst \\|= src)"},
		{K_AND, "bloom_and_words (dst &= src)"},
		{K_POPCOUNT, "bloom_popcount"},
		{K_ENCODE, "bloom_text_encode (hex out)"},
		{K_DECODE, "bloom_text_decode_bits (hex in)"},
		{K_FOLD, "bloom_resize_into, classic fold by 8"},
		{K_UNFOLD, "bloom_resize_into, classic unfold by 8 (1 bit in 64 set)"},
	};

	printf("| kernel (GB/s of filter bytes) | 1 MiB, in cache, x200 | 256 MiB, out of cache, x2 |\n|---|---|---|\n");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
	{
		double		small = kernel_gbps(ops[i].op, 1 << 20, 200, reps);
		double		big = kernel_gbps(ops[i].op, (size_t) 256 << 20, 2, reps);

		printf("| %s | %.2f | %.2f |\n", ops[i].name, small, big);
		fflush(stdout);
	}
}

int
main(int argc, char **argv)
{
	size_t		sizes[8] = {1000000, 10000000, 100000000};
	int			nsizes = 3;
	int			reps = getenv("MICRO_REPS") ? atoi(getenv("MICRO_REPS")) : 3;
	size_t		maxn = 0;
	uint64_t   *present,
			   *absent;

	if (reps < 1 || reps > 64)
		reps = 3;
	if (argc > 1 && strcmp(argv[1], "kernels") == 0)
	{
		/* only the whole-array kernels (no 2 GiB of keys) */
		bloom_cpu_init(argc > 2 && strcmp(argv[2], "portable") == 0);
		printf("micro: bloomset core kernels, %d timed repetitions per figure (median of this thread's CPU time), kernels: %s\n\n",
			   reps, bloom_cpu_path());
		print_kernels(reps);
		return 0;
	}
	if (argc > 1)
	{
		nsizes = 0;
		for (int i = 1; i < argc && nsizes < 8; i++)
			sizes[nsizes++] = strtoull(argv[i], NULL, 10);
	}
	if (reps < 1 || reps > 64)
		reps = 3;
	for (int i = 0; i < nsizes; i++)
		if (sizes[i] > maxn)
			maxn = sizes[i];
	bloom_cpu_init(false);

	present = malloc(maxn * sizeof(uint64_t));
	absent = malloc(maxn * sizeof(uint64_t));
	if (!present || !absent)
	{
		perror("malloc");
		return 1;
	}

	printf("micro: bloomset core, %d timed repetitions per figure, interleaved across the layouts (median of this thread's CPU time), kernels: %s\n\n",
		   reps, bloom_cpu_path());
	printf("| layout | keys | filter MiB | bits/key | k | add ns | batched add ns | find present ns | find absent ns | FPR | ref add / find ns | add ratio | batched add ratio | find present ratio | find absent ratio |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	fflush(stdout);

	for (int si = 0; si < nsizes; si++)
	{
		size_t		n = sizes[si];
		int			sizeidx = n <= 3000000 ? 0 : n <= 30000000 ? 1 : 2;

		fill_keys(present, n, 1 + n);
		fill_keys(absent, n, UINT64_C(0x5eed) + 7 * n);

		/* all variants side by side, repetitions interleaved across them */
		{
			enum {NV = sizeof(variants) / sizeof(variants[0])};
			BloomSizing s[NV];
			BloomFilter *f[NV];
			void	   *raw[NV];
			long		huge_kb[NV];
			static double ta[NV][64],
						tb[NV][64],
						tp[NV][64],
						tn[NV][64];
			uint64_t	fp[NV];

			for (int vi = 0; vi < NV; vi++)
			{
				long		before = anon_huge_kb();

				s[vi] = bloom_size_for((int64_t) n, 0.01, variants[vi].layout, false);
				f[vi] = filter_new(s[vi], &variants[vi], &raw[vi]);
				huge_kb[vi] = anon_huge_kb() - before;
			}
			for (int r = 0; r < reps; r++)
			{
				for (int vi = 0; vi < NV; vi++)
				{
					BloomFilter *fv = f[vi];
					uint64_t	found = 0,
								pop_a,
								pop_b;

					memset(fv->words, 0, BLOOM_DATA_BYTES(fv));
					ta[vi][r] = run_add(fv, present, n);
					pop_a = bloom_popcount(fv);
					memset(fv->words, 0, BLOOM_DATA_BYTES(fv));
					tb[vi][r] = run_add_batched(fv, present, n);
					pop_b = bloom_popcount(fv);
					if (pop_a != pop_b)
					{
						fprintf(stderr, "batched add set %llu bits, plain add %llu\n",
								(unsigned long long) pop_b, (unsigned long long) pop_a);
						return 1;
					}
					tp[vi][r] = run_find(fv, present, n, &found);
					if (found != n)
					{
						fprintf(stderr, "false negatives: %llu of %zu found\n",
								(unsigned long long) found, n);
						return 1;
					}
					tn[vi][r] = run_find(fv, absent, n, &fp[vi]);
				}
			}
			for (int vi = 0; vi < NV; vi++)
			{
				const Variant *v = &variants[vi];
				double		a = median(ta[vi], reps),
							b = median(tb[vi], reps),
							p = median(tp[vi], reps),
							q = median(tn[vi], reps);
				char		keys[32];
				char		name[64];

				if (n % 1000000 == 0)
					snprintf(keys, sizeof(keys), "%zuM", n / 1000000);
				else
					snprintf(keys, sizeof(keys), "%zu", n);
				if (v->hugepages)
					snprintf(name, sizeof(name), "%s, %ld MiB in THP", v->name,
							 huge_kb[vi] / 1024);
				else
					snprintf(name, sizeof(name), "%s", v->name);
				printf("| %s | %s | %.1f | %.2f | %d | %.1f | %.1f | %.1f | %.1f | %.3f %% | %.1f / %s | %.2f | %.2f | %.2f | %.2f |\n",
					   name, keys, BLOOM_DATA_BYTES(f[vi]) / 1048576.0,
					   (double) s[vi].nbits / n, s[vi].nhashes, a, b, p, q,
					   100.0 * fp[vi] / n, v->ref_add[sizeidx], v->ref_find_txt[sizeidx],
					   a / v->ref_add[sizeidx], b / v->ref_add[sizeidx],
					   p / v->ref_find[sizeidx], q / v->ref_find[sizeidx]);
				free(raw[vi]);
			}
			fflush(stdout);
		}
	}

	printf("\nReference: fastfilter_cpp (-O3 -march=native, inlined, 2 vCPU EPYC): "
		   "SBBF 1M 3.5/6-7 ns, 10M 16/25 ns, 100M 23/33-38 ns; classic Bloom at 12 bits/key (k=8) "
		   "1M 9.2/12-22, 10M 46/43-56, 100M 84/78-106 ns. Ratios use the midpoint of a range. "
		   "bloomset's classic rows use its own 1 %% sizing (about 9.6 bits/key, k=7). "
		   "Rows for 1M/10M/100M keys are compared with the reference row of the nearest size.\n\n");

	print_kernels(reps);
	printf("\nOn-CPU share of the timed loops: %.0f %% (CPU time / wall time; below ~95 %% other processes competed for the cores).\n",
		   100.0 * cpu_total / wall_total);
	free(present);
	free(absent);
	return 0;
}
