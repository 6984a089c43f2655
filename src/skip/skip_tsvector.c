/*-------------------------------------------------------------------------
 *
 * skip_tsvector.c
 *	  bloomskip's full-text operator class, tsvector_bloomskip_ops: a
 *	  range's keys are its documents' lexemes, and tsvector @@ tsquery asks
 *	  for the lexemes every matching document holds.
 *
 * A value's keys are its lexemes, each hashed as its bytes with the
 * index's seed plus the column number (bloom_hash_bytes, as a text value
 * hashes, so a range's filter answers bloom_contains(filter, lexeme) as the
 * index does).  Positions and
 * weights are not keyed: a query's weight restriction or phrase distance
 * only narrows what the lexemes' presence allows.
 *
 * A query is read from its tree (tsquery's items in prefix order: an
 * operator's right operand follows it, its left one is qoperator.left
 * items further) as the regular expressions are: a lexeme requires
 * itself; & and the phrase operators <-> and <N> require both sides; |
 * requires one clause of each side, ORed (the side's clause of fewest
 * alternatives); ! requires nothing (a document without the lexeme
 * matches it); a prefix lexeme (:*) requires nothing, so it reads every
 * range as far as it goes (prefix keys would make every document's
 * prefixes keys: many more bits for a rarer query).  A query with no
 * requirement (only negations or prefixes, or empty) reads every range.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "miscadmin.h"
#include "tsearch/ts_type.h"

/* lexemes per range assumed at an empty build, per equality key assumed */
#define SKIP_TSV_EMPTY_FACTOR	16
/* alternatives of one clause at most, and clauses of one query */
#define SKIP_TSV_MAX_ALTS		64
#define SKIP_TSV_MAX_CLAUSES	64

/* A clause: the lexemes (items of the query) of which a match holds one. */
typedef struct TsvClause
{
	int			n;
	QueryOperand *item[SKIP_TSV_MAX_ALTS];
} TsvClause;

static void
skip_tsv_init(SkipKeyInfo *ki, Relation index, int attno, bytea *opts)
{
}

/* The lexemes of a document. */
static int
skip_tsv_value_keys(const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
					uint64 seed, Datum value, SkipKeyBuf *buf)
{
	TSVector	tsv = DatumGetTSVector(value);
	WordEntry  *we = ARRPTR(tsv);

	for (int i = 0; i < tsv->size; i++)
		skip_keys_push(buf, bloom_hash_bytes(STRPTR(tsv) + we[i].pos, we[i].len, seed));
	return tsv->size;
}

/* Append the clauses item requires to *out (a List of TsvClause *). */
static List *
skip_tsv_required(QueryItem *item, List *out)
{
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (item->type == QI_VAL)
	{
		TsvClause  *c;

		if (item->qoperand.prefix)
			return out;
		c = palloc(sizeof(TsvClause));
		c->n = 1;
		c->item[0] = &item->qoperand;
		return list_length(out) < SKIP_TSV_MAX_CLAUSES ? lappend(out, c) : out;
	}
	if (item->type != QI_OPR)
		return out;
	switch (item->qoperator.oper)
	{
		case OP_AND:
		case OP_PHRASE:
			out = skip_tsv_required(item + item->qoperator.left, out);
			return skip_tsv_required(item + 1, out);
		case OP_OR:
			{
				List	   *l = skip_tsv_required(item + item->qoperator.left, NIL);
				List	   *r = skip_tsv_required(item + 1, NIL);
				TsvClause  *bl = NULL,
						   *br = NULL,
						   *c;
				ListCell   *lc;

				foreach(lc, l)
					if (bl == NULL || ((TsvClause *) lfirst(lc))->n < bl->n)
					bl = lfirst(lc);
				foreach(lc, r)
					if (br == NULL || ((TsvClause *) lfirst(lc))->n < br->n)
					br = lfirst(lc);
				if (bl == NULL || br == NULL || bl->n + br->n > SKIP_TSV_MAX_ALTS ||
					list_length(out) >= SKIP_TSV_MAX_CLAUSES)
					return out;
				c = palloc(sizeof(TsvClause));
				c->n = bl->n + br->n;
				memcpy(c->item, bl->item, sizeof(QueryOperand *) * bl->n);
				memcpy(c->item + bl->n, br->item, sizeof(QueryOperand *) * br->n);
				return lappend(out, c);
			}
		default:				/* OP_NOT */
			return out;
	}
}

/* A tsquery's required lexemes into q. */
static bool
skip_tsv_query(const SkipKeyInfo *ki, int attno, const SkipMeta *meta, uint64 seed,
			   StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
			   Datum value, SkipQuery *q)
{
	TSQuery		query = DatumGetTSQuery(value);
	char	   *operand;
	List	   *clauses;
	ListCell   *lc;

	if (query->size <= 0)
		return false;
	operand = GETOPERAND(query);
	clauses = skip_tsv_required(GETQUERY(query), NIL);
	foreach(lc, clauses)
	{
		TsvClause  *c = lfirst(lc);

		for (int a = 0; a < c->n; a++)
		{
			skip_query_key(q, bloom_hash_bytes(operand + c->item[a]->distance,
											   c->item[a]->length, seed));
			skip_query_end_alt(q);
		}
		skip_query_end_clause(q);
	}
	return true;
}

/*
 * The family of a range's filter: "text_ops", whose values hash as their
 * bytes exactly as the lexemes do, so bloom_contains(filter, lexeme) answers
 * as the index does for any lexeme.  Not "token": bloom_token_may_contain
 * splits its argument, and a lexeme may hold characters it splits at
 * ("foo-bar", "example.com").
 */
static void
skip_tsv_family(const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp)
{
	memset(family, 0, BLOOM_FAMILY_LEN);
	strlcpy(family, "text_ops", BLOOM_FAMILY_LEN);
	*collfp = 0;
}

const SkipClassOps skip_tsvector_class = {
	.magic = SKIP_CLASS_MAGIC,
	.name = "tsvector_bloomskip_ops",
	.strategies = SKIP_STRATEGY_BIT(SKIP_STRATEGY_TSQUERY),
	.empty_factor = SKIP_TSV_EMPTY_FACTOR,
	.many_keys = false,
	.hashes_type = false,
	.init = skip_tsv_init,
	.value_keys = skip_tsv_value_keys,
	.query = skip_tsv_query,
	.family = skip_tsv_family,
};

PG_FUNCTION_INFO_V1(bloomskip_tsvector_class);
/* Support function 2 of tsvector_bloomskip_ops: its table of operations. */
Datum
bloomskip_tsvector_class(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&skip_tsvector_class);
}
