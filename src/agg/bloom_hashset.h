/*-------------------------------------------------------------------------
 *
 * bloom_hashset.h
 *	  The exact set of element hashes of the aggregates' exact phase
 *	  (bloom_hashset.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_HASHSET_H
#define BLOOMSET_BLOOM_HASHSET_H

#include "postgres.h"
#include "lib/stringinfo.h"

#include "../core/bloom_core.h"

/*
 * An exact set of 64-bit element hashes (open addressing, 0 marks a free
 * slot, the hash 0 kept aside), with each hash's multiplicity if counted.
 */
typedef struct BloomHashSet
{
	uint64	   *slots;
	uint8	   *mult;			/* counted: multiplicity of each slot's hash */
	uint32		nslots;
	uint32		nused;
	bool		has_zero;		/* hash value 0 is in the set */
	uint8		zero_mult;
} BloomHashSet;

extern void bloom_hashset_init(BloomHashSet *s, MemoryContext cxt, bool counted);
extern void bloom_hashset_free(BloomHashSet *s);
extern void bloom_hashset_grow(BloomHashSet *s);
extern uint64 bloom_hashset_count(const BloomHashSet *s);
extern bool bloom_hashset_next(const BloomHashSet *s, uint64 *pos, uint64 *h, int *mult);
extern void bloom_hashset_copy(BloomHashSet *dst, const BloomHashSet *src, MemoryContext cxt);
extern void bloom_hashset_send(StringInfo buf, const BloomHashSet *s);
extern const char *bloom_hashset_recv(BloomHashSet *s, StringInfo buf, uint32 max,
									  bool build);

/* Raise a multiplicity by n, saturating where a counter does. */
static inline void
bloom_mult_add(uint8 *m, int n)
{
	*m = (uint8) Min((int) *m + n, BLOOM_COUNTER_MAX);
}

/*
 * Add h, n times (hashes are already mixed, so low bits index well).
 * Inline: the exact phase of an aggregate calls it for every row.
 */
static inline void
bloom_hashset_add(BloomHashSet *s, uint64 h, int n)
{
	uint32		mask = s->nslots - 1;
	uint32		i = (uint32) h & mask;

	if (h == 0)
	{
		s->has_zero = true;
		bloom_mult_add(&s->zero_mult, n);
		return;
	}
	while (s->slots[i] != 0 && s->slots[i] != h)
		i = (i + 1) & mask;
	if (s->mult)
		bloom_mult_add(&s->mult[i], n);
	if (s->slots[i] == h)
		return;
	s->slots[i] = h;
	if (++s->nused * 2 > s->nslots)
		bloom_hashset_grow(s);
}

#endif							/* BLOOMSET_BLOOM_HASHSET_H */
