/*-------------------------------------------------------------------------
 *
 * bloom_type.c
 *	  The bloom type: text and binary I/O, constructors and sizing, add,
 *	  contains, the element hash and scheme functions, and the full-filter
 *	  check (bloomset.full_filter) and its report for every kind; and the
 *	  kind's table of operations (bloom_kind.h), with its hooks of the
 *	  aggregate engine (bloom_agg.c, where the aggregates' SQL entry points
 *	  are).  The operations on whole filters (union, intersection,
 *	  equality, folding) are in bloom_setops.c, introspection (bloom_info,
 *	  bloom_estimate_card, bloom_params) in bloom_info.c; both use this file,
 *	  never the reverse.
 *
 * Functions never modify their input datums: bloom_add works on a copy.
 * Filters are fetched, allocated and validated by bloom_datum.c.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_type.h"
#include "../core/bloom_codec.h"
#include "../probe/bloom_batch.h"
#include "../probe/bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_family.h"
#include "../datum/bloom_version.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* ---- input and output ---------------------------------------------------- */

/* bloom_in(cstring) -> bloom */
PG_FUNCTION_INFO_V1(bloom_in);
Datum
bloom_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_text(PG_GETARG_CSTRING(0), BLOOM_KIND_PLAIN));
}


/* bloom_out(bloom) -> cstring */
PG_FUNCTION_INFO_V1(bloom_out);
Datum
bloom_out(PG_FUNCTION_ARGS)
{
	BloomFilter *f = bloom_from_datum_any(PG_GETARG_DATUM(0));
	char	   *out = palloc(bloom_text_size(f));

	bloom_text_encode(f, out);
	PG_RETURN_CSTRING(out);
}


/* bloom_recv(internal) -> bloom: every field validated like bloom_in. */
PG_FUNCTION_INFO_V1(bloom_recv);
Datum
bloom_recv(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_parse_recv((StringInfo) PG_GETARG_POINTER(0),
									   BLOOM_KIND_PLAIN, "invalid external bloom filter value"));
}


/* bloom_send(bloom) -> bytea */
PG_FUNCTION_INFO_V1(bloom_send);
Datum
bloom_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bloom_wire_bytea(bloom_from_datum_any(PG_GETARG_DATUM(0))));
}


/*
 * bloom_to_bytea(bloom) -> bytea: the binary (send) form of a valid filter;
 * of a value that is not one (a corrupt stored value), the same layout
 * written from whatever its fields hold, so it can be inspected, mended
 * and read back with bloom_from_bytea (which validates).  Never reads past
 * the value: a value shorter than a header comes back as it is.
 */
