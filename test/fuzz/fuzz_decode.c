/*-------------------------------------------------------------------------
 *
 * fuzz_decode.c
 *	  libFuzzer target for the PostgreSQL-free core of bloomset
 *	  (src/core/bloom_*.c): every input is decoded both as the text form
 *	  (what bloom_in parses) and as the binary send/recv form (what
 *	  bloom_recv, bloom_from_bytea and the aggregates' deserialization
 *	  parse).  Whatever a decoder accepts is then exercised: insert/test,
 *	  popcount (portable and dispatched kernels), the estimates, the text
 *	  and binary round trips (must be byte-identical), folding to a divisor
 *	  size, unfolding to a multiple, and union/intersection with the
 *	  resized copies.  Any broken invariant calls abort(), which libFuzzer
 *	  reports as a crash, like a sanitizer finding.
 *
 * Every input is also read as a Parquet split-block filter (what
 * bloom_from_parquet parses, src/core/parquet_format.c): accepted bytes must
 * locate a whole-block bitset that ends the input, and the header bloomset
 * writes for that size must be read back the same way.
 *
 * Build (see run.sh):
 *	 clang -g -O1 -fsanitize=fuzzer,address,undefined -I src \
 *		 test/fuzz/fuzz_decode.c src/core/bloom_*.c src/core/parquet_format.c -lm
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"
#include "bloom_codec.h"
#include "parquet_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Largest filter the harness lets the text decoder allocate when the hex
 * part has the wrong length (to check that bloom_text_decode_bits stops
 * cleanly on its own); bloom_in checks the length before allocating, so
 * larger headers are only checked that far.
 */
#define FUZZ_MAX_PROBE_BITS		(UINT64_C(1) << 20)

/*
 * The counting layout's functions, if this version of the core has them
 * (weak: the target also builds against a core without them).
 */
extern void bloom_counting_add(BloomFilter *f, uint64_t h) __attribute__((weak));
extern bool bloom_counting_test(const BloomFilter *f, uint64_t h) __attribute__((weak));
extern bool bloom_counting_remove(BloomFilter *f, uint64_t h) __attribute__((weak));
extern void bloom_counting_merge(BloomFilter *dst, const BloomFilter *src) __attribute__((weak));
extern void bloom_counting_to_bits(const BloomFilter *src, BloomFilter *dst) __attribute__((weak));
/* the header-only decoder of scalable sub-filters, where present */
extern const char *bloom_wire_decode_fields(const uint8_t *buf, BloomFilter *hdr) __attribute__((weak));

#define FUZZ_CHECK(cond, what) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "fuzz_decode: invariant failed: %s (%s:%d)\n", \
					(what), __FILE__, __LINE__); \
			abort(); \
		} \
	} while (0)

static BloomFilter *
fuzz_alloc(uint64_t nbits)
{
	BloomFilter *f = calloc(1, BLOOM_TOTAL_SIZE(nbits));

	FUZZ_CHECK(f != NULL, "out of memory");
	f->vl_len_ = (int32_t) BLOOM_TOTAL_SIZE(nbits);
	return f;
}

/* A copy of f's header with a zeroed bit array of nbits bits. */
static BloomFilter *
fuzz_reshape(const BloomFilter *f, uint64_t nbits)
{
	BloomFilter *r = fuzz_alloc(nbits);

	memcpy(r, f, BLOOM_HEADER_SIZE);
	r->vl_len_ = (int32_t) BLOOM_TOTAL_SIZE(nbits);
	r->nbits = nbits;
	return r;
}

static bool
fuzz_same(const BloomFilter *a, const BloomFilter *b)
{
	return a->nbits == b->nbits &&
		memcmp((const char *) a + 4, (const char *) b + 4,
			   BLOOM_TOTAL_SIZE(a->nbits) - 4) == 0;
}

/* The text encoding of f (malloc'd), with the size checks. */
static char *
fuzz_text(const BloomFilter *f)
{
	size_t		size = bloom_text_size(f);
	char	   *s = malloc(size);

	FUZZ_CHECK(s != NULL, "out of memory");
	bloom_text_encode(f, s);
	FUZZ_CHECK(strlen(s) + 1 == size, "bloom_text_size disagrees with bloom_text_encode");
	return s;
}

