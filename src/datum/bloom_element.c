/*-------------------------------------------------------------------------
 *
 * bloom_element.c
 *	  Whether values may be used with a filter: its element family and
 *	  collation against the value's, and the merge of two aggregate states'
 *	  element fields.  Above the conversions, since the error names the
 *	  filter's own type (bloom_family_type in bloom_convert.c), and the
 *	  families (bloom_family.c), whose collation names it gives.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_element.h"
#include "bloom_convert.h"
#include "bloom_family.h"

#include "utils/builtins.h"
#include "utils/lsyscache.h"

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
	if (memcmp(family, bloom_ti_family(ti, family), BLOOM_FAMILY_LEN) != 0)
	{
		Oid			own = bloom_family_type(family);

		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("a value of type %s cannot be used with a bloom filter of element family \"%s\"",
						format_type_be(ti->typid), family),
				 OidIsValid(own) ?
				 errdetail("The filter holds values of type %s (family \"%s\"); the value is of type %s (family \"%s\").",
						   format_type_be(own), family, format_type_be(ti->typid), bloom_ti_family(ti, family)[0] ? bloom_ti_family(ti, family) : "none") :
				 errdetail("Values of type %s belong to family \"%s\"; only types of the same hash operator family hash compatibly.",
						   format_type_be(ti->typid), bloom_ti_family(ti, family)[0] ? bloom_ti_family(ti, family) : "none"),
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
