/*-------------------------------------------------------------------------
 *
 * bloom_agg_partial.c
 *	  Partial states of the aggregate engine (bloom_agg.c): two states
 *	  combined, and a state serialized and read back -- what parallel and
 *	  partitionwise aggregation and Citus's split aggregates exchange --
 *	  for every kind, with bloom_agg's own entry points of the three.
 *
 * Combine.  NULL on either side is an empty state.  A state made by the
 * deserialize function in this aggregate context is kept; any other is
 * copied first.  An exact set is poured into the other state (set or
 * filter); an exact state meeting a filter becomes a copy of the filter
 * with its hashes added; two filters are merged by the kind (OR, counters
 * added, sub-filter-wise OR).
 *
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_agg_partial.h"
#include "bloom_agg_internal.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_element.h"
#include "../bloom/bloom_type.h"

#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* ---- combine ------------------------------------------------------------ */

/* Raise invalid_binary_representation for a bad serialized state of k. */
static void
bloom_bad_state(const BloomKindOps *k, const char *why)
{
	bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, k->state_msg, why);
}

/*
 * An exact dst meets the filter src: dst becomes a copy of src (in aggcxt)
 * with dst's hashes added.
 */
static void
bloom_state_take_filter(BloomAggState *dst, const void *src, MemoryContext aggcxt)
{
	const BloomKindOps *k = dst->kind;
	void	   *f = bloom_copy_in(aggcxt, src);
	BloomElementFields ff = k->fields(f);
	BloomElementFields hf = k->fields(dst->hdr);

	bloom_merge_element_fields(ff.family, ff.collfp, hf.family, *hf.collfp, k->agg_name);
	if (k->adopted)
		k->adopted(f);
	bloom_set_into_filter(k, &dst->set, &f, aggcxt);
	bloom_hashset_free(&dst->set);
	dst->filter = f;
	dst->mode = BLOOM_AGG_FILTER;
}

/* Merge src into dst (both flushed); dst lives in the aggregate context. */
static void
bloom_state_merge(BloomAggState *dst, BloomAggState *src, MemoryContext aggcxt)
{
	const BloomKindOps *k = dst->kind;
	BloomElementFields df = k->fields(bloom_state_header(dst));
	BloomElementFields sf = k->fields(bloom_state_header(src));
	uint64		pos = 0,
				h;
	int			m;

	if (src->kind != k)
		bloom_bad_state(k, "the state is of another kind");
	if (!bloom_args_equal(&dst->args, &src->args))
		bloom_args_differ(k->agg_name, "partial aggregates were given different ones");
	bloom_merge_element_fields(df.family, df.collfp, sf.family, *sf.collfp, k->agg_name);
	if (k->adopted)
		k->adopted(bloom_state_header(dst));
	if (src->mode == BLOOM_AGG_EXACT)
	{
		while (bloom_hashset_next(&src->set, &pos, &h, &m))
			for (int i = 0; i < m; i++)
				bloom_state_push(dst, h);
		bloom_state_flush(dst);
	}
	else if (src->mode == BLOOM_AGG_LIST)
	{
		for (uint64 i = 0; i < src->nlist; i++)
			bloom_state_push(dst, src->list[i]);
		bloom_state_flush(dst);
	}
	else if (dst->mode == BLOOM_AGG_EXACT)
		bloom_state_take_filter(dst, src->filter, aggcxt);
	else
	{
		if (dst->mode == BLOOM_AGG_LIST)
			bloom_state_list_to_filter(dst);
		k->merge(&dst->filter, src->filter, aggcxt);
	}
}

/* Copy a state into aggcxt (combine may get a state it must not keep). */
static BloomAggState *
bloom_state_copy(MemoryContext aggcxt, const BloomAggState *src)
{
	BloomAggState *st = MemoryContextAlloc(aggcxt, sizeof(BloomAggState));

	memcpy(st, src, sizeof(BloomAggState));
	st->deserialized = false;
	if (src->mode == BLOOM_AGG_FILTER)
		st->filter = bloom_copy_in(aggcxt, src->filter);
	else
	{
		st->hdr = MemoryContextAlloc(aggcxt, src->kind->header_size);
		memcpy(st->hdr, src->hdr, src->kind->header_size);
		if (src->mode == BLOOM_AGG_LIST)
		{
			st->list = MemoryContextAllocHuge(aggcxt, src->listcap * sizeof(uint64));
			memcpy(st->list, src->list, src->nlist * sizeof(uint64));
		}
		else
			bloom_hashset_copy(&st->set, &src->set, aggcxt);
	}
	return st;
}

