/*-------------------------------------------------------------------------
 *
 * bloom_hash.c
 *	  From an SQL value to the 64-bit hash that the core turns into bits
 *	  (src/core/bloom_positions.c).
 *
 * Hashing scheme 1 ("pgext", bloomset 1.0 and 1.1): h = fmix64(
 * extended_hash(value, seed)), where extended_hash is support function 2 of
 * the type's default hash operator class.  Those functions are what hash
 * partitioning stores on disk, so PostgreSQL keeps them stable across
 * releases, platforms and pg_upgrade; they follow the type's equality
 * (int2/int4/int8 hash alike, numeric 1.0 and 1.00 hash alike) and the
 * input collation (a nondeterministic collation hashes its sort key, so
 * 'abc' and 'ABC' collide under a case-insensitive collation).  None of
 * them reads raw in-memory bytes of a datum, so a filter does not depend on
 * build options or the CPU.
 *
 * Hashing scheme 2 ("full64", new filters since 1.2) keeps all of that
 * and replaces the functions that were built for hash joins (where a
 * collision costs one comparison) and drop information a filter needs:
 *  - the integer family and every int8-based type (int8, xid8, timestamp,
 *	  timestamptz, time, pg_lsn; int2/int4/date/xid/cid widened to 64 bits,
 *	  so the integer family still agrees): hashint8extended folds the value
 *	  to 32 bits (low half XOR high half), so keys with a shard or epoch in
 *	  the high half collide wholesale.  Scheme 2: bloom_hash_int64, a
 *	  bijection of the full 64 bits.
 *  - numeric: hash_numeric_extended ignores the sign (and all of NaN,
 *	  +Infinity, -Infinity hash alike).  Scheme 2 adds the sign, read from
 *	  the stored header word (the on-disk format).
 *  - interval: the 128-bit span equality compares, not its low 64 bits
 *	  folded to 32; timetz: the full time and the zone; aclitem: its three
 *	  fields, not their 32-bit sum.
 *  - jsonb: jsonb_hash_extended hashes numbers without their sign and
 *	  combines by XOR and rotation, ignoring where arrays and objects end
 *	  and whether a scalar is bare ('1' and '[1]' differ under =).  Scheme
 *	  2 walks the value, hashing every token with its kind, numbers signed.
 *  - arrays, ranges and composites: PostgreSQL combines their parts' hashes
 *	  (31 h + e), so an int8[] or a (bigint, text) row folds as its parts
 *	  do.  Scheme 2 chains the parts' scheme-2 hashes (array dimensions,
 *	  range flags included); multiranges likewise, range by range.
 *  Everything else hashes as in scheme 1 (its extended hashes of bytes,
 *  floats, uuids, ... are sound 64-bit hashes).
 *
 * Hashing scheme 4 ("xxh3", new filters since 1.5) is scheme 2 with a
 * faster and endian-independent byte hash: where the type's equality is
 * byte equality -- text and varchar under a deterministic collation,
 * bytea, name, "char", uuid, and char(n) after the trailing spaces its
 * equality ignores -- the element hash is XXH3-64 of those bytes under the
 * filter's seed (core/bloom_xxh3.h).  lookup3, which schemes 1 and 2 use
 * there, costs most of an aggregate's row on a short key, and PostgreSQL's
 * hash_bytes reads native words, so its values differ across byte orders.
 * Every other type, and every part of an array, range or composite, hashes
 * as in scheme 2: its equality is not byte equality (numeric 1.0 = 1.00,
 * nondeterministic collations, float -0 = 0, ...) or its scheme-2 hash is
 * already a bijection of the value (the integers).
 *
 * Hashing scheme 3 ("parquet") is XXH64 of the value's Parquet PLAIN
 * encoding, so that a filter's bits are those a Parquet writer stores.  It
 * is bloom_parquet.c's, with the rest of Parquet's SQL side; this file only
 * dispatches to it, through the hooks that file registers when the module
 * loads (BloomParquetHashing), since it builds on this one.
 *
 * A filter records its scheme, and every hash is computed for that scheme
 * (bloom_hash_datum takes it): a 1.1 filter keeps answering as it did.
 *
 * The element family and collation fingerprint that bloom_typeinfo_init
 * records are bloom_family.c's; the checks of a value against a filter's
 * family bloom_element.c's; the installed version and the scheme new
 * filters get bloom_version.c's; the conversion of a value to a filter's
 * element type bloom_convert.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_hash.h"
#include "bloom_family.h"

#include "access/htup_details.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "datatype/timestamp.h"
#include "utils/float.h"
#include "utils/uuid.h"
#include "utils/multirangetypes.h"
#include "utils/rangetypes.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/date.h"
#include "common/int128.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

/* GUC bloomset.fast_hash: use the inlined hash functions (diagnostic). */
bool		bloom_fast_hash_enabled = true;

