# bloomset on Citus: a coordinator and two workers (PostgreSQL's TAP
# cluster module, Citus preloaded on every node), a table distributed over
# four shards and a local copy of it on the coordinator.  Checks that
#   - every bloomset aggregate is split (the per-type bloom_agg,
#     counting_bloom_agg, scalable_bloom_agg and bloom_parquet_agg, the
#     n-gram and token aggregates, the union and intersection aggregates of
#     every kind): EXPLAIN VERBOSE shows the aggregate inside the workers'
#     queries (worker_partial_agg), not a plain column list;
#   - every aggregate over the distributed table -- ungrouped, grouped by a
#     column that is not the distribution column, with FILTER, inside a
#     subquery and a CTE, split or gathered -- equals the same aggregate over
#     the local copy, byte for byte;
#   - a filter from a reference table, and a scalar subquery's filter, probe
#     the shards with the same answers as on the local copy;
#   - bloomskip indexes are built on every shard, used there, and answer
#     lookups as a sequential scan does.
# Run by scripts/test.sh as the citus-<major> suite (Citus built by
# scripts/citusbuild.sh), not by the other suites: it needs Citus installed.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @nodes;
for my $name (qw(coordinator worker1 worker2))
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	# citus.local_hostname: how a node reaches itself (shard moves), here
	# its Unix socket directory
	$node->append_conf('postgresql.conf', sprintf(q{
shared_preload_libraries = 'citus, bloomset'
citus.node_conninfo = 'sslmode=disable'
citus.local_hostname = '%s'
max_worker_processes = 16
max_connections = 60
bloomset.full_filter = off
}, $node->host));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
	push @nodes, $node;
}
my ($coord, @workers) = @nodes;

$coord->safe_psql('postgres', sprintf(
	q{SELECT citus_set_coordinator_host('%s', %d)}, $coord->host, $coord->port));
for my $w (@workers)
{
	$coord->safe_psql('postgres', sprintf(
		q{SELECT citus_add_node('%s', %d)}, $w->host, $w->port));
}
is($coord->safe_psql('postgres', q{SELECT count(*) FROM citus_get_active_worker_nodes()}),
	'2', 'two workers are active');

# CREATE EXTENSION on the coordinator reaches the workers
$coord->safe_psql('postgres', 'CREATE EXTENSION bloomset');
is($workers[0]->safe_psql('postgres',
		q{SELECT extversion FROM pg_extension WHERE extname = 'bloomset'}),
	$coord->safe_psql('postgres',
		q{SELECT extversion FROM pg_extension WHERE extname = 'bloomset'}),
	'bloomset is created on the workers');

$coord->safe_psql('postgres', q{
	SET citus.shard_count = 4;
	CREATE TABLE events (id bigint NOT NULL, k bigint, t text, u uuid, grp integer,
	                     s smallint, c char(12));
	SELECT create_distributed_table('events', 'id');
	INSERT INTO events
	SELECT g, g * 7919 % 1000003, md5(g::text), md5(g::text)::uuid, g % 7,
	       (g % 30000)::smallint, left(md5(g::text), 10)
	  FROM generate_series(1, 60000) g;
	INSERT INTO events (id) VALUES (0);
	CREATE TABLE events_local AS SELECT * FROM events;
	ANALYZE events;
	ANALYZE events_local;
});
is($coord->safe_psql('postgres',
		q{SELECT count(*) FROM citus_shards WHERE table_name = 'events'::regclass}),
	'4', 'events has four shards');
is($coord->safe_psql('postgres',
		q{SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'events'::regclass}),
	'2', 'the shards are on both workers');

# The plan: the aggregate runs on the shards.
my $plan = $coord->safe_psql('postgres', 'EXPLAIN VERBOSE SELECT bloom_agg(k) FROM events');
note("EXPLAIN VERBOSE SELECT bloom_agg(k) FROM events:\n$plan");
like($plan, qr/worker_(binary_)?partial_agg\('public\.bloom_agg\(bigint\)'::regprocedure, k\)/,
	'the workers run bloom_agg(bigint) as a partial aggregate');
unlike($plan, qr/SELECT k AS bloom_agg FROM/, 'the rows are not gathered');
like($plan, qr/coord_(binary_)?combine_agg/, 'the coordinator combines the partial states');

