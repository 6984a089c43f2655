/*-------------------------------------------------------------------------
 *
 * bloom_kind.h
 *	  One table of operations per SQL filter type (bloom, counting_bloom,
 *	  scalable_bloom), the only way layers below the types and the aggregate
 *	  engine reach a kind.
 *
 * The datum layer, the probe cache, the batch calls and the aggregate
 * engine work on a filter they hold as `void *` and a BloomKind; what
 * differs between the kinds -- the header, where the element fields are,
 * how a value is validated, how a hash is tested, added and prefetched, how
 * a full filter is reported, which bytes a probe of a stored value reads,
 * how an aggregate state of the kind is built, merged, serialized and
 * finished -- they ask the kind's BloomKindOps, never by comparing the
 * kind.  Each type's file defines its table, holds its SQL entry points
 * (the batch calls' included: bloom_batch.h; its aggregates' are in a file
 * of their own beside it, over src/agg) and registers the table when the
 * module loads (bloom_module.c), so this registry depends on nothing above
 * the core and the types depend on it, not the other way round.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_KIND_H
#define BLOOMSET_BLOOM_KIND_H

#include "postgres.h"
#include "fmgr.h"

#include "../core/bloom_core.h"

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
	/*
	 * The hint of an error about two filters of different hashing schemes
	 * (bloom_scheme_mismatch_hint): how to get filters that combine, with
	 * the functions of the installed version from scheme_hint_since on (as
	 * major * 100 + minor; before, and from 1.2 on, the hint says to
	 * rebuild); %d: the scheme of new filters, then the older scheme.
	 */
	const char *scheme_hint;
	int			scheme_hint_since;
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
	/*
	 * estimated distinct items and current false-positive rate of a valid
	 * value f (the planner's selectivity of a probe)
	 */
	void		(*stats) (const void *f, double *items, double *fpr);

	/*
	 * Reading a stored value in slices (bloom_cache.c), for a kind whose
	 * positions follow from the header alone (bloom_probe_positions); a kind
	 * without probe_width is read whole.  probe_width: how many positions
	 * one hash probes in the image f (a kind with sub-filters: in all of
	 * them).  probe_span: the data bytes, from the end of f's header, that
	 * testing position pos loads -- its block, or the 64-bit word holding
	 * its bit or counter; NULL for a kind with sub-filters, each of which
	 * is a bloom image whose own kind says.
	 */
	int			(*probe_width) (const BloomFilter *f);
	void		(*probe_span) (const BloomFilter *f, uint64 pos, Size *off, Size *len);

	/*
	 * The aggregate engine (bloom_agg.c).  Shared by the kind's value and
	 * set-operation aggregates:
	 */
	const char *state_msg;		/* error message of a bad serialized state */
	void	   *(*empty) (void);	/* the result over no rows */
	BloomFilter *(*portable) (void *f); /* the wire image, if not f itself */
	void	   *(*decode) (BloomFilter *wire, MemoryContext aggcxt);	/* or NULL */

	/*
	 * The value aggregate: a filter being filled, or an exact set of the
	 * distinct hashes under an exact-phase header (header_size bytes, its
	 * element fields read by fields) that becomes a filter at the end.
	 */
	const char *agg_name;		/* for messages */
	char		agg_tag;		/* first byte of a serialized state */
	uint32		exact_max;		/* distinct hashes the exact phase keeps */
	uint32		list_max;		/* hashes the list phase keeps; 0: no list */
	bool		counted;		/* the exact phase keeps multiplicities */
	bool		items_are_rows; /* the result counts the non-null rows */
	/* why an exact-phase header is invalid, or NULL */
	const char *(*check_exact_hdr) (const void *hdr);
	void		(*adopted) (void *f);	/* its element fields were set; or NULL */
	/* insert n hashes into *f (it may be replaced by a copy in cxt) */
	void		(*insert) (void **f, const uint64 *h, int n, MemoryContext cxt);
	/* an empty filter for the exact set: the result (final) or an overflow */
	void	   *(*from_exact) (const void *hdr, uint64 ndistinct, MemoryContext cxt,
							   bool final);
	void		(*merge) (void **dst, const void *src, MemoryContext cxt);
	void	   *(*result) (const void *f);	/* final of a filter; NULL: a copy */
} BloomKindOps;

extern void bloom_kind_register(const BloomKindOps *ops);
extern const BloomKindOps *bloom_kind_ops(BloomKind kind);
extern const BloomKindOps *bloom_kind_of(const BloomFilter *f);

#endif							/* BLOOMSET_BLOOM_KIND_H */
