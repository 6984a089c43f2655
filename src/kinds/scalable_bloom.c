/*-------------------------------------------------------------------------
 *
 * scalable_bloom.c
 *	  The scalable_bloom type: a filter for streams of unknown size that
 *	  grows by appending sub-filters (Almeida, Baquero, Preguica and Hutchison,
 *	  "Scalable Bloom Filters", 2007; RedisBloom's scaling).
 *
 * This file is the type: its stored, text and binary forms, equality, the
 * SQL functions (add, contains, union, info), the full-filter check, the
 * kind's operations and aggregate hooks (its BloomKindOps), and the batch
 * calls.  How the sub-filters are sized, appended, added to and probed --
 * the growth rule and its cost -- is scalable_stages.c; the SQL aggregates
 * scalable_bloom_agg and scalable_bloom_union_agg, thin wrappers of the
 * aggregate engine over the hooks here, are scalable_agg.c.
 *
 * Stored format: see scalable_format.h (format 2: a header of its own,
 * then the sub-filters, each a complete bloom image).  The text and binary
 * forms are the format-1 image of bloomset 1.0 with the meta and every
 * sub-filter header in network byte order (the sub-filter header in the
 * 68-byte wire form followed by 4 zero bytes), so both forms are portable,
 * have the same size, and what 1.0 wrote loads unchanged.  Decoding
 * validates every sub-filter like bloom_recv and checks that they fill the
 * payload exactly.
 *
 *-------------------------------------------------------------------------
 */
#include "scalable_bloom.h"
#include "scalable_stages.h"
#include "../core/bloom_codec.h"
#include "../probe/bloom_batch.h"
#include "../probe/bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_version.h"
#include "../bloom/bloom_type.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"

#include "../core/scalable_format.h"


/* Raise the error for bad scalable filter input. */
static void
scalable_bad(int sqlerrcode, const char *why)
{
	bloom_raise(sqlerrcode, "invalid scalable bloom filter value", why);
}

/* ---- validation and the portable forms ------------------------------- */

/*
 * Convert the payload between host form and portable form in place (to
 * portable when to_wire; from it otherwise, validating each sub-filter
 * header as it is decoded).  Returns NULL or the reason it is invalid.
 */
static const char *
scalable_convert(BloomFilter *f, bool to_wire)
{
	uint8	   *p = (uint8 *) f->words;
	size_t		payload = f->nbits / 8;
	size_t		off = SCALABLE_V1_META;
	uint64		v[3];

	/* meta: three 64-bit fields */
	memcpy(v, p, sizeof(v));
	for (int j = 0; j < 3; j++)
		v[j] = to_wire ? pg_hton64(v[j]) : pg_ntoh64(v[j]);
	memcpy(p, v, sizeof(v));
	for (int i = 0; i < f->nhashes; i++)
	{
		BloomFilter hdr;
		const char *why;

		if (payload - off < SCALABLE_SUB_HDR)
			return "a sub-filter header is truncated";
		if (to_wire)
		{
			memcpy(&hdr, p + off, BLOOM_HEADER_SIZE);
			bloom_wire_encode_header(&hdr, p + off);
			memset(p + off + BLOOM_WIRE_HEADER_SIZE, 0, SCALABLE_SUB_HDR - BLOOM_WIRE_HEADER_SIZE);
		}
		else
		{
			if ((why = bloom_wire_decode_fields(p + off, &hdr)) != NULL)
				return why;
			if (payload - off - SCALABLE_SUB_HDR < BLOOM_DATA_BYTES(&hdr))
				return "a sub-filter is truncated";
			SET_VARSIZE(&hdr, BLOOM_TOTAL_SIZE(hdr.nbits));
			memcpy(p + off, &hdr, BLOOM_HEADER_SIZE);
		}
		off += SCALABLE_SUB_HDR + BLOOM_DATA_BYTES(&hdr);
	}
	return NULL;
}

/*
 * A validated format-2 value from the decoded external form v1 (a format-1
 * image whose payload is still in network byte order).
 */
