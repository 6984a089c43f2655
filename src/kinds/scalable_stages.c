/*-------------------------------------------------------------------------
 *
 * scalable_stages.c
 *	  The sub-filters ("stages") of a scalable filter: how they are sized
 *	  and appended (the growth rule), and how hashes are added to and probed
 *	  across them.  Apart from the type's SQL side (scalable_bloom.c) because
 *	  this is the filter's own algorithm, which its functions, its kind
 *	  operations and its aggregate hooks all call.
 *
 * Sub-filter i is sized for capacity * growth^i items at rate
 * 0.9 * fpr * 0.5^(i+1), so the rates sum to less than 0.9 * fpr however far
 * the filter grows (the 10 % margin absorbs the sizing models' rounding).
 * A value is added to the newest sub-filter unless it is already (maybe)
 * there -- in the newest sub-filter for filters of hashing scheme 4, in any
 * sub-filter for older ones (scalable_uses_capacity) -- and when the newest
 * is full a new one is appended.  Probes ask every sub-filter, newest
 * (largest) first.
 *
 * Cost.  A filter grown far past its first capacity has many stages, the
 * newest ones megabytes large, and those miss the caches: most of a probe's
 * time (and of an add's, on filters older than scheme 4, which read every
 * stage) is the wait for the stages' cache lines, about one memory latency
 * a row.  The misses of one row overlap (all its stages are
 * prefetched together); software prefetches of later rows' stages were
 * measured not to help, so both stay near one latency a row.
 * docs/performance.md has the figures.
 *
 *-------------------------------------------------------------------------
 */
#include "scalable_stages.h"
#include "../probe/bloom_cache.h"
#include "../datum/bloom_datum.h"
#include "../datum/bloom_hash.h"
#include "../datum/bloom_version.h"

#include <math.h>

#include "miscadmin.h"

/* The sub-filter i would be created with: capacity and rate. */
void
scalable_sub_target(const ScalableFilter *f, int i, double *capacity, double *fpr)
{
	*capacity = (double) f->capacity * pow((double) f->growth, i);
	*fpr = 0.9 * scalable_fpr(f) * pow(0.5, i + 1);
}

/* The size of sub-filter i of f (blocked layout), checked against the limits. */
static BloomSizing
scalable_sub_sizing(const ScalableFilter *f, int i, size_t have)
{
	double		cap,
				fpr;
	BloomSizing s;

	if (i >= SCALABLE_MAX_SUB)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter cannot grow beyond %d sub-filters", SCALABLE_MAX_SUB)));
	scalable_sub_target(f, i, &cap, &fpr);

	/*
	 * Always the blocked layout: a probe asks every sub-filter, so each must
	 * cost one cache line (and all of them are prefetched together), even
	 * though blocked needs more bits than classic at the tight rates of
	 * later sub-filters.
	 */
	s = bloom_size_for((int64) Min(ceil(cap), (double) BLOOM_MAX_CAPACITY), fpr,
					   BLOOM_LAYOUT_BLOCKED, false);
	if (s.nbits == 0 || (have + BLOOM_TOTAL_SIZE(s.nbits)) * 8 > BLOOM_MAX_BITS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("scalable bloom filter would exceed the limit of %llu bytes",
						(unsigned long long) (BLOOM_MAX_BITS / 8)),
				 errhint("Start with a larger capacity or a higher rate, or split the data.")));
	return s;
}

/*
 * A copy of old in cxt with one more, empty sub-filter (the newest).
 */
ScalableFilter *
scalable_append(const ScalableFilter *old, MemoryContext cxt)
{
	size_t		have = VARSIZE(old) - SCALABLE_HEADER_SIZE;
	BloomSizing s = scalable_sub_sizing(old, old->nsub, have);
	size_t		size = VARSIZE(old) + BLOOM_TOTAL_SIZE(s.nbits);
	ScalableFilter *f = (ScalableFilter *) bloom_alloc_bytes(cxt, size);
	BloomFilter *sub = (BloomFilter *) ((char *) f + VARSIZE(old));

	memcpy(f, old, VARSIZE(old));
	SET_VARSIZE(f, size);
	f->nsub++;
	SET_VARSIZE(sub, BLOOM_TOTAL_SIZE(s.nbits));
	bloom_init_header(sub, s.layout, s.nhashes, s.nbits, f->seed);
	sub->scheme = f->scheme;
	memcpy(sub->family, f->family, BLOOM_FAMILY_LEN);
	sub->collfp = f->collfp;
	return f;
}

