/*-------------------------------------------------------------------------
 *
 * bloom_convert.h
 *	  A value given to a filter of another element type, converted to the
 *	  filter's own type (bloom_convert.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_CONVERT_H
#define BLOOMSET_BLOOM_CONVERT_H

#include "postgres.h"
#include "fmgr.h"

#include "bloom_hash.h"

/*
 * A value given to a filter of another element type, converted to the
 * filter's own type (by its implicit cast, or by the input function from a
 * string) and hashed with that type's information ti.  A char(n) value
 * converted through its text drops its trailing spaces, as PostgreSQL's
 * cast of char(n) to text does -- for filters of scheme 2 and later; scheme
 * 1 (filters of 1.0 and 1.1) keeps the padded text those versions
 * converted, so their answers do not change.
 */
typedef enum BloomConvertHow
{
	BLOOM_CONVERT_RELABEL,		/* binary compatible: as it is */
	BLOOM_CONVERT_CAST,			/* the implicit cast function */
	BLOOM_CONVERT_INPUT			/* text out of the value, input of the type */
} BloomConvertHow;

typedef struct BloomConversion
{
	Oid			from;
	Oid			to;
	BloomConvertHow how;
	int			nargs;			/* of the cast function */
	FmgrInfo	fn;				/* cast or input function */
	Oid			ioparam;
	FmgrInfo	outfn;			/* output function of from (INPUT) */
	bool		from_varlena;
	bool		trim_asked;		/* for a filter whose scheme trims char(n) */
	bool		trim_bpchar;	/* INPUT from char(n): trailing spaces dropped */
	BloomTypeInfo ti;			/* of to */
} BloomConversion;

extern Oid	bloom_family_type(const char *family);
extern bool bloom_conversion_init(BloomConversion *cv, Oid from, Oid to,
								  Oid collation, int scheme, MemoryContext mcxt);
extern Datum bloom_convert(BloomConversion *cv, Datum value);

#endif							/* BLOOMSET_BLOOM_CONVERT_H */
