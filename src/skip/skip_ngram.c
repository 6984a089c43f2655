/*-------------------------------------------------------------------------
 *
 * skip_ngram.c
 *	  bloomskip's n-gram operator classes: what a text value sets and what a
 *	  LIKE, ILIKE or regular expression asks.
 *
 * text_ngram_bloomskip_ops (ClickHouse's ngrambf_v1): a value's keys are
 * its n-grams of n characters (bloom_each_ngram: each hashed as the bytes
 * of a text with the index's seed plus the column number), as many as it
 * has characters minus n - 1.  It serves
 *   LIKE: every n-gram of the pattern's literal fragments
 *	 (bloom_like_ngrams) must be in a range that holds a match;
 *   ~ (and SIMILAR TO, which the parser turns into ~): the literal strings
 *	 every match holds (skip_regex.c, an AND of ORs); each string asks for
 *	 all its n-grams;
 *   ~*: the same strings, each n-gram asked as the OR of its case variants,
 *	 built only over characters whose variants are known: ASCII letters
 *	 other than i and I (whose upper and lower case depend on the locale:
 *	 Turkish dotted and dotless i), digits and ASCII punctuation.  The
 *	 regular expression engine matches a letter of the pattern by its upper
 *	 and lower case (and forces C rules for ASCII), so every match holds one
 *	 variant of each such n-gram.  Each variant is read on its own (up to
 *	 k page reads each), so ~* costs more here than on the ci class; the
 *	 n-grams between others are still asked, as one spanning a word and a
 *	 number is often what tells a needle from its neighbours.
 *
 * text_ngram_ci_bloomskip_ops: the keys are the n-grams of lower(value)
 * under the column's collation.  ILIKE compares exactly lower(value) LIKE
 * lower(pattern) in a multibyte encoding or under ICU, and byte by byte
 * the single-byte lowercase that lower() also applies otherwise: so the
 * n-grams of lower(pattern)'s literal fragments are in every range holding
 * a match.  ~* asks for the n-grams of its literal strings with ASCII
 * letters lowered, split at every other letter and at i and I, for the
 * reason above (the lowercase of an ASCII letter other than I is the same
 * in every locale, context or not).  LIKE and ~ are not served by this
 * class: lower() of a whole value may differ from that of its parts (a
 * Greek final sigma).
 *
 * Both classes refuse a nondeterministic collation at CREATE INDEX: LIKE
 * does not compare bytes there (PostgreSQL 18 accepts it), ILIKE and
 * regular expressions are refused by PostgreSQL under it; a scan under a
 * collation other than the column's reads every range.  A regular
 * expression is compiled by PostgreSQL before it is analysed, so an
 * invalid one raises PostgreSQL's own error even where no row is read.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "catalog/pg_collation.h"
#include "mb/pg_wchar.h"
#include "regex/regex.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "../kinds/bloom_text.h"

/* n-grams per range assumed at an empty build, per equality key assumed */
#define SKIP_NGRAM_EMPTY_FACTOR	16
/* case variants of one n-gram at most (2^4: n-grams of up to four letters) */
#define SKIP_MAX_VARIANTS		16

/* The opclass options of an n-gram column. */
typedef struct SkipNgramOptions
{
	int32		vl_len_;
	int			n;
} SkipNgramOptions;

PG_FUNCTION_INFO_V1(bloomskip_ngram_options);
/* The options support function of the n-gram classes: (n = ...). */
Datum
bloomskip_ngram_options(PG_FUNCTION_ARGS)
{
	local_relopts *relopts = (local_relopts *) PG_GETARG_POINTER(0);

	init_local_reloptions(relopts, sizeof(SkipNgramOptions));
	add_local_int_reloption(relopts, "n",
							"Characters per n-gram of a bloomskip n-gram column",
							SKIP_NGRAM_DEFAULT_N, 1, BLOOM_NGRAM_MAX,
							offsetof(SkipNgramOptions, n));
	PG_RETURN_VOID();
}

