# bloomskip's text-search classes through WAL: text_ngram_bloomskip_ops
# (LIKE, ~, ~*), text_ngram_ci_bloomskip_ops (ILIKE, ~*) and
# tsvector_bloomskip_ops (@@).  A streaming standby answers every search as
# the primary does and as a sequential scan does; an immediate shutdown
# after committed inserts, or in the middle of appends that summarize range
# after range, loses no n-gram and no lexeme.
#
# "missing" counts, over a sample of the table's rows, the searches for a
# word of that row (one per operator and class) whose bitmap scan of the
# index does not return that row; bloomskip_check counts the
# keys whose bits are not set in their range.  Both must be 0 everywhere.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('text_primary');
$primary->init(allows_streaming => 1);
$primary->start;

# log lines in mixed case, a unique request word in each (upper case in
# every third line, so ILIKE and ~* have case to fold), the same text in
# two columns so that each n-gram class has an index of its own
$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION bloomset;
CREATE TABLE tl (k int, msg text, ci text, tv tsvector) WITH (autovacuum_enabled = false);
CREATE FUNCTION line(i int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT (ARRAY['GET', 'post', 'Put', 'DELETE'])[i % 4 + 1] || ' /api/' ||
		(ARRAY['users', 'Orders', 'ITEMS', 'Séances'])[i % 4 + 1] || ' ' ||
		(ARRAY['Error', 'ERROR', 'warn', 'Info', 'ok'])[i % 5 + 1] || ' req ' ||
		CASE WHEN i % 3 = 0 THEN upper(substr(md5(i::text), 1, 10)) ELSE substr(md5(i::text), 1, 10) END
$$;
CREATE PROCEDURE fill(lo int, hi int) LANGUAGE sql AS $$
	INSERT INTO tl SELECT i, line(i), line(i), to_tsvector('simple', line(i))
	FROM generate_series(lo, hi) i
$$;
CALL fill(1, 20000);
CREATE INDEX tl_ng ON tl USING bloomskip (msg text_ngram_bloomskip_ops) WITH (pages_per_range = 2);
CREATE INDEX tl_ci ON tl USING bloomskip (ci text_ngram_ci_bloomskip_ops);
CREATE INDEX tl_tv ON tl USING bloomskip (tv);
-- a word of high entropy a row: n-gram filters larger than a page, staged in slots
-- of several pages (no search uses it: its bits are checked)
CREATE INDEX tl_big ON tl USING bloomskip ((substr(encode(sha256(k::text::bytea), 'base64'), 1, 24)) text_ngram_bloomskip_ops);
-- the count of rows matching cond: by a bitmap scan of the indexes, or by
-- a sequential scan
CREATE FUNCTION hits(cond text, by_index boolean) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	PERFORM set_config('enable_seqscan', (NOT by_index)::text, true);
	PERFORM set_config('enable_bitmapscan', by_index::text, true);
	PERFORM set_config('enable_indexscan', 'off', true);
	EXECUTE 'SELECT count(*) FROM tl WHERE ' || cond INTO n;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	RETURN n;
END
$$;
-- whether row k is among the rows a bitmap scan of the indexes returns
-- for cond
CREATE FUNCTION found(k int, cond text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	EXECUTE 'SELECT count(*) FROM tl WHERE k = $1 AND ' || cond INTO n USING k;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'on', true);
	RETURN n > 0;
END
$$;
-- searches for the request word of every 37th row (and of the last row),
-- one per operator and class: each must find its row
CREATE FUNCTION missing() RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM (SELECT k, split_part(split_part(msg, ' req ', 2), ' ', 1) AS w FROM tl
		WHERE k % 37 = 0 OR k = (SELECT max(k) FROM tl)) r,
	LATERAL unnest(ARRAY[
		format('ci ILIKE %L', '%req ' || upper(w) || '%'),
		format('msg ~ %L', 'req ' || w || '( |$)'),
		format('msg ~* %L', '(get|post|put|delete) .* ' || lower(w)),
		format('ci ~* %L', 'req ' || lower(w)),
		format('msg LIKE %L', '%' || w || '%'),
		format('tv @@ to_tsquery(''simple'', %L)', 'req & ' || lower(w))]) c
	WHERE NOT found(r.k, c)
$$;
-- every range's filter of the three indexes, as one checksum
CREATE FUNCTION filters_md5() RETURNS text LANGUAGE sql AS $$
	SELECT md5(string_agg(i::text || r || bloom_to_bytea(bloomskip_range_filter(i, r))::text, ','
		ORDER BY i::text, r))
	FROM unnest(ARRAY['tl_ng', 'tl_ci', 'tl_tv', 'tl_big']::regclass[]) i,
		LATERAL generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info(i))) r
