/*-------------------------------------------------------------------------
 *
 * skip_keys.c
 *	  The keys of a bloomskip index: what a column's value sets in its
 *	  range's filter, and what a scan key asks of a range.  Every phase
 *	  (build, insert, summarize, scan, bloomskip_check and
 *	  bloomskip_range_filter) goes through these functions, so they hash alike.
 *
 * Two kinds of columns, by operator class:
 *
 *   equality (every *_bloomskip_ops): a value is one key, hashed as a
 *	 value added to a bloom filter of scheme 2 (bloom_hash_datum) with the
 *	 index's seed plus the column number.  A scan value asks for one key.
 *
 *   n-gram (text_ngram_bloomskip_ops, ClickHouse's ngrambf_v1): a value's
 *	 keys are its n-grams of n characters (bloom_each_ngram: each hashed as
 *	 the bytes of a text under a deterministic collation, with the same
 *	 seed), as many as it has characters minus n - 1.  A LIKE pattern asks
 *	 for every n-gram of its literal fragments (bloom_like_ngrams), all of
 *	 which must be in a range that holds a match: a conjunction.  A pattern
 *	 without a fragment of n characters asks for nothing and so matches
 *	 every range.  LIKE compares bytes under a deterministic collation and
 *	 the n-grams are byte strings, so no range holding a match is missed;
 *	 under a nondeterministic collation (LIKE accepts one from PostgreSQL
 *	 18 on) it does not, and the scan returns every range.  ILIKE is not
 *	 served: its case folding follows the collation's lower(), which byte
 *	 n-grams of the stored values cannot answer exactly.
 *
 * Sizing.  A range's distinct keys of an n-gram column are its distinct
 * n-grams, counted by the build as any keys.  A needle absent from a range
 * usually lacks several of its n-grams, each of which must be a false
 * positive for the range to be returned; so the default rate of an index
 * with an n-gram column is the square root of the equality default (the
 * target reached with two absent n-grams), which takes about half the
 * bits.  The n-grams of a pattern are deduplicated and at most
 * SKIP_MAX_LIKE_KEYS are probed: each costs up to k page reads per
 * segment, and a conjunction of that many is already as selective as the
 * filters can be.  A column under a nondeterministic collation is refused
 * at CREATE INDEX: LIKE does not compare bytes there (PostgreSQL 18 accepts
 * it), so no n-gram could be trusted; a scan under such a collation still
 * returns every range.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "../bloom_text.h"

/* n-grams per range assumed at an empty build, per equality key assumed */
#define SKIP_NGRAM_EMPTY_FACTOR	16
/* n-grams of a pattern probed at most (see the header comment) */
#define SKIP_MAX_LIKE_KEYS		64

/* The opclass options of an n-gram column. */
typedef struct SkipNgramOptions
{
	int32		vl_len_;
	int			n;
} SkipNgramOptions;

PG_FUNCTION_INFO_V1(bloomskip_ngram_options);
/* The options support function of text_ngram_bloomskip_ops: (n = ...). */
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

/*
 * The n-gram length of column i if its operator family serves LIKE (an
 * n-gram column), else 0.
 */
static int
skip_column_ngram(Relation index, int i, bytea **opts)
{
	Oid			typ = index->rd_opcintype[i];
	int			n;

	if (!OidIsValid(get_opfamily_member(index->rd_opfamily[i], typ, typ,
										SKIP_STRATEGY_LIKE)))
		return 0;
	if (OidIsValid(index->rd_indcollation[i]) &&
		!get_collation_isdeterministic(index->rd_indcollation[i]))
		ereport(ERROR,
				(errcode(ERRCODE_COLLATION_MISMATCH),
				 errmsg("operator class text_ngram_bloomskip_ops needs a deterministic collation"),
				 errdetail("Column %d of index \"%s\" has the nondeterministic collation \"%s\", under which LIKE does not compare bytes.",
						   i + 1, RelationGetRelationName(index),
						   get_collation_name(index->rd_indcollation[i])),
				 errhint("Index the column under a deterministic collation, e.g. (col COLLATE \"C\" text_ngram_bloomskip_ops), and query it under the same one.")));
	n = opts && opts[i] ? ((SkipNgramOptions *) opts[i])->n : SKIP_NGRAM_DEFAULT_N;
	if (n < 1 || n > BLOOM_NGRAM_MAX)
		elog(ERROR, "bloomskip index \"%s\" has an invalid n-gram length %d",
			 RelationGetRelationName(index), n);
	return n;
}

