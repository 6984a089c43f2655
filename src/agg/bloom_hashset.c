/*-------------------------------------------------------------------------
 *
 * bloom_hashset.c
 *	  An exact set of 64-bit element hashes: the aggregates' exact phase
 *	  (bloom_agg.c) keeps a group's distinct hashes here until it knows how
 *	  large a filter they need, and serializes them between parallel
 *	  workers.  Open addressing with linear probing at most half full; 0
 *	  marks a free slot and the hash 0 is kept aside; each hash's
 *	  multiplicity is kept, saturating as a counter does, when the set is
 *	  counted (counting filters).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_hashset.h"

#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* An empty set in cxt (keeping multiplicities if counted). */
void
bloom_hashset_init(BloomHashSet *s, MemoryContext cxt, bool counted)
{
	memset(s, 0, sizeof(*s));
	s->nslots = 16;
	s->slots = MemoryContextAllocZero(cxt, s->nslots * sizeof(uint64));
	if (counted)
		s->mult = MemoryContextAllocZero(cxt, s->nslots);
}

/* Release the slots (the set is empty and unusable until initialised). */
void
bloom_hashset_free(BloomHashSet *s)
{
	if (s->slots)
		pfree(s->slots);
	if (s->mult)
		pfree(s->mult);
	memset(s, 0, sizeof(*s));
}

/* Double the hash table (bloom_hashset_add, at half full). */
void
bloom_hashset_grow(BloomHashSet *s)
{
	BloomHashSet old = *s;
	MemoryContext cxt = GetMemoryChunkContext(old.slots);

	s->nslots *= 2;
	s->slots = MemoryContextAllocZero(cxt, (Size) s->nslots * sizeof(uint64));
	s->mult = old.mult ? MemoryContextAllocZero(cxt, s->nslots) : NULL;
	s->nused = 0;
	for (uint32 i = 0; i < old.nslots; i++)
		if (old.slots[i] != 0)
			bloom_hashset_add(s, old.slots[i], old.mult ? old.mult[i] : 1);
	pfree(old.slots);
	if (old.mult)
		pfree(old.mult);
}

/* Distinct hashes in the set. */
uint64
bloom_hashset_count(const BloomHashSet *s)
{
	return (uint64) s->nused + (s->has_zero ? 1 : 0);
}

/*
 * Iterate: *pos starts at 0; each call stores the next hash in *h and its
 * multiplicity (1 if not counted) in *mult and returns true, or returns
 * false at the end.
 */
bool
bloom_hashset_next(const BloomHashSet *s, uint64 *pos, uint64 *h, int *mult)
{
	if (*pos == 0)
	{
		*pos = 1;
		if (s->has_zero)
		{
			*h = 0;
			*mult = s->mult ? s->zero_mult : 1;
			return true;
		}
	}
	while (*pos - 1 < s->nslots)
	{
		uint64		i = (*pos)++ - 1;

		if (((*pos) & 0xFFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		if (s->slots[i] != 0)
		{
			*h = s->slots[i];
			*mult = s->mult ? s->mult[i] : 1;
			return true;
		}
	}
	return false;
}

/* A copy of src's slots in cxt, as dst. */
void
bloom_hashset_copy(BloomHashSet *dst, const BloomHashSet *src, MemoryContext cxt)
{
	*dst = *src;
	dst->slots = MemoryContextAlloc(cxt, (Size) src->nslots * sizeof(uint64));
	memcpy(dst->slots, src->slots, (Size) src->nslots * sizeof(uint64));
	if (src->mult)
	{
		dst->mult = MemoryContextAlloc(cxt, src->nslots);
		memcpy(dst->mult, src->mult, src->nslots);
	}
}

/*
 * Append the set to buf: the count (4 bytes), then the hashes (8 each,
 * followed by the multiplicity, 1 byte, if counted).
 */
void
bloom_hashset_send(StringInfo buf, const BloomHashSet *s)
{
	uint64		pos = 0,
				h;
	int			m;

	pq_sendint32(buf, (uint32) bloom_hashset_count(s));
	while (bloom_hashset_next(s, &pos, &h, &m))
	{
		pq_sendint64(buf, h);
		if (s->mult)
			pq_sendbyte(buf, m);
	}
}

/*
 * Read a set written by bloom_hashset_send from the rest of buf into s (an
 * empty set; left empty unless build); the reason it is malformed, or NULL.
 * Without build the bytes are only checked, as they are with it: the set's
 * table adds nothing a value could get wrong (a repeated hash is one).
 */
const char *
bloom_hashset_recv(BloomHashSet *s, StringInfo buf, uint32 max, bool build)
{
	int			each = s->mult ? 9 : 8;
	uint32		count;

	if (buf->len - buf->cursor < 4)
		return "the hash count is truncated";
	count = pq_getmsgint(buf, 4);
	if (count > max || (uint64) (buf->len - buf->cursor) != (uint64) count * each)
		return "the number of hashes does not match the length";
	for (uint32 i = 0; i < count; i++)
	{
		uint64		h = (uint64) pq_getmsgint64(buf);
		int			m = s->mult ? pq_getmsgbyte(buf) : 1;

		if (m < 1 || m > BLOOM_COUNTER_MAX)
			return "a multiplicity is out of range";
		if (build)
			bloom_hashset_add(s, h, m);
	}
	return NULL;
}

