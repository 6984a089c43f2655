-- bench/skipconcurrent.sql -- data of bench/skipconcurrent.sh: Debian
-- changelog-like lines (package headers with versions, change entries with
-- words of a vocabulary, file names, bug numbers and CVE ids, maintainer
-- trailers with e-mail addresses and dates) and their tsvectors in
-- scc_log; events with an int8 key, an int4[] of tags and a jsonb document
-- in scc_ev.  Deterministic: line i is the same on every run.

CREATE FUNCTION scc_h(i bigint, salt int) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT abs(hashint8(i * 1000003 + salt)::bigint) $$;

CREATE TABLE scc_vocab (kind text, n int, words text[]);
INSERT INTO scc_vocab VALUES
 ('word', 0, ARRAY['fix', 'update', 'add', 'remove', 'drop', 'bump', 'build', 'depend', 'patch', 'upstream',
	'release', 'package', 'symbols', 'library', 'policy', 'standards', 'version', 'control', 'rules', 'copyright',
	'watch', 'lintian', 'override', 'warning', 'error', 'crash', 'memory', 'leak', 'overflow', 'buffer',
	'segfault', 'test', 'suite', 'autopkgtest', 'debhelper', 'compat', 'level', 'install', 'manpage', 'typo',
	'translation', 'german', 'french', 'spanish', 'japanese', 'handling', 'parser', 'config', 'systemd', 'service',
	'init', 'script', 'cross', 'compile', 'architecture', 'arm64', 'amd64', 'i386', 'mips64el', 'riscv64',
	'python3', 'perl', 'ruby', 'golang', 'rust', 'cargo', 'node', 'java', 'maven', 'cmake',
	'meson', 'autoconf', 'automake', 'libtool', 'pkgconfig', 'header', 'static', 'shared', 'soname', 'transition',
	'new', 'maintainer', 'team', 'upload', 'orphan', 'adopt', 'salvage', 'vcs', 'git', 'salsa',
	'homepage', 'description', 'spelling', 'documentation', 'examples', 'hardening', 'flags', 'reproducible', 'timestamp', 'locale',
	'unicode', 'utf8', 'encoding', 'regression', 'backport', 'security', 'denial', 'service', 'remote', 'attacker',
	'crafted', 'file', 'input', 'integer', 'signedness', 'injection', 'path', 'traversal', 'symlink', 'race']),
 ('pkg', 0, ARRAY['openssl', 'glibc', 'linux', 'systemd', 'apt', 'dpkg', 'bash', 'coreutils', 'curl', 'wget',
	'nginx', 'apache2', 'postgresql-15', 'mariadb', 'python3.11', 'perl', 'ruby3.1', 'golang-1.19', 'rustc', 'gcc-12',
	'llvm-toolchain-14', 'binutils', 'make-dfsg', 'cmake', 'meson', 'ninja-build', 'git', 'subversion', 'vim', 'emacs',
	'libxml2', 'libxslt', 'zlib', 'xz-utils', 'bzip2', 'zstd', 'lz4', 'libpng1.6', 'libjpeg-turbo', 'tiff',
	'ffmpeg', 'gstreamer1.0', 'pulseaudio', 'pipewire', 'alsa-lib', 'mesa', 'xorg-server', 'wayland', 'gtk+3.0', 'qtbase-opensource-src',
	'firefox-esr', 'thunderbird', 'chromium', 'libreoffice', 'gimp', 'inkscape', 'texlive-base', 'ghostscript', 'cups', 'sane-backends',
	'openssh', 'gnupg2', 'sudo', 'shadow', 'pam', 'krb5', 'samba', 'nfs-utils', 'rsync', 'tar',
	'grub2', 'shim', 'efibootmgr', 'initramfs-tools', 'udev', 'util-linux', 'e2fsprogs', 'btrfs-progs', 'lvm2', 'mdadm']),
 ('name', 0, ARRAY['Adam Conrad', 'Bastian Blank', 'Chris Lamb', 'Dmitry Shachnev', 'Emilio Pozuelo Monfort', 'Florian Weimer',
	'Guillem Jover', 'Helmut Grohne', 'Ivo De Decker', 'Jonathan Wiltshire', 'Kurt Roeckx', 'Laurent Bigonville',
	'Matthias Klose', 'Niels Thykier', 'Ondrej Sury', 'Paul Gevers', 'Raphael Hertzog', 'Salvatore Bonaccorso',
	'Timo Aaltonen', 'Utkarsh Gupta', 'Vincent Bernat', 'Wookey', 'Xavier Guimard', 'Yves-Alexis Perez', 'Zhang Boyang']),
 ('file', 0, ARRAY['debian/control', 'debian/rules', 'debian/changelog', 'debian/copyright', 'debian/watch',
	'debian/patches/series', 'debian/tests/control', 'debian/salsa-ci.yml', 'debian/source/format', 'debian/gbp.conf',
	'src/main.c', 'src/parser.c', 'lib/util.c', 'Makefile.am', 'configure.ac', 'CMakeLists.txt', 'meson.build', 'setup.py',
	'Cargo.toml', 'go.mod']),
 ('dist', 0, ARRAY['unstable', 'experimental', 'bookworm', 'bookworm-security', 'bullseye-security', 'trixie', 'stable-proposed-updates']),
 ('urgency', 0, ARRAY['low', 'medium', 'high', 'critical', 'emergency']),
 ('day', 0, ARRAY['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']),
 ('month', 0, ARRAY['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
UPDATE scc_vocab SET n = array_length(words, 1);

CREATE FUNCTION scc_w(kind text, h bigint) RETURNS text
LANGUAGE sql STABLE AS
$$ SELECT words[1 + h % n] FROM scc_vocab v WHERE v.kind = scc_w.kind $$;

-- line i of the changelog: a package header, change entries, a trailer
CREATE FUNCTION scc_line(i bigint) RETURNS text
LANGUAGE sql STABLE AS $$
SELECT CASE
	WHEN i % 8 = 0 THEN format('%s (%s:%s.%s.%s-%s) %s; urgency=%s',
		scc_w('pkg', scc_h(i, 1)), scc_h(i, 2) % 3, scc_h(i, 3) % 40, scc_h(i, 4) % 100, scc_h(i, 5) % 30,
		1 + scc_h(i, 6) % 9, scc_w('dist', scc_h(i, 7)), scc_w('urgency', scc_h(i, 8)))
	WHEN i % 8 = 7 THEN format(' -- %s <%s@debian.org>  %s, %s %s %s %s:%s:%s +0000',
		scc_w('name', scc_h(i, 1)), lower(split_part(scc_w('name', scc_h(i, 1)), ' ', 1)),
		scc_w('day', scc_h(i, 2)), lpad((1 + scc_h(i, 3) % 28)::text, 2, '0'), scc_w('month', scc_h(i, 4)),
		1998 + scc_h(i, 5) % 27, lpad((scc_h(i, 6) % 24)::text, 2, '0'), lpad((scc_h(i, 7) % 60)::text, 2, '0'),
		lpad((scc_h(i, 8) % 60)::text, 2, '0'))
	WHEN i % 8 = 3 THEN format('  * %s CVE-%s-%s: %s %s %s in %s.',
		initcap(scc_w('word', scc_h(i, 1))), 1999 + scc_h(i, 2) % 26, 1000 + scc_h(i, 3) % 48000,
		scc_w('word', scc_h(i, 4)), scc_w('word', scc_h(i, 5)), scc_w('word', scc_h(i, 6)), scc_w('file', scc_h(i, 7)))
	ELSE format('  * %s %s %s %s (%s) %s. (Closes: #%s)',
		initcap(scc_w('word', scc_h(i, 1))), scc_w('word', scc_h(i, 2)), scc_w('word', scc_h(i, 3)),
		scc_w('word', scc_h(i, 4)), scc_w('file', scc_h(i, 5)), scc_w('word', scc_h(i, 6)),
		100000 + scc_h(i, 7) % 1000000)
END
$$;

-- n changelog lines and n events
CREATE FUNCTION scc_load(n bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	SET LOCAL client_min_messages = warning;
	DROP TABLE IF EXISTS scc_log, scc_ev;
	CREATE TABLE scc_log (id bigint, line text, tsv tsvector);
	INSERT INTO scc_log SELECT i, l, to_tsvector('simple', l)
	  FROM generate_series(1, n) AS i, LATERAL scc_line(i) AS l;
	CREATE TABLE scc_ev (id bigint, k int8, tags int4[], doc jsonb);
	INSERT INTO scc_ev
	SELECT i, scc_h(i, 11) % (n * 4),
		   ARRAY(SELECT (1 + scc_h(i, 20 + j) % 5000)::int4 FROM generate_series(1, 2 + (i % 5)::int) AS j),
		   jsonb_build_object('user', scc_h(i, 12) % 100000, 'pkg', scc_w('pkg', scc_h(i, 13)),
							  'arch', scc_w('word', 55 + scc_h(i, 14) % 5), 'ok', i % 3 <> 0)
	  FROM generate_series(1, n) AS i;
END
$$;

-- keys that bloomskip_check counts missing, and a count through the index
-- against the sequential scan's for one key of the column: both must be 0
CREATE TABLE scc_check (cls text, op text, round int, missing bigint, diff bigint);
