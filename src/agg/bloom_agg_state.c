/*-------------------------------------------------------------------------
 *
 * bloom_agg_state.c
 *	  The bloom_agg_state type: the state of every aggregate of a fixed key
 *	  type (bloom_agg, counting_bloom_agg, scalable_bloom_agg and
 *	  bloom_parquet_agg of one key type each, the n-gram and token
 *	  aggregates, the union and intersection aggregates of every kind), a
 *	  real SQL type rather than `internal`, so that a distributed engine
 *	  (Citus) can run them as partial aggregates on the shards and combine
 *	  the partial states on the coordinator.
 *
 * Why a type.  Citus splits a custom aggregate only when it has a combine
 * function and a state type that is not a pseudo-type; the state crosses
 * nodes through the type's send (or output) function and comes back through
 * its receive (or input) function, and the transition function is called
 * through fmgr with no expression.  So:
 *  - the value is the serialized state of the aggregate engine (bloom_agg.c:
 *    the kind's tag, the phase, the row count, the sizing arguments, then
 *    the filter's portable image or the exact set), the same bytes parallel
 *    workers exchange through bloom_agg_serial; the text form is those
 *    bytes in hex after "\x".  Receive and input validate them as the
 *    deserialize function does (a hostile value is a clean 22P03 or 22P02
 *    error, never a wrong filter);
 *  - the aggregates are declared per key type (bloom_agg(bigint), ...) over
 *    transition functions whose declared argument is that type, which is
 *    where bloom_agg_argtype finds it when there is no expression; the
 *    polymorphic bloom_agg(anyelement) stays for every other type;
 *  - a set-operation aggregate's state is the same engine state in its
 *    filter phase: the result so far, merged in place by the kind's step
 *    (bloom_agg_state_setop); a value aggregate's exact set is refused
 *    there, as is another kind's state;
 *  - the scalable kind's partial states are exact sets when the transition
 *    function has no expression (bloom_agg_is_partial): Citus's shards
 *    send their distinct hashes and the coordinator builds the filter, so
 *    it keeps the members and the rate of the serial plan;
 *  - while the aggregate runs, the state is an expanded object (as
 *    PostgreSQL's arrays are) in a memory context of its own under the
 *    aggregate context: the transition function returns the same
 *    read-write pointer every row, which the executor (and Citus) keep
 *    without copying, so a multi-megabyte state is never copied per row.
 *    It is flattened (serialized) only when it leaves the process: a
 *    parallel worker's partial state, a Citus shard's.
 *
 * The exact-phase header of a serialized state is in the server's byte
 * order (as bloom_agg_serial's always was): the nodes of one cluster share
 * their architecture; a value from another is rejected by its validation
 * or, at worst, merges as a different filter header -- never read out of
 * bounds.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_agg.h"
#include "bloom_agg_partial.h"
#include "bloom_setop_agg.h"
#include "../bloom/bloom_type.h"

#include "access/detoast.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

/* A state while the aggregate runs: the engine's state, and its flat form. */
typedef struct BloomAggStateEOH
{
	ExpandedObjectHeader hdr;
	BloomAggState *st;
	const BloomKindOps *kind;	/* st's kind, set by a row's slow way; NULL
								 * after any other change, and while flat
								 * is set (a row's short way checks only
								 * this) */
	char	   *flat;			/* serialized bytes, NULL until asked for */
	int			flatlen;
} BloomAggStateEOH;

static Size bloom_eoh_flat_size(ExpandedObjectHeader *eohptr);
static void bloom_eoh_flatten(ExpandedObjectHeader *eohptr, void *result,
							  Size allocated_size);

static void bloom_agg_state_check_kind(BloomAggState *st, const BloomKindOps *k);
static Datum bloom_agg_state_first(FunctionCallInfo fcinfo, const BloomKindOps *k,
								   BloomAggMake make, const char *aggname);
