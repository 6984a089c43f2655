/*-------------------------------------------------------------------------
 *
 * skip_jsonb.c
 *	  bloomskip's jsonb operator class, jsonb_bloomskip_ops: a range's keys
 *	  are its documents' top-level keys and their path-and-value pairs; ?,
 *	  ?| and ?& ask for keys, @> for the pairs the query document holds.
 *
 * A document sets two kinds of keys, hashed with the index's seed plus the
 * column number:
 *
 *	 existence keys: what jsonb's ? finds, which is top level only (as
 *		jsonb_ops answers it): the top-level object's keys and the string
 *		elements of a top-level array (a raw string scalar is one), each
 *		hashed as its bytes (bloom_hash_bytes, as a text value hashes: a
 *		range's filter, of family text_ops, answers bloom_contains(filter,
 *		key) for any key as ? does).
 *	 pair keys: for every scalar (an object's value or an array's element,
 *		at any depth) the hash of its path -- the object keys leading to it;
 *		array positions are not part of it -- mixed with the scalar's hash,
 *		as jsonb_path_ops pairs them.  A scalar hashes by jsonb equality: a
 *		string by its bytes, a number by numeric equality (1.0 and 1 alike:
 *		hash_numeric_extended, which also ignores the sign: -1 and 1 share a
 *		key, a false positive only), true, false and null as constants.
 *
 * Whatever a containing document holds, the contained one's scalars sit at
 * the same paths of keys (containment matches objects key by key and
 * arrays element by element in any order, and a top-level array contains a
 * scalar), so d @> q needs every pair key of q in d's range.  Duplicate
 * keys cannot reach a stored document (jsonb keeps the last).
 *
 * A query value asks:
 *	 ? k: k's existence key.
 *	 ?| ks: one clause, one alternative per non-NULL element (none: ?| is
 *		false, which reads every range here, harmlessly).
 *	 ?& ks: every non-NULL element, one clause each.
 *	 @> q: every pair key of q, one clause each; q without scalars ({}, [])
 *		asks nothing.
 *	 @? and @@ (jsonpath): nothing, every range is read.  A path's
 *		equality chain ($.a.b == "x") maps onto a pair key, but the lax
 *		mode's unwrapping of arrays and the filter expressions make the
 *		extraction a parser of its own; it is left out rather than risked.
 *
 * Sizing: the build counts a range's distinct keys, here existence and
 * pair keys together; an empty build assumes SKIP_JSONB_EMPTY_FACTOR keys
 * per row's key.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

/* keys per range assumed at an empty build, per equality key assumed */
#define SKIP_JSONB_EMPTY_FACTOR		4
/* scalars hashed between interrupt checks (a huge document is one value) */
#define SKIP_JSONB_CHECK_EVERY		65536
/* seeds of the pair keys' parts, apart from the existence keys' */
#define SKIP_JSONB_PATH_TAG			UINT64CONST(0x9E3779B97F4A7C15)
#define SKIP_JSONB_VALUE_TAG		UINT64CONST(0xC2B2AE3D27D4EB4F)
#define SKIP_JSONB_TRUE				UINT64CONST(0x165667B19E3779F9)
#define SKIP_JSONB_FALSE			UINT64CONST(0x27D4EB2F165667C5)
#define SKIP_JSONB_NULL				UINT64CONST(0x85EBCA77C2B2AE63)

/* What a walk of a document emits. */
typedef enum SkipJsonbWant
{
	SKIP_JSONB_EXISTS = 1,		/* existence keys */
	SKIP_JSONB_PAIRS = 2		/* pair keys */
} SkipJsonbWant;

static void
skip_jsonb_init(SkipKeyInfo *ki, Relation index, int attno, bytea *opts)
{
}

/* A scalar's hash under jsonb equality (see the header comment). */
static uint64
skip_jsonb_scalar(const JsonbValue *v, uint64 seed)
{
	uint64		s = seed ^ SKIP_JSONB_VALUE_TAG;

	switch (v->type)
	{
		case jbvString:
			return bloom_hash_bytes(v->val.string.val, v->val.string.len, s);
		case jbvNumeric:
			return DatumGetUInt64(DirectFunctionCall2(hash_numeric_extended,
													  NumericGetDatum(v->val.numeric),
													  UInt64GetDatum(s)));
		case jbvBool:
			return bloom_mix64(s ^ (v->val.boolean ? SKIP_JSONB_TRUE : SKIP_JSONB_FALSE));
		default:				/* jbvNull */
			return bloom_mix64(s ^ SKIP_JSONB_NULL);
	}
}

/*
 * Walk document jb and call emit(arg, key) for the keys of kinds want
 * (see the header comment); returns how many.
 */
