/*-------------------------------------------------------------------------
 *
 * bloom_batch.c
 *	  Batch calls (RedisBloom's MADD/MEXISTS): adding and probing the
 *	  elements of an array, for every kind of filter.
 *
 * Batch functions take an array of values and hash each element exactly as
 * the single-value functions do (the element type's family and collation
 * are checked once); NULL elements are skipped when adding and answer NULL
 * when probed one by one.  One mechanism serves the three kinds (bloom,
 * counting_bloom, scalable_bloom): each kind's file holds its SQL entry
 * points, which pass their kind to the functions here (bloom_batch.h), and
 * what differs by kind -- the insert, test and prefetch of a hash, where the
 * element fields are -- comes from its operations (bloom_kind.h).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_batch.h"
#include "bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_convert.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

/* Deconstruct arr into element datums and null flags. */
static int
bloom_array_elems(ArrayType *arr, Datum **values, bool **nulls)
{
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int			n;

	get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
	deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
					  values, nulls, &n);
	return n;
}

/* Prefetch what adding (write) or probing h will touch, where the kind can. */
static inline void
bloom_batch_prefetch(const BloomKindOps *ops, void *f, uint64 h, bool write)
{
	if (ops->prefetch != NULL)
		ops->prefetch(f, h, write);
}

/*
 * Room for the hashes of n keys of a filter of the given scheme: only the
 * Parquet scheme has keys of several hashes (bloom_key_hashes), so no other
 * needs more than one a key.
 */
static inline Size
bloom_batch_max_hashes(int scheme, int n)
{
	return (Size) Max(n, 1) * (scheme == BLOOM_SCHEME_PARQUET ? BLOOM_KEY_MAX_HASHES : 1);
}

/*
 * May the key whose n hashes (bloom_key_hashes) are h be in f?  Yes if any
 * of them may: only keys of Parquet float filters have more than one, one
 * per encoding a writer may have hashed.
 */
static inline bool
bloom_batch_test_key(const BloomKindOps *ops, void *f, const uint64 *h, int n)
{
	for (int j = 0; j < n; j++)
		if (ops->test(f, h[j]))
			return true;
	return false;
}

/*
 * *_add_all(filter, anycompatiblearray): a copy of the filter with every
 * non-null element added, for every kind.  Elements are hashed (and their
 * memory prefetched) first, then inserted.  An empty filter takes the
 * element type only when something is added, so an empty array leaves it
 * combinable with anything.
 */
Datum
bloom_batch_add(FunctionCallInfo fcinfo, BloomKind kind)
{
	const BloomKindOps *ops = bloom_kind_ops(kind);
	void	   *f = bloom_from_datum_kind(PG_GETARG_DATUM(0), kind);
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	BloomTypeInfo *ti;
	BloomConversion *conv;
	Datum	   *values;
	bool	   *nulls;
	int			n = bloom_array_elems(arr, &values, &nulls);
	uint64	   *h;
	int			nh = 0,
				nkeys = 0;
	bool		any = false;
	BloomElementFields e;

	if ((Pointer) f == DatumGetPointer(PG_GETARG_DATUM(0)))
		f = bloom_copy((BloomFilter *) f);
	for (int i = 0; i < n && !any; i++)
		any = !nulls[i];
	e = ops->fields(f);
	conv = bloom_call_elements(fcinfo, ARR_ELEMTYPE(arr), e.family, e.collfp, e.scheme, any, &ti);
	h = palloc(sizeof(uint64) * bloom_batch_max_hashes(e.scheme, n));
	for (int i = 0; i < n; i++)
	{
		int			k;

		if (nulls[i])
			continue;
		k = bloom_key_hashes(ti, conv ? bloom_convert(conv, values[i]) : values[i],
							 e.seed, e.scheme, h + nh);
		for (int j = 0; j < k; j++)
			bloom_batch_prefetch(ops, f, h[nh++], true);
		nkeys++;
	}
	f = ops->add(f, h, nh, nkeys);
	ops->check_full(f, fcinfo);
	PG_RETURN_POINTER(f);
}

/*
 * Probe every element of the array argument against a filter of the given
 * kind: counts of "maybe" answers and of non-null elements; answers per
 * element into out (may be NULL).
 */
static void
bloom_probe_array(FunctionCallInfo fcinfo, BloomKind kind, int *hits, int *nonnull,
				  ArrayType **out)
{
	const BloomKindOps *ops = bloom_kind_ops(kind);
	void	   *f = bloom_call_probe_filter(fcinfo, 0, kind);
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	BloomTypeInfo *ti;
	BloomConversion *conv;
	Datum	   *values;
	bool	   *nulls;
	int			n = bloom_array_elems(arr, &values, &nulls);
	Datum	   *answers = palloc(sizeof(Datum) * Max(n, 1));
	uint64	   *h;
	int		   *nkh = palloc(sizeof(int) * Max(n, 1));	/* hashes per key */
	int			nh = 0;
	BloomElementFields e = ops->fields(f);
	bool		empty = e.family[0] == '\0';

	conv = bloom_call_elements(fcinfo, ARR_ELEMTYPE(arr), e.family, e.collfp, e.scheme, false, &ti);
	h = palloc(sizeof(uint64) * bloom_batch_max_hashes(e.scheme, n));
	*hits = *nonnull = 0;
	/* three passes: hash every element, read the parts they need, test */
	for (int i = 0; i < n; i++)
	{
		if (nulls[i] || empty)
			continue;
		nkh[i] = bloom_key_hashes(ti, conv ? bloom_convert(conv, values[i]) : values[i],
								  e.seed, e.scheme, h + nh);
		nh += nkh[i];
	}
	f = bloom_call_parts(fcinfo, f, h, nh);	/* a stored filter: all parts at once */
	for (int i = 0; i < nh; i++)
		bloom_batch_prefetch(ops, f, h[i], false);
	nh = 0;
	for (int i = 0; i < n; i++)
	{
		bool		maybe = false;

		if (nulls[i])
			continue;
		(*nonnull)++;
		if (!empty)
		{
			maybe = bloom_batch_test_key(ops, f, h + nh, nkh[i]);
			nh += nkh[i];
		}
		*hits += maybe ? 1 : 0;
		answers[i] = BoolGetDatum(maybe);
	}
	if (out)
	{
		int			dims[1] = {n};
		int			lbs[1] = {1};

		*out = construct_md_array(answers, nulls, n > 0 ? 1 : 0, dims, lbs,
								  BOOLOID, 1, true, TYPALIGN_CHAR);
	}
}

/* *_contains_any(filter, anycompatiblearray) -> may any element be in? */
Datum
bloom_batch_any(FunctionCallInfo fcinfo, BloomKind kind)
{
	int			hits,
				nonnull;

	bloom_probe_array(fcinfo, kind, &hits, &nonnull, NULL);
	PG_RETURN_BOOL(hits > 0);
}

/* *_contains_all(filter, anycompatiblearray) -> may every element be in? */
Datum
bloom_batch_all(FunctionCallInfo fcinfo, BloomKind kind)
{
	int			hits,
				nonnull;

	bloom_probe_array(fcinfo, kind, &hits, &nonnull, NULL);
	PG_RETURN_BOOL(hits == nonnull);
}

/* *_contains_each(filter, anycompatiblearray) -> boolean[] per element. */
Datum
bloom_batch_each(FunctionCallInfo fcinfo, BloomKind kind)
{
	int			hits,
				nonnull;
	ArrayType  *out;

	bloom_probe_array(fcinfo, kind, &hits, &nonnull, &out);
	PG_RETURN_ARRAYTYPE_P(out);
}
