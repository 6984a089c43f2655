/*-------------------------------------------------------------------------
 *
 * bloom_core.c
 *	  PostgreSQL-free core of bloomset: sizing, hash-to-bit mapping for the
 *	  classic and the blocked layout, set algebra with folding, estimates
 *	  and header validation (the text/binary codecs are in bloom_codec.c).
 *
 * Design.  Every value is reduced to one 64-bit hash (bloom_hash.c); all
 * positions are derived from it here, so a filter never depends on how the
 * value was stored in memory.
 *
 * Blocked layout (split block Bloom filter, as in Parquet): the array is z
 * blocks of 256 bits; the upper 32 bits of the hash choose the block by
 * multiply-shift, ((h >> 32) * z) >> 32, and the lower 32 bits set one bit in
 * each of the block's eight 32-bit words, (h32 * SALT[i]) >> 27.  One cache
 * line per operation.
 *
 * Classic layout: k positions g_0 .. g_{k-1} from the hash, each reduced to
 * [0, m) by multiply-shift (the high 64 bits of g * m).  Scheme 1 (1.0,
 * 1.1): double hashing, a += b, b += i, from a = h and a b made from h; the
 * b += i tweak changes only low bits, which the reduction drops, so the
 * positions are an arithmetic progression modulo m, and in a small filter
 * a progression often repeats itself (capacity 10 at 1e-5: 18 probes on
 * <= 5 distinct bits for 0.45 % of the keys, 93x the promised rate).
 * Scheme 2: g_i = remix(a + i * b), a = h, b = mix64b(h) | 1, remix one
 * xorshift and multiply (bloom_probe_remix) -- double hashing on two 64-bit
 * hashes, made non-linear per probe, so the positions behave as
 * independent (unit test: the rate oracle down to 1e-8 and the distinct
 * positions per key).  Either way g_i does not depend on m, which is what
 * folding needs (below).  The counting layout uses the same positions over
 * its counters.
 *
 * Multiply-shift instead of modulo is what makes folding possible: for any
 * factor f dividing the number of blocks (or bits), position p in the large
 * filter maps to p / f in the folded one, so OR-ing each run of f adjacent
 * blocks (bits) gives exactly the filter built directly at the smaller size.
 * Replicating each block f times ("unfolding") gives a valid superset filter
 * at the larger size; union and intersection use it to combine filters whose
 * sizes are multiples of each other.
 *
 * Unreachable rates.  The classic layout uses at most BLOOM_MAX_HASHES
 * hashes and the blocked one exactly 8, so below some rate a filter must
 * grow far beyond the ideal -n ln p / (ln 2)^2 bits (classic, 1e6 items at
 * 1e-300: 180 MB would give 9e-54, not 1e-300).  bloom_size_for sizes the
 * classic layout for its capped k when the cap binds, and reports a rate
 * that no filter of the layout within BLOOM_MAX_BITS reaches, although the
 * ideal filter would fit, as unreachable, with the smallest reachable rate.
 *
 * Interrupts.  Every loop over the bit array is cut into chunks of about
 * BLOOM_POLL_BYTES by bloom_chunk_end (bloom_core.h), which calls
 * bloom_interrupt_hook between chunks: the word kernels (whatever the CPU
 * path) through bloom_words_chunked, the others in their own outer loop.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* called between chunks of long loops (PostgreSQL: CHECK_FOR_INTERRUPTS) */
void		(*bloom_interrupt_hook) (void) = NULL;

#define BLOOM_STR2(x)	#x
#define BLOOM_STR(x)	BLOOM_STR2(x)

/*
 * Portable versions of the compiler builtins the core uses (GCC and Clang
 * compile them to one instruction where the target has it).
 */

/* Index of the lowest set bit of v (v != 0). */
static inline int
bloom_ctz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_ctzll(v);
#else
	int			n = 0;

	while ((v & 1) == 0)
	{
		v >>= 1;
		n++;
	}
	return n;
#endif
}

#ifdef BLOOM_BIG_ENDIAN
/* v with its bytes reversed. */
static inline uint64_t
bloom_bswap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_bswap64(v);
#else
	v = ((v & UINT64_C(0x00ff00ff00ff00ff)) << 8) | ((v >> 8) & UINT64_C(0x00ff00ff00ff00ff));
	v = ((v & UINT64_C(0x0000ffff0000ffff)) << 16) | ((v >> 16) & UINT64_C(0x0000ffff0000ffff));
	return (v << 32) | (v >> 32);
#endif
}
#endif


/* ------------------------------------------------------------------------
 * Sizing
 * ------------------------------------------------------------------------
 */

/* Return NULL if (capacity, fpr) is acceptable, else a reason. */
const char *
bloom_check_sizing_args(int64_t capacity, double fpr)
{
	if (capacity <= 0)
		return "capacity must be a positive number of items";
	if (capacity > BLOOM_MAX_CAPACITY)
		return "capacity must be at most 2^40 items";
	if (!(fpr > 0.0 && fpr <= BLOOM_MAX_FPR))
		return "false-positive rate must be in (0, 0.5]";
	return NULL;
}

/*
 * False-positive rate of a blocked filter holding lambda items per block on
 * average: items land in blocks as a Poisson process, and a block holding j
 * items answers "maybe" for a non-member with probability (1-(31/32)^j)^8.
 */
double
bloom_blocked_fpr(double lambda)
{
	double		sum = 0.0;
	double		pois = exp(-lambda);	/* Pois(0; lambda) */
	int			jmax = (int) (lambda + 12.0 * sqrt(lambda) + 40.0);
	int			jmin = (int) (lambda - 12.0 * sqrt(lambda) - 40.0);

	/*
	 * Large loads: start where the Poisson mass starts (exp(-lambda) would
	 * underflow to 0 beyond lambda ~ 745); from lgamma, in log space.
	 */
	if (jmin > 0)
		pois = exp(-lambda + jmin * log(lambda) - lgamma(jmin + 1.0));
	else
		jmin = 0;
	for (int j = jmin; j <= jmax; j++)
	{
		double		miss = 1.0 - pow(31.0 / 32.0, j);

		sum += pois * pow(miss, 8);
		pois *= lambda / (j + 1);
	}
	return sum;
}

/* False-positive rate of a classic filter: (1 - e^(-kn/m))^k. */
double
bloom_classic_fpr(double n, double m, int k)
{
	return pow(1.0 - exp(-(double) k * n / m), k);
}

/* Bits a classic filter with k hashes needs for n items at fpr (inverse). */
static double
bloom_classic_bits_for_k(double n, double fpr, int k)
{
	return -(double) k * n / log1p(-pow(fpr, 1.0 / k));
}

/* Most bits a filter of the layout may have (counting: counters). */
static uint64_t
bloom_layout_max_bits(int layout)
{
	return layout == BLOOM_LAYOUT_COUNTING ? BLOOM_MAX_BITS / 4 : BLOOM_MAX_BITS;
}

/*
 * The smallest false-positive rate a filter of the layout reaches for
 * capacity items within the size limit: the largest filter with the best
 * number of hashes the layout allows (blocked: 8; classic: 1 ..
 * BLOOM_MAX_HASHES; counting: classic over BLOOM_MAX_BITS / 4 counters).
 */
double
bloom_min_reachable_fpr(int64_t capacity, int layout)
{
	double		n = (double) (capacity < 1 ? 1 : capacity);
	double		m = (double) bloom_layout_max_bits(layout);
	double		best = 1.0;

	if (layout == BLOOM_LAYOUT_BLOCKED)
		return bloom_blocked_fpr(n / (m / BLOOM_BLOCK_BITS));
	for (int k = 1; k <= BLOOM_MAX_HASHES; k++)
	{
		double		p = bloom_classic_fpr(n, m, k);

		if (p < best)
			best = p;
	}
	return best;
}

/* The layout bloomset picks for a target rate (see BLOOM_BLOCKED_MIN_FPR). */
int
bloom_choose_layout(double fpr)
{
	return fpr >= BLOOM_BLOCKED_MIN_FPR ? BLOOM_LAYOUT_BLOCKED
		: BLOOM_LAYOUT_CLASSIC;
}

