/*-------------------------------------------------------------------------
 *
 * bloom_agg.c
 *	  The aggregate engine: one state design for the value aggregates of
 *	  every kind -- bloom_agg (with bloom_parquet_agg of bloom_parquet.c and
 *	  the n-gram and token aggregates of bloom_text.c), counting_bloom_agg and
 *	  scalable_bloom_agg; the set-operation aggregates are
 *	  bloom_setop_agg.c's.  A kind's hooks
 *	  are part of its one table of operations (BloomKindOps, bloom_kind.h),
 *	  defined in its type's file (bloom_type.c, counting_bloom.c,
 *	  scalable_bloom.c) with the rest of the kind; the SQL entry points are
 *	  thin wrappers over the functions here.
 *
 * State.  A value aggregate keeps an `internal` state, updated in place and
 * allocated in the aggregate context.  The first non-null row sets up the
 * value argument's hash information and gives the filter its element
 * family; the first row's sizing arguments are recorded, and a later row
 * (or a partial state, in combine) with others is an error (22023): the
 * filter was sized once.  Hashes wait in the prefetch queue a few rows
 * while the memory each will touch is fetched.
 *
 * Two phases.  A state fills a filter of its kind, sized by the first row's
 * arguments, or keeps the exact set of the distinct element hashes under a
 * header of its kind (parameters and element fields), and builds the
 * filter at the end (the kind's from_exact, then every hash inserted):
 *  - automatic sizing (bloom_agg(x), counting_bloom_agg(x)): the final
 *    filter is sized for the true number of distinct values.  The counting
 *    kind keeps each hash's multiplicity, up to 15 where a counter
 *    saturates anyway: a value added twice has its counters raised twice,
 *    so one removal leaves it present;
 *  - the partial states of scalable_bloom_agg (Aggref.aggsplit says the
 *    state will be combined: parallel workers, partitionwise aggregation).
 *    A scalable filter depends on the order of insertion (a value goes
 *    into the newest sub-filter), so two filters built on parts of the data
 *    cannot be merged into one that keeps the rate: OR-ing them sub-filter
 *    by sub-filter puts up to n times the capacity into each (56-60 % false
 *    positives for a 1 % target over 1,000,000 rows).  Exact sets combine
 *    without loss, and the final function inserts them one by one as the
 *    serial plan does: the same rate.
 * Past the kind's exact_max distinct hashes the set becomes a filter (the
 * kind's from_exact for an overflow): bloom's, after a list of the hashes
 * (below), one blocked filter of BLOOM_AUTO_MAX_BITS that the final
 * function folds down; scalable's, its
 * filter, whose partial states then merge sub-filter by sub-filter (over
 * capacity: the full-filter check says so); counting's, an error -- the
 * sized form is the way.
 *
 * Automatic sizing of bloom_agg(x) (its limits: bloom_type.c): an exact
 * set of up to BLOOM_AUTO_EXACT_MAX hashes (16 bytes a distinct value at
 * most), then a list of the hashes as they come (the kind's list_max; 8
 * bytes a row, appended in order: no random access while the rows stream
 * in), then a filter of BLOOM_AUTO_MAX_BITS (128 MiB, 1 % up to about 100
 * million distinct values).  The final function builds (or folds down to) the
 * smallest power-of-two blocked filter that keeps the model false-positive
 * rate at or under 1 %: for the exact set, sized by its count; for the
 * list, by a HyperLogLog estimate of its distinct hashes (2^14 registers,
 * standard error 0.8 %) raised by BLOOM_LIST_MARGIN, then every listed
 * hash inserted; for the big filter, by the estimate from its bits.  The
 * list phase exists for speed: inserting into a 128 MiB filter while the
 * rows stream in costs a cache and TLB miss a row, and the fold reads the
 * 128 MiB again (bench/run.sh's agg-auto rows compare the automatic with
 * the sized aggregate).  A state that is serialized or combined (parallel or
 * partitionwise aggregation) leaves the list for the big filter first, so
 * partial states travel as before.  Folding a power-of-two filter is identical to
 * building it directly at the smaller size, so every automatically sized
 * filter is foldable onto every other one, and union works across sizes.
 *
 * Combining, serializing and deserializing states (parallel and
 * partitionwise aggregation, Citus) are bloom_agg_partial.c's.
 *
 * Zero rows, or only NULLs, give the kind's empty filter, never NULL: an
 * empty filter answers false for every probe and is the identity of union.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_agg.h"
#include "bloom_agg_internal.h"
#include "bloom_agg_args.h"
#include "bloom_hashset.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_element.h"
#include "../datum/bloom_version.h"
#include "../bloom/bloom_type.h"
#include "../core/bloom_hll.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

/*
 * The list's distinct count is estimated (HyperLogLog, 2^14 registers:
 * standard error 1.04 / 128 = 0.81 %) and raised by 3 % (3.7 standard
 * errors) before sizing, so an underestimate does not undersize the filter.
 */
