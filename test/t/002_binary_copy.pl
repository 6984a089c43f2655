# COPY ... (FORMAT binary) out and back in (bloom_send / bloom_recv), also
# into another database and through psql's client-side \copy: every filter
# must come back bitwise identical, and a second binary export of the copy
# must be byte-for-byte the same file as the first.  Text-format COPY
# (bloom_out / bloom_in) is checked the same way.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Compare;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use BloomsetTest;

my $node = PostgreSQL::Test::Cluster->new('copy');
$node->init;
$node->start;

my $tmp = PostgreSQL::Test::Utils::tempdir;

$node->safe_psql('postgres', $SCHEMA_SQL);
$node->safe_psql('postgres', $POPULATE_SQL);
$node->safe_psql('postgres', $MORE_SQL);

my $before = fingerprints($node, 'postgres');
check_no_false_negatives($node, 'postgres', 'source table');

# server-side binary COPY, same database
$node->safe_psql(
	'postgres', qq{
COPY filters TO '$tmp/filters.bin' WITH (FORMAT binary);
CREATE TABLE filters_bin (LIKE filters INCLUDING ALL);
COPY filters_bin FROM '$tmp/filters.bin' WITH (FORMAT binary);
COPY filters_bin TO '$tmp/filters_again.bin' WITH (FORMAT binary);
});
check_same_filters(fingerprints($node, 'postgres', 'filters_bin'),
	$before, 'binary COPY');
check_no_false_negatives($node, 'postgres', 'binary COPY', 'filters_bin');
ok(compare("$tmp/filters.bin", "$tmp/filters_again.bin") == 0,
	'binary COPY: re-exported file is byte-identical');
cmp_ok(toast_rows($node, 'postgres', 'filters_bin'), '>', 0,
	'binary COPY: the large filters are TOASTed in the new table');

# the binary file holds the send form: the same bytes as bloom_to_bytea
is( $node->safe_psql(
		'postgres', q{
SELECT count(*) FROM filters a JOIN filters_bin b USING (id)
 WHERE bloom_to_bytea(a.f) = bloom_to_bytea(b.f) AND a.f = b.f}),
	$node->safe_psql('postgres', 'SELECT count(*) FROM filters WHERE f IS NOT NULL'),
	'binary COPY: every non-null filter equal by = and by send form');

# binary COPY into a fresh database (other enum OIDs)
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', $SCHEMA_SQL);
$node->safe_psql(
	'postgres', qq{
COPY src_int TO '$tmp/src_int.bin' WITH (FORMAT binary);
COPY src_text TO '$tmp/src_text.bin' WITH (FORMAT binary);
COPY src_enum TO '$tmp/src_enum.bin' WITH (FORMAT binary);
COPY src_dom TO '$tmp/src_dom.bin' WITH (FORMAT binary);
COPY src_time TO '$tmp/src_time.bin' WITH (FORMAT binary);
});
$node->safe_psql(
	'other', qq{
ALTER TYPE mood ADD VALUE 'extra' BEFORE 'sad';
COPY filters FROM '$tmp/filters.bin' WITH (FORMAT binary);
COPY src_int FROM '$tmp/src_int.bin' WITH (FORMAT binary);
COPY src_text FROM '$tmp/src_text.bin' WITH (FORMAT binary);
COPY src_enum FROM '$tmp/src_enum.bin' WITH (FORMAT binary);
COPY src_dom FROM '$tmp/src_dom.bin' WITH (FORMAT binary);
COPY src_time FROM '$tmp/src_time.bin' WITH (FORMAT binary);
});
check_same_filters(fingerprints($node, 'other'),
	$before, 'binary COPY into another database');
check_no_false_negatives($node, 'other', 'binary COPY into another database');

# client-side \copy in binary format (psql sends the same bytes)
$node->safe_psql(
	'postgres', qq{
\\copy filters TO '$tmp/client.bin' WITH (FORMAT binary)
CREATE TABLE filters_client (LIKE filters);
\\copy filters_client FROM '$tmp/client.bin' WITH (FORMAT binary)
});
check_same_filters(fingerprints($node, 'postgres', 'filters_client'),
	$before, 'client-side binary \\copy');
ok(compare("$tmp/filters.bin", "$tmp/client.bin") == 0,
	'client-side binary \\copy: same file as server-side COPY');

# text COPY for comparison (bloom_out / bloom_in)
$node->safe_psql(
	'postgres', qq{
COPY filters TO '$tmp/filters.txt';
CREATE TABLE filters_txt (LIKE filters);
COPY filters_txt FROM '$tmp/filters.txt';
});
check_same_filters(fingerprints($node, 'postgres', 'filters_txt'),
	$before, 'text COPY');

# a corrupted binary file is rejected, not loaded
$node->safe_psql('postgres',
	qq{COPY (SELECT id, name, f FROM filters WHERE id = 3) TO '$tmp/one.bin' WITH (FORMAT binary)});
{
	open my $fh, '<:raw', "$tmp/one.bin" or die $!;
	local $/;
	my $bin = <$fh>;
	close $fh;
	# flip the format version byte of the filter: it follows the 19-byte
	# file header, the field count (2), id (4+4), name (4+len), and the
	# filter's length word (4)
	my $name_len = unpack('N', substr($bin, 19 + 2 + 8, 4));
	my $off = 19 + 2 + 8 + 4 + $name_len + 4;
	is(ord(substr($bin, $off, 1)), 1, 'binary COPY: the send form starts with format version 1');
	substr($bin, $off, 1) = chr(99);
	open $fh, '>:raw', "$tmp/corrupt.bin" or die $!;
	print $fh $bin;
	close $fh;
}
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	qq{CREATE TABLE filters_bad (LIKE filters); COPY filters_bad FROM '$tmp/corrupt.bin' WITH (FORMAT binary);});
isnt($ret, 0, 'corrupted binary COPY input fails');
like($stderr, qr/invalid external bloom filter value/,
	'corrupted binary COPY input: bloom_recv reports it');

$node->stop;
done_testing();
