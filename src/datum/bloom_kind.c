/*-------------------------------------------------------------------------
 *
 * bloom_kind.c
 *	  The registry of the filter kinds' operation tables (bloom_kind.h).
 *
 * Filled once, when the module loads, by each type's file; read by every
 * layer that holds a filter of a kind it does not name.  A kind asked for
 * before it registered is a bug in the load order, not a user's error.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_kind.h"

static const BloomKindOps *bloom_kinds[BLOOM_NKINDS];

/* Make ops the operations of its kind (module load). */
void
bloom_kind_register(const BloomKindOps *ops)
{
	Assert(ops->kind >= 0 && ops->kind < BLOOM_NKINDS);
	bloom_kinds[ops->kind] = ops;
}

/* The operations of kind. */
const BloomKindOps *
bloom_kind_ops(BloomKind kind)
{
	if (kind < 0 || kind >= BLOOM_NKINDS || bloom_kinds[kind] == NULL)
		elog(ERROR, "bloomset: filter kind %d is not registered", (int) kind);
	return bloom_kinds[kind];
}

/*
 * The kind whose layouts include f's (the layout byte, at the same place in
 * every kind's header), or NULL for a layout no kind has.
 */
const BloomKindOps *
bloom_kind_of(const BloomFilter *f)
{
	for (int k = 0; k < BLOOM_NKINDS; k++)
		if (bloom_kinds[k] != NULL && bloom_kinds[k]->layout_ok(f))
			return bloom_kinds[k];
	return NULL;
}