#define BLOOM_LIST_HLL_BITS		14
#define BLOOM_LIST_MARGIN		1.03

/*
 * Insert every hash of s (as often as its multiplicity) into the kind's
 * filter *f, a queue's length at a time.
 */
void
bloom_set_into_filter(const BloomKindOps *k, const BloomHashSet *s, void **f,
					  MemoryContext cxt)
{
	uint64		batch[BLOOM_QUEUE_LEN];
	uint64		pos = 0,
				h;
	int			n = 0,
				m;

	while (bloom_hashset_next(s, &pos, &h, &m))
		for (int i = 0; i < m; i++)
		{
			batch[n++] = h;
			if (n == BLOOM_QUEUE_LEN)
			{
				k->insert(f, batch, n, cxt);
				n = 0;
			}
		}
	if (n > 0)
		k->insert(f, batch, n, cxt);
}

/* ---- the list of hashes ------------------------------------------------ */

/*
 * Insert the n hashes h into the kind's filter *f, a queue's length at a
 * time, prefetching the next queue's memory while inserting this one.
 */
static void
bloom_list_into_filter(const BloomKindOps *k, const uint64 *h, uint64 n, void **f,
					   MemoryContext cxt)
{
	for (uint64 i = 0; i < n; i += BLOOM_QUEUE_LEN)
	{
		uint64		next = Min(n, i + 2 * BLOOM_QUEUE_LEN);

		if (k->prefetch)
			for (uint64 j = i + BLOOM_QUEUE_LEN; j < next; j++)
				k->prefetch(*f, h[j], true);
		k->insert(f, h + i, (int) Min(n - i, BLOOM_QUEUE_LEN), cxt);
		if ((i & 0xFFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Estimated distinct values among the n hashes h (mixed 64-bit values):
 * HyperLogLog over 2^BLOOM_LIST_HLL_BITS registers (src/core/bloom_hll.h).
 */
static double
bloom_list_distinct(const uint64 *h, uint64 n)
{
	uint8	   *reg = palloc0(1 << BLOOM_LIST_HLL_BITS);
	double		e;

	for (uint64 i = 0; i < n; i++)
	{
		bloom_hll_add(reg, BLOOM_LIST_HLL_BITS, h[i]);
		if ((i & 0xFFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	e = bloom_hll_estimate(reg, BLOOM_LIST_HLL_BITS);
	pfree(reg);
	return e;
}

/* ---- the state ---------------------------------------------------------- */

/* A new state of kind k in aggcxt: filling filter f, or exact under header f. */
BloomAggState *
bloom_state_new(MemoryContext aggcxt, const BloomKindOps *k, void *f, bool exact)
{
	BloomAggState *st = MemoryContextAllocZero(aggcxt, sizeof(BloomAggState));
	BloomElementFields fl = k->fields(f);

	st->kind = k;
	st->seed = fl.seed;
	st->scheme = fl.scheme;
	if (exact)
	{
		st->mode = BLOOM_AGG_EXACT;
		st->hdr = f;
		bloom_hashset_init(&st->set, aggcxt, k->counted);
	}
	else
	{
		st->mode = BLOOM_AGG_FILTER;
		st->filter = f;
	}
	return st;
}

/* The filter or header holding the state's parameters and element fields. */
void *
bloom_state_header(BloomAggState *st)
{
	return st->mode == BLOOM_AGG_FILTER ? st->filter : st->hdr;
}

/* Leave the exact phase: the set poured into the kind's overflow filter. */
static void
bloom_state_to_filter(BloomAggState *st)
{
	MemoryContext cxt = GetMemoryChunkContext(st);
	void	   *f = st->kind->from_exact(st->hdr, bloom_hashset_count(&st->set), cxt, false);

	bloom_set_into_filter(st->kind, &st->set, &f, cxt);
	bloom_hashset_free(&st->set);
	st->filter = f;
	st->mode = BLOOM_AGG_FILTER;
}

/* Leave the list phase: the listed hashes poured into the overflow filter. */
void
bloom_state_list_to_filter(BloomAggState *st)
{
	MemoryContext cxt = GetMemoryChunkContext(st);
	void	   *f = st->kind->from_exact(st->hdr, st->nlist, cxt, false);

	bloom_list_into_filter(st->kind, st->list, st->nlist, &f, cxt);
	pfree(st->list);
	st->list = NULL;
	st->nlist = st->listcap = 0;
	st->filter = f;
	st->mode = BLOOM_AGG_FILTER;
}

/*
 * Append h to the list; a full list (the kind's list_max) becomes the
 * overflow filter, which takes h.
 */
static void
bloom_state_list_add(BloomAggState *st, uint64 h)
{
	if (unlikely(st->nlist == st->listcap))
	{
		if (st->listcap >= st->kind->list_max)
		{
			bloom_state_list_to_filter(st);
			st->kind->insert(&st->filter, &h, 1, GetMemoryChunkContext(st));
			return;
		}
		st->listcap = Min(st->listcap * 2, (uint64) st->kind->list_max);
		st->list = repalloc_huge(st->list, st->listcap * sizeof(uint64));
	}
	st->list[st->nlist++] = h;
}

/*
 * Leave the exact phase (the set has more than the kind's exact_max
 * hashes): for a kind with a list phase, the set's hashes start the list;
 * otherwise they go into the overflow filter.
 */
static void
bloom_state_leave_exact(BloomAggState *st)
{
	uint64		pos = 0,
				h;
	int			m;

	if (st->kind->list_max == 0)
	{
		bloom_state_to_filter(st);
		return;
	}
	st->listcap = Max((uint64) st->kind->exact_max * 2, bloom_hashset_count(&st->set));
	st->list = MemoryContextAllocHuge(GetMemoryChunkContext(st), st->listcap * sizeof(uint64));
	st->nlist = 0;
	while (bloom_hashset_next(&st->set, &pos, &h, &m))
		st->list[st->nlist++] = h;
	bloom_hashset_free(&st->set);
	st->mode = BLOOM_AGG_LIST;
}

/* Apply the queued hashes (the exact or list phase may end part way through). */
void
bloom_state_flush(BloomAggState *st)
{
	BloomHashQueue *q = &st->queue;
	int			i = 0;

	for (; i < q->n && st->mode != BLOOM_AGG_FILTER; i++)
	{
		if (st->mode == BLOOM_AGG_LIST)
			bloom_state_list_add(st, q->h[i]);
		else
		{
			bloom_hashset_add(&st->set, q->h[i], 1);
			if (bloom_hashset_count(&st->set) > st->kind->exact_max)
				bloom_state_leave_exact(st);
		}
	}
	if (i < q->n)
		st->kind->insert(&st->filter, q->h + i, q->n - i, GetMemoryChunkContext(st));
	q->n = 0;
}

/* Queue hash h, prefetching the memory it will touch. */
inline void
bloom_state_push(BloomAggState *st, uint64 h)
{
	if (st->mode == BLOOM_AGG_FILTER)
	{
		if (st->kind->prefetch)
			st->kind->prefetch(st->filter, h, true);
	}
	else if (st->mode == BLOOM_AGG_LIST && st->queue.n == 0)
	{
		bloom_state_list_add(st, h);	/* sequential: nothing to wait for */
		return;
	}
	else if (st->mode == BLOOM_AGG_EXACT)
	{
#if defined(__GNUC__) || defined(__clang__)
		__builtin_prefetch(&st->set.slots[(uint32) h & (st->set.nslots - 1)], 1, 3);
#endif
	}
	st->queue.h[st->queue.n++] = h;
	if (st->queue.n == BLOOM_QUEUE_LEN)
		bloom_state_flush(st);
}

/*
 * Queue every hash of key value (bloom_key_hashes: a Parquet filter's key
 * may have two).  The hashes go through the state's own array: one on the
 * stack would cost a row a stack-protector check.
 */
static inline void
bloom_state_push_key(BloomAggState *st, Datum value)
{
	int			n = bloom_key_hashes(&st->value.ti, value, st->seed, st->scheme, st->keyh);

	for (int i = 0; i < n; i++)
		bloom_state_push(st, st->keyh[i]);
}

/* bloom_state_push_key out of line: the other schemes' rows keep fewer registers. */
static pg_noinline void
bloom_state_add_key_hashes(BloomAggState *st, Datum value)
{
	bloom_state_push_key(st, value);
}

/*
 * The state's first value (argument 1): its hash information set up, and
 * the filter's (or header's) element fields checked or adopted.  Out of
 * line: a row's path keeps no stack frame for it.
 */
static pg_noinline void
bloom_state_first_value(FunctionCallInfo fcinfo, BloomAggState *st)
{
	void	   *hdr = bloom_state_header(st);
	BloomElementFields fl = st->kind->fields(hdr);

	bloom_agg_first_value(fcinfo, &st->value, fl.family, fl.collfp,
						  GetMemoryChunkContext(st));
	if (st->kind->adopted)
		st->kind->adopted(hdr);
}

/*
 * Add argument 1 (if not NULL) to the state; the first value gives the
 * filter (or header) its element fields.
 */
static inline void
bloom_state_add_arg(FunctionCallInfo fcinfo, BloomAggState *st)
{
	uint64		h;

	if (PG_ARGISNULL(1))
		return;
	if (unlikely(!st->value.valid))
		bloom_state_first_value(fcinfo, st);
	/*
	 * One hash a key except under the Parquet scheme (bloom_key_hashes): the
	 * other schemes hash straight into the queue, without the key's array
	 * of hashes, a row's share of the aggregate's own instructions; the
	 * common keys (integers, in-line text) without a call.
	 */
	if (likely(bloom_hash_datum_quick(&st->value.ti, PG_GETARG_DATUM(1), st->seed,
									  st->scheme, &h)))
		bloom_state_push(st, h);
	else if (st->scheme != BLOOM_SCHEME_PARQUET)
		bloom_state_push(st, bloom_hash_datum(&st->value.ti, PG_GETARG_DATUM(1),
											  st->seed, st->scheme));
	else
		bloom_state_add_key_hashes(st, PG_GETARG_DATUM(1));
	st->nadded++;
}

/* ---- transition and final ------------------------------------------------- */

/*
 * The transition function of a value aggregate of kind k: argument 1 is
 * the value, 2.. the sizing arguments that make turns into the state's
 * filter (or exact-phase header) on the first row; aggname names the
 * aggregate in messages (NULL: the kind's name).
 */
Datum
bloom_agg_apply(FunctionCallInfo fcinfo, const BloomKindOps *k, BloomAggMake make,
				const char *aggname)
{
	BloomAggState *st = PG_ARGISNULL(0) ? NULL : (BloomAggState *) PG_GETARG_POINTER(0);

	PG_RETURN_POINTER(bloom_agg_step(fcinfo, st, k, make, aggname,
									 st ? NULL : bloom_agg_context(fcinfo)));
}

/* A new state of kind k in cxt, its filter or header made by make. */
BloomAggState *
bloom_agg_new_state(FunctionCallInfo fcinfo, const BloomKindOps *k, BloomAggMake make,
					MemoryContext cxt)
{
	bool		exact = false;
	void	   *f = make(fcinfo, cxt, &exact);

	return bloom_state_new(cxt, k, f, exact);
}

/*
 * One row of a value aggregate of kind k into st, or into a new state made
 * in cxt (st NULL): the row's value (argument 1) and sizing arguments (2..).
 */
BloomAggState *
bloom_agg_step(FunctionCallInfo fcinfo, BloomAggState *st, const BloomKindOps *k,
			   BloomAggMake make, const char *aggname, MemoryContext cxt)
{
	if (st == NULL)
		st = bloom_agg_new_state(fcinfo, k, make, cxt);
	if (PG_NARGS() > 2)
		bloom_agg_same_args(&st->args, fcinfo, 2, aggname ? aggname : k->agg_name);
	bloom_state_add_arg(fcinfo, st);
	return st;
}

/* A row's sizing arguments (2..) checked against the first row's. */
static inline void
bloom_agg_row_args(FunctionCallInfo fcinfo, BloomAggState *st, const BloomKindOps *k,
				   const char *aggname)
{
	if (PG_NARGS() > 2 && unlikely(!bloom_agg_args_as_first(&st->args, fcinfo, 2)))
		bloom_agg_same_args(&st->args, fcinfo, 2, aggname ? aggname : k->agg_name);
}

/*
 * bloom_agg_row for a state of the other schemes (a key, a hash).  Out of
 * line, as bloom_agg_row_keys is, so that bloom_agg_row only chooses.
 */
static pg_noinline Datum
bloom_agg_row_one(FunctionCallInfo fcinfo, BloomAggState *st, const BloomKindOps *k,
				  const char *aggname)
{
	bloom_agg_row_args(fcinfo, st, k, aggname);
	bloom_state_add_arg(fcinfo, st);
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

/*
 * bloom_agg_row for a state of the Parquet scheme, whose keys have one or
 * two hashes (bloom_key_hashes), in one frame of its own.
 */
static pg_noinline Datum
bloom_agg_row_keys(FunctionCallInfo fcinfo, BloomAggState *st, const BloomKindOps *k,
				   const char *aggname)
{
	bloom_agg_row_args(fcinfo, st, k, aggname);
	if (!PG_ARGISNULL(1))
	{
		int			n;

		if (unlikely(!st->value.valid))
			bloom_state_first_value(fcinfo, st);
		n = bloom_key_hashes_parquet(&st->value.ti, PG_GETARG_DATUM(1), st->keyh);
		for (int i = 0; i < n; i++)
			bloom_state_push(st, st->keyh[i]);
		st->nadded++;
	}
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

/*
 * A row of a value aggregate of kind k into st, a state of that kind this
 * transition function made for an earlier row (bloom_agg_state_apply's
 * short way); returns argument 0, the state, as the function's result.
 * The row's work without the first row's: a check of the sizing
 * arguments, the value's hash queued.
 */
Datum
bloom_agg_row(FunctionCallInfo fcinfo, BloomAggState *st, const BloomKindOps *k,
			  const char *aggname)
{
	if (unlikely(st->scheme == BLOOM_SCHEME_PARQUET))
		return bloom_agg_row_keys(fcinfo, st, k, aggname);
	return bloom_agg_row_one(fcinfo, st, k, aggname);
}

/*
 * The final function: a new filter (the state stays usable) -- the exact
 * set's, or the filter's result -- with the rows counted where the kind
 * counts them, checked for fullness; over no rows, the kind's empty filter.
 */
Datum
bloom_agg_finish(FunctionCallInfo fcinfo, const BloomKindOps *k)
{
	bloom_agg_context(fcinfo);
	if (PG_ARGISNULL(0))
		PG_RETURN_POINTER(k->empty());
	PG_RETURN_POINTER(bloom_agg_result(fcinfo, (BloomAggState *) PG_GETARG_POINTER(0)));
}

/* The kind of a state. */
const BloomKindOps *
bloom_agg_state_kind(const BloomAggState *st)
{
	return st->kind;
}

/*
 * The state of a set-operation aggregate of kind k whose result so far is
 * filter f (in cxt): a state of the filter phase, with no rows counted.
 */
BloomAggState *
bloom_agg_filter_state(const BloomKindOps *k, void *f, MemoryContext cxt)
{
	return bloom_state_new(cxt, k, f, false);
}

/* The filter of a state of the filter phase (NULL for the exact phase). */
void *
bloom_agg_state_filter(BloomAggState *st)
{
	bloom_state_flush(st);
	if (st->mode == BLOOM_AGG_LIST)
		bloom_state_list_to_filter(st);
	return st->mode == BLOOM_AGG_FILTER ? st->filter : NULL;
}

/* Make f, of the state's kind, the filter of a state of the filter phase. */
void
bloom_agg_state_set_filter(BloomAggState *st, void *f)
{
	Assert(st->mode == BLOOM_AGG_FILTER);
	st->filter = f;
}

/* The final filter of a state (bloom_agg_finish), in the current context. */
void *
bloom_agg_result(FunctionCallInfo fcinfo, BloomAggState *st)
{
	const BloomKindOps *k = st->kind;
	void	   *f;

	bloom_state_flush(st);
	if (st->mode == BLOOM_AGG_EXACT)
	{
		f = k->from_exact(st->hdr, bloom_hashset_count(&st->set), CurrentMemoryContext, true);
		bloom_set_into_filter(k, &st->set, &f, CurrentMemoryContext);
	}
	else if (st->mode == BLOOM_AGG_LIST)
	{
		/* the list began with more than exact_max distinct hashes */
		double		n = Max(bloom_list_distinct(st->list, st->nlist),
							(double) k->exact_max + 1);

		f = k->from_exact(st->hdr, (uint64) ceil(n * BLOOM_LIST_MARGIN),
						  CurrentMemoryContext, true);
		bloom_list_into_filter(k, st->list, st->nlist, &f, CurrentMemoryContext);
	}
	else
		f = k->result ? k->result(st->filter) : bloom_copy(st->filter);
	if (k->items_are_rows)
	{
		((BloomFilter *) f)->nitems = 0;
		bloom_add_items(f, st->nadded);
	}
	k->check_full(f, fcinfo);
	return f;
}

/* ---- automatic sizing -------------------------------------------------------- */

/*
 * The exact-phase header of an automatically sized bloom or counting
 * aggregate (a BloomMake): the element fields; hashes with seed 0 and the
 * scheme new filters get (bloom_new_scheme), as the final filter will.
 */
void *
bloom_agg_auto_header(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	BloomFilter *hdr = MemoryContextAllocZero(aggcxt, BLOOM_HEADER_SIZE);

	bloom_init_header(hdr, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES, BLOOM_MIN_BITS, 0);
	hdr->scheme = bloom_new_scheme();
	SET_VARSIZE(hdr, BLOOM_HEADER_SIZE);
	*exact = true;
	return hdr;
}

/* ---- bloom_agg and its forms ---------------------------------------------- */

/*
 * For aggregates over derived elements (n-grams, tokens: bloom_text.c): the
 * automatically sized state of this call, created on first use with the
 * given element family (NULL when the state already exists).
 */
BloomAggState *
bloom_agg_auto_state(FunctionCallInfo fcinfo, const char *family)
{
	MemoryContext aggcxt;
	BloomFilter *hdr;
	bool		exact;

	if (!PG_ARGISNULL(0))
		return (BloomAggState *) PG_GETARG_POINTER(0);
	aggcxt = bloom_agg_context(fcinfo);
	hdr = bloom_agg_auto_header(fcinfo, aggcxt, &exact);
	strlcpy(hdr->family, family, BLOOM_FAMILY_LEN);
	return bloom_state_new(aggcxt, &bloom_plain_ops, hdr, exact);
}

/* The element family of an aggregate state ("" before the first value). */
const char *
bloom_agg_family(BloomAggState *st)
{
	return st->kind->fields(bloom_state_header(st)).family;
}

/* Add one element hash (and count one more item) to an aggregate state. */
void
bloom_agg_push(BloomAggState *st, uint64 h, bool count_item)
{
	bloom_state_push(st, h);
	if (count_item)
		st->nadded++;
}

/* The filter of bloom_agg(x, capacity, fpr), from the first row's arguments. */
void *
bloom_make_sized(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	BloomFilter hdr;

	bloom_agg_args_given(fcinfo, 2, "bloom_agg", "capacity and false-positive rate");
	bloom_sized_header(&hdr, PG_GETARG_INT64(2), PG_GETARG_FLOAT8(3), false);
	return bloom_alloc_like(aggcxt, &hdr, hdr.nbits);
}

/* The filter of bloom_agg(x, size_bytes, hashes, seed). */
void *
bloom_make_explicit(FunctionCallInfo fcinfo, MemoryContext aggcxt, bool *exact)
{
	BloomFilter hdr;

	bloom_agg_args_given(fcinfo, 3, "bloom_agg", "size, hashes and seed");
	bloom_explicit_header(&hdr, PG_GETARG_INT32(2), PG_GETARG_INT32(3),
						  PG_GETARG_INT64(4));
	return bloom_alloc_like(aggcxt, &hdr, hdr.nbits);
}

/* bloom_agg(anyelement): automatic sizing. */
PG_FUNCTION_INFO_V1(bloom_agg_trans);
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &bloom_plain_ops, bloom_agg_auto_header, NULL);
}

/* bloom_agg(anyelement, capacity bigint, fpr float8) */
PG_FUNCTION_INFO_V1(bloom_agg_trans_sized);
Datum
bloom_agg_trans_sized(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &bloom_plain_ops, bloom_make_sized, NULL);
}

/* bloom_agg(anyelement, size_bytes int, hashes int, seed bigint) */
PG_FUNCTION_INFO_V1(bloom_agg_trans_explicit);
Datum
bloom_agg_trans_explicit(PG_FUNCTION_ARGS)
{
	return bloom_agg_apply(fcinfo, &bloom_plain_ops, bloom_make_explicit, NULL);
}

/* The final, combine, serialize and deserialize functions of them all. */
PG_FUNCTION_INFO_V1(bloom_agg_final);
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	return bloom_agg_finish(fcinfo, &bloom_plain_ops);
}
