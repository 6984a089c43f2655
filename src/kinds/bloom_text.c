/*-------------------------------------------------------------------------
 *
 * bloom_text.c
 *	  Substring and token pre-checks: filters of the n-grams or of the tokens
 *	  of text values (ClickHouse's ngrambf_v1 / tokenbf_v1 as values), and
 *	  the probes "could any value in this filter match LIKE '%needle%'"
 *	  and "could any value contain this token".
 *
 * Elements.  An n-gram is n consecutive characters (not bytes; multibyte
 * encodings are stepped with pg_mblen); a token is a maximal run of ASCII
 * letters and digits or non-ASCII bytes (the ClickHouse rule).  Each is
 * hashed exactly as a text value of those bytes under a deterministic
 * collation (hashing scheme 1), so the filters keep the stored format and
 * every function of the bloom type (union, folding, estimates) applies.
 * The family is "ngram:<n>" or "token", so a plain text probe of such a
 * filter is an error rather than a silent wrong answer.
 *
 * No false negatives: if a value contains the needle, every n-gram of the
 * needle is an n-gram of the value; a LIKE pattern is split at its
 * wildcards and every literal fragment must pass.  A fragment shorter than
 * n cannot be checked and passes.
 *
 *-------------------------------------------------------------------------
 */
#include "../agg/bloom_agg.h"
#include "../probe/bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "bloom_text.h"
#include "../bloom/bloom_type.h"

#include "common/hashfn.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"

/* Emit the hash of every n-gram of s[0..len); returns how many. */
int
bloom_each_ngram(const char *s, int len, int n, uint64 seed, BloomEmit emit, void *arg)
{
	int			starts[BLOOM_NGRAM_MAX + 1];
	int			count = 0,
				pos = 0,
				emitted = 0;

	/* a ring of the byte offsets of the last n + 1 character starts */
	while (pos < len)
	{
		starts[count % (n + 1)] = pos;
		count++;
		pos += pg_mblen(s + pos);
		if (pos > len)
			pos = len;
		if (count >= n)
		{
			int			first = starts[(count - n) % (n + 1)];

			emit(arg, bloom_hash_bytes(s + first, pos - first, seed));
			emitted++;
		}
	}
	return emitted;
}

/* Is byte c part of a token (ASCII alphanumeric, or any non-ASCII byte)? */
static inline bool
bloom_token_char(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		(c >= 'A' && c <= 'Z');
}

/* Emit the hash of every token of s[0..len); returns how many. */
static int
bloom_each_token(const char *s, int len, uint64 seed, BloomEmit emit, void *arg)
{
	int			i = 0,
				emitted = 0;

	while (i < len)
	{
		int			start;

		while (i < len && !bloom_token_char((unsigned char) s[i]))
			i++;
		start = i;
		while (i < len && bloom_token_char((unsigned char) s[i]))
			i++;
		if (i > start)
		{
			emit(arg, bloom_hash_bytes(s + start, i - start, seed));
			emitted++;
		}
	}
	return emitted;
}

/* n-gram length argument, checked. */
static int
bloom_ngram_n(int32 n)
{
	if (n < 1 || n > BLOOM_NGRAM_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("n-gram length must be between 1 and %d", BLOOM_NGRAM_MAX),
				 errdetail("Got %d.", n),
				 errhint("3 is the usual choice for LIKE pre-checks.")));
	return n;
}

/* ---- aggregates --------------------------------------------------------- */

/* Add an element to the aggregate state (items count elements). */
static void
bloom_emit_to_state(void *arg, uint64 h)
{
	bloom_agg_push((BloomAggState *) arg, h, true);
}

/* The n-gram length of this bloom_ngram_agg call (3 without an argument). */
static int
bloom_ngram_agg_n(FunctionCallInfo fcinfo)
{
	if (PG_NARGS() < 3)
		return 3;
	bloom_agg_args_given(fcinfo, 1, "bloom_ngram_agg", "n-gram length");
	return bloom_ngram_n(PG_GETARG_INT32(2));
}

/*
 * Add the n-grams of this row's value to st, after checking that the row's
 * length is the state's.
 */
static void
bloom_ngram_agg_row(FunctionCallInfo fcinfo, BloomAggState *st, int n, const char *family)
{
	if (strcmp(bloom_agg_family(st), family) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the n-gram length of bloom_ngram_agg must be the same in every row"),
				 errdetail("The filter holds elements of family \"%s\"; this row asks for \"%s\".",
						   bloom_agg_family(st), family),
				 errhint("Pass a constant n, or build one filter per n-gram length.")));
	if (!PG_ARGISNULL(1))
	{
		text	   *t = PG_GETARG_TEXT_PP(1);

		bloom_each_ngram(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), n, 0,
						 bloom_emit_to_state, st);
	}
}

