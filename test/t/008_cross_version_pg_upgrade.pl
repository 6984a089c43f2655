# pg_upgrade from PostgreSQL 15 (BLOOMSET_OLD_INSTALL) to the server whose
# TAP modules run this test (17 or 18) of a cluster holding filters of every
# kind (test/upgrade/all_kinds.sql: both bloom layouts, counting, scalable,
# n-gram, token, enum, domain, a nondeterministic ICU collation; and the
# BloomsetTest fixture with a TOASTed filter): database "cur" at the default
# extension version, database "v10" at extension version 1.0, updated with
# ALTER EXTENSION ... UPDATE after the server upgrade.  Every filter must be
# bit-identical afterwards and answer every probe identically.  bloomskip
# indexes (database "cur": several operator classes, the search classes --
# n-gram, case-folded n-gram, tsvector, array, jsonb --, multicolumn, rows added
# after the build so that some ranges are open, staged and sliced) must
# keep their pages and answer as before and as the sequential scan, and
# take new rows on the new server.
# Run by scripts/test.sh (cross-15-NN); skipped without BLOOMSET_OLD_INSTALL.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'cross-version test: needs BLOOMSET_OLD_INSTALL (run by scripts/test.sh)'
  unless $ENV{BLOOMSET_OLD_INSTALL};

use BloomsetTest;

# Debian's PostgreSQL 15.20 (a security release) keeps an internal column
# option pg_attver in every pg_attribute.attoptions; its own pg_dump leaves
# it out, but pg_dump of a release that does not know it (17.11, 18.6 here)
# dumps it as an ordinary column option, and that server then rejects it
# ("unrecognized parameter "pg_attver""), which breaks pg_dump/pg_restore
# with the new pg_dump and pg_upgrade for every table, with or without
# bloomset.  True when the old cluster has the option and the new server
# rejects it.
sub pg_attver_skew
{
	my ($old, $new) = @_;
	my $has = $old->safe_psql('postgres',
		q{SELECT count(*) > 0 FROM pg_attribute WHERE attoptions::text LIKE '%pg_attver=%'});
	return 0 unless $has eq 't';
	my ($rc) = $new->psql('postgres',
		'CREATE TEMP TABLE attver_probe (a int); ALTER TABLE attver_probe ALTER COLUMN a SET (pg_attver=1)');
	return $rc != 0;
}

