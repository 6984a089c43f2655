/*-------------------------------------------------------------------------
 *
 * bloom_parquet.c
 *	  Filters that travel: all of Parquet's SQL side over the PostgreSQL-free
 *	  format of core/parquet_format.c -- the Parquet hashing scheme
 *	  (BLOOM_SCHEME_PARQUET), empty filters, bloom_parquet_agg, and the
 *	  import and export of Parquet split-block filters.
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
 * PLAIN bytes differ, and so do those of NaNs, all equal in SQL.  A key of
 * such a class has a hash per encoding a writer may use
 * (bloom_parquet_key_hashes: both zeros; the positive and the negative
 * quiet NaN): adding one sets them all, so a filter bloomset builds answers
 * readers that probe any of them; a probe answers "maybe" when the filter
 * holds any of them, so a filter written elsewhere finds 0.0 where -0.0
 * was hashed.  The bitsets exchanged are therefore kept exactly as they
 * are: bloom_from_parquet takes the bitset as it is and bloom_to_parquet
 * writes it as it is, so a filter imported and exported again has the
 * bitset it was read with (and, from a writer that encodes the header as
 * Parquet's own Thrift code does, the same header bytes).  Infinite dates
 * and timestamps have no Parquet encoding: adding one is an error, and a
 * probe answers false (no Parquet file holds one).  Text under a
 * nondeterministic collation is refused (equal strings would have
 * different bytes).  Other types are an error that lists these.
 *
 * The value-to-hash part is reached by bloom_hash.c's scheme switch, which
 * every filter's add and probe go through; since this file builds on
 * bloom_hash.c (and on the datum, type and aggregate layers above it), it
 * hands that part over as hooks when the module loads
 * (bloom_parquet_register) rather than being called by name: the modules
 * stay a graph without cycles (scripts/import_graph.py).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_parquet.h"
#include "../agg/bloom_agg.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../bloom/bloom_type.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "../core/parquet_format.h"

/* ---- the encodings: types, families, element hashes -------------------- */

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
 * The "parquet:" element family of values of base type base into family
 * (BLOOM_FAMILY_LEN bytes, NUL padded); false, and family all zero, when
 * the type has no Parquet encoding.
 */
static bool
bloom_parquet_family_of(Oid base, char *family)
{
	const BloomParquetType *t = bloom_parquet_type(base);

	memset(family, 0, BLOOM_FAMILY_LEN);
	if (t == NULL)
		return false;
	snprintf(family, BLOOM_FAMILY_LEN, "%s%s", BLOOM_FAMILY_PARQUET, t->name);
	return true;
}

/* The element type of a Parquet family, or InvalidOid for another family. */
static Oid
bloom_parquet_family_type(const char *family)
{
	size_t		plen = strlen(BLOOM_FAMILY_PARQUET);

	if (strncmp(family, BLOOM_FAMILY_PARQUET, plen) != 0)
		return InvalidOid;
	for (int i = 0; i < (int) BLOOM_PARQUET_NTYPES; i++)
		if (strcmp(family + plen, bloom_parquet_types[i].name) == 0)
			return bloom_parquet_types[i].typid;
	return InvalidOid;
}

/*
 * The PLAIN encodings of the float values SQL equality merges and Parquet's
 * bytes do not: 0.0 and -0.0; and the two quiet NaNs writers produce, the
 * positive one of a NaN literal (C's NAN, Java's Double.NaN, DuckDB's
 * 'NaN') and the negative one x86 arithmetic yields (0.0 / 0.0).  DuckDB
 * 1.5.6 hashes each as its bytes.  The first of each pair is the encoding
 * scheme 3 has hashed for the class since 1.2.  A NaN with another payload
 * (a signalling NaN, R's NA) is not among them: a writer that hashes one
 * as it is cannot be probed for it.
 */