/* Round up to a power of two (v >= 1, v <= 2^62). */
static uint64_t
bloom_pow2_ceil(uint64_t v)
{
	uint64_t	p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/*
 * Largest items-per-block load that keeps a blocked filter at or under fpr,
 * by bisection of the model (about 60 evaluations); the last few answers are
 * remembered, since callers (aggregates per group) ask for the same rates.
 */
static double
bloom_blocked_max_load(double fpr)
{
	static double cache_fpr[4] = {-1, -1, -1, -1};
	static double cache_load[4];
	static int	cache_next = 0;
	double		lo = 0.0,
				hi = 256.0;

	for (int i = 0; i < 4; i++)
		if (cache_fpr[i] == fpr)
			return cache_load[i];
	for (int i = 0; i < 60; i++)
	{
		double		mid = (lo + hi) / 2;

		if (bloom_blocked_fpr(mid) <= fpr)
			lo = mid;
		else
			hi = mid;
	}
	cache_fpr[cache_next] = fpr;
	cache_load[cache_next] = lo;
	cache_next = (cache_next + 1) % 4;
	return lo;
}

/*
 * Sizing for capacity items at rate fpr (arguments checked by
 * bloom_check_sizing_args) in the given layout: BLOOM_LAYOUT_BLOCKED,
 * BLOOM_LAYOUT_CLASSIC, or BLOOM_LAYOUT_COUNTING (classic sizing over
 * nbits counters, at most BLOOM_MAX_BITS / 4; the filter has 4 * nbits
 * bits).  See BloomSizing for the three outcomes.  With pow2, the size is
 * rounded up to a power of two so that filters of different sizes can be
 * folded together.
 */
BloomSizing
bloom_size_for(int64_t capacity, double fpr, int layout, bool pow2)
{
	BloomSizing s;
	double		n = (double) capacity;
	double		max_bits = (double) bloom_layout_max_bits(layout);
	/* the ideal filter (any real k), in whole words */
	double		ideal = ceil(-n * log(fpr) / (M_LN2 * M_LN2) / 64.0) * 64.0;
	double		bits;

	memset(&s, 0, sizeof(s));
	s.layout = layout;
	if (layout == BLOOM_LAYOUT_BLOCKED)
	{
		double		load = bloom_blocked_max_load(fpr);

		/* below the bisection's resolution: the model's linear start */
		if (load <= 0.0)
			load = fpr / pow(1.0 / 32.0, BLOOM_BLOCKED_HASHES);
		bits = ceil(n / load) * BLOOM_BLOCK_BITS;
		s.nhashes = BLOOM_BLOCKED_HASHES;
	}
	else
	{
		bits = ideal;
		s.nhashes = (int) lround(bits / n * M_LN2);
		if (s.nhashes < 1)
			s.nhashes = 1;
		if (s.nhashes > BLOOM_MAX_HASHES)
		{
			/* more hashes would be best: with the most allowed, more bits */
			s.nhashes = BLOOM_MAX_HASHES;
			bits = ceil(bloom_classic_bits_for_k(n, fpr, BLOOM_MAX_HASHES) / 64.0) * 64.0;
		}
	}
	if (bits < BLOOM_MIN_BITS)
		bits = BLOOM_MIN_BITS;
	s.needed_bits = bits;
	if (bits > max_bits)
	{
		s.nbits = 0;
		s.expected_fpr = 1.0;
		if (ideal <= max_bits)
		{
			s.unreachable = layout == BLOOM_LAYOUT_BLOCKED
				? "the blocked layout, with its 8 hashes, cannot reach this rate for this capacity within the size limit"
				: "with at most " BLOOM_STR(BLOOM_MAX_HASHES) " hashes, no filter within the size limit reaches this rate for this capacity";
			s.min_fpr = bloom_min_reachable_fpr(capacity, layout);
		}
		return s;
	}
	s.nbits = (uint64_t) bits;
	if (pow2)
		s.nbits = bloom_pow2_ceil(s.nbits);
	if (s.nbits > (uint64_t) max_bits)
		s.nbits = 0;
	else if (layout == BLOOM_LAYOUT_BLOCKED)
		s.expected_fpr = bloom_blocked_fpr(n / ((double) s.nbits / BLOOM_BLOCK_BITS));
	else
		s.expected_fpr = bloom_classic_fpr(n, (double) s.nbits, s.nhashes);
	return s;
}

/* ------------------------------------------------------------------------
 * Header
 * ------------------------------------------------------------------------
 */

/*
 * Fill in a fresh header (the caller zeroed the whole filter), with the
 * newest scheme (the PostgreSQL layer gives new filters the one of the
 * installed extension version); a filter made from another one (fold,
 * union, a scalable filter's next stage) copies that one's scheme.
 */
void
bloom_init_header(BloomFilter *f, int layout, int nhashes, uint64_t nbits,
				  uint64_t seed)
{
	f->version = BLOOM_FORMAT_VERSION;
	f->layout = (uint8_t) layout;
	f->scheme = BLOOM_SCHEME_DEFAULT;
	f->nhashes = (uint8_t) nhashes;
	f->seed = seed;
	f->nbits = nbits;
	f->nitems = 0;
	f->flags = 0;
	f->collfp = 0;
	memset(f->family, 0, BLOOM_FAMILY_LEN);
}

static const char *const bloom_layout_names[] = {"classic", "blocked", "counting", "scalable"};

/* Name of a layout for output ("classic", "blocked"). */
const char *
bloom_layout_name(int layout)
{
	if (layout >= 0 && layout <= BLOOM_LAYOUT_SCALABLE)
		return bloom_layout_names[layout];
	return "unknown";
}

/* Layout code for a name, or -1. */
int
bloom_layout_from_name(const char *name)
{
	for (int i = 0; i <= BLOOM_LAYOUT_SCALABLE; i++)
		if (strcmp(name, bloom_layout_names[i]) == 0)
			return i;
	return -1;
}

/* Is c allowed in a family name (also the text form's delimiter rules)? */
bool
bloom_family_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '.' || c == '(' ||
		c == ')' || c == ',' || c == '~' || c == '-' || c == ':';
}

/*
 * N of an n-gram family "ngram:N" (N canonical decimal, 1 ..
 * BLOOM_NGRAM_MAX: no sign, no leading zero), or 0 for any other family.
 */
int
bloom_family_ngram_n(const char *family)
{
	const char *p = family + strlen(BLOOM_FAMILY_NGRAM);
	int			n = 0;

	if (strncmp(family, BLOOM_FAMILY_NGRAM, strlen(BLOOM_FAMILY_NGRAM)) != 0 ||
		*p < '1' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++)
	{
		n = n * 10 + (*p - '0');
		if (n > BLOOM_NGRAM_MAX)
			return 0;
	}
	return *p == '\0' ? n : 0;
}

/* Is this the family of token filters (exactly "token")? */
bool
bloom_family_is_token(const char *family)
{
	return strncmp(family, BLOOM_FAMILY_TOKEN, sizeof(BLOOM_FAMILY_TOKEN)) == 0;
}

/*
 * Is fam (len bytes, not NUL-terminated) a type family of the form the
 * PostgreSQL layer writes: "array(F)" or "range(F)" around a family F,
 * "enum:" or "opf:" and a name, or a bare name (a hash operator family,
 * "record"); names hold no parentheses or colons.  "parquet:" and a name
 * of the Parquet layer's own (which checks it).  A family cut to fit the
 * field ends in '~' and a hash of the whole, so its wrappers may be open:
 * it is only checked for characters.
 */
static bool
bloom_family_form_ok(const char *fam, size_t len)
{
	static const char *const prefixes[] = {"enum:", "opf:"};
	size_t		pqlen = strlen(BLOOM_FAMILY_PARQUET);

	if (len == 0)
		return false;
	if (strncmp(fam, BLOOM_FAMILY_PARQUET, pqlen) == 0)
		return len > pqlen;
	if ((len > 7 && strncmp(fam, "array(", 6) == 0 && fam[len - 1] == ')') ||
		(len > 7 && strncmp(fam, "range(", 6) == 0 && fam[len - 1] == ')'))
		return bloom_family_form_ok(fam + 6, len - 7);
	for (int i = 0; i < 2; i++)
	{
		size_t		plen = strlen(prefixes[i]);

		if (len > plen && strncmp(fam, prefixes[i], plen) == 0)
		{
			fam += plen;
			len -= plen;
			break;
		}
	}
	for (size_t i = 0; i < len; i++)
		if (fam[i] == '(' || fam[i] == ')' || fam[i] == ':')
			return false;
	return true;
}

/*
 * Family: NUL-terminated in its field, allowed characters, zero padding;
 * a family starting with "ngram" or "token" must be exactly one the text
 * filters write (see bloom_core.h), any other one of the forms the
 * PostgreSQL layer writes (bloom_family_form_ok).
 */
