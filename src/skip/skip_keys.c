/*-------------------------------------------------------------------------
 *
 * skip_keys.c
 *	  The keys of a bloomskip index: what a column's value sets in its
 *	  range's filter, and what a scan key asks of a range.  Every phase
 *	  (build, insert, summarize, scan, bloomskip_check and
 *	  bloomskip_range_filter) goes through these functions, so they hash alike.
 *
 * A column's operator class decides its keys, through a table of
 * operations (SkipClassOps, skip.h) that its support function 2 returns:
 * what a stored value sets, what a scan value asks (an AND of ORs of ANDs
 * of keys: SkipQuery), which strategies it serves, how it is sized.  This
 * file dispatches to the table and defines the equality class's; the
 * n-gram classes are in skip_ngram.c, the full-text class in
 * skip_tsvector.c, and skip_query.c builds queries.  A class of arrays or
 * jsonb is one more file with its table, and the SQL declaring the class
 * with that support function (and its strategies in skip.h).
 *
 * The classes of 1.3 had no support function 2 (an index built then, or a
 * database not yet updated, has none): a family with a LIKE operator is
 * then the n-gram class, any other the equality class, exactly the
 * inference 1.3 made.  Their tables hash as 1.3 did, so the pages of
 * existing indexes read the same.
 *
 *   equality (every *_bloomskip_ops): a value is one key, hashed as a
 *	 value added to a bloom filter of scheme 2 (bloom_hash_datum) with the
 *	 index's seed plus the column number.  A scan value asks for one key,
 *	 if its type hashes as the column's (no operator of the families gives
 *	 another, but a family amvalidate rejects might): else every range.
 *
 * Sizing.  A range's distinct keys are counted by the build as any keys;
 * a class whose query asks for several keys at once (many_keys: n-grams)
 * gets the square root of the equality default rate (the target reached
 * with two absent keys), which takes about half the bits.  A class's
 * empty_factor scales the keys per range assumed at an empty build.
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

/*
 * The operations of column i's class: its support function 2's table, or
 * for a family of 1.3 without one, the class 1.3 inferred from its
 * operators.
 */
static const SkipClassOps *
skip_column_class(Relation index, int i)
{
	Oid			typ = index->rd_opcintype[i];
	const SkipClassOps *ops;

	if (OidIsValid(index_getprocid(index, i + 1, SKIP_CLASS_PROC)))
	{
		FmgrInfo   *proc = index_getprocinfo(index, i + 1, SKIP_CLASS_PROC);

		ops = (const SkipClassOps *) DatumGetPointer(FunctionCall1(proc, PointerGetDatum(NULL)));
		if (ops == NULL || ops->magic != SKIP_CLASS_MAGIC)
			elog(ERROR, "support function 2 of column %d of bloomskip index \"%s\" returned no operator class table",
				 i + 1, RelationGetRelationName(index));
		return ops;
	}
	if (OidIsValid(get_opfamily_member(index->rd_opfamily[i], typ, typ,
									   SKIP_STRATEGY_LIKE)))
		return &skip_ngram_class;
	return &skip_equal_class;
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
		memset(&ki->ti[i], 0, sizeof(BloomTypeInfo));
		ki->ngram[i] = 0;
		ki->coll[i] = index->rd_indcollation[i];
		ki->ops[i] = skip_column_class(index, i);
		ki->ops[i]->init(ki, index, i, opts ? opts[i] : NULL);
	}
	MemoryContextSwitchTo(old);
}

/* Does any column's class ask several keys per query (n-grams)? */
bool
skip_keyinfo_has_ngram(const SkipKeyInfo *ki)
{
	for (int i = 0; i < ki->natts; i++)
		if (ki->ops[i]->many_keys)
			return true;
	return false;
}

/*
 * Distinct keys per range assumed when the table is empty at build: a
 * line of text has dozens of n-grams where an equality column has a key.
 */
