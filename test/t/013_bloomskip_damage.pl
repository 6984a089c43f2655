# A damaged bloomskip index fails loudly: its file is overwritten while the
# server is stopped (metapage fields changed to other plausible values, a
# staging slot, segment pages, and seeded random bytes anywhere in the
# index), then lookups run as bitmap scans.  Every case must be an error
# (XX001 or XX002, never XX000) or the answer of a sequential scan; a case
# whose lookups fail must refuse VACUUM too, and, where the metapage is the
# damaged page, inserts.  Run on a cluster without data checksums (the
# index's own checks are all there is) and on one with them.
#
# Each case has its own table and index, so one restart covers them all.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Copy ();

my $BLCKSZ = 8192;
my $HDR = 24;                  # MAXALIGN(SizeOfPageHeaderData): the metapage's contents
my $SEG0 = $HDR + 96;          # offsetof(SkipMeta, segments[0])
my $STATS = $SEG0 + 24 * 64;   # offsetof(SkipMeta, stats): what the planner reads

# the targeted cases: [name, code(file handle, meta info)]
sub meta_field
{
	my ($name, $off, $fmt, $f) = @_;
	return [
		"meta $name",
		sub {
			my ($fh) = @_;
			my $v = unpack($fmt, read_at($fh, $off, length(pack($fmt, 0))));
			write_at($fh, $off, pack($fmt, $f->($v)));
		}
	];
}

sub read_at
{
	my ($fh, $off, $len) = @_;
	my $buf;
	sysseek($fh, $off, 0) or die "seek: $!";
	sysread($fh, $buf, $len) == $len or die "read: $!";
	return $buf;
}

sub write_at
{
	my ($fh, $off, $bytes) = @_;
	sysseek($fh, $off, 0) or die "seek: $!";
	syswrite($fh, $bytes) == length($bytes) or die "write: $!";
}

# where segment s's first page and the staging area's slot 0 are
sub seg_block
{
	my ($fh, $s) = @_;
	return unpack('L<', read_at($fh, $SEG0 + 24 * $s + 12, 4));
}

sub slot_bits_offset
{
	my ($fh) = @_;
	my $version = unpack('L<', read_at($fh, $HDR + 4, 4));
	return $BLCKSZ + $HDR + ($version >= 4 ? 16 : 8);
}