static ScalableFilter *
scalable_finish_decode(BloomFilter *v1, int sqlerrcode, MemoryContext cxt)
{
	const char *why;
	ScalableFilter *f;

	if ((why = scalable_convert(v1, false)) != NULL ||
		(why = scalable_check_v1(v1, VARSIZE(v1))) != NULL)
		scalable_bad(sqlerrcode, why);
	f = (ScalableFilter *) bloom_alloc_bytes(cxt, VARSIZE(v1) - (BLOOM_HEADER_SIZE + SCALABLE_V1_META - SCALABLE_HEADER_SIZE));
	scalable_from_v1(v1, f);
	pfree(v1);
	return f;
}

/* A validated scalable filter datum. */
static ScalableFilter *
scalable_arg(FunctionCallInfo fcinfo, int n)
{
	return (ScalableFilter *) bloom_from_datum_kind(PG_GETARG_DATUM(n), BLOOM_KIND_SCALABLE);
}

/* The external (format-1, portable) image of f. */
static BloomFilter *
scalable_portable_copy(const ScalableFilter *f)
{
	BloomFilter *w = (BloomFilter *) bloom_alloc_bytes(CurrentMemoryContext,
													   VARSIZE(f) + BLOOM_HEADER_SIZE + SCALABLE_V1_META - SCALABLE_HEADER_SIZE);

	scalable_to_v1(f, w);
	scalable_convert(w, true);
	return w;
}

PG_FUNCTION_INFO_V1(scalable_bloom_in);
Datum
scalable_bloom_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(scalable_finish_decode(bloom_parse_text(PG_GETARG_CSTRING(0),
															  BLOOM_KIND_SCALABLE),
											 ERRCODE_INVALID_TEXT_REPRESENTATION,
											 CurrentMemoryContext));
}

PG_FUNCTION_INFO_V1(scalable_bloom_recv);
Datum
scalable_bloom_recv(PG_FUNCTION_ARGS)
{
	BloomFilter *f = bloom_parse_recv((StringInfo) PG_GETARG_POINTER(0),
									  BLOOM_KIND_SCALABLE,
									  "invalid external scalable bloom filter value");

	PG_RETURN_POINTER(scalable_finish_decode(f, ERRCODE_INVALID_BINARY_REPRESENTATION,
											 CurrentMemoryContext));
}

PG_FUNCTION_INFO_V1(scalable_bloom_out);
Datum
scalable_bloom_out(PG_FUNCTION_ARGS)
{
	BloomFilter *w = scalable_portable_copy(scalable_arg(fcinfo, 0));
	char	   *out = palloc(bloom_text_size(w));

	bloom_text_encode(w, out);
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(scalable_bloom_send);
Datum
scalable_bloom_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bloom_wire_bytea(scalable_portable_copy(scalable_arg(fcinfo, 0))));
}

/*
 * scalable_bloom_from_bytea(bytea): a filter from its binary (send) form,
 * validated exactly as scalable_bloom_recv; the reverse of the send cast.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_from_bytea);
Datum
scalable_bloom_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	BloomFilter *f = bloom_parse_wire((const uint8 *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b),
									  CurrentMemoryContext, BLOOM_KIND_SCALABLE,
									  "invalid external scalable bloom filter value");

	PG_RETURN_POINTER(scalable_finish_decode(f, ERRCODE_INVALID_BINARY_REPRESENTATION,
											 CurrentMemoryContext));
}

/*
 * Do a and b have the same binary (send) form: the same parameters, the same
 * sub-filters with the same bits and item counters?  Such values answer
 * every probe alike and grow alike.
 */
static bool
scalable_equal(const ScalableFilter *a, const ScalableFilter *b)
{
	BloomFilter *pa = scalable_portable_copy(a);
	BloomFilter *pb = scalable_portable_copy(b);
	bytea	   *wa = bloom_wire_bytea(pa);
	bytea	   *wb = bloom_wire_bytea(pb);
	Size		len = VARSIZE(wa);
	bool		equal = len == VARSIZE(wb);

	pfree(pa);
	pfree(pb);
	for (Size off = VARHDRSZ; equal && off < len; off += BLOOM_POLL_BYTES)
	{
		CHECK_FOR_INTERRUPTS();
		equal = memcmp((char *) wa + off, (char *) wb + off, Min(BLOOM_POLL_BYTES, len - off)) == 0;
	}
	pfree(wa);
	pfree(wb);
	return equal;
}