double
skip_keys_empty_distinct(const SkipKeyInfo *ki)
{
	double		f = 1.0;

	for (int i = 0; i < ki->natts; i++)
		f = Max(f, ki->ops[i]->empty_factor);
	return SKIP_EMPTY_DISTINCT * f;
}

/* The build's default rate for nranges ranges (see the header comment). */
double
skip_keys_default_rate(const SkipKeyInfo *ki, double nranges)
{
	double		r = skip_default_rate(nranges);

	return skip_keyinfo_has_ngram(ki) ? Min(sqrt(r), SKIP_MAX_FPR) : r;
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
	return ki->ops[attno]->value_keys(ki, attno, meta, skip_column_seed(meta, attno),
									  value, buf);
}

/*
 * Build in q (initialized) what a range must hold to match the non-null
 * scan value of column attno under strategy and collation; false if every
 * range may match (a strategy the class does not serve included).
 */
bool
skip_query_build(const SkipKeyInfo *ki, const SkipMeta *meta, int attno,
				 StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
				 Datum value, SkipQuery *q)
{
	const SkipClassOps *ops = ki->ops[attno];

	if (strategy < 1 || strategy > SKIP_NSTRATEGIES ||
		!(ops->strategies & SKIP_STRATEGY_BIT(strategy)))
		return false;
	if (!ops->query(ki, attno, meta, skip_column_seed(meta, attno), strategy,
					collation, ti, value, q))
		return false;
	return q->matches_none || q->nclauses > 0;
}

/* The family and collation fingerprint a range's filter of column attno carries. */
void
skip_column_family(const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp)
{
	ki->ops[attno]->family(ki, attno, family, collfp);
}

/*
 * The equality class: one key per value (see the header comment), hashed
 * by the column type's hashing (in the current memory context, the key
 * information's).
 */
static void
skip_equal_init(SkipKeyInfo *ki, Relation index, int attno, bytea *opts)
{
	bloom_typeinfo_init(&ki->ti[attno], TupleDescAttr(RelationGetDescr(index), attno)->atttypid,
						index->rd_indcollation[attno], CurrentMemoryContext);
}

static int
skip_equal_value_keys(const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
					  uint64 seed, Datum value, SkipKeyBuf *buf)
{
	skip_keys_push(buf, bloom_hash_datum(&ki->ti[attno], value, seed, meta->scheme));
	return 1;
}

/* A value of type ti asks for its one key, if ti hashes as the column. */
static bool
skip_equal_query(const SkipKeyInfo *ki, int attno, const SkipMeta *meta, uint64 seed,
				 StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
				 Datum value, SkipQuery *q)
{
	const BloomTypeInfo *colti = &ki->ti[attno];

	if (memcmp(ti->family, colti->family, BLOOM_FAMILY_LEN) != 0 ||
		ti->collfp != colti->collfp)
		return false;
	skip_query_key(q, bloom_hash_datum(ti, value, seed, meta->scheme));
	skip_query_end_alt(q);
	skip_query_end_clause(q);
	return true;
}

static void
skip_equal_family(const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp)
{
	memcpy(family, ki->ti[attno].family, BLOOM_FAMILY_LEN);
	*collfp = ki->ti[attno].collfp;
}

const SkipClassOps skip_equal_class = {
	.magic = SKIP_CLASS_MAGIC,
	.name = "equality",
	.strategies = SKIP_STRATEGY_BIT(SKIP_STRATEGY_EQUAL),
	.empty_factor = 1.0,
	.many_keys = false,
	.hashes_type = true,
	.init = skip_equal_init,
	.value_keys = skip_equal_value_keys,
	.query = skip_equal_query,
	.family = skip_equal_family,
};

PG_FUNCTION_INFO_V1(bloomskip_equal_class);
/* Support function 2 of every equality class: its table of operations. */
Datum
bloomskip_equal_class(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&skip_equal_class);
}
