/*-------------------------------------------------------------------------
 *
 * bloom_parquet.h
 *	  Parquet filters in and out of SQL (bloom_parquet.c): what the module's
 *	  start-up calls to hand the Parquet hashing scheme to bloom_hash.c.
 *	  Everything else of the file is reached from SQL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_PARQUET_H
#define BLOOMSET_BLOOM_PARQUET_H

#include "postgres.h"
#include "fmgr.h"

/* bloom_parquet.c: register the Parquet scheme's hashing (module load) */
extern void bloom_parquet_register(void);

#endif							/* BLOOMSET_BLOOM_PARQUET_H */