/* Decode the text s like bloom_in; NULL (and *why) if rejected. */
static BloomFilter *
fuzz_text_decode(const char *s, const char **why)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *hex;
	size_t		hexlen;

	if ((*why = bloom_text_decode_header(s, &hdr, &hex)) != NULL)
		return NULL;
	/* the header was validated: these must hold whatever the input */
	FUZZ_CHECK(bloom_check_header(&hdr) == NULL, "decoded text header fails bloom_check_header");
	FUZZ_CHECK(hex >= s && hex <= s + strlen(s), "hex pointer outside the input");

	hexlen = strlen(hex);
	if (hexlen != 2 * BLOOM_DATA_BYTES(&hdr) && hdr.nbits > FUZZ_MAX_PROBE_BITS)
	{
		*why = "length mismatch (not probed)";
		return NULL;
	}
	f = fuzz_alloc(hdr.nbits);
	memcpy((char *) f + 4, (char *) &hdr + 4, BLOOM_HEADER_SIZE - 4);
	if ((*why = bloom_text_decode_bits(hex, f)) != NULL ||
		(*why = bloom_check_bits(f)) != NULL)
	{
		free(f);
		return NULL;
	}
	FUZZ_CHECK(hexlen == 2 * BLOOM_DATA_BYTES(&hdr),
			   "bloom_text_decode_bits accepted a hex part of the wrong length");
	return f;
}

/* Decode buf like bloom_wire_read; NULL (and *why) if rejected. */
static BloomFilter *
fuzz_wire_decode(const uint8_t *buf, size_t len, const char **why)
{
	BloomFilter hdr;
	BloomFilter *f;

	if ((*why = bloom_wire_decode_header(buf, len, &hdr)) != NULL)
		return NULL;
	FUZZ_CHECK(bloom_check_header(&hdr) == NULL, "decoded wire header fails bloom_check_header");
	FUZZ_CHECK(len == BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(&hdr),
			   "wire length does not match the accepted header");
	f = fuzz_alloc(hdr.nbits);
	memcpy((char *) f + 4, (char *) &hdr + 4, BLOOM_HEADER_SIZE - 4);
	memcpy(f->words, buf + BLOOM_WIRE_HEADER_SIZE, BLOOM_DATA_BYTES(f));
	if ((*why = bloom_check_bits(f)) != NULL)
	{
		free(f);
		return NULL;
	}
	return f;
}

/* The binary encoding of f (malloc'd, *len bytes). */
static uint8_t *
fuzz_wire(const BloomFilter *f, size_t *len)
{
	uint8_t    *b;

	*len = BLOOM_WIRE_HEADER_SIZE + BLOOM_DATA_BYTES(f);
	b = malloc(*len);
	FUZZ_CHECK(b != NULL, "out of memory");
	bloom_wire_encode_header(f, b);
	memcpy(b + BLOOM_WIRE_HEADER_SIZE, f->words, BLOOM_DATA_BYTES(f));
	return b;
}

/* Every inserted hash must test true in f (no false negatives). */
static void
fuzz_check_members(const BloomFilter *f, const uint64_t *h, int n, const char *what)
{
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(bloom_test_hash(f, h[i]), what);
}

static void
fuzz_check_estimates(const BloomFilter *f)
{
	uint64_t	set;
	uint64_t	set_portable;
	double		est,
				fpr;

	bloom_cpu_init(true);
	set_portable = bloom_popcount(f);
	bloom_cpu_init(false);
	set = bloom_popcount(f);
	FUZZ_CHECK(set == set_portable, "popcount kernels disagree");
	FUZZ_CHECK(set <= f->nbits, "popcount larger than the number of bits");
	est = bloom_estimate_items(f, set);
	FUZZ_CHECK(!isnan(est) && est >= 0.0 && !isinf(est), "bloom_estimate_items out of range");
	fpr = bloom_current_fpr(f);
	FUZZ_CHECK(!isnan(fpr) && fpr >= 0.0 && fpr <= 1.0, "bloom_current_fpr out of range");
	if (set == 0)
		FUZZ_CHECK(fpr == 0.0 && est == 0.0, "empty filter has nonzero estimates");
}

