/*-------------------------------------------------------------------------
 *
 * bloom_text.h
 *	  The n-grams of text values and of LIKE patterns (bloom_text.c), shared
 *	  by the n-gram filters and bloomskip's n-gram operator class, so that a
 *	  range's filter of that index answers bloom_may_like as the index does.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_TEXT_H
#define BLOOMSET_BLOOM_TEXT_H

#include "postgres.h"

/* receives the hash of each element */
typedef void (*BloomEmit) (void *arg, uint64 h);

extern int	bloom_each_ngram(const char *s, int len, int n, uint64 seed,
							 BloomEmit emit, void *arg);
extern int	bloom_like_ngrams(const char *pat, int len, int n, uint64 seed,
							  BloomEmit emit, void *arg);

#endif							/* BLOOMSET_BLOOM_TEXT_H */
