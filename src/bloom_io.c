/*-------------------------------------------------------------------------
 *
 * bloom_io.c
 *	  Allocation, validation and the I/O functions of the bloom type: text
 *	  in/out, binary send/recv, and fetching filter datums (with a per-call-
 *	  site cache for filters stored out of line).
 *
 * Every path that turns outside bytes into a filter (bloom_in, bloom_recv,
 * the aggregates' deserialization) validates every header field with
 * bloom_check_header() and checks that the length matches the header
 * before anything reads the bit array; stored datums are checked again
 * cheaply (header and length) whenever they are fetched.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <sys/mman.h>

#include "access/detoast.h"
#include "libpq/pqformat.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(bloom_in);
PG_FUNCTION_INFO_V1(bloom_out);
PG_FUNCTION_INFO_V1(bloom_recv);
PG_FUNCTION_INFO_V1(bloom_send);
PG_FUNCTION_INFO_V1(bloom_from_bytea);

/* A zeroed filter with the given parameters (validated by the caller). */
BloomFilter *
bloom_alloc(int layout, int nhashes, uint64 nbits, uint64 seed)
{
	BloomFilter *f;

	Assert(nbits >= BLOOM_MIN_BITS && nbits <= BLOOM_MAX_BITS);
	f = (BloomFilter *) palloc0(BLOOM_TOTAL_SIZE(nbits));
	SET_VARSIZE(f, BLOOM_TOTAL_SIZE(nbits));
	bloom_init_header(f, layout, nhashes, nbits, seed);
	return f;
}

/*
 * Filters from 4 MiB up get their bit array aligned to 2 MiB and advised
 * to use transparent huge pages: a probe of a large filter then costs one
 * cache miss instead of a cache miss plus a TLB miss.
 */
#define BLOOM_HUGEPAGE_SIZE		(2 * 1024 * 1024)
#define BLOOM_HUGEPAGE_MIN		(4 * 1024 * 1024)

/*
 * Uninitialised room for a filter of nbits in cxt (see above), its bit
 * array aligned to a cache line at least; *raw gets the chunk to pfree,
 * which differs from the result.
 */
BloomFilter *
bloom_alloc_large(MemoryContext cxt, uint64 nbits, void **raw)
{
	size_t		total = BLOOM_TOTAL_SIZE(nbits);
	char	   *p;
	uintptr_t	words;

	if (total < BLOOM_HUGEPAGE_MIN)
	{
		/* still align the bits to a cache line: 32-byte blocks never straddle */
		p = MemoryContextAlloc(cxt, total + PG_CACHE_LINE_SIZE);
		*raw = p;
		words = TYPEALIGN(PG_CACHE_LINE_SIZE, (uintptr_t) p + BLOOM_HEADER_SIZE);
		return (BloomFilter *) (words - BLOOM_HEADER_SIZE);
	}
	p = MemoryContextAlloc(cxt, total + BLOOM_HUGEPAGE_SIZE);
	*raw = p;
	words = TYPEALIGN(BLOOM_HUGEPAGE_SIZE, (uintptr_t) p + BLOOM_HEADER_SIZE);
#ifdef MADV_HUGEPAGE
	(void) madvise((void *) words, TYPEALIGN_DOWN(BLOOM_HUGEPAGE_SIZE, nbits / 8),
				   MADV_HUGEPAGE);
#endif
	return (BloomFilter *) (words - BLOOM_HEADER_SIZE);
}

/* A copy of f in cxt, laid out by bloom_alloc_large. */
BloomFilter *
bloom_copy_large(MemoryContext cxt, const BloomFilter *f, void **raw)
{
	BloomFilter *c = bloom_alloc_large(cxt, f->nbits, raw);

	memcpy(c, f, VARSIZE(f));
	return c;
}

/* A palloc'd copy of f. */
BloomFilter *
bloom_copy(const BloomFilter *f)
{
	BloomFilter *c = (BloomFilter *) palloc(VARSIZE(f));

	memcpy(c, f, VARSIZE(f));
	return c;
}

/*
 * Check a stored filter whose varlena size is size: the fields memory
 * safety depends on, and the length (input paths check every field with
 * bloom_check_header before a value is ever stored).
 */
