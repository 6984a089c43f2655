/*-------------------------------------------------------------------------
 *
 * bloom_header.c
 *	  The header of a filter: its initialisation, the layouts' and families'
 *	  names, and the validators that return a reason string.
 *
 * Part of the PostgreSQL-free core: bloom_core.c has its design,
 * bloom_header.h its interface, bloom_format.h the stored format.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_header.h"
#include "bloom_kernels.h"
#include "bloom_internal.h"

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

/*
 * Names of the layouts, by code: the text form writes them after
 * "layout=", whose parser takes only lower-case letters (at most 15).
 */
static const char *const bloom_layout_names[] = {"classic", "blocked", "counting", "scalable",
"blockcounting"};

/* Name of a layout for output ("classic", "blocked"). */
const char *
bloom_layout_name(int layout)
{
	if (layout >= 0 && layout <= BLOOM_LAYOUT_MAX)
		return bloom_layout_names[layout];
	return "unknown";
}

/* Layout code for a name, or -1. */
int
bloom_layout_from_name(const char *name)
{
	for (int i = 0; i <= BLOOM_LAYOUT_MAX; i++)
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
 * filters write (see bloom_format.h), any other one of the forms the
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
	if (f->layout > BLOOM_LAYOUT_MAX)
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
	else if (f->layout == BLOOM_LAYOUT_COUNTING_BLOCKED)
	{
		/* whole blocks of 256 counters (4 bits each), 8 counters a hash */
		if (f->nbits % (4 * BLOOM_COUNTING_BLOCK_COUNTERS) != 0)
			return "a blocked counting filter must have a multiple of 256 counters";
		if (f->nhashes != BLOOM_BLOCKED_HASHES)
			return "a blocked counting filter must use 8 hashes";
	}
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
