/*-------------------------------------------------------------------------
 *
 * bloom_element.h
 *	  The element family and collation checks of a value against a filter,
 *	  and the merge of aggregate states' element fields (bloom_element.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_ELEMENT_H
#define BLOOMSET_BLOOM_ELEMENT_H

#include "postgres.h"

#include "bloom_hash.h"
#include "../core/bloom_core.h"

extern void bloom_check_element_fields(char *family, uint32 *collfp,
									   const BloomTypeInfo *ti, bool adopt);
extern void bloom_check_element(BloomFilter *f, const BloomTypeInfo *ti,
								bool adopt);
extern void bloom_merge_element_fields(char *dst_family, uint32 *dst_collfp,
									   const char *family, uint32 collfp,
									   const char *aggname);

#endif							/* BLOOMSET_BLOOM_ELEMENT_H */
