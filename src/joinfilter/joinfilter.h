/*-------------------------------------------------------------------------
 *
 * joinfilter.h
 *	  Runtime join filters: a Bloom filter of a hash join's build-side keys,
 *	  tested where the probe side's rows are produced (src/joinfilter/README).
 *
 * Three parts, one file each:
 *	  jf_plan.c    the planner hook: which hash joins get a filter, and the
 *	               two pass-through nodes it puts into the finished plan
 *	  jf_exec.c    the nodes: Runtime Filter Build under the join's Hash,
 *	               Runtime Filter Probe above the probe side's scan; EXPLAIN
 *	  jf_filter.c  the filter itself and the keys' hashing, with the join
 *	               operators' own hash functions and collations
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_JOINFILTER_H
#define BLOOMSET_JOINFILTER_H

#include "postgres.h"

#include "fmgr.h"
#include "executor/execdesc.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "nodes/plannodes.h"

#include "../core/bloom_core.h"

#define JF_BUILD_NAME	"Runtime Filter Build"
#define JF_PROBE_NAME	"Runtime Filter Probe"

/* bloomset.runtime_filter */
typedef enum JfMode
{
	JF_OFF,
	JF_ON,						/* where the planner's estimates say it pays */
	JF_FORCE					/* on every eligible join (tests) */
} JfMode;

extern int	jf_mode;
extern int	jf_min_rows;
extern double jf_max_pass;

/*
 * A probe that has tested this many rows since it became ready and passed
 * more than JF_SWITCH_OFF_PASS of them stops testing until its next rescan:
 * it would cost more than the rows it removes save.
 */
#define JF_SAMPLE_ROWS		4096
#define JF_SWITCH_OFF_PASS	0.75

/* the false-positive rate a filter is sized for */
#define JF_TARGET_FPR		0.01

/*
 * The keys of one filter: the join operators' hash functions for the side
 * the node is on (the build side's right-hand, the probe side's left-hand
 * functions of the operators' hash families, as the join itself hashes)
 * and the join's collations.
 */
typedef struct JfKeys
{
	int			nkeys;
	FmgrInfo   *funcs;
	Oid		   *collations;
	bool		all_strict;		/* every operator strict: NULL never matches */
} JfKeys;

/*
 * The filter a build node fills.  Hashes are buffered until the build side
 * ends, so that the filter is sized for the keys it really holds; past the
 * buffer's cap it is sized from what was seen and filled directly.
 */
typedef struct JfFilter
{
	MemoryContext cxt;			/* holds the buffer and the filter */
	uint64	   *pending;
	int64		npending;
	int64		cappending;		/* allocated */
	int64		maxpending;		/* the cap, from work_mem */
	int64		planned;		/* the planner's estimate of the build rows */
	BloomFilter *bloom;			/* NULL until sized */
	int64		nadded;
	bool		pass_all;		/* a key the filter cannot represent was seen */
} JfFilter;

/* custom_private of both nodes: the join's plan_node_id, then per key lists */
typedef enum JfPrivate
{
	JF_PRIV_FILTER_NO,			/* Integer: the filter's number in EXPLAIN */
	JF_PRIV_JOIN_ID,			/* Integer: plan_node_id of the hash join */
	JF_PRIV_BUILD_ID,			/* Integer: plan_node_id of the build node */
	JF_PRIV_FUNCS,				/* List of Integer: hash function OIDs */
	JF_PRIV_COLLATIONS,			/* List of Integer: collation OIDs */
	JF_PRIV_STRICT,				/* Integer: 1 if every operator is strict */
	JF_PRIV_ATTNOS,				/* probe only: List of Integer, key columns */
	JF_PRIV_PLANNED_ROWS		/* build only: Integer, estimated build rows */
} JfPrivate;

typedef struct JfBuildState
{
	CustomScanState css;
	List	   *key_exprs;		/* ExprStates of the Hash's own keys */
	Datum	   *values;
	bool	   *nulls;
	JfKeys		keys;
	JfFilter	filter;
	bool		built;			/* reached the end since the last rescan */
	int64		nbuilds;
} JfBuildState;

typedef struct JfProbeState
{
	CustomScanState css;
	int			join_id;
	int			build_id;
	AttrNumber *attnos;
	Datum	   *values;
	bool	   *nulls;
	JfKeys		keys;
	/* wired at executor start; NULL: never ready, every row passes */
	HashJoinState *join;
	JfBuildState *build;
	bool		ready;
	bool		switched_off;
	int64		cycle_tested;	/* since the last rescan */
	int64		cycle_passed;
	/* totals for EXPLAIN ANALYZE */
	int64		tested;
	int64		unready;
	int64		skipped;		/* passed untested after switching off */
	int64		switch_offs;
} JfProbeState;

/* jf_filter.c */
extern void jf_keys_init(JfKeys *keys, List *funcs, List *collations,
						 bool all_strict);
extern bool jf_keys_hash(const JfKeys *keys, const Datum *values,
						 const bool *nulls, uint64 *hash);
extern void jf_filter_init(JfFilter *filter, MemoryContext parent,
						   int64 planned);
extern void jf_filter_reset(JfFilter *filter);
extern void jf_filter_add(JfFilter *filter, uint64 hash);
extern void jf_filter_finish(JfFilter *filter);
extern bool jf_filter_test(const JfFilter *filter, uint64 hash);

/* jf_exec.c */
extern const CustomScanMethods jf_build_plan_methods;
extern const CustomScanMethods jf_probe_plan_methods;
extern uint64 jf_probes_begun;
extern void jf_exec_register(void);
extern void jf_wire(QueryDesc *queryDesc);

/* jf_plan.c */
extern void jf_plan_init(void);
extern bool jf_is_probe_plan(const Plan *plan);

/* _PG_init's part (jf_plan.c): the settings, the hook, the node methods */
extern void jf_init(void);

#endif							/* BLOOMSET_JOINFILTER_H */
