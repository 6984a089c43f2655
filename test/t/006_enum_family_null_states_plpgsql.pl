# Three things that once went wrong, each checked here: an enum filter's
# element family does not depend on search_path (pg_restore rebuilds it
# bitwise identical), combining partial states keeps the family when some
# states saw only NULLs, and large filters passed as PL/pgSQL variables are
# not cached as if constant.  What each bug was:
#
# 1. The element family of an enum filter is "enum:" || format_type_be(type),
#    which schema-qualifies the type name when it is not visible in the
#    search_path.  pg_restore runs with search_path = '', so a materialized
#    view (or a stored generated column) computing bloom_agg over an enum is
#    rebuilt with family "enum:public.mood" instead of "enum:mood": not
#    bitwise identical, and probing it with a mood value fails with "a value
#    of type mood cannot be used with a bloom filter of element family".
#
# 2. bloom_agg_combine only reconciles the element family when one of the
#    states has ti_valid set, but bloom_agg_deserial never sets it.  When the
#    first partial state reaching the finalize step saw only NULLs (empty
#    family), the result is a filter with bits set but an empty family:
#    bloom_contains answers false for every value (false negatives), and the
#    value's text form is rejected by bloom_in ("A filter without an element
#    family must have no items"), so a table holding it cannot be restored.
#    Reproduced deterministically with partitionwise partial aggregation;
#    parallel aggregation should hit it whenever the first partial state to
#    arrive comes from a participant that saw only NULLs.
#
# 3. bloom_from_datum_cached keeps a copy of a filter of 4 MiB or more whose
#    argument is "stable" (get_fn_expr_arg_stable: a Const or a PARAM_EXTERN
#    Param) for the whole life of the call site.  PL/pgSQL evaluates simple
#    expressions with one expression state per transaction, and its
#    variables are PARAM_EXTERN Params whose values change between
#    evaluations: in a loop, f @> v keeps probing the first filter it saw,
#    so later filters give false negatives.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('bugs');
$node->init;
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql(
	'src', q{
CREATE EXTENSION bloomset;
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE e (m mood);
INSERT INTO e SELECT (enum_range(NULL::mood))[1 + g % 3] FROM generate_series(1, 30) g;
CREATE MATERIALIZED VIEW mv AS SELECT bloom_agg(m) AS f FROM e;
});

my $tmp = PostgreSQL::Test::Utils::tempdir;
$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/src.dump", '-d', 'src' ],
	'pg_dump of a database with an enum filter in a materialized view');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'dst', "$tmp/src.dump" ],
	'pg_restore of it');

my $fp = q{SELECT (bloom_info(f)).element_family || ' ' || md5(bloom_to_bytea(f)) FROM mv};
my $src_fp = $node->safe_psql('src', $fp);
my $dst_fp = $node->safe_psql('dst', $fp);
my ($ret, $probe, $err) =
  $node->psql('dst', q{SELECT count(*) FILTER (WHERE NOT f @> m) FROM mv, e});

{
	is($dst_fp, $src_fp,
		'a materialized view over an enum is bitwise identical after pg_restore');
	ok($ret == 0 && $probe eq '0',
		'the restored materialized view can be probed with no false negatives')
	  or diag("psql: $err");
}

# partitionwise partial aggregation, first partition all NULL
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION bloomset;
CREATE TABLE p (k int, g int, x int) PARTITION BY LIST (k);
CREATE TABLE p1 PARTITION OF p FOR VALUES IN (1);
CREATE TABLE p2 PARTITION OF p FOR VALUES IN (2);
INSERT INTO p SELECT 1, 1, NULL FROM generate_series(1, 1000);
INSERT INTO p SELECT 2, 1, g FROM generate_series(1, 1000) g;
ANALYZE p;
});
my $q = q{
SET enable_partitionwise_aggregate = on;
CREATE TABLE agg AS SELECT g, bloom_agg(x) AS f, bloom_agg(x, 1000, 0.01) AS fs FROM p GROUP BY g;
SELECT (SELECT count(*) FROM p, agg WHERE p.x IS NOT NULL AND NOT agg.f @> p.x) || ' ' ||
       (SELECT count(*) FROM p, agg WHERE p.x IS NOT NULL AND NOT agg.fs @> p.x);
};
my $plan = $node->safe_psql('postgres',
	q{SET enable_partitionwise_aggregate = on; EXPLAIN (COSTS OFF) SELECT g, bloom_agg(x) FROM p GROUP BY g});
like($plan, qr/Partial HashAggregate/, 'the query uses partial aggregation');
my $missing = $node->safe_psql('postgres', $q);
($ret, undef, $err) = $node->psql('postgres', q{SELECT f::text::bloom, fs::text::bloom FROM agg});

{
	is($missing, '0 0',
		'partial aggregation with an all-NULL first partition: zero false negatives');
	is($ret, 0, 'its result survives a text round trip (dump/restore)')
	  or diag("psql: $err");
}

# a large filter in a PL/pgSQL variable that changes inside a loop
$node->safe_psql(
	'postgres', q{
CREATE FUNCTION probe_loop() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	f bloom;
	r text := '';
BEGIN
	FOR i IN 1..3 LOOP
		f := bloom_empty(4000000, 0.01) || i;	-- about 5 MB
		r := r || (f @> i)::text || ' ';
	END LOOP;
	RETURN r;
END $$;
});
my $loop = $node->safe_psql('postgres', 'SELECT probe_loop()');

{
	is($loop, 'true true true ',
		'PL/pgSQL loop over large filters in a variable: zero false negatives');
}

$node->stop;
done_testing();
