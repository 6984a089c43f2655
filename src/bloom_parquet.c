/*-------------------------------------------------------------------------
 *
 * bloom_parquet.c
 *	  Filters that travel: the Parquet hashing scheme (BLOOM_SCHEME_PARQUET)
 *	  and the import and export of Parquet split-block filters.
 *
 * A filter of the Parquet scheme is a blocked bloom filter whose element
 * hashes are XXH64 (seed 0) of the value's Parquet PLAIN encoding, with no
 * further mixing: its bit array is exactly the bitset a Parquet writer puts
 * in a file (parquet_format.h).  The encoding depends on the Parquet
 * column's physical type, so such a filter records one concrete element
 * type, not a hash family: its element family is "parquet:<type>" with
 * <type> one of the PostgreSQL types below.  A value of another type is
 * converted to that type first (the typed-key conversion every filter uses),
 * so int4 5 and int8 5 -- equal in SQL -- probe an INT64 filter alike.
 *
 *	 PostgreSQL type            Parquet physical type (logical type)
 *	 int2, int4                 INT32, little-endian (INT(16/32))
 *	 int8                       INT64, little-endian (INT(64))
 *	 date                       INT32 days since 1970-01-01 (DATE)
 *	 timestamp, timestamptz     INT64 microseconds since 1970-01-01 00:00
 *	                            (TIMESTAMP(MICROS), local / adjusted to UTC)
 *	 float4                     FLOAT, IEEE 754 little-endian
 *	 float8                     DOUBLE, IEEE 754 little-endian
 *	 text, varchar              BYTE_ARRAY: the bytes, no length prefix
 *	 bytea                      BYTE_ARRAY: the bytes, no length prefix
 *	 uuid                       FIXED_LEN_BYTE_ARRAY(16) (UUID)
 *
 * Equality decides the hard cases.  Float 0.0 = -0.0 in SQL, but their
 * PLAIN bytes differ; every NaN is equal in SQL, whatever its payload.
 * bloomset hashes one canonical encoding per class (+0.0, the quiet NaN),
 * and keeps the filters it exchanges supersets of every encoding a Parquet
 * reader or writer may use: bloom_from_parquet adds +0.0 when the imported
 * filter may hold -0.0, and the canonical NaN always (another writer's NaN
 * payload cannot be probed for, so a NaN probe answers "maybe");
 * bloom_to_parquet adds -0.0 to the bytes when the filter holds +0.0, for
 * readers that probe -0.0 as it is (DuckDB 1.5.6 does).  Infinite dates and
 * timestamps have no Parquet encoding: adding one is an error, and a probe
 * answers false (no Parquet file holds one).  Text under a nondeterministic collation is
 * refused (equal strings would have different bytes).  Other types are an
 * error that lists these.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/uuid.h"

#include "parquet_format.h"

#define BLOOM_PARQUET_FAMILY	"parquet:"

/* days and microseconds from 1970-01-01 (Parquet) to 2000-01-01 (PostgreSQL) */
#define PARQUET_DATE_SHIFT		((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE))
#define PARQUET_USEC_SHIFT		(PARQUET_DATE_SHIFT * USECS_PER_DAY)

/* The Parquet encodings, by the PostgreSQL type they come from. */
typedef struct BloomParquetType
{
	Oid			typid;
	const char *name;			/* in the family: "parquet:" name */
	const char *parquet;		/* physical type, for messages and README */
} BloomParquetType;

static const BloomParquetType bloom_parquet_types[] = {
	{INT2OID, "int2", "INT32"},
	{INT4OID, "int4", "INT32"},
	{INT8OID, "int8", "INT64"},
	{DATEOID, "date", "INT32 (DATE)"},
	{TIMESTAMPOID, "timestamp", "INT64 (TIMESTAMP(MICROS))"},
	{TIMESTAMPTZOID, "timestamptz", "INT64 (TIMESTAMP(MICROS), UTC)"},
	{FLOAT4OID, "float4", "FLOAT"},
	{FLOAT8OID, "float8", "DOUBLE"},
	{TEXTOID, "text", "BYTE_ARRAY"},
	{VARCHAROID, "varchar", "BYTE_ARRAY"},
	{BYTEAOID, "bytea", "BYTE_ARRAY"},
	{UUIDOID, "uuid", "FIXED_LEN_BYTE_ARRAY(16)"},
};