/*
 * scalable_equal of the two arguments, freeing what was read: = and <> are
 * called once per comparison, in contexts a join or a scan may keep for
 * many rows.
 */
static bool
scalable_args_equal(FunctionCallInfo fcinfo)
{
	ScalableFilter *a = scalable_arg(fcinfo, 0);
	ScalableFilter *b = scalable_arg(fcinfo, 1);
	bool		equal = scalable_equal(a, b);

	bloom_free_copy(a, PG_GETARG_DATUM(0));
	bloom_free_copy(b, PG_GETARG_DATUM(1));
	return equal;
}

PG_FUNCTION_INFO_V1(scalable_bloom_eq);
Datum
scalable_bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(scalable_args_equal(fcinfo));
}

PG_FUNCTION_INFO_V1(scalable_bloom_ne);
Datum
scalable_bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!scalable_args_equal(fcinfo));
}

/* ---- SQL functions ------------------------------------------------------ */

/* A new empty filter from SQL arguments, or 22023 naming the problem. */
ScalableFilter *
scalable_from_args(int64 capacity, double fpr, int64 growth, MemoryContext cxt)
{
	const char *why = scalable_check_params((uint64) Max(capacity, 0), fpr,
											(uint64) Max(growth, 0));

	if (why != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid scalable bloom filter parameters: %s", why),
				 errhint("Use an initial capacity >= 1, a rate in (0, 0.5] and a growth factor of 2 to 16.")));
	return scalable_new((uint64) capacity, fpr, (uint32) growth, cxt);
}

/* scalable_bloom_empty(capacity, fpr, growth) */
PG_FUNCTION_INFO_V1(scalable_bloom_empty);
Datum
scalable_bloom_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(scalable_from_args(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
										 PG_GETARG_INT32(2), CurrentMemoryContext));
}

/* scalable_bloom_add(scalable_bloom, anycompatible): NULL values ignored. */
PG_FUNCTION_INFO_V1(scalable_bloom_add);
Datum
scalable_bloom_add(PG_FUNCTION_ARGS)
{
	ScalableFilter *f;
	BloomTypeInfo *ti;
	Datum		value;
	bool		was_empty;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	f = scalable_arg(fcinfo, 0);
	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(f);
	f = (ScalableFilter *) bloom_copy((BloomFilter *) f);
	was_empty = f->family[0] == '\0';
	ti = bloom_call_value(fcinfo, 1, f->family, &f->collfp, f->scheme, &value);
	if (was_empty)
		scalable_adopt(f, f->family, f->collfp);	/* and every sub-filter */
	scalable_add_hash(&f, bloom_hash_datum(ti, value, f->seed, f->scheme), CurrentMemoryContext);
	scalable_check_full(f, fcinfo);
	PG_RETURN_POINTER(f);
}

/* scalable_bloom_contains(scalable_bloom, anycompatible) */
PG_FUNCTION_INFO_V1(scalable_bloom_contains);
Datum
scalable_bloom_contains(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti;
	Datum		value;
	ScalableFilter *f = (ScalableFilter *) bloom_call_probe(fcinfo, BLOOM_KIND_SCALABLE,
														   &ti, &value);
	ScalableStages local;
	uint64		h;

	if (f->family[0] == '\0')
		PG_RETURN_BOOL(false);
	h = bloom_hash_datum(ti, value, f->seed, f->scheme);
	f = (ScalableFilter *) bloom_call_parts(fcinfo, f, &h, 1);
	PG_RETURN_BOOL(scalable_stages_test(scalable_probe_stages(fcinfo, f, &local), h));
}