static const char *
bloom_check_family(const char *fam)
{
	int			len = 0;

	while (len < BLOOM_FAMILY_LEN && fam[len] != '\0')
	{
		if (!bloom_family_char_ok(fam[len]))
			return "element family contains an invalid character";
		len++;
	}
	if (len == BLOOM_FAMILY_LEN)
		return "element family is not terminated";
	for (int i = len; i < BLOOM_FAMILY_LEN; i++)
		if (fam[i] != '\0')
			return "element family has non-zero padding";
	if (strncmp(fam, "ngram", 5) == 0 && bloom_family_ngram_n(fam) == 0)
		return "an n-gram element family must be \"ngram:N\" with N from 1 to " BLOOM_STR(BLOOM_NGRAM_MAX);
	if (strncmp(fam, "token", 5) == 0 && !bloom_family_is_token(fam))
		return "a token element family must be exactly \"token\"";
	if (len > 0 && strncmp(fam, "ngram", 5) != 0 && !bloom_family_is_token(fam) &&
		strchr(fam, '~') == NULL && !bloom_family_form_ok(fam, (size_t) len))
		return "the family field is not an element family: it takes a hash operator family name, "
			"array(...) or range(...) of one, enum:<type>, record, ngram:N, token, parquet:<type>, "
			"or nothing for a filter nothing was added to";
	return NULL;
}

/*
 * Collation fingerprint: only values of a collatable type record one, so
 * a filter with none of them (nothing added; n-grams, tokens and Parquet
 * values, hashed without a collation; enums, ranges and composites, not
 * collatable) must have 0.
 */
static const char *
bloom_check_collfp(const BloomFilter *f)
{
	const char *fam = f->family;

	if (f->collfp == 0)
		return NULL;
	if (fam[0] == '\0' || strncmp(fam, "ngram", 5) == 0 || bloom_family_is_token(fam) ||
		strncmp(fam, BLOOM_FAMILY_PARQUET, strlen(BLOOM_FAMILY_PARQUET)) == 0 ||
		strncmp(fam, "enum:", 5) == 0 || strncmp(fam, "range(", 6) == 0 ||
		strcmp(fam, "record") == 0)
		return "the coll field must be 0 for this element family: only values of a collatable type "
			"(text, varchar, char, arrays of them) record a collation, as the hex fingerprint of a "
			"nondeterministic one";
	return NULL;
}

/*
 * Validate the fields that memory safety depends on (version, layout,
 * scheme, flags, size, hashes); NULL if fine, else the reason.  Cheap
 * enough to run on every stored datum fetched.
 */
const char *
bloom_check_shape(const BloomFilter *f)
{
	if (f->version != BLOOM_FORMAT_VERSION)
		return "unsupported format version";
	if (f->layout > BLOOM_LAYOUT_SCALABLE)
		return "unsupported layout";
	if (!bloom_scheme_known(f->scheme) && f->scheme != BLOOM_SCHEME_PARQUET)
		return "unsupported hashing scheme";
	if (f->scheme == BLOOM_SCHEME_PARQUET &&
		(f->layout != BLOOM_LAYOUT_BLOCKED || f->seed != 0))
		return "a filter of the Parquet scheme must be blocked, with seed 0";
	if (f->flags & ~BLOOM_FLAGS_KNOWN)
		return "unknown flags are set";
	if ((f->flags & BLOOM_FLAG_TARGET_MASK) != 0 &&
		(f->flags >> BLOOM_FLAG_TARGET_SHIFT) < BLOOM_TARGET_CODE_MIN)
		return "the recorded target rate is above 0.5";
	if (f->nbits < BLOOM_MIN_BITS || f->nbits > BLOOM_MAX_BITS)
		return "number of bits is out of range (256 .. 2^31)";
	if (f->nbits % 64 != 0)
		return "number of bits is not a multiple of 64";
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		if (f->nbits % BLOOM_BLOCK_BITS != 0)
			return "number of bits of a blocked filter is not a multiple of 256";
		if (f->nhashes != BLOOM_BLOCKED_HASHES)
			return "a blocked filter must use 8 hashes";
	}
	else if (f->layout == BLOOM_LAYOUT_COUNTING &&
			 (f->nbits % 256 != 0 || f->nbits < 4 * BLOOM_MIN_BITS))
		return "a counting filter must have a multiple of 64 counters, at least 256";
	else if (f->nhashes < 1 || f->nhashes > BLOOM_MAX_HASHES)
		return "number of hashes is out of range (1 .. 32)";
	return NULL;
}

/*
 * Validate every header field; NULL if the header describes a filter this
 * build can read safely, else the reason.  Every input path (text, binary,
 * aggregate deserialization) goes through here.
 */
const char *
bloom_check_header(const BloomFilter *f)
{
	const char *why = bloom_check_shape(f);
	bool		pq_family = strncmp(f->family, BLOOM_FAMILY_PARQUET,
									strlen(BLOOM_FAMILY_PARQUET)) == 0;

	if (why == NULL && (f->scheme == BLOOM_SCHEME_PARQUET) != pq_family)
		why = f->scheme == BLOOM_SCHEME_PARQUET ?
			"a filter of the Parquet scheme must have a \"parquet:\" element family" :
			"a \"parquet:\" element family needs the Parquet scheme";
	if (why == NULL)
		why = bloom_check_family(f->family);
	return why ? why : bloom_check_collfp(f);
}

/*
 * Check what the header alone cannot: a filter without an element family
 * has never had anything added, so it must have no bits set and count no
 * items (union treats such a filter as the empty set).  O(m).
 */
const char *
bloom_check_bits(const BloomFilter *f)
{
	if (f->family[0] != '\0' || f->layout == BLOOM_LAYOUT_SCALABLE)
		return NULL;			/* a scalable filter's sub-filters are checked */
	if (f->nitems != 0)
		return "a filter without an element family must have no items";
	for (size_t lo = 0, hi; lo < BLOOM_NWORDS(f); lo = hi)
	{
		uint64_t	any = 0;

		hi = bloom_chunk_end(lo, BLOOM_NWORDS(f), BLOOM_POLL_WORDS);
		for (size_t i = lo; i < hi; i++)
			any |= f->words[i];
		if (any != 0)
			return "a filter without an element family must have no bits set";
	}
	return NULL;
}

/* ------------------------------------------------------------------------
 * Hash to bits
 * ------------------------------------------------------------------------
 */

#ifdef BLOOM_BIG_ENDIAN
#define BLOOM_SET_BIT(bytes, b)  ((bytes)[(b) >> 3] |= (uint8_t) (1U << ((b) & 7)))
#define BLOOM_GET_BIT(bytes, b)  (((bytes)[(b) >> 3] >> ((b) & 7)) & 1)
#endif

/*
 * The classic position sequence of hash h over n slots (bits of a classic
 * filter, counters of a counting one), by the filter's scheme (see the
 * file header).  The reduction mulhi(g, n) comes last, so position p over
 * n slots is p / f over n / f slots: folding stays exact.
 */
typedef struct BloomProbeSeq
{
	uint64_t	a;
	uint64_t	b;
	uint64_t	i;
	uint64_t	n;
	bool		remix;			/* scheme 2: g = remix(a), b constant */
} BloomProbeSeq;

/*
 * Scheme 2's per-probe remix of g_i = a + i b: one xorshift and one
 * multiply.  The reduction keeps the high bits of the product, which
 * depend on every bit of g (the xorshift brings the high half down first),
 * so the non-linear step breaks the arithmetic progression that makes
 * plain double hashing collapse in small filters.  Measured against k
 * truly independent positions (k = 17 in 320 bits, 2 million keys): the
 * same distribution of distinct positions per key (12 or fewer: 25 vs 31;
 * scheme 1: 2,123 per 200,000; "enhanced" double hashing with a third
 * hash for the cubic term: 361), at a third of fmix64's instructions.
 */
static inline uint64_t
bloom_probe_remix(uint64_t g)
{
	return (g ^ (g >> 32)) * UINT64_C(0xd6e8feb86659fd93);
}

/* Start the probe sequence of h over n slots. */
static inline void
bloom_seq_init(BloomProbeSeq *s, const BloomFilter *f, uint64_t h, uint64_t n)
{
	s->a = h;
	s->i = 0;
	s->n = n;
	s->remix = f->scheme != BLOOM_SCHEME_PGEXT;
	if (s->remix)
		s->b = bloom_mix64b(h ^ UINT64_C(0x2545f4914f6cdd1d)) | 1;
	else
		s->b = ((h >> 32) | (h << 32)) * UINT64_C(0x9e3779b97f4a7c15) | 1;
}

/* The next position of the sequence. */
static inline uint64_t
bloom_seq_next(BloomProbeSeq *s)
{
	uint64_t	pos;

	if (s->remix)
	{
		pos = bloom_mulhi64(bloom_probe_remix(s->a), s->n);
		s->a += s->b;
		return pos;
	}
	pos = bloom_mulhi64(s->a, s->n);
	s->a += s->b;
	s->b += s->i++;
	return pos;
}

/* Slots the positions of a classic-kind layout range over. */
static inline uint64_t
bloom_position_slots(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_COUNTING ? f->nbits / 4 : f->nbits;
}