# Filters of every kind in a distributed table, for the set-operation
# aggregates (and a local copy).
$coord->safe_psql('postgres', q{
	CREATE TABLE filters (id bigint NOT NULL, grp integer, f bloom, cf counting_bloom,
	                      sf scalable_bloom);
	SELECT create_distributed_table('filters', 'id');
	INSERT INTO filters
	SELECT id % 40, grp, bloom_agg(k, 100000, 0.01), counting_bloom_agg(k, 100000, 0.01),
	       scalable_bloom_union_agg(bloom_add(scalable_bloom_empty(1000, 0.01), k))
	  FROM events_local WHERE k IS NOT NULL GROUP BY id % 40, grp;
	INSERT INTO filters (id, grp) VALUES (41, 1);
	CREATE TABLE filters_local AS SELECT * FROM filters;
});
is($coord->safe_psql('postgres',
		q{SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'filters'::regclass}),
	'2', 'the filters are on both workers');

# Every aggregate of the extension whose arguments are not polymorphic has
# a state type Citus splits (not internal).
is($coord->safe_psql('postgres', q{
	SELECT count(*) FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
	  JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
	 WHERE a.aggtranstype = 'internal'::regtype
	   AND NOT EXISTS (SELECT FROM unnest(p.proargtypes) t
	                    WHERE t IN ('anyelement'::regtype, 'anycompatible'::regtype))}),
	'0', 'no aggregate of a fixed key type keeps an internal state');

my @split = ('bloom_agg(k, 100000, 0.01)', 'bloom_agg(t)', 'bloom_agg(u, 4096, 5, 42)',
	'bloom_agg(s)', 'bloom_agg(c, 100000, 0.01)', 'counting_bloom_agg(k)',
	'counting_bloom_agg(t, 100000, 0.01)', 'scalable_bloom_agg(k)',
	'scalable_bloom_agg(t, 1000, 0.01)', 'bloom_parquet_agg(k, 100000, 0.01)',
	'bloom_parquet_agg(u, 100000, 0.01)', 'bloom_ngram_agg(t)', 'bloom_ngram_agg(t, 4)',
	'bloom_token_agg(t)');
my @split_filters = ('bloom_union_agg(f)', 'bloom_intersect_agg(f)',
	'counting_bloom_union_agg(cf)', 'bloom_union_agg(cf)', 'scalable_bloom_union_agg(sf)',
	'bloom_union_agg(sf)');