PG_FUNCTION_INFO_V1(bloom_to_bytea);
Datum
bloom_to_bytea(PG_FUNCTION_ARGS)
{
	BloomFilter *f = (BloomFilter *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	size_t		size = VARSIZE(f);
	StringInfoData buf;
	uint8		hdr[BLOOM_WIRE_HEADER_SIZE];

	if (bloom_kind_reason(f, size, BLOOM_KIND_PLAIN) == NULL)
		PG_RETURN_BYTEA_P(bloom_wire_bytea(f));
	pq_begintypsend(&buf);
	if (size < BLOOM_HEADER_SIZE)
		appendBinaryStringInfo(&buf, (const char *) f + VARHDRSZ, (int) (size - VARHDRSZ));
	else
	{
		bloom_wire_encode_header(f, hdr);
		appendBinaryStringInfo(&buf, (const char *) hdr, BLOOM_WIRE_HEADER_SIZE);
		appendBinaryStringInfo(&buf, (const char *) f->words, (int) (size - BLOOM_HEADER_SIZE));
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/*
 * bloom_from_bytea(bytea) -> bloom: a filter from its binary (send) form,
 * validated exactly like bloom_recv; the inverse is the bloom_send cast.
 */
PG_FUNCTION_INFO_V1(bloom_from_bytea);
Datum
bloom_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);

	BloomFilter *f = bloom_parse_wire((const uint8 *) VARDATA_ANY(b),
									  VARSIZE_ANY_EXHDR(b), CurrentMemoryContext,
									  BLOOM_KIND_PLAIN,
									  "invalid external bloom filter value");

	/* an imported filter keeps its target: say if it is already full */
	bloom_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

/* ---- functions ------------------------------------------------------------ */




/* Raise the error for out-of-range (capacity, fpr). */
static void
bloom_check_sizing(int64 capacity, double fpr)
{
	const char *why = bloom_check_sizing_args(capacity, fpr);

	if (why != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid bloom filter sizing: %s", why),
				 errdetail("Got capacity %lld and false-positive rate %g.",
						   (long long) capacity, fpr),
				 errhint("Use a capacity between 1 and 2^40 and a rate in (0, 0.5], such as 0.01.")));
}

/*
 * The size of a filter of layout (classic, blocked, or counting: classic or
 * blocked sizing with a 4-bit counter per bit; nbits is then the storage
 * size) for
 * capacity items at rate fpr, checked before anything is allocated: invalid
 * arguments and rates the layout cannot reach are 22023 (with the smallest
 * reachable rate), sizes beyond the limit 54000.  pow2 rounds the size up
 * to a power of two (the automatic sizing of bloom_agg(x)).
 */
BloomSizing
bloom_sizing_checked(int64 capacity, double fpr, int layout, bool pow2)
{
	bool		counting = bloom_layout_is_counting(layout);
	uint64		scale = counting ? 4 : 1;
	BloomSizing s;

	bloom_check_sizing(capacity, fpr);
	s = bloom_size_for(capacity, fpr, layout, pow2);	/* counting: nbits = counters */
	if (s.unreachable != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false-positive rate %g cannot be reached for %lld items", fpr,
						(long long) capacity),
				 errdetail("The smallest rate a %s filter reaches for %lld items is %g (%s).",
						   bloom_layout_name(layout), (long long) capacity, s.min_fpr,
						   s.unreachable),
				 errhint("Ask for a rate of at least %g, or split the data into several filters.",
						 s.min_fpr)));
	if (s.nbits == 0 || s.nbits > BLOOM_MAX_BITS / scale)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s would need %.0f bytes, more than the limit of %llu bytes",
						counting ? "counting bloom filter" : "bloom filter",
						(s.nbits == 0 ? s.needed_bits : (double) s.nbits) * scale / 8,
						(unsigned long long) (BLOOM_MAX_BITS / 8)),
				 errhint("Lower the capacity or raise the false-positive rate, or split the data into several filters (for example one per partition).")));
	s.layout = layout;
	s.nbits *= scale;
	return s;
}

/*
 * The layout a new counting filter for capacity items at rate fpr gets:
 * what counting_bloom_empty and counting_bloom_agg build and bloom_params
 * advises for "counting".  Layout 2 while the installed version is older
 * than the blocked counting filters (a database builds what its installed
 * version builds), else bloom_choose_counting_layout.
 */
int
bloom_counting_layout_for(int64 capacity, double fpr)
{
	if (bloom_installed_version() < BLOOM_VERSION_COUNTING_BLOCKED)
		return BLOOM_LAYOUT_COUNTING;
	return bloom_choose_counting_layout(capacity, fpr);
}

/*
 * The header of an empty filter for capacity items at rate fpr, in the
 * layout bloomset chooses for that rate (see bloom_sizing_checked).
 */
void
bloom_sized_header(BloomFilter *hdr, int64 capacity, double fpr, bool pow2)
{
	BloomSizing s = bloom_sizing_checked(capacity, fpr, bloom_choose_layout(fpr), pow2);

	bloom_init_header(hdr, s.layout, s.nhashes, s.nbits, 0);
	hdr->scheme = bloom_new_scheme();
	bloom_set_target_fpr(hdr, fpr);
	if (pow2)
		hdr->flags |= BLOOM_FLAG_AUTOSIZED;
}

