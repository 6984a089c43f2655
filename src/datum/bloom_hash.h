/*-------------------------------------------------------------------------
 *
 * bloom_hash.h
 *	  From SQL values to 64-bit element hashes (bloom_hash.c): the per-type
 *	  information a call site or an aggregate keeps and the hashing schemes.
 *	  The element families are bloom_family.h's, the checks of a value
 *	  against a filter bloom_element.h's, the installed version and the
 *	  scheme new filters get bloom_version.h's, the conversion of a value to
 *	  a filter's element type bloom_convert.h's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_HASH_H
#define BLOOMSET_BLOOM_HASH_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif
#include "common/hashfn.h"

#include "../core/bloom_core.h"
#include "../core/bloom_xxh3.h"

/*
 * Value-to-hash information for one element type and collation, computed
 * once per call site (fn_extra) or per aggregate state.
 */
typedef enum BloomHashKind
{
	BLOOM_HASH_GENERIC,			/* call the type's extended hash function */
	BLOOM_HASH_INT2,			/* inlined equivalents, bit-identical */
	BLOOM_HASH_INT4,
	BLOOM_HASH_INT8,
	BLOOM_HASH_BYTES,			/* text/varchar (deterministic), bytea */
	BLOOM_HASH_ENUM				/* hash the label, not the OID */
} BloomHashKind;

/*
 * How scheme 2 hashes the type (bloom_hash.c): as scheme 1 does, or by one
 * of its own functions where PostgreSQL's extended hash drops information
 * that the type's equality keeps.
 */
typedef enum BloomHash2Kind
{
	BLOOM_HASH2_AS_SCHEME1,		/* scheme 1's element hash */
	BLOOM_HASH2_INT16,			/* the value widened to 64 bits, SplitMix64 */
	BLOOM_HASH2_INT32,
	BLOOM_HASH2_INT64,			/* int8, xid8, timestamp(tz), time, pg_lsn */
	BLOOM_HASH2_NUMERIC,		/* extended hash plus the sign */
	BLOOM_HASH2_INTERVAL,		/* the 128-bit span equality compares */
	BLOOM_HASH2_TIMETZ,			/* 64-bit time and zone */
	BLOOM_HASH2_JSONB,			/* structure and signed numbers */
	BLOOM_HASH2_ACLITEM,		/* the three fields, not their sum */
	BLOOM_HASH2_ARRAY,			/* dimensions and elements' scheme-2 hashes */
	BLOOM_HASH2_RANGE,			/* flags and bounds' scheme-2 hashes */
	BLOOM_HASH2_RECORD,			/* columns' scheme-2 hashes */
	BLOOM_HASH2_MULTIRANGE		/* its ranges' scheme-2 hashes */
} BloomHash2Kind;

/*
 * How scheme 4 hashes the type (bloom_hash.c): the value's bytes by XXH3
 * where the type's equality is byte equality, scheme 2's hash elsewhere.
 */
typedef enum BloomHash4Kind
{
	BLOOM_HASH4_AS_SCHEME2,		/* scheme 2's element hash */
	BLOOM_HASH4_BYTES,			/* a varlena's bytes: text, varchar, bytea */
	BLOOM_HASH4_BPCHAR,			/* char(n) without its trailing spaces */
	BLOOM_HASH4_NAME,			/* name up to its terminating NUL */
	BLOOM_HASH4_CHAR,			/* "char": its one byte */
	BLOOM_HASH4_UUID			/* its 16 bytes */
} BloomHash4Kind;

typedef struct BloomTypeInfo
{
	Oid			typid;			/* the argument type as given */
	Oid			collation;		/* input collation */
	BloomHashKind kind;
	BloomHash2Kind kind2;		/* scheme 2 */
	BloomHash4Kind kind4;		/* scheme 4 */
	uint32		collfp;			/* nondeterministic collation fingerprint */
	char		family[BLOOM_FAMILY_LEN];
	/* the Parquet scheme: the base type and its "parquet:" family, if any */
	Oid			pq_type;
	char		pq_family[BLOOM_FAMILY_LEN];
	FmgrInfo	hashfn;			/* extended hash (GENERIC kind) */
	/* scheme 2 containers (in the call site's memory context) */
	struct BloomTypeInfo *sub;	/* array element, range subtype, columns,
								 * a multirange's range type */
	int			nsub;			/* columns of a composite (incl. dropped) */
	int16		elmlen;			/* array elements */
	bool		elmbyval;
	char		elmalign;
} BloomTypeInfo;