# the bloomskip indexes of database "cur"
my $skip_setup = q{
CREATE TABLE skt (k int8, t text, n numeric, u uuid, d date, pad text) WITH (autovacuum_enabled = false);
INSERT INTO skt SELECT i, md5(i::text), i / 7.0, md5(i::text)::uuid, date '2000-01-01' + i % 5000,
	repeat('p', 60) FROM generate_series(1, 30000) i;
CREATE INDEX skt_k ON skt USING bloomskip (k) WITH (pages_per_range = 2);
CREATE INDEX skt_tn ON skt USING bloomskip (t, n);
CREATE INDEX skt_ud ON skt USING bloomskip (u, d) WITH (pages_per_range = 4);
INSERT INTO skt SELECT i, md5(i::text), i / 7.0, md5(i::text)::uuid, date '2000-01-01' + i % 5000,
	repeat('q', 60) FROM generate_series(30001, 60000) i;
CREATE TABLE skx (i int, msg text, tags text[], attrs jsonb, tsv tsvector) WITH (autovacuum_enabled = false);
INSERT INTO skx SELECT * FROM skx_rows(1, 20000);
CREATE INDEX skx_msg ON skx USING bloomskip (msg text_ngram_bloomskip_ops);
CREATE INDEX skx_msg_ci ON skx USING bloomskip (msg text_ngram_ci_bloomskip_ops);
CREATE INDEX skx_tsv ON skx USING bloomskip (tsv);
CREATE INDEX skx_tags ON skx USING bloomskip (tags);
CREATE INDEX skx_attrs ON skx USING bloomskip (attrs);
INSERT INTO skx SELECT * FROM skx_rows(20001, 40000);
};
# the rows of the search classes' table: log lines, tags, attributes
my $skx_rows = q{
CREATE FUNCTION skx_rows(a int, b int) RETURNS TABLE (i int, msg text, tags text[], attrs jsonb, tsv tsvector)
LANGUAGE sql IMMUTABLE AS $$
SELECT g, 'line ' || md5(g::text) || ' Word' || (g % 1000), ARRAY['t' || (g % 500), 'id' || g],
	jsonb_build_object('k' || (g % 40), g, 'svc', 's' || (g % 7)),
	to_tsvector('simple', 'w' || (g % 3000) || ' x' || md5(g::text))
FROM generate_series(a, b) g
$$;
};
my $skip_queries = q{
SELECT 'k ' || count(*) FROM skt WHERE k = ANY (ARRAY(SELECT k FROM skt WHERE k % 97 = 0) || '{-1,70000}'::int8[]);
SELECT 'k4 ' || count(*) FROM skt WHERE k = 44444::int4;
SELECT 't ' || count(*) FROM skt WHERE t = ANY (ARRAY(SELECT t FROM skt WHERE k % 89 = 0));
SELECT 'n ' || count(*) FROM skt WHERE n = ANY (ARRAY(SELECT n FROM skt WHERE k % 83 = 0));
SELECT 'u ' || count(*) FROM skt WHERE u = ANY (ARRAY(SELECT u FROM skt WHERE k % 79 = 0));
SELECT 'd ' || count(*) FROM skt WHERE d = date '2003-05-05';
SELECT 'check ' || bloomskip_check('skt_k') || bloomskip_check('skt_tn') || bloomskip_check('skt_ud');
SELECT 'like ' || count(*) FROM skx WHERE msg LIKE '%Word777';
SELECT 'ilike ' || count(*) FROM skx WHERE msg ILIKE '%word123';
SELECT 're ' || count(*) FROM skx WHERE msg ~ 'Word(12|34)5$';
SELECT 'rei ' || count(*) FROM skx WHERE msg ~* 'WORD99[0-9]$';
SELECT 'ts ' || count(*) FROM skx WHERE tsv @@ to_tsquery('simple', 'w1234');
SELECT 'tags ' || count(*) FROM skx WHERE tags @> ARRAY['t77'];
SELECT 'tags2 ' || count(*) FROM skx WHERE tags && ARRAY['id5', 'id30005', 'id55555'];
SELECT 'key ' || count(*) FROM skx WHERE attrs ? 'k13';
SELECT 'pair ' || count(*) FROM skx WHERE attrs @> '{"svc": "s3", "k5": 45}';
SELECT 'check ' || bloomskip_check('skx_msg') || bloomskip_check('skx_msg_ci') || bloomskip_check('skx_tsv')
	|| bloomskip_check('skx_tags') || bloomskip_check('skx_attrs');
};
my $skip_filters = q{
SELECT md5(string_agg(i::text || ':' || r || ':' || bloom_to_bytea(bloomskip_range_filter(i, r))::text, ','
	ORDER BY i::text, r)) || ' ' || string_agg(DISTINCT i::text || (SELECT x::text FROM bloomskip_info(i) x), ',')
FROM unnest(ARRAY['skt_k', 'skt_tn', 'skt_ud', 'skx_msg', 'skx_msg_ci', 'skx_tsv', 'skx_tags',
	'skx_attrs']::regclass[]) i,
	LATERAL generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info(i))) r
};
# the answers of the bloomskip indexes (bitmap scans only) or of the
# sequential scan
sub skip_answers
{
	my ($node, $how) = @_;
	my $set = $how eq 'index'
	  ? 'SET enable_seqscan = off; SET enable_indexscan = off; SET client_min_messages = warning;'
	  : 'SET enable_bitmapscan = off; SET client_min_messages = warning;';
	return $node->safe_psql('cur', $set . $skip_queries);
}

my $fixtures = $ENV{BLOOMSET_FIXTURES} // "$FindBin::RealBin/../upgrade";
my %sql = map { $_ => slurp_file("$fixtures/$_.sql") } qw(all_kinds fingerprints answers);

my $old = PostgreSQL::Test::Cluster->new('old15',
	install_path => $ENV{BLOOMSET_OLD_INSTALL});
my $new = PostgreSQL::Test::Cluster->new('new');
$old->init;
# pg_upgrade needs matching checksum settings: 18 enables them by default
$new->init(no_data_checksums => 1);
my ($oldv, $newv) = ($old->pg_version, $new->pg_version);
# Programs by absolute path: IPC::Run caches where it found a program name,
# so a bare 'pg_dump' would run whichever version was run first.
my $oldbin = "$ENV{BLOOMSET_OLD_INSTALL}/bin";
my $newbin = $new->config_data('--bindir');
note "old server $oldv, new server $newv";

$old->start;
$new->start;	# for pg_attver_skew only
$old->safe_psql('postgres', 'CREATE DATABASE cur');
$old->safe_psql('postgres', 'CREATE DATABASE v10');
$old->safe_psql('cur', $SCHEMA_SQL . $POPULATE_SQL);
$old->safe_psql('cur', $sql{all_kinds});
$old->safe_psql('v10', q{CREATE EXTENSION bloomset VERSION '1.0'});
$old->safe_psql('v10', $sql{all_kinds});
my $default = $old->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'bloomset'});
my $extversion = q{SELECT extversion FROM pg_extension WHERE extname = 'bloomset'};

