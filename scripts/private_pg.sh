#!/usr/bin/env bash
# scripts/private_pg.sh DIR -- a private, relocated copy of Debian's
# PostgreSQL 15 (server, PGXS, headers) under DIR, for developers who build
# and test several working trees at once: each installs bloomset into its
# own copy.  PostgreSQL finds its share and lib directories relative to its
# binaries, so the copy works where it is.  Use it with
#   BLOOMSET_PG15_ROOT=DIR bash scripts/test.sh   (or any script of lib.sh)
# Not used by the test command itself.
source "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dst=$1
PG_MAJOR=15 ensure_base_packages
mkdir -p "$dst/usr/lib/postgresql" "$dst/usr/share/postgresql" "$dst/usr/include"
cp -a /usr/lib/postgresql/15 "$dst/usr/lib/postgresql/"
cp -a /usr/share/postgresql/15 "$dst/usr/share/postgresql/"
cp -a /usr/include/postgresql "$dst/usr/include/"
echo "BLOOMSET_PG15_ROOT=$dst ($("$dst/usr/lib/postgresql/15/bin/pg_config" --version))"
