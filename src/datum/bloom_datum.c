/*-------------------------------------------------------------------------
 *
 * bloom_datum.c
 *	  The datum layer: the one owner of filter memory and filter datums.
 *
 * Everything that turns bytes into a filter the rest of bloomset may read
 * goes through here, and so does everything that allocates one:
 *
 *  - Allocation.  Filters are allocated by bloom_alloc_bytes() only, zeroed,
 *	  through PostgreSQL's allocator: cache-line aligned with
 *	  MemoryContextAllocAligned where it exists (16 and later), MAXALIGNed
 *	  before.  The pointer returned is the chunk itself, so every filter can
 *	  be pfree'd and repalloc'd; nothing here advises the kernel about memory
 *	  the allocator owns.
 *  - Validation.  A stored datum is checked cheaply (bloom_kind_reason: the
 *	  fields memory safety depends on, the exact length, the SQL type) every
 *	  time it is fetched; values arriving from outside (text, binary, bytea,
 *	  aggregate states) are checked in full (every header field, including
 *	  the element family, and the bits an empty filter must not have).
 *  - Errors.  Validators of the core return reason strings; bloom_raise()
 *	  is the one place that turns a reason into an ereport with a detail.
 *
 * The call-site cache (fn_extra) that probes read stored filters through is
 * bloom_cache.c; it validates what it reads with the functions here.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_datum.h"
#include "bloom_hash.h"
#include "bloom_convert.h"
#include "bloom_version.h"
#include "../core/bloom_codec.h"

#include "access/detoast.h"
#include "common/hashfn.h"
#include "lib/ilist.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "../core/scalable_format.h"

/* ---- errors ------------------------------------------------------------- */

/*
 * Raise sqlerrcode with message and the reason why as its detail (a core
 * reason string: lower case, no period; the detail is a sentence).
 */
void
bloom_raise(int sqlerrcode, const char *message, const char *why)
{
	ereport(ERROR,
			(errcode(sqlerrcode),
			 errmsg("%s", message),
			 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1)));
}

/* ---- allocation ----------------------------------------------------------- */

/*
 * size uninitialised bytes for a filter image in cxt: the one allocation of
 * filters.  Aligned to a cache line where PostgreSQL can do so within its
 * allocator; either way the result is an allocator chunk of its own.
 */
static void *
bloom_alloc_raw(MemoryContext cxt, size_t size)
{
#if PG_VERSION_NUM >= 160000
	return MemoryContextAllocAligned(cxt, size, PG_CACHE_LINE_SIZE, MCXT_ALLOC_HUGE);
#else
	return MemoryContextAllocExtended(cxt, size, MCXT_ALLOC_HUGE);
#endif
}

/*
 * size zeroed bytes for a filter image in cxt, zeroed in chunks that poll
 * for interrupts (the page faults of 256 MiB alone take about a second).
 */
void *
bloom_alloc_bytes(MemoryContext cxt, size_t size)
{
	void	   *p = bloom_alloc_raw(cxt, size);

	bloom_zero_bytes(p, size);
	return p;
}

/* A zeroed filter image of nbits in cxt, its varlena length set. */
BloomFilter *
bloom_alloc_in(MemoryContext cxt, uint64 nbits)
{
	BloomFilter *f;

	Assert(nbits >= BLOOM_MIN_BITS && nbits <= BLOOM_MAX_BITS);
	f = (BloomFilter *) bloom_alloc_bytes(cxt, BLOOM_TOTAL_SIZE(nbits));
	SET_VARSIZE(f, BLOOM_TOTAL_SIZE(nbits));
	return f;
}

/*
 * An empty filter with the given parameters (validated by the caller), of
 * the scheme new filters get (bloom_new_scheme).
 */
BloomFilter *
bloom_alloc(int layout, int nhashes, uint64 nbits, uint64 seed)
{
	BloomFilter *f = bloom_alloc_in(CurrentMemoryContext, nbits);

	bloom_init_header(f, layout, nhashes, nbits, seed);
	f->scheme = bloom_new_scheme();
	return f;
}

/*
 * An empty filter of nbits with every other header field of f (family,
 * collation, flags, items): the target of folding, unfolding and resizing.
 */
BloomFilter *
bloom_alloc_like(MemoryContext cxt, const BloomFilter *f, uint64 nbits)
{
	BloomFilter *r = bloom_alloc_in(cxt, nbits);

	memcpy((char *) r + VARHDRSZ, (const char *) f + VARHDRSZ,
		   BLOOM_HEADER_SIZE - VARHDRSZ);
	r->nbits = nbits;
	return r;
}

