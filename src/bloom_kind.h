/*-------------------------------------------------------------------------
 *
 * bloom_kind.h
 *	  One table of operations per SQL filter type (bloom, counting_bloom,
 *	  scalable_bloom), the only way layers below the types reach a kind.
 *
 * The datum layer, the probe cache and the batch calls work on a filter
 * they hold as `void *` and a BloomKind; what differs between the kinds --
 * the header, where the element fields are, how a value is validated, how a
 * hash is tested, added and prefetched, how a full filter is reported --
 * they ask the kind's BloomKindOps, never by comparing the kind.  Each type's
 * file defines its table and registers it when the module loads
 * (bloom_module.c), so this registry depends on nothing above the core and
 * the types depend on it, not the other way round.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_KIND_H
#define BLOOMSET_BLOOM_KIND_H

#include "postgres.h"
#include "fmgr.h"

#include "core/bloom_core.h"

/* the SQL types sharing the stored header */
typedef enum BloomKind
{
	BLOOM_KIND_PLAIN,			/* bloom: classic or blocked */
	BLOOM_KIND_COUNTING,		/* counting_bloom */
	BLOOM_KIND_SCALABLE			/* scalable_bloom */
} BloomKind;

#define BLOOM_NKINDS	3

/* Where a filter keeps the fields that say what its elements are. */
typedef struct BloomElementFields
{
	char	   *family;
	uint32	   *collfp;
	uint64		seed;
	int			scheme;
} BloomElementFields;

typedef struct BloomKindOps
{
	BloomKind	kind;
	const char *type_name;		/* the SQL type, for messages */
	const char *corrupt_msg;	/* message of an invalid stored value */
	Size		header_size;	/* of a stored value's (first) header */
	bool		has_subfilters; /* a chain of complete bloom images follows */

	/* does the header's layout belong to the kind (a bloom value's header) */
	bool		(*layout_ok) (const BloomFilter *f);
	/* why the detoasted d of size bytes is not a readable value, or NULL */
	const char *(*reason) (const void *d, size_t size);
	/* a readable value in an older stored format, converted; NULL: current */
	void	   *(*upgrade) (const void *d, size_t size);
	BloomElementFields (*fields) (void *f);
	/* prefetch what adding (write) or testing h touches; or NULL */
	void		(*prefetch) (const void *f, uint64 h, bool write);
	bool		(*test) (const void *f, uint64 h);
	/*
	 * add the n hashes of nkeys keys (a key may have several, see
	 * bloom_key_hashes), counting nkeys items; returns the filter (it may
	 * move)
	 */
	void	   *(*add) (void *f, const uint64 *h, int n, int nkeys);
	/* warn or raise (bloomset.full_filter) if f is over its target rate */
	void		(*check_full) (const void *f, FunctionCallInfo fcinfo);
} BloomKindOps;

extern void bloom_kind_register(const BloomKindOps *ops);
extern const BloomKindOps *bloom_kind_ops(BloomKind kind);

#endif							/* BLOOMSET_BLOOM_KIND_H */