/* Add the tokens of this row's value to st. */
static void
bloom_token_agg_row(FunctionCallInfo fcinfo, BloomAggState *st)
{
	if (!PG_ARGISNULL(1))
	{
		text	   *t = PG_GETARG_TEXT_PP(1);

		bloom_each_token(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), 0,
						 bloom_emit_to_state, st);
	}
}

/* bloom_ngram_agg(text, n int) transition: every n-gram of every value. */
PG_FUNCTION_INFO_V1(bloom_ngram_agg_trans);
Datum
bloom_ngram_agg_trans(PG_FUNCTION_ARGS)
{
	int			n = bloom_ngram_agg_n(fcinfo);
	char		family[BLOOM_FAMILY_LEN];
	BloomAggState *st;

	snprintf(family, sizeof(family), "ngram:%d", n);
	st = bloom_agg_auto_state(fcinfo, family);
	bloom_ngram_agg_row(fcinfo, st, n, family);
	PG_RETURN_POINTER(st);
}

/* bloom_token_agg(text) transition: every token of every value. */
PG_FUNCTION_INFO_V1(bloom_token_agg_trans);
Datum
bloom_token_agg_trans(PG_FUNCTION_ARGS)
{
	BloomAggState *st = bloom_agg_auto_state(fcinfo, "token");

	bloom_token_agg_row(fcinfo, st);
	PG_RETURN_POINTER(st);
}

/*
 * The automatically sized header of a new n-gram or token state (a
 * BloomAggMake): the family says which elements the filter holds.
 */
static void *
bloom_ngram_make(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	BloomFilter *hdr = bloom_agg_auto_header(fcinfo, aggcxt, exact);

	snprintf(hdr->family, BLOOM_FAMILY_LEN, "ngram:%d", bloom_ngram_agg_n(fcinfo));
	return hdr;
}

/* The same for a new token state: family "token". */
static void *
bloom_token_make(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	BloomFilter *hdr = bloom_agg_auto_header(fcinfo, aggcxt, exact);

	strlcpy(hdr->family, "token", BLOOM_FAMILY_LEN);
	return hdr;
}

/*
 * bloom_ngram_agg(text [, n]) and bloom_token_agg(text) over the
 * bloom_agg_state type (bloom_agg_state.c), which Citus splits; their
 * combine and final are bloom_agg's.
 */
PG_FUNCTION_INFO_V1(bloom_ngram_agg_state_add);
Datum
bloom_ngram_agg_state_add(PG_FUNCTION_ARGS)
{
	int			n = bloom_ngram_agg_n(fcinfo);
	char		family[BLOOM_FAMILY_LEN];
	Datum		result;
	bool		again;
	BloomAggState *st = bloom_agg_state_open(fcinfo, &bloom_plain_ops, bloom_ngram_make,
											 &result, &again);

	snprintf(family, sizeof(family), "ngram:%d", n);
	bloom_ngram_agg_row(fcinfo, st, n, family);
	PG_RETURN_DATUM(result);
}

static Datum bloom_token_agg_state_first(FunctionCallInfo fcinfo);

PG_FUNCTION_INFO_V1(bloom_token_agg_state_add);
Datum
bloom_token_agg_state_add(PG_FUNCTION_ARGS)
{
	BloomAggState *st = bloom_agg_state_again(fcinfo, &bloom_plain_ops);

	if (likely(st != NULL))
	{
		bloom_token_agg_row(fcinfo, st);
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	return bloom_token_agg_state_first(fcinfo);
}

/* bloom_token_agg_state_add's first row (or a state from elsewhere). */
static pg_noinline Datum
bloom_token_agg_state_first(FunctionCallInfo fcinfo)
{
	Datum		result;
	bool		again;
	BloomAggState *st = bloom_agg_state_open(fcinfo, &bloom_plain_ops, bloom_token_make,
											 &result, &again);

	/* a state from elsewhere (a partial state, an initial value): tokens? */
	if (!again && strcmp(bloom_agg_family(st), "token") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the state of bloom_token_agg holds elements of family \"%s\"",
						bloom_agg_family(st)),
				 errdetail("Only a state of bloom_token_agg can take tokens."),
				 errhint("Pass NULL or a state this aggregate returned.")));
	bloom_token_agg_row(fcinfo, st);
	PG_RETURN_DATUM(result);
}

/* ---- probes -------------------------------------------------------------- */

/*
 * The hashes of a probe's grams or tokens, collected before any is tested:
 * a stored filter is read in slices, all the parts they need at once.
 */
typedef struct BloomHashList
{
	uint64	   *h;
	int			n;
	int			cap;
} BloomHashList;

/* Append h to the list arg. */
static void
bloom_emit_collect(void *arg, uint64 h)
{
	BloomHashList *l = (BloomHashList *) arg;

	if (l->n == l->cap)
	{
		l->cap = Max(16, 2 * l->cap);
		l->h = l->h ? repalloc(l->h, sizeof(uint64) * l->cap)
			: palloc(sizeof(uint64) * l->cap);
	}
	l->h[l->n++] = h;
}