/* A copy of the datum image f (any kind) in cxt. */
BloomFilter *
bloom_copy_in(MemoryContext cxt, const BloomFilter *f)
{
	BloomFilter *c = (BloomFilter *) bloom_alloc_raw(cxt, VARSIZE(f));

	bloom_copy_bytes(c, f, VARSIZE(f));
	return c;
}

/* A copy of f in the current context. */
BloomFilter *
bloom_copy(const BloomFilter *f)
{
	return bloom_copy_in(CurrentMemoryContext, f);
}

/* ---- aggregates ---------------------------------------------------------- */

/* The aggregate memory context, or an error if not called as aggregate. */
MemoryContext
bloom_agg_context(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt;

	if (!AggCheckCallContext(fcinfo, &aggcxt))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("bloom aggregate support function called in non-aggregate context")));
	return aggcxt;
}

/* ---- validation ----------------------------------------------------------- */

/*
 * Why d (size bytes, detoasted) is not a readable bloom or counting_bloom
 * value, or NULL: the fields memory safety depends on and the exact length
 * (the cheap check of every fetch).  Those kinds' reason operation.
 */
const char *
bloom_header_reason(const void *d, size_t size)
{
	const BloomFilter *f = (const BloomFilter *) d;
	const char *why;

	if (size < BLOOM_HEADER_SIZE)
		return "the value is shorter than a filter header";
	if ((why = bloom_check_shape(f)) != NULL)
		return why;
	if (size != BLOOM_TOTAL_SIZE(f->nbits))
		return "the length of the bit array does not match the header";
	return NULL;
}

/* Why d (size bytes, detoasted) is not a readable value of kind, or NULL. */
const char *
bloom_kind_reason(const void *d, size_t size, BloomKind kind)
{
	return bloom_kind_ops(kind)->reason(d, size);
}

/* Raise sqlerrcode unless f's layout belongs to the SQL type of kind. */
static void
bloom_require_kind(const BloomFilter *f, BloomKind kind, int sqlerrcode)
{
	const BloomKindOps *ops = bloom_kind_ops(kind);

	if (!ops->layout_ok(f))
		ereport(ERROR,
				(errcode(sqlerrcode),
				 errmsg("a %s filter is not a %s value",
						bloom_layout_name(f->layout), ops->type_name),
				 errhint("Classic and blocked filters are bloom values, counting filters counting_bloom, scalable filters scalable_bloom.")));
}

/*
 * Raise data_corrupted unless f, a stored value of size bytes or (plain and
 * counting kinds) only its header, is a valid value of kind: a header read
 * alone is checked against the stored length exactly as the whole value is.
 */
void
bloom_check_stored_size(const BloomFilter *f, Size size, BloomKind kind)
{
	const BloomKindOps *ops = bloom_kind_ops(kind);
	const char *why = ops->reason(f, size);

	if (why != NULL)
		bloom_raise(ERRCODE_DATA_CORRUPTED, ops->corrupt_msg, why);
	bloom_require_kind(f, kind, ERRCODE_DATA_CORRUPTED);
}

/* Raise data_corrupted unless the detoasted f is a valid value of kind. */
static void
bloom_check_stored(const BloomFilter *f, BloomKind kind)
{
	bloom_check_stored_size(f, VARSIZE(f), kind);
}

/*
 * Detoast and check a stored datum of the given kind.  A value in an older
 * stored format of its kind (scalable filters of bloomset 1.0) comes back
 * converted to the current one.
 */
void *
bloom_from_datum_kind(Datum d, BloomKind kind)
{
	const BloomKindOps *ops = bloom_kind_ops(kind);
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(d);
	void	   *current;

	bloom_check_stored(f, kind);
	if (ops->upgrade == NULL || (current = ops->upgrade(f, VARSIZE(f))) == NULL)
		return f;
	if ((Pointer) f != DatumGetPointer(d))
		pfree(f);
	return current;
}

/* Detoast and check a bloom or counting_bloom datum (shared output functions). */
BloomFilter *
bloom_from_datum_any(Datum d)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(d);
	const char *why = bloom_kind_reason(f, VARSIZE(f), BLOOM_KIND_PLAIN);

	if (why != NULL)
		bloom_raise(ERRCODE_DATA_CORRUPTED, "invalid bloom filter value", why);
	return f;
}

/* ---- comparison of stored values ----------------------------------------- */

/*
 * The order of filters by their parameters: the first differing of
 * version, layout, scheme, hashes, seed, size, collation and element
 * family; 0 when all are the same.  Only header fields are read, so a and b
 * may be bare headers (bloom_datum_header).
 */