void
bloom_validate(const BloomFilter *f, size_t size, int sqlerrcode)
{
	const char *why = NULL;

	if (size < BLOOM_HEADER_SIZE)
		why = "the value is shorter than a filter header";
	else if ((why = bloom_check_shape(f)) == NULL &&
			 size != BLOOM_TOTAL_SIZE(f->nbits))
		why = "the length of the bit array does not match the header";
	if (why != NULL)
		ereport(ERROR,
				(errcode(sqlerrcode),
				 errmsg("invalid bloom filter value"),
				 errdetail("%s.", why)));
}

/*
 * Raise sqlerrcode unless f's layout belongs to the SQL type in use:
 * counting_bloom for the counting layout, bloom for the others.
 */
void
bloom_require_kind(const BloomFilter *f, bool counting, int sqlerrcode)
{
	bool		ok = counting ? f->layout == BLOOM_LAYOUT_COUNTING
		: (f->layout == BLOOM_LAYOUT_CLASSIC || f->layout == BLOOM_LAYOUT_BLOCKED);

	if (!ok)
		ereport(ERROR,
				(errcode(sqlerrcode),
				 errmsg("a %s filter is not a %s value",
						bloom_layout_name(f->layout),
						counting ? "counting_bloom" : "bloom"),
				 errhint("Classic and blocked filters are bloom values, counting filters counting_bloom, scalable filters scalable_bloom.")));
}

/* Detoast and check a datum of either type (for output functions). */
BloomFilter *
bloom_from_datum_any(Datum d)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(d);

	bloom_validate(f, VARSIZE(f), ERRCODE_DATA_CORRUPTED);
	return f;
}

/* Detoast and check a datum of the given kind (BLOOM_KIND_*). */
BloomFilter *
bloom_from_datum_kind(Datum d, int kind)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(d);

	if (kind == BLOOM_KIND_SCALABLE)
	{
		const char *why = bloom_scalable_check(f, VARSIZE(f));

		if (why != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("invalid scalable bloom filter value"),
					 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1)));
		return f;
	}
	bloom_validate(f, VARSIZE(f), ERRCODE_DATA_CORRUPTED);
	bloom_require_kind(f, kind == BLOOM_KIND_COUNTING, ERRCODE_DATA_CORRUPTED);
	return f;
}

/* Detoast and check a bloom datum. */
BloomFilter *
bloom_from_datum(Datum d)
{
	return bloom_from_datum_kind(d, BLOOM_KIND_PLAIN);
}

/* Is argument argnum of the call a plan constant (a Const node)? */
static bool
bloom_arg_is_const(FmgrInfo *flinfo, int argnum)
{
	Node	   *expr = flinfo->fn_expr;
	List	   *args;

	if (expr == NULL)
		return false;
	if (IsA(expr, FuncExpr))
		args = ((FuncExpr *) expr)->args;
	else if (IsA(expr, OpExpr))
		args = ((OpExpr *) expr)->args;
	else
		return false;
	return argnum < list_length(args) && IsA(list_nth(args, argnum), Const);
}

/* Replace the call site's cached filter with a large-page copy of d's. */
static BloomFilter *
bloom_cache_filter(FunctionCallInfo fcinfo, BloomCallCache *cache, Datum d,
				   int kind)
{
	BloomFilter *f = bloom_from_datum_kind(d, kind);

	if (cache->raw != NULL)
		pfree(cache->raw);
	cache->raw = NULL;
	cache->filter = NULL;
	cache->filter = bloom_copy_large(fcinfo->flinfo->fn_mcxt, f, &cache->raw);
	cache->checked = NULL;
	if ((Pointer) f != DatumGetPointer(d))
		pfree(f);
	return cache->filter;
}

/* Remember the compressed in-line datum attr as the cache key. */
static void
bloom_cache_set_key(FunctionCallInfo fcinfo, BloomCallCache *cache,
					const struct varlena *attr)
{
	if (cache->key != NULL)
		pfree(cache->key);
	cache->key = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, VARSIZE_ANY(attr));
	memcpy(cache->key, attr, VARSIZE_ANY(attr));
}

/*
 * Like bloom_from_datum_kind, for the filter argument of a probe, without
 * decompressing or copying the filter once per row:
 *  - a filter stored out of line is detoasted once per call site and kept
 *	  in fn_extra, keyed by its TOAST pointer (toast relation and value OID
 *	  identify the stored value whichever row carries the pointer: a scalar
 *	  subquery passes the same pointer on every row, a join a new one);
 *  - a compressed in-line filter is decompressed once and keyed by its
 *	  compressed bytes (compared in full: at most a few kB, and an address
 *	  can be reused for another value, so the pointer alone is no key);
 *  - a Const (a plan constant cannot change while the call site lives; a
 *	  Param can, e.g. a PL/pgSQL variable) is validated once, and copied
 *	  once if it is large (for the large-page layout) or not a plain
 *	  in-line value;
 *  - anything else is used in place: in-line values cost nothing to fetch.
 */