/* Check column attno's collation and read its n (both classes). */
static void
skip_ngram_setup(SkipKeyInfo *ki, Relation index, int attno, bytea *opts,
				 const char *classname, const char *op)
{
	Oid			coll = index->rd_indcollation[attno];
	int			n;

	if (OidIsValid(coll) && !get_collation_isdeterministic(coll))
		ereport(ERROR,
				(errcode(ERRCODE_COLLATION_MISMATCH),
				 errmsg("operator class %s needs a deterministic collation", classname),
				 errdetail("Column %d of index \"%s\" has the nondeterministic collation \"%s\", under which %s does not compare bytes.",
						   attno + 1, RelationGetRelationName(index),
						   get_collation_name(coll), op),
				 errhint("Index the column under a deterministic collation, e.g. (col COLLATE \"C\" %s), and query it under the same one.",
						 classname)));
	n = opts ? ((SkipNgramOptions *) opts)->n : SKIP_NGRAM_DEFAULT_N;
	if (n < 1 || n > BLOOM_NGRAM_MAX)
		elog(ERROR, "bloomskip index \"%s\" has an invalid n-gram length %d",
			 RelationGetRelationName(index), n);
	ki->ngram[attno] = (uint8) n;
}

static void
skip_ngram_init(SkipKeyInfo *ki, Relation index, int attno, bytea *opts)
{
	skip_ngram_setup(ki, index, attno, opts, "text_ngram_bloomskip_ops", "LIKE");
}

static void
skip_ngram_ci_init(SkipKeyInfo *ki, Relation index, int attno, bytea *opts)
{
	skip_ngram_setup(ki, index, attno, opts, "text_ngram_ci_bloomskip_ops", "ILIKE");
}

/* The n-grams of a value. */
static int
skip_ngram_value_keys(const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
					  uint64 seed, Datum value, SkipKeyBuf *buf)
{
	text	   *t = DatumGetTextPP(value);

	return bloom_each_ngram(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), ki->ngram[attno],
							seed, skip_keys_push, buf);
}

/* lower(t) under collation coll, as ILIKE folds its operands. */
static text *
skip_fold(Datum t, Oid coll)
{
	return DatumGetTextPP(DirectFunctionCall1Coll(lower, coll, t));
}

/* The n-grams of lower(value) under the column's collation. */
static int
skip_ngram_ci_value_keys(const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
						 uint64 seed, Datum value, SkipKeyBuf *buf)
{
	text	   *t = skip_fold(value, ki->coll[attno]);
	int			n = bloom_each_ngram(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t),
									 ki->ngram[attno], seed, skip_keys_push, buf);

	if ((Pointer) t != DatumGetPointer(value))
		pfree(t);
	return n;
}

/*
 * Does scanning under collation coll find what column attno's keys hold?
 * Only under the column's own collation, a deterministic one (LIKE accepts
 * a nondeterministic one from PostgreSQL 18 on).
 */
static bool
skip_ngram_collation_ok(const SkipKeyInfo *ki, int attno, Oid coll)
{
	if (OidIsValid(coll) && !get_collation_isdeterministic(coll))
		return false;
	return coll == ki->coll[attno] || !OidIsValid(ki->coll[attno]);
}

/* A LIKE pattern's fragments' n-grams, as one alternative of one clause. */
static void
skip_like_query(const char *pat, int len, int n, uint64 seed, SkipQuery *q)
{
	bloom_like_ngrams(pat, len, n, seed, skip_query_key, q);
	skip_query_end_alt(q);
	skip_query_end_clause(q);
}

/* Is byte c an ASCII character whose case variants are known (see the header)? */
static inline bool
skip_caseless_ok(unsigned char c)
{
	return c < 0x80 && c != 'i' && c != 'I';
}

/*
 * Emit, as alternatives of the open clause, every case variant of the
 * n-gram s[0..len) (ASCII, see skip_caseless_ok); false if it has too
 * many.
 */