static BloomAggState *bloom_agg_state_open_first(FunctionCallInfo fcinfo, const BloomKindOps *k,
												 BloomAggMake make, Datum *result, bool *again);

static const ExpandedObjectMethods bloom_eoh_methods = {
	bloom_eoh_flat_size,
	bloom_eoh_flatten
};

/* The serialized bytes of the state, computed once until it changes. */
static Size
bloom_eoh_flat_size(ExpandedObjectHeader *eohptr)
{
	BloomAggStateEOH *e = (BloomAggStateEOH *) eohptr;

	if (e->flat == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(e->hdr.eoh_context);
		StringInfoData buf;

		initStringInfo(&buf);
		bloom_agg_write(&buf, e->st);
		e->flat = buf.data;
		e->flatlen = buf.len;
		e->kind = NULL;			/* the next row goes the slow way: flat is stale */
		MemoryContextSwitchTo(old);
	}
	return VARHDRSZ + (Size) e->flatlen;
}

/* Copy the serialized bytes into result, a varlena of allocated_size. */
static void
bloom_eoh_flatten(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	BloomAggStateEOH *e = (BloomAggStateEOH *) eohptr;

	Assert(e->flat != NULL && allocated_size == VARHDRSZ + (Size) e->flatlen);
	memcpy(VARDATA(result), e->flat, e->flatlen);
	SET_VARSIZE(result, allocated_size);
}

/* A new expanded state (no engine state yet) in a context under parent. */
static BloomAggStateEOH *
bloom_eoh_new(MemoryContext parent)
{
	MemoryContext cxt = AllocSetContextCreate(parent, "bloom_agg_state",
											  ALLOCSET_SMALL_SIZES);
	BloomAggStateEOH *e = MemoryContextAllocZero(cxt, sizeof(BloomAggStateEOH));

	EOH_init_header(&e->hdr, &bloom_eoh_methods, cxt);
	return e;
}

/* The state is about to change: its flat form is stale. */
static void
bloom_eoh_changed(BloomAggStateEOH *e)
{
	e->kind = NULL;
	if (e->flat != NULL)
	{
		pfree(e->flat);
		e->flat = NULL;
	}
}

/* Is d one of our expanded states? */
static bool
bloom_eoh_is_ours(Datum d)
{
	return VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d)) &&
		DatumGetEOHP(d)->eoh_methods == &bloom_eoh_methods;
}

/*
 * The state of argument i, to be changed and returned: our read-write
 * expanded state as it is, any other form (read-only, flat: a partial
 * state from elsewhere) copied or read into a new one under aggcxt.
 */
static BloomAggStateEOH *
bloom_eoh_writable(FunctionCallInfo fcinfo, int i, MemoryContext aggcxt)
{
	Datum		d = PG_GETARG_DATUM(i);
	BloomAggStateEOH *e;

	if (bloom_eoh_is_ours(d) && VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(d)))
		e = (BloomAggStateEOH *) DatumGetEOHP(d);
	else
	{
		e = bloom_eoh_new(aggcxt);
		if (bloom_eoh_is_ours(d))
			e->st = bloom_agg_combine_into(NULL, ((BloomAggStateEOH *) DatumGetEOHP(d))->st,
										   e->hdr.eoh_context);
		else
		{
			struct varlena *v = PG_DETOAST_DATUM_PACKED(d);

			e->st = bloom_agg_read(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), NULL,
								   e->hdr.eoh_context);
		}
	}
	bloom_eoh_changed(e);
	return e;
}

/*
 * The engine state of argument i, only to be read: our expanded state's
 * own, or one read from a flat value into the current context.
 */
static BloomAggState *
bloom_eoh_readable(FunctionCallInfo fcinfo, int i)
{
	Datum		d = PG_GETARG_DATUM(i);
	struct varlena *v;

	if (bloom_eoh_is_ours(d))
		return ((BloomAggStateEOH *) DatumGetEOHP(d))->st;
	v = PG_DETOAST_DATUM_PACKED(d);
	return bloom_agg_read(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), NULL, CurrentMemoryContext);
}