/*
 * The positions a probe (insert or test) of hash h touches in a filter
 * with header hdr (its bits are not read): blocked, the block index (one
 * position; the block is bytes [32 b, 32 b + 32) of the bit array);
 * classic, the k bit indexes (bit p is bit p % 8 of byte p / 8); counting,
 * the k counter indexes (counter j is the low (even j) or high (odd j)
 * nibble of byte j / 2).  Returns how many were written to pos (room for
 * BLOOM_MAX_POSITIONS), 0 for a layout without positions of its own
 * (scalable: each sub-filter has its own header).  The insert and test
 * code below use the same sequence; positions may repeat.
 */
int
bloom_probe_positions(const BloomFilter *hdr, uint64_t h, uint64_t *pos)
{
	BloomProbeSeq s;

	switch (hdr->layout)
	{
		case BLOOM_LAYOUT_BLOCKED:
			pos[0] = bloom_block_of(hdr, h);
			return 1;
		case BLOOM_LAYOUT_CLASSIC:
		case BLOOM_LAYOUT_COUNTING:
			bloom_seq_init(&s, hdr, h, bloom_position_slots(hdr));
			for (int i = 0; i < hdr->nhashes; i++)
				pos[i] = bloom_seq_next(&s);
			return hdr->nhashes;
		default:
			return 0;
	}
}

/*
 * Add a hashed item to a classic filter, or to a blocked one on big-endian
 * hosts (the little-endian blocked path is inlined in bloom_core.h).
 */
void
bloom_insert_hash_other(BloomFilter *f, uint64_t h)
{
	BloomProbeSeq s;

	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
#ifdef BLOOM_BIG_ENDIAN
		uint32_t	h32 = (uint32_t) h;
		uint64_t	block = bloom_block_of(f, h);
		uint8_t    *bytes = (uint8_t *) f->words;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			BLOOM_SET_BIT(bytes, block * 256 + i * 32 + ((h32 * bloom_salt[i]) >> 27));
#else
		bloom_insert_hash(f, h);
#endif
		return;
	}
	bloom_seq_init(&s, f, h, f->nbits);
	for (int i = 0; i < f->nhashes; i++)
	{
		uint64_t	pos = bloom_seq_next(&s);

#ifdef BLOOM_BIG_ENDIAN
		BLOOM_SET_BIT((uint8_t *) f->words, pos);
#else
		f->words[pos >> 6] |= UINT64_C(1) << (pos & 63);
#endif
	}
}

/* May the hashed item be in a classic filter (or blocked, big-endian)? */
bool
bloom_test_hash_other(const BloomFilter *f, uint64_t h)
{
	BloomProbeSeq s;

	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
#ifdef BLOOM_BIG_ENDIAN
		uint32_t	h32 = (uint32_t) h;
		uint64_t	block = bloom_block_of(f, h);
		const uint8_t *bytes = (const uint8_t *) f->words;

		for (int i = 0; i < BLOOM_BLOCK_WORDS32; i++)
			if (!BLOOM_GET_BIT(bytes, block * 256 + i * 32 + ((h32 * bloom_salt[i]) >> 27)))
				return false;
		return true;
#else
		return bloom_test_hash(f, h);
#endif
	}
	bloom_seq_init(&s, f, h, f->nbits);
	for (int i = 0; i < f->nhashes; i++)
	{
		uint64_t	pos = bloom_seq_next(&s);

#ifdef BLOOM_BIG_ENDIAN
		if (!BLOOM_GET_BIT((const uint8_t *) f->words, pos))
			return false;
#else
		if (!(f->words[pos >> 6] & (UINT64_C(1) << (pos & 63))))
			return false;
#endif
	}
	return true;
}

/* ------------------------------------------------------------------------
 * Counting layout: 4-bit counters, counter j in the low (even j) or high
 * (odd j) nibble of byte j / 2; positions as the classic layout's, over
 * the nbits / 4 counters, so a counting filter maps onto the classic filter
 * of nbits / 4 bits exactly.  A counter that reaches 15 saturates and is
 * never decremented again, so removing items never causes a false negative
 * for an item still present.
 * ------------------------------------------------------------------------
 */

static inline unsigned
bloom_counter_get(const uint8_t *c, uint64_t j)
{
	return (c[j >> 1] >> ((j & 1) * 4)) & 15;
}

static inline void
bloom_counter_set(uint8_t *c, uint64_t j, unsigned v)
{
	unsigned	shift = (unsigned) (j & 1) * 4;

	c[j >> 1] = (uint8_t) ((c[j >> 1] & ~(15U << shift)) | (v << shift));
}

/* The k counter positions of hash h (same sequence as the classic layout). */
static inline int
bloom_counting_positions(const BloomFilter *f, uint64_t h, uint64_t *pos)
{
	return bloom_probe_positions(f, h, pos);
}

/* Prefetch the cache lines of all of h's counters (before an add). */
void
bloom_counting_prefetch(const BloomFilter *f, uint64_t h)
{
#if defined(__GNUC__) || defined(__clang__)
	uint64_t	pos[BLOOM_MAX_HASHES];
	int			k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
		__builtin_prefetch((const uint8_t *) f->words + (pos[i] >> 1), 1, 3);
#else
	(void) f;
	(void) h;
#endif
}

/* Add hash h: each of its counters + 1, saturating at 15. */
void
bloom_counting_add(BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	uint8_t    *c = (uint8_t *) f->words;
	int			k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
	{
		unsigned	v = bloom_counter_get(c, pos[i]);

		if (v < BLOOM_COUNTER_MAX)
			bloom_counter_set(c, pos[i], v + 1);
	}
}

/* May hash h be present (all its counters non-zero)? */
bool
bloom_counting_test(const BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	const uint8_t *c = (const uint8_t *) f->words;
	int			k = bloom_counting_positions(f, h, pos);

	for (int i = 0; i < k; i++)
		if (bloom_counter_get(c, pos[i]) == 0)
			return false;
	return true;
}

/*
 * Remove hash h: each of its counters - 1, except saturated ones.  Returns
 * false, changing nothing, if some counter is zero (h was never added).
 */
bool
bloom_counting_remove(BloomFilter *f, uint64_t h)
{
	uint64_t	pos[BLOOM_MAX_HASHES];
	uint8_t    *c = (uint8_t *) f->words;
	int			k;

	if (!bloom_counting_test(f, h))
		return false;
	k = bloom_counting_positions(f, h, pos);
	for (int i = 0; i < k; i++)
	{
		unsigned	v = bloom_counter_get(c, pos[i]);

		if (v > 0 && v < BLOOM_COUNTER_MAX)
			bloom_counter_set(c, pos[i], v - 1);
	}
	return true;
}

/* dst's counters += src's, saturating (same parameters and size). */
void
bloom_counting_merge(BloomFilter *dst, const BloomFilter *src)
{
	uint8_t    *d = (uint8_t *) dst->words;
	const uint8_t *s = (const uint8_t *) src->words;
	size_t		n = (size_t) (dst->nbits / 4);

	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, 2 * BLOOM_POLL_BYTES);	/* 2 a byte */
		for (size_t j = lo; j < hi; j++)
		{
			unsigned	v = bloom_counter_get(d, j) + bloom_counter_get(s, j);

			bloom_counter_set(d, j, v > BLOOM_COUNTER_MAX ? BLOOM_COUNTER_MAX : v);
		}
	}
}

/* Set in classic filter dst (nbits = src's counters) the non-zero counters. */
void
bloom_counting_to_bits(const BloomFilter *src, BloomFilter *dst)
{
	const uint8_t *c = (const uint8_t *) src->words;
	uint8_t    *b = (uint8_t *) dst->words;
	size_t		n = (size_t) (src->nbits / 4);

	for (size_t lo = 0, hi; lo < n; lo = hi)
	{
		hi = bloom_chunk_end(lo, n, 2 * BLOOM_POLL_BYTES);
		for (size_t j = lo; j < hi; j++)
			if (bloom_counter_get(c, j) != 0)
				b[j >> 3] |= (uint8_t) (1U << (j & 7));
	}
}

/* ------------------------------------------------------------------------
 * Set algebra and resizing
 * ------------------------------------------------------------------------
 */

/* Bits in the unit that folding keeps together: a block, or a 64-bit word. */
uint64_t
bloom_unit_bits(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_BLOCKED ? BLOOM_BLOCK_BITS : 64;
}

/* Can filters of a and b bits be combined: one a multiple of the other? */
bool
bloom_sizes_combinable(uint64_t a, uint64_t b, uint64_t unit)
{
	uint64_t	lo = a < b ? a : b,
				hi = a < b ? b : a;

	return (lo / unit) != 0 && ((hi / unit) % (lo / unit)) == 0;
}

