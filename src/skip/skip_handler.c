/*-------------------------------------------------------------------------
 *
 * skip_handler.c
 *	  The bloomskip access method's entry: its handler (what the planner and
 *	  executor may ask, and which phase answers), its reloptions and the
 *	  validation of its operator classes.  The design is described in
 *	  README; this file sits above every phase and is called by none.
 *
 *-------------------------------------------------------------------------
 */
#include "skip.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/regproc.h"
#include "utils/catcache.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

static relopt_kind skip_relopt_kind;
static bool skip_relopts_ready = false;

/* Register the reloptions once per backend (the handler runs first). */
static void
skip_init_reloptions(void)
{
	if (skip_relopts_ready)
		return;
	skip_relopt_kind = add_reloption_kind();
	add_int_reloption(skip_relopt_kind, "pages_per_range",
					  "Heap pages per block range of a bloomskip index",
					  SKIP_DEFAULT_PPR, 1, SKIP_MAX_PPR, AccessExclusiveLock);
	add_real_reloption(skip_relopt_kind, "false_positive_rate",
					   "False-positive rate of each range's filter (0: chosen from the number of ranges)",
					   0.0, 0.0, SKIP_MAX_FPR, AccessExclusiveLock);
	skip_relopts_ready = true;
}

PG_FUNCTION_INFO_V1(bloomskip_handler);
/* The access method's handler: what the planner and executor may ask. */
Datum
bloomskip_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *am = makeNode(IndexAmRoutine);

	skip_init_reloptions();
	am->amstrategies = SKIP_NSTRATEGIES;
	am->amsupport = SKIP_NSUPPORT;
	am->amoptsprocnum = SKIP_OPTIONS_PROC;
	am->amcanmulticol = true;
	am->amoptionalkey = true;
	am->amsearcharray = true;
	am->amsearchnulls = false;
	am->amkeytype = InvalidOid;
	am->amparallelvacuumoptions = 0;	/* VACUUM_OPTION_NO_PARALLEL */
	am->ambuild = skip_build;
	am->ambuildempty = skip_buildempty;
	am->aminsert = skip_insert;
	am->ambulkdelete = skip_bulkdelete;
	am->amvacuumcleanup = skip_vacuumcleanup;
	am->amcostestimate = skip_costestimate;
	am->amoptions = skip_options;
	am->amvalidate = skip_validate;
	am->ambeginscan = skip_beginscan;
	am->amrescan = skip_rescan;
	am->amgetbitmap = skip_getbitmap;
	am->amendscan = skip_endscan;
	PG_RETURN_POINTER(am);
}

/* amoptions: parse and check WITH (pages_per_range, false_positive_rate). */
bytea *
skip_options(Datum reloptions, bool validate)
{
	static const relopt_parse_elt tab[] = {
		{"pages_per_range", RELOPT_TYPE_INT, offsetof(SkipOptions, pages_per_range)},
		{"false_positive_rate", RELOPT_TYPE_REAL, offsetof(SkipOptions, false_positive_rate)}
	};
	SkipOptions *opts;

	skip_init_reloptions();
	opts = (SkipOptions *) build_reloptions(reloptions, validate, skip_relopt_kind,
											sizeof(SkipOptions), tab, lengthof(tab));
	if (validate && opts && opts->false_positive_rate != 0.0 &&
		opts->false_positive_rate < SKIP_MIN_FPR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("false_positive_rate %g is out of range for a bloomskip index",
						opts->false_positive_rate),
				 errdetail("Valid values are between %g and %g, or 0 to let the build choose.",
						   SKIP_MIN_FPR, SKIP_MAX_FPR)));
	return (bytea *) opts;
}


/* The name of operator family opfamily. */
static char *
skip_opfamily_name(Oid opfamily)
{
	HeapTuple	tup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opfamily));
	char	   *name;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator family %u", opfamily);
	name = pstrdup(NameStr(((Form_pg_opfamily) GETSTRUCT(tup))->opfname));
	ReleaseSysCache(tup);
	return name;
}

/* Report one problem of an operator family (amvalidate's style). */
static bool
skip_invalid(const char *opfamilyname, const char *what, const char *object)
{
	ereport(INFO,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("operator family \"%s\" of access method bloomskip %s %s",
					opfamilyname, what, object)));
	return false;
}

/*
 * The operations table that support function 2 (proc, of the family's
 * members) returns, or NULL if it is not one.
 */
static const SkipClassOps *
skip_validate_class_proc(Oid proc)
{
	const SkipClassOps *ops;

	if (!check_amproc_signature(proc, INTERNALOID, true, 1, 1, INTERNALOID))
		return NULL;
	ops = (const SkipClassOps *) DatumGetPointer(OidFunctionCall1(proc, PointerGetDatum(NULL)));
	return ops && ops->magic == SKIP_CLASS_MAGIC ? ops : NULL;
}