/* Union of b into a copy of a (same parameters): sub-filter-wise OR. */
ScalableFilter *
scalable_merge(const ScalableFilter *a, const ScalableFilter *b, MemoryContext cxt)
{
	const ScalableFilter *big = a->nsub >= b->nsub ? a : b;
	const ScalableFilter *small = big == a ? b : a;
	ScalableFilter *r;
	BloomFilter *rs;
	const BloomFilter *ss;

	if (a->capacity != b->capacity || a->fpr_bits != b->fpr_bits ||
		a->growth != b->growth || a->seed != b->seed ||
		(a->family[0] && b->family[0] &&
		 (memcmp(a->family, b->family, BLOOM_FAMILY_LEN) != 0 || a->collfp != b->collfp)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot union scalable bloom filters with incompatible parameters"),
				 errdetail("Capacity, rate, growth, seed and element family must match (%llu/%g/%u/\"%s\" and %llu/%g/%u/\"%s\").",
						   (unsigned long long) a->capacity, scalable_fpr(a), a->growth, a->family,
						   (unsigned long long) b->capacity, scalable_fpr(b), b->growth, b->family)));
	if (a->scheme != b->scheme && a->family[0] && b->family[0])
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot union scalable bloom filters with incompatible parameters"),
				 errdetail("The filters use different hashing schemes (%d and %d): the same value sets different bits in each.",
						   a->scheme, b->scheme),
				 bloom_scheme_mismatch_hint(&scalable_bloom_ops, a->scheme, b->scheme)));
	r = (ScalableFilter *) bloom_copy_in(cxt, (const BloomFilter *) big);
	if (r->family[0] == '\0' && small->family[0] != '\0')
	{
		/* nothing was hashed into r: it takes the other's scheme */
		r->scheme = small->scheme;
		rs = scalable_first(r);
		for (int i = 0; i < r->nsub; i++, rs = scalable_next(rs))
			rs->scheme = small->scheme;
		scalable_adopt(r, small->family, small->collfp);
	}
	rs = scalable_first(r);
	ss = scalable_first(small);
	for (int i = 0; i < small->nsub; i++)
	{
		bloom_or_words(rs->words, ss->words, BLOOM_NWORDS(rs));
		bloom_add_items(rs, ss->nitems);
		rs = scalable_next(rs);
		ss = scalable_next(ss);
	}
	r->nitems = r->nitems > PG_UINT64_MAX - small->nitems ? PG_UINT64_MAX
		: r->nitems + small->nitems;
	return r;
}

/*
 * The full-filter check (bloomset.full_filter, see bloom_check_full) of a
 * scalable filter: its rate is at most the sum of its sub-filters' rates.
 * O(1) first: a filter whose sub-filters all hold at most their capacity
 * (as adds and the aggregates leave them) keeps its target; only an
 * over-full one (a union's OR) has its bits read.
 */
void
scalable_check_full(const ScalableFilter *f, FunctionCallInfo fcinfo)
{
	const BloomFilter *sub = scalable_first(f);
	double		target = scalable_fpr(f);
	double		rate = 0.0;
	bool		over = false;

	if (f->family[0] == '\0' || !bloom_full_check_wanted())
		return;
	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
	{
		double		cap,
					fpr;

		scalable_sub_target(f, i, &cap, &fpr);
		over |= (double) sub->nitems > cap;
	}
	if (!over)
		return;
	sub = scalable_first(f);
	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
		rate += bloom_current_fpr(sub);
	rate = Min(rate, 1.0);
	if (rate > BLOOM_FULL_FACTOR * target)
		bloom_full_report(fcinfo, "scalable bloom filter", rate, target,
						  psprintf("The filter has %d sub-filters, some holding more items than they were sized for (a union of filters each built on part of the data).",
								   f->nsub));
}

/*
 * scalable_bloom_union(a, b): sub-filter-wise OR.  Where the two hold more
 * than a sub-filter's capacity together, the rate rises: the full-filter
 * check says so.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_union);
Datum
scalable_bloom_union(PG_FUNCTION_ARGS)
{
	ScalableFilter *r = scalable_merge(scalable_arg(fcinfo, 0), scalable_arg(fcinfo, 1),
									   CurrentMemoryContext);

	scalable_check_full(r, fcinfo);
	PG_RETURN_POINTER(r);
}

/* Estimated distinct items: the sum over the sub-filters. */
PG_FUNCTION_INFO_V1(scalable_bloom_estimate_card);
Datum
scalable_bloom_estimate_card(PG_FUNCTION_ARGS)
{
	ScalableFilter *f = scalable_arg(fcinfo, 0);
	const BloomFilter *sub = scalable_first(f);
	double		n = 0;

	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
		n += bloom_estimate_items(sub, bloom_popcount(sub));
	PG_RETURN_FLOAT8(n);
}