/* A zeroed filter with the header hdr, in the current context. */
static BloomFilter *
bloom_from_header(const BloomFilter *hdr)
{
	return bloom_alloc_like(CurrentMemoryContext, hdr, hdr->nbits);
}

/* An empty filter for capacity items at rate fpr (see bloom_sized_header). */
static BloomFilter *
bloom_new_sized(int64 capacity, double fpr, bool pow2)
{
	BloomFilter hdr;

	bloom_sized_header(&hdr, capacity, fpr, pow2);
	return bloom_from_header(&hdr);
}

/*
 * The header of an empty classic filter with ClickHouse-style explicit
 * parameters: size in bytes (rounded up to a multiple of 8), number of
 * hashes, seed (checked).
 */
void
bloom_explicit_header(BloomFilter *hdr, int32 size_bytes, int32 nhashes, int64 seed)
{
	if (size_bytes < BLOOM_MIN_BITS / 8 || (uint64) size_bytes > BLOOM_MAX_BITS / 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloom filter size must be between %d and %llu bytes",
						BLOOM_MIN_BITS / 8, (unsigned long long) (BLOOM_MAX_BITS / 8)),
				 errdetail("Got %d bytes.", size_bytes),
				 errhint("Use bloom_params(capacity, fpr) to find a size for your data.")));
	if (nhashes < 1 || nhashes > BLOOM_MAX_HASHES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of bloom filter hashes must be between 1 and %d",
						BLOOM_MAX_HASHES),
				 errdetail("Got %d hashes.", nhashes),
				 errhint("About 0.7 times the bits per item is optimal; 7 suits 10 bits per item.")));
	bloom_init_header(hdr, BLOOM_LAYOUT_CLASSIC, nhashes,
					  (uint64) TYPEALIGN(8, size_bytes) * 8, (uint64) seed);
	hdr->scheme = bloom_new_scheme();
}

/* An empty filter with explicit parameters (see bloom_explicit_header). */
static BloomFilter *
bloom_new_explicit(int32 size_bytes, int32 nhashes, int64 seed)
{
	BloomFilter hdr;

	bloom_explicit_header(&hdr, size_bytes, nhashes, seed);
	return bloom_from_header(&hdr);
}

/* bloom_empty(capacity bigint, fpr float8) -> bloom */
PG_FUNCTION_INFO_V1(bloom_empty);
Datum
bloom_empty(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_new_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), false));
}

/* bloom_empty(size_bytes int, hashes int, seed bigint) -> bloom */
PG_FUNCTION_INFO_V1(bloom_empty_explicit);
Datum
bloom_empty_explicit(PG_FUNCTION_ARGS)
{
	PG_RETURN_BLOOM_P(bloom_new_explicit(PG_GETARG_INT32(0), PG_GETARG_INT32(1),
										 PG_GETARG_INT64(2)));
}

/*
 * bloom_add(bloom, anycompatible) -> bloom.  Not strict in the value: adding
 * NULL returns the filter unchanged (a NULL filter gives NULL).
 */
PG_FUNCTION_INFO_V1(bloom_add);
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	BloomFilter *f;
	BloomTypeInfo *ti;
	Datum		value;
	uint64		h[BLOOM_KEY_MAX_HASHES];
	int			n;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	f = PG_GETARG_BLOOM_P(0);
	if (PG_ARGISNULL(1))
		PG_RETURN_BLOOM_P(f);
	if ((Pointer) f == DatumGetPointer(PG_GETARG_DATUM(0)))
		f = bloom_copy(f);		/* never modify the input datum */
	ti = bloom_call_value(fcinfo, 1, f->family, &f->collfp, f->scheme, &value);
	n = bloom_key_hashes(ti, value, f->seed, f->scheme, h);
	for (int i = 0; i < n; i++)
		bloom_insert_hash(f, h[i]);
	bloom_add_items(f, 1);
	bloom_check_full(f, fcinfo);
	PG_RETURN_BLOOM_P(f);
}