BloomFilter *
bloom_from_datum_cached_kind(FunctionCallInfo fcinfo, Datum d, int kind)
{
	struct varlena *attr = (struct varlena *) DatumGetPointer(d);
	BloomCallCache *cache = bloom_call_cache(fcinfo);
	BloomFilter *hit = bloom_cache_lookup(cache, d);
	struct varatt_external ptr;

	if (hit != NULL)
		return hit;
	if (VARATT_IS_EXTERNAL_ONDISK(attr))
	{
		VARATT_EXTERNAL_GET_POINTER(ptr, attr);
		cache->toastrelid = ptr.va_toastrelid;
		cache->valueid = ptr.va_valueid;
		return bloom_cache_filter(fcinfo, cache, d, kind);
	}
	cache->toastrelid = InvalidOid;
	if (VARATT_IS_COMPRESSED(attr))
	{
		if (cache->filter != NULL && cache->key != NULL &&
			VARSIZE_ANY(cache->key) == VARSIZE_ANY(attr) &&
			memcmp(cache->key, attr, VARSIZE_ANY(attr)) == 0)
			return cache->filter;
		bloom_cache_set_key(fcinfo, cache, attr);
		return bloom_cache_filter(fcinfo, cache, d, kind);
	}
	if (bloom_arg_is_const(fcinfo->flinfo, 0))
	{
		cache->const_filter = true;
		if (VARATT_IS_4B_U(attr) && VARSIZE(attr) < BLOOM_HUGEPAGE_MIN)
		{
			cache->filter = bloom_from_datum_kind(d, kind);	/* in place */
			cache->checked = NULL;
			return cache->filter;
		}
		return bloom_cache_filter(fcinfo, cache, d, kind);
	}
	return bloom_from_datum_kind(d, kind);
}

/* bloom_from_datum_cached_kind for a bloom argument. */
BloomFilter *
bloom_from_datum_cached(FunctionCallInfo fcinfo, Datum d)
{
	return bloom_from_datum_cached_kind(fcinfo, d, BLOOM_KIND_PLAIN);
}

/* Raise invalid_text_representation for input str, with a reason. */
static void
bloom_syntax_error(const char *str, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type bloom: \"%.60s%s\"",
					str, strlen(str) > 60 ? "..." : ""),
			 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1),
			 errhint("The text form is \"bloom:v1 layout=... k=... seed=... bits=... items=... flags=... coll=... family=... hex=...\", as bloom_out writes it.")));
}

/* The text input of the three types, before the layout is checked. */
BloomFilter *
bloom_parse_any_text(char *str)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *hex;
	const char *why;

	if ((why = bloom_text_decode_header(str, &hdr, &hex)) != NULL)
		bloom_syntax_error(str, why);
	if (strlen(hex) != 2 * BLOOM_DATA_BYTES(&hdr))
		bloom_syntax_error(str, "the bit array does not have the length the header gives");
	f = bloom_alloc(hdr.layout, hdr.nhashes, hdr.nbits, hdr.seed);
	memcpy(((char *) f) + VARHDRSZ, ((char *) &hdr) + VARHDRSZ,
		   BLOOM_HEADER_SIZE - VARHDRSZ);
	if ((why = bloom_text_decode_bits(hex, f)) != NULL ||
		(why = bloom_check_bits(f)) != NULL)
		bloom_syntax_error(str, why);
	return f;
}

/* The text input of bloom (counting: counting_bloom). */
BloomFilter *
bloom_parse_text(char *str, bool counting)
{
	BloomFilter *f = bloom_parse_any_text(str);

	bloom_require_kind(f, counting, ERRCODE_INVALID_TEXT_REPRESENTATION);
	return f;
}

/* bloom_in(cstring) -> bloom */
Datum
bloom_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_text(PG_GETARG_CSTRING(0), false));
}