/* Which inlined hash, if any, computes exactly the type's extended hash. */
static BloomHashKind
bloom_hash_kind(Oid hashproc, Oid collation)
{
	switch (hashproc)
	{
		case F_HASHINT2EXTENDED:
			return BLOOM_HASH_INT2;
		case F_HASHINT4EXTENDED:
			return BLOOM_HASH_INT4;
		case F_HASHINT8EXTENDED:
			return BLOOM_HASH_INT8;
		case F_HASHVARLENAEXTENDED:
			return BLOOM_HASH_BYTES;
		case F_HASHTEXTEXTENDED:
			if (OidIsValid(collation) && get_collation_isdeterministic(collation))
				return BLOOM_HASH_BYTES;
			break;
	}
	return BLOOM_HASH_GENERIC;
}

/*
 * How scheme 2 hashes values whose extended hash function is hashproc.  By
 * the function, so a type whose hash support PostgreSQL gives a function of
 * its own in a later release (18: date, xid, cid, xid8, timestamptz, bool,
 * bytea) must be listed under each: a type falling through to scheme 1's
 * hash on one version would give other hashes than on another, and a
 * filter carried across by dump or pg_upgrade would miss its members
 * (test/t/007 and 008 and rate_check catch it).
 */
static BloomHash2Kind
bloom_hash2_kind(Oid hashproc)
{
	switch (hashproc)
	{
		case F_HASHINT2EXTENDED:
			return BLOOM_HASH2_INT16;
		case F_HASHINT4EXTENDED:	/* int4, date, xid, cid (up to 17) */
#ifdef F_HASHDATEEXTENDED
		case F_HASHDATEEXTENDED:	/* PostgreSQL 18 gave these their own */
		case F_HASHXIDEXTENDED:
		case F_HASHCIDEXTENDED:
#endif
			return BLOOM_HASH2_INT32;
		case F_HASHINT8EXTENDED:	/* int8, xid8 (up to 17) */
		case F_TIMESTAMP_HASH_EXTENDED: /* timestamp, timestamptz (up to 17) */
#ifdef F_HASHXID8EXTENDED
		case F_HASHXID8EXTENDED:	/* PostgreSQL 18 */
		case F_TIMESTAMPTZ_HASH_EXTENDED:
#endif
		case F_TIME_HASH_EXTENDED:
		case F_PG_LSN_HASH_EXTENDED:
			return BLOOM_HASH2_INT64;
		case F_HASH_NUMERIC_EXTENDED:
			return BLOOM_HASH2_NUMERIC;
		case F_INTERVAL_HASH_EXTENDED:
			return BLOOM_HASH2_INTERVAL;
		case F_TIMETZ_HASH_EXTENDED:
			return BLOOM_HASH2_TIMETZ;
		case F_JSONB_HASH_EXTENDED:
			return BLOOM_HASH2_JSONB;
		case F_HASH_ACLITEM_EXTENDED:
			return BLOOM_HASH2_ACLITEM;
	}
	return BLOOM_HASH2_AS_SCHEME1;
}

/*
 * How scheme 4 hashes values whose extended hash function is hashproc
 * under collation: by their bytes where the function hashes exactly the
 * bytes that equality compares (the text-like ones only under a
 * deterministic collation; without a collation the type's own function
 * raises its error, as in scheme 2).  bytea got a function of its own in
 * PostgreSQL 18.
 */
