/*-------------------------------------------------------------------------
 *
 * findex_table.c
 *	  The filter index's table under its SQL entry points: the check that a
 *	  relation is a filter index, the extension's statements on it (run
 *	  through SPI with search_path pinned), the writers' lock, and the
 *	  stored rows read back checked.
 *
 * Why C and not PL/pgSQL: the steps of the index (writing a stripe,
 * matching stripes, reading a build's rows) would otherwise be SQL
 * functions any user can call with any bytes; here they are C functions
 * reachable only through the entry points (findex_update.c,
 * findex_lookup.c), which check every argument and every stored row they
 * use (XX001 naming the index for a row a user damaged; 22xxx/42xxx for
 * arguments).
 *
 * Statements: every statement of the extension's own runs with search_path
 * pinned to pg_catalog, pg_temp (bloom_index_pin_path), on the table named
 * by its schema-qualified, quoted name; values are parameters.  The only
 * text run under the caller's search_path is the caller's own: the table
 * name and the source query of bloom_index_create, the source query of
 * bloom_index_add -- planned and read under the caller's path.
 *
 * Snapshots and locks: lookups and bloom_index_info are STABLE and run
 * their statements read-only, so all of them see the caller's snapshot, as
 * one statement would; they take no lock beyond the reads' own.  Writers
 * serialize on SHARE UPDATE EXCLUSIVE of the index table (LOCK TABLE, with
 * its privilege check, bloom_index_lock), which does not block lookups,
 * and read the index again after the lock, so they build on what the
 * writer before them committed.
 *
 *-------------------------------------------------------------------------
 */
#include "findex_table.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

/* ---- the table, the path, the statements --------------------------------- */

/* True when relid has a column called name of type typid. */
static bool
bloom_index_has_column(Oid relid, const char *name, Oid typid)
{
	AttrNumber	att = get_attnum(relid, name);

	return att != InvalidAttrNumber && get_atttype(relid, att) == typid;
}

/*
 * The filter index relid, checked to be one: a table with columns seg
 * int4, blk int4, ids int8[] and bits bytea (42809 otherwise).
 */
void
bloom_index_table(Oid relid, BloomIndexTable *t)
{
	HeapTuple	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Form_pg_class rc;
	char		relkind;

	if (!HeapTupleIsValid(tp))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	rc = (Form_pg_class) GETSTRUCT(tp);
	relkind = rc->relkind;
	t->relid = relid;
	t->name = quote_qualified_identifier(get_namespace_name(rc->relnamespace),
										 NameStr(rc->relname));
	ReleaseSysCache(tp);
	if (relkind != RELKIND_RELATION ||
		!bloom_index_has_column(relid, "seg", INT4OID) ||
		!bloom_index_has_column(relid, "blk", INT4OID) ||
		!bloom_index_has_column(relid, "ids", INT8ARRAYOID) ||
		!bloom_index_has_column(relid, "bits", BYTEAOID))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a bloom index", t->name),
				 errdetail("A bloom index is a table made by bloom_index_create, with columns seg, blk, ids and bits.")));
}

/*
 * Pin search_path to pg_catalog, pg_temp until bloom_index_unpin_path (or
 * the end of the (sub)transaction on error), as a function's SET clause
 * does: the extension's own statements resolve no name through the
 * caller's path.
 */
int
bloom_index_pin_path(void)
{
	int			nest = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nest;
}

/* Restore the caller's search_path. */
void
bloom_index_unpin_path(int nest)
{
	AtEOXact_GUC(true, nest);
}

/*
 * Run one of the extension's statements (pinned path) with parameters;
 * read_only: under the caller's snapshot.  The rows are in SPI_tuptable.
 */
void
bloom_index_exec(const char *sql, int nargs, Oid *types, Datum *values,
				 bool read_only, long count)
{
	int			nest = bloom_index_pin_path();
	int			rc = SPI_execute_with_args(sql, nargs, types, values, NULL,
										   read_only, count);

	bloom_index_unpin_path(nest);
	if (rc < 0)
		elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
}