/* scalable_bloom_scheme(scalable_bloom) -> integer: the hashing scheme. */
PG_FUNCTION_INFO_V1(scalable_bloom_scheme);
Datum
scalable_bloom_scheme(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(scalable_arg(fcinfo, 0)->scheme);
}

/*
 * bloom_with_scheme(scalable_bloom, integer) -> scalable_bloom: the filter
 * with the given hashing scheme, in its header and every sub-filter's (the
 * validator wants them equal); only a filter nothing was added to can
 * change, as for the other kinds.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_with_scheme);
Datum
scalable_bloom_with_scheme(PG_FUNCTION_ARGS)
{
	ScalableFilter *f = scalable_arg(fcinfo, 0);
	int32		scheme = PG_GETARG_INT32(1);
	BloomFilter *sub;

	bloom_check_scheme_change(f->scheme, scheme, f->family, f->nitems, "scalable bloom filter");
	if (f->scheme == scheme)
		PG_RETURN_POINTER(f);
	f = (ScalableFilter *) bloom_copy((const BloomFilter *) f);
	f->scheme = (uint8) scheme;
	sub = scalable_first(f);
	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
		sub->scheme = (uint8) scheme;
	PG_RETURN_POINTER(f);
}

/*
 * scalable_bloom_info(scalable_bloom) -> one row per sub-filter: index,
 * layout, bits, hashes, capacity, items, target rate, current rate.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_info);
Datum
scalable_bloom_info(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ScalableFilter *f = scalable_arg(fcinfo, 0);
	const BloomFilter *sub = scalable_first(f);

#if PG_VERSION_NUM >= 150000
	InitMaterializedSRF(fcinfo, 0);
#else
	{
		MemoryContext old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
		TupleDesc	tupdesc;

		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		rsinfo->returnMode = SFRM_Materialize;
		rsinfo->setDesc = CreateTupleDescCopy(tupdesc);
		rsinfo->setResult = tuplestore_begin_heap(true, false, work_mem);
		MemoryContextSwitchTo(old);
	}
#endif
	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
	{
		Datum		v[8];
		bool		nulls[8] = {false};
		double		cap,
					fpr;

		scalable_sub_target(f, i, &cap, &fpr);
		v[0] = Int32GetDatum(i + 1);
		v[1] = CStringGetTextDatum(bloom_layout_name(sub->layout));
		v[2] = Int64GetDatum((int64) sub->nbits);
		v[3] = Int32GetDatum(sub->nhashes);
		v[4] = Int64GetDatum((int64) cap);
		v[5] = Int64GetDatum((int64) Min(sub->nitems, (uint64) PG_INT64_MAX));
		v[6] = Float8GetDatum(fpr);
		v[7] = Float8GetDatum(bloom_current_fpr(sub));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, nulls);
	}
	return (Datum) 0;
}

/* ---- the kind's hooks of the aggregate engine --------------------------- */

/*
 * Distinct hashes a partial state keeps exactly (bloom_agg.c's exact
 * phase: partial states must not merge filters): 2^22 (a 64 MiB table at
 * most, 32 MiB serialized).  Beyond, it becomes a filter, and two such
 * partial filters can only be merged sub-filter by sub-filter, over
 * capacity (the final function's full-filter check then says so).
 */
#define SCALABLE_EXACT_MAX			(1 << 22)
#define SCALABLE_STATE_MSG			"invalid serialized scalable bloom aggregate state"

/* The element fields of f were set: its sub-filters take them too. */
static void
scalable_agg_adopted(void *f)
{
	scalable_adopt((ScalableFilter *) f, ((ScalableFilter *) f)->family,
				   ((ScalableFilter *) f)->collfp);
}

/* Add n hashes, in order, to *f (replaced by a grown copy in cxt as needed). */
static void
scalable_agg_insert(void **f, const uint64 *h, int n, MemoryContext cxt)
{
	scalable_add_batch((ScalableFilter **) f, h, n, cxt);
}

/* The filter of an exact set: the header's, with its first sub-filter. */
static void *
scalable_agg_from_exact(const void *hdr, uint64 ndistinct, MemoryContext cxt, bool final)
{
	return scalable_append((const ScalableFilter *) hdr, cxt);
}

