# bloomset -- PGXS build.  `make && make install`, then `make installcheck`
# against a running server; scripts/test.sh runs every suite on a throwaway
# cluster.

EXTENSION = bloomset
MODULE_big = bloomset
# the PostgreSQL-free core (src/core/), the filter index (src/findex/), the
# runtime join filters (src/joinfilter/), the bloomskip index access method
# (src/skip/)
CORE_OBJS = src/core/bloom_core.o src/core/bloom_sizing.o src/core/bloom_header.o src/core/bloom_positions.o \
	src/core/bloom_counting.o src/core/bloom_algebra.o src/core/bloom_kernels.o src/core/bloom_estimate.o \
	src/core/bloom_codec.o src/core/bloom_slices.o src/core/scalable_format.o src/core/parquet_format.o
FINDEX_OBJS = src/findex/findex.o src/findex/findex_match.o src/findex/findex_table.o src/findex/findex_write.o src/findex/findex_update.o \
	src/findex/findex_lookup.o src/findex/findex_compat_1_2.o
JF_OBJS = src/joinfilter/jf_plan.o src/joinfilter/jf_exec.o src/joinfilter/jf_filter.o src/joinfilter/jf_prune.o
SKIP_OBJS = src/skip/skip_handler.o src/skip/skip_sizing.o src/skip/skip_page.o src/skip/skip_meta.o \
	src/skip/skip_bounds.o src/skip/skip_extend.o src/skip/skip_positions.o src/skip/skip_stats.o src/skip/skip_keys.o src/skip/skip_build.o src/skip/skip_insert.o \
	src/skip/skip_stage.o src/skip/skip_rows.o src/skip/skip_recent.o src/skip/skip_scan.o src/skip/skip_query.o src/skip/skip_ngram.o src/skip/skip_regex.o src/skip/skip_tsvector.o \
	src/skip/skip_array.o src/skip/skip_array_cost.o src/skip/skip_jsonb.o src/skip/skip_vacuum.o src/skip/skip_cost.o src/skip/skip_tools.o
# the PostgreSQL layer, bottom up: values to hashes and filter datums
# (src/datum/), how probes read filters (src/probe/), the bloom type
# (src/bloom/), the aggregate engine (src/agg/), the other kinds of filter
# (src/kinds/), then the module's entry point
DATUM_OBJS = src/datum/bloom_kind.o src/datum/bloom_family.o src/datum/bloom_hash.o src/datum/bloom_version.o \
	src/datum/bloom_convert.o src/datum/bloom_element.o src/datum/bloom_datum.o
PROBE_OBJS = src/probe/bloom_lru.o src/probe/bloom_sliced.o src/probe/bloom_cache.o src/probe/bloom_planner.o \
	src/probe/bloom_batch.o
TYPE_OBJS = src/bloom/bloom_type.o src/bloom/bloom_setops.o src/bloom/bloom_info.o \
	src/bloom/bloom_pair.o src/bloom/bloom_scan.o
AGG_OBJS = src/agg/bloom_agg_args.o src/agg/bloom_hashset.o src/agg/bloom_agg.o src/agg/bloom_agg_partial.o \
	src/agg/bloom_setop_agg.o src/agg/bloom_agg_state.o
KIND_OBJS = src/kinds/counting_bloom.o src/kinds/counting_agg.o src/kinds/scalable_stages.o src/kinds/scalable_bloom.o \
	src/kinds/scalable_agg.o src/kinds/bloom_parquet.o src/kinds/bloom_text.o
OBJS = $(CORE_OBJS) $(DATUM_OBJS) $(PROBE_OBJS) $(TYPE_OBJS) $(AGG_OBJS) $(KIND_OBJS) $(JF_OBJS) $(FINDEX_OBJS) \
	$(SKIP_OBJS) src/bloom_module.o
# The SQL scripts (extension/).  The current version's install script is
# built from one source ordered by feature, extension/bloomset.sql, as
# pgvector builds vector--X.sql from sql/vector.sql; older versions install
# through the released 1.0 script and the chain of update scripts (which
# PostgreSQL follows by itself for CREATE EXTENSION ... VERSION '1.2').
EXTVERSION = $(shell sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" $(EXTENSION).control)
DATA = extension/bloomset--1.0.sql $(wildcard extension/bloomset--*--*.sql)
DATA_built = bloomset--$(EXTVERSION).sql

REGRESS = type_io add_contains probe_scan probe_cache sliced_reads equality planner typed_keys readme_examples hashing hashing_scheme4 aggregates agg_state agg_split agg_auto_phases union estimates estimates_sizes errors \
	parquet full_filters parallel copy_binary batch_estimates text_filters counting scalable mutation security \
	agg_rates verbs rate_check bloom_index batched_probe bloomskip bloomskip_ngram bloomskip_classes bloomskip_text bloomskip_tsvector bloomskip_arrays bloomskip_jsonb bloomskip_truncate bloomskip_recent bloomskip_planner bloomskip_check kind_operators runtime_filter
REGRESS_OPTS = --load-extension=bloomset

# Concurrency (pg_isolation_regress) and multi-cluster (TAP, with
# PostgreSQL::Test::Cluster) tests, run by PGXS's `make installcheck` as
# pgvector does: PostgreSQL's harness picks ports and starts and stops the
# clusters.  test/t/007 and 008 need two PostgreSQL versions at once and are
# run by scripts/test.sh (cross_suite) instead.
ISOLATION = concurrent_add index_append bloomskip_concurrent bloomskip_open bloomskip_not_valid \
	bloomskip_text_concurrent bloomskip_cic_window
ISOLATION_OPTS = --inputdir=test/isolation --load-extension=bloomset
TAP_TESTS = 1
PROVE_TESTS = $(filter-out test/t/007_% test/t/008_%,$(wildcard test/t/0*.pl))

# -O3 for the hot loops; the CPU-specific kernels are chosen at run time,
# so no -march flag is needed (or wanted: the library must run anywhere).
PG_CFLAGS += -O3

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks no header dependencies: every object depends on every header
$(OBJS): $(wildcard src/*.h src/*/*.h)

# the install script of the current version, from its source; warns about
# every CREATE of the update script to this version that the source lacks
# (a new object belongs in both: the update for installed databases, the
# source for fresh installs; test/upgrade compares what both create)
bloomset--$(EXTVERSION).sql: extension/bloomset.sql $(wildcard extension/bloomset--*--$(EXTVERSION).sql)
	@for u in $(filter-out $<,$^); do \
		grep -E '^CREATE ' "$$u" | sed 's/^CREATE OR REPLACE /CREATE /' | while IFS= read -r line; do \
			grep -qxF "$$line" $< || echo "WARNING: $$u creates what $< does not: $$line -- add it to the section of its feature in $<" >&2; \
		done; \
	done
	cp $< $@