/*
 * The extended hash of the bytes of a text (deterministic collation) or
 * bytea value, before scheme 1's fmix64: hash_bytes_extended(), inlined.
 */
static inline uint64
bloom_bytes_hash(const char *p, size_t len, uint64 seed)
{
#ifdef WORDS_BIGENDIAN
	return hash_bytes_extended((const unsigned char *) p, (int) len, seed);
#else
	return bloom_lookup3_bytes((const uint8_t *) p, (uint32_t) len, seed);
#endif
}

/*
 * Scheme 1's extended hash (before its fmix64) of a value of the kinds
 * hashed by a few inlined instructions -- the integers, and a byte string
 * stored in line (short header or not: hashed in place) -- into *h; false
 * for every other value.  bloom_hash.c's scheme 1 hashes these kinds
 * through this function, so the aggregates' inlined row path and the
 * out-of-line bloom_hash_datum give the same bits.
 */
static pg_attribute_always_inline bool
bloom_hash_pgext_quick(const BloomTypeInfo *ti, Datum value, uint64 seed, uint64 *h)
{
	switch (ti->kind)
	{
		case BLOOM_HASH_INT2:
			*h = bloom_lookup3_u32((uint32) (int32) DatumGetInt16(value), seed);
			return true;
		case BLOOM_HASH_INT4:
			*h = bloom_lookup3_u32((uint32) DatumGetInt32(value), seed);
			return true;
		case BLOOM_HASH_INT8:
			{
				/* as hashint8extended: fold the high half in, int4-compatible */
				int64		v = DatumGetInt64(value);
				uint32		lo = (uint32) v;
				uint32		hi = (uint32) (v >> 32);

				lo ^= (v >= 0) ? hi : ~hi;
				*h = bloom_lookup3_u32(lo, seed);
				return true;
			}
		case BLOOM_HASH_BYTES:
			{
				const struct varlena *t = (const struct varlena *) DatumGetPointer(value);

				if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
					return false;	/* detoasted by bloom_hash_datum */
				*h = bloom_bytes_hash(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed);
				return true;
			}
		default:
			return false;
	}
}

/*
 * Scheme 2's element hash of the values bloom_hash_pgext_quick covers and
 * of the integers scheme 2 widens to 64 bits, into *h; false otherwise.
 * bloom_hash.c's scheme 2 hashes these through this function.
 */
static pg_attribute_always_inline bool
bloom_hash_full64_quick(const BloomTypeInfo *ti, Datum value, uint64 seed, uint64 *h)
{
	switch (ti->kind2)
	{
		case BLOOM_HASH2_INT16:
			*h = bloom_hash_int64((uint64) (int64) DatumGetInt16(value), seed);
			return true;
		case BLOOM_HASH2_INT32:
			*h = bloom_hash_int64((uint64) (int64) DatumGetInt32(value), seed);
			return true;
		case BLOOM_HASH2_INT64:
			*h = bloom_hash_int64((uint64) DatumGetInt64(value), seed);
			return true;
		case BLOOM_HASH2_AS_SCHEME1:
			if (!bloom_hash_pgext_quick(ti, value, seed, h))
				return false;
			*h = bloom_mix64(*h);
			return true;
		default:
			return false;
	}
}

/*
 * Scheme 4's element hash of the byte-equality values stored in line and
 * of everything bloom_hash_full64_quick covers, into *h; false otherwise.
 * bloom_hash.c's scheme 4 hashes these through this function.
 */
static pg_attribute_always_inline bool
bloom_hash_xxh3_quick(const BloomTypeInfo *ti, Datum value, uint64 seed, uint64 *h)
{
	switch (ti->kind4)
	{
		case BLOOM_HASH4_BYTES:
			{
				const struct varlena *t = (const struct varlena *) DatumGetPointer(value);

				if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
					return false;	/* detoasted by bloom_hash_datum */
				*h = bloom_xxh3_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed);
				return true;
			}
		case BLOOM_HASH4_CHAR:
			{
				char		c = DatumGetChar(value);

				*h = bloom_xxh3_bytes(&c, 1, seed);
				return true;
			}
		case BLOOM_HASH4_UUID:
			*h = bloom_xxh3_bytes(DatumGetPointer(value), 16, seed);
			return true;
		case BLOOM_HASH4_AS_SCHEME2:
			return bloom_hash_full64_quick(ti, value, seed, h);
		default:
			return false;
	}
}

