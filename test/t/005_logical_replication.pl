# Logical replication with a subscription created WITH (binary = true): the
# extension and the schema exist on both nodes; the initial table sync and
# the streamed changes (binary send/recv of bloom values, including large
# TOASTed ones, updates and deletes) must leave every filter on the
# subscriber bitwise identical to the publisher's.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomsetTest;

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->start;

my $sub = PostgreSQL::Test::Cluster->new('subscriber');
$sub->init;
$sub->start;

$pub->safe_psql('postgres', $SCHEMA_SQL);
# give the subscriber's enum other OIDs than the publisher's
$sub->safe_psql('postgres',
	q{CREATE TYPE filler AS ENUM ('a', 'b', 'c', 'd', 'e', 'f', 'g')});
$sub->safe_psql('postgres', $SCHEMA_SQL);

is( $sub->safe_psql(
		'postgres',
		q{SELECT extversion FROM pg_extension WHERE extname = 'bloomset'}),
	$pub->safe_psql(
		'postgres',
		q{SELECT extversion FROM pg_extension WHERE extname = 'bloomset'}),
	'the extension is installed on both nodes');

# rows present before the subscription: copied by the initial table sync
$pub->safe_psql('postgres', $POPULATE_SQL);

$pub->safe_psql('postgres',
	'CREATE PUBLICATION bloom_pub FOR TABLE filters, src_int, src_text, src_enum, src_dom, src_time'
);
my $connstr = $pub->connstr . ' dbname=postgres';
$sub->safe_psql('postgres',
	"CREATE SUBSCRIPTION bloom_sub CONNECTION '$connstr' PUBLICATION bloom_pub WITH (binary = true)"
);
is($sub->safe_psql('postgres', q{SELECT subbinary FROM pg_subscription WHERE subname = 'bloom_sub'}),
	't', 'the subscription uses binary transfer');

$sub->wait_for_subscription_sync($pub, 'bloom_sub');

check_same_filters(
	fingerprints($sub, 'postgres'),
	fingerprints($pub, 'postgres'),
	'after the initial sync');

# a second, peek-only slot to inspect what pgoutput sends in binary mode
$pub->safe_psql('postgres',
	q{SELECT pg_create_logical_replication_slot('peek', 'pgoutput')});

# changes streamed through the apply worker in binary form
$pub->safe_psql('postgres', $MORE_SQL);
$pub->safe_psql(
	'postgres', q{
INSERT INTO filters SELECT 40, 'streamed_toasted', bloom_agg(x, 100000, 0.01) FROM src_int WHERE x > 10;
INSERT INTO filters VALUES (41, 'streamed_small', bloom_empty(5, 0.1) || 'x'::text);
INSERT INTO filters VALUES (42, 'streamed_null', NULL);
BEGIN;
UPDATE filters SET f = f || 'zeta'::text WHERE id = 41;
UPDATE filters SET name = name || '_renamed' WHERE id = 40;
UPDATE filters SET f = bloom_union(f, (SELECT bloom_agg(x) FROM src_int WHERE x < 10)) WHERE id = 2;
COMMIT;
});
$pub->wait_for_catchup('bloom_sub');

# pgoutput with binary = true sends the filter as a binary column ('b',
# length, bloom_send bytes), which the apply worker reads with bloom_recv
is( $pub->safe_psql(
		'postgres', q{
SELECT count(*) FROM filters f,
       pg_logical_slot_peek_binary_changes('peek', NULL, NULL,
           'proto_version', '1', 'publication_names', 'bloom_pub',
           'binary', 'true') c
 WHERE f.id IN (20, 40)
   AND position('\x62'::bytea || int4send(length(bloom_to_bytea(f.f)))
                || bloom_to_bytea(f.f) IN c.data) > 0}),
	'2',
	'pgoutput sends the filters in their binary send form');
$pub->safe_psql('postgres', q{SELECT pg_drop_replication_slot('peek')});

my $expected = fingerprints($pub, 'postgres');
like($expected, qr/^40 streamed_toasted_renamed [0-9a-f]{32} /m,
	'the publisher has the streamed rows');
check_same_filters(fingerprints($sub, 'postgres'),
	$expected, 'after streaming changes');
check_no_false_negatives($sub, 'postgres', 'subscriber');
cmp_ok(toast_rows($sub, 'postgres', 'filters'), '>', 0,
	'the subscriber stores the large filters in TOAST');
is( $sub->safe_psql(
		'postgres',
		q{SELECT f @> 'x'::text AND f @> 'zeta'::text FROM filters WHERE id = 41}),
	't',
	'values added on the publisher are found on the subscriber');

# filters rebuilt on the subscriber from the replicated source rows match
# (the subscriber's enum OIDs differ from the publisher's)
isnt(
	$sub->safe_psql('postgres', q{SELECT min(oid) FROM pg_enum WHERE enumtypid = 'mood'::regtype}),
	$pub->safe_psql('postgres', q{SELECT min(oid) FROM pg_enum WHERE enumtypid = 'mood'::regtype}),
	'the enum has other OIDs on the subscriber');
my $agg = q{SELECT md5(bloom_to_bytea(bloom_agg(m))) FROM src_enum};
is($sub->safe_psql('postgres', $agg), $pub->safe_psql('postgres', $agg),
	'an enum filter rebuilt on the subscriber is identical');

$sub->stop;
$pub->stop;
done_testing();