#define BLOOM_PARQUET_NTYPES lengthof(bloom_parquet_types)

/* The entry of a (base) type, or NULL. */
static const BloomParquetType *
bloom_parquet_type(Oid typid)
{
	for (int i = 0; i < (int) BLOOM_PARQUET_NTYPES; i++)
		if (bloom_parquet_types[i].typid == typid)
			return &bloom_parquet_types[i];
	return NULL;
}

/* Error for a type without a Parquet encoding, listing those there are. */
static void
bloom_parquet_type_error(Oid typid)
{
	StringInfoData list;

	initStringInfo(&list);
	for (int i = 0; i < (int) BLOOM_PARQUET_NTYPES; i++)
		appendStringInfo(&list, "%s%s", i ? ", " : "", bloom_parquet_types[i].name);
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("type %s has no Parquet encoding for a Bloom filter",
					format_type_be(typid)),
			 errdetail("Parquet filters hash the PLAIN encoding of these types: %s.",
					   list.data),
			 errhint("Cast the values to one of them, or use a filter of bloomset's own scheme.")));
}

/*
 * The element family of a Parquet filter of values of typid (domains by
 * their base type), into family (BLOOM_FAMILY_LEN bytes, NUL padded).
 */
void
bloom_parquet_family(Oid typid, Oid collation, char *family)
{
	Oid			base = getBaseType(typid);
	const BloomParquetType *t = bloom_parquet_type(base);

	if (t == NULL)
		bloom_parquet_type_error(typid);
	if ((base == TEXTOID || base == VARCHAROID) && OidIsValid(collation) &&
		!get_collation_isdeterministic(collation))
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_COLLATION),
				 errmsg("a Parquet filter cannot hold text of a nondeterministic collation"),
				 errdetail("Strings equal under collation \"%s\" have different bytes, and Parquet filters hash the bytes.",
						   get_collation_name(collation)),
				 errhint("Use a deterministic collation (COLLATE \"C\"), or a filter of bloomset's own scheme.")));
	memset(family, 0, BLOOM_FAMILY_LEN);
	snprintf(family, BLOOM_FAMILY_LEN, "%s%s", BLOOM_PARQUET_FAMILY, t->name);
}

/* The element type of a Parquet family, or InvalidOid for another family. */
Oid
bloom_parquet_family_type(const char *family)
{
	size_t		plen = strlen(BLOOM_PARQUET_FAMILY);

	if (strncmp(family, BLOOM_PARQUET_FAMILY, plen) != 0)
		return InvalidOid;
	for (int i = 0; i < (int) BLOOM_PARQUET_NTYPES; i++)
		if (strcmp(family + plen, bloom_parquet_types[i].name) == 0)
			return bloom_parquet_types[i].typid;
	return InvalidOid;
}

/* XXH64 of a little-endian fixed-width value. */
static uint64
bloom_parquet_hash_le(uint64 v, int width)
{
	uint8		buf[8];

	for (int i = 0; i < width; i++)
		buf[i] = (uint8) (v >> (8 * i));
	return parquet_hash(buf, width);
}

/* XXH64 of a float's PLAIN bytes: the canonical encoding of its class */
static uint64
bloom_parquet_hash_float4(float4 f)
{
	uint32		bits;

	if (isnan(f))
		f = get_float4_nan();
	else if (f == 0.0f)
		f = 0.0f;				/* -0.0 = 0.0 */
	memcpy(&bits, &f, sizeof(bits));
	return bloom_parquet_hash_le(bits, 4);
}

static uint64
bloom_parquet_hash_float8(float8 f)
{
	uint64		bits;

	if (isnan(f))
		f = get_float8_nan();
	else if (f == 0.0)
		f = 0.0;
	memcpy(&bits, &f, sizeof(bits));
	return bloom_parquet_hash_le(bits, 8);
}

/*
 * The Parquet element hash of a non-null value of base type typid into *h;
 * false if the value has no Parquet encoding (an infinite date or
 * timestamp), so no Parquet filter can hold it.
 */