my $notsplit = 0;
for my $agg (@split, @split_filters)
{
	my $table = (grep { $_ eq $agg } @split_filters) ? 'filters' : 'events';
	my $p = $coord->safe_psql('postgres', "EXPLAIN VERBOSE SELECT $agg FROM $table");
	(my $name = $agg) =~ s/\(.*//;
	next if $p =~ /partial_agg\('public\.\Q$name\E\(/;
	$notsplit++;
	diag("not split: $agg\n$p");
}
is($notsplit, 0, scalar(@split) + scalar(@split_filters)
	  . ' aggregates run on the shards (worker_partial_agg in the workers\' queries)');
my $uplan = $coord->safe_psql('postgres', 'EXPLAIN VERBOSE SELECT bloom_union_agg(f) FROM filters');
note("EXPLAIN VERBOSE SELECT bloom_union_agg(f) FROM filters:\n$uplan");
like($coord->safe_psql('postgres',
		'EXPLAIN VERBOSE SELECT grp, bloom_agg(k, 100000, 0.01) FROM events GROUP BY grp'),
	qr/partial_agg\(/, 'grouped by a non-distribution column: split');

# Every aggregate over the distributed table equals the local one.  Each
# query is run over events and over events_local; the text forms compared.
my @queries = (
	'SELECT bloom_agg(k) FROM %s',
	'SELECT bloom_agg(k, 100000, 0.01) FROM %s',
	'SELECT bloom_agg(k, 8192, 4, 77) FROM %s',
	'SELECT bloom_agg(t) FROM %s',
	'SELECT bloom_agg(t, 100000, 0.01) FROM %s',
	'SELECT bloom_agg(u) FROM %s',
	'SELECT bloom_agg(s) FROM %s',
	'SELECT bloom_agg(c, 100000, 0.01) FROM %s',
	'SELECT bloom_agg(k) FROM %s WHERE id < 0',
	'SELECT bloom_agg(k) FILTER (WHERE k % 3 = 0) FROM %s',
	'SELECT grp, bloom_agg(k, 100000, 0.01) FROM %s GROUP BY grp ORDER BY grp',
	'SELECT grp, bloom_agg(t) FROM %s GROUP BY grp ORDER BY grp',
	'SELECT id % 3, bloom_agg(k) FROM %s GROUP BY 1 ORDER BY 1',
	'SELECT f FROM (SELECT bloom_agg(k, 100000, 0.01) AS f FROM %s WHERE grp < 5) s',
	'WITH c AS (SELECT grp, bloom_agg(t) AS f FROM %s GROUP BY grp) SELECT bloom_union_agg(f) FROM c',
	'SELECT bloom_agg(k::numeric) FROM %s',
	'SELECT counting_bloom_agg(k, 100000, 0.01) FROM %s',
	'SELECT counting_bloom_agg(k) FROM %s',
	'SELECT bloom_ngram_agg(t) FROM %s WHERE id < 2000',
	'SELECT bloom_token_agg(t) FROM %s WHERE id < 2000',
	'SELECT bloom_parquet_agg(k, 100000, 0.01) FROM %s',
	'SELECT bloom_union_agg(f) FROM (SELECT grp, bloom_agg(k, 100000, 0.01) AS f FROM %s GROUP BY grp) s',
	'SELECT bloom_ngram_agg(t, 4) FROM %s WHERE id < 2000',
	'SELECT grp, bloom_token_agg(t) FILTER (WHERE id % 2 = 0) FROM %s WHERE id < 3000 GROUP BY grp ORDER BY grp',
	'SELECT bloom_parquet_agg(t, 100000, 0.01) FROM %s',
	'SELECT bloom_to_parquet(bloom_parquet_agg(u, 100000, 0.01)) FROM %s',
	'SELECT grp, bloom_parquet_agg(s, 100000, 0.01) FROM %s GROUP BY grp ORDER BY grp',
	'SELECT counting_bloom_agg(t, 100000, 0.01) FILTER (WHERE grp > 2) FROM %s',
);
# the set-operation aggregates over the distributed filters
my @fqueries = (
	'SELECT bloom_union_agg(f) FROM %s',
	'SELECT bloom_intersect_agg(f) FROM %s',
	'SELECT bloom_intersect_agg(f) FROM %s WHERE id < 0',
	'SELECT counting_bloom_union_agg(cf) FROM %s',
	'SELECT bloom_union_agg(cf) FROM %s',
	'SELECT scalable_bloom_union_agg(sf) FROM %s',
	'SELECT bloom_union_agg(sf) FROM %s',
	'SELECT grp, bloom_union_agg(f), bloom_union_agg(cf) FROM %s GROUP BY grp ORDER BY grp',
	'SELECT bloom_union_agg(f) FILTER (WHERE grp < 3) FROM %s',
	'WITH u AS (SELECT grp, bloom_union_agg(sf) AS f FROM %s GROUP BY grp) SELECT bloom_union_agg(f) FROM u',
);
my $differ = 0;
for my $q (@queries)
{
	my $dist = $coord->safe_psql('postgres', sprintf($q, 'events'));
	my $local = $coord->safe_psql('postgres', sprintf($q, 'events_local'));
	if ($dist ne $local || $dist eq '')
	{
		$differ++;
		diag("differs: $q (" . length($dist) . ' and ' . length($local) . ' characters)');
	}
}
for my $q (@fqueries)
{
	my $dist = $coord->safe_psql('postgres', sprintf($q, 'filters'));
	my $local = $coord->safe_psql('postgres', sprintf($q, 'filters_local'));
	if ($dist ne $local || ($dist eq '' && $q !~ /id < 0/))
	{
		$differ++;
		diag("differs: $q (" . length($dist) . ' and ' . length($local) . ' characters)');
	}
}
is($differ, 0, scalar(@queries) + scalar(@fqueries)
	  . ' aggregate queries: distributed equals local');

# A scalable filter depends on the order of insertion: the shards send the
# exact sets of their hashes, the coordinator builds the filter from their
# union, which keeps the members and the rate (not the bytes).
is($coord->safe_psql('postgres', q{
	SELECT count(*) FROM events_local e, (SELECT scalable_bloom_agg(k) AS f FROM events) s
	 WHERE e.k IS NOT NULL AND NOT s.f @> e.k}),
	'0', 'scalable_bloom_agg over the distributed table: no false negatives');
my $subs = q{SELECT count(*), bool_and(estimated_fpr <= target_fpr)
  FROM scalable_bloom_info((SELECT scalable_bloom_agg(k) FROM %s))};
is($coord->safe_psql('postgres', sprintf($subs, 'events')),
	$coord->safe_psql('postgres', sprintf($subs, 'events_local')),
	'scalable_bloom_agg over the distributed table: the same sub-filters, each within its rate');

# Probes: a filter from a reference table, a scalar subquery's filter, the
# join pre-filter.
$coord->safe_psql('postgres', q{
	CREATE TABLE hot (f bloom);
	SELECT create_reference_table('hot');
	INSERT INTO hot SELECT bloom_agg(k, 10000, 0.01) FROM events_local WHERE id % 97 = 0;
	CREATE TABLE wanted (k bigint);
	SELECT create_reference_table('wanted');
	INSERT INTO wanted SELECT k FROM events_local WHERE id % 101 = 0;
});
my @probes = (
	'SELECT count(*) FROM %s e, hot WHERE hot.f @> e.k',
	'SELECT count(*) FROM %s e WHERE (SELECT f FROM hot) @> e.k',
	'SELECT count(*) FROM %s e WHERE (SELECT bloom_agg(k, 1000, 0.01) FROM wanted) @> e.k',
	'SELECT count(*) FROM %s e JOIN wanted w ON w.k = e.k WHERE (SELECT bloom_agg(k, 1000, 0.01) FROM wanted) @> e.k',
);
my $pdiffer = 0;
for my $q (@probes)
{
	my $dist = $coord->safe_psql('postgres', sprintf($q, 'events'));
	my $local = $coord->safe_psql('postgres', sprintf($q, 'events_local'));
	$pdiffer++, diag("differs: $q ($dist and $local)") if $dist ne $local;
}
is($pdiffer, 0, scalar(@probes) . ' probe queries: distributed equals local');
is($coord->safe_psql('postgres',
		q{SELECT count(*) FROM events_local e WHERE e.k IN (SELECT k FROM wanted)
		     AND NOT (SELECT f FROM hot) @> e.k AND e.id % 97 = 0}),
	'0', 'the reference filter has no false negatives');

# bloomskip on the distributed table: built per shard, used, exact.
$coord->safe_psql('postgres', q{
	CREATE INDEX events_k_skip ON events USING bloomskip (k) WITH (pages_per_range = 4);
	CREATE INDEX events_t_ngram ON events USING bloomskip (t text_ngram_bloomskip_ops);
});
my $shard_indexes = 0;
for my $w (@workers)
{
	# Citus hides shards from other applications' catalog queries
	$shard_indexes += $w->safe_psql('postgres', q{
		SET citus.show_shards_for_app_name_prefixes = '*';
		SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		  JOIN pg_am a ON a.oid = c.relam
		 WHERE a.amname = 'bloomskip' AND c.relname ~ '^events_k_skip_[0-9]+$'});
}
is($shard_indexes, 4, 'the bloomskip index exists on every shard');
my $skipdiffer = 0;
for my $q ('SELECT count(*) FROM %s WHERE k = 7919',
	'SELECT count(*) FROM %s WHERE k = ANY (ARRAY[7919, 15838, 5, 999999])',
	'SELECT count(*) FROM %s WHERE k IN (SELECT k FROM wanted)',
	q{SELECT count(*) FROM %s WHERE t LIKE '%%abc1%%'})
{
	my $dist = $coord->safe_psql('postgres',
		"SET citus.propagate_set_commands = 'local'; BEGIN; SET LOCAL enable_seqscan = off; "
		  . sprintf($q, 'events') . '; COMMIT;');
	my $local = $coord->safe_psql('postgres', sprintf($q, 'events_local'));
	$skipdiffer++, diag("differs: $q ($dist and $local)") if $dist ne $local;
}
is($skipdiffer, 0, 'bloomskip lookups on the shards answer as the local sequential scan');
my $shardplan = $coord->safe_psql('postgres', q{
	SET citus.explain_all_tasks = on;
	SET enable_seqscan = off;
	EXPLAIN SELECT count(*) FROM events WHERE k = 7919});
note("bloomskip on the shards:\n$shardplan");
like($shardplan, qr/events_k_skip/, 'the shards use the bloomskip index');
# bloomskip_check and bloomskip_info ask an index of one shard; over a
# distributed index, the coordinator asks every shard (the reference's
# one-line query)
is($coord->safe_psql('postgres', q{
	SELECT sum(result::bigint) FROM run_command_on_shards('events', $$
	  SELECT sum(bloomskip_check(i.indexrelid::regclass)) FROM pg_index i
	    JOIN pg_class c ON c.oid = i.indexrelid
	   WHERE i.indrelid = '%s'::regclass AND starts_with(c.relname, 'events_k_skip')$$)}),
	'0', 'bloomskip_check over every shard: 0 missing keys');
is($coord->safe_psql('postgres', q{
	SELECT bool_and(result::bigint > 0) FROM run_command_on_shards('events', $$
	  SELECT (bloomskip_info(i.indexrelid::regclass)).summarized_ranges FROM pg_index i
	    JOIN pg_class c ON c.oid = i.indexrelid
	   WHERE i.indrelid = '%s'::regclass AND starts_with(c.relname, 'events_k_skip')$$)}),
	't', 'bloomskip_info over every shard: summarized ranges on each');

# REINDEX (plain and concurrent) reaches every shard's index; a shard moved
# to the other worker keeps its index, which still answers exactly.
$coord->safe_psql('postgres', 'REINDEX INDEX events_k_skip');
$coord->safe_psql('postgres', 'REINDEX INDEX CONCURRENTLY events_k_skip');
my ($shardid, $fromport) = split /\|/, $coord->safe_psql('postgres', q{
	SELECT shardid, nodeport FROM citus_shards WHERE table_name = 'events'::regclass
	 ORDER BY shardid LIMIT 1});
my ($from) = grep { $_->port == $fromport } @workers;
my ($to) = grep { $_->port != $fromport } @workers;
$coord->safe_psql('postgres', sprintf(
	q{SELECT citus_move_shard_placement(%d, '%s', %d, '%s', %d, shard_transfer_mode => 'block_writes')},
	$shardid, $from->host, $from->port, $to->host, $to->port));
is($coord->safe_psql('postgres',
		"SELECT nodeport FROM citus_shards WHERE shardid = $shardid"),
	$to->port, 'a shard moved to the other worker');
my $moved = 0;
for my $q ('SELECT count(*) FROM %s WHERE k = 7919',
	'SELECT count(*) FROM %s WHERE k = ANY (ARRAY[7919, 15838, 5, 999999])',
	'SELECT count(*) FROM %s WHERE k IN (SELECT k FROM wanted)')
{
	my $dist = $coord->safe_psql('postgres',
		"SET citus.propagate_set_commands = 'local'; BEGIN; SET LOCAL enable_seqscan = off; "
		  . sprintf($q, 'events') . '; COMMIT;');
	my $local = $coord->safe_psql('postgres', sprintf($q, 'events_local'));
	$moved++, diag("differs after REINDEX and the move: $q ($dist and $local)") if $dist ne $local;
}
is($moved, 0, 'after REINDEX, REINDEX CONCURRENTLY and a shard move: lookups exact');
is($coord->safe_psql('postgres', q{
	SELECT sum(result::bigint) FROM run_command_on_shards('events', $$
	  SELECT sum(bloomskip_check(i.indexrelid::regclass)) FROM pg_index i
	    JOIN pg_class c ON c.oid = i.indexrelid
	   WHERE i.indrelid = '%s'::regclass AND starts_with(c.relname, 'events_k_skip')$$)}),
	'0', 'bloomskip_check over every shard after the move: 0 missing keys');

# The README's guide "Across machines: Citus", verbatim, in a schema of its
# own: an empty table first, then rows, then the per-shard recipes.
$coord->safe_psql('postgres', 'CREATE SCHEMA readme');
my $path = "SET search_path = readme, public;\n";
$coord->safe_psql('postgres', $path . q{
CREATE TABLE events (id bigint NOT NULL, k bigint, day date);
SELECT create_distributed_table('events', 'id');
-- one filter of every key: each shard builds its partial filter, the
-- coordinator merges them (filters move, not rows)
SELECT bloom_agg(k, 2000000, 0.01) FROM events;
-- one filter per tenant, chunk or day: grouped by any column
SELECT day, bloom_agg(k) FROM events GROUP BY day;
-- a skip index on every shard, used there for = and = ANY
CREATE INDEX ON events USING bloomskip (k);
});
$coord->safe_psql('postgres', $path . q{
	INSERT INTO events SELECT g, g * 31, date '2026-01-01' + g % 10
	  FROM generate_series(1, 20000) g;
	CREATE TABLE events_here AS SELECT * FROM events;
});
is($coord->safe_psql('postgres', $path . q{
	SELECT (SELECT bloom_agg(k, 2000000, 0.01) FROM events)::text
	     = (SELECT bloom_agg(k, 2000000, 0.01) FROM events_here)::text}),
	't', 'README: the distributed aggregate equals the local one');
is($coord->safe_psql('postgres', $path . q{
SELECT bloom_union_agg(result::bloom) FROM run_command_on_shards('events',
  $$SELECT bloom_agg(k::numeric, 2000000, 0.01) FROM %s$$);
}),
	$coord->safe_psql('postgres', $path . q{SELECT bloom_agg(k::numeric, 2000000, 0.01) FROM events_here}),
	'README: the per-shard union by hand equals the local aggregate');
my @checks = split /\n/, $coord->safe_psql('postgres', $path . q{
SELECT shardid, result FROM run_command_on_shards('events', $$
  SELECT bloomskip_check(i.indexrelid::regclass) FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
   WHERE i.indrelid = '%s'::regclass AND starts_with(c.relname, 'events_k_idx')$$);
});
my $nshards = $coord->safe_psql('postgres',
	q{SELECT count(*) FROM citus_shards WHERE table_name = 'readme.events'::regclass});
is(scalar(grep { /\|0$/ } @checks) . ' of ' . scalar(@checks), "$nshards of $nshards",
	'README: bloomskip_check on every shard answers 0');

# Runtime join filters on the workers: a distributed fact table joined with
# a reference dimension runs as a hash join on each shard, where the filter
# drops the facts the dimension cannot match.  Answers against the local
# copies, with the workers' filters forced and off.
$coord->safe_psql('postgres', q{
	CREATE TABLE dims (k bigint PRIMARY KEY, name text);
	SELECT create_reference_table('dims');
	INSERT INTO dims SELECT g * 7919 % 1000003, 'd' || g FROM generate_series(1, 60000, 50) g;
	CREATE TABLE dims_local AS SELECT * FROM dims;
	ANALYZE dims;
	ANALYZE dims_local;
});
sub workers_set
{
	my ($settings) = @_;
	for my $w (@workers)
	{
		$w->safe_psql('postgres', "ALTER SYSTEM SET $_") for @$settings;
		$w->safe_psql('postgres', 'SELECT pg_reload_conf()');
	}
}
workers_set(['enable_nestloop = off', 'enable_mergejoin = off']);
my $rfsel = q{SELECT e.id, e.k, d.name FROM %s e JOIN %s d ON e.k = d.k WHERE d.name LIKE 'd1%%'};
my $rfexpected = $coord->safe_psql('postgres',
	sprintf(q{SELECT count(*), sum(id), md5(string_agg(name, ',' ORDER BY id)) FROM (%s) q},
		sprintf($rfsel, 'events_local', 'dims_local')));
my %received;
for my $mode (qw(force off))
{
	workers_set(["bloomset.runtime_filter = '$mode'"]);
	is($coord->safe_psql('postgres',
			sprintf(q{SELECT count(*), sum(id), md5(string_agg(name, ',' ORDER BY id)) FROM (%s) q},
				sprintf($rfsel, 'events', 'dims'))),
		$rfexpected, "a selective join over the shards, runtime filters $mode: answers as the local tables");
	my $analyze = $coord->safe_psql('postgres', q{SET citus.explain_all_tasks = on;
		EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) } . sprintf($rfsel, 'events', 'dims'));
	note("runtime filters $mode on the workers:\n$analyze");
	my $removed = 0;
	$removed += $1 while $analyze =~ /Rows Removed by Runtime Filter: (\d+)/g;
	my ($bytes) = $analyze =~ /Tuple data received from nodes: (\d+) bytes/;
	$received{$mode} = $bytes // -1;
	if ($mode eq 'force')
	{
		like($analyze, qr/Runtime Filter Probe/, 'the shards\' plans test a runtime filter');
		# (the shards' bloomskip index on k: a build of few keys reads it)
		my $through_index = () = $analyze =~ /Scans Through bloomskip Index: [1-9]/g;
		ok($removed > 0 || $through_index > 0,
			"the shards' filters removed $removed rows; $through_index shards read through their bloomskip index");
	}
	else
	{
		unlike($analyze, qr/Runtime Filter Probe/, 'off on the workers: no runtime filter');
	}
}
# the join runs on the workers either way: what reaches the coordinator is
# its result, the same with and without the filters
note("bytes the coordinator received: filters forced $received{force}, off $received{off}");
is($received{force}, $received{off}, 'the coordinator receives the join\'s result either way');
workers_set(['bloomset.runtime_filter = on']);
for my $w (@workers)
{
	$w->safe_psql('postgres', 'ALTER SYSTEM RESET ALL');
	$w->safe_psql('postgres', 'SELECT pg_reload_conf()');
}

$_->stop for @nodes;
done_testing();
