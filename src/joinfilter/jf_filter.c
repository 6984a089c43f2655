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
#include "utils/fmgroids.h"
#include "utils/memutils.h"

/* the build's hashes buffered before the filter is sized: at most this much */
#define JF_PENDING_MAX_BYTES	((Size) 64 * 1024 * 1024)

/*
 * The largest filter (about 55 million build rows at 1 %): a larger build
 * gets none -- its hash table is then gigabytes, and a filter that size
 * would miss the caches as the hash table does.
 */
#define JF_MAX_FILTER_BYTES		((uint64) 64 * 1024 * 1024)

/* The keys of a filter, from its plan entry (JfPrivate). */
/* 2, 4 or 8 for PostgreSQL's integer hash functions, else 0. */
int
jf_int_hash_width(Oid func)
{
	switch (func)
	{
		case F_HASHINT2:
			return 2;
		case F_HASHINT4:
			return 4;
		case F_HASHINT8:
			return 8;
		default:
			return 0;
	}
}

void
jf_keys_init(JfKeys *keys, List *priv)
{
	List	   *funcs = list_nth(priv, JF_PRIV_FUNCS);
	List	   *collations = list_nth(priv, JF_PRIV_COLLATIONS);
	List	   *by_value = list_nth(priv, JF_PRIV_BY_VALUE);

	keys->nkeys = list_length(funcs);
	keys->funcs = palloc0(sizeof(FmgrInfo) * keys->nkeys);
	keys->collations = palloc(sizeof(Oid) * keys->nkeys);
	keys->int_width = palloc0(sizeof(int8) * keys->nkeys);
	keys->all_strict = intVal(list_nth(priv, JF_PRIV_STRICT)) != 0;
	for (int i = 0; i < keys->nkeys; i++)
	{
		Oid			func = intVal(list_nth(funcs, i));

		fmgr_info(func, &keys->funcs[i]);
		keys->collations[i] = intVal(list_nth(collations, i));
		if (intVal(list_nth(by_value, i)))
			keys->int_width[i] = jf_int_hash_width(func);
	}
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

	if (s.nbits == 0 || s.nbits / 8 > JF_MAX_FILTER_BYTES)
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
