# The bloomskip index access method through WAL: a streaming standby
# answers every lookup as the primary does (the build's page images, the
# generic WAL of inserts, summarizations and new segments), an immediate
# shutdown after committed inserts, or in the middle of appends that
# summarize range after range, loses no key, and a damaged metapage is a
# clear "index corrupted" error, not a crash or a wrong answer.
#
# "missing" counts the rows a sequential scan sees whose key a bitmap scan
# of the index does not find; bloomskip_check counts the keys whose bits
# are not set in their range.  Both must be 0 everywhere.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('skip_primary');
$primary->init(allows_streaming => 1);
$primary->start;

$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION bloomset;
CREATE TABLE sk (k int8, t text, pad text) WITH (autovacuum_enabled = false);
INSERT INTO sk SELECT i, md5(i::text), repeat('p', 100) FROM generate_series(1, 20000) i;
CREATE INDEX sk_k ON sk USING bloomskip (k) WITH (pages_per_range = 2);
CREATE INDEX sk_t ON sk USING bloomskip (t);
CREATE FUNCTION missing() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	keys int8[];
	texts text[];
	found_k bigint;
	found_t bigint;
	total bigint;
BEGIN
	SELECT array_agg(k), array_agg(t), count(*) INTO keys, texts, total FROM sk;
	PERFORM set_config('enable_seqscan', 'off', true);
	SELECT count(*) INTO found_k FROM sk WHERE k = ANY (keys);
	SELECT count(*) INTO found_t FROM sk WHERE t = ANY (texts);
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN 2 * total - found_k - found_t;
END
$$;
-- every range's filter of both indexes, as one checksum
CREATE FUNCTION filters_md5() RETURNS text LANGUAGE sql AS $$
	SELECT md5(string_agg(i::text || r || bloom_to_bytea(bloomskip_range_filter(i, r))::text, ','
		ORDER BY i::text, r))
	FROM unnest(ARRAY['sk_k', 'sk_t']::regclass[]) i,
		LATERAL generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info(i))) r
$$;
});

my $check = q{SELECT missing(), bloomskip_check('sk_k'), bloomskip_check('sk_t')};
my $lookups = q{SET enable_seqscan = off;
SELECT string_agg(k::text, ',' ORDER BY k) FROM sk WHERE k = ANY (ARRAY[5, 19999, 25001, 44000, -1]);
SELECT count(*) FROM sk WHERE t = md5('33333')};
my $info = q{SELECT ranges, segments, bits_per_range, summarized_ranges FROM bloomskip_info('sk_k')};

is($primary->safe_psql('postgres', $check), '0|0|0', 'primary after the build: no key missing');

$primary->backup('bkp');
my $standby = PostgreSQL::Test::Cluster->new('skip_standby');
$standby->init_from_backup($primary, 'bkp', has_streaming => 1);
# the standby's checks read every index and may outlast
# max_standby_streaming_delay on a loaded machine; replay waits for them
# instead of cancelling them (what they check is the answers, not timing)
$standby->append_conf('postgresql.conf', "max_standby_streaming_delay = -1\n");
$standby->start;

# inserts streamed after the backup: into the built ranges (updates) and
# far past them (new segments)
$primary->safe_psql(
	'postgres', q{
UPDATE sk SET k = k + 100000 WHERE k % 100 = 0;
INSERT INTO sk SELECT i, md5(i::text), repeat('q', 100) FROM generate_series(20001, 45000) i;
});
$primary->wait_for_catchup($standby);

my $segments = $primary->safe_psql('postgres', q{SELECT segments FROM bloomskip_info('sk_k')});
cmp_ok($segments, '>', 1, 'the inserts added segments');
is($standby->safe_psql('postgres', $check), '0|0|0', 'standby: no key missing');
is($standby->safe_psql('postgres', $info), $primary->safe_psql('postgres', $info),
	'standby: the same metapage');
is($standby->safe_psql('postgres', 'SELECT filters_md5()'),
	$primary->safe_psql('postgres', 'SELECT filters_md5()'),
	'standby: every range filter bitwise identical');
is($standby->safe_psql('postgres', $lookups), $primary->safe_psql('postgres', $lookups),
	'standby: the same answers to lookups');

# committed inserts, then an immediate shutdown (no checkpoint): replay
# must restore every bit
$primary->safe_psql('postgres', 'CHECKPOINT');
$primary->safe_psql(
	'postgres', q{
INSERT INTO sk SELECT i, md5(i::text), repeat('r', 100) FROM generate_series(45001, 55000) i;
UPDATE sk SET t = t || 'x' WHERE k % 1000 = 1;
});
my $before = $primary->safe_psql('postgres', $lookups);
my $md5_before = $primary->safe_psql('postgres', 'SELECT filters_md5()');
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $check), '0|0|0', 'after crash recovery: no key missing');
is($primary->safe_psql('postgres', $lookups), $before, 'after crash recovery: the same answers');
is($primary->safe_psql('postgres', 'SELECT filters_md5()'), $md5_before,
	'after crash recovery: every range filter bitwise identical');

