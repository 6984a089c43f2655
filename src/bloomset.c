/*-------------------------------------------------------------------------
 *
 * bloomset.c
 *	  Module entry point: settings and the choice of CPU-specific kernels.
 *
 * The word kernels (popcount, OR, AND over the bit array) are chosen at
 * load time from what the CPU supports; setting the environment variable
 * BLOOMSET_PORTABLE=1 for the server forces the plain C versions, which the
 * test suite uses to check that both paths give identical results.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom.h"

#include <limits.h>

#include "miscadmin.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static char *bloom_simd_setting = NULL;

int			bloom_full_filter_action = BLOOM_FULL_WARNING;

static const struct config_enum_entry bloom_full_filter_options[] = {
	{"off", BLOOM_FULL_OFF, false},
	{"warning", BLOOM_FULL_WARNING, false},
	{"error", BLOOM_FULL_ERROR, false},
	{NULL, 0, false}
};

/*
 * bloomset.lookahead (1.0): probes used to read the next tuples of the
 * scanned page from shared buffers; that was unsound and is gone.  The
 * setting is kept, without effect, so that configurations naming it still
 * load.
 */
static bool bloom_lookahead_unused = false;

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
	bloom_interrupt_hook = bloom_check_interrupts;
	DefineCustomBoolVariable("bloomset.fast_hash",
							 "Hash int2/int4/int8, text and bytea inline instead of calling the type's hash function.",
							 "The results are identical either way; turning this off is for testing that.",
							 &bloom_fast_hash_enabled, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("bloomset.lookahead",
							 "No effect since bloomset 1.1 (kept so that configurations naming it still load).",
							 NULL,
							 &bloom_lookahead_unused, false, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("bloomset.probe_cache_size",
							"Memory each probing call site may use to keep stored filters detoasted.",
							"Queries that probe many stored filters in turn (a join of keys with per-chunk filters) keep the most recently used ones within this budget instead of detoasting a filter on every row.",
							&bloom_probe_cache_kb, 256 * 1024, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB, NULL, NULL, NULL);
	DefineCustomBoolVariable("bloomset.sliced_reads",
							 "Read only the parts of a stored filter a probe needs.",
							 "A filter stored out of line uncompressed is probed by reading its header and the blocks the keys need; off reads every stored filter whole (bloomset 1.1), for comparison.  Answers never depend on it.",
							 &bloom_sliced_reads, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomEnumVariable("bloomset.full_filter",
							 "What happens when a filter a call returns is estimated at more than twice the false-positive rate it was sized for: warning (once per statement), error or off.",
							 "Checked by the bloom aggregates' final functions, bloom_add, bloom_add_all, bloom_union and bloom_union_agg.",
							 &bloom_full_filter_action, BLOOM_FULL_WARNING,
							 bloom_full_filter_options, PGC_USERSET, 0,
							 NULL, NULL, NULL);
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