/*
 * Can a and b be unioned/intersected?  On false, writes a sentence naming
 * the mismatch into detail.  An empty family (nothing added yet) matches any.
 */
bool
bloom_check_compatible(const BloomFilter *a, const BloomFilter *b,
					   char *detail, size_t detail_len)
{
	if (a->layout != b->layout)
		snprintf(detail, detail_len, "The layouts differ (%s and %s).",
				 bloom_layout_name(a->layout), bloom_layout_name(b->layout));
	else if (a->scheme != b->scheme)
		snprintf(detail, detail_len,
				 "The filters use different hashing schemes (%d and %d): the same value sets different bits in each.",
				 a->scheme, b->scheme);
	else if (a->nhashes != b->nhashes)
		snprintf(detail, detail_len, "The numbers of hashes differ (%d and %d).",
				 a->nhashes, b->nhashes);
	else if (a->seed != b->seed)
		snprintf(detail, detail_len, "The seeds differ (%llu and %llu).",
				 (unsigned long long) a->seed, (unsigned long long) b->seed);
	else if (a->family[0] && b->family[0] &&
			 memcmp(a->family, b->family, BLOOM_FAMILY_LEN) != 0)
		snprintf(detail, detail_len, "The element type families differ (%s and %s).",
				 a->family, b->family);
	else if (a->family[0] && b->family[0] && a->collfp != b->collfp)
		snprintf(detail, detail_len, "The filters were built under different collations.");
	else if (!bloom_sizes_combinable(a->nbits, b->nbits, bloom_unit_bits(a)))
		snprintf(detail, detail_len,
				 "The sizes (%llu and %llu bits) are not multiples of each other, so neither can be folded onto the other.",
				 (unsigned long long) a->nbits, (unsigned long long) b->nbits);
	else
		return true;
	return false;
}

/* Word w of the bit array as a little-endian 64-bit value. */
static inline uint64_t
bloom_load_word(const BloomFilter *f, uint64_t w)
{
#ifdef BLOOM_BIG_ENDIAN
	return bloom_bswap64(f->words[w]);
#else
	return f->words[w];
#endif
}

/* Mask of bits [lo, hi) within one word (0 <= lo < hi <= 64). */
static inline uint64_t
bloom_range_mask(unsigned lo, unsigned hi)
{
	uint64_t	upto = hi == 64 ? ~UINT64_C(0) : (UINT64_C(1) << hi) - 1;

	return upto & ~((UINT64_C(1) << lo) - 1);
}

/* Is any bit in [lo, hi) set? */
static bool
bloom_any_bit(const BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);

		if (bloom_load_word(f, w) & bloom_range_mask(a, b))
			return true;
		lo = w * 64 + b;
	}
	return false;
}

/* Set bits [lo, hi). */
static void
bloom_set_bits(BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);
		uint64_t	m = bloom_range_mask(a, b);

#ifdef BLOOM_BIG_ENDIAN
		m = bloom_bswap64(m);
#endif
		f->words[w] |= m;
		lo = w * 64 + b;
	}
}

/* Store a little-endian 64-bit value OR-ed into word w of the bit array. */
static inline void
bloom_or_word(BloomFilter *f, uint64_t w, uint64_t v)
{
#ifdef BLOOM_BIG_ENDIAN
	f->words[w] |= bloom_bswap64(v);
#else
	f->words[w] |= v;
#endif
}

/* Bit i of the low 32 bits of x to bits 2i and 2i+1. */
static inline uint64_t
bloom_double_bits(uint64_t x)
{
	x &= UINT64_C(0xffffffff);
	x = (x | x << 16) & UINT64_C(0x0000ffff0000ffff);
	x = (x | x << 8) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	x = (x | x << 2) & UINT64_C(0x3333333333333333);
	x = (x | x << 1) & UINT64_C(0x5555555555555555);
	return x | x << 1;
}

/* Bits 2i and 2i+1 of x OR-ed to bit i (the inverse of bloom_double_bits). */
static inline uint64_t
bloom_halve_bits(uint64_t x)
{
	x = (x | x >> 1) & UINT64_C(0x5555555555555555);
	x = (x | x >> 1) & UINT64_C(0x3333333333333333);
	x = (x | x >> 2) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	x = (x | x >> 4) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x >> 8) & UINT64_C(0x0000ffff0000ffff);
	x = (x | x >> 16) & UINT64_C(0x00000000ffffffff);
	return x;
}

/* log2(f) if f is 2, 4, 8, 16 or 32, else 0. */
static int
bloom_small_pow2_shift(uint64_t f)
{
	for (int s = 1; s <= 5; s++)
		if (f == (UINT64_C(1) << s))
			return s;
	return 0;
}

/*
 * Blocked layout, fold (OR each run of f adjacent source blocks into one)
 * or unfold (copy each source block into f adjacent ones).  A block is four
 * 64-bit words; byte order does not matter for OR and copies.  Chunked by
 * the larger side, so a fold onto one block still polls.
 */
static void
bloom_resize_blocked(const BloomFilter *src, BloomFilter *dst)
{
	uint64_t	nsrc = src->nbits / BLOOM_BLOCK_BITS,
				ndst = dst->nbits / BLOOM_BLOCK_BITS;
	size_t		per = BLOOM_POLL_BYTES / (BLOOM_BLOCK_BITS / 8);

	if (nsrc >= ndst)
	{
		uint64_t	f = nsrc / ndst;

		for (size_t lo = 0, hi; lo < nsrc; lo = hi)
		{
			uint64_t   *dw = dst->words + (lo / f) * 4;
			uint64_t	r = lo % f;

			hi = bloom_chunk_end(lo, nsrc, per);
			for (size_t b = lo; b < hi; b++)
			{
				const uint64_t *sw = src->words + b * 4;

				dw[0] |= sw[0];
				dw[1] |= sw[1];
				dw[2] |= sw[2];
				dw[3] |= sw[3];
				if (++r == f)
				{
					r = 0;
					dw += 4;
				}
			}
		}
	}
	else
	{
		uint64_t	f = ndst / nsrc;

		for (size_t lo = 0, hi; lo < ndst; lo = hi)
		{
			hi = bloom_chunk_end(lo, ndst, per);
			for (size_t d = lo; d < hi; d++)
				for (int j = 0; j < 4; j++)
					dst->words[d * 4 + j] |= src->words[(d / f) * 4 + j];
		}
	}
}

/*
 * Classic layout, fold by f: bit d of dst is the OR of src bits [d f,
 * (d+1) f).  For f = 2 .. 32, a power of two, each source word is halved
 * s = log2(f) times (bloom_halve_bits) into 64/f bits of its destination
 * word; otherwise each destination bit tests its run of source bits.
 * Chunked by source words.
 */
static void
bloom_fold_classic(const BloomFilter *src, BloomFilter *dst)
{
	uint64_t	f = src->nbits / dst->nbits;
	int			shift = bloom_small_pow2_shift(f);

	if (shift > 0)
	{
		size_t		nw = BLOOM_NWORDS(src);
		unsigned	per_word = 64 >> shift; /* dst bits from one src word */

		for (size_t lo = 0, hi; lo < nw; lo = hi)
		{
			hi = bloom_chunk_end(lo, nw, BLOOM_POLL_WORDS);
			for (size_t w = lo; w < hi; w++)
			{
				uint64_t	v = bloom_load_word(src, w);

				if (v == 0)
					continue;
				for (int i = 0; i < shift; i++)
					v = bloom_halve_bits(v);
				bloom_or_word(dst, w >> shift, v << ((w & ((UINT64_C(1) << shift) - 1)) * per_word));
			}
		}
	}
	else
	{
		size_t		per = f >= BLOOM_POLL_BYTES * 8 ? 1 : BLOOM_POLL_BYTES * 8 / f;

		for (size_t lo = 0, hi; lo < dst->nbits; lo = hi)
		{
			hi = bloom_chunk_end(lo, dst->nbits, per);
			for (uint64_t d = lo; d < hi; d++)
				if (bloom_any_bit(src, d * f, (d + 1) * f))
					bloom_set_bits(dst, d, d + 1);
		}
	}
}

/*
 * Classic layout, unfold by f: dst bits [i f, (i+1) f) take src bit i.
 * For f = 2 .. 32, a power of two, each non-zero source word is cut into
 * the f pieces of 64/f bits that make its f destination words, each doubled
 * s = log2(f) times (bloom_double_bits): zero words cost one test.
 * Otherwise one destination word at a time from the set source bits among
 * the (at most 64/f + 2) that reach it, each as a mask.  Either way the work
 * per word is bounded however dense the source; chunked by destination
 * words.
 */
