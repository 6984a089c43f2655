/*-------------------------------------------------------------------------
 *
 * bloom_batch.h
 *	  Batch calls over an array of elements (bloom_batch.c), for the SQL
 *	  entry points each kind's file defines: *_add_all, *_contains_any,
 *	  *_contains_all and *_contains_each of a filter of the given kind
 *	  (argument 0) and an array (argument 1).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_BATCH_H
#define BLOOMSET_BLOOM_BATCH_H

#include "../datum/bloom_kind.h"

/* a copy of the filter with every non-null element added */
extern Datum bloom_batch_add(FunctionCallInfo fcinfo, BloomKind kind);
/* may any / every non-null element be in the filter? */
extern Datum bloom_batch_any(FunctionCallInfo fcinfo, BloomKind kind);
extern Datum bloom_batch_all(FunctionCallInfo fcinfo, BloomKind kind);
/* per element: may it be in? (NULL for a NULL element) */
extern Datum bloom_batch_each(FunctionCallInfo fcinfo, BloomKind kind);

#endif							/* BLOOMSET_BLOOM_BATCH_H */
