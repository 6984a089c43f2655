# Scale-out on an existing engine: three shard clusters and a coordinator
# with a hash-partitioned table whose partitions are postgres_fdw foreign
# tables.  bloomset is listed in each foreign server's "extensions" option,
# so postgres_fdw ships bloom_agg and @> to the shards (EXPLAIN VERBOSE shows
# them in the Remote SQL); the coordinator combines the shards' filters with
# bloom_union_agg.  Checks that
#   - the union of the per-shard aggregates is exactly the single-node
#     bloom_agg over the same rows (same parameters: the OR of filters is the
#     filter of the union),
#   - a skip lookup pushed to the shards answers exactly as the same filters
#     probed on the coordinator, and never misses a chunk holding the key.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @shards;
for my $i (0 .. 2)
{
	my $node = PostgreSQL::Test::Cluster->new("shard$i");
	$node->init;
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION bloomset;
		CREATE TABLE events (k bigint NOT NULL, chunk integer NOT NULL);
		CREATE TABLE chunk_filter (chunk integer PRIMARY KEY, f bloom NOT NULL);
	});
	push @shards, $node;
}

my $coord = PostgreSQL::Test::Cluster->new('coordinator');
$coord->init;
$coord->start;

my $available = $coord->safe_psql('postgres',
	q{SELECT count(*) FROM pg_available_extensions WHERE name = 'postgres_fdw'});
if ($available ne '1')
{
	# a loud failure, not a skip: the test command must not pass without it
	fail('postgres_fdw is installed in this PostgreSQL');
	done_testing();
	exit;
}

# The coordinator reaches the shards through libpq services (the README's
# recipe names services, not hosts): a service file in the coordinator
# server's environment.
my $services = PostgreSQL::Test::Utils::tempdir . '/pg_service.conf';
open my $fh, '>', $services or die "$services: $!";
printf $fh "[shard%d]\nhost=%s\nport=%d\ndbname=postgres\n\n", $_, $shards[$_]->host,
  $shards[$_]->port
  for 0 .. 2;
close $fh;
$coord->stop;
{
	local $ENV{PGSERVICEFILE} = $services;
	$coord->start;
}

# The README's recipe, verbatim (scripts/check_readme_sql.py finds these
# blocks here).
my $readme_setup = q{-- on the coordinator; bloomset is installed here and on every shard, and
-- extensions 'bloomset' lets postgres_fdw ship bloomset's functions and
-- operators to the shards
CREATE EXTENSION postgres_fdw;
CREATE SERVER shard0 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (service 'shard0', extensions 'bloomset');
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (service 'shard1', extensions 'bloomset');
CREATE SERVER shard2 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (service 'shard2', extensions 'bloomset');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard0;
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1;
CREATE USER MAPPING FOR CURRENT_USER SERVER shard2;
CREATE TABLE events (k bigint NOT NULL, chunk integer NOT NULL) PARTITION BY HASH (k);
CREATE FOREIGN TABLE events_p0 PARTITION OF events FOR VALUES WITH (MODULUS 3, REMAINDER 0)
  SERVER shard0 OPTIONS (table_name 'events');
CREATE FOREIGN TABLE events_p1 PARTITION OF events FOR VALUES WITH (MODULUS 3, REMAINDER 1)
  SERVER shard1 OPTIONS (table_name 'events');
CREATE FOREIGN TABLE events_p2 PARTITION OF events FOR VALUES WITH (MODULUS 3, REMAINDER 2)
  SERVER shard2 OPTIONS (table_name 'events');
};
my $readme_union = q{-- one filter of every key: each shard aggregates its rows (the aggregate is
-- shipped whole), the coordinator ORs the three filters of equal size
SELECT bloom_union_agg(f) AS f FROM (
  SELECT bloom_agg(k, 200000, 0.01) AS f FROM events_p0
  UNION ALL SELECT bloom_agg(k, 200000, 0.01) FROM events_p1
  UNION ALL SELECT bloom_agg(k, 200000, 0.01) FROM events_p2) per_shard;
};
my $readme_lookup = q{-- per-chunk filters kept on each shard; the probe runs on the shards
CREATE FOREIGN TABLE chunk_filter_p0 (chunk integer, f bloom) SERVER shard0 OPTIONS (table_name 'chunk_filter');
CREATE FOREIGN TABLE chunk_filter_p1 (chunk integer, f bloom) SERVER shard1 OPTIONS (table_name 'chunk_filter');
CREATE FOREIGN TABLE chunk_filter_p2 (chunk integer, f bloom) SERVER shard2 OPTIONS (table_name 'chunk_filter');
CREATE VIEW chunk_filter_all AS
  SELECT 0 AS shard, chunk, f FROM chunk_filter_p0
  UNION ALL SELECT 1, chunk, f FROM chunk_filter_p1
  UNION ALL SELECT 2, chunk, f FROM chunk_filter_p2;
SELECT shard, chunk FROM chunk_filter_all WHERE f @> 42::bigint;
};
$coord->safe_psql('postgres', 'CREATE EXTENSION bloomset;' . $readme_setup
	  . 'CREATE TABLE events_local (k bigint NOT NULL, chunk integer NOT NULL);');

