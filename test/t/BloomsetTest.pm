# BloomsetTest.pm -- shared fixtures of the bloomset durability TAP tests.
#
# The fixture is a set of source tables (int, text, an enum, a domain over
# int) and a table "filters" holding filters of every kind: automatically
# sized, sized (one of them ~120 kB, so it is stored out of line in TOAST),
# explicit classic, built with ||, an empty one, a union of two sizes and a
# NULL.  The tests compare a fingerprint of every filter (md5 of its binary
# send form and of its text form, and its length) before and after a trip
# through dump/restore, COPY, crash recovery or replication, and count the
# source values a filter no longer contains (must be 0).

package BloomsetTest;

use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;
use Exporter 'import';

our @EXPORT = qw(
  $SCHEMA_SQL $POPULATE_SQL $MORE_SQL
  fingerprints check_same_filters missing_members check_no_false_negatives
  toast_rows check_recompute);

# Objects only (also run on a logical replication subscriber).
our $SCHEMA_SQL = q{
CREATE EXTENSION bloomset;
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE TABLE src_int (x integer);
CREATE TABLE src_text (t text);
CREATE TABLE src_enum (m mood);
CREATE TABLE src_dom (d posint);
CREATE TABLE src_time (t timestamptz, d date, x xid8);
CREATE TABLE filters (id integer PRIMARY KEY, name text NOT NULL, f bloom);
};

# The data.  Every filter's definition is kept in "recipes" so that a test
# can rebuild it from the source tables and compare (check_recompute).
our $POPULATE_SQL = q{
INSERT INTO src_int SELECT g FROM generate_series(1, 50000) g;
INSERT INTO src_text SELECT 'key-' || g FROM generate_series(1, 2000) g;
INSERT INTO src_enum SELECT (enum_range(NULL::mood))[1 + g % 4] FROM generate_series(1, 400) g;
INSERT INTO src_dom SELECT g * 7 FROM generate_series(1, 3000) g;
-- types whose hash support PostgreSQL 18 split into functions of their own
-- (their filters must hash alike on every version)
INSERT INTO src_time SELECT '2001-02-03 04:05:06+00'::timestamptz + g * interval '71 minutes 3 seconds',
  date '1990-01-01' + g, ((g::bigint << 32) + g)::text::xid8 FROM generate_series(1, 2000) g;
INSERT INTO filters VALUES
  (1, 'int_sized_toasted', (SELECT bloom_agg(x, 100000, 0.01) FROM src_int)),
  (2, 'int_auto',          (SELECT bloom_agg(x) FROM src_int)),
  (3, 'text_auto',         (SELECT bloom_agg(t) FROM src_text)),
  (4, 'enum_auto',         (SELECT bloom_agg(m) FROM src_enum)),
  (5, 'enum_sized',        (SELECT bloom_agg(m, 10, 0.01) FROM src_enum)),
  (6, 'domain_auto',       (SELECT bloom_agg(d) FROM src_dom)),
  (7, 'domain_classic',    (SELECT bloom_agg(d, 5000, 0.00001) FROM src_dom)),
  (8, 'int_explicit',      (SELECT bloom_agg(x, 4096, 5, 42) FROM src_int WHERE x <= 1000)),
  (9, 'text_added',        bloom_empty(100, 0.01) || 'alpha'::text || 'beta'::text),
  (10, 'empty',            bloom_empty(1000, 0.01)),
  (11, 'int_union',        (SELECT bloom_agg(x) FROM src_int WHERE x <= 100)
                           | (SELECT bloom_agg(x) FROM src_int WHERE x > 45000)),
  (12, 'null',             NULL),
  (13, 'enum_small_add',   bloom_empty(10, 0.01) || 'happy'::mood || 'meh'::mood),
  (14, 'timestamptz_auto', (SELECT bloom_agg(t) FROM src_time)),
  (15, 'date_sized',       (SELECT bloom_agg(d, 5000, 0.01) FROM src_time)),
  (16, 'xid8_classic',     (SELECT bloom_agg(x, 4000, 0.00001) FROM src_time));
};