/* Two partial filters (past the exact phase): sub-filter-wise OR. */
static void
scalable_agg_merge(void **dst, const void *src, MemoryContext cxt)
{
	ScalableFilter *r = scalable_merge((ScalableFilter *) *dst, (const ScalableFilter *) src, cxt);

	pfree(*dst);
	*dst = r;
}

/* Why an exact-phase header (scalable_make_state's) is invalid, or NULL. */
static const char *
scalable_check_exact_hdr(const void *p)
{
	const ScalableFilter *h = (const ScalableFilter *) p;

	if (VARSIZE(h) != SCALABLE_HEADER_SIZE || h->nsub != 0 ||
		h->version != SCALABLE_FORMAT_VERSION || h->layout != BLOOM_LAYOUT_SCALABLE ||
		!bloom_scheme_known(h->scheme))
		return "the exact-set header is malformed";
	if (memchr(h->family, '\0', BLOOM_FAMILY_LEN) == NULL)
		return "the element family is malformed";
	return scalable_check_params(h->capacity, scalable_fpr(h), h->growth);
}

/* The default scalable filter: the aggregate (and union) of no rows. */
static void *
scalable_agg_empty(void)
{
	return scalable_new(SCALABLE_DEFAULT_CAPACITY, SCALABLE_DEFAULT_FPR,
						SCALABLE_DEFAULT_GROWTH, CurrentMemoryContext);
}


/* States and union states travel in the portable form. */
static BloomFilter *
scalable_agg_portable(void *f)
{
	return scalable_portable_copy((const ScalableFilter *) f);
}

static void *
scalable_agg_decode(BloomFilter *wire, MemoryContext aggcxt)
{
	return scalable_finish_decode(wire, ERRCODE_INVALID_BINARY_REPRESENTATION, aggcxt);
}

/* ---- the kind's operations (bloom_kind.h) ---------------------------------- */

static bool
scalable_layout_ok(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_SCALABLE;
}

/* Is the detoasted scalable value d in bloomset 1.0's format 1? */
static bool
scalable_is_v1(const void *d, size_t size)
{
	return size > offsetof(BloomFilter, version) &&
		((const BloomFilter *) d)->version == BLOOM_FORMAT_VERSION;
}

/* Either stored format, sub-filter by sub-filter. */
static const char *
scalable_reason(const void *d, size_t size)
{
	return scalable_is_v1(d, size) ? scalable_check_v1((const BloomFilter *) d, size)
		: scalable_check((const ScalableFilter *) d, size);
}

/* A valid value of 1.0's format 1 converted to format 2; NULL if current. */
static void *
scalable_upgrade(const void *d, size_t size)
{
	ScalableFilter *s;

	if (!scalable_is_v1(d, size))
		return NULL;
	s = (ScalableFilter *) bloom_alloc_bytes(CurrentMemoryContext,
											 size - (BLOOM_HEADER_SIZE + SCALABLE_V1_META - SCALABLE_HEADER_SIZE));
	scalable_from_v1((const BloomFilter *) d, s);
	return s;
}

static BloomElementFields
scalable_fields(void *f)
{
	ScalableFilter *sf = (ScalableFilter *) f;
	BloomElementFields e = {sf->family, &sf->collfp, sf->seed, sf->scheme};

	return e;
}

static bool
scalable_op_test(const void *f, uint64 h)
{
	return scalable_test_hash((const ScalableFilter *) f, h);
}

static void *
scalable_add(void *f, const uint64 *h, int n, int nkeys)
{
	ScalableFilter *sf = (ScalableFilter *) f;

	/* one hash a key (no Parquet scheme): each hash added is counted */
	Assert(n == nkeys);

	if (n > 0)
		scalable_add_hashes(&sf, h, n);
	return sf;
}

static void
scalable_check_full_op(const void *f, FunctionCallInfo fcinfo)
{
	scalable_check_full((const ScalableFilter *) f, fcinfo);
}

/*
 * Estimated distinct items and current rate: the sums over the
 * sub-filters, and the rate of "any sub-filter answers maybe" (a value of
 * 1.0's format read in the current one first).
 */
