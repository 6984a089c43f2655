/*-------------------------------------------------------------------------
 *
 * findex_write.h
 *	  Writing rows into a filter index's table (findex_write.c): a build's
 *	  stripes and slot maps in batches, the header row, and filters into
 *	  free slots of one segment.  Used by the entry points that change an
 *	  index (findex_update.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_FINDEX_WRITE_H
#define BLOOM_FINDEX_WRITE_H

#include "findex_table.h"

/*
 * Rows on their way into the index table: stripes batched into one INSERT
 * per BLOOM_INDEX_BATCH rows, slot maps one INSERT each (one per 64
 * filters).  When collect is set, the ids of the maps written are collected (ids)
 * (in order: ascending within one build).
 */
typedef struct BloomIndexSink
{
	BloomIndexTable *t;
	SPIPlanPtr	stripes;
	SPIPlanPtr	map;
	MemoryContext cxt;			/* the pending batch */
	int			n;
	Datum		seg[BLOOM_INDEX_BATCH];
	Datum		blk[BLOOM_INDEX_BATCH];
	Datum		bits[BLOOM_INDEX_BATCH];
	int64	   *ids;
	int64		nids;
	int64		capids;
	bool		collect;
} BloomIndexSink;

extern void bloom_index_sink_init(BloomIndexSink *s, BloomIndexTable *t, bool collect);
extern int64 bloom_index_sink_build(BloomIndexSink *s, BloomIndexBuild *b);
extern void bloom_index_write_header(BloomIndexTable *t, const BloomFilter *hdr, bool insert);
extern void bloom_index_write_segment(BloomIndexTable *t, const BloomFilter *hdr, int32 seg,
									  bool fresh, int n, const int *slots, const int64 *ids,
									  BloomFilter *const *f);

#endif							/* BLOOM_FINDEX_WRITE_H */