/* Both encodings of f must decode to exactly f again. */
static void
fuzz_round_trips(const BloomFilter *f)
{
	const char *why;
	char	   *t = fuzz_text(f);
	BloomFilter *g = fuzz_text_decode(t, &why);
	uint8_t    *w;
	size_t		wlen;

	if (g == NULL)
	{
		fprintf(stderr, "fuzz_decode: text form rejected: %s\n%s\n", why, t);
		abort();
	}
	FUZZ_CHECK(fuzz_same(f, g), "text round trip changed the filter");
	{
		char	   *t2 = fuzz_text(g);

		FUZZ_CHECK(strcmp(t, t2) == 0, "text form not canonical");
		free(t2);
	}
	free(g);
	free(t);

	w = fuzz_wire(f, &wlen);
	g = fuzz_wire_decode(w, wlen, &why);
	if (g == NULL)
	{
		fprintf(stderr, "fuzz_decode: binary form rejected: %s\n", why);
		abort();
	}
	FUZZ_CHECK(fuzz_same(f, g), "binary round trip changed the filter");
	free(g);
	free(w);
}

/* A factor (> 1 if any) dividing f's units and leaving >= BLOOM_MIN_BITS. */
static uint64_t
fuzz_fold_factor(const BloomFilter *f, uint8_t pick)
{
	uint64_t	unit = bloom_unit_bits(f);
	uint64_t	units = f->nbits / unit;
	uint64_t	cand[8];
	int			n = 0;

	for (uint64_t d = 2; d <= 64 && n < 8; d++)
		if (units % d == 0 && f->nbits / d >= BLOOM_MIN_BITS)
			cand[n++] = d;
	return n == 0 ? 1 : cand[pick % n];
}

/* Bit b of f's array (bit b % 8 of byte b / 8). */
static bool
fuzz_bit(const BloomFilter *f, uint64_t b)
{
	return (((const uint8_t *) f->words)[b / 8] >> (b % 8)) & 1;
}

/*
 * Is dst (zero before the resize) exactly the fold or unfold of src, unit
 * by unit (bit for classic, block for blocked), computed bit by bit?
 */
static void
fuzz_check_resize_exact(const BloomFilter *src, const BloomFilter *dst)
{
	uint64_t	unit = src->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_BITS : 1;

	if (src->nbits >= dst->nbits)
	{
		uint64_t	f = src->nbits / dst->nbits;

		for (uint64_t d = 0; d < dst->nbits; d++)
		{
			uint64_t	u = d / unit,
						off = d % unit;
			bool		any = false;

			for (uint64_t j = 0; j < f && !any; j++)
				any = fuzz_bit(src, (u * f + j) * unit + off);
			FUZZ_CHECK(fuzz_bit(dst, d) == any, "fold differs from the bit-by-bit reference");
		}
	}
	else
	{
		uint64_t	f = dst->nbits / src->nbits;

		for (uint64_t d = 0; d < dst->nbits; d++)
			FUZZ_CHECK(fuzz_bit(dst, d) == fuzz_bit(src, (d / unit / f) * unit + d % unit),
					   "unfold differs from the bit-by-bit reference");
	}
}

/* Fold, unfold and combine f with the resized copies. */
static void
fuzz_resize(const BloomFilter *f, const uint64_t *h, int nh, uint8_t pick)
{
	uint64_t	factor = fuzz_fold_factor(f, pick);
	BloomFilter *folded = fuzz_reshape(f, f->nbits / factor);
	char		detail[256];

	bloom_resize_into(f, folded);
	fuzz_check_resize_exact(f, folded);
	FUZZ_CHECK(bloom_check_header(folded) == NULL, "folded header invalid");
	FUZZ_CHECK(bloom_popcount(folded) <= bloom_popcount(f), "folding added bits");
	fuzz_check_members(folded, h, nh, "false negative after folding");
	fuzz_check_estimates(folded);
	if (f->family[0] != '\0')
		fuzz_round_trips(folded);
	FUZZ_CHECK(bloom_check_compatible(f, folded, detail, sizeof(detail)),
			   "a filter and its folded copy are not combinable");

	/* unfold the folded copy back: a superset of f, same size */
	if (factor > 1)
	{
		BloomFilter *back = fuzz_reshape(f, f->nbits);
		BloomFilter *uni = fuzz_reshape(f, f->nbits);

		bloom_resize_into(folded, back);
		fuzz_check_resize_exact(folded, back);
		fuzz_check_members(back, h, nh, "false negative after unfolding");
		FUZZ_CHECK(bloom_popcount(back) >= bloom_popcount(f) ||
				   bloom_popcount(f) == 0, "unfolding lost bits");

		/* union and intersection as bloom_combine does them */
		memcpy(uni->words, f->words, BLOOM_DATA_BYTES(f));
		bloom_or_words(uni->words, back->words, BLOOM_NWORDS(f));
		FUZZ_CHECK(memcmp(uni->words, back->words, BLOOM_DATA_BYTES(f)) == 0,
				   "f | unfold(fold(f)) != unfold(fold(f))");
		bloom_and_words(uni->words, f->words, BLOOM_NWORDS(f));
		FUZZ_CHECK(memcmp(uni->words, f->words, BLOOM_DATA_BYTES(f)) == 0,
				   "(f | g) & f != f");
		free(back);
		free(uni);
	}

	/* unfold f to twice its size, if allowed */
	if (f->nbits * 2 <= BLOOM_MAX_BITS && f->nbits <= (UINT64_C(1) << 16))
	{
		BloomFilter *big = fuzz_reshape(f, f->nbits * 2);

		bloom_resize_into(f, big);
		FUZZ_CHECK(bloom_check_header(big) == NULL, "unfolded header invalid");
		FUZZ_CHECK(bloom_popcount(big) == 2 * bloom_popcount(f), "unfolding by 2 must double the bits");
		fuzz_check_members(big, h, nh, "false negative after unfolding by 2");
		free(big);
	}
	free(folded);
}