/* bloom_out(bloom) -> cstring */
Datum
bloom_out(PG_FUNCTION_ARGS)
{
	BloomFilter *f = bloom_from_datum_any(PG_GETARG_DATUM(0));
	char	   *out = palloc(bloom_text_size(f));

	bloom_text_encode(f, out);
	PG_RETURN_CSTRING(out);
}

/* Raise the error for a filter whose bits contradict its header. */
static void
bloom_check_payload(const BloomFilter *f, const char *errmsg_text)
{
	const char *why = bloom_check_bits(f);

	if (why != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("%s", errmsg_text),
				 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1)));
}

/* Append f in the binary form: wire header, then the bit array. */
void
bloom_wire_append(StringInfo buf, const BloomFilter *f)
{
	uint8		hdr[BLOOM_WIRE_HEADER_SIZE];

	bloom_wire_encode_header(f, hdr);
	appendBinaryStringInfo(buf, (const char *) hdr, BLOOM_WIRE_HEADER_SIZE);
	appendBinaryStringInfo(buf, (const char *) f->words, (int) BLOOM_DATA_BYTES(f));
}

/*
 * A filter in cxt from its binary form (exactly len bytes), validated;
 * otherwise invalid_binary_representation with message errmsg_text.
 */
static BloomFilter *
bloom_wire_read_impl(const uint8 *p, size_t len, MemoryContext cxt,
					 const char *errmsg_text, bool large)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *why;
	void	   *raw;

	if ((why = bloom_wire_decode_header(p, len, &hdr)) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("%s", errmsg_text),
				 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1)));
	if (large)
		f = bloom_alloc_large(cxt, hdr.nbits, &raw);
	else
		f = MemoryContextAlloc(cxt, BLOOM_TOTAL_SIZE(hdr.nbits));
	memcpy(f, &hdr, BLOOM_HEADER_SIZE);
	SET_VARSIZE(f, BLOOM_TOTAL_SIZE(hdr.nbits));
	memcpy(f->words, p + BLOOM_WIRE_HEADER_SIZE, BLOOM_DATA_BYTES(f));
	bloom_check_payload(f, errmsg_text);
	return f;
}

BloomFilter *
bloom_wire_read(const uint8 *p, size_t len, MemoryContext cxt,
				const char *errmsg_text)
{
	return bloom_wire_read_impl(p, len, cxt, errmsg_text, false);
}

/*
 * The same, laid out by bloom_alloc_large (huge pages from 4 MiB): for
 * aggregate states, which live until their context is reset and are never
 * pfree'd on their own.
 */
BloomFilter *
bloom_wire_read_large(const uint8 *p, size_t len, MemoryContext cxt,
					  const char *errmsg_text)
{
	return bloom_wire_read_impl(p, len, cxt, errmsg_text, true);
}

/* The binary input of both types (counting: counting_bloom). */
BloomFilter *
bloom_parse_wire(StringInfo buf, bool counting)
{
	BloomFilter *f = bloom_wire_read((const uint8 *) buf->data + buf->cursor,
									 (size_t) (buf->len - buf->cursor),
									 CurrentMemoryContext,
									 "invalid external bloom filter value");

	bloom_require_kind(f, counting, ERRCODE_INVALID_BINARY_REPRESENTATION);
	buf->cursor = buf->len;
	return f;
}

/* bloom_recv(internal) -> bloom: every field validated like bloom_in. */
Datum
bloom_recv(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_wire((StringInfo) PG_GETARG_POINTER(0), false));
}

/*
 * f in the binary form as a bytea (send functions, aggregate serialization),
 * allocated once at its full size.
 */
bytea *
bloom_wire_bytea(const BloomFilter *f)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	enlargeStringInfo(&buf, BLOOM_WIRE_HEADER_SIZE + (int) BLOOM_DATA_BYTES(f));
	bloom_wire_append(&buf, f);
	return pq_endtypsend(&buf);
}

/* bloom_send(bloom) -> bytea */
Datum
bloom_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bloom_wire_bytea(bloom_from_datum_any(PG_GETARG_DATUM(0))));
}

/*
 * bloom_from_bytea(bytea) -> bloom: a filter from its binary (send) form,
 * validated exactly like bloom_recv; the inverse is the bloom_send cast.
 */
Datum
bloom_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;

	buf.data = VARDATA_ANY(b);
	buf.len = VARSIZE_ANY_EXHDR(b);
	buf.cursor = 0;
	PG_RETURN_BLOOM_P(bloom_parse_wire(&buf, false));
}
