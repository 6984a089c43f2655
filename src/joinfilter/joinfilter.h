/*-------------------------------------------------------------------------
 *
 * joinfilter.h
 *	  Runtime join filters: a Bloom filter of a hash join's build-side keys,
 *	  tested where the probe side's rows are produced (src/joinfilter/README).
 *
 * Four parts, one file each:
 *	  jf_plan.c    the planner hook: which hash joins get a filter, and the
 *	               two pass-through nodes it puts into the finished plan
 *	  jf_exec.c    the nodes: Runtime Filter Build under the join's Hash,
 *	               Runtime Filter Probe above the probe side's scan; EXPLAIN
 *	  jf_filter.c  the filter itself and the keys' hashing, with the join
 *	               operators' own hash functions and collations
 *	  jf_prune.c   a build of few keys read through the probe side's
 *	               bloomskip index instead of its scan
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
 * A probe that has tested JF_SAMPLE_ROWS rows since it became ready (or
 * since it last switched on) and passed more than JF_SWITCH_OFF_PASS of
 * them stops testing: it would cost more than the rows it removes save.
 * After JF_RESAMPLE_ROWS untested rows it tests a sample again, as the
 * rows of a table in date order, say, match in some stretches and not in
 * others; testing costs then at most a sixteenth of the rows.
 */
#define JF_SAMPLE_ROWS		4096
#define JF_RESAMPLE_ROWS	65536
#define JF_SWITCH_OFF_PASS	0.75

/* the false-positive rate a filter is sized for */
#define JF_TARGET_FPR		0.01

/*
 * The keys of one filter: the join operators' hash functions for the side
 * the node is on (the build side's right-hand, the probe side's left-hand
 * functions of the operators' hash families, as the join itself hashes)
 * and the join's collations.  A key whose functions are integer hash
 * functions on both sides (int2, int4, int8 in any mix) is hashed by its
 * value widened to 64 bits instead: equal integers are equal once widened,
 * and it saves the function call.  Which keys do is decided at plan time
 * from both sides' functions, so build and probe always agree.
 */
typedef struct JfKeys
{
	int			nkeys;
	FmgrInfo   *funcs;
	Oid		   *collations;
	int8	   *int_width;		/* 2, 4 or 8: hashed by value; 0: by funcs */
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

/*
 * What the plan says about one filter (a List in this order): the build
 * node's custom_private is one, the probe node's a List of them, one per
 * filter it tests, most selective first.
 */
typedef enum JfPrivate
{
	JF_PRIV_FILTER_NO,			/* Integer: the filter's number in EXPLAIN */
	JF_PRIV_JOIN_ID,			/* Integer: plan_node_id of the hash join */
	JF_PRIV_BUILD_ID,			/* Integer: plan_node_id of the build node */
	JF_PRIV_FUNCS,				/* List of Integer: this side's hash functions */
	JF_PRIV_COLLATIONS,			/* List of Integer: collation OIDs */
	JF_PRIV_STRICT,				/* Integer: 1 if every operator is strict */
	JF_PRIV_BY_VALUE,			/* List of Integer: 1 for an integer key */
	JF_PRIV_ATTNOS,				/* probe: List of Integer, the key columns */
	JF_PRIV_PLANNED_ROWS,		/* build: Integer, estimated build rows */
	JF_PRIV_PASS,				/* Integer: estimated pass rate, per million */
	JF_PRIV_PRUNE				/* build: 1 to keep the keys (jf_prune.c);
								 * probe: the keys' parameter, or -1 */
} JfPrivate;

/* the most build rows whose keys a probe reads a bloomskip index with */
#define JF_PRUNE_MAX_KEYS	1024
/* the most rows a probe may have passed before it switches to the index */
#define JF_PRUNE_MAX_SEEN	16

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
	/* the keys themselves, for a bloomskip index (jf_prune.c) */
	bool		prune;			/* keep them */
	Oid			prune_type;
	Datum	   *prune_keys;		/* in filter.cxt */
	int			nprune_keys;	/* -1: more than JF_PRUNE_MAX_KEYS rows */
} JfBuildState;

