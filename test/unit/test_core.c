/*
 * test_core.c -- unit tests of the PostgreSQL-free core (src/bloom_core.c):
 * sizing, no false negatives, folding equals building small, codec round
 * trips, header validation, and the inlined lookup3 hashes against
 * PostgreSQL's own (linked from libpgcommon).  Prints
 * "SUITE unit: N passed, M failed".
 */
#include "../../src/bloom_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	passed,
			failed;

#define CHECK(cond, what) \
	do { if (cond) passed++; else { failed++; printf("FAIL: %s\n", what); } } while (0)

/* PostgreSQL's functions (src/common/hashfn.c, libpgcommon) */
extern uint64_t hash_bytes_extended(const unsigned char *k, int keylen, uint64_t seed);
extern uint64_t hash_bytes_uint32_extended(uint32_t k, uint64_t seed);

static BloomFilter *
new_filter(int layout, int k, uint64_t nbits)
{
	BloomFilter *f = calloc(1, BLOOM_TOTAL_SIZE(nbits));

	bloom_init_header(f, layout, k, nbits, 0);
	strcpy(f->family, "integer_ops");
	return f;
}

/* no false negatives, and the measured rate near the model */
static void
test_layout(int layout)
{
	BloomSizing s = bloom_size_for(100000, 0.01, layout, false);
	BloomFilter *f = new_filter(layout, s.nhashes, s.nbits);
	int			fn = 0,
				fp = 0;

	for (uint64_t i = 0; i < 100000; i++)
		bloom_insert_hash(f, bloom_mix64(i));
	for (uint64_t i = 0; i < 100000; i++)
		fn += !bloom_test_hash(f, bloom_mix64(i));
	for (uint64_t i = 1000000; i < 1400000; i++)
		fp += bloom_test_hash(f, bloom_mix64(i));
	CHECK(fn == 0, "no false negatives");
	{
		/* the batch (SIMD when available) insert sets exactly the same bits */
		BloomFilter *g = new_filter(layout, s.nhashes, s.nbits);
		uint64_t	hs[100];

		for (uint64_t i = 0; i < 100000; i += 100)
		{
			for (int j = 0; j < 100; j++)
				hs[j] = bloom_mix64(i + j);
			bloom_insert_hashes(g, hs, 100);
		}
		CHECK(memcmp(g->words, f->words, BLOOM_DATA_BYTES(f)) == 0, "batch insert equals single inserts");
		free(g);
	}
	CHECK(fp / 400000.0 < 0.0115 && fp / 400000.0 > 0.0085, "rate within 15 % of 1 %");
	CHECK(fabs(bloom_estimate_items(f, bloom_popcount(f)) - 100000) < 3000, "cardinality within 3 %");
	CHECK(fabs(bloom_current_fpr(f) - fp / 400000.0) < 0.002, "current rate matches measured");
	free(f);
}

/* folding a power-of-two filter equals building it at the smaller size */
static void
test_fold(int layout)
{
	BloomFilter *big = new_filter(layout, layout ? 8 : 5, 1 << 20);
	BloomFilter *small = new_filter(layout, layout ? 8 : 5, 1 << 17);
	BloomFilter *folded = new_filter(layout, layout ? 8 : 5, 1 << 17);
	BloomFilter *unfolded = new_filter(layout, layout ? 8 : 5, 1 << 20);
	int			fn = 0;

	for (uint64_t i = 0; i < 5000; i++)
	{
		bloom_insert_hash(big, bloom_mix64(i));
		bloom_insert_hash(small, bloom_mix64(i));
	}
	bloom_resize_into(big, folded);
	CHECK(memcmp(folded->words, small->words, BLOOM_DATA_BYTES(small)) == 0,
		  "fold equals direct build");
	bloom_resize_into(small, unfolded);
	for (uint64_t i = 0; i < 5000; i++)
		fn += !bloom_test_hash(unfolded, bloom_mix64(i));
	CHECK(fn == 0, "unfolded filter keeps every member");
	free(big);
	free(small);
	free(folded);
	free(unfolded);
}

/* text and binary codecs round trip; validation rejects bad headers */
static void
test_codecs(void)
{
	BloomFilter *f = new_filter(BLOOM_LAYOUT_BLOCKED, 8, 2048);
	BloomFilter hdr;
	BloomFilter *g;
	char	   *text;
	const char *hex;
	uint8_t    *wire;

	for (uint64_t i = 0; i < 50; i++)
		bloom_insert_hash(f, bloom_mix64(i));
	f->nitems = 50;
	text = malloc(bloom_text_size(f));
	bloom_text_encode(f, text);
	CHECK(bloom_text_decode_header(text, &hdr, &hex) == NULL, "text header decodes");
	g = calloc(1, BLOOM_TOTAL_SIZE(hdr.nbits));
	memcpy(g, &hdr, BLOOM_HEADER_SIZE);
	CHECK(bloom_text_decode_bits(hex, g) == NULL, "text bits decode");
	CHECK(memcmp((char *) g + 4, (char *) f + 4, BLOOM_TOTAL_SIZE(f->nbits) - 4) == 0,
		  "text round trip is exact");
	wire = malloc(BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(f));
	bloom_wire_encode_header(f, wire);
	memcpy(wire + BLOOM_WIRE_HEADER_SIZE, f->words, BLOOM_DATA_BYTES(f));
	CHECK(bloom_wire_decode_header(wire, BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(f), &hdr) == NULL,
		  "wire header decodes");
	CHECK(bloom_wire_decode_header(wire, BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(f) - 1, &hdr) != NULL,
		  "truncated wire value rejected");
	wire[3] = 7;
	CHECK(bloom_wire_decode_header(wire, BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(f), &hdr) != NULL,
		  "blocked filter with k=7 rejected");
	hdr = *f;
	hdr.nbits = BLOOM_MAX_BITS * 2;
	CHECK(bloom_check_header(&hdr) != NULL, "oversized filter rejected");
	hdr = *f;
	memset(hdr.family, 'a', BLOOM_FAMILY_LEN);
	CHECK(bloom_check_header(&hdr) != NULL, "unterminated family rejected");
	free(text);
	free(g);
	free(wire);
	free(f);
}