/*
 * Counting layouts: counters added must test present, a counting filter
 * must map onto the bloom filter of nbits / 4 bits holding the same items
 * (classic for the counting layout, blocked for the blocked counting
 * layout: the cast to bloom), merging saturates without losing items, and
 * removing an item that was added twice keeps it present.
 */
static void
fuzz_counting(BloomFilter *f, const uint64_t *h, int nh)
{
	BloomFilter *bits;
	BloomFilter *copy;

	if (!bloom_layout_is_counting(f->layout) || !bloom_counting_add ||
		!bloom_counting_test || !bloom_counting_remove ||
		!bloom_counting_merge || !bloom_counting_to_bits)
		return;
	for (int i = 0; i < nh; i++)
		bloom_counting_add(f, h[i]);
	for (int i = 0; i < nh; i++)
		FUZZ_CHECK(bloom_counting_test(f, h[i]), "counting: false negative after add");
	copy = fuzz_reshape(f, f->nbits);
	memcpy(copy->words, f->words, BLOOM_DATA_BYTES(f));
	bloom_counting_merge(copy, f);
	for (int i = 0; i < nh; i++)
		FUZZ_CHECK(bloom_counting_test(copy, h[i]), "counting: false negative after merge");
	if (nh > 0)
	{
		bloom_counting_add(copy, h[0]);
		FUZZ_CHECK(bloom_counting_remove(copy, h[0]), "counting: remove of a present item failed");
		for (int i = 0; i < nh; i++)
			FUZZ_CHECK(bloom_counting_test(copy, h[i]), "counting: false negative after remove");
	}
	fuzz_round_trips(copy);
	free(copy);
	/* the bloom image (a valid bloom value only from 1024 counters up) */
	bits = fuzz_reshape(f, f->nbits / 4);
	bits->layout = f->layout == BLOOM_LAYOUT_COUNTING_BLOCKED ?
		BLOOM_LAYOUT_BLOCKED : BLOOM_LAYOUT_CLASSIC;
	bloom_counting_to_bits(f, bits);
	if (bits->nbits >= BLOOM_MIN_BITS)
		FUZZ_CHECK(bloom_check_header(bits) == NULL, "counting: the bloom image has an invalid header");
	for (int i = 0; i < nh; i++)
		FUZZ_CHECK(bloom_test_hash(bits, h[i]), "counting: false negative in the bloom image");
	free(bits);
}