/* A new, empty scalable filter in cxt with one sub-filter. */
ScalableFilter *
scalable_new(uint64 capacity, double fpr, uint32 growth, MemoryContext cxt)
{
	ScalableFilter hdr;

	memset(&hdr, 0, sizeof(hdr));
	SET_VARSIZE(&hdr, SCALABLE_HEADER_SIZE);
	hdr.version = SCALABLE_FORMAT_VERSION;
	hdr.layout = BLOOM_LAYOUT_SCALABLE;
	hdr.scheme = bloom_new_scheme();
	hdr.capacity = capacity;
	memcpy(&hdr.fpr_bits, &fpr, sizeof(double));
	hdr.growth = growth;
	return scalable_append(&hdr, cxt);
}

/* The stages of f. */
static void
scalable_stages(const ScalableFilter *f, ScalableStages *st)
{
	BloomFilter *sub = scalable_first(f);

	st->n = f->nsub;
	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
		st->sub[i] = sub;
}

/* Hint the CPU to fetch h's cache line in every stage. */
static inline void
scalable_prefetch(const ScalableStages *st, uint64 h)
{
	for (int i = 0; i < st->n; i++)
		bloom_prefetch_hash(st->sub[i], h, false);
}

/*
 * Does some stage answer "maybe" for h?  Every stage's cache line is
 * prefetched first, so that their misses overlap, then the stages are
 * tested newest (largest) first, stopping at the first "maybe": a probe
 * of a present key mostly stops at one of the newest.  (Testing every
 * stage without branches against h's bits computed once is slower, see
 * docs/performance.md: a probe then waits for its slowest stage,
 * and far fewer probes overlap.)
 */
bool
scalable_stages_test(const ScalableStages *st, uint64 h)
{
	scalable_prefetch(st, h);
	for (int i = st->n - 1; i >= 0; i--)
		if (bloom_test_hash(st->sub[i], h))
			return true;
	return false;
}

/*
 * Does some sub-filter of f answer "maybe" for h?  (A probe: the test of
 * scalable_stages_test, each stage's line prefetched as the walk down the
 * chain finds it.)
 */
static bool
scalable_test(const ScalableFilter *f, uint64 h)
{
	const BloomFilter *subs[SCALABLE_MAX_SUB];
	const BloomFilter *sub = scalable_first(f);
	int			n = f->nsub;

	for (int i = 0; i < n; i++, sub = scalable_next(sub))
	{
		subs[i] = sub;
		bloom_prefetch_hash(sub, h, false);
	}
	for (int i = n - 1; i >= 0; i--)
		if (bloom_test_hash(subs[i], h))
			return true;
	return false;
}

/*
 * The stages of f for a probe at this call site.  A filter the probe cache
 * keeps (the plan constant, a cached stored filter) has its stages found
 * once, in a memo the cache frees with the filter, so a probe does not walk
 * the chain of sub-filter headers -- a dependent load per stage -- every
 * row; any other f is walked into *local.
 */
const ScalableStages *
scalable_probe_stages(FunctionCallInfo fcinfo, const ScalableFilter *f,
					  ScalableStages *local)
{
	void	  **memo = bloom_call_memo(fcinfo, f);
	ScalableStages *st;

	if (memo == NULL)
	{
		scalable_stages(f, local);
		return local;
	}
	if (*memo == NULL)
	{
		st = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(ScalableStages));
		scalable_stages(f, st);
		*memo = st;				/* kept complete */
	}
	return (const ScalableStages *) *memo;
}