my @targeted = (
	meta_field('summarized + 1', $HDR + 40, 'Q<', sub { $_[0] + 1 }),
	meta_field('summarized - 1', $HDR + 40, 'Q<', sub { $_[0] - 1 }),
	meta_field('summarized = 0', $HDR + 40, 'Q<', sub { 0 }),
	meta_field('writer - 1', $HDR + 48, 'Q<', sub { $_[0] - 1 }),
	meta_field('nranges + 1', $HDR + 32, 'Q<', sub { $_[0] + 1 }),
	meta_field('nstaged + 1', $HDR + 72, 'L<', sub { $_[0] + 1 }),
	meta_field('nstaged - 1', $HDR + 72, 'L<', sub { $_[0] ? $_[0] - 1 : 0 }),
	meta_field('nstaged = 0', $HDR + 72, 'L<', sub { 0 }),
	meta_field('scheme -> 1', $HDR + 14, 'C', sub { 1 }),
	meta_field('seed + 1', $HDR + 16, 'Q<', sub { $_[0] + 1 }),
	meta_field('pages_per_range + 1', $HDR + 24, 'L<', sub { $_[0] + 1 }),
	meta_field('pages_per_range * 2', $HDR + 24, 'L<', sub { $_[0] * 2 }),
	meta_field('nbits + 64', $HDR + 8, 'L<', sub { $_[0] + 64 }),
	meta_field('nhashes - 1', $HDR + 12, 'S<', sub { $_[0] - 1 }),
	meta_field('nhashes + 1', $HDR + 12, 'S<', sub { $_[0] + 1 }),
	meta_field('nsegments - 1', $HDR + 28, 'L<', sub { $_[0] - 1 }),
	meta_field('stage_slots = 0', $HDR + 68, 'L<', sub { 0 }),
	meta_field('segment 0 first block = 2^30', $SEG0 + 12, 'L<', sub { 2**30 }),
	meta_field('segment 0 first block + 1', $SEG0 + 12, 'L<', sub { $_[0] + 1 }),
	meta_field('segment 1 first block - 1', $SEG0 + 24 + 12, 'L<', sub { $_[0] - 1 }),
	meta_field('segment 1 first range + 64', $SEG0 + 24, 'Q<', sub { $_[0] + 64 }),
	meta_field('version', $HDR + 4, 'L<', sub { $_[0] + 1 }),
	meta_field('magic', $HDR, 'L<', sub { $_[0] ^ 1 }),
	meta_field('planner keys * 2', $STATS + 8, 'd<', sub { $_[0] * 2 }),
	meta_field('planner sketch register 0 + 1', $STATS + 16, 'C', sub { $_[0] + 1 }),
	[
		'staging slot 0: range + 1',
		sub { my ($fh) = @_; my $v = unpack('Q<', read_at($fh, $BLCKSZ + $HDR, 8));
			write_at($fh, $BLCKSZ + $HDR, pack('Q<', $v + 1)); }
	],
	[
		'staging slot 0: bits zeroed',
		sub { my ($fh) = @_; write_at($fh, slot_bits_offset($fh), "\0" x 64); }
	],
	[
		'staging slot 1: bits zeroed',
		sub {
			my ($fh) = @_;
			my $slot = 8 + unpack('L<', read_at($fh, $HDR + 8, 4)) / 8;
			$slot += 8 if unpack('L<', read_at($fh, $HDR + 4, 4)) >= 4;
			write_at($fh, slot_bits_offset($fh) + $slot, "\0" x 64);
		}
	],
	[
		'segment 0 page 0: rows zeroed',
		sub { my ($fh) = @_; write_at($fh, seg_block($fh, 0) * $BLCKSZ + $HDR, "\0" x 4000); }
	],
	[
		'segment 0 page 1: 64 bytes zeroed',
		sub { my ($fh) = @_; write_at($fh, (seg_block($fh, 0) + 1) * $BLCKSZ + $HDR + 100, "\0" x 64); }
	],
	[
		'segment 1 page 0: rows zeroed',
		sub { my ($fh) = @_; write_at($fh, seg_block($fh, 1) * $BLCKSZ + $HDR, "\0" x 4000); }
	],
	[
		'segment 0: pages 0 and 1 swapped',
		sub {
			my ($fh) = @_;
			my $b = seg_block($fh, 0);
			my $p0 = read_at($fh, $b * $BLCKSZ, $BLCKSZ);
			my $p1 = read_at($fh, ($b + 1) * $BLCKSZ, $BLCKSZ);
			write_at($fh, $b * $BLCKSZ, $p1);
			write_at($fh, ($b + 1) * $BLCKSZ, $p0);
		}
	],
	[
		'segment 0 page 0: special space magic',
		sub { my ($fh) = @_; write_at($fh, (seg_block($fh, 0) + 1) * $BLCKSZ - 16, "XXXX"); }
	],
	[
		'segment 0 page 0: page kind',
		sub { my ($fh) = @_; write_at($fh, seg_block($fh, 0) * $BLCKSZ + $BLCKSZ - 16 + 4, pack('S<', 3)); }
	],);

my $NRANDOM = 40;

# the keys looked up: present ones across the table, and absent ones
my @keys = (map { $_ * 37 } 1 .. 140);
push @keys, -5, 999999, 123456789;
my $keylist = join(',', @keys);
my @points = (1, 37, 555, 2048, 3000, 4444, 4999, 5001, 6000, -1);

sub lookups
{
	my ($t) = @_;
	my $sql = "SET enable_seqscan = off; SET enable_indexscan = off;\n"
	  . "SELECT string_agg(k::text, ',' ORDER BY k) FROM $t WHERE k = ANY ('{$keylist}'::int8[]);\n"
	  . "SELECT " . join(" || ',' || ", map { "(SELECT count(*) FROM $t WHERE k = $_)" } @points) . ";\n";
	return $sql;
}

# run sql with verbose errors: (sqlstate or '', stdout)
sub run
{
	my ($node, $sql) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	return ($1, $out) if $err =~ /ERROR:\s+([0-9A-Z]{5}):/;
	return ('', $out);
}

