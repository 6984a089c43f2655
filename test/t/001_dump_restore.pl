# pg_dump / pg_restore (plain and custom format) into fresh databases:
# every filter must come back bitwise identical, including filters over an
# enum (hashed by label: enum OIDs change on restore) and over a domain, with
# zero false negatives, and rebuilding them in the restored database must
# give the same bits.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomsetTest;

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', $SCHEMA_SQL);
$node->safe_psql('src', $POPULATE_SQL);

my $before = fingerprints($node, 'src');
check_no_false_negatives($node, 'src', 'source database');
cmp_ok(toast_rows($node, 'src', 'filters'), '>', 0,
	'source database: the large filter is stored in TOAST');
check_recompute($node, 'src', 'source database');

my $enum_oids_q = q{SELECT string_agg(oid::text, ',' ORDER BY enumsortorder)
  FROM pg_enum WHERE enumtypid = 'mood'::regtype};
my $src_enum_oids = $node->safe_psql('src', $enum_oids_q);

my $tmp = PostgreSQL::Test::Utils::tempdir;

my %dumps = (
	plain  => { file => "$tmp/src.sql",  dump_opts => ['-Fp'] },
	custom => { file => "$tmp/src.dump", dump_opts => ['-Fc'] },);

for my $format (sort keys %dumps)
{
	my $d = $dumps{$format};
	my $db = "restored_$format";

	$node->command_ok(
		[ 'pg_dump', @{ $d->{dump_opts} }, '-f', $d->{file}, '-d', 'src' ],
		"$format: pg_dump");
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	if ($format eq 'plain')
	{
		$node->command_ok(
			[
				'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $db,
				'-f', $d->{file}
			],
			"$format: restore with psql");
	}
	else
	{
		$node->command_ok(
			[ 'pg_restore', '--exit-on-error', '-d', $db, $d->{file} ],
			"$format: pg_restore");
	}

	my $after = fingerprints($node, $db);
	check_same_filters($after, $before, "$format dump/restore");

	isnt($node->safe_psql($db, $enum_oids_q),
		$src_enum_oids, "$format: the enum's OIDs changed on restore");
	is( $node->safe_psql(
			$db,
			q{SELECT (bloom_info(f)).element_family FROM filters WHERE id = 4}),
		'enum:mood',
		"$format: the enum filter keeps its element family");
	is( $node->safe_psql(
			$db,
			q{SELECT (bloom_info(f)).element_family FROM filters WHERE id = 6}),
		'integer_ops',
		"$format: the domain filter has the base type's family");

	check_no_false_negatives($node, $db, "$format dump/restore");
	check_recompute($node, $db, "$format dump/restore");

	# the restored filters are also equal by the = operator, row by row,
	# to the source (compared through their text form across databases)
	my $src_text = $node->safe_psql('src',
		'SELECT string_agg(f::text, E\'\n\' ORDER BY id) FROM filters WHERE f IS NOT NULL');
	my $dst_text = $node->safe_psql($db,
		'SELECT string_agg(f::text, E\'\n\' ORDER BY id) FROM filters WHERE f IS NOT NULL');
	ok($src_text eq $dst_text, "$format: text forms identical");
}

$node->stop;
done_testing();