/*
 * The one of a key's n hashes (bloom_key_hashes) that a probe of f tests:
 * the first that f holds, else the first.  Testing it answers "maybe"
 * exactly when f holds any of them; f must hold the parts of all n.
 */
uint64
bloom_key_pick(const BloomFilter *f, const uint64 *h, int n)
{
	if (n > 1 && !bloom_test_hash(f, h[0]))
		for (int i = 1; i < n; i++)
			if (bloom_test_hash(f, h[i]))
				return h[i];
	return h[0];
}

/*
 * The first half of bloom_contains(f, x), called with its arguments in
 * fcinfo: the filter to test (read through the call-site cache, its parts
 * for x read if it is stored in slices) and in *h the hash of x to test
 * (bloom_key_pick), or NULL when nothing was ever added to f (x is not in
 * it).  bloom_contains tests the hash at once; the batched probe
 * (bloom_scan.c) calls this for a batch of rows, prefetches, and tests
 * later -- one implementation of the probe.
 */
BloomFilter *
bloom_contains_hash(FunctionCallInfo fcinfo, uint64 *h)
{
	BloomTypeInfo *ti;
	Datum		value;
	BloomFilter *f = bloom_call_probe(fcinfo, BLOOM_KIND_PLAIN, &ti, &value);
	uint64		hs[BLOOM_KEY_MAX_HASHES];
	int			n;

	if (f->family[0] == '\0')
		return NULL;			/* nothing was ever added */
	n = bloom_key_hashes(ti, value, f->seed, f->scheme, hs);
	f = bloom_call_parts(fcinfo, f, hs, n);	/* a stored filter: its parts for x */
	*h = bloom_key_pick(f, hs, n);
	return f;
}

/* bloom_contains(bloom, anycompatible) -> boolean */
PG_FUNCTION_INFO_V1(bloom_contains);
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	uint64		h;
	BloomFilter *f = bloom_contains_hash(fcinfo, &h);

	PG_RETURN_BOOL(f != NULL && bloom_test_hash(f, h));
}

/*
 * The full-filter check (bloomset.full_filter).  A filter whose estimated
 * rate exceeds BLOOM_FULL_FACTOR times the rate it was sized for
 * (bloom_target_fpr; filters with explicit parameters have none) answers
 * "maybe" more often than its builder asked: typically a capacity that was
 * too small, or the union of filters each sized for a part of the data
 * (or of different sizes: the smaller one's bits repeated).  The message
 * names the function or aggregate of fcinfo (looked up only when it is
 * raised).  warning: one WARNING per statement (the first such filter: a
 * GROUP BY of many full groups does not flood the client; the check then
 * costs nothing), error: 22023.  Statements are told apart by
 * bloom_statement_id (bloom_module.c: bumped as each top-level statement starts
 * executing), not by their start time, which the statements of one query
 * string share.
 */
static uint64 bloom_warned_statement = 0;

/* bloomset.full_filter (defined as a setting by bloom_module.c's _PG_init) */
int			bloom_full_filter_action = BLOOM_FULL_WARNING;

/* the statement executing now (bumped by bloom_module.c's ExecutorStart hook) */
uint64		bloom_statement_id = 1;

/* Is the check on, and has this statement not warned yet? */
bool
bloom_full_check_wanted(void)
{
	return bloom_full_filter_action != BLOOM_FULL_OFF &&
		!(bloom_full_filter_action == BLOOM_FULL_WARNING &&
		  bloom_warned_statement == bloom_statement_id);
}

/*
 * Report a full filter of kind what_kind ("bloom filter", ...) returned by
 * the call fcinfo: estimated rate, its target, a detail sentence.
 */