/*
 * May every hash of list l be in the filter f (a probe's filter, completed
 * here with the parts they need)?
 */
static bool
bloom_list_present(FunctionCallInfo fcinfo, BloomFilter *f, const BloomHashList *l)
{
	f = bloom_call_parts(fcinfo, f, l->h, l->n);
	for (int i = 0; i < l->n; i++)
		if (!bloom_test_hash(f, l->h[i]))
			return false;
	return true;				/* no hashes (shorter than n): true */
}

/*
 * The filter argument: an n-gram filter (*n set to its n-gram length) when
 * ngram, a token filter otherwise, or an empty filter (nothing added).
 * Every input path validated the family, so anything else is another kind
 * of filter, not a corrupt one.
 */
static BloomFilter *
bloom_text_filter(FunctionCallInfo fcinfo, bool ngram, int *n)
{
	BloomFilter *f = bloom_call_probe_filter(fcinfo, 0, BLOOM_KIND_PLAIN);

	*n = bloom_family_ngram_n(f->family);
	if (f->family[0] != '\0' && (ngram ? *n == 0 : !bloom_family_is_token(f->family)))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("bloom filter of element family \"%s\" is not a%s filter",
						f->family, ngram ? "n n-gram" : " token"),
				 errhint("Build it with bloom_%s_agg(), or probe this filter with bloom_contains().",
						 ngram ? "ngram" : "token")));
	return f;
}

/* bloom_ngram_may_contain(bloom, needle text): could a value contain it? */
PG_FUNCTION_INFO_V1(bloom_ngram_may_contain);
Datum
bloom_ngram_may_contain(PG_FUNCTION_ARGS)
{
	int			n;
	BloomFilter *f = bloom_text_filter(fcinfo, true, &n);
	text	   *needle = PG_GETARG_TEXT_PP(1);
	BloomHashList l = {NULL, 0, 0};

	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);
	bloom_each_ngram(VARDATA_ANY(needle), VARSIZE_ANY_EXHDR(needle), n, f->seed,
					 bloom_emit_collect, &l);
	PG_RETURN_BOOL(bloom_list_present(fcinfo, f, &l));
}

/*
 * Emit the hash of every n-gram of every literal fragment of LIKE pattern
 * pat[0..len) (the default escape \, which LIKE ... ESCAPE is rewritten
 * to); returns how many.  Fragments end at the % and _ wildcards; an
 * escaped character is literal.  A pattern ending in a lone escape, which
 * LIKE rejects when a match reaches it, ends the last fragment there: the
 * grams are then a subset, which can only add candidates.
 */
int
bloom_like_ngrams(const char *pat, int len, int n, uint64 seed, BloomEmit emit, void *arg)
{
	char	   *frag = palloc(len + 1);
	int			flen = 0,
				emitted = 0;

	for (int i = 0; i <= len; i++)
	{
		if (i == len || pat[i] == '%' || pat[i] == '_' ||
			(pat[i] == '\\' && i + 1 == len))
		{
			emitted += bloom_each_ngram(frag, flen, n, seed, emit, arg);
			flen = 0;
			continue;
		}
		if (pat[i] == '\\')
			i++;				/* escaped character: literal */
		frag[flen++] = pat[i];
	}
	pfree(frag);
	return emitted;
}

/*
 * bloom_may_like(bloom, pattern text): could a value match LIKE pattern?
 * The pattern's literal fragments (bloom_like_ngrams) must each pass the
 * n-gram test: every n-gram of every fragment is tested (fragments shorter
 * than n have none).  An unanchored check: the fragments' positions are
 * not used, which only adds false positives.
 */
PG_FUNCTION_INFO_V1(bloom_may_like);
Datum
bloom_may_like(PG_FUNCTION_ARGS)
{
	int			n;
	BloomFilter *f = bloom_text_filter(fcinfo, true, &n);
	text	   *pat = PG_GETARG_TEXT_PP(1);
	BloomHashList l = {NULL, 0, 0};

	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);
	bloom_like_ngrams(VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat), n, f->seed,
					  bloom_emit_collect, &l);
	PG_RETURN_BOOL(bloom_list_present(fcinfo, f, &l));
}

/*
 * bloom_token_may_contain(bloom, tokens text): could a value contain every
 * token of the argument (hasToken when it is one token)?
 */
PG_FUNCTION_INFO_V1(bloom_token_may_contain);
Datum
bloom_token_may_contain(PG_FUNCTION_ARGS)
{
	int			n;
	BloomFilter *f = bloom_text_filter(fcinfo, false, &n);
	text	   *t = PG_GETARG_TEXT_PP(1);
	BloomHashList l = {NULL, 0, 0};

	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);
	bloom_each_token(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), f->seed,
					 bloom_emit_collect, &l);
	PG_RETURN_BOOL(bloom_list_present(fcinfo, f, &l));
}