static void
bloom_unfold_classic(const BloomFilter *src, BloomFilter *dst)
{
	uint64_t	f = dst->nbits / src->nbits;
	int			shift = bloom_small_pow2_shift(f);

	if (shift > 0)
	{
		size_t		nw = BLOOM_NWORDS(src);
		unsigned	per_word = 64 >> shift; /* src bits per dst word */

		for (size_t lo = 0, hi; lo < nw; lo = hi)
		{
			hi = bloom_chunk_end(lo, nw, BLOOM_POLL_WORDS >> shift);
			for (size_t w = lo; w < hi; w++)
			{
				uint64_t	v = bloom_load_word(src, w);

				if (v == 0)
					continue;
				for (uint64_t j = 0; j < f; j++)
				{
					uint64_t	m = (v >> (j * per_word)) & ((UINT64_C(1) << per_word) - 1);

					for (int i = 0; i < shift && m != 0; i++)
						m = bloom_double_bits(m);
					if (m != 0)
						bloom_or_word(dst, w * f + j, m);
				}
			}
		}
		return;
	}
	for (size_t lo = 0, hi; lo < BLOOM_NWORDS(dst); lo = hi)
	{
		hi = bloom_chunk_end(lo, BLOOM_NWORDS(dst), BLOOM_POLL_WORDS);
		for (size_t w = lo; w < hi; w++)
		{
			uint64_t	m = 0,
						b0 = (uint64_t) w * 64,
						b1 = b0 + 64,
						i = b0 / f,
						last = (b1 - 1) / f;

			while (i <= last)
			{
				unsigned	off = (unsigned) (i % 64);
				uint64_t	span = last - i + 1 < 64 - (uint64_t) off ? last - i + 1 : 64 - off;
				uint64_t	v = bloom_load_word(src, i / 64) >> off;

				if (span < 64)
					v &= (UINT64_C(1) << span) - 1;
				while (v)
				{
					uint64_t	j = i + (uint64_t) bloom_ctz64(v);
					uint64_t	a = j * f > b0 ? j * f : b0,
								b = (j + 1) * f < b1 ? (j + 1) * f : b1;

					v &= v - 1;
					m |= bloom_range_mask((unsigned) (a - b0), (unsigned) (b - b0));
				}
				i += span;
			}
			if (m != 0)
				bloom_or_word(dst, w, m);
		}
	}
}

/*
 * Copy the bits of src into dst, which has the same parameters but a size
 * that is a multiple or a divisor of src's: fold (OR runs of adjacent units)
 * or unfold (replicate each unit).  dst's bits must be zero on entry (fold
 * and unfold OR into it).  For the classic layout a unit is a bit; for the
 * blocked one, a block.
 */
void
bloom_resize_into(const BloomFilter *src, BloomFilter *dst)
{
	if (src->nbits == dst->nbits)
		bloom_or_words(dst->words, src->words, BLOOM_NWORDS(src));
	else if (src->layout == BLOOM_LAYOUT_BLOCKED)
		bloom_resize_blocked(src, dst);
	else if (src->nbits >= dst->nbits)
		bloom_fold_classic(src, dst);
	else
		bloom_unfold_classic(src, dst);
}

/* ------------------------------------------------------------------------
 * Word kernels with run-time CPU dispatch
 * ------------------------------------------------------------------------
 */

static uint64_t
bloom_popcount_portable(const uint64_t *w, size_t n)
{
	uint64_t	c = 0;

	for (size_t i = 0; i < n; i++)
	{
		uint64_t	x = w[i];

		x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
		x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
		x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
		c += (x * UINT64_C(0x0101010101010101)) >> 56;
	}
	return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BLOOM_X86_DISPATCH 1
#include <immintrin.h>

/* The eight salted bits of h32 in a block, one per 32-bit word. */
__attribute__((target("avx2")))
static inline __m256i
bloom_block_mask_avx2(uint32_t h32)
{
	const __m256i salt = _mm256_setr_epi32((int) 0x47b6137bU, (int) 0x44974d91U,
										   (int) 0x8824ad5bU, (int) 0xa2b7289dU,
										   (int) 0x705495c7U, (int) 0x2df1424bU,
										   (int) 0x9efc4947U, (int) 0x5c6bfb31U);
	__m256i		bit = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int) h32), salt), 27);

	return _mm256_sllv_epi32(_mm256_set1_epi32(1), bit);
}

/* Set h32's bits in a block (see bloom_insert_hash). */
__attribute__((target("avx2")))
void
bloom_block_insert_avx2(uint32_t *block, uint32_t h32)
{
	__m256i    *blk = (__m256i *) block;

	_mm256_storeu_si256(blk, _mm256_or_si256(_mm256_loadu_si256(blk),
											 bloom_block_mask_avx2(h32)));
}

/* Are all of h32's bits set in a block? (see bloom_test_hash) */
__attribute__((target("avx2")))
bool
bloom_block_test_avx2(const uint32_t *block, uint32_t h32)
{
	return _mm256_testc_si256(_mm256_loadu_si256((const __m256i *) block),
							  bloom_block_mask_avx2(h32)) != 0;
}

/*
 * Insert n hashes into a blocked filter with AVX2: the eight salted bit
 * positions of a block are computed in one 256-bit multiply, shift and
 * variable shift, and OR-ed into the block with one load and one store.
 */
__attribute__((target("avx2")))
static void
bloom_insert_hashes_avx2(BloomFilter *f, const uint64_t *h, int n)
{
	for (int i = 0; i < n; i++)
	{
		__m256i    *blk = (__m256i *) ((uint32_t *) f->words +
									   bloom_block_of(f, h[i]) * BLOOM_BLOCK_WORDS32);

		_mm256_storeu_si256(blk, _mm256_or_si256(_mm256_loadu_si256(blk),
												 bloom_block_mask_avx2((uint32_t) h[i])));
	}
}

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

#ifdef BLOOM_BLOCK_DISPATCH
bool		bloom_block_avx2 = false;
#endif

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

/* ------------------------------------------------------------------------
 * Estimates
 * ------------------------------------------------------------------------
 */

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

/*
 * Estimated number of distinct items from the fill (Swamidass & Baldi):
 * n = -(m/k) ln(1 - X/m).  The blocked layout sets one bit per 32-bit word
 * of 8 words, which gives the same expected fill as k = 8 uniform probes.
 * A full filter (X = m) is treated as X = m - 1/2 to stay finite.
 */
double
bloom_estimate_items(const BloomFilter *f, uint64_t bits_set)
{
	double		m = (double) f->nbits;
	double		x = (double) bits_set;

	if (x >= m)
		x = m - 0.5;
	return -(m / f->nhashes) * log1p(-x / m);
}

/*
 * -(m/k) ln(1 - x/nfree): the items whose k probes each land uniformly in m
 * bits, estimated from nfree of those bits that nothing else set, x of them
 * set.  All of them set is taken as nfree - 1/2 set (bloom_estimate_items'
 * rule); no free bits tell nothing (0).
 */
static double
bloom_estimate_in_free(double m, int k, double nfree, double x)
{
	if (nfree <= 0.0)
		return 0.0;
	if (x >= nfree)
		x = nfree - 0.5;
	return -(m / k) * log1p(-x / nfree);
}

/*
 * Cardinalities of a, b, their union and their intersection; a and b have
 * sizes that are multiples of each other and u is their union (the smaller
 * unfolded onto the larger's size, bloom_resize_into, and OR-ed into it).
 *
 * Let S be the smaller filter and L the larger, f = |L| / |S| bits.
 * Unfolded, each bit of S is f bits of u, all set or all clear.  Every other
 * bit of u (a free bit) was set by an item of L that is not in S: an item of
 * both has its bits of L inside S's unfolded bits, since positions fold
 * exactly.  Those items probe all of L's bits uniformly, so the free bits
 * fill as any of L's bits would, and
 *   |S| comes from S's own fill, at its own size, where its bits are
 *   independent; |L \ S| from the fill of the free bits; |A ∪ B| = |S| +
 *   |L \ S| and |A ∩ B| = |A| + |B| - |A ∪ B| (= |L| - |L \ S|: the two
 *   estimates read the same bits, so their errors largely cancel).
 * The fill of u itself would count each of S's bits f times, and folding L
 * onto S's size saturates whenever L holds far more items than S was sized
 * for.  At equal sizes (f = 1) this is the plain estimate from the fill of
 * the OR, exactly: -(m/k) ln(1 - Xu/m) = |S| + |L \ S| algebraically.
 * An input that was itself resized (BLOOM_FLAG_FOLDED: a union across
 * sizes, a fold) may already repeat bits, so its free bits are not
 * independent: then every part is estimated by bloom_estimate_distinct,
 * the union from u (flagged too).
 */