bool
bloom_parquet_hash_datum(Oid typid, Datum value, uint64 *h)
{
	switch (typid)
	{
		case INT2OID:
			*h = bloom_parquet_hash_le((uint32) (int32) DatumGetInt16(value), 4);
			return true;
		case INT4OID:
			*h = bloom_parquet_hash_le((uint32) DatumGetInt32(value), 4);
			return true;
		case INT8OID:
			*h = bloom_parquet_hash_le((uint64) DatumGetInt64(value), 8);
			return true;
		case DATEOID:
			{
				DateADT		d = DatumGetDateADT(value);

				if (DATE_NOT_FINITE(d))
					return false;
				*h = bloom_parquet_hash_le((uint32) (int32) (d + PARQUET_DATE_SHIFT), 4);
				return true;
			}
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			{
				Timestamp	t = DatumGetTimestamp(value);

				if (TIMESTAMP_NOT_FINITE(t))
					return false;
				/* PostgreSQL's range ends far below int64's: no overflow */
				*h = bloom_parquet_hash_le((uint64) (t + PARQUET_USEC_SHIFT), 8);
				return true;
			}
		case FLOAT4OID:
			*h = bloom_parquet_hash_float4(DatumGetFloat4(value));
			return true;
		case FLOAT8OID:
			*h = bloom_parquet_hash_float8(DatumGetFloat8(value));
			return true;
		case UUIDOID:
			*h = parquet_hash(DatumGetUUIDP(value)->data, UUID_LEN);
			return true;
		case TEXTOID:
		case VARCHAROID:
		case BYTEAOID:
			{
				struct varlena *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));

				*h = parquet_hash(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
				if ((Pointer) t != DatumGetPointer(value))
					pfree(t);
				return true;
			}
		default:
			bloom_parquet_type_error(typid);
			return false;		/* not reached */
	}
}

/*
 * The hashes of the non-canonical float encodings a filter exchanged with
 * Parquet readers and writers must stand for: -0.0 (raw) and its class's
 * canonical +0.0; the canonical NaN.  Zero for other element types.
 */
static int
bloom_parquet_float_classes(const BloomFilter *f, uint64 *neg_zero,
							uint64 *pos_zero, uint64 *nan)
{
	Oid			typid = bloom_parquet_family_type(f->family);
	uint32		b4;
	uint64		b8;

	if (typid == FLOAT4OID)
	{
		float4		z = -0.0f;

		memcpy(&b4, &z, sizeof(b4));
		*neg_zero = bloom_parquet_hash_le(b4, 4);
		*pos_zero = bloom_parquet_hash_float4(0.0f);
		*nan = bloom_parquet_hash_float4(get_float4_nan());
		return 4;
	}
	if (typid == FLOAT8OID)
	{
		float8		z = -0.0;

		memcpy(&b8, &z, sizeof(b8));
		*neg_zero = bloom_parquet_hash_le(b8, 8);
		*pos_zero = bloom_parquet_hash_float8(0.0);
		*nan = bloom_parquet_hash_float8(get_float8_nan());
		return 8;
	}
	return 0;
}

/* ---- SQL: import, export, empty filters --------------------------------- */

/* An empty Parquet-scheme filter of nbytes bytes (a multiple of 32). */
static BloomFilter *
bloom_parquet_alloc(size_t nbytes)
{
	BloomFilter *f = bloom_alloc(BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
								 (uint64) nbytes * 8, 0);

	f->scheme = BLOOM_SCHEME_PARQUET;
	return f;
}

/* bloom_parquet_empty(size_bytes integer): an empty filter of that bitset size */
PG_FUNCTION_INFO_V1(bloom_parquet_empty);
Datum
bloom_parquet_empty(PG_FUNCTION_ARGS)
{
	int32		size = PG_GETARG_INT32(0);

	if (size < PARQUET_BLOCK_BYTES || size % PARQUET_BLOCK_BYTES != 0 ||
		(size_t) size > BLOOM_MAX_BITS / 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("size_bytes must be a multiple of 32 from 32 to 268435456, not %d", size),
				 errdetail("A Parquet split-block filter is made of 32-byte blocks."),
				 errhint("Parquet writers use a power of two; bloom_parquet_empty(capacity, fpr) sizes one for you.")));
	PG_RETURN_BLOOM_P(bloom_parquet_alloc((size_t) size));
}

