/*-------------------------------------------------------------------------
 *
 * bloom_hash.c
 *	  From an SQL value to the 64-bit hash that bloom_core.c turns into bits.
 *
 * Hashing scheme 1 ("pgext"): h = fmix64(extended_hash(value, seed)), where
 * extended_hash is support function 2 of the type's default hash operator
 * class.  Those functions are what hash partitioning stores on disk, so
 * PostgreSQL keeps them stable across releases, platforms and pg_upgrade;
 * they follow the type's equality (int2/int4/int8 hash alike, numeric 1.0
 * and 1.00 hash alike) and the input collation (a nondeterministic
 * collation hashes its sort key, so 'abc' and 'ABC' collide under a
 * case-insensitive collation).  None of them reads raw in-memory bytes of a
 * datum, so a filter does not depend on build options or the CPU.
 *
 * Exceptions and shortcuts:
 *  - enum values are hashed by their label: the built-in enum hash uses the
 *	  label's OID, which a dump/restore does not preserve.  Arrays, ranges
 *	  and composites containing enums are rejected for the same reason.
 *  - int2/int4/int8, text/varchar under a deterministic collation and bytea
 *	  are hashed inline, avoiding the function-call overhead; the inline code
 *	  computes the very same function (the test suite checks this against the
 *	  generic path, see bloomset.fast_hash).
 *
 * Each filter records the element "family" it was built from (the name of
 * the hash operator family, e.g. integer_ops, with array(...)/range(...)
 * wrappers) and a fingerprint of a nondeterministic collation; adding or
 * probing a value of another family or collation is an error, not a silent
 * wrong answer.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include "access/htup_details.h"
#include "access/genam.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_enum.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "parser/parse_coerce.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

/* GUC bloomset.fast_hash: use the inlined hash functions (diagnostic). */
bool		bloom_fast_hash_enabled = true;

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
static void
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
static void
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
static void
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
static uint32
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

/* Which inlined hash, if any, computes exactly the type's extended hash. */
static BloomHashKind
bloom_hash_kind(Oid hashproc, Oid collation)
{
	switch (hashproc)
	{
		case F_HASHINT2EXTENDED:
			return BLOOM_HASH_INT2;
		case F_HASHINT4EXTENDED:
			return BLOOM_HASH_INT4;
		case F_HASHINT8EXTENDED:
			return BLOOM_HASH_INT8;
		case F_HASHVARLENAEXTENDED:
			return BLOOM_HASH_BYTES;
		case F_HASHTEXTEXTENDED:
			if (OidIsValid(collation) && get_collation_isdeterministic(collation))
				return BLOOM_HASH_BYTES;
			break;
	}
	return BLOOM_HASH_GENERIC;
}

/* Compute the hash information for values of typid under collation. */
void
bloom_typeinfo_init(BloomTypeInfo *ti, Oid typid, Oid collation,
					MemoryContext mcxt)
{
	Oid			base = getBaseType(typid);
	StringInfoData desc;

	memset(ti, 0, sizeof(*ti));
	ti->typid = typid;
	ti->collation = collation;
	initStringInfo(&desc);
	bloom_describe_family(typid, &desc, true, 0);
	bloom_set_family(ti->family, desc.data);
	pfree(desc.data);
	ti->collfp = bloom_collation_fp(base, collation);
	if (type_is_enum(base))
	{
		ti->kind = BLOOM_HASH_ENUM;
		return;
	}
	{
		TypeCacheEntry *tc = lookup_type_cache(base, TYPECACHE_HASH_EXTENDED_PROC);

		fmgr_info_cxt(tc->hash_extended_proc, &ti->hashfn, mcxt);
		ti->kind = bloom_fast_hash_enabled ?
			bloom_hash_kind(tc->hash_extended_proc, collation) : BLOOM_HASH_GENERIC;
	}
}

/* Hash of an enum value: its label, which survives dump/restore. */
static uint64
bloom_hash_enum(Datum value, uint64 seed)
{
	HeapTuple	tup = SearchSysCache1(ENUMOID, value);
	uint64		h;
	const char *label;

	if (!HeapTupleIsValid(tup))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid internal value for enum: %u",
						DatumGetObjectId(value))));
	label = NameStr(((Form_pg_enum) GETSTRUCT(tup))->enumlabel);
	h = bloom_bytes_hash(label, strlen(label), seed);
	ReleaseSysCache(tup);
	return h;
}