BloomPairCard
bloom_estimate_pair(const BloomFilter *a, const BloomFilter *b, const BloomFilter *u)
{
	const BloomFilter *big = a->nbits >= b->nbits ? a : b;
	const BloomFilter *small = big == a ? b : a;
	double		ns,
				nl;
	BloomPairCard r;

	if ((a->flags | b->flags) & BLOOM_FLAG_FOLDED)
	{
		ns = bloom_estimate_distinct(small);
		nl = bloom_estimate_distinct(big);
		r.uni = bloom_estimate_distinct(u);
	}
	else
	{
		uint64_t	xs = bloom_popcount(small);
		double		taken = (double) (big->nbits / small->nbits) * (double) xs;	/* S's bits in u */

		ns = bloom_estimate_items(small, xs);
		nl = bloom_estimate_items(big, bloom_popcount(big));
		r.uni = ns + bloom_estimate_in_free((double) big->nbits, big->nhashes,
											(double) big->nbits - taken,
											(double) bloom_popcount(u) - taken);
	}
	r.a = big == a ? nl : ns;
	r.b = big == a ? ns : nl;
	/* the union is at least as large as either side */
	if (r.uni < nl)
		r.uni = nl;
	if (r.uni < ns)
		r.uni = ns;
	r.inter = r.a + r.b - r.uni;
	if (r.inter < 0.0)
		r.inter = 0.0;
	return r;
}

/* Are bits [lo, hi) all set? */
static bool
bloom_all_bits(const BloomFilter *f, uint64_t lo, uint64_t hi)
{
	while (lo < hi)
	{
		uint64_t	w = lo / 64;
		unsigned	a = (unsigned) (lo % 64);
		unsigned	b = (hi - w * 64) >= 64 ? 64 : (unsigned) (hi - w * 64);
		uint64_t	m = bloom_range_mask(a, b);

		if ((bloom_load_word(f, w) & m) != m)
			return false;
		lo = w * 64 + b;
	}
	return true;
}

/*
 * Full runs of x for an unfolding factor f: the bits of x's fold by f that
 * would be set in all f of their copies (the popcount of the AND-fold).
 * A run is f adjacent bits (classic) or one bit position in f adjacent
 * blocks (blocked), as bloom_resize_into unfolds.
 */
static uint64_t
bloom_full_runs(const BloomFilter *x, uint64_t f)
{
	uint64_t	c = 0;

	if (x->layout == BLOOM_LAYOUT_BLOCKED)
	{
		size_t		nruns = (size_t) (x->nbits / BLOOM_BLOCK_BITS / f);

		for (size_t lo = 0, hi; lo < nruns; lo = hi)
		{
			hi = bloom_chunk_end(lo, nruns, BLOOM_POLL_BYTES / 32 / f);
			for (size_t r = lo; r < hi; r++)
			{
				const uint64_t *w = x->words + r * f * 4;
				uint64_t	and[4] = {w[0], w[1], w[2], w[3]};

				for (uint64_t j = 1; j < f; j++)
					for (int i = 0; i < 4; i++)
						and[i] &= w[j * 4 + i];
				c += bloom_popcount_portable(and, 4);
			}
		}
	}
	else if (f <= 64 && (f & (f - 1)) == 0)
	{
		/* runs inside words: AND each bit with the f - 1 above it */
		uint64_t	first = 0;

		for (unsigned j = 0; j < 64; j += (unsigned) f)
			first |= UINT64_C(1) << j;
		for (size_t lo = 0, hi; lo < BLOOM_NWORDS(x); lo = hi)
		{
			hi = bloom_chunk_end(lo, BLOOM_NWORDS(x), BLOOM_POLL_WORDS);
			for (size_t w = lo; w < hi; w++)
			{
				uint64_t	v = bloom_load_word(x, w);

				for (uint64_t sh = 1; sh < f; sh <<= 1)
					v &= v >> sh;
				v &= first;
				c += bloom_popcount_portable(&v, 1);
			}
		}
	}
	else
	{
		size_t		nruns = (size_t) (x->nbits / f);

		for (size_t lo = 0, hi; lo < nruns; lo = hi)
		{
			hi = bloom_chunk_end(lo, nruns, BLOOM_POLL_BYTES * 8 / f);
			for (size_t r = lo; r < hi; r++)
				c += bloom_all_bits(x, r * f, (r + 1) * f);
		}
	}
	return c;
}

/*
 * Fit a filter of m bits (xset set) as a filter S of m / f bits unfolded by
 * f and OR-ed with a filter L of m bits (a union across sizes; L may be
 * empty), given its full runs (bloom_full_runs).  A run is full where S's
 * bit is set, or by chance where L set all f of its bits; every other run
 * holds only L's bits, each set with probability p, so their mean fill is
 * (p - p^f) / (1 - p^f), solved for p.  S's fill is then q = (full/runs -
 * p^f) / (1 - p^f).  Both are kept below 1 by half a bit, as
 * bloom_estimate_items keeps a full filter finite.
 */
static void
bloom_unfold_fit(double m, uint64_t f, double xset, double full, double *p, double *q)
{
	double		runs = m / (double) f,
				df = (double) f,
				lo = 0.0,
				hi = 1.0,
				mean,
				pf;

	if (full >= runs)
	{
		*p = 0.0;
		*q = 1.0 - 0.5 / runs;
		return;
	}
	mean = (xset - df * full) / (df * (runs - full));
	if (mean >= (df - 1.0) / df)
		lo = hi;
	for (int i = 0; i < 60 && lo < hi; i++)
	{
		double		mid = (lo + hi) / 2,
					midf = pow(mid, df);

		if ((mid - midf) / (1.0 - midf) < mean)
			lo = mid;
		else
			hi = mid;
	}
	*p = fmin(lo, 1.0 - 0.5 / m);
	pf = pow(*p, df);
	*q = (full / runs - pf) / (1.0 - pf);
	*q = *q < 0.0 ? 0.0 : fmin(*q, 1.0 - 0.5 / runs);
}

/* -(m/k) ln(1 - x/m), a full filter counted as m - 1/2 bits set. */
static double
bloom_fill_estimate(double m, int k, double x)
{
	return bloom_estimate_in_free(m, k, m, x);
}

/*
 * The factors a filter x may have been unfolded by, with their full runs:
 * fac[0] = 1 (full[0]: x's set bits), then ascending the factors whose full
 * runs stood out (bloom_estimate_distinct).  The AND-fold of x by f,
 * G_f, has full[f] bits set, and G_f's own full runs for a factor g are
 * x's for f * g, so a union of several sizes is read level by level
 * without materializing any fold.
 */
typedef struct BloomUnfoldLevels
{
	const BloomFilter *x;
	int			n;
	uint64_t	fac[BLOOM_UNFOLD_MAX_TRIES + 1];
	double		full[BLOOM_UNFOLD_MAX_TRIES + 1];
	double		memo[BLOOM_UNFOLD_MAX_TRIES + 1];	/* < 0: not yet */
} BloomUnfoldLevels;

/* Do full runs of a g-fold stand out from what a fill of fill gives by chance? */
static bool
bloom_runs_stand_out(double runs, double fill, uint64_t g, double full)
{
	double		chance = pow(fill, (double) g),
				expect = runs * chance;

	/*
	 * Ten binomial standard deviations: a blocked filter's bits within one
	 * block share its load, so the true spread is a few times wider.
	 */
	return full > expect + 10.0 * sqrt(expect * (1.0 - chance)) + 4.0;
}

/*
 * Estimated items of G_f, f = lv->fac[i]: its plain estimate, or, for each
 * larger factor f g that stands out at this level, the items of G_{f g}
 * (recursively; scaled by the chance correction of bloom_unfold_fit) plus
 * those of the rest (L) -- whichever is smallest: at a divisor of the true
 * factor the repeated filter's items are counted several times over, at a
 * multiple its bits are counted as L's.
 */
static double
bloom_estimate_level(BloomUnfoldLevels *lv, int i)
{
	double		m = (double) lv->x->nbits / (double) lv->fac[i],
				xf = lv->full[i];
	int			k = lv->x->nhashes;
	double		best;

	if (lv->memo[i] >= 0.0)
		return lv->memo[i];
	best = bloom_fill_estimate(m, k, xf);
	for (int j = i + 1; j < lv->n; j++)
	{
		uint64_t	g = lv->fac[j] / lv->fac[i];
		double		runs = m / (double) g,
					p,
					q,
					s_plain,
					s_items,
					n;

		if (lv->fac[j] % lv->fac[i] != 0 ||
			!bloom_runs_stand_out(runs, xf / m, g, lv->full[j]))
			continue;
		bloom_unfold_fit(m, g, xf, lv->full[j], &p, &q);
		s_plain = bloom_fill_estimate(runs, k, lv->full[j]);
		s_items = bloom_estimate_level(lv, j);
		if (s_plain > 0.0)
			s_items *= -(runs / k) * log1p(-q) / s_plain;
		n = s_items - (m / k) * log1p(-p);
		if (n < best)
			best = n;
	}
	lv->memo[i] = best;
	return best;
}

