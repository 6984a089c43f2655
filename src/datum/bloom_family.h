/*-------------------------------------------------------------------------
 *
 * bloom_family.h
 *	  The element family and collation fingerprint of a type
 *	  (bloom_family.c), which bloom_typeinfo_init records and a filter keeps.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_FAMILY_H
#define BLOOMSET_BLOOM_FAMILY_H

#include "postgres.h"
#include "lib/stringinfo.h"

extern void bloom_no_hash_error(Oid typid);
extern void bloom_describe_family(Oid typid, StringInfo out, bool top, int depth);
extern void bloom_set_family(char *field, const char *desc);
extern uint32 bloom_collation_fp(Oid typid, Oid collation);
extern char *bloom_collation_name(uint32 fp);

#endif							/* BLOOMSET_BLOOM_FAMILY_H */