static const uint64 bloom_pq_float8_zero[BLOOM_KEY_MAX_HASHES] =
{UINT64CONST(0), UINT64CONST(0x8000000000000000)};
static const uint64 bloom_pq_float8_nan[BLOOM_KEY_MAX_HASHES] =
{UINT64CONST(0x7ff8000000000000), UINT64CONST(0xfff8000000000000)};
static const uint64 bloom_pq_float4_zero[BLOOM_KEY_MAX_HASHES] =
{0, 0x80000000};
static const uint64 bloom_pq_float4_nan[BLOOM_KEY_MAX_HASHES] =
{0x7fc00000, 0xffc00000};

/* The hashes of every encoding in one of the classes above into h. */
static int
bloom_parquet_hash_class(const uint64 *enc, int width, uint64 *h)
{
	for (int i = 0; i < BLOOM_KEY_MAX_HASHES; i++)
		h[i] = parquet_hash_fixed(enc[i], width);
	return BLOOM_KEY_MAX_HASHES;
}

/*
 * The hashes of a float4 or float8 key of a Parquet filter into h (room for
 * BLOOM_KEY_MAX_HASHES): two for 0.0 or -0.0 and for NaN (the encodings
 * of its class above), one -- its own bytes -- for every other value.
 */
static int
bloom_parquet_float_hashes(Oid typid, Datum value, uint64 *h)
{
	if (typid == FLOAT4OID)
	{
		float4		f = DatumGetFloat4(value);
		uint32		bits;

		if (isnan(f))
			return bloom_parquet_hash_class(bloom_pq_float4_nan, 4, h);
		if (f == 0.0f)
			return bloom_parquet_hash_class(bloom_pq_float4_zero, 4, h);
		memcpy(&bits, &f, sizeof(bits));
		h[0] = parquet_hash_fixed(bits, 4);
		return 1;
	}
	else
	{
		float8		f = DatumGetFloat8(value);
		uint64		bits;

		Assert(typid == FLOAT8OID);
		if (isnan(f))
			return bloom_parquet_hash_class(bloom_pq_float8_nan, 8, h);
		if (f == 0.0)
			return bloom_parquet_hash_class(bloom_pq_float8_zero, 8, h);
		memcpy(&bits, &f, sizeof(bits));
		h[0] = parquet_hash_fixed(bits, 8);
		return 1;
	}
}

/* Error for an infinite date or timestamp: Parquet has no encoding for it. */
static void
bloom_parquet_infinite_error(Oid typid)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("an infinite %s has no Parquet encoding", format_type_be(typid)),
			 errdetail("Parquet stores dates and timestamps as days and microseconds since 1970; no Parquet file holds infinity."),
			 errhint("Leave infinite values out of Parquet filters and their probes (WHERE isfinite(...)).")));
}

/*
 * The Parquet element hash of a finite date (INT32 days since 1970) or
 * timestamp (INT64 microseconds since 1970); an error for an infinite one.
 */
static uint64
bloom_parquet_hash_datetime(Oid typid, Datum value)
{
	if (typid == DATEOID)
	{
		DateADT		d = DatumGetDateADT(value);

		if (DATE_NOT_FINITE(d))
			bloom_parquet_infinite_error(typid);
		return parquet_hash_fixed((uint32) (int32) (d + PARQUET_DATE_SHIFT), 4);
	}
	else
	{
		Timestamp	t = DatumGetTimestamp(value);

		if (TIMESTAMP_NOT_FINITE(t))
			bloom_parquet_infinite_error(typid);
		/* PostgreSQL's range ends far below int64's: no overflow */
		return parquet_hash_fixed((uint64) (t + PARQUET_USEC_SHIFT), 8);
	}
}

/*
 * The Parquet element hashes (XXH64 of the PLAIN encoding) of a non-null
 * key of base type typid, one of bloom_parquet_types, into h (room for
 * BLOOM_KEY_MAX_HASHES); returns how many: two for a float zero or NaN
 * (bloom_parquet_float_hashes), one for every other key.
 */