void
bloom_full_report(FunctionCallInfo fcinfo, const char *what_kind, double rate,
				  double target, const char *detail)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	char	   *what = get_func_name(aggref ? aggref->aggfnoid : fcinfo->flinfo->fn_oid);

	if (bloom_full_filter_action == BLOOM_FULL_WARNING)
		bloom_warned_statement = bloom_statement_id;
	ereport(bloom_full_filter_action == BLOOM_FULL_ERROR ? ERROR : WARNING,
			(errcode(bloom_full_filter_action == BLOOM_FULL_ERROR ?
					 ERRCODE_INVALID_PARAMETER_VALUE : ERRCODE_WARNING),
			 errmsg("%s: the %s is over capacity: estimated false-positive rate %.3g, more than %g times its target %.3g",
					what, what_kind, rate, BLOOM_FULL_FACTOR, target),
			 errdetail("%s", detail),
			 errhint("Size it for more items (bloom_agg(x, capacity, fpr)); filters that will be unioned need the union's capacity each. bloomset.full_filter = off silences this%s.",
					 bloom_full_filter_action == BLOOM_FULL_WARNING ?
					 " (reported once per statement)" : "")));
}

/*
 * Warn that an estimate from the fill of f (bits_set of its bits) says
 * little: from BLOOM_SATURATED_FILL on, one set bit more or less moves it
 * by hundreds of items, a filter with every bit set only says it holds at
 * least about that many, and probes answer true for nearly every value.
 * The answer is still returned: a warning in both of bloomset.full_filter's
 * reporting modes (an estimate is read from stored filters; a query over
 * many of them should not fail for one sized too small), once per
 * statement as bloom_full_report's, none when the setting is off.
 */
#define BLOOM_SATURATED_FILL	0.99

void
bloom_warn_saturated(const BloomFilter *f, uint64 bits_set, double estimate)
{
	double		fill = (double) bits_set / (double) f->nbits;

	if (fill < BLOOM_SATURATED_FILL || !bloom_full_check_wanted())
		return;
	if (bloom_full_filter_action == BLOOM_FULL_WARNING)
		bloom_warned_statement = bloom_statement_id;
	ereport(WARNING,
			(errcode(ERRCODE_WARNING),
			 errmsg("the bloom filter is saturated: %.1f%% of its %llu bits are set",
					100.0 * fill, (unsigned long long) f->nbits),
			 errdetail("At this fill the estimate of %.0f distinct items can be far below the items added, and the filter answers true for almost every value.",
					   estimate),
			 errhint("Size a filter for the items it will hold: bloom_params(capacity, fpr) shows the size, bloom_agg(x) sizes itself. bloomset.full_filter = off silences this%s.",
					 bloom_full_filter_action == BLOOM_FULL_WARNING ?
					 " (reported once per statement)" : "")));
}

/* The full-filter check of a bloom filter f (counting_bloom.c and scalable_bloom.c check theirs). */
void
bloom_check_full(const BloomFilter *f, FunctionCallInfo fcinfo)
{
	double		target,
				rate;

	if (f->family[0] == '\0' || !bloom_full_check_wanted())
		return;
	target = bloom_target_fpr(f);
	if (target == 0.0)
		return;

	/*
	 * An O(1) bound first, so a bloom_add per row does not read the filter
	 * each time: the items added (nitems) bound the distinct values of a
	 * filter of values (not of n-grams or tokens, several per item) that no
	 * union or fold has resized (an unfolded filter's bits are repeated),
	 * and its model rate at that count bounds the expected rate.
	 */
	if (!(f->flags & BLOOM_FLAG_FOLDED) && bloom_family_ngram_n(f->family) == 0 &&
		!bloom_family_is_token(f->family) &&
		bloom_model_fpr(f, (double) f->nitems) <= BLOOM_FULL_FACTOR * target)
		return;

	/*
	 * Then one fast pass (the vector popcount): the model rate for the items
	 * the fill suggests; the exact estimate (per block for the blocked
	 * layout, several times slower) only when that is above the target.
	 */
	if (bloom_model_fpr(f, bloom_estimate_items(f, bloom_popcount(f))) <= target ||
		(rate = bloom_current_fpr(f)) <= BLOOM_FULL_FACTOR * target)
		return;
	bloom_full_report(fcinfo, "bloom filter", rate, target,
					  psprintf("The filter has %llu bits and about %.0f distinct items; it was sized for a rate of %.3g.",
							   (unsigned long long) f->nbits,
							   bloom_estimate_distinct(f), target));
}