/* The per-column hashing information of an index, in mcxt. */
void
skip_keyinfo_init(SkipKeyInfo *ki, Relation index, MemoryContext mcxt)
{
	TupleDesc	desc = RelationGetDescr(index);
	MemoryContext old = MemoryContextSwitchTo(mcxt);
	bytea	  **opts = RelationGetIndexAttOptions(index, false);

	ki->natts = desc->natts;
	for (int i = 0; i < desc->natts; i++)
	{
		bloom_typeinfo_init(&ki->ti[i], TupleDescAttr(desc, i)->atttypid,
							index->rd_indcollation[i], mcxt);
		ki->ngram[i] = (uint8) skip_column_ngram(index, i, opts);
	}
	MemoryContextSwitchTo(old);
}

/*
 * Distinct keys per range assumed when the table is empty at build: a
 * line of text has dozens of n-grams where an equality column has a key.
 */
double
skip_keys_empty_distinct(const SkipKeyInfo *ki)
{
	return SKIP_EMPTY_DISTINCT * (skip_keyinfo_has_ngram(ki) ? SKIP_NGRAM_EMPTY_FACTOR : 1);
}

/* Does any column of the index take n-grams? */
bool
skip_keyinfo_has_ngram(const SkipKeyInfo *ki)
{
	for (int i = 0; i < ki->natts; i++)
		if (ki->ngram[i] > 0)
			return true;
	return false;
}

/* The build's default rate for nranges ranges (see the header comment). */
double
skip_keys_default_rate(const SkipKeyInfo *ki, double nranges)
{
	double		r = skip_default_rate(nranges);

	return skip_keyinfo_has_ngram(ki) ? Min(sqrt(r), SKIP_MAX_FPR) : r;
}

/* Append h to buf. */
static void
skip_keys_push(void *arg, uint64 h)
{
	SkipKeyBuf *buf = (SkipKeyBuf *) arg;

	if (buf->n == buf->cap)
	{
		buf->cap = Max(16, 2 * buf->cap);
		buf->h = buf->h ? repalloc_huge(buf->h, sizeof(uint64) * buf->cap) :
			MemoryContextAllocHuge(buf->cxt, sizeof(uint64) * buf->cap);
	}
	buf->h[buf->n++] = h;
}

/* The column's seed: the index's plus the column number. */
static inline uint64
skip_column_seed(const SkipMeta *meta, int attno)
{
	return meta->seed + (uint64) attno;
}

/*
 * Append to buf the keys of a non-null value of column attno (0-based);
 * returns how many: 1 for an equality column, the value's n-grams for an
 * n-gram column.
 */
int
skip_value_keys(const SkipKeyInfo *ki, const SkipMeta *meta, int attno,
				Datum value, SkipKeyBuf *buf)
{
	text	   *t;

	if (ki->ngram[attno] == 0)
	{
		skip_keys_push(buf, bloom_hash_datum(&ki->ti[attno], value,
											 skip_column_seed(meta, attno),
											 meta->scheme));
		return 1;
	}
	t = DatumGetTextPP(value);
	return bloom_each_ngram(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), ki->ngram[attno],
							skip_column_seed(meta, attno), skip_keys_push, buf);
}

/* qsort comparator of uint64 */
static int
skip_keys_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/*
 * Append to buf the keys that a range must all hold to match the non-null
 * scan value of column attno under strategy; returns how many (0: every
 * range matches).  An equality value (of type ti, which hashes as the
 * column does) asks for its one key; a LIKE pattern for its n-grams,
 * deduplicated, at most SKIP_MAX_LIKE_KEYS.
 */
int
skip_query_keys(const SkipKeyInfo *ki, const SkipMeta *meta, int attno,
				StrategyNumber strategy, const BloomTypeInfo *ti, Datum value,
				SkipKeyBuf *buf)
{
	text	   *pat;
	int			first = buf->n,
				n = 0;

	if (strategy != SKIP_STRATEGY_LIKE || ki->ngram[attno] == 0)
	{
		skip_keys_push(buf, bloom_hash_datum(ti, value, skip_column_seed(meta, attno),
											 meta->scheme));
		return 1;
	}
	pat = DatumGetTextPP(value);
	bloom_like_ngrams(VARDATA_ANY(pat), VARSIZE_ANY_EXHDR(pat), ki->ngram[attno],
					  skip_column_seed(meta, attno), skip_keys_push, buf);
	qsort(buf->h + first, buf->n - first, sizeof(uint64), skip_keys_cmp);
	for (int i = first; i < buf->n && n < SKIP_MAX_LIKE_KEYS; i++)
		if (n == 0 || buf->h[first + n - 1] != buf->h[i])
			buf->h[first + n++] = buf->h[i];
	buf->n = first + n;
	return n;
}
