/*-------------------------------------------------------------------------
 *
 * findex_table.h
 *	  The filter index's table as the SQL layer reaches it (findex_table.c):
 *	  checking that a relation is one, running the extension's statements on
 *	  it with search_path pinned, and reading its stored rows checked.
 *
 * The SQL layer of the filter index is four files around this header:
 * findex_table.c (this), findex_write.c (writing rows), findex_update.c
 * (bloom_index_create, bloom_index_add, bloom_index_remove) and
 * findex_lookup.c (bloom_index_lookup, bloom_index_lookup_any,
 * bloom_index_info).  The bit work under them is findex.c (findex.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_FINDEX_TABLE_H
#define BLOOM_FINDEX_TABLE_H

#include "findex.h"

#include "executor/spi.h"

/* stripe rows a write reads or writes per statement or fetch (512 kB) */
#define BLOOM_INDEX_BATCH		256

/* An index table: its oid and its schema-qualified, quoted name. */
typedef struct BloomIndexTable
{
	Oid			relid;
	char	   *name;
} BloomIndexTable;

/* the table relid, checked to be a filter index (42809 otherwise) */
extern void bloom_index_table(Oid relid, BloomIndexTable *t);

/* the extension's statements: search_path pinned to pg_catalog, pg_temp */
extern int	bloom_index_pin_path(void);
extern void bloom_index_unpin_path(int nest);
extern void bloom_index_exec(const char *sql, int nargs, Oid *types, Datum *values,
							 bool read_only, long count);
extern Portal bloom_index_open(const char *sql, int nargs, Oid *types, Datum *values,
							   bool read_only);
extern SPIPlanPtr bloom_index_prepare(const char *sql, int nargs, Oid *types);
extern void bloom_index_exec_plan(SPIPlanPtr plan, Datum *values);
extern Datum bloom_index_col(uint64 i, int col, bool *isnull);
extern void bloom_index_lock(BloomIndexTable *t);

/* stored rows, checked (XX001 naming the index) */
extern bool bloom_index_read_header(BloomIndexTable *t, bool read_only, BloomFilter *hdr,
									int64 *nseg);
extern int32 bloom_index_int_col(BloomIndexTable *t, uint64 i, int col);
extern void bloom_index_map_col(BloomIndexTable *t, uint64 i, int col, int32 seg,
								Datum **ids, bool **nulls);

#endif							/* BLOOM_FINDEX_TABLE_H */