# Rows written later (after a backup, a checkpoint, a subscription ...).
our $MORE_SQL = q{
INSERT INTO filters VALUES
  (20, 'late_int_toasted', (SELECT bloom_agg(x, 100000, 0.01) FROM src_int WHERE x % 2 = 0)),
  (21, 'late_enum',        (SELECT bloom_agg(m) FROM src_enum WHERE m <> 'sad')),
  (22, 'late_domain',      (SELECT bloom_agg(d, 3000, 0.01) FROM src_dom));
UPDATE filters SET f = f || 123456789 WHERE id = 1;
UPDATE filters SET f = f || 'gamma'::text WHERE id = 9;
UPDATE filters SET f = bloom_union(f, (SELECT bloom_agg(x) FROM src_int WHERE x BETWEEN 200 AND 300)) WHERE id = 11;
DELETE FROM filters WHERE id = 10;
};

# Fingerprint of every filter, one line per row:
#   id name md5(send form) md5(text form) length(send form) items
sub fingerprints
{
	my ($node, $db, $table) = @_;
	$table //= 'filters';
	return $node->safe_psql(
		$db, qq{
SELECT id || ' ' || name || ' ' ||
       coalesce(md5(bloom_to_bytea(f)) || ' ' || md5(f::text) || ' ' ||
                length(bloom_to_bytea(f)) || ' ' || (bloom_info(f)).items,
                'NULL')
  FROM $table ORDER BY id});
}

# Assert that two fingerprint listings are identical (and not trivial).
sub check_same_filters
{
	my ($got, $expected, $what) = @_;
	my @lines = split /\n/, $expected;
	cmp_ok(scalar(@lines), '>=', 10, "$what: fingerprint covers the filters");
	is($got, $expected, "$what: every filter is bitwise identical");
}

# Source values a filter does not contain, per filter ("name=N ...").
sub missing_members
{
	my ($node, $db, $table) = @_;
	$table //= 'filters';
	return $node->safe_psql(
		$db, qq{
WITH fl AS (SELECT id, f FROM $table)
SELECT string_agg(name || '=' || missing, ' ' ORDER BY name) FROM (
  SELECT 'int_sized_toasted' AS name, count(*) FILTER (WHERE NOT f \@> x) AS missing
    FROM src_int, fl WHERE id = 1
  UNION ALL
  SELECT 'int_auto', count(*) FILTER (WHERE NOT f \@> x) FROM src_int, fl WHERE id = 2
  UNION ALL
  SELECT 'text_auto', count(*) FILTER (WHERE NOT f \@> t) FROM src_text, fl WHERE id = 3
  UNION ALL
  SELECT 'enum_auto', count(*) FILTER (WHERE NOT f \@> m) FROM src_enum, fl WHERE id = 4
  UNION ALL
  SELECT 'enum_sized', count(*) FILTER (WHERE NOT f \@> m) FROM src_enum, fl WHERE id = 5
  UNION ALL
  SELECT 'domain_auto', count(*) FILTER (WHERE NOT f \@> d) FROM src_dom, fl WHERE id = 6
  UNION ALL
  SELECT 'domain_classic', count(*) FILTER (WHERE NOT f \@> d) FROM src_dom, fl WHERE id = 7
  UNION ALL
  SELECT 'domain_as_int', count(*) FILTER (WHERE NOT f \@> d::integer) FROM src_dom, fl WHERE id = 6
  UNION ALL
  SELECT 'int_explicit', count(*) FILTER (WHERE NOT f \@> x) FROM src_int, fl WHERE id = 8 AND x <= 1000
  UNION ALL
  SELECT 'text_added', count(*) FILTER (WHERE NOT f \@> v) FROM (VALUES ('alpha'), ('beta')) v(v), fl WHERE id = 9
  UNION ALL
  SELECT 'int_union', count(*) FILTER (WHERE NOT f \@> x) FROM src_int, fl WHERE id = 11 AND (x <= 100 OR x > 45000)
  UNION ALL
  SELECT 'enum_small_add', count(*) FILTER (WHERE NOT f \@> v) FROM (VALUES ('happy'::mood), ('meh')) v(v), fl WHERE id = 13
  UNION ALL
  SELECT 'timestamptz_auto', count(*) FILTER (WHERE NOT f \@> t) FROM src_time, fl WHERE id = 14
  UNION ALL
  SELECT 'date_sized', count(*) FILTER (WHERE NOT f \@> d) FROM src_time, fl WHERE id = 15
  UNION ALL
  SELECT 'xid8_classic', count(*) FILTER (WHERE NOT f \@> x) FROM src_time, fl WHERE id = 16
  UNION ALL
  SELECT 'enum_probe_labels', count(*) FILTER (WHERE NOT f \@> v) FROM unnest('{sad,meh,ok,happy}'::mood[]) v, fl WHERE id = 4
) s});
}

