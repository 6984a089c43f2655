# scripts/lib.sh -- shared by demo.sh, test.sh and bench/run.sh (sourced).
#
# ensure_packages PKG...   install missing Debian packages (root or sudo)
# build_install            build the extension and install it into PG_MAJOR
#                          (15 by default: in the clone; another version:
#                          out of tree, see below)
# pg_start [conf...]       start a throwaway cluster (env PG_SERVER_ENV is
#                          passed to the server) as the postgres OS user
#                          in a temp dir, on a Unix socket in that dir and a
#                          free port; exports PGHOST/PGPORT/PGUSER and stops
#                          it on exit.  Extra args are postgresql.conf lines.
# psql_q                   psql against it, quiet, stop on error

set -euo pipefail

# PG_MAJOR selects the server: 15 is Debian's binary package
# (/usr/lib/postgresql/15); versions bookworm does not ship (17, 18) are
# built from Debian's source packages by scripts/pgbuild.sh into
# $BLOOMSET_PG_CACHE/<major> (a symlink to <major>-<version>).
PG_MAJOR=${PG_MAJOR:-15}
PG_CACHE=${BLOOMSET_PG_CACHE:-/var/cache/bloomset-pg}
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# pg_bin_dir MAJOR: where that server's programs are (or will be)
# (BLOOMSET_PG15_ROOT: a relocated copy of Debian's 15 made by
# scripts/private_pg.sh, so that several working trees can install and test
# their own builds side by side)
pg_bin_dir() {
	if [ "$1" = 15 ] && [ -n "${BLOOMSET_PG15_ROOT:-}" ]; then
		echo "$BLOOMSET_PG15_ROOT/usr/lib/postgresql/15/bin"
	elif [ "$1" = 15 ] || [ -x "/usr/lib/postgresql/$1/bin/initdb" ]; then
		echo "/usr/lib/postgresql/$1/bin"
	else
		echo "$PG_CACHE/$1/bin"
	fi
}
# from the cache (built here), not from a Debian binary package
pg_from_cache() {
	[ "$(pg_bin_dir "$1")" = "$PG_CACHE/$1/bin" ]
}
PG_BIN=$(pg_bin_dir "$PG_MAJOR")
# what scripts/pgbuild.sh needs from Debian (bookworm) to build a server;
# debian-keyring checks the signature of a .dsc fetched from the pool
PGBUILD_PACKAGES=(build-essential dpkg-dev bison flex libicu-dev pkg-config zlib1g-dev
	perl libipc-run-perl debian-keyring)

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

ensure_packages() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "== installing: ${missing[*]}"
	apt_locked update -qq
	apt_locked install -y -qq "${missing[@]}" >/dev/null
}

# apt_locked ARGS...: apt-get ARGS, waiting up to 10 minutes for the locks
# another apt or dpkg process holds (unattended upgrades on a fresh
# machine) instead of failing at once: dpkg's lock through apt's own
# timeout, the package lists' lock (apt-get update) by retrying
apt_locked() {
	local try err rc
	err=$(mktemp /tmp/bloomset-apt.XXXXXX)
	for try in $(seq 1 40); do
		as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@" 2> "$err"
		rc=$?
		cat "$err" >&2
		if [ $rc = 0 ] || ! grep -q "Could not get lock" "$err"; then
			rm -f "$err"; return $rc
		fi
		echo "== apt is busy (another package manager holds its lock); waiting" >&2
		sleep 15
	done
	rm -f "$err"
	return 1
}

ensure_base_packages() {
	if pg_from_cache "$PG_MAJOR"; then
		ensure_packages build-essential libxxhash-dev
		# built once; scripts/test.sh runs pgbuild.sh itself to pick up a
		# new minor version
		[ -x "$PG_BIN/pg_config" ] || "$REPO_ROOT/scripts/pgbuild.sh" "$PG_MAJOR" >&2
	else
		ensure_packages build-essential libxxhash-dev postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR
	fi
}

# Where the extension is compiled for PG_MAJOR.  15 builds in the clone as it
# always did; another version builds in a copy of the sources of its own
# outside the clone (not a VPATH build: make would take the clone's 15
# objects found through VPATH as up to date), so objects of different server
# versions never mix and each stays incremental.
ext_build_dir() {
	if [ "$PG_MAJOR" = 15 ]; then
		echo "$REPO_ROOT"
	else
		echo "${BLOOMSET_BUILD_ROOT:-/tmp/bloomset-build-$(echo "$REPO_ROOT" | md5sum | cut -c1-8)}/$PG_MAJOR"
	fi
}