/*
 * The class of opfamily for type typ: its support function 2's table, or
 * for a family of 1.3 without one, what 1.3 inferred (a LIKE operator: the
 * n-gram class).  NULL if support function 2 is not a class table.
 */
static const SkipClassOps *
skip_family_class(const char *famname, Oid opfamily, Oid typ, CatCList *ops, bool *ok)
{
	Oid			proc = get_opfamily_proc(opfamily, typ, typ, SKIP_CLASS_PROC);

	if (OidIsValid(proc))
	{
		const SkipClassOps *c = skip_validate_class_proc(proc);

		if (c == NULL)
			*ok = skip_invalid(famname, "has a support function 2 that is not a bloomskip class function (internal) returning internal:",
							   format_procedure(proc));
		return c;
	}
	for (int i = 0; i < ops->n_members; i++)
		if (((Form_pg_amop) GETSTRUCT(&ops->members[i]->tuple))->amopstrategy ==
			SKIP_STRATEGY_LIKE)
			return &skip_ngram_class;
	return &skip_equal_class;
}

/* Is operator op of family famname valid for class c? */
static bool
skip_validate_op(const char *famname, Form_pg_amop op, const SkipClassOps *c)
{
	if (op->amopstrategy < 1 || op->amopstrategy > SKIP_NSTRATEGIES ||
		!(c->strategies & SKIP_STRATEGY_BIT(op->amopstrategy)))
		return skip_invalid(famname, "has an operator of a strategy its class does not serve:",
							format_operator(op->amopopr));
	if (op->amoppurpose != AMOP_SEARCH ||
		!check_amop_signature(op->amopopr, BOOLOID, op->amoplefttype, op->amoprighttype))
		return skip_invalid(famname, "has an operator that is not a boolean search operator:",
							format_operator(op->amopopr));
	/* the array and jsonb strategies' types are their class's to check */
	if (op->amopstrategy == SKIP_STRATEGY_TSQUERY ?
		(op->amoplefttype != TSVECTOROID || op->amoprighttype != TSQUERYOID) :
		op->amopstrategy != SKIP_STRATEGY_EQUAL &&
		op->amopstrategy < SKIP_STRATEGY_CONTAINS &&
		(op->amoplefttype != TEXTOID || op->amoprighttype != TEXTOID))
		return skip_invalid(famname, "has a pattern operator not on text (or a full-text one not on tsvector and tsquery):",
							format_operator(op->amopopr));
	return true;
}

/* Is support function proc valid (the options function 1, or the class function 2)? */
static bool
skip_validate_proc(const char *famname, Form_pg_amproc proc)
{
	if (proc->amprocnum == SKIP_OPTIONS_PROC && check_amoptsproc_signature(proc->amproc))
		return true;
	if (proc->amprocnum == SKIP_CLASS_PROC && skip_validate_class_proc(proc->amproc))
		return true;
	return skip_invalid(famname, "has a support function that is neither the options function (1) nor the class function (2):",
						format_procedure(proc->amproc));
}

/*
 * amvalidate: a family's class is its support function 2's table (or, for
 * a family of 1.3 without one, the class 1.3 inferred); its operators are
 * boolean search operators of strategies the class serves (pattern
 * strategies on text), its support functions the options function (1)
 * and the class function (2); an equality class's type has an extended
 * hash function (the hashing this access method uses).
 */
bool
skip_validate(Oid opclassoid)
{
	HeapTuple	tup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	Form_pg_opclass cls;
	Oid			opfamily;
	char	   *famname;
	CatCList   *list;
	bool		ok = true;
	const SkipClassOps *c;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	cls = (Form_pg_opclass) GETSTRUCT(tup);
	opfamily = cls->opcfamily;
	famname = skip_opfamily_name(opfamily);
	list = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamily));
	c = skip_family_class(famname, opfamily, cls->opcintype, list, &ok);
	for (int i = 0; c && i < list->n_members; i++)
		ok &= skip_validate_op(famname, (Form_pg_amop) GETSTRUCT(&list->members[i]->tuple), c);
	ReleaseCatCacheList(list);
	if (c == &skip_equal_class &&
		!OidIsValid(lookup_type_cache(cls->opcintype, TYPECACHE_HASH_EXTENDED_PROC)->hash_extended_proc))
		ok = skip_invalid(famname, "has a type without an extended hash function:",
						  format_type_be(cls->opcintype));
	list = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamily));
	for (int i = 0; i < list->n_members; i++)
		ok &= skip_validate_proc(famname, (Form_pg_amproc) GETSTRUCT(&list->members[i]->tuple));
	ReleaseCatCacheList(list);
	ReleaseSysCache(tup);
	return ok;
}