static int
bloom_compare_params(const BloomFilter *a, const BloomFilter *b)
{
	int			c;

#define BLOOM_CMP_FIELD(x) \
	if (a->x != b->x) \
		return a->x < b->x ? -1 : 1
	BLOOM_CMP_FIELD(version);
	BLOOM_CMP_FIELD(layout);
	BLOOM_CMP_FIELD(scheme);
	BLOOM_CMP_FIELD(nhashes);
	BLOOM_CMP_FIELD(seed);
	BLOOM_CMP_FIELD(nbits);
	BLOOM_CMP_FIELD(collfp);
#undef BLOOM_CMP_FIELD
	c = memcmp(a->family, b->family, BLOOM_FAMILY_LEN);
	return (c > 0) - (c < 0);
}

/*
 * Total order on filters, consistent with equality: same parameters and
 * same bits are equal (the item counter and flags are ignored); otherwise
 * the parameters decide (bloom_compare_params), then the bits as bytes.
 * For the btree and hash operator classes (sorting, count(DISTINCT f));
 * the order means nothing beyond that.
 */
int
bloom_compare(const BloomFilter *a, const BloomFilter *b)
{
	int			c = bloom_compare_params(a, b);

	for (size_t off = 0; c == 0 && off < BLOOM_DATA_BYTES(a); off += BLOOM_POLL_BYTES)
	{
		CHECK_FOR_INTERRUPTS();
		c = memcmp((const char *) a->words + off, (const char *) b->words + off,
				   Min(BLOOM_POLL_BYTES, BLOOM_DATA_BYTES(a) - off));
		c = (c > 0) - (c < 0);
	}
	return c;
}

/*
 * Copy the header of the filter datum d into *hdr, reading a slice of the
 * first bytes only when d is toasted: one toast chunk, not the bit array.
 * False when d is too short to hold a header or its shape is not one a
 * filter can have; the caller then reads the whole value, whose check
 * reports why.  hdr's length word is the slice's, not the value's.
 */
static bool
bloom_datum_header(Datum d, BloomFilter *hdr)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(d);
	struct varlena *slice = p;
	bool		ok;

	if (VARATT_IS_EXTENDED(p))
		slice = PG_DETOAST_DATUM_SLICE(d, 0, BLOOM_HEADER_SIZE - VARHDRSZ);
	ok = VARSIZE(slice) >= BLOOM_HEADER_SIZE;
	if (ok)
		memcpy(hdr, slice, BLOOM_HEADER_SIZE);
	if (slice != p)
		pfree(slice);
	return ok && bloom_check_shape(hdr) == NULL;
}

/* pfree f, a filter read from datum d, if reading it made a copy */
void
bloom_free_copy(void *f, Datum d)
{
	if ((Pointer) f != DatumGetPointer(d))
		pfree(f);
}

/*
 * bloom_compare of two stored datums of kind, in bounded memory: what the
 * btree and hash support and the equality operators call once per
 * comparison, in contexts PostgreSQL resets only at the end of a sort or a
 * hash build.  The headers are read first, from a slice, and decide
 * whenever the parameters differ; otherwise both values are read whole,
 * compared and freed before returning, so a sort of any number of stored
 * filters holds at most two of them at a time.  Only kinds read without an
 * upgrade qualify: the headers compared must be those bloom_compare sees.
 */
int
bloom_datum_compare(Datum a, Datum b, BloomKind kind)
{
	BloomFilter ha,
				hb;
	BloomFilter *fa,
			   *fb;
	int			c;

	Assert(bloom_kind_ops(kind)->upgrade == NULL);
	if (bloom_datum_header(a, &ha) && bloom_datum_header(b, &hb) &&
		(c = bloom_compare_params(&ha, &hb)) != 0)
		return c;
	fa = bloom_from_datum_kind(a, kind);
	fb = bloom_from_datum_kind(b, kind);
	c = bloom_compare(fa, fb);
	bloom_free_copy(fa, a);
	bloom_free_copy(fb, b);
	return c;
}

/* ---- text and binary input ------------------------------------------------ */

/*
 * Raise invalid_text_representation for input str of the SQL type of kind,
 * with a reason.  Every kind shares the text form (its layout field says
 * which kind a value is).
 */
static void
bloom_syntax_error(const char *str, const char *why, BloomKind kind)
{
	const char *type_name = bloom_kind_ops(kind)->type_name;

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s: \"%.60s%s\"",
					type_name, str, strlen(str) > 60 ? "..." : ""),
			 errdetail("%c%s.", pg_toupper((unsigned char) why[0]), why + 1),
			 errhint("The text form is \"bloom:v1 layout=... [scheme=...] k=... seed=... bits=... items=... flags=... coll=... family=... hex=...\", as %s_out writes it.",
					 type_name)));
}