/*
 * Our read-write state of kind k in argument 0, as the previous row
 * returned it, or NULL: every row but the first takes this short way, so it
 * reads the expanded pointer in place and checks only what a state of
 * ours, unchanged since the previous row of this aggregate, has.  (No
 * aggregate-context check: such a state exists only inside an aggregate.)
 */
static inline BloomAggStateEOH *
bloom_eoh_own_rw(FunctionCallInfo fcinfo, const BloomKindOps *k)
{
	struct varlena *p = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(0));
	varatt_expanded ex;
	BloomAggStateEOH *e;

	if (PG_ARGISNULL(0) || !VARATT_IS_EXTERNAL_EXPANDED_RW(p))
		return NULL;
	VARATT_EXTERNAL_GET_POINTER(ex, p);
	e = (BloomAggStateEOH *) ex.eohptr;
	if (e->hdr.eoh_methods != &bloom_eoh_methods || e->kind != k)
		return NULL;				/* (kind is NULL while flat is set) */
	return e;
}

/*
 * The state of argument 0 to change for a row of kind k when it is not our
 * read-write state: a new one (no engine state yet) for NULL, else a copy
 * or a reading of it, of kind k.
 */
static BloomAggStateEOH *
bloom_eoh_for_row(FunctionCallInfo fcinfo, const BloomKindOps *k, MemoryContext aggcxt)
{
	BloomAggStateEOH *e;

	if (PG_ARGISNULL(0))
		return bloom_eoh_new(aggcxt);
	e = bloom_eoh_writable(fcinfo, 0, aggcxt);
	bloom_agg_state_check_kind(e->st, k);
	return e;
}

/*
 * The transition function of a per-type aggregate of kind k: argument 0 the
 * state, 1 the value, 2.. the sizing arguments that make turns into the
 * state's filter (or exact-phase header) on the first row.
 */
Datum
bloom_agg_state_apply(FunctionCallInfo fcinfo, const BloomKindOps *k, BloomAggMake make,
					  const char *aggname)
{
	BloomAggStateEOH *e;

	if (likely((e = bloom_eoh_own_rw(fcinfo, k)) != NULL))
		return bloom_agg_row(fcinfo, e->st, k, aggname);
	return bloom_agg_state_first(fcinfo, k, make, aggname);
}

/*
 * bloom_agg_state_apply for a row whose state is not our read-write state
 * of the previous row: the first row (NULL), or a state from elsewhere.
 * Out of line, so that the short way saves no registers for it.
 */
static pg_noinline Datum
bloom_agg_state_first(FunctionCallInfo fcinfo, const BloomKindOps *k, BloomAggMake make,
					  const char *aggname)
{
	BloomAggStateEOH *e = bloom_eoh_for_row(fcinfo, k, bloom_agg_context(fcinfo));

	e->st = bloom_agg_step(fcinfo, e->st, k, make, aggname, e->hdr.eoh_context);
	e->kind = k;
	PG_RETURN_DATUM(EOHPGetRWDatum(&e->hdr));
}

/*
 * The engine state of argument 0 if it is our read-write state of kind k
 * that this transition function returned for the previous row, else NULL
 * (then bloom_agg_state_open): a caller's short way, with nothing to
 * return through pointers (a frame and a stack-protector check a row).
 */
BloomAggState *
bloom_agg_state_again(FunctionCallInfo fcinfo, const BloomKindOps *k)
{
	BloomAggStateEOH *e = bloom_eoh_own_rw(fcinfo, k);

	return likely(e != NULL) ? e->st : NULL;
}

/*
 * For transition functions that add elements of their own (n-grams,
 * tokens: bloom_text.c): the engine state of argument 0 to add them to,
 * made by make on the first row, and in *result the datum to return;
 * *again says it is the state this function returned for the previous row
 * (what the caller checked then need not be checked again).
 */
