/*-------------------------------------------------------------------------
 *
 * skip_array.c
 *	  bloomskip's array operator class, array_bloomskip_ops: a range's keys
 *	  are its arrays' elements, and @>, && and = ask for the elements a
 *	  matching array must hold.
 *
 * One class serves every array type whose element type bloomskip hashes
 * (its equality class's hashing: bloom_hash_datum of the element type under
 * the index's scheme, with the index's seed plus the column number), so an
 * element is the very key an equality index on a column of the element
 * type would set, and elements equal under the element type's equality
 * (numeric 1.0 and 1, int2 and int8 alike) give equal keys.  A range's
 * filter is returned by bloomskip_range_filter with the element type's
 * family: bloom_contains(filter, element) answers as the index does.
 *
 * Keys of a stored array: its non-NULL elements, all dimensions flattened
 * (the operators ignore dimensions but for =, which only narrows).  A NULL
 * element sets nothing: no operator matches a NULL element (PostgreSQL's
 * @>, && and <@ compare elements by equality, and NULL equals nothing).
 * An empty array or one of only NULLs sets no key, and no query needs one
 * from it: @> '{}' and <@ ask nothing (every range), && '{}' is false.
 *
 * A query value asks:
 *	 @> q, = q: every non-NULL element of q, one clause each (a row must
 *		hold them all).  A NULL element of q makes @> false for every row
 *		(skip_query_none: the scan reads nothing).  Not so for =, under
 *		which NULL elements equal each other.
 *	 && q: one clause, one alternative per non-NULL element (a row holds one).
 *	 <@ q: nothing: a row holding a subset of q (the empty array included)
 *		may hold none of q's elements, so every range is read.
 * skip_query.c caps a query's clauses and alternatives; beyond, it reads
 * more ranges, never fewer.
 *
 * Sizing: the build counts a range's distinct keys, here its distinct
 * elements, as for any class; an empty build assumes SKIP_ARRAY_EMPTY_FACTOR
 * elements per row's key.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

/* elements per range assumed at an empty build, per equality key assumed */
#define SKIP_ARRAY_EMPTY_FACTOR		3
/* elements hashed between interrupt checks (a huge array is one value) */
#define SKIP_ARRAY_CHECK_EVERY		65536

/* The element type of column attno; an error if it is not an array. */
static Oid
skip_array_elem_type(Relation index, int attno)
{
	Oid			typ = TupleDescAttr(RelationGetDescr(index), attno)->atttypid;
	Oid			elem = get_element_type(getBaseType(typ));

	if (!OidIsValid(elem))
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("operator class array_bloomskip_ops needs an array column, not %s",
						format_type_be(typ)),
				 errdetail("Column %d of index \"%s\" is of type %s.", attno + 1,
						   RelationGetRelationName(index), format_type_be(typ)),
				 errhint("Index an array column, or use the class of the column's type.")));
	return elem;
}

/*
 * The column's element type's hashing into ki->ti[attno] (an element type
 * without an extended hash function is refused by bloom_typeinfo_init, as
 * an equality index on it would be).
 */
static void
skip_array_init(SkipKeyInfo *ki, Relation index, int attno, bytea *opts)
{
	Oid			elem = skip_array_elem_type(index, attno);

	if (!OidIsValid(lookup_type_cache(elem, TYPECACHE_HASH_EXTENDED_PROC)->hash_extended_proc))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("operator class array_bloomskip_ops cannot hash elements of type %s",
						format_type_be(elem)),
				 errdetail("The type has no extended hash function, which bloomskip hashes elements with."),
				 errhint("Index an array of a hashable type (integers, text, uuid, dates, timestamps, numeric, bytea).")));
	bloom_typeinfo_init(&ki->ti[attno], elem, index->rd_indcollation[attno],
						CurrentMemoryContext);
}

/*
 * Call emit(arg, key) for the key of every non-NULL element of arr,
 * hashed as the column's elements; returns how many.
 */