sub suite
{
	my ($label, @initopts) = @_;
	my $node = PostgreSQL::Test::Cluster->new("damage_$label");
	$node->init(@initopts);
	$node->append_conf('postgresql.conf', "autovacuum = off\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION bloomset');

	my $ncases = @targeted + $NRANDOM;
	my (%file, %oracle, %layout);

	# one table and index built through SQL, copied file by file into the
	# others (their pages hold no relation's identity; created first, so
	# their relfrozenxid precedes the rows copied into them)
	$node->safe_psql(
		'postgres', qq{
CREATE TABLE d0 (k int8, pad text) WITH (autovacuum_enabled = false);
DO \$\$ BEGIN FOR c IN 1 .. $ncases LOOP
	EXECUTE format('CREATE TABLE d%s (LIKE d0) WITH (autovacuum_enabled = false)', c);
	EXECUTE format('CREATE INDEX d%s_k ON d%s USING bloomskip (k) WITH (pages_per_range = 1)', c, c);
END LOOP; END \$\$;
INSERT INTO d0 SELECT i, repeat('p', 200) FROM generate_series(1, 2000) i;
CREATE INDEX d0_k ON d0 USING bloomskip (k) WITH (pages_per_range = 1);
INSERT INTO d0 SELECT i, repeat('p', 200) FROM generate_series(2001, 5000) i;
});
	my (undef, $oracle) = run($node, lookups('d0') =~ s/enable_seqscan = off/enable_bitmapscan = off/r);
	my $layout = $node->safe_psql('postgres',
		q{SELECT segments || ',' || staged_ranges FROM bloomskip_info('d0_k')});
	my (undef, $intact) = run($node, lookups('d0'));
	is($intact, $oracle, "$label: an intact index answers as the sequential scan");
	my %heapfile;
	for my $line (split(/\n/, $node->safe_psql('postgres',
		qq{SELECT c, pg_relation_filepath('d' || c), pg_relation_filepath('d' || c || '_k')
		   FROM generate_series(0, $ncases) c})))
	{
		my ($c, $h, $i) = split(/\|/, $line);
		$heapfile{$c} = $node->data_dir . "/$h";
		$file{$c} = $node->data_dir . "/$i";
	}
	$node->stop;
	for my $c (1 .. $ncases)
	{
		File::Copy::copy($heapfile{0}, $heapfile{$c}) or die "copy: $!";
		File::Copy::copy($file{0}, $file{$c}) or die "copy: $!";
		$oracle{$c} = $oracle;
	}
	$node->start;
	for my $c (1 .. $ncases)
	{
		my (undef, $copy) = run($node, lookups("d$c"));
		die "copy $c answers differently" unless $copy eq $oracle;
	}
	my ($segments, $staged) = split(/,/, $layout);
	cmp_ok($segments, '>=', 2, "$label: the indexes have two segments or more");
	cmp_ok($staged, '>=', 2, "$label: the indexes have staged ranges");

	# damage every index, the server stopped
	$node->stop;
	my @names;
	srand(20261127);
	for my $c (1 .. $ncases)
	{
		open(my $fh, '+<:raw', $file{$c}) or die "open $file{$c}: $!";
		if ($c <= @targeted)
		{
			$names[$c] = $targeted[$c - 1][0];
			$targeted[$c - 1][1]->($fh);
		}
		else
		{
			my $size = -s $file{$c};
			my $nbytes = 1 + int(rand(8));
			my $off = int(rand($size - $nbytes));
			my $bytes = join('', map { chr(int(rand(256))) } 1 .. $nbytes);
			$names[$c] = sprintf('random: %d bytes at block %d offset %d', $nbytes,
				int($off / $BLCKSZ), $off % $BLCKSZ);
			write_at($fh, $off, $bytes);
		}
		close($fh);
	}
	$node->start;

	my ($errors, $correct, $wrong, $xx000, $writes_ok) = (0, 0, 0, 0, 0);
	for my $c (1 .. $ncases)
	{
		my ($state, $out) = run($node, lookups("d$c"));
		if ($state ne '')
		{
			$errors++;
			if ($state !~ /^XX00[12]$/)
			{
				$xx000++;
				diag("$label: $names[$c]: lookups failed with $state");
			}
			my ($vstate) = run($node, "VACUUM d$c");
			my $istate = '';
			($istate) = run($node, "INSERT INTO d$c VALUES (7, 'x')")
			  if $names[$c] =~ /^meta/;
			if ($vstate eq '' || ($names[$c] =~ /^meta/ && $istate eq ''))
			{
				$writes_ok++;
				diag("$label: $names[$c]: lookups fail ($state) but VACUUM '$vstate' INSERT '$istate'");
			}
		}
		elsif ($out eq $oracle{$c})
		{
			$correct++;
		}
		else
		{
			$wrong++;
			diag("$label: $names[$c]: WRONG ANSWER");
		}
	}
	diag("damage suite, $label: $ncases cases, $errors errors, $correct correct answers, $wrong wrong answers");
	is($wrong, 0, "$label: $ncases cases: $errors errors, $correct correct answers, 0 wrong answers");
	is($xx000, 0, "$label: every error is XX001 or XX002");
	is($writes_ok, 0, "$label: an index found damaged refuses VACUUM (and inserts, when its metapage is damaged)");
	$node->stop;
}

suite('checksums_off');
suite('checksums_on', extra => ['--data-checksums']);

done_testing();
