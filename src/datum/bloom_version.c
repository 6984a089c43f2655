/*-------------------------------------------------------------------------
 *
 * bloom_version.c
 *	  The bloomset version installed in the database and what follows from
 *	  it: the hashing scheme new filters get, the hint of an error about two
 *	  schemes, whether a filter may be given another scheme.  Apart from the
 *	  hashing (bloom_hash.c), which computes whatever scheme it is given:
 *	  this file reads the catalog and knows which release built what.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_version.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "datatype/timestamp.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

/*
 * A database keeps building the filters its installed SQL version builds
 * until ALTER EXTENSION bloomset UPDATE, whatever library it runs: filters
 * stored under 1.0 or 1.1 (scheme 1) must keep combining with the ones
 * built next, and the functions that change a filter's scheme
 * (bloom_with_scheme and its forms) only exist from 1.2 on.  So new
 * filters get scheme 1 while the installed version is before 1.2, scheme 2
 * from 1.2 to 1.4 (so that a 1.4 library still reads every filter a
 * database at 1.4 stores), and BLOOM_SCHEME_DEFAULT (4) from 1.5 on (or
 * when bloomset is not installed: the library loaded by itself).
 *
 * pg_extension has no syscache, so no invalidation tells a backend that
 * the version changed; the version read is kept for one statement (its
 * start time, the transaction's, and the command id, which advances after
 * ALTER EXTENSION within a transaction or a function) and read again from
 * the catalog after that: one index lookup a statement that builds
 * filters.
 */
static int	bloom_installed = 0;	/* major * 100 + minor; 0: not read */
static TimestampTz bloom_installed_xact;
static TimestampTz bloom_installed_stmt;
static CommandId bloom_installed_cid;

/* "major.minor" as major * 100 + minor; BLOOM_VERSION_NEWEST if not so. */
static int
bloom_parse_version(const char *v)
{
	int			major = 0,
				minor = 0;
	const char *p = v;

	while (*p >= '0' && *p <= '9' && major < 1000)
		major = major * 10 + (*p++ - '0');
	if (p == v || *p++ != '.' || *p < '0' || *p > '9')
		return BLOOM_VERSION_NEWEST;
	while (*p >= '0' && *p <= '9' && minor < 100)
		minor = minor * 10 + (*p++ - '0');
	return major >= 1000 || minor >= 100 ? BLOOM_VERSION_NEWEST : major * 100 + minor;
}

/* pg_extension.extversion of bloomset, parsed; BLOOM_VERSION_NEWEST if none. */
static int
bloom_read_installed_version(void)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	int			version = BLOOM_VERSION_NEWEST;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber,
				F_NAMEEQ, CStringGetDatum("bloomset"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, Anum_pg_extension_extversion,
									 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = bloom_parse_version(TextDatumGetCString(d));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

/*
 * The installed bloomset version (major * 100 + minor, e.g. 101 for 1.1),
 * as the current statement sees it; BLOOM_VERSION_NEWEST when bloomset is
 * not installed in this database.
 */
int
bloom_installed_version(void)
{
	TimestampTz xact;
	TimestampTz stmt;
	CommandId	cid;

	/* no catalog to read outside a transaction: the last version seen */
	if (!IsTransactionState())
		return bloom_installed != 0 ? bloom_installed : BLOOM_VERSION_NEWEST;
	xact = GetCurrentTransactionStartTimestamp();
	stmt = GetCurrentStatementStartTimestamp();
	cid = GetCurrentCommandId(false);
	if (bloom_installed == 0 || xact != bloom_installed_xact ||
		stmt != bloom_installed_stmt || cid != bloom_installed_cid)
	{
		bloom_installed = 0;
		bloom_installed_xact = xact;
		bloom_installed_stmt = stmt;
		bloom_installed_cid = cid;
		bloom_installed = bloom_read_installed_version();	/* last */
	}
	return bloom_installed;
}

/* The hashing scheme of new filters: the installed version's (see above). */
int
bloom_new_scheme(void)
{
	int			v = bloom_installed_version();

	if (v < BLOOM_VERSION_SCHEMES)
		return BLOOM_SCHEME_PGEXT;
	return v < BLOOM_VERSION_SCHEME4 ? BLOOM_SCHEME_FULL64 : BLOOM_SCHEME_DEFAULT;
}

/*
 * The hint of an error about two filters of the kind with the different
 * schemes a and b: how to get filters that combine, naming only functions
 * the installed version has (the scheme functions exist from 1.2 on; the
 * kind's own hint from its scheme_hint_since on).  For ereport.
 */
int
bloom_scheme_mismatch_hint(const BloomKindOps *kind, int a, int b)
{
	int			scheme = bloom_new_scheme();

	if (bloom_installed_version() < BLOOM_VERSION_SCHEMES)
		return errhint("New filters in this database get scheme %d (the hashing of the installed bloomset version): rebuild the filter of scheme %d from its values here.",
					   scheme, a == scheme ? b : a);
	if (bloom_installed_version() < kind->scheme_hint_since)
		return errhint("Rebuild the older filter from its values (new filters use scheme %d); %s_scheme() shows a filter's scheme.",
					   scheme, kind->type_name);
	return errhint(kind->scheme_hint, scheme, Min(a, b));
}

/*
 * Check that a filter of hashing scheme from, with the element family
 * family and nitems items, may be given scheme to (bloom_with_scheme and
 * its counting form): to must be a scheme this build writes and, for
 * scheme 4, one the installed version builds (a 1.4 library cannot read
 * it), and only a filter nothing was added to may change (its bits were
 * set by its own scheme).  Raises the error; returns if the change is fine.
 */
void
bloom_check_scheme_change(int from, int to, const char *family, uint64 nitems,
						  const char *typname)
{
	if (!bloom_scheme_known(to))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hashing scheme %d is not supported here", to),
				 errdetail("Scheme 1 is the hashing of bloomset 1.0 and 1.1, scheme 2 that of new filters from 1.2 to 1.4, scheme 4 that of new filters since 1.5; scheme 3 (Parquet) needs the blocked layout and one element type."),
				 to == BLOOM_SCHEME_PARQUET ?
				 errhint("Use bloom_parquet_empty(capacity, fpr, element_type) or bloom_parquet_agg(x, capacity, fpr).") : 0));
	if (to == BLOOM_SCHEME_XXH3 && bloom_installed_version() < BLOOM_VERSION_SCHEME4)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hashing scheme 4 needs bloomset 1.5 installed in this database"),
				 errdetail("The installed version builds scheme 2, so that its library still reads every filter stored here."),
				 errhint("Run ALTER EXTENSION bloomset UPDATE first.")));
	if (from != to && (family[0] != '\0' || nitems != 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot change the hashing scheme of a %s that holds items", typname),
				 errdetail("Its bits were set by scheme %d; under scheme %d the same values set other bits.",
						   from, to),
				 errhint("Give the scheme to an empty filter, then add the values to it.")));
}