static int
bloom_parquet_key_hashes(Oid typid, Datum value, uint64 *h)
{
	switch (typid)
	{
		case INT2OID:
			h[0] = parquet_hash_fixed((uint32) (int32) DatumGetInt16(value), 4);
			return 1;
		case INT4OID:
			h[0] = parquet_hash_fixed((uint32) DatumGetInt32(value), 4);
			return 1;
		case INT8OID:
			h[0] = parquet_hash_fixed((uint64) DatumGetInt64(value), 8);
			return 1;
		case DATEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			h[0] = bloom_parquet_hash_datetime(typid, value);
			return 1;
		case FLOAT4OID:
		case FLOAT8OID:
			return bloom_parquet_float_hashes(typid, value, h);
		case UUIDOID:
			h[0] = parquet_hash(DatumGetUUIDP(value)->data, UUID_LEN);
			return 1;
		case TEXTOID:
		case VARCHAROID:
		case BYTEAOID:
			{
				struct varlena *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value));

				h[0] = parquet_hash(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
				if ((Pointer) t != DatumGetPointer(value))
					pfree(t);
				return 1;
			}
		default:
			bloom_parquet_type_error(typid);
			return 0;			/* not reached */
	}
}

/* What bloom_hash.c's scheme switch calls (bloom_parquet_register). */
static const BloomParquetHashing bloom_parquet_hashing = {
	.family_of = bloom_parquet_family_of,
	.family_type = bloom_parquet_family_type,
	.key_hashes = bloom_parquet_key_hashes,
};

/* Hand the Parquet scheme's hashing to bloom_hash.c (module load). */
void
bloom_parquet_register(void)
{
	bloom_hash_set_parquet(&bloom_parquet_hashing);
}

/* ---- SQL: import, export, empty filters --------------------------------- */

/*
 * The family of a Parquet filter for values of typid (domains by their
 * base type) under collation; an error for types without a Parquet
 * encoding and for text under a nondeterministic collation.
 */
static void
bloom_parquet_family(Oid typid, Oid collation, char *family)
{
	Oid			base;

	/* a regtype argument may hold any number, not only a type's */
	if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(typid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("type with OID %u does not exist", typid),
				 errhint("Pass the element type of the Parquet column, e.g. 'bigint'::regtype.")));
	base = getBaseType(typid);

	if (!bloom_parquet_family_of(base, family))
		bloom_parquet_type_error(typid);
	if ((base == TEXTOID || base == VARCHAROID) && OidIsValid(collation) &&
		!get_collation_isdeterministic(collation))
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_COLLATION),
				 errmsg("a Parquet filter cannot hold text of a nondeterministic collation"),
				 errdetail("Strings equal under collation \"%s\" have different bytes, and Parquet filters hash the bytes.",
						   get_collation_name(collation)),
				 errhint("Use a deterministic collation (COLLATE \"C\"), or a filter of bloomset's own scheme.")));
}

/*
 * The header of an empty Parquet filter of nbits bits for values of typid
 * (under collation).
 */
static void
bloom_parquet_init(BloomFilter *hdr, uint64 nbits, Oid typid, Oid collation)
{
	bloom_init_header(hdr, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES, nbits, 0);
	hdr->scheme = BLOOM_SCHEME_PARQUET;
	bloom_parquet_family(typid, collation, hdr->family);
}

/*
 * The header of an empty Parquet filter sized as Parquet writers size
 * theirs -- a power of two of bytes -- for capacity distinct values of
 * typid at the rate fpr, by the exact blocked model (Arrow's formula
 * undersizes: see README); fpr is recorded as its target.
 */
static void
bloom_parquet_sized_header(BloomFilter *hdr, int64 capacity, double fpr,
						   Oid typid, Oid collation)
{
	BloomSizing sz = bloom_sizing_checked(capacity, fpr, BLOOM_LAYOUT_BLOCKED, true);

	bloom_parquet_init(hdr, sz.nbits, typid, collation);
	bloom_set_target_fpr(hdr, fpr);
}