static BloomHash4Kind
bloom_hash4_kind(Oid hashproc, Oid collation)
{
	bool		deterministic = OidIsValid(collation) &&
		get_collation_isdeterministic(collation);

	switch (hashproc)
	{
		case F_HASHVARLENAEXTENDED:
#ifdef F_HASHBYTEAEXTENDED
		case F_HASHBYTEAEXTENDED:
#endif
			return BLOOM_HASH4_BYTES;
		case F_HASHTEXTEXTENDED:
			return deterministic ? BLOOM_HASH4_BYTES : BLOOM_HASH4_AS_SCHEME2;
		case F_HASHBPCHAREXTENDED:
			return deterministic ? BLOOM_HASH4_BPCHAR : BLOOM_HASH4_AS_SCHEME2;
		case F_HASHNAMEEXTENDED:
			return BLOOM_HASH4_NAME;
		case F_HASHCHAREXTENDED:
			return BLOOM_HASH4_CHAR;
		case F_UUID_HASH_EXTENDED:
			return BLOOM_HASH4_UUID;
	}
	return BLOOM_HASH4_AS_SCHEME2;
}

static void bloom_hash_init(BloomTypeInfo *ti, Oid typid, Oid collation,
							MemoryContext mcxt);

/*
 * Scheme 2's information for the parts of a container type base: the
 * element type of an array, the subtype of a range (under the range's
 * collation, which its equality uses), each column of a composite (under
 * the column's collation), the range type of a multirange.
 */
static void
bloom_hash_init_container(BloomTypeInfo *ti, Oid base, Oid collation,
						  MemoryContext mcxt)
{
	Oid			elem = get_element_type(base);

	if (OidIsValid(elem) && ti->hashfn.fn_oid == F_HASH_ARRAY_EXTENDED)
	{
		ti->kind2 = BLOOM_HASH2_ARRAY;
		get_typlenbyvalalign(elem, &ti->elmlen, &ti->elmbyval, &ti->elmalign);
		ti->sub = MemoryContextAllocZero(mcxt, sizeof(BloomTypeInfo));
		bloom_hash_init(ti->sub, elem, collation, mcxt);
	}
	else if (get_typtype(base) == TYPTYPE_RANGE && ti->hashfn.fn_oid == F_HASH_RANGE_EXTENDED)
	{
		TypeCacheEntry *tc = lookup_type_cache(base, TYPECACHE_RANGE_INFO);

		ti->kind2 = BLOOM_HASH2_RANGE;
		ti->sub = MemoryContextAllocZero(mcxt, sizeof(BloomTypeInfo));
		bloom_hash_init(ti->sub, tc->rngelemtype->type_id, tc->rng_collation, mcxt);
	}
	else if (get_typtype(base) == TYPTYPE_MULTIRANGE &&
			 ti->hashfn.fn_oid == F_HASH_MULTIRANGE_EXTENDED)
	{
		ti->kind2 = BLOOM_HASH2_MULTIRANGE;
		ti->sub = MemoryContextAllocZero(mcxt, sizeof(BloomTypeInfo));
		bloom_hash_init(ti->sub, get_multirange_range(base), collation, mcxt);
	}
	else if (get_typtype(base) == TYPTYPE_COMPOSITE && ti->hashfn.fn_oid == F_HASH_RECORD_EXTENDED)
	{
		TupleDesc	td = lookup_rowtype_tupdesc(base, -1);

		ti->kind2 = BLOOM_HASH2_RECORD;
		ti->nsub = td->natts;
		ti->sub = MemoryContextAllocZero(mcxt, sizeof(BloomTypeInfo) * Max(td->natts, 1));
		for (int i = 0; i < td->natts; i++)
			if (!TupleDescAttr(td, i)->attisdropped)
				bloom_hash_init(&ti->sub[i], TupleDescAttr(td, i)->atttypid,
								TupleDescAttr(td, i)->attcollation, mcxt);
		ReleaseTupleDesc(td);
	}
}

/*
 * The hashing part of the information for values of typid under
 * collation: the kinds of schemes 1, 2 and 4, the extended hash function and
 * (scheme 2) the parts of containers.
 */