/* The divisors of n that are >= 2 and <= most, ascending; their number. */
static int
bloom_divisors(uint64_t n, uint64_t most, uint64_t *out, int max_out)
{
	int			nlow = 0,
				nout = 0;
	uint64_t	low[BLOOM_UNFOLD_MAX_DIVISORS],
				high[BLOOM_UNFOLD_MAX_DIVISORS];
	int			nhigh = 0;

	if (n >= 2)
		high[nhigh++] = n;
	for (uint64_t i = 2; i * i <= n && nlow < BLOOM_UNFOLD_MAX_DIVISORS; i++)
		if (n % i == 0)
		{
			low[nlow++] = i;
			if (i * i != n && nhigh < BLOOM_UNFOLD_MAX_DIVISORS)
				high[nhigh++] = n / i;
		}
	for (int i = 0; i < nlow && nout < max_out; i++)
		if (low[i] <= most)
			out[nout++] = low[i];
	for (int i = nhigh - 1; i >= 0 && nout < max_out; i--)
		if (high[i] <= most)
			out[nout++] = high[i];
	return nout;
}

/* Is d among the first n (ascending) divisors and marked in mark? */
static bool
bloom_divisor_marked(const uint64_t *div, const bool *mark, int n, uint64_t d)
{
	for (int i = 0; i < n && div[i] <= d; i++)
		if (div[i] == d)
			return mark[i];
	return false;
}

/*
 * Could f be x's unfolding factor, given which smaller factors were (mark)?
 * A filter unfolded by f is also unfolded by every divisor of f, so f is
 * tried only if f / p was found for each prime p dividing f (or is 1):
 * a filter of independent bits is tried at its size's prime factors only.
 */
static bool
bloom_factor_worth_trying(const uint64_t *div, const bool *mark, int n, uint64_t f)
{
	uint64_t	rest = f;

	for (uint64_t p = 2; p * p <= rest; p++)
		if (rest % p == 0)
		{
			if (f / p > 1 && !bloom_divisor_marked(div, mark, n, f / p))
				return false;
			while (rest % p == 0)
				rest /= p;
		}
	return rest == 1 || f / rest == 1 || bloom_divisor_marked(div, mark, n, f / rest);
}

/*
 * Estimated distinct items of a filter, at the size its bits are
 * independent at.  A filter that no union across sizes or fold has touched
 * (no BLOOM_FLAG_FOLDED) is estimated from its fill (bloom_estimate_items).
 * One that has may hold smaller filters unfolded (their bits repeated f
 * times) OR-ed with one of its own size, and its fill counts each repeated
 * bit f times (an empty filter of 1,000 unioned with one of 10 items: 437).
 * The format records no factor, so it is found from the bits: for each
 * factor f dividing the size, the runs full in all f copies
 * (bloom_full_runs) against what x's fill gives by chance; the factors
 * that stand out are read by bloom_estimate_level.
 */
double
bloom_estimate_distinct(const BloomFilter *x)
{
	uint64_t	xset = bloom_popcount(x);
	uint64_t	div[BLOOM_UNFOLD_MAX_DIVISORS];
	bool		mark[BLOOM_UNFOLD_MAX_DIVISORS] = {false};
	BloomUnfoldLevels lv;
	int			ndiv;

	if (!(x->flags & BLOOM_FLAG_FOLDED) || xset == 0 || xset == x->nbits)
		return bloom_estimate_items(x, xset);
	lv.x = x;
	lv.n = 1;
	lv.fac[0] = 1;
	lv.full[0] = (double) xset;
	ndiv = bloom_divisors(x->nbits / bloom_unit_bits(x),
						  x->nbits / BLOOM_MIN_BITS, div, BLOOM_UNFOLD_MAX_DIVISORS);
	for (int i = 0, tries = 0; i < ndiv && tries < BLOOM_UNFOLD_MAX_TRIES; i++)
	{
		double		full;

		if (!bloom_factor_worth_trying(div, mark, i, div[i]))
			continue;
		tries++;
		full = (double) bloom_full_runs(x, div[i]);
		mark[i] = bloom_runs_stand_out((double) x->nbits / (double) div[i],
									   (double) xset / (double) x->nbits, div[i], full);
		if (mark[i])
		{
			lv.fac[lv.n] = div[i];
			lv.full[lv.n++] = full;
		}
	}
	for (int i = 0; i < lv.n; i++)
		lv.memo[i] = -1.0;
	return bloom_estimate_level(&lv, 0);
}

/* Popcount of one 32-bit word, portable. */
static int
bloom_pop32(uint32_t x)
{
	return (int) bloom_popcount_portable(&(uint64_t) {x}, 1);
}

/*
 * The filter's present false-positive rate for a random non-member, from its
 * actual bits: (X/m)^k for classic; for blocked, the mean over blocks of the
 * product of the eight words' fill ratios (exact for the blocked probe).
 */
double
bloom_current_fpr(const BloomFilter *f)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		size_t		nblocks = (size_t) (f->nbits / BLOOM_BLOCK_BITS);
		const uint8_t *bytes = (const uint8_t *) f->words;
		double		sum = 0.0;

		for (size_t lo = 0, hi; lo < nblocks; lo = hi)
		{
			hi = bloom_chunk_end(lo, nblocks, BLOOM_POLL_BYTES / 32);
			for (size_t b = lo; b < hi; b++)
			{
				double		p = 1.0;

				for (int i = 0; i < BLOOM_BLOCK_WORDS32 && p > 0.0; i++)
					p *= bloom_pop32(bloom_le32(bytes + b * 32 + i * 4)) / 32.0;
				sum += p;
			}
		}
		return sum / (double) nblocks;
	}
	return pow((double) bloom_popcount(f) / (double) f->nbits, f->nhashes);
}


/* ---- the target rate (flags bits 16..31) ------------------------------- */

/*
 * The model rate of f after n distinct items, by its layout's formula
 * (classic or blocked; 1 beyond 256 items per 256-bit block, where the
 * blocked sum would be long and the answer is 1 anyway).
 */
double
bloom_model_fpr(const BloomFilter *f, double n)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
	{
		double		lambda = n / (double) (f->nbits / BLOOM_BLOCK_BITS);

		return lambda > 256.0 ? 1.0 : bloom_blocked_fpr(lambda);
	}
	return bloom_classic_fpr(n, (double) f->nbits, f->nhashes);
}

/* Record fpr (in (0, 0.5]) as the rate f was sized for. */
void
bloom_set_target_fpr(BloomFilter *f, double fpr)
{
	double		code = nearbyint(-log2(fpr) * 256.0);

	if (code < BLOOM_TARGET_CODE_MIN)
		code = BLOOM_TARGET_CODE_MIN;
	if (code > 65535.0)
		code = 65535.0;
	f->flags = (f->flags & ~BLOOM_FLAG_TARGET_MASK) |
		((uint32_t) code << BLOOM_FLAG_TARGET_SHIFT);
}

/*
 * The rate f was sized for: the recorded one, else the automatic rate for an
 * automatically sized filter (1.0 wrote no target), else 0 (none: explicit
 * parameters).  Rounded to three significant digits, which recovers any
 * rate given with three digits from its 0.3 % code.
 */
double
bloom_target_fpr(const BloomFilter *f)
{
	uint32_t	code = f->flags >> BLOOM_FLAG_TARGET_SHIFT;
	double		r,
				scale;

	if (code == 0)
		return (f->flags & BLOOM_FLAG_AUTOSIZED) ? BLOOM_AUTO_FPR : 0.0;
	r = exp2(-(double) code / 256.0);
	scale = pow(10.0, 2.0 - floor(log10(r)));
	return nearbyint(r * scale) / scale;
}

/*
 * The flags of the union or intersection of a and b: a flag bit holds if it
 * holds for both, FOLDED if for either; the target is the stricter of the
 * recorded ones (a filter without one does not loosen the other's).
 */
uint32_t
bloom_combined_flags(const BloomFilter *a, const BloomFilter *b)
{
	uint32_t	low = ~BLOOM_FLAG_TARGET_MASK;
	uint32_t	flags = (a->flags & b->flags & low) |
		((a->flags | b->flags) & BLOOM_FLAG_FOLDED);
	uint32_t	ta = a->flags & BLOOM_FLAG_TARGET_MASK;
	uint32_t	tb = b->flags & BLOOM_FLAG_TARGET_MASK;

	/* a larger code is a smaller (stricter) rate */
	return flags | (ta > tb ? ta : tb);
}