/* One filter a probe node tests. */
typedef struct JfProbeFilter
{
	int			filter_no;
	int			join_id;
	int			build_id;
	AttrNumber *attnos;
	JfKeys		keys;
	/* wired at executor start; NULL: never ready, every row passes */
	HashJoinState *join;
	JfBuildState *build;
	bool		testing;		/* ready and switched on: the per-row case */
	bool		ready;
	bool		switched_off;
	bool		useless;		/* the build gave up: never test */
	int			sample_left;	/* rows left in the sample, 0 after it */
	int64		sample_removed; /* removed at the sample's start */
	int64		off_rows;		/* untested since switched off */
	/* totals for EXPLAIN ANALYZE (this process's) */
	int64		removed;
	int64		unready;
	int64		skipped;		/* passed untested after switching off */
	int64		switch_offs;
} JfProbeFilter;

typedef struct JfProbeState
{
	CustomScanState css;
	int			nfilters;
	JfProbeFilter *filters;
	/* the bloomskip alternative to the child (jf_prune.c), if any */
	PlanState  *alt;
	int			prune_filter;	/* the filter whose keys it reads, or -1 */
	int			prune_param;
	bool		prune_decided;	/* this scan: child or alternative chosen */
	bool		use_alt;
	int			nseen;			/* rows passed before deciding */
	ItemPointerData seen[JF_PRUNE_MAX_SEEN];
	int64		alt_scans;		/* for EXPLAIN ANALYZE */
	Datum	   *values;			/* room for the most keys of a filter */
	bool	   *nulls;
} JfProbeState;

/* jf_filter.c */
extern int	jf_int_hash_width(Oid func);
extern void jf_keys_init(JfKeys *keys, List *priv);
extern void jf_filter_init(JfFilter *filter, MemoryContext parent,
						   int64 planned);
extern void jf_filter_reset(JfFilter *filter);
extern void jf_filter_add(JfFilter *filter, uint64 hash);
extern void jf_filter_finish(JfFilter *filter);

/* a seed of the filter's own (any value: the filter lives for one query) */
#define JF_SEED		UINT64_C(0x6a09e667f3bcc908)

/* inline: run for every probe-side row */
/*
 * The combined hash of one row's keys, or false when a key is NULL (the
 * caller decides: a probe passes the row, a build that cannot rule out a
 * match on NULL gives up filtering).  Each key contributes the join's own
 * 32-bit hash code of it, or its value as a 64-bit integer (JfKeys); they
 * are combined in key order on both sides and spread over 64 bits, whose
 * high half picks the block and low half the bits (bloom_insert_hash).
 */
static inline bool
jf_keys_hash(const JfKeys *keys, const Datum *values, const bool *nulls,
			 uint64 *hash)
{
	uint64		h = 0;

	for (int i = 0; i < keys->nkeys; i++)
	{
		uint64		code;

		if (nulls[i])
			return false;
		switch (keys->int_width[i])
		{
			case 2:
				code = (uint64) (int64) DatumGetInt16(values[i]);
				break;
			case 4:
				code = (uint64) (int64) DatumGetInt32(values[i]);
				break;
			case 8:
				code = (uint64) DatumGetInt64(values[i]);
				break;
			default:
				code = DatumGetUInt32(FunctionCall1Coll(&keys->funcs[i],
														keys->collations[i],
														values[i]));
				break;
		}
		h = (h + code) * UINT64_C(0x9e3779b97f4a7c15);
	}
	*hash = bloom_mix64(h ^ JF_SEED);
	return true;
}

/* May a row with this hash match a build row? */
static inline bool
jf_filter_test(const JfFilter *filter, uint64 hash)
{
	return filter->pass_all || bloom_test_hash(filter->bloom, hash);
}

/* jf_exec.c */
extern const CustomScanMethods jf_build_plan_methods;
extern const CustomScanMethods jf_probe_plan_methods;
extern uint64 jf_probes_begun;
extern void jf_exec_register(void);
extern void jf_wire(QueryDesc *queryDesc);

/* jf_prune.c */
extern Plan *jf_prune_plan(PlannedStmt *stmt, Plan *scan, AttrNumber key_attno,
						   Oid opno, int *next_node_id, int *paramid);
extern void jf_prune_set_keys(EState *estate, int paramid, JfBuildState *build);

/* jf_plan.c */
extern void jf_plan_init(void);
extern bool jf_is_probe_plan(const Plan *plan);

/* _PG_init's part (jf_plan.c): the settings, the hook, the node methods */
extern void jf_init(void);

#endif							/* BLOOMSET_JOINFILTER_H */