static int
skip_array_each_key(const BloomTypeInfo *ti, const SkipMeta *meta, uint64 seed,
					ArrayType *arr, void (*emit) (void *arg, uint64 h), void *arg)
{
	ArrayIterator it;
	Datum		elem;
	bool		isnull;
	int			n = 0;

	if (ARR_ELEMTYPE(arr) != ti->typid)
		elog(ERROR, "array of %s where bloomskip expects one of %s",
			 format_type_be(ARR_ELEMTYPE(arr)), format_type_be(ti->typid));
	it = array_create_iterator(arr, 0, NULL);
	while (array_iterate(it, &elem, &isnull))
	{
		if (isnull)
			continue;
		emit(arg, bloom_hash_datum(ti, elem, seed, meta->scheme));
		if (++n % SKIP_ARRAY_CHECK_EVERY == 0)
			CHECK_FOR_INTERRUPTS();
	}
	array_free_iterator(it);
	return n;
}

/* The elements of an array. */
static int
skip_array_value_keys(const SkipKeyInfo *ki, int attno, const SkipMeta *meta,
					  uint64 seed, Datum value, SkipKeyBuf *buf)
{
	return skip_array_each_key(&ki->ti[attno], meta, seed, DatumGetArrayTypeP(value),
							   skip_keys_push, buf);
}

/* emit for @> and =: each element its own clause. */
static void
skip_array_clause(void *arg, uint64 h)
{
	SkipQuery  *q = (SkipQuery *) arg;

	skip_query_key(q, h);
	skip_query_end_alt(q);
	skip_query_end_clause(q);
}

/* emit for &&: each element an alternative of one clause. */
static void
skip_array_alt(void *arg, uint64 h)
{
	SkipQuery  *q = (SkipQuery *) arg;

	skip_query_key(q, h);
	skip_query_end_alt(q);
}

/* What an array value asks under strategy (see the header comment). */
static bool
skip_array_query(const SkipKeyInfo *ki, int attno, const SkipMeta *meta, uint64 seed,
				 StrategyNumber strategy, Oid collation, const BloomTypeInfo *ti,
				 Datum value, SkipQuery *q)
{
	ArrayType  *arr = DatumGetArrayTypeP(value);

	/* an array of another element type (no operator of the class gives one) */
	if (ARR_ELEMTYPE(arr) != ki->ti[attno].typid)
		return false;
	switch (strategy)
	{
		case SKIP_STRATEGY_CONTAINS:
			if (array_contains_nulls(arr))
			{
				skip_query_none(q);
				return true;
			}
			/* FALLTHROUGH */
		case SKIP_STRATEGY_EQUAL:
			skip_array_each_key(&ki->ti[attno], meta, seed, arr, skip_array_clause, q);
			return true;
		case SKIP_STRATEGY_OVERLAP:
			skip_array_each_key(&ki->ti[attno], meta, seed, arr, skip_array_alt, q);
			skip_query_end_clause(q);
			return true;
		default:				/* <@: every range */
			return false;
	}
}

/* The family of a range's filter: the element type's. */
static void
skip_array_family(const SkipKeyInfo *ki, int attno, char *family, uint32 *collfp)
{
	memcpy(family, ki->ti[attno].family, BLOOM_FAMILY_LEN);
	*collfp = ki->ti[attno].collfp;
}

const SkipClassOps skip_array_class = {
	.magic = SKIP_CLASS_MAGIC,
	.name = "array_bloomskip_ops",
	.strategies = SKIP_STRATEGY_BIT(SKIP_STRATEGY_EQUAL) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_CONTAINS) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_OVERLAP) |
	SKIP_STRATEGY_BIT(SKIP_STRATEGY_CONTAINED),
	.empty_factor = SKIP_ARRAY_EMPTY_FACTOR,
	.many_keys = false,
	.hashes_type = false,
	.init = skip_array_init,
	.value_keys = skip_array_value_keys,
	.query = skip_array_query,
	.family = skip_array_family,
};

PG_FUNCTION_INFO_V1(bloomskip_array_class);
/* Support function 2 of array_bloomskip_ops: its table of operations. */
Datum
bloomskip_array_class(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&skip_array_class);
}