/* The element hash of a non-null value (hashing scheme 1). */
uint64
bloom_hash_datum(const BloomTypeInfo *ti, Datum value, uint64 seed)
{
	uint64		h;

	switch (ti->kind)
	{
		case BLOOM_HASH_INT2:
			h = bloom_lookup3_u32((uint32) (int32) DatumGetInt16(value), seed);
			break;
		case BLOOM_HASH_INT4:
			h = bloom_lookup3_u32((uint32) DatumGetInt32(value), seed);
			break;
		case BLOOM_HASH_INT8:
			{
				/* as hashint8extended: fold the high half in, int4-compatible */
				int64		v = DatumGetInt64(value);
				uint32		lo = (uint32) v;
				uint32		hi = (uint32) (v >> 32);

				lo ^= (v >= 0) ? hi : ~hi;
				h = bloom_lookup3_u32(lo, seed);
				break;
			}
		case BLOOM_HASH_BYTES:
			{
				struct varlena *t = (struct varlena *) DatumGetPointer(value);

				/* in-line values, short header or not, are hashed in place */
				if (unlikely(VARATT_IS_EXTERNAL(t) || VARATT_IS_COMPRESSED(t)))
					t = pg_detoast_datum_packed(t);
				h = bloom_bytes_hash(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), seed);
				if ((Pointer) t != DatumGetPointer(value))
					pfree(t);
				break;
			}
		case BLOOM_HASH_ENUM:
			h = bloom_hash_enum(value, seed);
			break;
		default:
			h = DatumGetUInt64(FunctionCall2Coll((FmgrInfo *) &ti->hashfn,
												 ti->collation, value,
												 UInt64GetDatum(seed)));
			break;
	}
	return bloom_mix64(h);
}

/*
 * Check that values described by ti may be used with a filter whose element
 * family and collation fingerprint are family and *collfp.  A filter that
 * has no family yet (nothing added) adopts ti's when adopt is true.
 */
void
bloom_check_element_fields(char *family, uint32 *collfp, const BloomTypeInfo *ti,
						   bool adopt)
{
	if (family[0] == '\0')
	{
		if (adopt)
		{
			memcpy(family, ti->family, BLOOM_FAMILY_LEN);
			*collfp = ti->collfp;
		}
		return;
	}
	if (memcmp(family, ti->family, BLOOM_FAMILY_LEN) != 0)
	{
		Oid			own = bloom_family_type(family);

		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a value of type %s cannot be used with a bloom filter of element family \"%s\"",
						format_type_be(ti->typid), family),
				 OidIsValid(own) ?
				 errdetail("The filter holds values of type %s (family \"%s\"); the value is of type %s (family \"%s\").",
						   format_type_be(own), family, format_type_be(ti->typid), ti->family) :
				 errdetail("Values of type %s belong to family \"%s\"; only types of the same hash operator family hash compatibly.",
						   format_type_be(ti->typid), ti->family),
				 bloom_family_ngram_n(family) > 0 ?
				 errhint("This is an n-gram filter: probe it with bloom_ngram_may_contain() or bloom_may_like().") :
				 bloom_family_is_token(family) ?
				 errhint("This is a token filter: probe it with bloom_token_may_contain().") :
				 errhint("Cast the value to the type the filter was built from.")));
	}
	if (*collfp != ti->collfp)
		ereport(ERROR,
				(errcode(ERRCODE_COLLATION_MISMATCH),
				 errmsg("the value's collation does not match the collation the bloom filter was built with"),
				 errdetail("The filter was built with %s, the value has %s.",
						   *collfp ? psprintf("the nondeterministic collation %s",
											  bloom_collation_name(*collfp)) :
						   "a deterministic collation",
						   ti->collfp ? psprintf("the nondeterministic collation %s",
												 bloom_collation_name(ti->collfp)) :
						   OidIsValid(ti->collation) ?
						   psprintf("the deterministic collation %s",
									quote_identifier(get_collation_name(ti->collation))) :
						   "no collation"),
				 errhint("Add a COLLATE clause naming the collation the filter was built with.")));
}

/*
 * Merge the element fields (family, collfp) of one aggregate state into
 * another's (dst_family, *dst_collfp): a state that saw only NULLs adopts
 * the other's; two different ones are an error naming the aggregate.
 */
void
bloom_merge_element_fields(char *dst_family, uint32 *dst_collfp,
						   const char *family, uint32 collfp, const char *aggname)
{
	if (family[0] == '\0')
		return;
	if (dst_family[0] == '\0')
	{
		memcpy(dst_family, family, BLOOM_FAMILY_LEN);
		*dst_collfp = collfp;
		return;
	}
	if (memcmp(dst_family, family, BLOOM_FAMILY_LEN) != 0 || *dst_collfp != collfp)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot combine %s states of different element types", aggname),
				 errdetail("Element families \"%s\" and \"%s\".", dst_family, family)));
}

/* bloom_check_element_fields for a bloom or counting_bloom filter. */
void
bloom_check_element(BloomFilter *f, const BloomTypeInfo *ti, bool adopt)
{
	bloom_check_element_fields(f->family, &f->collfp, ti, adopt);
}

/* The element hash of a byte string hashed as text or bytea (scheme 1). */
uint64
bloom_hash_bytes(const char *p, size_t len, uint64 seed)
{
	return bloom_mix64(bloom_bytes_hash(p, len, seed));
}

/* ---- values of another type: the filter's own element type ------------- */

/*
 * The type a value is converted to for a filter of element family opfname
 * (a hash operator family): among the types whose default hash operator
 * class is in it, the preferred type of its category, else the widest (for
 * integer_ops: int8, which every integer converts to exactly).
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

		if (opc->opcfamily != opf || !opc->opcdefault)
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
					  MemoryContext mcxt)
{
	Oid			funcid = InvalidOid;
	CoercionPathType path;

	memset(cv, 0, sizeof(*cv));
	cv->from = from;
	cv->to = to;
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
			return InputFunctionCall(&cv->fn, OutputFunctionCall(&cv->outfn, value),
									 cv->ioparam, -1);
	}
}