# 150,000 rows routed to the shards through the partitioned table, and the
# same rows in one local table; keys with a shard number in the high half
my $rows = q{SELECT (g::bigint << 20) + (g % 7), g % 40 FROM generate_series(1, 150000) g};
$coord->safe_psql('postgres', "INSERT INTO events $rows; INSERT INTO events_local $rows;");
is( $coord->safe_psql('postgres',
		'SELECT sum(n) = 150000 AND min(n) > 45000 FROM (SELECT count(*) n FROM events_p0 '
		  . 'UNION ALL SELECT count(*) FROM events_p1 UNION ALL SELECT count(*) FROM events_p2) s'),
	't',
	'the rows are spread over the three shards');

# ---- aggregation across shards
(my $cross = $readme_union) =~ s/;\s*$//;

my $plan = $coord->safe_psql('postgres', "EXPLAIN (VERBOSE, COSTS OFF) $cross");
my @remote = ($plan =~ /Remote SQL: SELECT public\.bloom_agg\(k, /g);
is(scalar @remote, 3, 'bloom_agg is shipped to each of the three shards (Remote SQL)')
  or diag $plan;
unlike($plan, qr/Remote SQL: SELECT k\b/,
	'no shard sends its rows to the coordinator');

is( $coord->safe_psql('postgres',
		"SELECT ($cross) = (SELECT bloom_agg(k, 200000, 0.01) FROM events_local)"),
	't',
	'bloom_union_agg of the shard filters equals the single-node bloom_agg');
is( $coord->safe_psql('postgres',
		"SELECT count(*) FROM events_local WHERE NOT (($cross) @> k)"),
	'0',
	'the combined filter has no false negatives');

# ---- skip lookups across shards: per-chunk filters built on each shard
# (the statement is pushed whole: an INSERT ... SELECT on the shard itself)
$_->safe_psql('postgres',
	'INSERT INTO chunk_filter SELECT chunk, bloom_agg(k, 5000, 0.01) FROM events GROUP BY chunk')
  for @shards;
$coord->safe_psql('postgres', $readme_lookup);
$coord->safe_psql('postgres',
	'CREATE TABLE chunk_filter_copy AS SELECT * FROM chunk_filter_all');

$plan = $coord->safe_psql('postgres',
	'EXPLAIN (VERBOSE, COSTS OFF) SELECT shard, chunk FROM chunk_filter_all WHERE f @> 42::bigint');
my @pushed = ($plan =~ /Remote SQL: SELECT chunk FROM public\.chunk_filter WHERE \(\(f OPERATOR\(public\.\@>\)/g);
is(scalar @pushed, 3, 'the probe @> is evaluated on each shard (Remote SQL)')
  or diag $plan;

# 300 keys: 200 present, 100 absent; pushed answers = answers of the same
# filters probed on the coordinator, and every chunk holding a key is named
my $keys = q{(SELECT (g::bigint << 20) + (g % 7) AS key FROM generate_series(1, 150000, 750) g
  UNION ALL SELECT (g::bigint << 20) + 9 FROM generate_series(1, 100) g)};
is( $coord->safe_psql('postgres', qq{
		SELECT count(*) FROM (
		  (SELECT key, shard, chunk FROM $keys k, chunk_filter_all c WHERE c.f @> k.key
		   EXCEPT ALL
		   SELECT key, shard, chunk FROM $keys k, chunk_filter_copy c WHERE c.f @> k.key)
		  UNION ALL
		  (SELECT key, shard, chunk FROM $keys k, chunk_filter_copy c WHERE c.f @> k.key
		   EXCEPT ALL
		   SELECT key, shard, chunk FROM $keys k, chunk_filter_all c WHERE c.f @> k.key)) d}),
	'0',
	'lookups pushed to the shards answer exactly as on the coordinator');
is( $coord->safe_psql('postgres', qq{
		SELECT count(*) FROM $keys k JOIN events_local e ON e.k = k.key
		 WHERE NOT EXISTS (SELECT 1 FROM chunk_filter_all c
		                    WHERE c.chunk = e.chunk AND c.f @> k.key)}),
	'0',
	'no chunk holding a key is skipped');
my $maybe = $coord->safe_psql('postgres', qq{
	SELECT count(*) FROM (SELECT (g::bigint << 20) + 9 AS key FROM generate_series(1, 100) g) k,
	  chunk_filter_all c WHERE c.f @> k.key});
cmp_ok($maybe, '<=', 30,
	"absent keys: $maybe of 12,000 (key, chunk) pairs answer maybe (at most 30: filters at a quarter of their capacity)");

$_->stop for @shards;
$coord->stop;
done_testing();