/*
 * The element hash of a non-null value under a filter's seed and scheme
 * into *h, where the functions above cover it (true); false sends the
 * caller to bloom_hash_datum.  For the per-row paths of the aggregates:
 * the common keys are hashed without a call (always inlined: a call would
 * take the address of *h, and with it a stack-protector check a row).
 */
static pg_attribute_always_inline bool
bloom_hash_datum_quick(const BloomTypeInfo *ti, Datum value, uint64 seed, int scheme,
					   uint64 *h)
{
	if (likely(scheme == BLOOM_SCHEME_XXH3))
		return bloom_hash_xxh3_quick(ti, value, seed, h);
	if (likely(scheme == BLOOM_SCHEME_FULL64))
		return bloom_hash_full64_quick(ti, value, seed, h);
	if (scheme == BLOOM_SCHEME_PGEXT && bloom_hash_pgext_quick(ti, value, seed, h))
	{
		*h = bloom_mix64(*h);
		return true;
	}
	return false;
}

/*
 * The element hash of a byte string hashed as text or bytea (token and
 * n-gram filters, bloomskip's text-search classes): the same in schemes 1,
 * 2 and 4 (scheme 4 changes the hash of whole values only, not of the
 * grams and tokens these filters keep).  Inline: an n-gram aggregate hashes
 * dozens of grams a row.
 */
static inline uint64
bloom_hash_bytes(const char *p, size_t len, uint64 seed)
{
	return bloom_mix64(bloom_bytes_hash(p, len, seed));
}

/* bloom_hash.c: values to element hashes */
extern void bloom_typeinfo_init(BloomTypeInfo *ti, Oid typid, Oid collation,
								MemoryContext mcxt);

/*
 * The family values described by ti have in a filter whose element family
 * is family: a Parquet filter's element family names the concrete type
 * ("parquet:int8"), every other one the hash operator family.
 */
static inline const char *
bloom_ti_family(const BloomTypeInfo *ti, const char *family)
{
	return strncmp(family, BLOOM_FAMILY_PARQUET, sizeof(BLOOM_FAMILY_PARQUET) - 1) == 0 ?
		ti->pq_family : ti->family;
}

/*
 * The Parquet scheme's value-to-hash part (bloom_parquet.c), which this
 * file dispatches to: bloom_parquet.c builds on this file, so it registers
 * its hooks when the module loads instead of being called by name.
 */
typedef struct BloomParquetHashing
{
	/* the "parquet:" family of base type base into family; false if none */
	bool		(*family_of) (Oid base, char *family);
	/* the element type of a "parquet:" family, or InvalidOid */
	Oid			(*family_type) (const char *family);
	/* the hashes of a key of base type typid into h; returns how many */
	int			(*key_hashes) (Oid typid, Datum value, uint64 *h);
} BloomParquetHashing;

extern void bloom_hash_set_parquet(const BloomParquetHashing *pq);
/* the hooks registered; bloom_convert.c asks them for a family's type */
extern const BloomParquetHashing *bloom_parquet_hooks(void);

/*
 * The most hashes one key has: a float zero or NaN of a Parquet filter has
 * one per encoding of its class (bloom_key_hashes), every other key one.
 */
#define BLOOM_KEY_MAX_HASHES	2
extern int	bloom_key_hashes(const BloomTypeInfo *ti, Datum value, uint64 seed,
							 int scheme, uint64 *h);
extern int	bloom_key_hashes_parquet(const BloomTypeInfo *ti, Datum value, uint64 *h);

extern uint64 bloom_hash_datum(const BloomTypeInfo *ti, Datum value,
							   uint64 seed, int scheme);

extern bool bloom_fast_hash_enabled;

#endif							/* BLOOMSET_BLOOM_HASH_H */