static void
bloom_hash_init(BloomTypeInfo *ti, Oid typid, Oid collation, MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);
	TypeCacheEntry *tc;

	check_stack_depth();
	ti->typid = typid;
	ti->collation = collation;
	if (type_is_enum(base))
	{
		ti->kind = BLOOM_HASH_ENUM;
		return;
	}
	tc = lookup_type_cache(base, TYPECACHE_HASH_EXTENDED_PROC);
	if (!OidIsValid(tc->hash_extended_proc))
		bloom_no_hash_error(typid);
	fmgr_info_cxt(tc->hash_extended_proc, &ti->hashfn, mcxt);
	ti->kind = bloom_fast_hash_enabled ?
		bloom_hash_kind(tc->hash_extended_proc, collation) : BLOOM_HASH_GENERIC;
	ti->kind2 = bloom_hash2_kind(tc->hash_extended_proc);
	ti->kind4 = bloom_hash4_kind(tc->hash_extended_proc, collation);
	bloom_hash_init_container(ti, base, collation, mcxt);
}

/* ---- the Parquet scheme: reached through bloom_parquet.c's hooks --------- */

/*
 * The Parquet scheme's value-to-hash part lives with the rest of Parquet's
 * SQL side in bloom_parquet.c, which builds on this file and the layers
 * above it; it hands its hooks over when the module loads, so the scheme
 * switch below reaches it without the two files depending on each other.
 */
static const BloomParquetHashing *bloom_parquet_hashing = NULL;

/* Make pq the Parquet scheme's hashing (module load). */
void
bloom_hash_set_parquet(const BloomParquetHashing *pq)
{
	bloom_parquet_hashing = pq;
}

/* The Parquet scheme's hooks; a call before the module loaded is a bug. */
const BloomParquetHashing *
bloom_parquet_hooks(void)
{
	if (bloom_parquet_hashing == NULL)
		elog(ERROR, "bloomset: the Parquet hashing scheme is not registered");
	return bloom_parquet_hashing;
}

/* Compute the hash information for values of typid under collation. */
void
bloom_typeinfo_init(BloomTypeInfo *ti, Oid typid, Oid collation,
					MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);
	StringInfoData desc;

	memset(ti, 0, sizeof(*ti));
	initStringInfo(&desc);
	bloom_describe_family(typid, &desc, true, 0);
	bloom_set_family(ti->family, desc.data);
	pfree(desc.data);
	ti->collfp = bloom_collation_fp(base, collation);
	if (bloom_parquet_hooks()->family_of(base, ti->pq_family))
		ti->pq_type = base;
	bloom_hash_init(ti, typid, collation, mcxt);
}

/* Hash of an enum value: its label, which survives dump/restore. */
static uint64
bloom_hash_enum(Datum value, uint64 seed)
{
	HeapTuple	tup = SearchSysCache1(ENUMOID, value);
	uint64		h;
	const char *label;

	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid internal value for enum: %u",
						DatumGetObjectId(value))));
	label = NameStr(((Form_pg_enum) GETSTRUCT(tup))->enumlabel);
	h = bloom_bytes_hash(label, strlen(label), seed);
	ReleaseSysCache(tup);
	return h;
}

/*
 * The hashes of one key (a non-null value) for a filter of the given seed
 * and scheme into h (room for BLOOM_KEY_MAX_HASHES); returns how many.
 * Every key has one -- bloom_hash_datum's -- except a float zero or NaN of
 * a Parquet filter, whose class has two encodings a writer may have hashed
 * (bloom_parquet.c).  Adding a key sets every one of its hashes;
 * a probe answers "maybe" when the filter holds any (bloom_key_pick), so
 * an imported filter is kept as its writer made it and still finds 0.0
 * where -0.0 was written.
 */
int
bloom_key_hashes(const BloomTypeInfo *ti, Datum value, uint64 seed,
				 int scheme, uint64 *h)
{
	if (scheme == BLOOM_SCHEME_PARQUET)
		return bloom_key_hashes_parquet(ti, value, h);
	h[0] = bloom_hash_datum(ti, value, seed, scheme);
	return 1;
}

/*
 * bloom_key_hashes of a key of a Parquet filter, for a caller that knows
 * the scheme (an aggregate's Parquet rows): no frame of its own.
 */