/*
 * bloom_hash(anycompatible, seed bigint) -> bigint: the 64-bit element hash
 * a filter with that seed uses for the value (for external tools, tests).
 */
PG_FUNCTION_INFO_V1(bloom_hash);
Datum
bloom_hash(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti = bloom_call_typeinfo(fcinfo, 0);

	PG_RETURN_INT64((int64) bloom_hash_datum(ti, PG_GETARG_DATUM(0),
											 (uint64) PG_GETARG_INT64(1),
											 BLOOM_SCHEME_PGEXT));
}

/*
 * bloom_hash(anycompatible, seed bigint, scheme integer) -> bigint: the
 * element hash under the given hashing scheme (the two-argument form is
 * scheme 1, as in 1.0 and 1.1).
 */
PG_FUNCTION_INFO_V1(bloom_hash_scheme);
Datum
bloom_hash_scheme(PG_FUNCTION_ARGS)
{
	BloomTypeInfo *ti = bloom_call_typeinfo(fcinfo, 0);
	int32		scheme = PG_GETARG_INT32(2);

	bloom_check_scheme_change(scheme, scheme, "", 0, "bloom");
	PG_RETURN_INT64((int64) bloom_hash_datum(ti, PG_GETARG_DATUM(0),
											 (uint64) PG_GETARG_INT64(1), scheme));
}

/* bloom_scheme(bloom) -> integer: the filter's hashing scheme. */
PG_FUNCTION_INFO_V1(bloom_scheme);
Datum
bloom_scheme(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(((BloomFilter *) PG_GETARG_BLOOM_P(0))->scheme);
}

/*
 * bloom_with_scheme(bloom, integer) -> bloom: the filter with the given
 * hashing scheme; only a filter nothing was added to can change.
 */
PG_FUNCTION_INFO_V1(bloom_with_scheme);
Datum
bloom_with_scheme(PG_FUNCTION_ARGS)
{
	BloomFilter *f = PG_GETARG_BLOOM_P(0);
	int32		scheme = PG_GETARG_INT32(1);

	bloom_check_scheme_change(f->scheme, scheme, f->family, f->nitems, "bloom filter");
	if (f->scheme == scheme)
		PG_RETURN_BLOOM_P(f);
	f = bloom_copy(f);
	f->scheme = (uint8) scheme;
	PG_RETURN_BLOOM_P(f);
}

/* ---- the kind's aggregates (BloomKindOps hooks of bloom_agg.c's engine) --- */

/*
 * The limits of bloom_agg(x)'s automatic sizing (bloom_agg.c's top comment:
 * an exact set, a list of hashes, then one big filter folded down at the
 * end).
 */
/* exact phase of automatic sizing: up to 2^20 distinct hashes (16 MiB) */
#define BLOOM_AUTO_EXACT_MAX	(1 << 20)
/* list phase of automatic sizing: up to 2^24 hashes (128 MiB) */
#define BLOOM_AUTO_LIST_MAX		(1 << 24)
/* filter of the second phase: 2^30 bits = 128 MiB, 1 % up to ~100 M items */
#define BLOOM_AUTO_MAX_BITS		(UINT64_C(1) << 30)
#define BLOOM_STATE_MSG			"invalid serialized bloom aggregate state"

/* Insert n hashes into the bloom filter *f. */
static void
bloom_plain_agg_insert(void **f, const uint64 *h, int n, MemoryContext cxt)
{
	bloom_insert_hashes((BloomFilter *) *f, h, n);
}

/* Bits of the power-of-two blocked filter for n items at the auto rate. */
static uint64
bloom_auto_bits(double n)
{
	BloomSizing s = bloom_size_for(Max((int64) ceil(n), 1), BLOOM_AUTO_FPR,
								   BLOOM_LAYOUT_BLOCKED, true);

	return (s.nbits == 0 || s.nbits > BLOOM_AUTO_MAX_BITS) ? BLOOM_AUTO_MAX_BITS : s.nbits;
}