# an immediate shutdown in the middle of appends that cross range after
# range, each batch committed (some summarizations cut short by the
# crash): every committed key is found after recovery, the ranges a cut
# summarization left are read again by the next appends, and VACUUM leaves
# only the last range open
$primary->safe_psql(
	'postgres', q{
CREATE PROCEDURE appender(batches int) LANGUAGE plpgsql AS $$
BEGIN
	FOR b IN 1 .. batches LOOP
		INSERT INTO sk SELECT i, md5(i::text), repeat('s', 100)
		FROM generate_series(100000 + b * 1000, 100000 + b * 1000 + 999) i;
		COMMIT;
	END LOOP;
END
$$;
});
my $rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM sk');
my ($app_out, $app_err) = ('', '');
my $appender = IPC::Run::start(
	[ 'psql', '-X', '-d', $primary->connstr('postgres'), '-c', 'CALL appender(1000)' ],
	'>', \$app_out, '2>', \$app_err);
$primary->poll_query_until('postgres',
	"SELECT count(*) >= $rows_before + 20000 FROM sk")
  or die 'the appender did not commit its first batches';
$primary->stop('immediate');
$appender->finish;
$primary->start;
my $committed = $primary->safe_psql('postgres', 'SELECT count(*) FROM sk');
cmp_ok($committed, '>=', $rows_before + 20000, 'the batches committed before the crash survive');
is($primary->safe_psql('postgres', $check), '0|0|0', 'after a crash mid-appends: no key missing');
$primary->safe_psql('postgres', 'CALL appender(10)');
is($primary->safe_psql('postgres', $check), '0|0|0', 'after more appends: no key missing');
$primary->safe_psql('postgres', 'VACUUM sk');
is($primary->safe_psql('postgres',
		q{SELECT (SELECT open_ranges FROM bloomskip_info('sk_k')) || ',' || (SELECT open_ranges FROM bloomskip_info('sk_t'))}),
	'1,1', 'VACUUM leaves only the last range open');
is($primary->safe_psql('postgres', $check), '0|0|0', 'after VACUUM: no key missing');

# the recent segment: appends slice the staging area into a narrow segment,
# merged into the wide one once it is full.  Streamed to the standby (every
# range filter bitwise identical), and through an immediate shutdown in the
# middle of appends that merge it: no committed key is missing.
$primary->safe_psql(
	'postgres', q{
CREATE TABLE rs (k int8, pad text) WITH (autovacuum_enabled = false, fillfactor = 100);
INSERT INTO rs SELECT i, md5(i::text) FROM generate_series(1, 200000) i;
CREATE INDEX rs_k ON rs USING bloomskip (k) WITH (pages_per_range = 1);
CREATE PROCEDURE rs_appender(first int, batches int) LANGUAGE plpgsql AS $$
BEGIN
	FOR b IN first .. first + batches - 1 LOOP
		INSERT INTO rs SELECT i, md5(i::text) FROM generate_series(b * 10000 + 1, b * 10000 + 10000) i;
		COMMIT;
	END LOOP;
END
$$;
-- rows of every 13th key that a bitmap scan of rs_k does not find
CREATE FUNCTION rs_missing() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	keys int8[];
	found bigint;
BEGIN
	SELECT array_agg(k) INTO keys FROM rs WHERE k % 13 = 0;
	PERFORM set_config('enable_seqscan', 'off', true);
	SELECT count(*) INTO found FROM rs WHERE k = ANY (keys);
	PERFORM set_config('enable_seqscan', 'on', true);
	RETURN coalesce(array_length(keys, 1), 0) - found;
END
$$;
CREATE FUNCTION rs_md5() RETURNS text LANGUAGE sql AS $$
	SELECT md5(string_agg(bloom_to_bytea(bloomskip_range_filter('rs_k', r))::text, ',' ORDER BY r))
	FROM generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info('rs_k'))) r
$$;
-- the recent segment's capacity, from the metapage (docs/format.md) in
-- the index's file
CREATE FUNCTION rs_recent() RETURNS int8 LANGUAGE sql AS $$
	CHECKPOINT;
	SELECT get_byte(p, 2704) + 256 * get_byte(p, 2705) + 65536 * get_byte(p, 2706)
	FROM pg_read_binary_file(pg_relation_filepath('rs_k'), 0, 8192) p
$$;
CALL rs_appender(20, 25);
});
my $rs_check = q{SELECT rs_missing(), bloomskip_check('rs_k')};
cmp_ok($primary->safe_psql('postgres', 'SELECT rs_recent()'), '>', 0,
	'the appends added a recent segment');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $rs_check), '0|0', 'recent segment, standby: no key missing');
is($standby->safe_psql('postgres', 'SELECT rs_md5()'), $primary->safe_psql('postgres', 'SELECT rs_md5()'),
	'recent segment, standby: every range filter bitwise identical');
$rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM rs');
$appender = IPC::Run::start(
	[ 'psql', '-X', '-d', $primary->connstr('postgres'), '-c', 'CALL rs_appender(45, 100)' ],
	'>', \$app_out, '2>', \$app_err);
$primary->poll_query_until('postgres',
	"SELECT count(*) >= $rows_before + 100000 FROM rs")
  or die 'the appender did not commit its first batches';
$primary->stop('immediate');
$appender->finish;
$primary->start;
cmp_ok($primary->safe_psql('postgres', 'SELECT count(*) FROM rs'), '>=', $rows_before + 100000,
	'recent segment: the batches committed before the crash survive');
is($primary->safe_psql('postgres', $rs_check), '0|0', 'recent segment, after a crash mid-appends: no key missing');
$primary->safe_psql('postgres', 'CALL rs_appender(200, 10)');
is($primary->safe_psql('postgres', $rs_check), '0|0', 'recent segment, after more appends: no key missing');

# ranges that outgrow their filters: 10 keys a range at the build, then the
# space of deleted rows refilled with new keys; VACUUM says so
$primary->safe_psql('postgres', q{
CREATE TABLE og (k int8, pad text) WITH (autovacuum_enabled = false);
INSERT INTO og SELECT i % 10, repeat('o', 100) FROM generate_series(1, 20000) i;
CREATE INDEX og_k ON og USING bloomskip (k);
DELETE FROM og WHERE (ctid::text::point)[1]::int % 5 < 3;
VACUUM og;
INSERT INTO og SELECT 1000 + i, repeat('n', 100) FROM generate_series(1, 10000) i;
});
my ($vret, $vout, $verr) = $primary->psql('postgres', 'VACUUM og');
like($verr, qr/NOTICE:  bloomskip index "og_k": [1-9]\d* of \d+ summarized ranges have outgrown their filter size/,
	'VACUUM reports the ranges that outgrew their filters');
is($primary->safe_psql('postgres', q{SELECT outgrown_ranges > 0 FROM bloomskip_info('og_k')}),
	't', 'bloomskip_info counts them too');
is($primary->safe_psql('postgres', q{SET enable_seqscan = off;
SELECT count(*) FROM og WHERE k = ANY (ARRAY(SELECT 1000 + 10 * i FROM generate_series(1, 1000) i))}),
	'1000', 'outgrown ranges still find every key');
is($primary->safe_psql('postgres', q{SELECT bloomskip_check('og_k')}), '0', 'and bloomskip_check finds none missing');

# a damaged metapage: the magic number overwritten on disk; and the rows
# of the recent segment's first page zeroed (its first block is at byte
# 2708 of the metapage: docs/format.md)
my $path = $primary->safe_psql('postgres', q{SELECT pg_relation_filepath('sk_t')});
my $rs_path = $primary->safe_psql('postgres', q{SELECT pg_relation_filepath('rs_k')});
$primary->stop;
my $file = $primary->data_dir . '/' . $path;
open(my $fh, '+<', $file) or die "open $file: $!";
binmode $fh;
seek($fh, 24, 0) or die "seek: $!";
print $fh pack('V', 0xDEADBEEF);
close($fh);
$file = $primary->data_dir . '/' . $rs_path;
open($fh, '+<', $file) or die "open $file: $!";
binmode $fh;
my ($blk, $ret, $out, $err);
seek($fh, 2708, 0) or die "seek: $!";
read($fh, $blk, 4) == 4 or die "read: $!";
seek($fh, unpack('V', $blk) * 8192 + 24, 0) or die "seek: $!";
print $fh "\0" x 4000;
close($fh);
$primary->start;
($ret, $out, $err) = $primary->psql('postgres',
	q{\set VERBOSITY verbose
SET enable_seqscan = off;
SELECT count(*) FROM rs WHERE k = ANY (ARRAY(SELECT generate_series(1, 2000)::int8))});
like($err, qr/XX00[12]/,
	'a damaged page of the recent segment fails a scan reading it as corrupted');
($ret, $out, $err) = $primary->psql('postgres',
	q{\set VERBOSITY verbose
SET enable_seqscan = off; SELECT count(*) FROM sk WHERE t = md5('5')});
isnt($ret, 0, 'a damaged metapage fails the scan');
like($err, qr/XX00[12]/, 'with an index-corrupted or data-corrupted SQLSTATE');
($ret, $out, $err) = $primary->psql('postgres', q{SELECT bloomskip_info('sk_t')});
# (with data checksums, as 18's initdb enables them, PostgreSQL's own page
# check reports it first: "invalid page in block 0")
like($err, qr/corrupted|checksum|invalid page/, 'bloomskip_info names the corruption');
is($primary->safe_psql('postgres', q{SET enable_seqscan = off; SELECT count(*) FROM sk WHERE k = 5}),
	'1', 'the server is up and the other index answers');

done_testing();