my (%fp, %ans);
for my $db (qw(cur v10))
{
	$fp{$db}  = $old->safe_psql($db, $sql{fingerprints});
	$ans{$db} = $old->safe_psql($db, $sql{answers});
	my @ans = split /\n/, $ans{$db};
	cmp_ok(scalar(@ans), '>=', 20, "$db on $oldv: every kind of filter probed");
	is(join(' ', grep { (split / /)[3] ne '0' } @ans), '', "$db on $oldv: no false negatives");
}
my $bt_old = fingerprints($old, 'cur');
$old->safe_psql('cur', $skx_rows . $skip_setup);
my $skip_old = skip_answers($old, 'index');
my $skip_filters_old = $old->safe_psql('cur', $skip_filters);
is($skip_old, skip_answers($old, 'seq'), "bloomskip on $oldv: the index answers as the sequential scan");
like($old->safe_psql('cur', 'SELECT staged_ranges || \',\' || open_ranges FROM bloomskip_info(\'skt_k\')'),
	qr/^[1-9]\d*,1$/, "bloomskip on $oldv: some ranges staged, the last open");

# With the pg_attver skew (see pg_attver_skew) pg_upgrade cannot restore
# any table's schema.  Work around PostgreSQL's problem, not bloomset's:
# drop the option from the old cluster's user columns (a catalog update;
# the filters' data files are untouched) and say so.
if (pg_attver_skew($old, $new))
{
	note "pg_attver skew between $oldv and $newv: dropping pg_attver from the old cluster's user columns";
	for my $db (qw(postgres template1 cur v10))
	{
		$old->safe_psql($db, q{
UPDATE pg_attribute
   SET attoptions = nullif(array(SELECT o FROM unnest(attoptions) o WHERE o NOT LIKE 'pg_attver=%'), '{}')
 WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg_attver=%'});
	}
	is($old->safe_psql('cur', $sql{fingerprints}), $fp{cur},
		'cur: filters unchanged by the pg_attver workaround');
}
$old->stop;
$new->stop;

# pg_upgrade writes its logs into the new data directory and the working
# directory: run it from a scratch directory
use File::Spec;
my ($olddata, $newdata) = map { File::Spec->rel2abs($_) } ($old->data_dir, $new->data_dir);
use Cwd;
my $cwd = getcwd();
my $tmp = PostgreSQL::Test::Utils::tempdir;
chdir $tmp or die "chdir $tmp: $!";
my @upgrade = (
	"$newbin/pg_upgrade", '--no-sync',
	'-d', $olddata, '-D', $newdata,
	'-b', $oldbin, '-B', $newbin,
	'-s', $new->host, '-p', $old->port, '-P', $new->port, '--copy');
$new->command_ok([ @upgrade, '--check' ], "pg_upgrade --check $oldv -> $newv");
$new->command_ok([@upgrade], "pg_upgrade $oldv -> $newv")
  or do
{
	for my $f (glob("$newdata/pg_upgrade_output.d/*/log/*.log"), glob("$tmp/*.txt"))
	{
		diag("---- $f\n" . slurp_file($f));
	}
};
chdir $cwd or die "chdir $cwd: $!";
$new->start;

is($new->safe_psql('cur', $extversion), $default, "cur: extension version $default kept");
is($new->safe_psql('v10', $extversion), '1.0', 'v10: extension version 1.0 kept');
for my $db (qw(cur v10))
{
	is($new->safe_psql($db, $sql{fingerprints}), $fp{$db},
		"$db: every filter of every kind bit-identical after pg_upgrade to $newv");
	is($new->safe_psql($db, $sql{answers}), $ans{$db},
		"$db: every filter answers every probe identically after pg_upgrade to $newv");
}
check_same_filters(fingerprints($new, 'cur'), $bt_old, "pg_upgrade to $newv");
check_no_false_negatives($new, 'cur', "pg_upgrade to $newv");
check_recompute($new, 'cur', "pg_upgrade to $newv");
is($new->safe_psql('cur', $skip_filters), $skip_filters_old,
	"bloomskip: every range filter and the indexes' parameters the same after pg_upgrade to $newv");
is(skip_answers($new, 'index'), $skip_old, "bloomskip: the same answers after pg_upgrade to $newv");
like($new->safe_psql('cur', 'SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM skt WHERE k = 5'),
	qr/Bitmap Index Scan on skt_k/, "bloomskip: used by the planner on $newv");
$new->safe_psql('cur', q{INSERT INTO skt SELECT i, md5(i::text), i / 7.0, md5(i::text)::uuid,
	date '2000-01-01' + i % 5000, repeat('r', 60) FROM generate_series(60001, 90000) i;
	INSERT INTO skx SELECT * FROM skx_rows(40001, 60000)});
is(skip_answers($new, 'index'), skip_answers($new, 'seq'),
	"bloomskip: rows added on $newv found as the sequential scan finds them");

# then the extension update, on the new server
$new->safe_psql('v10', 'ALTER EXTENSION bloomset UPDATE');
is($new->safe_psql('v10', $extversion), $default, "v10: updated to $default on $newv");
is($new->safe_psql('v10', $sql{fingerprints}), $fp{v10},
	'v10: filters bit-identical after pg_upgrade and ALTER EXTENSION UPDATE');
is($new->safe_psql('v10', $sql{answers}), $ans{v10},
	'v10: filters answer identically after pg_upgrade and ALTER EXTENSION UPDATE');

$new->stop;
done_testing();
