/*-------------------------------------------------------------------------
 *
 * findex_match.h
 *	  Reading a filter index (findex_match.c): a probe of nkeys keys,
 *	  matched against stripes one row at a time (blks[0 .. nblks): the
 *	  stripes it needs, ascending).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_FINDEX_MATCH_H
#define BLOOM_FINDEX_MATCH_H

#include "findex.h"

extern int	bloom_index_positions(const BloomFilter *hdr, uint64 h, uint64 *pos);
typedef struct BloomIndexMatch BloomIndexMatch;
extern BloomIndexMatch *bloom_index_match_begin(const BloomFilter *hdr,
												const uint64 *h, int nkeys);
extern int	bloom_index_match_blks(const BloomIndexMatch *m, const int32 **blks);
extern int	bloom_index_match_multi(const BloomIndexMatch *m);
extern void bloom_index_match_row(const BloomIndexMatch *m, int blkno,
								  const uint8 *stripe, uint64 *any, uint64 *and);

#endif							/* BLOOM_FINDEX_MATCH_H */