static bool
skip_variants(const char *s, int len, uint64 seed, SkipQuery *q)
{
	int			letters[BLOOM_NGRAM_MAX];
	int			nl = 0;
	char		buf[BLOOM_NGRAM_MAX];

	for (int i = 0; i < len; i++)
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))
			letters[nl++] = i;
	if ((1 << nl) > SKIP_MAX_VARIANTS)
		return false;
	for (int v = 0; v < (1 << nl); v++)
	{
		memcpy(buf, s, len);
		for (int j = 0; j < nl; j++)
			buf[letters[j]] = (v >> j) & 1 ? pg_ascii_toupper(s[letters[j]]) :
				pg_ascii_tolower(s[letters[j]]);
		skip_query_key(q, bloom_hash_bytes(buf, len, seed));
		skip_query_end_alt(q);
	}
	return true;
}

/*
 * The runs of s[0..len) whose bytes are all caseless_ok (all bytes, if not
 * folding): calls back for each of at least n bytes.  Returns how many.
 */
typedef void (*SkipRunFn) (const char *s, int len, void *arg);
static int
skip_runs(const char *s, int len, int n, bool fold, SkipRunFn fn, void *arg)
{
	int			start = 0,
				runs = 0;

	for (int i = 0; i <= len; i++)
		if (i == len || (fold && !skip_caseless_ok((unsigned char) s[i])))
		{
			if (i - start >= n)
			{
				fn(s + start, i - start, arg);
				runs++;
			}
			start = i + 1;
		}
	return runs;
}

/* What a regular expression's string becomes: see skip_regex_query. */
typedef struct SkipRegexCtx
{
	SkipQuery  *q;
	int			n;
	uint64		seed;
	bool		variants;		/* each n-gram as the OR of its case variants */
	bool		lower;			/* ASCII letters lowered (the ci class) */
	bool		first_only;		/* only the first n-gram of the string */
	bool		done;
} SkipRegexCtx;

/* A run of a string (every byte ASCII if variants or lower): its n-grams. */
static void
skip_regex_run(const char *s, int len, void *arg)
{
	SkipRegexCtx *c = (SkipRegexCtx *) arg;
	char	   *copy;

	if (c->done)
		return;
	if (c->lower)
	{
		copy = pnstrdup(s, len);
		for (int i = 0; i < len; i++)
			copy[i] = pg_ascii_tolower(copy[i]);
		s = copy;
	}
	if (!c->variants)
	{
		bloom_each_ngram(s, len, c->n, c->seed, skip_query_key, c->q);
		return;
	}
	/* ASCII: n-grams of n bytes */
	for (int i = 0; i + c->n <= len && !c->done; i++)
	{
		if (!c->first_only)
		{
			if (skip_variants(s + i, c->n, c->seed, c->q))
				skip_query_end_clause(c->q);
			else
				c->q->clause_dropped = false;
			continue;
		}
		if (skip_variants(s + i, c->n, c->seed, c->q))
			c->done = true;
	}
}

/* qsort comparator of uint64 keys */
static int
skip_key_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/* Is h among the sorted keys k[0 .. n)? */
static bool
skip_key_in(const uint64 *k, int n, uint64 h)
{
	return bsearch(&h, k, n, sizeof(uint64), skip_key_cmp) != NULL;
}

/*
 * A clause of several strings without case variants: each string's
 * n-grams as one alternative, but the n-grams every string has asked once,
 * as a clause of their own (the OR of (C and Di) is C and the OR of the Di;
 * where some Di is empty, that OR holds wherever C does, and an empty
 * alternative drops its clause).  "ab(c|d)e" asks for its shared n-grams
 * once, and "x( |$)", whose strings are "x " and "x", only for x's: each
 * alternative of a clause is read on its own, so a shared n-gram asked in
 * every one costs its page reads that many times.
 */
