# bench/citus.pl -- bloom_agg on a Citus cluster: a coordinator and two
# workers on this machine, a table of BENCH_CITUS_ROWS rows (default
# 2,000,000) in four shards, and a local copy on the coordinator.  Times,
# interleaved and repeated (BENCH_CITUS_REPEAT, default 5; the median and
# the best printed):
#   split   -- SELECT bloom_agg(k, n, 0.01) FROM events (partial aggregates
#              on the shards, combined on the coordinator)
#   by-hand -- the per-shard union written by hand through
#              run_command_on_shards
#   gather  -- the same aggregate with an internal state, which Citus cannot
#              split (what bloomset 1.3 did): the rows travel
#   local   -- the local copy
# and the bytes the coordinator received (EXPLAIN ANALYZE's "Tuple data
# received from nodes").  Then, for the other aggregates that split
# (scalable_bloom_agg, bloom_parquet_agg, bloom_ngram_agg, bloom_union_agg),
# the same split / gathered (their 1.3 internal-state definitions) / local
# times and bytes, BENCH_CITUS_MORE_REPEAT runs each (default 3; 0: skip).  Needs Citus installed into the server on PATH
# (scripts/citusbuild.sh); run as the postgres OS user:
#   PATH=<bindir>:$PATH perl -I <pgxs>/src/test/perl bench/citus.pl
# Timings on a shared machine are noisy: read them side by side.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use List::Util qw(min);
use Time::HiRes qw(time);

my $rows = $ENV{BENCH_CITUS_ROWS} // 2_000_000;
my $repeat = $ENV{BENCH_CITUS_REPEAT} // 5;
my $more_repeat = $ENV{BENCH_CITUS_MORE_REPEAT} // 3;

my @nodes;
for my $name (qw(coordinator worker1 worker2))
{
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'citus'
citus.node_conninfo = 'sslmode=disable'
max_worker_processes = 16
bloomset.full_filter = off
max_parallel_workers_per_gather = 0
shared_buffers = 256MB
});
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
	push @nodes, $node;
}
my ($coord, @workers) = @nodes;
$coord->safe_psql('postgres', sprintf(q{SELECT citus_set_coordinator_host('%s', %d)},
		$coord->host, $coord->port));
$coord->safe_psql('postgres', sprintf(q{SELECT citus_add_node('%s', %d)}, $_->host, $_->port))
  for @workers;