# Assert that no source value is missing from its filter.
sub check_no_false_negatives
{
	my ($node, $db, $what, $table) = @_;
	my $res = missing_members($node, $db, $table);
	my @bad = grep { !/=0$/ } split / /, $res;
	ok(@bad == 0 && $res =~ /enum_auto=0/ && $res =~ /domain_auto=0/,
		"$what: zero false negatives")
	  or diag("missing members: $res");
}

# Number of chunks in the TOAST table of a table.
sub toast_rows
{
	my ($node, $db, $table) = @_;
	my $toast = $node->safe_psql($db,
		qq{SELECT reltoastrelid::regclass FROM pg_class WHERE oid = '$table'::regclass});
	return $node->safe_psql($db, "SELECT count(*) FROM $toast");
}

# Rebuild the aggregate filters from the source tables and compare them with
# the stored ones (checks that hashing does not depend on OIDs).
sub check_recompute
{
	my ($node, $db, $what) = @_;
	my $res = $node->safe_psql(
		$db, q{
WITH r(id, f) AS (
  SELECT 1, (SELECT bloom_agg(x, 100000, 0.01) FROM src_int) UNION ALL
  SELECT 2, (SELECT bloom_agg(x) FROM src_int) UNION ALL
  SELECT 3, (SELECT bloom_agg(t) FROM src_text) UNION ALL
  SELECT 4, (SELECT bloom_agg(m) FROM src_enum) UNION ALL
  SELECT 5, (SELECT bloom_agg(m, 10, 0.01) FROM src_enum) UNION ALL
  SELECT 6, (SELECT bloom_agg(d) FROM src_dom) UNION ALL
  SELECT 7, (SELECT bloom_agg(d, 5000, 0.00001) FROM src_dom) UNION ALL
  SELECT 8, (SELECT bloom_agg(x, 4096, 5, 42) FROM src_int WHERE x <= 1000) UNION ALL
  SELECT 13, bloom_empty(10, 0.01) || 'happy'::mood || 'meh'::mood UNION ALL
  SELECT 14, (SELECT bloom_agg(t) FROM src_time) UNION ALL
  SELECT 15, (SELECT bloom_agg(d, 5000, 0.01) FROM src_time) UNION ALL
  SELECT 16, (SELECT bloom_agg(x, 4000, 0.00001) FROM src_time))
SELECT string_agg(r.id || ':' || (bloom_to_bytea(r.f) = bloom_to_bytea(s.f)), ' ' ORDER BY r.id)
  FROM r JOIN filters s USING (id)});
	is($res, '1:true 2:true 3:true 4:true 5:true 6:true 7:true 8:true 13:true 14:true 15:true 16:true',
		"$what: filters rebuilt from the source rows are identical to the stored ones");
}

1;