int
bloom_key_hashes_parquet(const BloomTypeInfo *ti, Datum value, uint64 *h)
{
	return bloom_parquet_hooks()->key_hashes(ti->pq_type, value, h);
}

/* The element hash of a non-null value under hashing scheme 1. */
static uint64
bloom_hash_datum_pgext(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	uint64		h;

	if (bloom_hash_pgext_quick(ti, value, seed, &h))
		return bloom_mix64(h);
	switch (ti->kind)
	{
		case BLOOM_HASH_BYTES:
			{
				/* out of line (the in-line ones are hashed above) */
				struct varlena *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));

				h = bloom_bytes_hash(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed);
				if ((Pointer) t != DatumGetPointer(value))
					pfree(t);
				break;
			}
		case BLOOM_HASH_ENUM:
			h = bloom_hash_enum(value, seed);
			break;
		default:
			h = DatumGetUInt64(FunctionCall2Coll((FmgrInfo *) &ti->hashfn,
												 ti->collation, value,
												 UInt64GetDatum(seed)));
			break;
	}
	return bloom_mix64(h);
}

/* Scheme 2 combines a sequence of 64-bit token hashes: a chain of mixes. */
static inline uint64
bloom_chain(uint64 h, uint64 x)
{
	return bloom_mix64b(h * UINT64_C(0x9e3779b97f4a7c15) + x);
}

/*
 * The sign class of a numeric, from the first 16-bit word of its stored
 * form (the on-disk format of numeric.c: 0xC000 marks NaN and the
 * infinities, 0x8000 the short format with its sign in 0x2000, otherwise
 * 0x4000 is the sign): 0 non-negative, 1 negative, 2 NaN, 3 +Infinity,
 * 4 -Infinity.  Zero is always 0 (hash_numeric_extended gives every zero
 * the same hash, so the caller passes is_zero from it).
 */
static int
bloom_numeric_sign_class(const struct varlena *num, bool is_zero)
{
	uint16		word;

	memcpy(&word, VARDATA_ANY(num), sizeof(word));
	if ((word & 0xC000) == 0xC000)
		return (word & 0xF000) == 0xC000 ? 2 : (word & 0xF000) == 0xD000 ? 3 : 4;
	if (is_zero)
		return 0;
	if (word & 0x8000)
		return (word & 0x2000) ? 1 : 0;
	return (word & 0xC000) == 0x4000 ? 1 : 0;
}

/*
 * Scheme 2's hash of a numeric: PostgreSQL's extended hash (which follows
 * numeric equality: 1.0 = 1.00) and the sign class, mixed.
 */
static uint64
bloom_hash_numeric2(Datum value, uint64 seed)
{
	struct varlena *num = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));
	uint64		h = DatumGetUInt64(DirectFunctionCall2(hash_numeric_extended,
													   PointerGetDatum(num),
													   UInt64GetDatum(seed)));
	int			cls = bloom_numeric_sign_class(num, h == seed - 1);

	if ((Pointer) num != DatumGetPointer(value))
		pfree(num);
	return bloom_mix64(h ^ ((uint64) cls * UINT64_C(0x9e3779b97f4a7c15)));
}

/*
 * Scheme 2's hash of an interval: the 128-bit span that interval equality
 * compares (time + (month * 30 + day) days, as interval_cmp_value), so
 * '1 day' = '24 hours' hash alike; a span that fits in 64 bits hashes as
 * that integer.
 */
static uint64
bloom_hash_interval2(Datum value, uint64 seed)
{
	Interval   *iv = DatumGetIntervalP(value);
	INT128		span = int64_to_int128(iv->time);
	int64		days = (int64) iv->month * INT64CONST(30) + iv->day;
	uint64		lo;
	int64		hi;

	int128_add_int64_mul_int64(&span, days, USECS_PER_DAY);
#ifdef USE_NATIVE_INT128
	lo = (uint64) span;
	hi = (int64) (span >> 64);
#else
	lo = span.lo;
	hi = span.hi;
#endif
	if (hi == ((int64) lo >> 63))
		return bloom_hash_int64(lo, seed);
	return bloom_chain(bloom_hash_int64(lo, seed), bloom_hash_int64((uint64) hi, ~seed));
}