$$;
ANALYZE tl;
});

my $check = q{SELECT missing(), bloomskip_check('tl_ng'), bloomskip_check('tl_ci'), bloomskip_check('tl_tv'),
	bloomskip_check('tl_big')};
# fixed searches, each by the index and by the sequential scan
my @conds = (
	q{ci ILIKE '%REQ C4CA4238A0%'},
	q{ci ILIKE '%séances%'},
	q{msg ~ 'req (c4ca4238a0|eccbc87e4b)'},
	q{msg ~ '^GET /api/users'},
	q{msg ~* 'REQ C4CA4238A0'},
	q{ci ~* 'séances .* error'},
	q{msg SIMILAR TO '%req (c|e)%'},
	q{tv @@ to_tsquery('simple', 'séances & error')},
	q{tv @@ to_tsquery('simple', 'warn <-> req')},
	q{tv @@ to_tsquery('simple', 'c4ca4238a0 | eccbc87e4b')});
my $answers = join(";\n",
	map { my $c = $_ =~ s/'/''/gr; "SELECT hits('$c', true) || ' ' || hits('$c', false)" } @conds);

# the plans: each search by its class's index
my %plan = (
	q{ci ILIKE '%REQ C4CA4238A0%'} => 'tl_ci',
	q{msg ~ 'req (c4ca4238a0|eccbc87e4b)'} => 'tl_ng',
	q{msg ~* 'REQ C4CA4238A0'} => 'tl_ng',
	q{ci ~* 'séances .* error'} => 'tl_ci',
	q{tv @@ to_tsquery('simple', 'séances & error')} => 'tl_tv');
for my $c (sort keys %plan)
{
	like($primary->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT count(*) FROM tl WHERE $c"),
		qr/Bitmap Index Scan on $plan{$c}\b/, "$c: a bitmap scan of $plan{$c}");
}

is($primary->safe_psql('postgres', $check), '0|0|0|0|0', 'primary after the build: no search missing a row');
my @ans = split /\n/, $primary->safe_psql('postgres', $answers);
is(scalar(grep { my ($a, $b) = split / /; $a ne $b } @ans), 0, 'primary: every search answers as the sequential scan');
cmp_ok(scalar(grep { !/^0 / } @ans), '>=', 8, 'and most find rows');

$primary->backup('bkp');
my $standby = PostgreSQL::Test::Cluster->new('text_standby');
$standby->init_from_backup($primary, 'bkp', has_streaming => 1);
# the standby's checks read every index and may outlast
# max_standby_streaming_delay on a loaded machine; replay waits for them
# instead of cancelling them (what they check is the answers, not timing)
$standby->append_conf('postgresql.conf', "max_standby_streaming_delay = -1\n");
$standby->start;

# rows streamed after the backup: updates into the built ranges and appends
# far past them (new segments)
$primary->safe_psql(
	'postgres', q{
UPDATE tl SET msg = msg || ' Retried', ci = ci || ' Retried', tv = tv || to_tsvector('simple', 'retried')
WHERE k % 50 = 0;
CALL fill(20001, 45000);
});
$primary->wait_for_catchup($standby);

my $segments = $primary->safe_psql('postgres', q{SELECT segments FROM bloomskip_info('tl_ng')});
is($primary->safe_psql('postgres', q{SELECT bits_per_range / 8 > 8192 AND staged_ranges > 0 FROM bloomskip_info('tl_big')}),
	't', 'a filter larger than a page is staged');
cmp_ok($segments, '>', 1, 'the inserts added segments');
is($standby->safe_psql('postgres', $check), '0|0|0|0|0', 'standby: no search missing a row');
is($standby->safe_psql('postgres', 'SELECT filters_md5()'),
	$primary->safe_psql('postgres', 'SELECT filters_md5()'),
	'standby: every range filter bitwise identical');
is($standby->safe_psql('postgres', $answers), $primary->safe_psql('postgres', $answers),
	'standby: the same answers as the primary');
@ans = split /\n/, $standby->safe_psql('postgres', $answers);
is(scalar(grep { my ($a, $b) = split / /; $a ne $b } @ans), 0, 'standby: every search answers as the sequential scan');
is($standby->safe_psql('postgres', q{SELECT hits('ci ILIKE ''%retried%''', true)}), '400',
	'standby: the updated rows are found');

# committed inserts, then an immediate shutdown (no checkpoint): replay
# must restore every bit
$primary->safe_psql('postgres', 'CHECKPOINT');
$primary->safe_psql(
	'postgres', q{
CALL fill(45001, 55000);
UPDATE tl SET msg = msg || ' Final', ci = ci || ' Final', tv = tv || to_tsvector('simple', 'final')
WHERE k % 1000 = 1;
});
my $before = $primary->safe_psql('postgres', $answers);
my $md5_before = $primary->safe_psql('postgres', 'SELECT filters_md5()');
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $check), '0|0|0|0|0', 'after crash recovery: no search missing a row');
is($primary->safe_psql('postgres', $answers), $before, 'after crash recovery: the same answers');
is($primary->safe_psql('postgres', 'SELECT filters_md5()'), $md5_before,
	'after crash recovery: every range filter bitwise identical');
