/*-------------------------------------------------------------------------
 *
 * skip_query.c
 *	  What a scan value asks of bloomskip's ranges (SkipQuery, skip.h): an
 *	  AND of clauses, each an OR of alternatives, each an AND of keys, built
 *	  by an operator class's query operation with these functions, and the
 *	  growing key buffers every class appends a value's keys to.  A leaf
 *	  below the classes (skip_keys.c, skip_ngram.c, skip_tsvector.c) and the
 *	  scan.
 *
 * Limits: an alternative probes at most SKIP_MAX_ALT_KEYS keys (each costs
 * up to k page reads per segment, and a conjunction of that many is as
 * selective as the filters can be; which ones is fixed: the least hashes,
 * as 1.3 chose for LIKE); a clause has at most SKIP_QUERY_MAX_ALTS
 * alternatives and a query at most SKIP_QUERY_MAX_CLAUSES clauses: beyond,
 * the clause is dropped, which only reads more ranges.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

/* clauses, alternatives and keys of one scan value at most */
#define SKIP_QUERY_MAX_CLAUSES	64
#define SKIP_QUERY_MAX_ALTS		4096
/* keys of one alternative probed at most (see skip_query_end_alt) */
#define SKIP_MAX_ALT_KEYS		64

/* Append h to buf (a SkipKeyBuf). */
void
skip_keys_push(void *arg, uint64 h)
{
	SkipKeyBuf *buf = (SkipKeyBuf *) arg;

	if (buf->n == buf->cap)
	{
		buf->cap = Max(16, 2 * buf->cap);
		buf->h = buf->h ? repalloc_huge(buf->h, sizeof(uint64) * buf->cap) :
			MemoryContextAllocHuge(buf->cxt, sizeof(uint64) * buf->cap);
	}
	buf->h[buf->n++] = h;
}

/* An empty query, allocating in cxt. */
void
skip_query_init(SkipQuery *q, MemoryContext cxt)
{
	memset(q, 0, sizeof(SkipQuery));
	q->keys.cxt = cxt;
}

/* Grow an int array of *cap to hold n + 1. */
static int *
skip_query_grow(MemoryContext cxt, int *arr, int n, int *cap)
{
	if (n < *cap)
		return arr;
	*cap = Max(16, 2 * *cap);
	return arr ? repalloc(arr, sizeof(int) * *cap) :
		MemoryContextAlloc(cxt, sizeof(int) * *cap);
}

/* Add key h to the open alternative of q (a SkipQuery; a BloomEmit). */
void
skip_query_key(void *arg, uint64 h)
{
	skip_keys_push(&((SkipQuery *) arg)->keys, h);
}

/* qsort comparator of uint64 */
static int
skip_keys_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return (x > y) - (x < y);
}

/*
 * Close the open alternative: its keys sorted, deduplicated, at most
 * SKIP_MAX_ALT_KEYS (each costs up to k page reads per segment, and a
 * conjunction of that many is as selective as the filters can be).  An
 * alternative without keys holds in every range, and so does its clause.
 */
void
skip_query_end_alt(SkipQuery *q)
{
	int			first = q->nalts > 0 ? q->alt_end[q->nalts - 1] : 0;
	int			n = 0;

	if (q->keys.n == first || q->clause_dropped ||
		q->nalts - (q->nclauses > 0 ? q->clause_end[q->nclauses - 1] : 0) >= SKIP_QUERY_MAX_ALTS)
	{
		q->clause_dropped = true;
		q->keys.n = first;
		return;
	}
	qsort(q->keys.h + first, q->keys.n - first, sizeof(uint64), skip_keys_cmp);
	for (int i = first; i < q->keys.n && n < SKIP_MAX_ALT_KEYS; i++)
		if (n == 0 || q->keys.h[first + n - 1] != q->keys.h[i])
			q->keys.h[first + n++] = q->keys.h[i];
	q->keys.n = first + n;
	q->alt_end = skip_query_grow(q->keys.cxt, q->alt_end, q->nalts, &q->altcap);
	q->alt_end[q->nalts++] = q->keys.n;
}

/*
 * The value asks for what no row holds (@> an array with a NULL element):
 * the scan key then matches no row, as a NULL argument does.
 */
void
skip_query_none(SkipQuery *q)
{
	q->matches_none = true;
}

/*
 * Close the open clause; a clause with no alternative, or with one that
 * holds everywhere, asks nothing and is dropped.
 */
void
skip_query_end_clause(SkipQuery *q)
{
	int			first_alt = q->nclauses > 0 ? q->clause_end[q->nclauses - 1] : 0;

	if (q->clause_dropped || q->nalts == first_alt || q->nclauses >= SKIP_QUERY_MAX_CLAUSES)
	{
		q->nalts = first_alt;
		q->keys.n = first_alt > 0 ? q->alt_end[first_alt - 1] : 0;
		q->clause_dropped = false;
		return;
	}
	q->clause_end = skip_query_grow(q->keys.cxt, q->clause_end, q->nclauses, &q->clausecap);
	q->clause_end[q->nclauses++] = q->nalts;
}