/* The combine function of every value aggregate (the states know their kind). */
Datum
bloom_agg_merge_states(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomAggState *a = PG_ARGISNULL(0) ? NULL : (BloomAggState *) PG_GETARG_POINTER(0);
	BloomAggState *b = PG_ARGISNULL(1) ? NULL : (BloomAggState *) PG_GETARG_POINTER(1);

	if (b == NULL)
		PG_RETURN_POINTER(a);	/* may be NULL too: the result is NULL */
	/* a state deserialized in this aggregate context is ours to keep */
	if (a == NULL && b->deserialized)
	{
		bloom_state_flush(b);
		PG_RETURN_POINTER(b);
	}
	PG_RETURN_POINTER(bloom_agg_combine_into(a, b, aggcxt));
}

/*
 * Merge state b into a (a lives in cxt) and return a; a NULL a gives a
 * copy of b in cxt.  b is not changed beyond applying its queued hashes.
 */
BloomAggState *
bloom_agg_combine_into(BloomAggState *a, BloomAggState *b, MemoryContext cxt)
{
	bloom_state_flush(b);
	if (a == NULL)
		return bloom_state_copy(cxt, b);
	bloom_state_flush(a);
	bloom_state_merge(a, b, cxt);
	a->nadded += b->nadded;
	return a;
}

/* ---- serialize / deserialize -------------------------------------------- */

/*
 * Serialized state: the kind's tag and the phase (1 byte each), the
 * non-null rows (8), the sizing arguments (their count, 1, then 4 + 8
 * each), then the filter's binary form (the kind's portable image), or the
 * exact-phase header as it is in memory (a state never leaves the query's
 * processes) and the set.
 */
Datum
bloom_agg_serialize(FunctionCallInfo fcinfo)
{
	StringInfoData buf;

	bloom_agg_context(fcinfo);
	pq_begintypsend(&buf);
	bloom_agg_write(&buf, (BloomAggState *) PG_GETARG_POINTER(0));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/*
 * Append the serialized form of st to buf (a state in the list phase
 * becomes its filter first: partial states travel as filters).
 */
void
bloom_agg_write(StringInfo buf, BloomAggState *st)
{
	const BloomKindOps *k = st->kind;

	bloom_state_flush(st);
	if (st->mode == BLOOM_AGG_LIST)
		bloom_state_list_to_filter(st);
	pq_sendbyte(buf, k->agg_tag);
	pq_sendbyte(buf, (int) st->mode);
	pq_sendint64(buf, st->nadded);
	pq_sendbyte(buf, st->args.n);
	for (int i = 0; i < st->args.n; i++)
	{
		pq_sendint32(buf, st->args.types[i]);
		pq_sendint64(buf, st->args.bits[i]);
	}
	if (st->mode == BLOOM_AGG_FILTER)
	{
		BloomFilter *w = k->portable ? k->portable(st->filter) : (BloomFilter *) st->filter;

		/* one allocation for a large filter state, not repeated doubling */
		enlargeStringInfo(buf, BLOOM_WIRE_HEADER_SIZE + (int) BLOOM_DATA_BYTES(w));
		bloom_wire_append(buf, w);
	}
	else
	{
		pq_sendbytes(buf, st->hdr, (int) k->header_size);
		bloom_hashset_send(buf, &st->set);
	}
}

/* Read the sizing arguments of a serialized state into a. */
static void
bloom_args_recv(const BloomKindOps *k, StringInfo buf, BloomAggArgs *a)
{
	memset(a, 0, sizeof(*a));	/* no datums: quick is false */
	if (buf->len - buf->cursor < 1)
		bloom_bad_state(k, "the state is truncated");
	a->n = pq_getmsgbyte(buf);
	if (a->n > BLOOM_AGG_MAX_ARGS || buf->len - buf->cursor < a->n * 12)
		bloom_bad_state(k, "the sizing arguments are malformed");
	for (int i = 0; i < a->n; i++)
	{
		a->types[i] = pq_getmsgint(buf, 4);
		a->bits[i] = pq_getmsgint64(buf);
		if (a->types[i] != INT4OID && a->types[i] != INT8OID && a->types[i] != FLOAT8OID)
			bloom_bad_state(k, "the sizing arguments are malformed");
	}
}

/*
 * A filter of kind k from its binary form, the rest of buf, validated like
 * the kind's binary input, in aggcxt.
 */
void *
bloom_agg_filter_recv(const BloomKindOps *k, StringInfo buf, MemoryContext aggcxt)
{
	BloomFilter *f = bloom_parse_wire((const uint8 *) buf->data + buf->cursor,
									  buf->len - buf->cursor,
									  k->decode ? CurrentMemoryContext : aggcxt,
									  k->kind, k->state_msg);

	return k->decode ? k->decode(f, aggcxt) : f;
}

/*
 * An exact-phase state of kind k from the rest of buf, validated (its set
 * left empty unless build).
 */
static BloomAggState *
bloom_agg_exact_recv(const BloomKindOps *k, StringInfo buf, MemoryContext aggcxt,
					 bool build)
{
	void	   *hdr;
	BloomAggState *st;
	const char *why;

	if (buf->len - buf->cursor < (int) k->header_size)
		bloom_bad_state(k, "the exact-set header is truncated");
	hdr = MemoryContextAlloc(aggcxt, k->header_size);
	memcpy(hdr, pq_getmsgbytes(buf, (int) k->header_size), k->header_size);
	st = bloom_state_new(aggcxt, k, hdr, true);
	if ((why = k->check_exact_hdr(hdr)) != NULL ||
		(why = bloom_hashset_recv(&st->set, buf, k->exact_max + 1, build)) != NULL)
		bloom_bad_state(k, why);
	return st;
}

/* The deserialize function of kind k's value aggregates. */
Datum
bloom_agg_deserialize(FunctionCallInfo fcinfo, const BloomKindOps *k)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomAggState *st;

	st = bloom_agg_read(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), k, aggcxt);
	st->deserialized = true;
	PG_RETURN_POINTER(st);
}