/* Exercise an accepted filter (which it may modify). */
static void
fuzz_exercise(BloomFilter *f, const uint8_t *data, size_t len)
{
	uint64_t	h[16];
	int			nh = 0;
	uint8_t		pick = len > 0 ? data[len - 1] : 0;

	FUZZ_CHECK(bloom_check_header(f) == NULL, "accepted filter fails bloom_check_header");
	FUZZ_CHECK(bloom_check_bits(f) == NULL, "accepted filter fails bloom_check_bits");
	FUZZ_CHECK(strcmp(bloom_layout_name(f->layout), "unknown") != 0, "accepted unknown layout");
	/* the probes' assumption: an n-gram family has 1 .. 8, a token one is exact */
	FUZZ_CHECK(strncmp(f->family, "ngram", 5) != 0 ||
			   (bloom_family_ngram_n(f->family) >= 1 &&
				bloom_family_ngram_n(f->family) <= BLOOM_NGRAM_MAX),
			   "accepted an n-gram family without a valid n");
	FUZZ_CHECK(strncmp(f->family, "token", 5) != 0 || bloom_family_is_token(f->family),
			   "accepted a token family other than \"token\"");
	fuzz_check_estimates(f);
	fuzz_round_trips(f);

	/* probing the filter as read (any answer is fine, it must not crash) */
	for (size_t i = 0; i < 8; i++)
	{
		uint64_t	x = bloom_mix64((uint64_t) i * 0x9e3779b97f4a7c15ULL ^ len);

		bloom_prefetch_hash(f, x, true);
		(void) bloom_test_hash(f, x);
	}

	/* as bloom_add does: adopt a family, insert, count */
	if (f->family[0] == '\0')
		memcpy(f->family, "integer_ops", sizeof("integer_ops"));
	for (size_t i = 0; i < len && nh < 16; i += 8)
	{
		uint64_t	x = 0;

		memcpy(&x, data + i, len - i < 8 ? len - i : 8);
		h[nh] = bloom_mix64(x + (uint64_t) nh);
		bloom_insert_hash(f, h[nh]);
		nh++;
	}
	f->nitems = f->nitems > UINT64_MAX - (uint64_t) nh ? UINT64_MAX : f->nitems + (uint64_t) nh;
	fuzz_check_members(f, h, nh, "false negative after insert");
	FUZZ_CHECK(bloom_check_header(f) == NULL && bloom_check_bits(f) == NULL,
			   "filter invalid after inserts");
	fuzz_check_estimates(f);
	fuzz_round_trips(f);
	if (bloom_layout_is_counting(f->layout))
		fuzz_counting(f, h, nh);	/* counters do not fold bitwise */
	else
		fuzz_resize(f, h, nh, pick);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *s = malloc(size + 1);
	const char *why;
	BloomFilter *f;

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	/* (p) the bytes as a Parquet filter, with or without its header */
	{
		size_t		off,
					nb;

		if (parquet_locate_bitset(data, size, &off, &nb) == NULL)
		{
			uint8_t    *again;
			size_t		hl,
						off2,
						nb2;

			FUZZ_CHECK(nb > 0 && nb % PARQUET_BLOCK_BYTES == 0 && off + nb == size,
					   "a Parquet bitset that is not the whole blocks ending the input");
			again = malloc(PARQUET_HEADER_MAX + nb);
			if (again != NULL)
			{
				hl = parquet_encode_header(nb, again);
				memcpy(again + hl, data + off, nb);
				FUZZ_CHECK(parquet_locate_bitset(again, hl + nb, &off2, &nb2) == NULL &&
						   off2 == hl && nb2 == nb, "bloomset's own Parquet header is not read back");
				free(again);
			}
		}
	}

	/* (a) the text form */
	f = fuzz_text_decode(s, &why);
	if (f != NULL)
	{
		fuzz_exercise(f, data, size);
		free(f);
	}
	else
		FUZZ_CHECK(why != NULL && why[0] != '\0', "rejected without a reason");
	free(s);

	/* (b') a header alone, as a scalable filter's sub-filter headers */
	if (bloom_wire_decode_fields && size >= BLOOM_WIRE_HEADER_SIZE)
	{
		BloomFilter hdr;
		uint8_t		again[BLOOM_WIRE_HEADER_SIZE];

		if (bloom_wire_decode_fields(data, &hdr) == NULL)
		{
			FUZZ_CHECK(bloom_check_header(&hdr) == NULL, "decode_fields accepted an invalid header");
			bloom_wire_encode_header(&hdr, again);
			FUZZ_CHECK(memcmp(again, data, BLOOM_WIRE_HEADER_SIZE) == 0,
					   "decode_fields/encode_header round trip differs");
		}
	}

	/* (b) the binary form */
	f = fuzz_wire_decode(data, size, &why);
	if (f != NULL)
	{
		fuzz_exercise(f, data, size);
		free(f);
	}
	else
		FUZZ_CHECK(why != NULL && why[0] != '\0', "rejected without a reason");
	return 0;
}
