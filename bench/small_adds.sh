#!/usr/bin/env bash
# bench/small_adds.sh -- the README's "Filters that grow by small adds"
# table: the cost per key of adding keys one statement at a time to a
# stored 2 MiB filter, against a pending table folded in with
# bloom_add_all and a compressed delta filter (bench/small_adds.sql says
# how).  On a throwaway cluster with PostgreSQL's default settings (fsync on);
# SKIP_BUILD=1 when bloomset is already installed.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../scripts/lib.sh"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
	ensure_base_packages
	build_install
fi
pg_start "fsync = on"	# as users run it: every commit flushed
echo "# bench/small_adds.sh on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$HERE/.." rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
psql_q -f "$HERE/small_adds.sql"