static void
scalable_stats(const void *f, double *items, double *fpr)
{
	const ScalableFilter *s = bloom_from_datum_kind(PointerGetDatum(f),
													BLOOM_KIND_SCALABLE);
	const BloomFilter *sub = scalable_first(s);
	double		none = 1.0;

	*items = 0.0;
	for (int i = 0; i < s->nsub; i++, sub = scalable_next(sub))
	{
		*items += bloom_estimate_items(sub, bloom_popcount(sub));
		none *= 1.0 - bloom_current_fpr(sub);
	}
	*fpr = 1.0 - none;
}

/* Positions one hash probes: those of every sub-filter, by its own kind. */
static int
scalable_probe_width(const BloomFilter *f)
{
	const ScalableFilter *sf = (const ScalableFilter *) f;
	const BloomFilter *sub = scalable_first(sf);
	int			k = 0;

	for (int i = 0; i < sf->nsub; i++, sub = scalable_next(sub))
		k += bloom_kind_of(sub)->probe_width(sub);
	return k;
}

const BloomKindOps scalable_bloom_ops = {
	.kind = BLOOM_KIND_SCALABLE,
	.type_name = "scalable_bloom",
	/* bloom_with_scheme takes a scalable filter from 1.3 on */
	.scheme_hint = "Rebuild the older filter from its values (new filters use scheme %d), or build the new one with bloom_with_scheme(scalable_bloom_empty(...), %d) and bloom_add_all; bloom_scheme() shows a filter's scheme.",
	.scheme_hint_since = 103,
	.corrupt_msg = "invalid scalable bloom filter value",
	.header_size = SCALABLE_HEADER_SIZE,
	.has_subfilters = true,
	.layout_ok = scalable_layout_ok,
	.reason = scalable_reason,
	.upgrade = scalable_upgrade,
	.fields = scalable_fields,
	.prefetch = NULL,
	.test = scalable_op_test,
	.add = scalable_add,
	.check_full = scalable_check_full_op,
	.stats = scalable_stats,
	.probe_width = scalable_probe_width,
	.probe_span = NULL,			/* the sub-filters' kind says */
	.state_msg = SCALABLE_STATE_MSG,
	.empty = scalable_agg_empty,
	.portable = scalable_agg_portable,
	.decode = scalable_agg_decode,
	.agg_name = "scalable_bloom_agg",
	.agg_tag = 's',
	.exact_max = SCALABLE_EXACT_MAX,
	.check_exact_hdr = scalable_check_exact_hdr,
	.adopted = scalable_agg_adopted,
	.insert = scalable_agg_insert,
	.from_exact = scalable_agg_from_exact,
	.merge = scalable_agg_merge,
};

/* ---- batch calls (bloom_batch.h) ------------------------------------------ */

/*
 * scalable_bloom_add_all(scalable_bloom, anycompatiblearray) ->
 * scalable_bloom: a copy with every non-null element added.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_add_all);
Datum
scalable_bloom_add_all(PG_FUNCTION_ARGS)
{
	return bloom_batch_add(fcinfo, BLOOM_KIND_SCALABLE);
}

/*
 * scalable_bloom_contains_any(scalable_bloom, anycompatiblearray) ->
 * boolean: may any element be in?
 */
PG_FUNCTION_INFO_V1(scalable_bloom_contains_any);
Datum
scalable_bloom_contains_any(PG_FUNCTION_ARGS)
{
	return bloom_batch_any(fcinfo, BLOOM_KIND_SCALABLE);
}

/*
 * scalable_bloom_contains_all(scalable_bloom, anycompatiblearray) ->
 * boolean: may every element be in?
 */
PG_FUNCTION_INFO_V1(scalable_bloom_contains_all);
Datum
scalable_bloom_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_batch_all(fcinfo, BLOOM_KIND_SCALABLE);
}

/*
 * scalable_bloom_contains_each(scalable_bloom, anycompatiblearray) ->
 * boolean[]: per element.
 */
PG_FUNCTION_INFO_V1(scalable_bloom_contains_each);
Datum
scalable_bloom_contains_each(PG_FUNCTION_ARGS)
{
	return bloom_batch_each(fcinfo, BLOOM_KIND_SCALABLE);
}