/*
 * Why the collation fingerprint of the input header hdr cannot be right,
 * or NULL: beyond the core's rules (bloom_check_header), a family that
 * names a type of this database that is not collatable (integer_ops)
 * records no collation.  A family that names no type here (a type of
 * another schema, during a restore) is left to the probes.
 */
static const char *
bloom_input_collfp_reason(const BloomFilter *hdr)
{
	Oid			typid;

	if (hdr->collfp == 0 || hdr->family[0] == '\0')
		return NULL;
	typid = bloom_family_type(hdr->family);
	if (OidIsValid(typid) && !type_is_collatable(typid))
		return "the coll field must be 0 for this element family: its values are of a type without "
			"collations; only values of a collatable type (text, varchar, char, arrays of them) "
			"record one";
	return NULL;
}

/*
 * A filter from its text form, every header field validated, of the SQL
 * type of kind (a scalable value comes back with its payload still in the
 * portable form: scalable_bloom.c finishes it).
 */
BloomFilter *
bloom_parse_text(const char *str, BloomKind kind)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *hex;
	const char *why;

	if ((why = bloom_text_decode_header(str, &hdr, &hex)) != NULL ||
		(why = bloom_input_collfp_reason(&hdr)) != NULL)
		bloom_syntax_error(str, why, kind);
	if (strlen(hex) != 2 * BLOOM_DATA_BYTES(&hdr))
		bloom_syntax_error(str, "the bit array does not have the length the header gives", kind);
	bloom_require_kind(&hdr, kind, ERRCODE_INVALID_TEXT_REPRESENTATION);
	f = bloom_alloc_like(CurrentMemoryContext, &hdr, hdr.nbits);
	if ((why = bloom_text_decode_bits(hex, f)) != NULL ||
		(why = bloom_check_bits(f)) != NULL)
		bloom_syntax_error(str, why, kind);
	return f;
}

/*
 * A filter in cxt from its binary form (exactly len bytes), every field
 * validated, of the SQL type of kind (scalable: see bloom_parse_text);
 * otherwise invalid_binary_representation with the given message.
 */
BloomFilter *
bloom_parse_wire(const uint8 *p, size_t len, MemoryContext cxt, BloomKind kind,
				 const char *message)
{
	BloomFilter hdr;
	BloomFilter *f;
	const char *why;

	if ((why = bloom_wire_decode_header(p, len, &hdr)) != NULL ||
		(why = bloom_input_collfp_reason(&hdr)) != NULL)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, message, why);
	bloom_require_kind(&hdr, kind, ERRCODE_INVALID_BINARY_REPRESENTATION);
	f = bloom_alloc_like(cxt, &hdr, hdr.nbits);
	bloom_copy_bytes(f->words, p + BLOOM_WIRE_HEADER_SIZE, BLOOM_DATA_BYTES(f));
	if ((why = bloom_check_bits(f)) != NULL)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, message, why);
	return f;
}

/* A filter of kind from the rest of a recv buffer (bloom_parse_wire), consumed. */
BloomFilter *
bloom_parse_recv(StringInfo buf, BloomKind kind, const char *message)
{
	BloomFilter *f = bloom_parse_wire((const uint8 *) buf->data + buf->cursor,
									  (size_t) (buf->len - buf->cursor),
									  CurrentMemoryContext, kind, message);

	buf->cursor = buf->len;
	return f;
}

/* Append f in the binary form: wire header, then the bit array. */
void
bloom_wire_append(StringInfo buf, const BloomFilter *f)
{
	uint8		hdr[BLOOM_WIRE_HEADER_SIZE];

	bloom_wire_encode_header(f, hdr);
	appendBinaryStringInfo(buf, (const char *) hdr, BLOOM_WIRE_HEADER_SIZE);
	/* the bit array: copied in chunks that poll for interrupts */
	enlargeStringInfo(buf, (int) BLOOM_DATA_BYTES(f));
	bloom_copy_bytes(buf->data + buf->len, f->words, BLOOM_DATA_BYTES(f));
	buf->len += (int) BLOOM_DATA_BYTES(f);
	buf->data[buf->len] = '\0';
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

/* The element fields of a bloom or counting_bloom filter (its header). */
BloomElementFields
bloom_header_fields(void *f)
{
	BloomFilter *bf = (BloomFilter *) f;
	BloomElementFields e = {bf->family, &bf->collfp, bf->seed, bf->scheme};

	return e;
}