/* sizing: explicit within 1.2x of the classic optimum at 1 % and 0.1 % */
static void
test_sizing(void)
{
	double		rates[] = {0.01, 0.001};

	for (int i = 0; i < 2; i++)
	{
		BloomSizing s = bloom_size_for(1000000, rates[i], bloom_choose_layout(rates[i]), false);
		double		opt = -1e6 * log(rates[i]) / (M_LN2 * M_LN2);

		CHECK(s.nbits / opt <= 1.2, "explicit size within 1.2x of optimum");
		CHECK(s.expected_fpr <= rates[i] * 1.001, "model rate meets the target");
	}
	CHECK(bloom_size_for(INT64_C(1) << 40, 0.01, BLOOM_LAYOUT_BLOCKED, false).nbits == 0,
		  "over-limit sizing reports 0 bits");
	CHECK(bloom_check_sizing_args(0, 0.01) != NULL && bloom_check_sizing_args(10, 0.0) != NULL &&
		  bloom_check_sizing_args(10, 0.51) != NULL && bloom_check_sizing_args(10, 0.5) == NULL,
		  "sizing argument checks");
}

/*
 * bloom_lookup3_bytes/u32 equal PostgreSQL's hash_bytes_extended and
 * hash_bytes_uint32_extended for every length 0..300, every alignment of the
 * key, bytes with the high bit set, and zero and non-zero seeds.
 */
static void
test_lookup3(void)
{
	static const uint64_t seeds[] = {0, 1, UINT64_C(0xdeadbeefcafebabe), UINT64_C(1) << 40};
	uint8_t		buf[320];
	uint64_t	state = 12345;
	long		tried = 0,
				differ = 0;

	for (int len = 0; len <= 300; len++)
		for (int align = 0; align < 8; align++)
			for (int si = 0; si < 4; si++)
			{
				for (int i = 0; i < len; i++)
				{
					state = bloom_mix64(state + 1);
					buf[align + i] = (uint8_t) state;
				}
				tried++;
				if (bloom_lookup3_bytes(buf + align, len, seeds[si]) !=
					hash_bytes_extended(buf + align, len, seeds[si]))
					differ++;
			}
	CHECK(tried == 301 * 8 * 4 && differ == 0, "lookup3 bytes = hash_bytes_extended");
	differ = 0;
	for (uint32_t i = 0; i < 200000; i++)
	{
		uint32_t	k = (uint32_t) bloom_mix64(i);
		uint64_t	seed = i % 3 == 0 ? 0 : bloom_mix64(~(uint64_t) i);

		if (bloom_lookup3_u32(k, seed) != hash_bytes_uint32_extended(k, seed))
			differ++;
	}
	CHECK(differ == 0, "lookup3 u32 = hash_bytes_uint32_extended");
}

/*
 * The CPU-specific block kernels set exactly the bits of the portable ones:
 * the same keys inserted one by one and in batches under both, then every
 * filter probed under both, for present and absent keys.
 */
static void
test_kernels_agree(bool portable)
{
	BloomSizing s = bloom_size_for(50000, 0.01, BLOOM_LAYOUT_BLOCKED, false);
	BloomFilter *f[4];
	uint64_t	batch[100];
	long		disagree = 0;

	for (int v = 0; v < 4; v++)
	{
		bloom_cpu_init(v % 2 == 1);		/* odd: portable kernels */
		f[v] = new_filter(BLOOM_LAYOUT_BLOCKED, s.nhashes, s.nbits);
		for (uint64_t i = 0; i < 50000; i += 100)
		{
			for (int j = 0; j < 100; j++)
				batch[j] = bloom_mix64(i + j);
			if (v < 2)
				for (int j = 0; j < 100; j++)
					bloom_insert_hash(f[v], batch[j]);
			else
				bloom_insert_hashes(f[v], batch, 100);
		}
	}
	for (int v = 1; v < 4; v++)
		CHECK(memcmp(f[0], f[v], BLOOM_TOTAL_SIZE(s.nbits)) == 0,
			  "kernels set the same bits");
	for (int p = 0; p < 2; p++)
	{
		bloom_cpu_init(p == 1);
		for (uint64_t i = 0; i < 100000; i++)
			if (bloom_test_hash(f[0], bloom_mix64(i)) != bloom_test_hash(f[3], bloom_mix64(i)) ||
				(i < 50000 && !bloom_test_hash(f[0], bloom_mix64(i))))
				disagree++;
	}
	CHECK(disagree == 0, "kernels answer alike, no false negatives");
	for (int v = 0; v < 4; v++)
		free(f[v]);
	bloom_cpu_init(portable);
}

int
main(int argc, char **argv)
{
	bool		portable = argc > 1 && strcmp(argv[1], "portable") == 0;

	bloom_cpu_init(portable);
	printf("kernels: %s\n", bloom_cpu_path());
	test_layout(BLOOM_LAYOUT_BLOCKED);
	test_layout(BLOOM_LAYOUT_CLASSIC);
	test_fold(BLOOM_LAYOUT_BLOCKED);
	test_fold(BLOOM_LAYOUT_CLASSIC);
	test_codecs();
	test_sizing();
	test_lookup3();
	test_kernels_agree(portable);
	printf("SUITE unit (%s): %d passed, %d failed\n", bloom_cpu_path(), passed, failed);
	return failed != 0;
}
