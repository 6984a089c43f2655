# Physical streaming replication: a standby made from a base backup, then
# fed by streaming; after wait_for_catchup every filter on the standby must
# be bitwise identical to the primary's, with zero false negatives, both for
# rows in the backup and for rows written (and TOASTed) while streaming.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomsetTest;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;

$primary->safe_psql('postgres', $SCHEMA_SQL);
$primary->safe_psql('postgres', $POPULATE_SQL);

$primary->backup('bkp');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'bkp', has_streaming => 1);
$standby->start;

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'),
	't', 'the standby is in recovery');
check_same_filters(
	fingerprints($standby, 'postgres'),
	fingerprints($primary, 'postgres'),
	'standby from the base backup');

# changes streamed after the backup: new TOASTed rows, updates, a delete
$primary->safe_psql('postgres', $MORE_SQL);
$primary->safe_psql(
	'postgres', q{
CREATE TABLE streamed AS
  SELECT 1 AS id, 'streamed' AS name, bloom_agg(x, 100000, 0.01) AS f FROM src_int;
UPDATE filters SET f = f || 'delta'::text || 'epsilon'::text WHERE id = 9;
});
$primary->wait_for_catchup($standby);

my $expected = fingerprints($primary, 'postgres');
check_same_filters(fingerprints($standby, 'postgres'),
	$expected, 'standby after streaming');
check_no_false_negatives($standby, 'postgres', 'standby');
is( $standby->safe_psql(
		'postgres', q{SELECT md5(bloom_to_bytea(f)) FROM streamed}),
	$primary->safe_psql(
		'postgres', q{SELECT md5(bloom_to_bytea(f)) FROM streamed}),
	'a filter created by CREATE TABLE AS is identical on the standby');
is( $standby->safe_psql(
		'postgres',
		q{SELECT f @> 'delta'::text AND f @> 'epsilon'::text AND f @> 'gamma'::text FROM filters WHERE id = 9}
	),
	't',
	'values added on the primary are found on the standby');

# read-only aggregation on the standby gives the same bits as on the primary
my $agg = q{SELECT md5(bloom_to_bytea(bloom_agg(m))) || md5(bloom_to_bytea(bloom_agg(d, 3000, 0.01))) FROM src_enum, (SELECT d FROM src_dom LIMIT 100) s};
is($standby->safe_psql('postgres', $agg),
	$primary->safe_psql('postgres', $agg),
	'bloom_agg on the standby equals bloom_agg on the primary');

$standby->stop;
$primary->stop;
done_testing();
