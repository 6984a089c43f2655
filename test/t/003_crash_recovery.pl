# Immediate-mode crash and WAL recovery: rows holding filters (small, and
# large ones stored in TOAST) written and updated after the last checkpoint
# must come back bitwise identical; an uncommitted update at the time of the
# crash must not.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomsetTest;

my $node = PostgreSQL::Test::Cluster->new('crash');
# wal_level = replica: every change is WAL-logged (no wal_level = minimal
# WAL skipping), and a long checkpoint interval so that recovery has to
# replay everything written below
$node->init(allows_streaming => 1);
$node->append_conf('postgresql.conf', "checkpoint_timeout = '1h'\nmax_wal_size = '1GB'");
$node->start;

$node->safe_psql('postgres', $SCHEMA_SQL);
$node->safe_psql('postgres', 'CHECKPOINT');
$node->safe_psql('postgres', $POPULATE_SQL);
# committed changes after the population, in several transactions
$node->safe_psql('postgres', $MORE_SQL);
$node->safe_psql(
	'postgres', q{
BEGIN;
UPDATE filters SET f = f || 777777 WHERE id = 2;
INSERT INTO filters SELECT 30, 'txn_block', bloom_agg(x, 60000, 0.001) FROM src_int WHERE x % 3 = 0;
COMMIT;
});

my $before = fingerprints($node, 'postgres');
check_no_false_negatives($node, 'postgres', 'before the crash');
cmp_ok(toast_rows($node, 'postgres', 'filters'), '>', 0,
	'before the crash: large filters are TOASTed');

# an open transaction modifying filters when the server dies
my $bg = $node->background_psql('postgres');
$bg->query_safe(q{BEGIN});
$bg->query_safe(q{UPDATE filters SET f = f || 424242 WHERE id IN (1, 2, 6)});
$bg->query_safe(q{UPDATE filters SET f = f || 'uncommitted'::text WHERE id = 3});
$bg->query_safe(q{INSERT INTO filters VALUES (99, 'uncommitted', bloom_empty(10, 0.01) || 1)});
$bg->query_safe(q{SELECT pg_current_wal_flush_lsn()});

my $logstart = -s $node->logfile;
$node->stop('immediate');
$bg->quit;
$node->start;

ok( $node->log_contains(
		qr/database system was not properly shut down; automatic recovery in progress/,
		$logstart),
	'the server ran crash recovery');
ok($node->log_contains(qr/redo done at/, $logstart),
	'crash recovery replayed WAL');

my $after = fingerprints($node, 'postgres');
check_same_filters($after, $before, 'crash recovery');
check_no_false_negatives($node, 'postgres', 'after crash recovery');
is($node->safe_psql('postgres', 'SELECT count(*) FROM filters WHERE id = 99'),
	'0', 'the uncommitted insert is gone');
is( $node->safe_psql(
		'postgres',
		q{SELECT (bloom_info(f)).items FROM filters WHERE id = 3}),
	'2000',
	'the uncommitted update is gone');

# the recovered filters still work for new writes
$node->safe_psql('postgres',
	q{UPDATE filters SET f = f || 31337 WHERE id = 1});
is( $node->safe_psql(
		'postgres', q{SELECT f @> 31337 FROM filters WHERE id = 1}),
	't', 'a recovered TOASTed filter can be updated');

# a second crash right after that update: committed, so it must survive
my $before2 = fingerprints($node, 'postgres');
$logstart = -s $node->logfile;
$node->stop('immediate');
$node->start;
ok( $node->log_contains(qr/automatic recovery in progress/, $logstart),
	'second crash: recovery ran');
check_same_filters(fingerprints($node, 'postgres'),
	$before2, 'second crash recovery');

$node->stop;
done_testing();