static int
skip_jsonb_walk(Jsonb *jb, uint64 seed, int want, void (*emit) (void *arg, uint64 h),
				void *arg)
{
	JsonbIterator *it = JsonbIteratorInit(&jb->root);
	JsonbValue	v;
	JsonbIteratorToken tok;
	int			depth = 0,
				cap = 16,
				n = 0;
	uint64	   *path = palloc(sizeof(uint64) * cap);	/* path[d]: depth d's */
	uint64		key = 0;		/* the path of the last key's value */
	bool		after_key = false;

	path[0] = bloom_mix64(seed ^ SKIP_JSONB_PATH_TAG);
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		switch (tok)
		{
			case WJB_BEGIN_ARRAY:
			case WJB_BEGIN_OBJECT:
				if (++depth >= cap)
					path = repalloc(path, sizeof(uint64) * (cap *= 2));
				/* a key's value is at the key's path, an element at its array's */
				path[depth] = after_key ? key : path[depth - 1];
				after_key = false;
				break;
			case WJB_END_ARRAY:
			case WJB_END_OBJECT:
				depth--;
				break;
			case WJB_KEY:
				if ((want & SKIP_JSONB_EXISTS) && depth == 1 && ++n)
					emit(arg, bloom_hash_bytes(v.val.string.val, v.val.string.len, seed));
				key = bloom_hash_bytes(v.val.string.val, v.val.string.len, path[depth]);
				after_key = true;
				break;
			case WJB_VALUE:
			case WJB_ELEM:
				if ((want & SKIP_JSONB_EXISTS) && tok == WJB_ELEM && depth == 1 &&
					v.type == jbvString && ++n)
					emit(arg, bloom_hash_bytes(v.val.string.val, v.val.string.len, seed));
				if ((want & SKIP_JSONB_PAIRS) && ++n)
					emit(arg, bloom_mix64(hash_combine64(tok == WJB_VALUE ? key : path[depth],
															 skip_jsonb_scalar(&v, seed))));
				after_key = false;
				if (n % SKIP_JSONB_CHECK_EVERY == 0)
					CHECK_FOR_INTERRUPTS();
				break;
			default:
				break;
		}
	}
	pfree(path);
	return n;
}

/* A document's existence and pair keys. */
static int
skip_jsonb_value_keys(const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
					  uint64 seed, Datum value, SkipKeyBuf *buf)
{
	return skip_jsonb_walk(DatumGetJsonbP(value), seed, SKIP_JSONB_EXISTS | SKIP_JSONB_PAIRS,
						   skip_keys_push, buf);
}

/* emit of a query: each key its own clause. */
static void
skip_jsonb_clause(void *arg, uint64 h)
{
	SkipQuery  *q = (SkipQuery *) arg;

	skip_query_key(q, h);
	skip_query_end_alt(q);
	skip_query_end_clause(q);
}

/* The existence keys of a text[]'s non-NULL elements: clauses (?&) or alternatives (?|). */
static void
skip_jsonb_key_array(Datum value, uint64 seed, bool all, SkipQuery *q)
{
	ArrayType  *arr = DatumGetArrayTypeP(value);
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	for (int i = 0; i < n; i++)
	{
		text	   *t;

		if (nulls[i])
			continue;
		t = DatumGetTextPP(elems[i]);
		skip_query_key(q, bloom_hash_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed));
		skip_query_end_alt(q);
		if (all)
			skip_query_end_clause(q);
	}
	if (!all)
		skip_query_end_clause(q);
}

/* What a query value asks under strategy (see the header comment). */
static bool
skip_jsonb_query(const SkipKeyInfo *ki, int attno, const SkipMeta *meta, uint64 seed,
				 StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
				 Datum value, SkipQuery *q)
{
	switch (strategy)
	{
		case SKIP_STRATEGY_EXISTS:
			{
				text	   *t = DatumGetTextPP(value);

				skip_jsonb_clause(q, bloom_hash_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed));
				return true;
			}
		case SKIP_STRATEGY_EXISTS_ANY:
		case SKIP_STRATEGY_EXISTS_ALL:
			skip_jsonb_key_array(value, seed, strategy == SKIP_STRATEGY_EXISTS_ALL, q);
			return true;
		case SKIP_STRATEGY_CONTAINS:
			skip_jsonb_walk(DatumGetJsonbP(value), seed, SKIP_JSONB_PAIRS, skip_jsonb_clause, q);
			return true;
		default:				/* @? and @@: every range */
			return false;
	}
}

/*
 * The family of a range's filter: "text_ops", whose values (under a
 * deterministic collation) hash as their bytes exactly as the existence keys
 * do, so bloom_contains(filter, key) answers ? as the index does for any
 * key.  Not "token": bloom_token_may_contain splits its argument into
 * tokens, and a key such as "user_id" is not stored as "user" and "id".
 */
static void
skip_jsonb_family(const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp)
{
	memset(family, 0, BLOOM_FAMILY_LEN);
	strlcpy(family, "text_ops", BLOOM_FAMILY_LEN);
	*collfp = 0;
}

const SkipClassOps skip_jsonb_class = {
	.magic = SKIP_CLASS_MAGIC,
	.name = "jsonb_bloomskip_ops",
	.strategies = SKIP_STRATEGY_BIT(SKIP_STRATEGY_CONTAINS) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_EXISTS) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_EXISTS_ANY) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_EXISTS_ALL) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_PATH_EXISTS) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_PATH_MATCH),
	.empty_factor = SKIP_JSONB_EMPTY_FACTOR,
	.many_keys = false,
	.hashes_type = false,
	.init = skip_jsonb_init,
	.value_keys = skip_jsonb_value_keys,
	.query = skip_jsonb_query,
	.family = skip_jsonb_family,
};

PG_FUNCTION_INFO_V1(bloomskip_jsonb_class);
/* Support function 2 of jsonb_bloomskip_ops: its table of operations. */
Datum
bloomskip_jsonb_class(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&skip_jsonb_class);
}