/* Scheme 2's hash of a timetz: equal iff time and zone are equal. */
static uint64
bloom_hash_timetz2(Datum value, uint64 seed)
{
	TimeTzADT  *t = DatumGetTimeTzADTP(value);

	return bloom_chain(bloom_hash_int64((uint64) t->time, seed), (uint64) (uint32) t->zone);
}

/* Scheme 2's hash of an aclitem: equal iff its three fields are equal. */
static uint64
bloom_hash_aclitem2(Datum value, uint64 seed)
{
	AclItem    *a = DatumGetAclItemP(value);

	return bloom_chain(bloom_hash_int64((uint64) a->ai_privs, seed),
					   ((uint64) a->ai_grantee << 32) | a->ai_grantor);
}

/* Scheme 2's hash of one jsonb scalar (string, numeric, boolean, null). */
static uint64
bloom_hash_jsonb_scalar(const JsonbValue *v, uint64 seed)
{
	switch (v->type)
	{
		case jbvString:
			return bloom_mix64(bloom_bytes_hash(v->val.string.val, v->val.string.len, seed));
		case jbvNumeric:
			return bloom_hash_numeric2(NumericGetDatum(v->val.numeric), seed);
		case jbvBool:
			return v->val.boolean ? 0x11 : 0x12;
		case jbvNull:
			return 0x13;
		default:
			elog(ERROR, "unexpected jsonb scalar type %d", (int) v->type);
	}
	return 0;					/* keep compilers quiet */
}

/*
 * Scheme 2's hash of a jsonb value: every token of the walk (begin and end
 * of arrays and objects, a bare scalar's array marked as such, keys,
 * values, elements) chained with its kind, scalars hashed signed.  Equal
 * values (jsonb =: keys in stored order, numbers by numeric equality) give
 * the same walk, hence the same hash.
 */