/* A cursor over one of the extension's queries (planned with the pinned path). */
Portal
bloom_index_open(const char *sql, int nargs, Oid *types, Datum *values, bool read_only)
{
	int			nest = bloom_index_pin_path();
	Portal		p = SPI_cursor_open_with_args(NULL, sql, nargs, types, values, NULL,
											  read_only, 0);

	bloom_index_unpin_path(nest);
	return p;
}

/* A plan of one of the extension's statements (planned with the pinned path). */
SPIPlanPtr
bloom_index_prepare(const char *sql, int nargs, Oid *types)
{
	int			nest = bloom_index_pin_path();
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	bloom_index_unpin_path(nest);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
	return plan;
}

/* Run a plan of bloom_index_prepare (pinned path, not read-only). */
void
bloom_index_exec_plan(SPIPlanPtr plan, Datum *values)
{
	int			nest = bloom_index_pin_path();
	int			rc = SPI_execute_plan(plan, values, NULL, false, 0);

	bloom_index_unpin_path(nest);
	if (rc < 0)
		elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(rc));
}

/* Column col of row i of SPI_tuptable; isnull set. */
Datum
bloom_index_col(uint64 i, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, col, isnull);
}

/* Serialize with other writers of the index; lookups go on. */
void
bloom_index_lock(BloomIndexTable *t)
{
	bloom_index_exec(psprintf("LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE", t->name),
					 0, NULL, NULL, false, 0);
}

/* ---- stored rows ------------------------------------------------------- */

/*
 * The index's header into hdr (false: no filter was ever added) and the
 * number of segments its slot maps claim (max seg + 1), in one statement.
 */
bool
bloom_index_read_header(BloomIndexTable *t, bool read_only, BloomFilter *hdr, int64 *nseg)
{
	char	   *sql = psprintf("SELECT h.bits, (SELECT max(m.seg) FROM %s m WHERE m.blk = -1) "
							   "FROM %s h WHERE h.blk = -1 AND h.seg = -1", t->name, t->name);
	bool		isnull;
	Datum		bits;
	Datum		maxseg;

	bloom_index_exec(sql, 0, NULL, NULL, read_only, 0);
	if (SPI_processed != 1)
		bloom_index_corrupt(t->name, "The index has %llu header rows (seg -1, blk -1), not one.",
							(unsigned long long) SPI_processed);
	maxseg = bloom_index_col(0, 2, &isnull);
	*nseg = isnull ? 0 : (int64) DatumGetInt32(maxseg) + 1;
	bits = bloom_index_col(0, 1, &isnull);
	if (!isnull)
	{
		bloom_index_header_of(t->name, DatumGetByteaPP(bits), hdr);
		/* values were added, so a segment was written with its slot map */
		if (hdr->family[0] != '\0' && *nseg == 0)
			bloom_index_corrupt(t->name, "The header row holds parameters, but the index has no slot map.");
	}
	else if (*nseg > 0)			/* no filter was ever added, yet there are some */
		bloom_index_corrupt(t->name, "The header row holds no parameters, but the index has %lld segments.",
							(long long) *nseg);
	SPI_freetuptable(SPI_tuptable);
	return !isnull;
}

/* Row i's int4 column col, which a valid index never has NULL. */
int32
bloom_index_int_col(BloomIndexTable *t, uint64 i, int col)
{
	bool		isnull;
	Datum		d = bloom_index_col(i, col, &isnull);

	if (isnull)
		bloom_index_corrupt(t->name, "A row has no segment or stripe number.");
	return DatumGetInt32(d);
}

/*
 * Row i's slot map (column col) as 64 ids and null flags, checked; a NULL
 * map is corrupt.
 */
void
bloom_index_map_col(BloomIndexTable *t, uint64 i, int col, int32 seg,
					Datum **ids, bool **nulls)
{
	bool		isnull;
	Datum		d = bloom_index_col(i, col, &isnull);

	if (isnull)
		bloom_index_corrupt(t->name, "The slot map of segment %d is NULL.", seg);
	bloom_index_slot_map(t->name, DatumGetArrayTypeP(d), ids, nulls);
}
