/*-------------------------------------------------------------------------
 *
 * bloom_convert.c
 *	  Values of another type than a filter's: the element type of a filter's
 *	  family, and the conversion of a value to it (an int4 probe of an int8
 *	  filter, a string literal).  Above the hashing: a converted value is
 *	  hashed with its new type's information (bloom_typeinfo_init).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_convert.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "parser/parse_coerce.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

/*
 * The type a value is converted to for a filter of element family opfname
 * (a hash operator family): among the types whose default hash operator
 * class is in it, the preferred type of its category, else the widest (for
 * integer_ops: int8, which every integer converts to exactly).  None for
 * a family whose classes are declared for a pseudo-type (multirange_ops:
 * anymultirange), where several types share the family.
 */
static Oid
bloom_opfamily_type(const char *opfname)
{
	Oid			opf = OpfamilynameGetOpfid(HASH_AM_OID, opfname);
	Relation	rel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	Oid			best = InvalidOid;
	int			best_rank = -1;

	if (!OidIsValid(opf))
		return InvalidOid;
	rel = table_open(OperatorClassRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_opclass_opcmethod, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(HASH_AM_OID));
	scan = systable_beginscan(rel, OpclassAmNameNspIndexId, true, NULL, 1, &key);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_opclass opc = (Form_pg_opclass) GETSTRUCT(tup);
		int16		typlen;
		bool		byval;
		char		category;
		bool		preferred;
		int			rank;

		/* a pseudo-type (anymultirange) names no type a value converts to */
		if (opc->opcfamily != opf || !opc->opcdefault ||
			get_typtype(opc->opcintype) == TYPTYPE_PSEUDO)
			continue;
		get_typlenbyval(opc->opcintype, &typlen, &byval);
		get_type_category_preferred(opc->opcintype, &category, &preferred);
		rank = (preferred ? 1000 : 0) + Max(typlen, 0);
		if (rank > best_rank || (rank == best_rank && opc->opcintype < best))
		{
			best = opc->opcintype;
			best_rank = rank;
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return best;
}

/*
 * The element type of filters of family (as bloom_describe_family writes
 * it), or InvalidOid when values cannot be converted to it: n-gram and
 * token filters, ranges and records (several types share their families),
 * truncated family names.
 */
Oid
bloom_family_type(const char *family)
{
	size_t		len = strlen(family);

	if (strncmp(family, BLOOM_FAMILY_PARQUET, strlen(BLOOM_FAMILY_PARQUET)) == 0)
		return bloom_parquet_hooks()->family_type(family);
	if (strncmp(family, "enum:", 5) == 0)
	{
		Oid			t = TypenameGetTypid(family + 5);

		return OidIsValid(t) && type_is_enum(t) ? t : InvalidOid;
	}
	if (strncmp(family, "array(", 6) == 0 && len > 7 && family[len - 1] == ')')
	{
		char	   *inner = pnstrdup(family + 6, len - 7);
		Oid			elem = bloom_family_type(inner);

		return OidIsValid(elem) ? get_array_type(elem) : InvalidOid;
	}
	if (strchr(family, '(') || strchr(family, '~') || strchr(family, ':') ||
		strcmp(family, "record") == 0 || bloom_family_is_token(family))
		return InvalidOid;
	return bloom_opfamily_type(family);
}

/*
 * Prepare converting values of type from to type to: by the implicit cast
 * if there is one (int4 -> numeric), by to's input function from a string
 * (an untyped literal, a text parameter).  False if neither exists.
 */
bool
bloom_conversion_init(BloomConversion *cv, Oid from, Oid to, Oid collation,
					  int scheme, MemoryContext mcxt)
{
	Oid			funcid = InvalidOid;
	CoercionPathType path;

	memset(cv, 0, sizeof(*cv));
	cv->from = from;
	cv->to = to;
	cv->trim_asked = scheme != BLOOM_SCHEME_PGEXT;
	path = find_coercion_pathway(to, from, COERCION_IMPLICIT, &funcid);
	if (path == COERCION_PATH_RELABELTYPE)
		cv->how = BLOOM_CONVERT_RELABEL;
	else if (path == COERCION_PATH_FUNC && OidIsValid(funcid))
	{
		cv->how = BLOOM_CONVERT_CAST;
		cv->nargs = get_func_nargs(funcid);
		fmgr_info_cxt(funcid, &cv->fn, mcxt);
	}
	else if (TypeCategory(getBaseType(from)) == TYPCATEGORY_STRING)
	{
		Oid			infunc;

		cv->how = BLOOM_CONVERT_INPUT;
		getTypeInputInfo(to, &infunc, &cv->ioparam);
		fmgr_info_cxt(infunc, &cv->fn, mcxt);
		getTypeOutputInfo(from, &infunc, &cv->from_varlena);
		fmgr_info_cxt(infunc, &cv->outfn, mcxt);
		cv->trim_bpchar = cv->trim_asked && getBaseType(from) == BPCHAROID;
	}
	else
		return false;
	bloom_typeinfo_init(&cv->ti, to, collation, mcxt);
	return true;
}

/* value (of cv->from) converted to cv->to. */
Datum
bloom_convert(BloomConversion *cv, Datum value)
{
	switch (cv->how)
	{
		case BLOOM_CONVERT_RELABEL:
			return value;
		case BLOOM_CONVERT_CAST:
			if (cv->nargs == 1)
				return FunctionCall1(&cv->fn, value);
			return FunctionCall3(&cv->fn, value, Int32GetDatum(-1), BoolGetDatum(false));
		default:
			{
				char	   *s = OutputFunctionCall(&cv->outfn, value);

				if (cv->trim_bpchar)
				{
					size_t		n = strlen(s);

					while (n > 0 && s[n - 1] == ' ')
						n--;
					s[n] = '\0';
				}
				return InputFunctionCall(&cv->fn, s, cv->ioparam, -1);
			}
	}
}