/*
 * Does adding h use capacity of the newest stage, last?  Two rules, chosen
 * by the filter's scheme so that a filter grows the same way in every
 * database and bloomset version:
 *
 *  - scheme 4 (filters built from 1.5 on): h uses capacity when it sets a
 *    bit the newest stage lacks.  Only that stage is read, one cache line
 *    an add instead of one per stage.  The newest stage's bits are then
 *    exactly the bits of the hashes counted against it, which are distinct
 *    (each set a new bit), so its fill at capacity is never above the fill
 *    its rate was sized for: the promised rate holds.  A value already in
 *    an older stage is counted again here; that costs space, never rate.
 *
 *  - older schemes (filters of 1.0-1.4, kept as they were built): h uses
 *    capacity unless some stage answers "maybe" for it, as in RedisBloom.
 */
static inline bool
scalable_uses_capacity(const ScalableFilter *f, const ScalableStages *st,
					   const BloomFilter *last, uint64 h)
{
	if (f->scheme >= BLOOM_SCHEME_XXH3)
		return !bloom_test_hash(last, h);
	return !scalable_stages_test(st, h);
}

/*
 * Add the n hashes h, in order, to *pf (which may be replaced by a grown
 * copy in cxt; the old one is then freed).  A hash that uses no capacity
 * (scalable_uses_capacity) is already (maybe) present and is skipped;
 * otherwise it goes into the newest stage, after a new one is appended if
 * the newest is full.  The stages are found once (and again after growing)
 * and the capacity of the newest computed once, not per hash (pow() per
 * add was a visible share of an add).  Prefetching the stages' lines of
 * later hashes does not help: see the file header.
 */
void
scalable_add_batch(ScalableFilter **pf, const uint64 *h, int n, MemoryContext cxt)
{
	ScalableFilter *f = *pf;
	ScalableStages st;
	BloomFilter *last;
	double		cap,
				fpr;

	scalable_stages(f, &st);
	last = st.sub[st.n - 1];
	scalable_sub_target(f, st.n - 1, &cap, &fpr);
	for (int i = 0; i < n; i++)
	{
		if (!scalable_uses_capacity(f, &st, last, h[i]))
			continue;
		if ((double) last->nitems >= cap)
		{
			ScalableFilter *g = scalable_append(f, cxt);

			pfree(f);
			*pf = f = g;
			scalable_stages(f, &st);
			last = st.sub[st.n - 1];
			scalable_sub_target(f, st.n - 1, &cap, &fpr);
		}
		bloom_insert_hash(last, h[i]);
		bloom_add_items(last, 1);
		f->nitems = f->nitems == PG_UINT64_MAX ? f->nitems : f->nitems + 1;
	}
}

/* Add h to *pf (replaced by a grown copy in cxt as needed). */
void
scalable_add_hash(ScalableFilter **pf, uint64 h, MemoryContext cxt)
{
	scalable_add_batch(pf, &h, 1, cxt);
}

/* Set the family of f and of all its sub-filters (first add). */
void
scalable_adopt(ScalableFilter *f, const char *family, uint32 collfp)
{
	BloomFilter *sub = scalable_first(f);

	memmove(f->family, family, BLOOM_FAMILY_LEN);	/* family may be f's own */
	f->collfp = collfp;
	for (int i = 0; i < f->nsub; i++, sub = scalable_next(sub))
	{
		memcpy(sub->family, family, BLOOM_FAMILY_LEN);
		sub->collfp = collfp;
	}
}

/*
 * For the batch functions (bloom_batch.c): add n hashes to *pf (which may
 * be replaced by a grown copy in CurrentMemoryContext), its sub-filters
 * taking the outer element fields first (set by the caller on an empty
 * filter); and test one hash.
 */
void
scalable_add_hashes(ScalableFilter **pf, const uint64 *h, int n)
{
	scalable_adopt(*pf, (*pf)->family, (*pf)->collfp);
	for (int i = 0; i < n; i += 1024)
	{
		CHECK_FOR_INTERRUPTS();
		scalable_add_batch(pf, h + i, Min(n - i, 1024), CurrentMemoryContext);
	}
}

bool
scalable_test_hash(const ScalableFilter *f, uint64 h)
{
	return scalable_test(f, h);
}