/* bloom_parquet_empty(size_bytes integer, element_type regtype) */
PG_FUNCTION_INFO_V1(bloom_parquet_empty);
Datum
bloom_parquet_empty(PG_FUNCTION_ARGS)
{
	int32		size = PG_GETARG_INT32(0);
	BloomFilter hdr;

	if (size < PARQUET_BLOCK_BYTES || size % PARQUET_BLOCK_BYTES != 0 ||
		(uint64) size > BLOOM_MAX_BITS / 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("size_bytes must be a multiple of 32 from 32 to %llu, not %d",
						(unsigned long long) (BLOOM_MAX_BITS / 8), size),
				 errdetail("A Parquet split-block filter is made of 32-byte blocks."),
				 errhint("Parquet writers use a power of two; bloom_parquet_empty(capacity, fpr, element_type) sizes one for you.")));
	bloom_parquet_init(&hdr, (uint64) size * 8, PG_GETARG_OID(1), InvalidOid);
	PG_RETURN_BLOOM_P(bloom_alloc_like(CurrentMemoryContext, &hdr, hdr.nbits));
}

/* bloom_parquet_empty(capacity bigint, fpr float8, element_type regtype) */
PG_FUNCTION_INFO_V1(bloom_parquet_empty_sized);
Datum
bloom_parquet_empty_sized(PG_FUNCTION_ARGS)
{
	BloomFilter hdr;

	bloom_parquet_sized_header(&hdr, PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
							   PG_GETARG_OID(2), InvalidOid);
	PG_RETURN_BLOOM_P(bloom_alloc_like(CurrentMemoryContext, &hdr, hdr.nbits));
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
	{
		BloomFilter hdr;

		bloom_parquet_init(&hdr, (uint64) nbytes * 8, typid, InvalidOid);
		f = bloom_alloc_like(CurrentMemoryContext, &hdr, hdr.nbits);
	}
	memcpy(f->words, (const uint8 *) VARDATA_ANY(b) + off, nbytes);
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
				 errhint("Build it with bloom_parquet_agg(x, capacity, fpr), or add the values to bloom_parquet_empty(capacity, fpr, element_type).")));
	hlen = parquet_encode_header(nbytes, hdr);
	out = (bytea *) palloc(VARHDRSZ + hlen + nbytes);
	SET_VARSIZE(out, VARHDRSZ + hlen + nbytes);
	memcpy(VARDATA(out), hdr, hlen);
	memcpy(VARDATA(out) + hlen, f->words, nbytes);
	PG_RETURN_BYTEA_P(out);
}

/* ---- SQL: the aggregate (bloom_agg.c's engine, the bloom kind) ----------- */

/*
 * The filter of bloom_parquet_agg(x, capacity, fpr): Parquet's scheme and
 * power-of-two sizing, for the argument's type (a BloomAggMake).
 */
static void *
bloom_make_parquet(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	BloomFilter hdr;
	Oid			typid = bloom_agg_argtype(fcinfo, 1);

	bloom_agg_args_given(fcinfo, 2, "bloom_parquet_agg", "capacity and false-positive rate");
	bloom_parquet_sized_header(&hdr, PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3),
							   typid, bloom_agg_collation(fcinfo, typid));
	return bloom_alloc_like(aggcxt, &hdr, hdr.nbits);
}

/* bloom_parquet_agg(anyelement, capacity bigint, fpr float8) */
PG_FUNCTION_INFO_V1(bloom_parquet_agg_trans);
Datum
bloom_parquet_agg_trans(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &bloom_plain_ops, bloom_make_parquet, "bloom_parquet_agg");
}

/*
 * bloom_parquet_agg(T, capacity, fpr) for the key types with aggregates of
 * their own, over the bloom_agg_state type (bloom_agg_state.c), which Citus
 * splits; its combine and final are bloom_agg's.
 */
PG_FUNCTION_INFO_V1(bloom_parquet_agg_state_add);
Datum
bloom_parquet_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_apply(fcinfo, &bloom_plain_ops, bloom_make_parquet, "bloom_parquet_agg");
}