/*
 * The filter for an exact set of ndistinct hashes: sized for them at the
 * auto rate (final), or of BLOOM_AUTO_MAX_BITS (the set overflowed).
 */
static void *
bloom_plain_from_exact(const void *hdr, uint64 ndistinct, MemoryContext cxt, bool final)
{
	const BloomFilter *h = (const BloomFilter *) hdr;
	uint64		nbits = final ? bloom_auto_bits((double) ndistinct) : BLOOM_AUTO_MAX_BITS;
	BloomFilter *f = bloom_alloc_in(cxt, nbits);

	bloom_init_header(f, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES, nbits, 0);
	f->scheme = h->scheme;		/* the exact phase hashed with it */
	f->flags = BLOOM_FLAG_AUTOSIZED;
	memcpy(f->family, h->family, BLOOM_FAMILY_LEN);
	f->collfp = h->collfp;
	return f;
}

/* OR the bloom filter src into *dst (the same parameters, or an error). */
static void
bloom_plain_merge(void **dst, const void *src, MemoryContext cxt)
{
	BloomFilter *d = (BloomFilter *) *dst;
	const BloomFilter *s = (const BloomFilter *) src;
	char		detail[256];

	if (!bloom_check_compatible(d, s, detail, sizeof(detail)) || d->nbits != s->nbits)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot combine bloom_agg states with different parameters"),
				 errdetail("%s", detail),
				 errhint("Give every group the same capacity and rate.")));
	bloom_or_words(d->words, s->words, BLOOM_NWORDS(d));
}

/*
 * The final filter of a filter-phase state: a copy, or for automatic
 * sizing past the exact phase, the big filter folded down to the size for
 * its estimated distinct values.
 */
static void *
bloom_plain_result(const void *p)
{
	const BloomFilter *big = (const BloomFilter *) p;
	BloomFilter *f;
	uint64		bits;

	if (!(big->flags & BLOOM_FLAG_AUTOSIZED))
		return bloom_copy(big);
	bits = bloom_auto_bits(bloom_estimate_items(big, bloom_popcount(big)));
	f = bloom_alloc_like(CurrentMemoryContext, big, bits);
	bloom_resize_into(big, f);
	f->flags = BLOOM_FLAG_AUTOSIZED;
	return f;
}

/* The smallest empty filter: the result of aggregating nothing. */
static void *
bloom_plain_empty(void)
{
	BloomFilter *f = bloom_alloc(BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES,
								 BLOOM_MIN_BITS, 0);

	f->flags = BLOOM_FLAG_AUTOSIZED;
	return f;
}


/* Why the exact-phase header of a bloom or counting aggregate is invalid. */
const char *
bloom_check_exact_hdr(const void *hdr)
{
	return bloom_check_header((const BloomFilter *) hdr);
}

/* ---- the kind's operations (bloom_kind.h) ---------------------------------- */

static bool
bloom_plain_layout_ok(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_CLASSIC || f->layout == BLOOM_LAYOUT_BLOCKED;
}

static void
bloom_plain_prefetch(const void *f, uint64 h, bool write)
{
	bloom_prefetch_hash((const BloomFilter *) f, h, write);
}

static bool
bloom_plain_test(const void *f, uint64 h)
{
	return bloom_test_hash((const BloomFilter *) f, h);
}

static void *
bloom_plain_add(void *f, const uint64 *h, int n, int nkeys)
{
	for (int i = 0; i < n; i++)
		bloom_insert_hash((BloomFilter *) f, h[i]);
	bloom_add_items((BloomFilter *) f, nkeys);
	return f;
}

static void
bloom_plain_check_full(const void *f, FunctionCallInfo fcinfo)
{
	bloom_check_full((const BloomFilter *) f, fcinfo);
}

