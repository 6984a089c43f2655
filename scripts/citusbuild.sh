#!/usr/bin/env bash
# scripts/citusbuild.sh -- build Citus from the vendored source once and
# install it into the PostgreSQL the test command uses (PG_BIN, from
# PG_MAJOR: 16 and newer; Citus 14 supports 16-18), for test/citus/.
#
# The source is a tarball beside the project (../shared/vendor/
# citus-<version>.tar.gz from the clone's root, or BLOOMSET_CITUS_TARBALL):
# third-party code for tests only, never copied into the clone.  Without it
# this script prints a "SKIPPED ..." line and exits 3: the Citus suite then
# reports itself skipped (scripts/suites.sh, run_suite).
#
# Layout: the build tree is $BLOOMSET_CITUS_CACHE/<major>-<key>/ (default
# /var/cache/bloomset-citus), key = a hash of the tarball and the server's
# pg_config --version and --bindir, with a stamp file once built; a build
# whose stamp matches is reused and only `make install` runs (it copies
# citus.so and the extension's files into the server's directories, where
# they are inert unless a cluster preloads citus).
#
# Env: BLOOMSET_CITUS_TARBALL, BLOOMSET_CITUS_CACHE, CITUSBUILD_JOBS (2).
source "$(dirname "$0")/lib.sh"

CITUS_VERSION=14.0.1
TARBALL=${BLOOMSET_CITUS_TARBALL:-$REPO_ROOT/../shared/vendor/citus-$CITUS_VERSION.tar.gz}
CACHE=${BLOOMSET_CITUS_CACHE:-/var/cache/bloomset-citus}
JOBS=${CITUSBUILD_JOBS:-2}
PG_CONFIG_BIN=$PG_BIN/pg_config

if [ ! -f "$TARBALL" ]; then
	echo "SKIPPED citus-$PG_MAJOR: no Citus source at $TARBALL (the test command builds Citus $CITUS_VERSION from it where it is present)"
	exit 3
fi
if [ "$PG_MAJOR" -lt 16 ] 2>/dev/null; then
	echo "SKIPPED citus-$PG_MAJOR: Citus $CITUS_VERSION supports PostgreSQL 16-18 only"
	exit 3
fi
[ -x "$PG_CONFIG_BIN" ] || { echo "citusbuild: no pg_config at $PG_CONFIG_BIN" >&2; exit 2; }

# what Citus needs to compile (its configure: lz4, zstd, gssapi)
ensure_packages build-essential liblz4-dev libzstd-dev libkrb5-dev

key=$( { sha256sum "$TARBALL" | cut -c1-16; "$PG_CONFIG_BIN" --version; "$PG_CONFIG_BIN" --bindir; } | md5sum | cut -c1-10)
dir=$CACHE/$PG_MAJOR-$key
stamp="citus $CITUS_VERSION for $("$PG_CONFIG_BIN" --version) at $("$PG_CONFIG_BIN" --bindir)"

if [ "$(cat "$dir/.bloomset-citus" 2>/dev/null)" != "$stamp" ]; then
	t0=$SECONDS
	as_root rm -rf "$dir"
	as_root mkdir -p "$dir"
	as_root tar -xzf "$TARBALL" -C "$dir" --strip-components=1
	(
		cd "$dir" &&
		./configure PG_CONFIG="$PG_CONFIG_BIN" --without-libcurl >"$dir/configure.log" 2>&1 &&
		make -j"$JOBS" >"$dir/make.log" 2>&1
	) || { echo "citusbuild: building Citus failed; see $dir/configure.log and $dir/make.log" >&2; exit 1; }
	echo "$stamp" > "$dir/.bloomset-citus"
	echo "citusbuild $PG_MAJOR: built in $((SECONDS - t0))s ($dir)"
else
	echo "citusbuild $PG_MAJOR: reused $dir"
fi
as_root make -C "$dir" install >"$dir/install.log" 2>&1 ||
	{ echo "citusbuild: make install failed; see $dir/install.log" >&2; exit 1; }
echo "citusbuild $PG_MAJOR: installed into $("$PG_CONFIG_BIN" --pkglibdir)"
