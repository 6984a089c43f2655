/*-------------------------------------------------------------------------
 *
 * bloom_scan.h
 *	  The batched probe, a custom scan (bloom_scan.c), set up at module load.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_SCAN_H
#define BLOOMSET_BLOOM_SCAN_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif

/* bloom_scan.c: the batched probe (a custom scan), set up by _PG_init */
extern bool bloom_batched_probe;
extern void bloom_scan_init(void);

#endif							/* BLOOMSET_BLOOM_SCAN_H */
