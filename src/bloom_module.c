/*-------------------------------------------------------------------------
 *
 * bloom_module.c
 *	  Module entry point: settings and the choice of CPU-specific kernels.
 *
 * The word kernels (popcount, OR, AND over the bit array) are chosen at
 * load time from what the CPU supports; setting the environment variable
 * BLOOMSET_PORTABLE=1 for the server forces the plain C versions, which the
 * test suite uses to check that both paths give identical results.
 *
 *-------------------------------------------------------------------------
 */
#include "probe/bloom_cache.h"
#include "probe/bloom_lru.h"
#include "datum/bloom_hash.h"
#include "kinds/bloom_parquet.h"
#include "bloom/bloom_scan.h"
#include "bloom/bloom_type.h"
#include "kinds/counting_bloom.h"
#include "joinfilter/joinfilter.h"
#include "kinds/scalable_bloom.h"
#include "skip/skip.h"

#include <limits.h>

#include "executor/executor.h"
#include "miscadmin.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static char *bloom_simd_setting = NULL;

static const struct config_enum_entry bloom_full_filter_options[] = {
	{"off", BLOOM_FULL_OFF, false},
	{"warning", BLOOM_FULL_WARNING, false},
	{"error", BLOOM_FULL_ERROR, false},
	{NULL, 0, false}
};

/*
 * Settings users do not tune: switches that turn a speed-up off so that a
 * test can compare its answers with the plain path (bloomset.fast_hash,
 * bloomset.sliced_reads, and bloom_scan.c's bloomset.batched_probe): the
 * developer options of CONTRIBUTING.md.  They can still be SET and SHOWn
 * by name, but are not listed by SHOW ALL or pg_settings, nor written into
 * postgresql.conf.sample.
 */
#define BLOOM_GUC_HIDDEN (GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE)

/*
 * bloom_statement_id (bloom_type.c's, which the full-filter check reads):
 * bumped here as each top-level statement starts executing
 * (an ExecutorStart hook; statements run from inside another's execution,
 * in functions, keep their caller's), so that bloomset.full_filter warns
 * once per statement -- two statements sent in one query string are two.
 * The nesting depth is counted around ExecutorRun and ExecutorFinish, as
 * pg_stat_statements does.
 */
static int	bloom_exec_depth = 0;
static ExecutorStart_hook_type bloom_prev_start = NULL;
static ExecutorRun_hook_type bloom_prev_run = NULL;
static ExecutorFinish_hook_type bloom_prev_finish = NULL;

/* A new statement id for a top-level statement; runtime filters wired. */
static void
bloom_executor_start(QueryDesc *queryDesc, int eflags)
{
	uint64		probes = jf_probes_begun;

	if (bloom_exec_depth == 0)
		bloom_statement_id++;
	if (bloom_prev_start)
		bloom_prev_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
	/* a statement with runtime join filters: each probe to its build */
	if (jf_probes_begun != probes)
		jf_wire(queryDesc);
}

/* Run one level deeper (statements started meanwhile are nested). */
static void
bloom_executor_run(QueryDesc *queryDesc, ScanDirection direction, uint64 count
#if PG_VERSION_NUM < 180000
				   ,bool execute_once
#endif
)
{
	bloom_exec_depth++;
	PG_TRY();
	{
		if (bloom_prev_run)
			bloom_prev_run(queryDesc, direction, count
#if PG_VERSION_NUM < 180000
						   ,execute_once
#endif
				);
		else
			standard_ExecutorRun(queryDesc, direction, count
#if PG_VERSION_NUM < 180000
								 ,execute_once
#endif
				);
	}
	PG_FINALLY();
	{
		bloom_exec_depth--;
	}
	PG_END_TRY();
}

/* Finish one level deeper (AFTER triggers run statements here). */
static void
bloom_executor_finish(QueryDesc *queryDesc)
{
	bloom_exec_depth++;
	PG_TRY();
	{
		if (bloom_prev_finish)
			bloom_prev_finish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		bloom_exec_depth--;
	}
	PG_END_TRY();
}

/* Let long loops of the core be cancelled (statement_timeout, cancel). */
static void
bloom_check_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

/* Load-time setup: kernels, interrupt hook and GUCs. */
void
_PG_init(void)
{
	const char *portable = getenv("BLOOMSET_PORTABLE");

	bloom_cpu_init(portable != NULL && strcmp(portable, "1") == 0);
	bloom_kind_register(&bloom_plain_ops);
	bloom_kind_register(&counting_bloom_ops);
	bloom_kind_register(&scalable_bloom_ops);
	bloom_parquet_register();
	bloom_interrupt_hook = bloom_check_interrupts;
	bloom_prev_start = ExecutorStart_hook;
	ExecutorStart_hook = bloom_executor_start;
	bloom_prev_run = ExecutorRun_hook;
	ExecutorRun_hook = bloom_executor_run;
	bloom_prev_finish = ExecutorFinish_hook;
	ExecutorFinish_hook = bloom_executor_finish;
	DefineCustomBoolVariable("bloomset.fast_hash",
							 "Hash int2/int4/int8, text and bytea inline instead of calling the type's hash function.",
							 "The results are identical either way; turning this off is for testing that.",
							 &bloom_fast_hash_enabled, true, PGC_USERSET,
							 BLOOM_GUC_HIDDEN,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("bloomset.probe_cache_size",
							"Memory each probing call site may use to keep stored filters detoasted.",
							"Queries that probe many stored filters in turn (a join of keys with per-chunk filters) keep the most recently used ones within this budget instead of detoasting a filter on every row.",
							&bloom_probe_cache_kb, 256 * 1024, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomBoolVariable("bloomset.sliced_reads",
							 "Read only the parts of a stored filter a probe needs.",
							 "A filter stored out of line uncompressed is probed by reading its header and the blocks the keys need; off reads every stored filter whole (bloomset 1.1), for comparison.  Answers never depend on it.",
							 &bloom_sliced_reads, true, PGC_USERSET,
							 BLOOM_GUC_HIDDEN,
							 NULL, NULL, NULL);
	DefineCustomEnumVariable("bloomset.full_filter",
							 "What happens when a filter a call returns is estimated at more than " CppAsString2(BLOOM_FULL_FACTOR) " times the false-positive rate it was sized for: warning (once per statement), error or off.",
							 "Checked by every function and aggregate that returns a bloom, counting_bloom or scalable_bloom filter.",
							 &bloom_full_filter_action, BLOOM_FULL_WARNING,
							 bloom_full_filter_options, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	bloom_scan_init();
	jf_init();
	skip_tools_init();
	DefineCustomStringVariable("bloomset.simd",
							   "The CPU kernels in use (portable, popcnt or avx2).",
							   NULL, &bloom_simd_setting, bloom_cpu_path(),
							   PGC_INTERNAL, 0, NULL, NULL, NULL);
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("bloomset");
#else
	EmitWarningsOnPlaceholders("bloomset");
#endif
}
