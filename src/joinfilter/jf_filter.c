/*-------------------------------------------------------------------------
 *
 * jf_filter.c
 *	  The runtime join filter and the hashing of its keys.
 *
 * Soundness rests on one contract of PostgreSQL's hash operator families:
 * their support functions give equal hash codes to any two values the
 * family's equality operators call equal, across the family's types and
 * under the collation the operator uses (xindex.sgml).  The join itself
 * relies on it, so a filter that hashes each side with the function the
 * join uses for that side, and the join's collation, never drops a row the
 * join would match.  bloomset's own datum hashing (bloom_hash.c) is not
 * used: it follows the type's default family and a stored format, neither
 * of which a join's operator has to share.  The filter is never stored,
 * so its hash is free to change between releases.
 *
 *-------------------------------------------------------------------------
 */
#include "joinfilter.h"

#include "miscadmin.h"
#include "utils/memutils.h"

/* the build's hashes buffered before the filter is sized: at most this much */
#define JF_PENDING_MAX_BYTES	((Size) 64 * 1024 * 1024)

/* a seed of the filter's own (any value: the filter lives for one query) */
#define JF_SEED		UINT64_C(0x6a09e667f3bcc908)

void
jf_keys_init(JfKeys *keys, List *funcs, List *collations, bool all_strict)
{
	int			i = 0;
	ListCell   *lf,
			   *lc;

	keys->nkeys = list_length(funcs);
	keys->funcs = palloc0(sizeof(FmgrInfo) * keys->nkeys);
	keys->collations = palloc(sizeof(Oid) * keys->nkeys);
	keys->all_strict = all_strict;
	forboth(lf, funcs, lc, collations)
	{
		fmgr_info(intVal(lfirst(lf)), &keys->funcs[i]);
		keys->collations[i] = intVal(lfirst(lc));
		i++;
	}
}

/*
 * The combined hash of one row's keys, or false when a key is NULL (the
 * caller decides: a probe passes the row, a build that cannot rule out a
 * match on NULL gives up filtering).  Each key's 32-bit hash code is what
 * the join computes for it; they are combined in key order on both sides
 * and spread over 64 bits, whose high half picks the block and low half
 * the bits (bloom_insert_hash).
 */
bool
jf_keys_hash(const JfKeys *keys, const Datum *values, const bool *nulls,
			 uint64 *hash)
{
	uint64		h = 0;

	for (int i = 0; i < keys->nkeys; i++)
	{
		uint32		code;

		if (nulls[i])
			return false;
		code = DatumGetUInt32(FunctionCall1Coll(&keys->funcs[i],
												keys->collations[i],
												values[i]));
		h = (h + code) * UINT64_C(0x9e3779b97f4a7c15);
	}
	*hash = bloom_mix64(h ^ JF_SEED);
	return true;
}

void
jf_filter_init(JfFilter *filter, MemoryContext parent, int64 planned)
{
	memset(filter, 0, sizeof(*filter));
	filter->cxt = AllocSetContextCreate(parent, "runtime join filter",
										ALLOCSET_DEFAULT_SIZES);
	filter->planned = Max(planned, 1);
	jf_filter_reset(filter);
}

/* Empty again, for the next build (a rescan of the build side). */
void
jf_filter_reset(JfFilter *filter)
{
	MemoryContextReset(filter->cxt);
	filter->maxpending = Min((Size) work_mem * 1024, JF_PENDING_MAX_BYTES) / sizeof(uint64);
	filter->maxpending = Max(filter->maxpending, 1024);
	filter->cappending = 1024;
	filter->pending = MemoryContextAlloc(filter->cxt, 1024 * sizeof(uint64));
	filter->npending = 0;
	filter->bloom = NULL;
	filter->nadded = 0;
	filter->pass_all = false;
}

/* A blocked filter for n keys at the target rate (or pass_all: too large). */
static void
jf_filter_size(JfFilter *filter, int64 n)
{
	BloomSizing s = bloom_size_for(Max(n, 1), JF_TARGET_FPR,
								   BLOOM_LAYOUT_BLOCKED, false);

	if (s.nbits == 0)
	{
		filter->pass_all = true;
		return;
	}
	filter->bloom = MemoryContextAllocHuge(filter->cxt, BLOOM_TOTAL_SIZE(s.nbits));
	memset(filter->bloom, 0, BLOOM_TOTAL_SIZE(s.nbits));
	bloom_init_header(filter->bloom, BLOOM_LAYOUT_BLOCKED, s.nhashes,
					  s.nbits, JF_SEED);
}

/* Move the buffered hashes into the filter. */
static void
jf_filter_flush(JfFilter *filter)
{
	for (int64 i = 0; i < filter->npending; i++)
	{
		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		bloom_insert_hash(filter->bloom, filter->pending[i]);
	}
	filter->npending = 0;
}

void
jf_filter_add(JfFilter *filter, uint64 hash)
{
	if (filter->pass_all)
		return;
	filter->nadded++;
	if (filter->bloom != NULL)
	{
		bloom_insert_hash(filter->bloom, hash);
		return;
	}
	if (filter->npending == filter->maxpending)
	{
		/*
		 * More keys than the buffer holds: size for what the planner expects
		 * or twice what was seen, whichever is more, and fill directly.  The
		 * rate rises if the build goes on far beyond that; jf_filter_finish
		 * gives up on a filter too full to remove anything.
		 */
		jf_filter_size(filter, Max(filter->planned, 2 * filter->npending));
		if (filter->pass_all)
			return;
		jf_filter_flush(filter);
		bloom_insert_hash(filter->bloom, hash);
		return;
	}
	if (filter->npending == filter->cappending)
	{
		filter->cappending = Min(2 * filter->cappending, filter->maxpending);
		filter->pending = repalloc_huge(filter->pending,
										filter->cappending * sizeof(uint64));
	}
	filter->pending[filter->npending++] = hash;
}

/* The build side ended: size and fill the filter from the buffer. */
void
jf_filter_finish(JfFilter *filter)
{
	if (filter->pass_all)
		return;
	if (filter->bloom == NULL)
	{
		jf_filter_size(filter, filter->npending);
		if (filter->pass_all)
			return;
		jf_filter_flush(filter);
	}
	/* a filter that passes nearly everything only costs time */
	if (bloom_current_fpr(filter->bloom) > 0.3)
		filter->pass_all = true;
}

/* May a row with this hash match a build row? */
bool
jf_filter_test(const JfFilter *filter, uint64 hash)
{
	return filter->pass_all || bloom_test_hash(filter->bloom, hash);
}