/* Estimated distinct items and current rate: the model's, from the fill. */
static void
bloom_plain_stats(const void *f, double *items, double *fpr)
{
	const BloomFilter *bf = (const BloomFilter *) f;

	*items = bloom_estimate_items(bf, bloom_popcount(bf));
	*fpr = bloom_current_fpr(bf);
}

/* Positions one hash probes: its block (blocked), or k bits (classic). */
static int
bloom_plain_probe_width(const BloomFilter *f)
{
	return f->layout == BLOOM_LAYOUT_BLOCKED ? 1 : f->nhashes;
}

/* The bytes testing position pos loads: its block, or the word of its bit. */
static void
bloom_plain_probe_span(const BloomFilter *f, uint64 pos, Size *off, Size *len)
{
	if (f->layout == BLOOM_LAYOUT_BLOCKED)
		*off = (Size) pos * (BLOOM_BLOCK_BITS / 8), *len = BLOOM_BLOCK_BITS / 8;
	else
		*off = (Size) (pos / 64) * 8, *len = 8;
}

const BloomKindOps bloom_plain_ops = {
	.kind = BLOOM_KIND_PLAIN,
	.type_name = "bloom",
	.scheme_hint = "Rebuild the older filter from its values (bloom_agg builds with scheme %d), or build the new one with the old scheme: bloom_with_scheme(bloom_empty(...), %d) and bloom_add_all; bloom_scheme() shows a filter's scheme.",
	.scheme_hint_since = 102,
	.corrupt_msg = "invalid bloom filter value",
	.header_size = BLOOM_HEADER_SIZE,
	.has_subfilters = false,
	.layout_ok = bloom_plain_layout_ok,
	.reason = bloom_header_reason,
	.upgrade = NULL,
	.fields = bloom_header_fields,
	.prefetch = bloom_plain_prefetch,
	.test = bloom_plain_test,
	.add = bloom_plain_add,
	.check_full = bloom_plain_check_full,
	.stats = bloom_plain_stats,
	.probe_width = bloom_plain_probe_width,
	.probe_span = bloom_plain_probe_span,
	.state_msg = BLOOM_STATE_MSG,
	.empty = bloom_plain_empty,
	.agg_name = "bloom_agg",
	.agg_tag = 'b',
	.exact_max = BLOOM_AUTO_EXACT_MAX,
	.list_max = BLOOM_AUTO_LIST_MAX,
	.items_are_rows = true,
	.check_exact_hdr = bloom_check_exact_hdr,
	.insert = bloom_plain_agg_insert,
	.from_exact = bloom_plain_from_exact,
	.merge = bloom_plain_merge,
	.result = bloom_plain_result,
};

/* ---- batch calls (bloom_batch.h) ------------------------------------------ */

/*
 * bloom_add_all(bloom, anycompatiblearray) -> bloom: a copy with every
 * non-null element added.
 */
PG_FUNCTION_INFO_V1(bloom_add_all);
Datum
bloom_add_all(PG_FUNCTION_ARGS)
{
	return bloom_batch_add(fcinfo, BLOOM_KIND_PLAIN);
}

/*
 * bloom_contains_any(bloom, anycompatiblearray) -> boolean: may any
 * element be in?
 */
PG_FUNCTION_INFO_V1(bloom_contains_any);
Datum
bloom_contains_any(PG_FUNCTION_ARGS)
{
	return bloom_batch_any(fcinfo, BLOOM_KIND_PLAIN);
}

/*
 * bloom_contains_all(bloom, anycompatiblearray) -> boolean: may every
 * element be in?
 */
PG_FUNCTION_INFO_V1(bloom_contains_all);
Datum
bloom_contains_all(PG_FUNCTION_ARGS)
{
	return bloom_batch_all(fcinfo, BLOOM_KIND_PLAIN);
}

/* bloom_contains_each(bloom, anycompatiblearray) -> boolean[]: per element. */
PG_FUNCTION_INFO_V1(bloom_contains_each);
Datum
bloom_contains_each(PG_FUNCTION_ARGS)
{
	return bloom_batch_each(fcinfo, BLOOM_KIND_PLAIN);
}
