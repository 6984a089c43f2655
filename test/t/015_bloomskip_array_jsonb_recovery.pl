# bloomskip's array and jsonb classes through WAL: a streaming standby
# answers @>, && and = on arrays and ?, ?|, ?& and @> on jsonb as the
# primary does (the build's page images, the generic WAL of inserts,
# summarizations and new segments), and an immediate shutdown after
# committed inserts loses no key.
#
# "wrong" counts, over many queries, the rows where a bitmap scan of the
# index and a sequential scan disagree; bloomskip_check counts the keys
# whose bits are not set in their range.  Both must be 0 everywhere.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('skip_coll_primary');
$primary->init(allows_streaming => 1);
$primary->start;

$primary->safe_psql(
	'postgres', q{
CREATE EXTENSION bloomset;
CREATE TABLE ev (id int, tags text[], ids int8[], attrs jsonb) WITH (autovacuum_enabled = false);
CREATE PROCEDURE add_events(first int, last int) LANGUAGE sql AS $$
	INSERT INTO ev SELECT i,
		ARRAY['env:' || (i % 3), 'user:' || (i % 997), CASE WHEN i % 7 = 0 THEN NULL ELSE 'svc:' || (i % 50) END],
		ARRAY[i, i % 101],
		jsonb_build_object('user', jsonb_build_object('id', i, 'tier', i % 3),
			'k' || (i % 13), (i % 5) || '.0', 'list', jsonb_build_array(i % 17, 'x' || (i % 19)))
	FROM generate_series(first, last) i
$$;
CALL add_events(1, 20000);
CREATE INDEX ev_tags ON ev USING bloomskip (tags) WITH (pages_per_range = 2);
CREATE INDEX ev_ids ON ev USING bloomskip (ids);
CREATE INDEX ev_attrs ON ev USING bloomskip (attrs);
-- rows where the index plan and the sequential scan disagree, over queries
CREATE FUNCTION wrong() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	q text;
	n_ix bigint;
	n_sq bigint;
	bad bigint := 0;
BEGIN
	FOR q IN SELECT unnest(ARRAY[
		$q$tags @> ARRAY['user:' || g]$q$, $q$tags && ARRAY['user:' || g, 'user:' || (g + 1)]$q$,
		$q$tags = ARRAY['env:' || (g % 3), 'user:' || g, 'svc:' || (g % 50)]$q$,
		$q$ids @> ARRAY[g::int8 * 37]$q$, $q$ids && ARRAY[g::int8 * 41, -1]$q$,
		$q$attrs @> jsonb_build_object('user', jsonb_build_object('id', g * 43))$q$,
		$q$attrs ? ('k' || (g % 20))$q$, $q$attrs ?& ARRAY['k' || (g % 13), 'list']$q$,
		$q$attrs ?| ARRAY['nope', 'k' || (g % 13)]$q$,
		$q$attrs @> jsonb_build_object('list', jsonb_build_array(g % 17))$q$])
	LOOP
		FOR g IN 1 .. 1500 BY 97 LOOP
			PERFORM set_config('enable_seqscan', 'off', true);
			EXECUTE format('SELECT count(*) FROM ev, (SELECT %s AS g) v WHERE %s', g, q) INTO n_ix;
			PERFORM set_config('enable_seqscan', 'on', true);
			PERFORM set_config('enable_bitmapscan', 'off', true);
			EXECUTE format('SELECT count(*) FROM ev, (SELECT %s AS g) v WHERE %s', g, q) INTO n_sq;
			PERFORM set_config('enable_bitmapscan', 'on', true);
			bad := bad + abs(n_ix - n_sq);
		END LOOP;
	END LOOP;
	RETURN bad;
END
$$;
CREATE FUNCTION filters_md5() RETURNS text LANGUAGE sql AS $$
	SELECT md5(string_agg(i::text || r || bloom_to_bytea(bloomskip_range_filter(i, r))::text, ','
		ORDER BY i::text, r))
	FROM unnest(ARRAY['ev_tags', 'ev_ids', 'ev_attrs']::regclass[]) i,
		LATERAL generate_series(0, (SELECT summarized_ranges - 1 FROM bloomskip_info(i))) r
$$;
});

my $check = q{SELECT wrong(), bloomskip_check('ev_tags') + bloomskip_check('ev_ids') + bloomskip_check('ev_attrs')};
my $lookups = q{SET enable_seqscan = off;
SELECT string_agg(id::text, ',' ORDER BY id) FROM ev WHERE tags @> '{user:996}' AND ids && '{996, 1993}';
SELECT count(*) FROM ev WHERE attrs @> '{"user": {"id": 30001}}' OR attrs ? 'k12'};

is($primary->safe_psql('postgres', $check), '0|0', 'primary after the build: no row wrong, no key missing');

$primary->backup('bkp');
my $standby = PostgreSQL::Test::Cluster->new('skip_coll_standby');
$standby->init_from_backup($primary, 'bkp', has_streaming => 1);
# the standby's checks read every index and may outlast
# max_standby_streaming_delay on a loaded machine; replay waits for them
# instead of cancelling them (what they check is the answers, not timing)
$standby->append_conf('postgresql.conf', "max_standby_streaming_delay = -1\n");
$standby->start;

# inserts streamed after the backup: updates into the built ranges and
# appends far past them (new segments), then VACUUM's summarization
$primary->safe_psql(
	'postgres', q{
UPDATE ev SET tags = tags || '{updated}', attrs = attrs || '{"updated": true}' WHERE id % 100 = 0;
CALL add_events(20001, 45000);
VACUUM ev;
});
$primary->wait_for_catchup($standby);

is($standby->safe_psql('postgres', $check), '0|0', 'standby: no row wrong, no key missing');
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
CALL add_events(45001, 55000);
UPDATE ev SET attrs = attrs || '{"late": [1, 2]}', ids = ids || '{-5}' WHERE id % 1000 = 1;
});
my $before = $primary->safe_psql('postgres', $lookups);
my $md5_before = $primary->safe_psql('postgres', 'SELECT filters_md5()');
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', $check), '0|0', 'after crash recovery: no row wrong, no key missing');
is($primary->safe_psql('postgres', $lookups), $before, 'after crash recovery: the same answers');
is($primary->safe_psql('postgres', 'SELECT filters_md5()'), $md5_before,
	'after crash recovery: every range filter bitwise identical');
is($primary->safe_psql('postgres',
		q{SET enable_seqscan = off; SELECT count(*) FROM ev WHERE attrs @> '{"late": [2]}' AND ids @> '{-5}'}),
	'55', 'after crash recovery: the updated rows are found');

$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', $check), '0|0', 'standby after the primary\'s recovery: no row wrong');

$standby->stop;
$primary->stop;
done_testing();