BloomAggState *
bloom_agg_state_open(FunctionCallInfo fcinfo, const BloomKindOps *k, BloomAggMake make,
					 Datum *result, bool *again)
{
	BloomAggStateEOH *e;

	if (likely((e = bloom_eoh_own_rw(fcinfo, k)) != NULL))
	{
		*result = PG_GETARG_DATUM(0);
		*again = true;
		return e->st;
	}
	return bloom_agg_state_open_first(fcinfo, k, make, result, again);
}

/*
 * bloom_agg_state_open for a row whose state is not our read-write state
 * of the previous row.  Out of line, as bloom_agg_state_first is.
 */
static pg_noinline BloomAggState *
bloom_agg_state_open_first(FunctionCallInfo fcinfo, const BloomKindOps *k, BloomAggMake make,
						   Datum *result, bool *again)
{
	BloomAggStateEOH *e = bloom_eoh_for_row(fcinfo, k, bloom_agg_context(fcinfo));

	*again = false;
	if (e->st == NULL)
		e->st = bloom_agg_new_state(fcinfo, k, make, e->hdr.eoh_context);
	e->kind = k;
	*result = EOHPGetRWDatum(&e->hdr);
	return e->st;
}

/* 22P03 unless st is a state of kind k (one state type serves every kind). */
static void
bloom_agg_state_check_kind(BloomAggState *st, const BloomKindOps *k)
{
	if (st != NULL && bloom_agg_state_kind(st) != k)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, k->state_msg,
					"the state is of another kind");
}

/* The combine function of the per-type aggregates of kind k. */
Datum
bloom_agg_state_merge(FunctionCallInfo fcinfo, const BloomKindOps *k)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomAggStateEOH *e;
	BloomAggState *b;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	b = bloom_eoh_readable(fcinfo, 1);
	bloom_agg_state_check_kind(b, k);
	if (PG_ARGISNULL(0))
		e = bloom_eoh_new(aggcxt);
	else
		e = bloom_eoh_writable(fcinfo, 0, aggcxt);
	bloom_agg_state_check_kind(e->st, k);
	e->st = bloom_agg_combine_into(e->st, b, e->hdr.eoh_context);
	PG_RETURN_DATUM(EOHPGetRWDatum(&e->hdr));
}

/*
 * The final function of the per-type aggregates of kind k: the filter (the
 * state stays as it is); over no rows, the kind's empty filter.
 */
Datum
bloom_agg_state_finish(FunctionCallInfo fcinfo, const BloomKindOps *k)
{
	BloomAggState *st;

	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(k->empty());
	st = bloom_eoh_readable(fcinfo, 0);
	bloom_agg_state_check_kind(st, k);
	PG_RETURN_POINTER(bloom_agg_result(fcinfo, st));
}

/* ---- set-operation aggregates ---------------------------------------------- */

/*
 * The filter of a set-operation state st of aggregate k (a state of the
 * filter phase of k's kind; 22P03 otherwise: a value aggregate's exact
 * state passed by hand).
 */
static void *
bloom_setop_filter_of(BloomAggState *st, const BloomSetopAgg *k)
{
	void	   *f;

	bloom_agg_state_check_kind(st, k->ops);
	if ((f = bloom_agg_state_filter(st)) == NULL)
		bloom_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, k->ops->state_msg,
					"the state holds a set of values, not a filter");
	return f;
}

/*
 * The transition (combine = false: argument 1 a filter) or combine
 * (argument 1 a state) function of set-operation aggregate k over
 * bloom_agg_state: the state is the result so far, merged in place by the
 * kind's step; NULL before the first non-null input.
 */
