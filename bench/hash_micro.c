/*
 * bench/hash_micro.c -- cost of the integer element hash of each hashing
 * scheme, per key, without PostgreSQL's call overhead: scheme 1 is
 * fmix64(hash_bytes_uint32_extended(low ^ high half)) (the inlined
 * hashint8extended path), scheme 2 bloom_hash_int64 (SplitMix64 of the
 * full 64 bits).  A dependent chain (each key depends on the previous
 * hash: latency) and independent keys (throughput), 100 M keys each,
 * median of 5.
 *
 *	 cc -O3 $(pg_config --cflags) -Isrc -o /tmp/hash_micro bench/hash_micro.c && /tmp/hash_micro
 */
#include "bloom_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 100000000

static volatile uint64_t sink;

/* scheme 1's int8 element hash, as bloom_hash.c computes it inline */
static inline uint64_t
scheme1_int8(uint64_t v, uint64_t seed)
{
	uint32_t	lo = (uint32_t) v,
				hi = (uint32_t) (v >> 32);

	lo ^= ((int64_t) v >= 0) ? hi : ~hi;
	return bloom_mix64(bloom_lookup3_u32(lo, seed));
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmp(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* median ns per key of 5 runs; chained: each key depends on the last hash */
static double
measure(int scheme, int chained)
{
	double		t[5];

	for (int r = 0; r < 5; r++)
	{
		uint64_t	acc = 0,
					h = 0;
		double		t0 = now();

		for (uint64_t i = 0; i < N; i++)
		{
			uint64_t	v = (i << 20) + (chained ? (h & 1) : 0);

			h = scheme == 1 ? scheme1_int8(v, 0) : bloom_hash_int64(v, 0);
			acc += h;
		}
		t[r] = (now() - t0) * 1e9 / N;
		sink = acc;
	}
	qsort(t, 5, sizeof(double), cmp);
	return t[2];
}

int
main(void)
{
	printf("| int8 element hash | independent keys, ns/key | dependent chain, ns/key |\n|---|---|---|\n");
	for (int scheme = 1; scheme <= 2; scheme++)
		printf("| scheme %d | %.2f | %.2f |\n", scheme, measure(scheme, 0), measure(scheme, 1));
	return 0;
}
