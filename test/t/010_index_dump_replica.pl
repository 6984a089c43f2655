# The filter index is ordinary data: a table made by bloom_index_create and
# kept current by bloom_index_add / bloom_index_remove is dumped and restored
# by pg_dump / pg_restore, and streamed to a standby, like any table.  After
# each, every lookup (one key and any of several) gives the same ids as on
# the primary, and the same ids as bloom_contains over the chunk table, and
# the index still takes appends (restored database) or follows them
# (standby).

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('index_primary');
$primary->init(allows_streaming => 1);
$primary->start;

$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION bloomset;
CREATE TABLE chunk AS
SELECT c::bigint AS chunk_id, bloom_agg(c::bigint * 1000 + k, 200, 0.01) AS f
FROM generate_series(1, 150) c, generate_series(1, 200) k GROUP BY c;
ALTER TABLE chunk ADD PRIMARY KEY (chunk_id);
SELECT bloom_index_create('chunk_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id <= 100');
SELECT bloom_index_add('chunk_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id > 100');
SELECT bloom_index_remove('chunk_idx', 7);
DELETE FROM chunk WHERE chunk_id = 7;
});

# every key's ids from the index, and how many keys differ from bloom_contains
my $answers_q = q{SELECT md5(string_agg(x || ':' || ids::text, ',' ORDER BY x)),
  count(*) FILTER (WHERE ids IS DISTINCT FROM per_filter)
FROM (SELECT x, ARRAY(SELECT bloom_index_lookup('chunk_idx', x) AS id ORDER BY id) AS ids,
             ARRAY(SELECT chunk_id FROM chunk WHERE bloom_contains(f, x) ORDER BY chunk_id) AS per_filter
      FROM generate_series(1000::bigint, 160000, 97) x) s};
my $any_q = q{SELECT ARRAY(SELECT bloom_index_lookup_any('chunk_idx', ARRAY[42042, 77077, 150150]::bigint[]) AS id ORDER BY id)};

my ($md5, $wrong) = split /\|/, $primary->safe_psql('postgres', $answers_q);
is($wrong, 0, 'primary: the index answers as bloom_contains');
my $any = $primary->safe_psql('postgres', $any_q);

# pg_dump / pg_restore (custom format) into a fresh database
my $tmp = PostgreSQL::Test::Utils::tempdir;
$primary->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/db.dump", '-d', 'postgres' ], 'pg_dump');
$primary->safe_psql('postgres', 'CREATE DATABASE restored');
$primary->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'restored', "$tmp/db.dump" ],
	'pg_restore');
my ($rmd5, $rwrong) = split /\|/, $primary->safe_psql('restored', $answers_q);
is($rmd5, $md5, 'restored: the same ids for every key');
is($rwrong, 0, 'restored: the index answers as bloom_contains');
is($primary->safe_psql('restored', $any_q), $any, 'restored: the same ids for any of three keys');
is( $primary->safe_psql(
		'restored', q{SELECT attstorage FROM pg_attribute
		WHERE attrelid = 'chunk_idx'::regclass AND attname = 'bits'}),
	'p', 'restored: the stripes keep their PLAIN storage');
$primary->safe_psql(
	'restored', q{
INSERT INTO chunk SELECT 7, bloom_agg(7000::bigint + k, 200, 0.01) FROM generate_series(1, 200) k;
SELECT bloom_index_add('chunk_idx', 7, (SELECT f FROM chunk WHERE chunk_id = 7));
});
is((split /\|/, $primary->safe_psql('restored', $answers_q))[1],
	0, 'restored: after an append the index answers as bloom_contains');

# a streaming standby, from a base backup, then following appends
$primary->backup('bkp');
my $standby = PostgreSQL::Test::Cluster->new('index_standby');
$standby->init_from_backup($primary, 'bkp', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $answers_q), "$md5|0", 'standby: the same ids for every key');

$primary->safe_psql(
	'postgres', q{
INSERT INTO chunk SELECT c, bloom_agg(c * 1000 + k, 200, 0.01)
FROM generate_series(151, 230) c, generate_series(1, 200) k GROUP BY c;
SELECT bloom_index_add('chunk_idx', 'SELECT chunk_id, f FROM chunk WHERE chunk_id > 150');
SELECT bloom_index_remove('chunk_idx', 11);
DELETE FROM chunk WHERE chunk_id = 11;
});
$primary->wait_for_catchup($standby);
my $after = $primary->safe_psql('postgres', $answers_q);
like($after, qr/\|0$/, 'primary after appends: the index answers as bloom_contains');
is($standby->safe_psql('postgres', $answers_q), $after, 'standby after appends: the same ids');
is($standby->safe_psql('postgres', $any_q), $primary->safe_psql('postgres', $any_q),
	'standby after appends: the same ids for any of three keys');

$standby->stop;
$primary->stop;
done_testing();