Datum
bloom_agg_state_setop(FunctionCallInfo fcinfo, const BloomSetopAgg *k, bool combine)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo);
	BloomAggStateEOH *e;
	const void *in;
	MemoryContext cxt;

	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	in = combine ? bloom_setop_filter_of(bloom_eoh_readable(fcinfo, 1), k) :
		bloom_from_datum_kind(PG_GETARG_DATUM(1), k->ops->kind);
	e = PG_ARGISNULL(0) ? bloom_eoh_new(aggcxt) : bloom_eoh_writable(fcinfo, 0, aggcxt);
	cxt = e->hdr.eoh_context;
	if (e->st == NULL)
		e->st = bloom_agg_filter_state(k->ops, k->step(cxt, NULL, in), cxt);
	else
		bloom_agg_state_set_filter(e->st, k->step(cxt, bloom_setop_filter_of(e->st, k), in));
	PG_RETURN_DATUM(EOHPGetRWDatum(&e->hdr));
}

/*
 * The final function of set-operation aggregate k: a copy of the result
 * (the state stays as it is), checked for fullness; over no rows, the
 * kind's empty filter, or NULL.
 */
Datum
bloom_agg_state_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k)
{
	bool		isnull;
	void	   *f;

	bloom_agg_context(fcinfo);
	f = bloom_setop_result(fcinfo, k, PG_ARGISNULL(0) ? NULL :
						   bloom_setop_filter_of(bloom_eoh_readable(fcinfo, 0), k), &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(f);
}

/*
 * bloom_union_agg(bloom) and bloom_intersect_agg(bloom) over the
 * bloom_agg_state type (bloom_agg_state.c), which Citus splits: the
 * transition, combine and final functions.
 */
PG_FUNCTION_INFO_V1(bloom_union_agg_state_add);
Datum
bloom_union_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &bloom_union_setop, false);
}

PG_FUNCTION_INFO_V1(bloom_union_agg_state_combine);
Datum
bloom_union_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &bloom_union_setop, true);
}

PG_FUNCTION_INFO_V1(bloom_union_agg_state_final);
Datum
bloom_union_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop_finish(fcinfo, &bloom_union_setop);
}

PG_FUNCTION_INFO_V1(bloom_intersect_agg_state_add);
Datum
bloom_intersect_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &bloom_intersect_setop, false);
}

PG_FUNCTION_INFO_V1(bloom_intersect_agg_state_combine);
Datum
bloom_intersect_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop(fcinfo, &bloom_intersect_setop, true);
}

PG_FUNCTION_INFO_V1(bloom_intersect_agg_state_final);
Datum
bloom_intersect_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_setop_finish(fcinfo, &bloom_intersect_setop);
}

/*
 * The first row's filter (or exact-phase header) of bloom_agg(T, ...): the
 * number of arguments says which form of sizing.
 */
static void *
bloom_agg_plain_make(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	if (PG_NARGS() == 2)
		return bloom_agg_auto_header(fcinfo, aggcxt, exact);
	if (PG_NARGS() == 4)
		return bloom_make_sized(fcinfo, aggcxt, exact);
	return bloom_make_explicit(fcinfo, aggcxt, exact);
}

/*
 * bloom_agg(T), bloom_agg(T, capacity, fpr) and bloom_agg(T, size_bytes,
 * hashes, seed) for the key types T with aggregates of their own (the
 * number of arguments says which form), and their combine and final.
 */
PG_FUNCTION_INFO_V1(bloom_agg_state_add);
Datum
bloom_agg_state_add(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_apply(fcinfo, &bloom_plain_ops, bloom_agg_plain_make, "bloom_agg");
}

PG_FUNCTION_INFO_V1(bloom_agg_state_combine);
Datum
bloom_agg_state_combine(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_merge(fcinfo, &bloom_plain_ops);
}

PG_FUNCTION_INFO_V1(bloom_agg_state_final);
Datum
bloom_agg_state_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_state_finish(fcinfo, &bloom_plain_ops);
}

/* ---- input and output ----------------------------------------------------- */

/*
 * The serialized bytes of a value of the type (expanded or flat); *len is
 * their count.
 */