static void
skip_regex_factored(const SkipRegexClause *clause, SkipRegexCtx *ctx, bool fold)
{
	SkipQuery  *q = ctx->q;
	uint64	  **keys = palloc(sizeof(uint64 *) * clause->n);
	int		   *nkeys = palloc(sizeof(int) * clause->n);
	uint64	   *common;
	int			ncommon = 0;

	for (int a = 0; a < clause->n; a++)
	{
		SkipQuery	one;

		skip_query_init(&one, CurrentMemoryContext);
		ctx->q = &one;
		skip_runs(clause->alt[a].s, clause->alt[a].len, ctx->n, fold, skip_regex_run, ctx);
		ctx->q = q;
		if (one.keys.n == 0)
			return;				/* a string without n-grams: the clause asks nothing */
		qsort(one.keys.h, one.keys.n, sizeof(uint64), skip_key_cmp);
		keys[a] = one.keys.h;
		nkeys[a] = 0;
		for (int i = 0; i < one.keys.n; i++)
			if (i == 0 || keys[a][nkeys[a] - 1] != one.keys.h[i])
				keys[a][nkeys[a]++] = one.keys.h[i];
	}
	/* the shared n-grams (sorted, as the first string's are) */
	common = palloc(sizeof(uint64) * nkeys[0]);
	for (int i = 0; i < nkeys[0]; i++)
	{
		bool		all = true;

		for (int a = 1; a < clause->n && all; a++)
			all = skip_key_in(keys[a], nkeys[a], keys[0][i]);
		if (all)
			common[ncommon++] = keys[0][i];
	}
	if (ncommon > 0)
	{
		for (int i = 0; i < ncommon; i++)
			skip_query_key(q, common[i]);
		skip_query_end_alt(q);
		skip_query_end_clause(q);
	}
	for (int a = 0; a < clause->n; a++)
	{
		for (int i = 0; i < nkeys[a]; i++)
			if (!skip_key_in(common, ncommon, keys[a][i]))
				skip_query_key(q, keys[a][i]);
		skip_query_end_alt(q);
	}
	skip_query_end_clause(q);
}

/*
 * A regular expression's required strings into q.  Without case variants
 * or with lowering (case-sensitive match on the n-gram class, or the ci
 * class), each clause is the OR of its strings, each the AND of its
 * n-grams (of the runs the ci class keeps), the n-grams all of them share
 * taken out as a clause of their own (skip_regex_factored).  With case
 * variants (~* on the n-gram class), a one-string clause gives a clause
 * per n-gram (the OR of its variants); a clause of several
 * strings gives the OR of the variants of each string's first n-gram.  A
 * string giving no n-gram makes its clause ask nothing.
 */
static void
skip_regex_query(SkipRegexClause *clauses, int nclauses, int n, uint64 seed,
				 bool variants, bool lower, SkipQuery *q)
{
	for (int c = 0; c < nclauses; c++)
	{
		SkipRegexCtx ctx = {q, n, seed, variants, lower, false, false};
		bool		fold = variants || lower;

		if (variants && clauses[c].n == 1)
		{
			skip_runs(clauses[c].alt[0].s, clauses[c].alt[0].len, n, true,
					  skip_regex_run, &ctx);
			continue;
		}
		if (!variants)
		{
			skip_regex_factored(&clauses[c], &ctx, fold);
			continue;
		}
		ctx.first_only = true;
		for (int a = 0; a < clauses[c].n; a++)
		{
			int			before = q->keys.n;

			ctx.done = false;
			skip_runs(clauses[c].alt[a].s, clauses[c].alt[a].len, n, fold,
					  skip_regex_run, &ctx);
			if (q->keys.n == before)
				q->clause_dropped = true;
		}
		skip_query_end_clause(q);
	}
}

/*
 * Compile a regular expression as the operator does (raising PostgreSQL's
 * error for an invalid one) and build its query: the n-gram class serves
 * ~ with its strings as they are, ~* (or an embedded (?i)) with their case
 * variants; the ci class lowers them.
 */