static uint64
bloom_hash_jsonb2(Datum value, uint64 seed)
{
	Jsonb	   *jb = DatumGetJsonbP(value);
	JsonbIterator *it = JsonbIteratorInit(&jb->root);
	JsonbValue	v;
	JsonbIteratorToken r;
	uint64		h = bloom_mix64(seed ^ UINT64_C(0x6a09e667f3bcc909));

	while ((r = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		uint64		x = (uint64) r << 56;

		if (r == WJB_BEGIN_ARRAY && v.val.array.rawScalar)
			x |= 1;
		else if (r == WJB_KEY || r == WJB_VALUE || r == WJB_ELEM)
			x ^= bloom_hash_jsonb_scalar(&v, seed);
		h = bloom_chain(h, x);
	}
	if ((Pointer) jb != DatumGetPointer(value))
		pfree(jb);
	return h;
}

static uint64 bloom_hash_datum_full64(const BloomTypeInfo *ti, Datum value, uint64 seed);
static uint64 bloom_hash_range2(const BloomTypeInfo *ti, Datum value, uint64 seed);

/* what a NULL element, bound or column contributes to a container's hash */
#define BLOOM_HASH2_NULL	UINT64_C(0x8f1bbcdcca62c1d6)

/*
 * Scheme 2's hash of an array: its dimensions and lower bounds (array
 * equality compares them) and its elements' scheme-2 hashes in order
 * (NULL elements, equal to each other under array =, alike), chained.
 */
static uint64
bloom_hash_array2(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	AnyArrayType *arr = DatumGetAnyArrayP(value);
	int			ndim = AARR_NDIM(arr);
	int		   *dims = AARR_DIMS(arr);
	int		   *lbs = AARR_LBOUND(arr);
	int			n = ArrayGetNItems(ndim, dims);
	uint64		h = bloom_chain(bloom_mix64(seed ^ UINT64_C(0xbb67ae8584caa73b)), (uint64) ndim);
	array_iter	it;

	for (int d = 0; d < ndim; d++)
		h = bloom_chain(h, ((uint64) (uint32) dims[d] << 32) | (uint32) lbs[d]);
	array_iter_setup(&it, arr);
	for (int i = 0; i < n; i++)
	{
		bool		isnull;
		Datum		e = array_iter_next(&it, &isnull, i, ti->elmlen, ti->elmbyval, ti->elmalign);

		h = bloom_chain(h, isnull ? BLOOM_HASH2_NULL : bloom_hash_datum_full64(ti->sub, e, seed));
	}
	return h;
}

/*
 * Scheme 2's hash of a range: its flags (empty, inclusive and infinite
 * bounds) and its finite bounds' scheme-2 hashes, chained.
 */
static uint64
bloom_hash_range2(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	RangeType  *r = DatumGetRangeTypeP(value);
	TypeCacheEntry *tc = lookup_type_cache(RangeTypeGetOid(r), TYPECACHE_RANGE_INFO);
	char		flags = range_get_flags(r) &
		(RANGE_EMPTY | RANGE_LB_INC | RANGE_UB_INC | RANGE_LB_INF | RANGE_UB_INF);
	RangeBound	lower,
				upper;
	bool		empty;
	uint64		h = bloom_chain(bloom_mix64(seed ^ UINT64_C(0x3c6ef372fe94f82b)), (uint64) (uint8) flags);

	range_deserialize(tc, r, &lower, &upper, &empty);
	if (RANGE_HAS_LBOUND(flags))
		h = bloom_chain(h, bloom_hash_datum_full64(ti->sub, lower.val, seed));
	if (RANGE_HAS_UBOUND(flags))
		h = bloom_chain(h, bloom_hash_datum_full64(ti->sub, upper.val, seed));
	return h;
}

/*
 * Scheme 2's hash of a multirange: the number of its ranges and their
 * scheme-2 hashes in order (a multirange is stored normalized: sorted and
 * merged, so equal multiranges have the same ranges).
 */
static uint64
bloom_hash_multirange2(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	MultirangeType *mr = DatumGetMultirangeTypeP(value);
	TypeCacheEntry *tc = lookup_type_cache(MultirangeTypeGetOid(mr), TYPECACHE_MULTIRANGE_INFO);
	int32		n;
	RangeType **ranges;
	uint64		h;

	multirange_deserialize(tc->rngtype, mr, &n, &ranges);
	h = bloom_chain(bloom_mix64(seed ^ UINT64_C(0x510e527fade682d1)), (uint64) n);
	for (int32 i = 0; i < n; i++)
		h = bloom_chain(h, bloom_hash_range2(ti->sub, RangeTypePGetDatum(ranges[i]), seed));
	return h;
}

/*
 * Scheme 2's hash of a composite value: its columns' scheme-2 hashes in
 * order (dropped columns skipped, NULLs alike), chained.
 */
static uint64
bloom_hash_record2(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	HeapTupleHeader rec = DatumGetHeapTupleHeader(value);
	TupleDesc	td = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(rec),
											HeapTupleHeaderGetTypMod(rec));
	HeapTupleData tuple;
	Datum	   *values;
	bool	   *nulls;
	uint64		h = bloom_mix64(seed ^ UINT64_C(0xa54ff53a5f1d36f1));

	if (td->natts != ti->nsub)
		elog(ERROR, "composite type changed while in use (%d columns, %d expected)",
			 td->natts, ti->nsub);
	tuple.t_len = HeapTupleHeaderGetDatumLength(rec);
	ItemPointerSetInvalid(&(tuple.t_self));
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = rec;
	values = palloc(sizeof(Datum) * Max(td->natts, 1));
	nulls = palloc(sizeof(bool) * Max(td->natts, 1));
	heap_deform_tuple(&tuple, td, values, nulls);
	for (int i = 0; i < td->natts; i++)
		if (!TupleDescAttr(td, i)->attisdropped)
			h = bloom_chain(h, nulls[i] ? BLOOM_HASH2_NULL :
							bloom_hash_datum_full64(&ti->sub[i], values[i], seed));
	ReleaseTupleDesc(td);
	pfree(values);
	pfree(nulls);
	return h;
}