# sync_sources DIR: make DIR's copy of the build inputs equal to the clone's
# (changed files copied with their times, removed ones deleted): the
# Makefile and control file, the C sources under src/ and the SQL scripts
# under extension/ (the install script the Makefile builds from them,
# bloomset--<version>.sql at the top, is the copy's own and stays)
sync_sources() {
	local dst=$1 f rel
	mkdir -p "$dst/src" "$dst/extension"
	while IFS= read -r f; do
		rel=${f#"$dst"/}
		[ -e "$REPO_ROOT/$rel" ] || rm -f "$f" "${f%.c}.o"
	done < <(find "$dst" -maxdepth 1 -name '*.control' -print;
		find "$dst/extension" -name '*.sql' -print;
		find "$dst/src" \( -name '*.c' -o -name '*.h' \) -print)
	# install scripts left at the top by a copy of the earlier layout
	find "$dst" -maxdepth 1 -name 'bloomset--*--*.sql' -delete
	while IFS= read -r f; do
		rel=${f#"$REPO_ROOT"/}
		mkdir -p "$(dirname "$dst/$rel")"
		cmp -s "$f" "$dst/$rel" || cp -p "$f" "$dst/$rel"
	done < <(find "$REPO_ROOT" -maxdepth 1 \( -name Makefile -o -name '*.control' \) -print;
		find "$REPO_ROOT/extension" -name '*.sql' -print;
		find "$REPO_ROOT/src" \( -name '*.c' -o -name '*.h' \) -print)
}

build_install() {
	local dir o h
	dir=$(ext_build_dir)
	echo "== building and installing bloomset for PostgreSQL $PG_MAJOR ($PG_BIN)"
	if [ "$dir" != "$REPO_ROOT" ]; then
		sync_sources "$dir"
		# PGXS has no header dependency tracking beyond the Makefile's own
		# rule: drop objects older than any header or than the Makefile
		local newest
		newest=$(find "$dir/src" -name '*.h' -newer "$dir/bloomset.so" -print -quit 2>/dev/null)
		if [ ! -e "$dir/bloomset.so" ] || [ -n "$newest" ] || [ "$dir/Makefile" -nt "$dir/bloomset.so" ]; then
			find "$dir/src" -name '*.o' -delete; rm -f "$dir/bloomset.so"
		fi
	fi
	make -C "$dir" -s -j"${BUILD_JOBS:-2}" PG_CONFIG=$PG_BIN/pg_config "$@" >/dev/null
	as_root make -C "$dir" -s PG_CONFIG=$PG_BIN/pg_config install "$@" >/dev/null
}

# A port no other server uses, claimed for this script (a lock directory
# holding its PID, removed by pg_stop; a dead owner's claim is taken over).
# The clusters listen only on a socket in their own temp dir, so two of
# them would not clash on the port itself -- but tests derive scratch file
# names from it (/tmp/..._<port>.bin), so concurrent runs (the 17 and 18
# stages of test.sh) must not share one.
free_port() {
	local p lock
	for p in $(seq 54320 54420); do
		(echo > /dev/tcp/127.0.0.1/$p) 2>/dev/null && continue
		[ -e "/tmp/.s.PGSQL.$p" ] && continue
		compgen -G "/tmp/bloomset-pg.*/.s.PGSQL.$p" >/dev/null && continue
		lock=/tmp/bloomset-port.$p
		if ! mkdir "$lock" 2>/dev/null; then
			kill -0 "$(cat "$lock/pid" 2>/dev/null || echo 0)" 2>/dev/null && continue
			rm -rf "$lock"
			mkdir "$lock" 2>/dev/null || continue
		fi
		echo $$ > "$lock/pid"
		echo $p; return 0
	done
	echo 54399
}

# run a command as the postgres OS user (PostgreSQL refuses to run as root)
as_pg() {
	if [ "$(id -un)" = postgres ]; then "$@"
	elif [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"
	else sudo -u postgres "$@"; fi
}

# server_log_crashes LOG...: report the crash lines of server logs into
# BLOOMSET_CRASH_LOG (scripts/test.sh fails the run on any): a backend
# that died of a signal is a crash whatever the test that caused it said
server_log_crashes() {
	local log
	[ -n "${BLOOMSET_CRASH_LOG:-}" ] || return 0
	for log in "$@"; do
		[ -f "$log" ] || continue
		grep -H -E 'terminated by signal|PANIC:' "$log" >> "$BLOOMSET_CRASH_LOG" 2>/dev/null || true
	done
}

pg_stop() {
	if [ -n "${PGTMP:-}" ] && [ -d "$PGTMP/data" ]; then
		as_pg $PG_BIN/pg_ctl -D "$PGTMP/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	[ -n "${PGTMP:-}" ] && server_log_crashes "$PGTMP/server.log"
	[ -n "${PGTMP:-}" ] && as_root rm -rf "$PGTMP"
	if [ -n "${PGPORT:-}" ] && [ "$(cat "/tmp/bloomset-port.$PGPORT/pid" 2>/dev/null)" = $$ ]; then
		rm -rf "/tmp/bloomset-port.$PGPORT"
	fi
	PGTMP=
}

pg_start() {
	PGTMP=$(mktemp -d /tmp/bloomset-pg.XXXXXX)
	chmod 755 "$PGTMP"
	as_root chown postgres "$PGTMP"
	trap "${PG_ON_EXIT:-pg_stop}" EXIT	# a caller's cleanup must call pg_stop
	export PGPORT=$(free_port) PGHOST=$PGTMP PGUSER=postgres PGDATABASE=postgres
	as_pg $PG_BIN/initdb -D "$PGTMP/data" -A trust -U postgres --no-sync >/dev/null
	{
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$PGTMP'"
		echo "port = $PGPORT"
		echo "fsync = off"
		for line in "$@"; do echo "$line"; done
	} | as_pg tee -a "$PGTMP/data/postgresql.conf" >/dev/null
	# PG_SERVER_ENV: extra environment for the server, e.g. BLOOMSET_PORTABLE=1
	as_pg env ${PG_SERVER_ENV:-} $PG_BIN/pg_ctl -D "$PGTMP/data" -l "$PGTMP/server.log" -w start >/dev/null
}

psql_q() {
	$PG_BIN/psql -X -q -v ON_ERROR_STOP=1 "$@"
}
