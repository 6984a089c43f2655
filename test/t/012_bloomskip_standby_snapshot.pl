# A bloomskip index on a hot standby answers for the standby's oldest
# snapshot, not for the primary's: with hot_standby_feedback off (the
# default) a repeatable-read transaction on the standby still sees a row
# that the primary deleted, and the primary's summarizer then summarizes the
# row's range.  The row's tuple is still on its heap page (not pruned, so the
# standby received no recovery conflict), so the summarizer must put its key
# into the range's filter: the standby's index scan must find the row that
# its sequential scan finds.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('snap_primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "hot_standby_feedback = off\nautovacuum = off\n");
$primary->start;

# one 4,500-byte row a heap page, one page a range: rows k = 1 .. 10 on
# pages 0 .. 9, then k = 100 alone on page 10, the open range
$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION bloomset;
CREATE TABLE sd (k int, k2 int, pad text) WITH (autovacuum_enabled = false);
ALTER TABLE sd ALTER COLUMN pad SET STORAGE PLAIN;
INSERT INTO sd SELECT i, i, repeat('p', 4500) FROM generate_series(1, 10) i;
CREATE INDEX sd_k ON sd USING bloomskip (k) WITH (pages_per_range = 1);
INSERT INTO sd VALUES (100, 100, repeat('p', 4500));
});
is( $primary->safe_psql(
		'postgres',
		q{SELECT (ctid::text::point)[0] FROM sd WHERE k = 100}),
	'10', 'the row of k = 100 is alone on page 10');
is($primary->safe_psql('postgres', q{SELECT summarized_ranges FROM bloomskip_info('sd_k')}),
	'10', 'range 10 is open');

$primary->backup('bkp');
my $standby = PostgreSQL::Test::Cluster->new('snap_standby');
$standby->init_from_backup($primary, 'bkp', has_streaming => 1);
$standby->append_conf('postgresql.conf',
	"hot_standby_feedback = off\nmax_standby_streaming_delay = -1\n");
$standby->start;
$primary->wait_for_catchup($standby);

my $count_index = q{SET enable_seqscan = off; SET enable_indexscan = off; SET enable_bitmapscan = on;
SELECT count(*) FROM sd WHERE k = 100};
my $count_seq = q{SET enable_seqscan = on; SET enable_bitmapscan = off;
SELECT count(*) FROM sd WHERE k = 100};

# a snapshot on the standby that sees k = 100
my $reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
is($reader->query_safe($count_seq), '1', 'standby snapshot: the sequential scan sees k = 100');

# on the primary: delete it, then move the table past range 10, which
# summarizes it
$primary->safe_psql('postgres', q{DELETE FROM sd WHERE k = 100});
$primary->safe_psql('postgres', q{INSERT INTO sd VALUES (101, 101, repeat('p', 4500))});
is( $primary->safe_psql(
		'postgres',
		q{SELECT (ctid::text::point)[0] FROM sd WHERE k = 101}),
	'11', 'k = 101 is on page 11');
is($primary->safe_psql('postgres', q{SELECT summarized_ranges FROM bloomskip_info('sd_k')}),
	'11', 'the insert on page 11 summarized range 10');
is($primary->safe_psql('postgres', $count_index), '0', 'primary: k = 100 is gone');
$primary->wait_for_catchup($standby);

# back in the same standby transaction
is($reader->query_safe($count_seq), '1', 'standby snapshot: the sequential scan still sees k = 100');
is($reader->query_safe($count_index), '1',
	'standby snapshot: the bloomskip scan finds k = 100 (no false negative)');
like($reader->query_safe(q{EXPLAIN (COSTS OFF) SELECT count(*) FROM sd WHERE k = 100}),
	qr/Bitmap Index Scan on sd_k/, 'standby: the count used the index');
$reader->query_safe('COMMIT');
$reader->quit;

# the primary and a new standby snapshot agree, and the index is sound
is($standby->safe_psql('postgres', $count_index), '0', 'standby, new snapshot: k = 100 is gone');
is($primary->safe_psql('postgres', q{SELECT bloomskip_check('sd_k')}), '0',
	'bloomskip_check: no key missing');

# what the summarizer must not read: a row whose insert failed on the index
# expression (1 / 0, aborted: no snapshot saw it) is left out; a row dead
# before the index was built, whose expression was never computed, sets
# its range's whole filter rather than fail the insert that summarizes it
$primary->safe_psql(
	'postgres', q{
CREATE TABLE ex (x int, pad text) WITH (autovacuum_enabled = false);
ALTER TABLE ex ALTER COLUMN pad SET STORAGE PLAIN;
INSERT INTO ex SELECT i, repeat('p', 4500) FROM generate_series(1, 5) i;
INSERT INTO ex VALUES (0, repeat('p', 4500));
DELETE FROM ex WHERE x = 0;
CREATE INDEX ex_inv ON ex USING bloomskip ((1000 / x)) WITH (pages_per_range = 1);
});
my ($rc, $out, $err) = $primary->psql('postgres',
	q{INSERT INTO ex VALUES (0, repeat('p', 4500))});
like($err, qr/division by zero/, 'an insert whose index expression fails is rolled back');
is( $primary->safe_psql(
		'postgres', q{
INSERT INTO ex VALUES (7, repeat('p', 4500)), (8, repeat('p', 4500));
SELECT summarized_ranges FROM bloomskip_info('ex_inv')}),
	'8', 'the summarizer read past the dead and the aborted row of 1000 / 0');
is( $primary->safe_psql(
		'postgres',
		q{SELECT (bloom_info(bloomskip_range_filter('ex_inv', 5))).bits_set = (bloom_info(bloomskip_range_filter('ex_inv', 5))).bits}),
	't', 'the range of the dead row has its whole filter set');
is( $primary->safe_psql(
		'postgres', q{SET enable_seqscan = off;
SELECT string_agg(x::text, ',' ORDER BY x) FROM ex WHERE 1000 / x IN (1000, 125, 142)}),
	'1,7,8', 'lookups on the expression find every row');

$standby->stop;
$primary->stop;
done_testing();