/* The element hash of a non-null value under hashing scheme 2. */
static uint64
bloom_hash_datum_full64(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	uint64		h;

	if (bloom_hash_full64_quick(ti, value, seed, &h))
		return h;
	switch (ti->kind2)
	{
		case BLOOM_HASH2_INT16:
		case BLOOM_HASH2_INT32:
		case BLOOM_HASH2_INT64:
			break;				/* hashed above */
		case BLOOM_HASH2_NUMERIC:
			return bloom_hash_numeric2(value, seed);
		case BLOOM_HASH2_INTERVAL:
			return bloom_hash_interval2(value, seed);
		case BLOOM_HASH2_TIMETZ:
			return bloom_hash_timetz2(value, seed);
		case BLOOM_HASH2_JSONB:
			return bloom_hash_jsonb2(value, seed);
		case BLOOM_HASH2_ACLITEM:
			return bloom_hash_aclitem2(value, seed);
		case BLOOM_HASH2_ARRAY:
			return bloom_hash_array2(ti, value, seed);
		case BLOOM_HASH2_RANGE:
			return bloom_hash_range2(ti, value, seed);
		case BLOOM_HASH2_RECORD:
			return bloom_hash_record2(ti, value, seed);
		case BLOOM_HASH2_MULTIRANGE:
			return bloom_hash_multirange2(ti, value, seed);
		case BLOOM_HASH2_AS_SCHEME1:
			break;
	}
	return bloom_hash_datum_pgext(ti, value, seed);
}

/*
 * Scheme 4's hash of a char(n) value: the bytes before its trailing
 * spaces, which char(n) equality ignores ('a' = 'a  '), as
 * hashbpcharextended hashes them under a deterministic collation.
 */
static uint64
bloom_hash_bpchar4(Datum value, uint64 seed)
{
	struct varlena *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));
	const char *p = VARDATA_ANY(t);
	size_t		len = VARSIZE_ANY_EXHDR(t);
	uint64		h;

	while (len > 0 && p[len - 1] == ' ')
		len--;
	h = bloom_xxh3_bytes(p, len, seed);
	if ((Pointer) t != DatumGetPointer(value))
		pfree(t);
	return h;
}

/* The element hash of a non-null value under hashing scheme 4. */
static uint64
bloom_hash_datum_xxh3(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	uint64		h;

	if (bloom_hash_xxh3_quick(ti, value, seed, &h))
		return h;
	switch (ti->kind4)
	{
		case BLOOM_HASH4_BYTES:
			{
				/* out of line (the in-line ones are hashed above) */
				struct varlena *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));

				h = bloom_xxh3_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed);
				if ((Pointer) t != DatumGetPointer(value))
					pfree(t);
				return h;
			}
		case BLOOM_HASH4_BPCHAR:
			return bloom_hash_bpchar4(value, seed);
		case BLOOM_HASH4_NAME:
			{
				const char *n = NameStr(*DatumGetName(value));

				return bloom_xxh3_bytes(n, strnlen(n, NAMEDATALEN), seed);
			}
		default:
			break;
	}
	return bloom_hash_datum_full64(ti, value, seed);
}

/*
 * The first encoding of the key's class under the Parquet scheme
 * (bloom_key_hashes).  Not inlined: its array of hashes would cost every
 * hash of the other schemes a stack-protector check.
 */
static pg_noinline uint64
bloom_hash_datum_parquet(const BloomTypeInfo *ti, Datum value)
{
	uint64		h[BLOOM_KEY_MAX_HASHES];

	(void) bloom_parquet_hooks()->key_hashes(ti->pq_type, value, h);
	return h[0];
}

/*
 * The element hash of a non-null value for a filter with the given seed
 * and hashing scheme: the one function from a value to the 64-bit hash
 * that the core (bloom_positions.c) maps to positions.
 */
uint64
bloom_hash_datum(const BloomTypeInfo *ti, Datum value, uint64 seed, int scheme)
{
	if (scheme == BLOOM_SCHEME_XXH3)
		return bloom_hash_datum_xxh3(ti, value, seed);
	if (scheme == BLOOM_SCHEME_PGEXT)
		return bloom_hash_datum_pgext(ti, value, seed);
	if (scheme == BLOOM_SCHEME_PARQUET)
		return bloom_hash_datum_parquet(ti, value);
	Assert(scheme == BLOOM_SCHEME_FULL64);
	return bloom_hash_datum_full64(ti, value, seed);
}
