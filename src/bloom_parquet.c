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
 * PLAIN bytes differ, and so do those of NaNs, all equal in SQL.  A key of
 * such a class has a hash per encoding a writer may use (bloom_key_hashes
 * in bloom_hash.c: both zeros; the positive and the negative quiet NaN):
 * adding one sets them all, so a filter bloomset builds answers readers that
 * probe any of them; a probe answers "maybe" when the filter holds any of
 * them, so a filter written elsewhere finds 0.0 where -0.0 was hashed.  The
 * bitsets exchanged are therefore kept exactly as they are:
 * bloom_from_parquet takes the bitset as it is and bloom_to_parquet writes
 * it as it is, so a filter imported and exported again has the bitset it
 * was read with (and, from a writer that encodes the header as Parquet's
 * own Thrift code does, the same header bytes).  Infinite dates and timestamps have no Parquet encoding:
 * adding one is an error, and a probe answers false (no Parquet file holds
 * one).  Text under a nondeterministic collation is refused (equal strings
 * would have different bytes).  Other types are an error that lists these.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_parquet.h"
#include "bloom_datum.h"
#include "bloom_hash.h"
#include "bloom_type.h"

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"
#include "utils/uuid.h"

#include "core/parquet_format.h"

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

/* ---- SQL: import, export, empty filters --------------------------------- */

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
void
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