/* The kind whose serialized states begin with tag, or NULL. */
static const BloomKindOps *
bloom_agg_kind_of_tag(int tag)
{
	for (int i = 0; i < BLOOM_NKINDS; i++)
	{
		const BloomKindOps *k = bloom_kind_ops((BloomKind) i);

		if (k != NULL && k->agg_tag == tag)
			return k;
	}
	return NULL;
}

/*
 * A state read from its serialized form (len bytes at data), validated like
 * the kind's binary input, in cxt; k is the kind it must be, or NULL for
 * any (the tag says).  Without build, an exact set is checked but not
 * built (bloom_agg_check).
 */
static BloomAggState *
bloom_agg_read_ext(const char *data, int len, const BloomKindOps *k, MemoryContext cxt,
				   bool build)
{
	const BloomKindOps *own;
	StringInfoData buf;
	BloomAggState *st;
	BloomAggArgs args;
	int			mode;
	uint64		nadded;

	buf.data = (char *) data;
	buf.len = len;
	buf.cursor = 0;
	own = len > 0 ? bloom_agg_kind_of_tag((unsigned char) data[0]) : NULL;
	if (k == NULL)
		k = own ? own : &bloom_plain_ops;
	if (len < 10)
		bloom_bad_state(k, "the state is truncated");
	if (own != k)
		bloom_bad_state(k, "unknown state kind");
	(void) pq_getmsgbyte(&buf);
	mode = pq_getmsgbyte(&buf);
	nadded = (uint64) pq_getmsgint64(&buf);
	bloom_args_recv(k, &buf, &args);
	if (mode == BLOOM_AGG_FILTER)
		st = bloom_state_new(cxt, k, bloom_agg_filter_recv(k, &buf, cxt), false);
	else if (mode == BLOOM_AGG_EXACT)
		st = bloom_agg_exact_recv(k, &buf, cxt, build);
	else
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, k->state_msg,
					"unknown state phase");
	st->nadded = nadded;
	st->args = args;
	return st;
}

/* A state read from its serialized form: bloom_agg_read_ext, built. */
BloomAggState *
bloom_agg_read(const char *data, int len, const BloomKindOps *k, MemoryContext cxt)
{
	return bloom_agg_read_ext(data, len, k, cxt, true);
}

/*
 * Check the serialized form of a state of any kind (len bytes at data) as
 * bloom_agg_read does, an error if it is invalid, with cxt for scratch: for
 * the state type's input functions, which keep the bytes, not the state
 * (an exact set's table is not built only to be thrown away).
 */
void
bloom_agg_check(const char *data, int len, MemoryContext cxt)
{
	(void) bloom_agg_read_ext(data, len, NULL, cxt, false);
}


/* ---- bloom_agg's partial-state entry points ------------------------------ */

PG_FUNCTION_INFO_V1(bloom_agg_combine);
Datum
bloom_agg_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_merge_states(fcinfo);
}

PG_FUNCTION_INFO_V1(bloom_agg_serial);
Datum
bloom_agg_serial(PG_FUNCTION_ARGS)
{
	return bloom_agg_serialize(fcinfo);
}

PG_FUNCTION_INFO_V1(bloom_agg_deserial);
Datum
bloom_agg_deserial(PG_FUNCTION_ARGS)
{
	return bloom_agg_deserialize(fcinfo, &bloom_plain_ops);
}