$coord->safe_psql('postgres', qq{
	CREATE EXTENSION bloomset;
	CREATE AGGREGATE agg_internal(anyelement, bigint, float8) (
		SFUNC = bloom_agg_trans_sized, STYPE = internal, FINALFUNC = bloom_agg_final,
		COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
		DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
	CREATE AGGREGATE scalable_internal(anyelement) (
		SFUNC = scalable_bloom_agg_trans, STYPE = internal, FINALFUNC = scalable_bloom_agg_final,
		COMBINEFUNC = scalable_bloom_agg_combine, SERIALFUNC = scalable_bloom_agg_serial,
		DESERIALFUNC = scalable_bloom_agg_deserial, PARALLEL = SAFE);
	CREATE AGGREGATE parquet_internal(anyelement, bigint, float8) (
		SFUNC = bloom_parquet_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
		COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
		DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
	CREATE AGGREGATE ngram_internal(text) (
		SFUNC = bloom_ngram_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
		COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
		DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
	CREATE AGGREGATE union_internal(bloom) (
		SFUNC = bloom_union_trans, STYPE = internal, FINALFUNC = bloom_union_final,
		COMBINEFUNC = bloom_union_combine, SERIALFUNC = bloom_setop_serial,
		DESERIALFUNC = bloom_setop_deserial, PARALLEL = SAFE);
	SET citus.shard_count = 4;
	CREATE TABLE events (id bigint NOT NULL, k bigint);
	SELECT create_distributed_table('events', 'id');
	INSERT INTO events SELECT g, g::bigint * 7919 FROM generate_series(1, $rows) g;
	CREATE TABLE events_local AS SELECT * FROM events;
	VACUUM ANALYZE events;
	VACUUM ANALYZE events_local;
});

my %q = (
	'split' => "SELECT octet_length(bloom_send(bloom_agg(k, $rows, 0.01))) FROM events",
	'by-hand' => "SELECT octet_length(bloom_send(bloom_union_agg(result::bloom))) FROM "
	  . "run_command_on_shards('events', \$\$SELECT bloom_agg(k, $rows, 0.01) FROM %s\$\$)",
	'gather' => "SELECT octet_length(bloom_send(agg_internal(k, $rows, 0.01))) FROM events",
	'local' => "SELECT octet_length(bloom_send(bloom_agg(k, $rows, 0.01))) FROM events_local",
);
my @order = ('split', 'by-hand', 'gather', 'local');
my %ms;
$coord->safe_psql('postgres', $q{$_}) for @order;    # warm the caches
for my $i (1 .. $repeat)
{
	for my $name (@order)
	{
		my $t0 = time;
		$coord->safe_psql('postgres', $q{$name});
		push @{ $ms{$name} }, (time - $t0) * 1000;
	}
}
my %same = map {
	$_ => $coord->safe_psql('postgres', $q{$_} =~ s/octet_length\(bloom_send\((.*)\)\) FROM/md5(bloom_send($1)::text) FROM/r)
} @order;
printf "rows %d, 4 shards on 2 workers, %d runs each (ms, psql round trip included)\n", $rows, $repeat;
for my $name (@order)
{
	my @s = sort { $a <=> $b } @{ $ms{$name} };
	printf "%-8s median %7.0f  best %7.0f  result md5 %s\n", $name, $s[ int(@s / 2) ], $s[0],
	  $same{$name};
}
my $med = sub { my @s = sort { $a <=> $b } @{ $ms{ $_[0] } }; $s[ int(@s / 2) ] };
printf "split / by-hand: %.2f (median), %.2f (best)\n", $med->('split') / $med->('by-hand'),
  min(@{ $ms{split} }) / min(@{ $ms{'by-hand'} });
printf "gather / by-hand: %.2f (median)\n", $med->('gather') / $med->('by-hand');
for my $name ('split', 'gather')
{
	my $plan = $coord->safe_psql('postgres', "EXPLAIN (ANALYZE, VERBOSE) $q{$name}");
	my ($bytes) = $plan =~ /Tuple data received from nodes: ([^\n]+)/;
	printf "%-8s tuple data received by the coordinator: %s\n", $name, $bytes // '?';
}

# The other aggregates: split, gathered (1.3's internal state), local.
# bloom_union_agg runs over one small filter per 100 rows (a table of
# filters distributed as events is).
if ($more_repeat > 0)
{
	my $nf = int($rows / 100);
	$coord->safe_psql('postgres', qq{
		CREATE TABLE filters (id bigint NOT NULL, f bloom);
		SELECT create_distributed_table('filters', 'id');
		INSERT INTO filters SELECT id / 100, bloom_agg(k, 1000, 0.01) FROM events_local GROUP BY id / 100;
		CREATE TABLE filters_local AS SELECT * FROM filters;
		VACUUM ANALYZE filters;
		VACUUM ANALYZE filters_local;
	});
	my @more = (
		[ 'scalable_bloom_agg(k)', 'scalable_bloom_agg(k)', 'scalable_internal(k)', 'events', 'scalable_bloom' ],
		[ 'bloom_parquet_agg(k, n, 0.01)', "bloom_parquet_agg(k, $rows, 0.01)",
		  "parquet_internal(k, $rows, 0.01)", 'events', 'bloom' ],
		[ 'bloom_ngram_agg(k::text)', 'bloom_ngram_agg(k::text)', 'ngram_internal(k::text)', 'events', 'bloom' ],
		[ "bloom_union_agg(f), $nf filters", 'bloom_union_agg(f)', 'union_internal(f)', 'filters', 'bloom' ],
	);
	printf "\nthe other aggregates, %d runs each (ms, median; md5 of the result)\n", $more_repeat;
	for my $m (@more)
	{
		my ($label, $split, $gather, $table, $kind) = @$m;
		my %mq = (
			split => "SELECT md5(${kind}_send($split)::text) FROM $table",
			gather => "SELECT md5(${kind}_send($gather)::text) FROM $table",
			local => "SELECT md5(${kind}_send($split)::text) FROM ${table}_local",
		);
		my (%mms, %md5);
		for my $i (1 .. $more_repeat)
		{
			for my $name ('split', 'gather', 'local')
			{
				my $t0 = time;
				$md5{$name} = $coord->safe_psql('postgres', $mq{$name});
				push @{ $mms{$name} }, (time - $t0) * 1000;
			}
		}
		my %bytes;
		for my $name ('split', 'gather')
		{
			my $plan = $coord->safe_psql('postgres', "EXPLAIN (ANALYZE, VERBOSE) $mq{$name}");
			($bytes{$name}) = $plan =~ /Tuple data received from nodes: ([^\n]+)/;
		}
		my $mmed = sub { my @s = sort { $a <=> $b } @{ $mms{ $_[0] } }; $s[ int(@s / 2) ] };
		printf "%-34s split %6.0f (%s)  gather %6.0f (%s)  local %6.0f  %s\n", $label,
		  $mmed->('split'), $bytes{split} // '?', $mmed->('gather'), $bytes{gather} // '?',
		  $mmed->('local'),
		  ($md5{split} eq $md5{local} ? 'split = local' : 'split <> local (scalable: by members)');
	}
}
$_->stop for @nodes;
