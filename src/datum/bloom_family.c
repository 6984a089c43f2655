/*-------------------------------------------------------------------------
 *
 * bloom_family.c
 *	  The element family of a type and the fingerprint of a nondeterministic
 *	  collation: what a filter records of the values it was built from.
 *	  Below the hashing, whose per-type information carries both
 *	  (bloom_typeinfo_init in bloom_hash.c).
 *
 * Each filter records the element "family" it was built from (the name of
 * the hash operator family, e.g. integer_ops, with array(...)/range(...)
 * wrappers) and a fingerprint of a nondeterministic collation; adding or
 * probing a value of another family or collation is an error, not a silent
 * wrong answer (bloom_element.c).
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_family.h"
#include "../core/bloom_core.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

/* Name of a hash operator family, e.g. "integer_ops". */
static void
bloom_opfamily_name(Oid opf, StringInfo out)
{
	HeapTuple	tup = SearchSysCache1(OPFAMILYOID, ObjectIdGetDatum(opf));

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator family %u", opf);
	appendStringInfoString(out, NameStr(((Form_pg_opfamily) GETSTRUCT(tup))->opfname));
	ReleaseSysCache(tup);
}

/* The type's name without schema or quoting. */
static char *
get_typ_name(Oid typid)
{
	HeapTuple	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	char	   *name;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	name = pstrdup(NameStr(((Form_pg_type) GETSTRUCT(tup))->typname));
	ReleaseSysCache(tup);
	return name;
}

/* Raise the error for a type without a usable extended hash function. */
void
bloom_no_hash_error(Oid typid)
{
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_FUNCTION),
			 errmsg("could not identify an extended hash function for type %s",
					format_type_be(typid)),
			 errdetail("Bloom filters hash values with support function 2 of the type's default hash operator class."),
			 errhint("Use a type with a hash operator class, or cast the value to one (for example text).")));
}

/*
 * Append the family description of typid to out, rejecting enums nested in
 * containers (their hash would depend on OIDs).  top is true for the value
 * itself, where an enum is allowed (hashed by label).
 */
void
bloom_describe_family(Oid typid, StringInfo out, bool top, int depth)
{
	Oid			base = getBaseType(typid);
	TypeCacheEntry *tc;

	check_stack_depth();
	if (type_is_enum(base))
	{
		if (!top)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bloom filters do not support enum values inside arrays, ranges or composites"),
					 errdetail("Their hash depends on OIDs that dump and restore do not preserve."),
					 errhint("Cast the enum values to text.")));
		/* the bare type name: stable whatever the search_path (pg_restore) */
		appendStringInfo(out, "enum:%s", get_typ_name(base));
		return;
	}
	tc = lookup_type_cache(base, TYPECACHE_HASH_EXTENDED_PROC | TYPECACHE_HASH_OPFAMILY);
	if (!OidIsValid(tc->hash_extended_proc) || !OidIsValid(tc->hash_opf))
		bloom_no_hash_error(typid);
	if (OidIsValid(get_element_type(base)))
	{
		appendStringInfoString(out, "array(");
		bloom_describe_family(get_element_type(base), out, false, depth + 1);
		appendStringInfoChar(out, ')');
	}
	else if (get_typtype(base) == TYPTYPE_RANGE)
	{
		appendStringInfoString(out, "range(");
		bloom_describe_family(get_range_subtype(base), out, false, depth + 1);
		appendStringInfoChar(out, ')');
	}
	else if (get_typtype(base) == TYPTYPE_COMPOSITE)
	{
		TupleDesc	td = lookup_rowtype_tupdesc(base, -1);

		for (int i = 0; i < td->natts; i++)
		{
			StringInfoData ignored;

			if (TupleDescAttr(td, i)->attisdropped)
				continue;
			initStringInfo(&ignored);
			bloom_describe_family(TupleDescAttr(td, i)->atttypid, &ignored,
								  false, depth + 1);
		}
		ReleaseTupleDesc(td);
		appendStringInfoString(out, "record");
	}
	else
	{
		/*
		 * "ngram..." and "token..." name bloomset's own element kinds; a
		 * hash operator family called so gets a prefix, so its filters
		 * are never taken for n-gram or token filters (input would
		 * refuse them).
		 */
		size_t		at = out->len;

		bloom_opfamily_name(tc->hash_opf, out);
		if (strncmp(out->data + at, "ngram", 5) == 0 ||
			strncmp(out->data + at, "token", 5) == 0)
		{
			char	   *name = pstrdup(out->data + at);

			out->len = (int) at;
			out->data[at] = '\0';
			appendStringInfo(out, "opf:%s", name);
		}
	}
}

/*
 * Store the family description in the fixed-size field: characters outside
 * the allowed set become '_', and a description longer than the field keeps
 * its first 22 characters, '~' and a hash of the whole.
 */
void
bloom_set_family(char *field, const char *desc)
{
	size_t		len = strlen(desc);
	char		buf[BLOOM_FAMILY_LEN];

	memset(field, 0, BLOOM_FAMILY_LEN);
	if (len < BLOOM_FAMILY_LEN)
		strlcpy(buf, desc, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%.22s~%08x", desc,
				 hash_bytes((const unsigned char *) desc, (int) len));
	for (int i = 0; buf[i]; i++)
	{
		char		c = buf[i];

		field[i] = (isalnum((unsigned char) c) || strchr("_.(),~-:", c)) ? c : '_';
	}
}

/*
 * Fingerprint of a nondeterministic collation (0 for a deterministic one):
 * a hash of its name and provider, which dump/restore preserve (its OID is
 * not preserved).
 */
static uint32
bloom_collation_tuple_fp(Form_pg_collation coll)
{
	uint32		fp;

	fp = hash_bytes((const unsigned char *) NameStr(coll->collname),
					(int) strlen(NameStr(coll->collname)));
	fp ^= (uint32) coll->collprovider * 0x9e3779b9U;
	return fp == 0 ? 1 : fp;
}

/* The fingerprint of collation for values of typid (0: deterministic). */
uint32
bloom_collation_fp(Oid typid, Oid collation)
{
	HeapTuple	tup;
	uint32		fp;

	if (!OidIsValid(collation) || !type_is_collatable(typid) ||
		get_collation_isdeterministic(collation))
		return 0;
	tup = SearchSysCache1(COLLOID, ObjectIdGetDatum(collation));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for collation %u", collation);
	fp = bloom_collation_tuple_fp((Form_pg_collation) GETSTRUCT(tup));
	ReleaseSysCache(tup);
	return fp;
}

/*
 * The name of the nondeterministic collation whose fingerprint is fp, found
 * among this database's collations (the stored format keeps the fingerprint
 * of the name, not the name); "unknown (fingerprint ...)" if none has it.
 * For bloom_info and error messages only: it reads all of pg_collation.
 */
char *
bloom_collation_name(uint32 fp)
{
	Relation	rel = table_open(CollationRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	HeapTuple	tup;
	char	   *name = NULL;

	while (name == NULL && HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_collation coll = (Form_pg_collation) GETSTRUCT(tup);

		if (!coll->collisdeterministic && bloom_collation_tuple_fp(coll) == fp)
			name = pstrdup(quote_identifier(NameStr(coll->collname)));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return name ? name : psprintf("unknown (fingerprint %08x)", fp);
}
