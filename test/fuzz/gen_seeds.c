/*-------------------------------------------------------------------------
 *
 * gen_seeds.c
 *	  Write a seed corpus of valid encodings for fuzz_decode: the text form
 *	  and the binary (send/recv) form of filters of every layout, empty and
 *	  filled, with and without a family, flags and collation fingerprint,
 *	  built with the core API exactly as the extension builds them.
 *
 *	  usage: gen_seeds OUTDIR
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"
#include "bloom_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the counting layouts' add, if this version of the core has it */
extern void bloom_counting_add(BloomFilter *f, uint64_t h) __attribute__((weak));

static int	nseeds = 0;

static void
write_file(const char *dir, const char *kind, const void *buf, size_t len)
{
	char		path[4096];
	FILE	   *fp;

	snprintf(path, sizeof(path), "%s/seed-%02d-%s", dir, nseeds++, kind);
	fp = fopen(path, "wb");
	if (fp == NULL || fwrite(buf, 1, len, fp) != len || fclose(fp) != 0)
	{
		perror(path);
		exit(1);
	}
}

static void
emit(const char *dir, const BloomFilter *f)
{
	size_t		tsize = bloom_text_size(f);
	char	   *t = malloc(tsize);
	size_t		wlen = BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(f);
	uint8_t    *w = malloc(wlen);

	bloom_text_encode(f, t);
	write_file(dir, "text", t, strlen(t));
	bloom_wire_encode_header(f, w);
	memcpy(w + BLOOM_WIRE_HEADER_SIZE, f->words, BLOOM_DATA_BYTES(f));
	write_file(dir, "wire", w, wlen);
	free(t);
	free(w);
}

/* A filter with these parameters; NULL if this core rejects them and optional. */
static BloomFilter *
make(int layout, int k, uint64_t nbits, uint64_t seed, const char *family,
	 uint32_t flags, uint32_t collfp, int nitems, bool optional)
{
	BloomFilter *f = calloc(1, BLOOM_TOTAL_SIZE(nbits));

	bloom_init_header(f, layout, k, nbits, seed);
	f->flags = flags;
	f->collfp = collfp;
	if (family)
	{
		strncpy(f->family, family, BLOOM_FAMILY_LEN - 1);
		for (int i = 0; i < nitems; i++)
		{
			uint64_t	h = bloom_mix64((uint64_t) i + 1);

			if (bloom_layout_is_counting(layout) && bloom_counting_add)
				bloom_counting_add(f, h);
			else
				bloom_insert_hash(f, h);
		}
		f->nitems = (uint64_t) nitems;
	}
	if (bloom_check_header(f) != NULL || bloom_check_bits(f) != NULL)
	{
		free(f);
		if (optional)
			return NULL;
		fprintf(stderr, "gen_seeds: invalid seed filter\n");
		exit(1);
	}
	return f;
}

int
main(int argc, char **argv)
{
	BloomFilter *f;

	if (argc != 2)
	{
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	bloom_cpu_init(false);
#define SEED(args) do { f = make args; if (f) { emit(argv[1], f); free(f); } } while (0)
	/* the empty result of bloom_agg over no rows */
	SEED((BLOOM_LAYOUT_BLOCKED, 8, 256, 0, NULL, BLOOM_FLAG_AUTOSIZED, 0, 0, false));
	/* auto-sized blocked filters (bloom_agg(x)) */
	SEED((BLOOM_LAYOUT_BLOCKED, 8, 512, 0, "integer_ops", BLOOM_FLAG_AUTOSIZED, 0, 20, false));
	SEED((BLOOM_LAYOUT_BLOCKED, 8, 2048, 0, "text_ops", BLOOM_FLAG_AUTOSIZED | BLOOM_FLAG_FOLDED, 0, 150, false));
	/* bloom_agg(x, 1000, 0.01)-like: blocked, not a power of two */
	SEED((BLOOM_LAYOUT_BLOCKED, 8, 768, 0, "array(integer_ops)", 0, 0, 40, false));
	/* classic: bloom_empty(64, 3, 7) || 1, and others */
	SEED((BLOOM_LAYOUT_CLASSIC, 3, 512, 7, "integer_ops", 0, 0, 1, false));
	SEED((BLOOM_LAYOUT_CLASSIC, 3, 512, 7, NULL, 0, 0, 0, false));
	SEED((BLOOM_LAYOUT_CLASSIC, 7, 960, UINT64_C(0xffffffffffffffff), "text_ops", 0, 0x1234abcd, 60, false));
	SEED((BLOOM_LAYOUT_CLASSIC, 32, 320, 42, "range(numeric_ops)", BLOOM_FLAG_FOLDED, 0, 5, false));
	SEED((BLOOM_LAYOUT_CLASSIC, 1, 256, 1, "enum:mood", 0, 0, 3, false));
	SEED((BLOOM_LAYOUT_CLASSIC, 10, 4096, 99, "abcdefghijklmnopqrstuvwxyz01234", 0, 7, 300, false));
	/* the counting layout (4-bit counters), where this core supports it */
	SEED((BLOOM_LAYOUT_COUNTING, 4, 1024, 0, "integer_ops", 0, 0, 10, true));
	SEED((BLOOM_LAYOUT_COUNTING, 1, 256, 0, NULL, 0, 0, 0, true));
	/* the blocked counting layout (blocks of 256 counters), where supported */
	SEED((BLOOM_LAYOUT_COUNTING_BLOCKED, 8, 4096, 0, "integer_ops", 0, 0, 30, true));
	SEED((BLOOM_LAYOUT_COUNTING_BLOCKED, 8, 1024, 0, NULL, 0, 0, 0, true));
	SEED((BLOOM_LAYOUT_COUNTING_BLOCKED, 8, 2048, 5, "text_ops", 0, 0x1234abcd, 400, true));
	printf("%d seeds written to %s\n", nseeds, argv[1]);
	return 0;
}