static bool
skip_regex_build(const SkipKeyInfo *ki, int attno, uint64 seed, StrategyNumber strategy,
				 Oid collation, Datum value, bool ci, SkipQuery *q)
{
	text	   *pat = DatumGetTextPP(value);
	bool		icase = (strategy == SKIP_STRATEGY_IREGEX);
	SkipRegexClause *clauses;
	int			nclauses;

	(void) RE_compile_and_cache(pat, REG_ADVANCED | (icase ? REG_ICASE : 0), collation);
	nclauses = skip_regex_required(VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat), icase,
								   &clauses, &icase);
	if (nclauses <= 0)
		return false;
	skip_regex_query(clauses, nclauses, ki->ngram[attno], seed, icase && !ci, ci, q);
	return true;
}

/* The n-gram class's query: LIKE, ~ and ~*. */
static bool
skip_ngram_query(const SkipKeyInfo *ki, int attno, const SkipMeta *meta, uint64 seed,
				 StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
				 Datum value, SkipQuery *q)
{
	text	   *pat;

	if (!skip_ngram_collation_ok(ki, attno, collation))
		return false;
	if (strategy != SKIP_STRATEGY_LIKE)
		return skip_regex_build(ki, attno, seed, strategy, collation, value, false, q);
	pat = DatumGetTextPP(value);
	skip_like_query(VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat), ki->ngram[attno], seed, q);
	return true;
}

/* The ci class's query: ILIKE and ~*. */
static bool
skip_ngram_ci_query(const SkipKeyInfo *ki, int attno, const SkipMeta *meta, uint64 seed,
					StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
					Datum value, SkipQuery *q)
{
	text	   *pat;

	if (!skip_ngram_collation_ok(ki, attno, collation) || !OidIsValid(collation))
		return false;
	if (strategy != SKIP_STRATEGY_ILIKE)
		return skip_regex_build(ki, attno, seed, strategy, collation, value, true, q);
	pat = skip_fold(value, collation);
	skip_like_query(VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat), ki->ngram[attno], seed, q);
	return true;
}

/* The family of a range's filter: "ngram:n", as bloom_ngram_agg names it. */
static void
skip_ngram_family(const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp)
{
	memset(family, 0, BLOOM_FAMILY_LEN);
	snprintf(family, BLOOM_FAMILY_LEN, "ngram:%d", ki->ngram[attno]);
	*collfp = 0;
}

const SkipClassOps skip_ngram_class = {
	.magic = SKIP_CLASS_MAGIC,
	.name = "text_ngram_bloomskip_ops",
	.strategies = SKIP_STRATEGY_BIT(SKIP_STRATEGY_LIKE) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_REGEX) | SKIP_STRATEGY_BIT(SKIP_STRATEGY_IREGEX),
	.empty_factor = SKIP_NGRAM_EMPTY_FACTOR,
	.many_keys = true,
	.init = skip_ngram_init,
	.value_keys = skip_ngram_value_keys,
	.query = skip_ngram_query,
	.family = skip_ngram_family,
};

const SkipClassOps skip_ngram_ci_class = {
	.magic = SKIP_CLASS_MAGIC,
	.name = "text_ngram_ci_bloomskip_ops",
	.strategies = SKIP_STRATEGY_BIT(SKIP_STRATEGY_ILIKE) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_IREGEX),
	.empty_factor = SKIP_NGRAM_EMPTY_FACTOR,
	.many_keys = true,
	.init = skip_ngram_ci_init,
	.value_keys = skip_ngram_ci_value_keys,
	.query = skip_ngram_ci_query,
	.family = skip_ngram_family,
};

PG_FUNCTION_INFO_V1(bloomskip_ngram_class);
/* Support function 2 of text_ngram_bloomskip_ops: its table of operations. */
Datum
bloomskip_ngram_class(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&skip_ngram_class);
}

PG_FUNCTION_INFO_V1(bloomskip_ngram_ci_class);
/* Support function 2 of text_ngram_ci_bloomskip_ops: its table of operations. */
Datum
bloomskip_ngram_ci_class(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&skip_ngram_ci_class);
}