is($primary->safe_psql('postgres', q{SELECT hits('tv @@ ''final''::tsquery', true) || ' ' || hits('msg ~ ''Final$''', true)}),
	'55 55', 'after crash recovery: the updated rows are found');

# an immediate shutdown in the middle of appends that cross range after
# range, each batch committed: every committed row is found after recovery
$primary->safe_psql(
	'postgres', q{
CREATE PROCEDURE appender(batches int) LANGUAGE plpgsql AS $$
BEGIN
	FOR b IN 1 .. batches LOOP
		CALL fill(100000 + b * 1000, 100000 + b * 1000 + 999);
		COMMIT;
	END LOOP;
END
$$;
});
my $rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM tl');
my ($app_out, $app_err) = ('', '');
my $appender = IPC::Run::start(
	[ 'psql', '-X', '-d', $primary->connstr('postgres'), '-c', 'CALL appender(1000)' ],
	'>', \$app_out, '2>', \$app_err);
$primary->poll_query_until('postgres',
	"SELECT count(*) >= $rows_before + 15000 FROM tl")
  or die 'the appender did not commit its first batches';
$primary->stop('immediate');
$appender->finish;
$primary->start;
my $committed = $primary->safe_psql('postgres', 'SELECT count(*) FROM tl');
cmp_ok($committed, '>=', $rows_before + 15000, 'the batches committed before the crash survive');
is($primary->safe_psql('postgres', $check), '0|0|0|0|0', 'after a crash mid-appends: no search missing a row');
$primary->safe_psql('postgres', 'CALL appender(5)');
$primary->safe_psql('postgres', 'VACUUM tl');
is($primary->safe_psql('postgres', $check), '0|0|0|0|0', 'after more appends and VACUUM: no search missing a row');
@ans = split /\n/, $primary->safe_psql('postgres', $answers);
is(scalar(grep { my ($a, $b) = split / /; $a ne $b } @ans), 0, 'every search answers as the sequential scan');

# a staged slot of two pages damaged on its second page: an error, not an
# answer from the slot's wrong bits (XX002, the slot's checksum; XX001 where
# the cluster has data checksums, as initdb gives from PostgreSQL 18 on)
my $batch = 0;
while ($primary->safe_psql('postgres', q{SELECT staged_ranges FROM bloomskip_info('tl_big')}) == 0 && $batch < 20)
{
	$primary->safe_psql('postgres', 'CALL fill(300000 + ' . $batch * 2000 . ', 300000 + ' . ($batch * 2000 + 1999) . ')');
	$batch++;
}
my $big = $primary->data_dir . '/'
  . $primary->safe_psql('postgres', q{SELECT pg_relation_filepath('tl_big')});
$primary->stop;
open(my $fh, '+<:raw', $big) or die "open $big: $!";
sysseek($fh, 2 * 8192 + 24 + 200, 0) or die "seek: $!";
syswrite($fh, "\0" x 64) == 64 or die "write: $!";
close($fh);
$primary->start;
my ($rc, $out, $err) = $primary->psql('postgres', "\\set VERBOSITY verbose\nSELECT bloomskip_check('tl_big')");
like($err, qr/XX002.*index "tl_big" is corrupted|XX001.*invalid page in block 2/s,
	'a damaged page of a two-page staging slot: an error');

done_testing();