/*
 * bloom_parquet_empty(capacity bigint, fpr float8): an empty filter sized as
 * Parquet writers size theirs -- a power of two of bytes -- for capacity
 * distinct values at the rate fpr (the exact blocked model, not Arrow's
 * formula, which undersizes; see README).
 */
PG_FUNCTION_INFO_V1(bloom_parquet_empty_sized);
Datum
bloom_parquet_empty_sized(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	BloomSizing sz = bloom_sizing_checked(capacity, fpr, BLOOM_LAYOUT_BLOCKED, true);
	BloomFilter *f = bloom_parquet_alloc((size_t) (sz.nbits / 8));

	bloom_set_target_fpr(f, fpr);
	PG_RETURN_BLOOM_P(f);
}

/*
 * bloom_from_parquet(filter bytea, element_type regtype): the bitset of a
 * Parquet filter (with or without its Thrift header) as a filter of the
 * Parquet scheme for values of element_type.
 */
PG_FUNCTION_INFO_V1(bloom_from_parquet);
Datum
bloom_from_parquet(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	Oid			typid = PG_GETARG_OID(1);
	size_t		off,
				nbytes;
	const char *why = parquet_locate_bitset((const uint8 *) VARDATA_ANY(b),
											VARSIZE_ANY_EXHDR(b), &off, &nbytes);
	BloomFilter *f;

	if (why != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid Parquet Bloom filter"),
				 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1),
				 errhint("Pass the bytes at the column chunk's bloom_filter_offset (bloom_filter_length of them), or the bitset alone.")));
	f = bloom_parquet_alloc(nbytes);
	bloom_parquet_family(typid, InvalidOid, f->family);
	memcpy(f->words, (const uint8 *) VARDATA_ANY(b) + off, nbytes);
	{
		uint64		neg_zero,
					pos_zero,
					nan;

		/* a float filter stands for every encoding of a class: see above */
		if (bloom_parquet_float_classes(f, &neg_zero, &pos_zero, &nan))
		{
			if (bloom_test_hash(f, neg_zero))
				bloom_insert_hash(f, pos_zero);
			bloom_insert_hash(f, nan);
		}
	}
	/* the number of values is not in the bytes: estimate it from the fill */
	f->nitems = (uint64) bloom_estimate_items(f, bloom_popcount(f));
	PG_RETURN_BLOOM_P(f);
}

/*
 * bloom_to_parquet(bloom): the bytes a Parquet writer puts in a file for
 * this filter -- the Thrift header, then the bitset.
 */
PG_FUNCTION_INFO_V1(bloom_to_parquet);
Datum
bloom_to_parquet(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	size_t		nbytes = BLOOM_DATA_BYTES(f);
	uint8		hdr[PARQUET_HEADER_MAX];
	size_t		hlen;
	bytea	   *out;

	if (f->scheme != BLOOM_SCHEME_PARQUET)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("only a filter of the Parquet hashing scheme can be written as a Parquet filter"),
				 errdetail("This filter hashes values with bloomset's scheme %d; Parquet readers hash the PLAIN encoding with XXH64.",
						   f->scheme),
				 errhint("Build it with bloom_parquet_agg(x, capacity, fpr), or add the values to bloom_parquet_empty(...).")));
	hlen = parquet_encode_header(nbytes, hdr);
	out = (bytea *) palloc(VARHDRSZ + hlen + nbytes);
	SET_VARSIZE(out, VARHDRSZ + hlen + nbytes);
	memcpy(VARDATA(out), hdr, hlen);
	{
		/* the bitset, with -0.0 wherever +0.0 may be (for readers) */
		BloomFilter *g = bloom_copy(f);
		uint64		neg_zero,
					pos_zero,
					nan;

		if (bloom_parquet_float_classes(g, &neg_zero, &pos_zero, &nan) &&
			bloom_test_hash(g, pos_zero))
			bloom_insert_hash(g, neg_zero);
		memcpy(VARDATA(out) + hlen, g->words, nbytes);
	}
	PG_RETURN_BYTEA_P(out);
}