static const char *
bloom_agg_state_bytes(Datum d, int *len)
{
	struct varlena *v;

	if (bloom_eoh_is_ours(d))
	{
		BloomAggStateEOH *e = (BloomAggStateEOH *) DatumGetEOHP(d);

		bloom_eoh_flat_size(&e->hdr);
		*len = e->flatlen;
		return e->flat;
	}
	v = (struct varlena *) PG_DETOAST_DATUM_PACKED(d);
	*len = VARSIZE_ANY_EXHDR(v);
	return VARDATA_ANY(v);
}

/*
 * A flat value of the type from len serialized bytes at data, after they
 * were read as a state (validated: an error otherwise).
 */
static Datum
bloom_agg_state_checked(const char *data, int len)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "bloom_agg_state check",
											  ALLOCSET_DEFAULT_SIZES);
	bytea	   *r;

	bloom_agg_check(data, len, cxt);
	MemoryContextDelete(cxt);
	r = palloc(VARHDRSZ + len);
	SET_VARSIZE(r, VARHDRSZ + len);
	memcpy(VARDATA(r), data, len);
	PG_RETURN_BYTEA_P(r);
}

/* The value of one hex digit, or -1. */
static int
bloom_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Input: "\x" and the serialized state in hex, validated. */
PG_FUNCTION_INFO_V1(bloom_agg_state_in);
Datum
bloom_agg_state_in(PG_FUNCTION_ARGS)
{
	const char *s = PG_GETARG_CSTRING(0);
	size_t		n = strlen(s);
	char	   *bytes;

	if (n < 2 || s[0] != '\\' || s[1] != 'x' || (n - 2) % 2 != 0 ||
		(n - 2) / 2 > MaxAllocSize - VARHDRSZ)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type bloom_agg_state: \"%.40s%s\"",
						s, n > 40 ? "..." : ""),
				 errdetail("A bloom_agg_state is \\x followed by an even number of hex digits."),
				 errhint("Pass the text form of a state as a bloom_agg_state value prints it.")));
	bytes = palloc((n - 2) / 2 + 1);
	for (size_t i = 2; i < n; i += 2)
	{
		int			hi = bloom_hex_digit(s[i]),
					lo = bloom_hex_digit(s[i + 1]);

		if (hi < 0 || lo < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type bloom_agg_state: \"%.40s%s\"",
							s, n > 40 ? "..." : ""),
					 errdetail("Character %zu is not a hex digit.", i + 1)));
		bytes[(i - 2) / 2] = (char) (hi << 4 | lo);
	}
	return bloom_agg_state_checked(bytes, (int) ((n - 2) / 2));
}

/* Output: "\x" and the serialized state in hex. */
PG_FUNCTION_INFO_V1(bloom_agg_state_out);
Datum
bloom_agg_state_out(PG_FUNCTION_ARGS)
{
	static const char hex[] = "0123456789abcdef";
	int			len;
	const char *b = bloom_agg_state_bytes(PG_GETARG_DATUM(0), &len);
	char	   *r = palloc((Size) len * 2 + 3);
	char	   *p = r;

	*p++ = '\\';
	*p++ = 'x';
	for (int i = 0; i < len; i++)
	{
		*p++ = hex[(unsigned char) b[i] >> 4];
		*p++ = hex[(unsigned char) b[i] & 15];
	}
	*p = '\0';
	PG_RETURN_CSTRING(r);
}

/* Receive: the serialized state, validated. */
PG_FUNCTION_INFO_V1(bloom_agg_state_recv);
Datum
bloom_agg_state_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	const char *data = buf->data + buf->cursor;
	int			len = buf->len - buf->cursor;

	buf->cursor = buf->len;
	return bloom_agg_state_checked(data, len);
}

/* Send: the serialized state. */
PG_FUNCTION_INFO_V1(bloom_agg_state_send);
Datum
bloom_agg_state_send(PG_FUNCTION_ARGS)
{
	int			len;
	const char *b = bloom_agg_state_bytes(PG_GETARG_DATUM(0), &len);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, b, len);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}
