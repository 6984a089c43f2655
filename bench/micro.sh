#!/usr/bin/env bash
# bench/micro.sh [keys ...] -- build and run the PostgreSQL-free core
# microbenchmark (bench/micro.c against the core, src/core/bloom_*.c).  `bench/micro.sh kernels [portable]` runs only the
# whole-array kernels (OR, AND, popcount, hex encode/decode, fold, unfold).
#
# Compiled with the extension's own flags: PostgreSQL's CFLAGS (pg_config
# --cflags) plus -O3, no -march.  Default sizes 1M, 10M and 100M keys
# (100M needs about 2 GiB of memory).  MICRO_REPS sets the repetitions per
# figure (median, default 3).  Prints a Markdown table and writes it to
# bench/results/micro-latest.md (MICRO_OUT to change).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/${PG_MAJOR:-15}/bin/pg_config}
OUTDIR=$BENCH_DIR/out
OUT=${MICRO_OUT:-$BENCH_DIR/results/micro-latest.md}
CC=${CC:-gcc}

if ! command -v "$CC" >/dev/null || [ ! -x "$PG_CONFIG" ]; then
	source "$ROOT/scripts/lib.sh"
	ensure_base_packages
fi
CFLAGS="$("$PG_CONFIG" --cflags) -O3"
mkdir -p "$OUTDIR" "$(dirname "$OUT")"
# separate translation units, like the extension (no LTO)
CORE_OBJS=()
for src in "$ROOT"/src/core/bloom_*.c; do
	c=$(basename "$src" .c)
	$CC $CFLAGS -I"$ROOT/src/core" -c "$src" -o "$OUTDIR/$c.o"
	CORE_OBJS+=("$OUTDIR/$c.o")
done
$CC $CFLAGS -I"$ROOT/src/core" -c "$BENCH_DIR/micro.c" -o "$OUTDIR/micro.o"
$CC -o "$OUTDIR/micro" "$OUTDIR/micro.o" "${CORE_OBJS[@]}" -lm

{
	echo "# bloomset core microbenchmark"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- command: \`bench/micro.sh${*:+ $*}\` (MICRO_REPS=${MICRO_REPS:-3})"
	echo "- nproc: $(nproc); CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1); L2 $(lscpu | sed -n 's/^L2 cache: *//p'), L3 $(lscpu | sed -n 's/^L3 cache: *//p'); THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo '?')"
	echo "- compiler: $($CC --version | head -1); flags: $CFLAGS"
	echo "- bloomset core from: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD -- src/core 2>/dev/null || echo " + uncommitted changes to the core (hash $(cat "$ROOT"/src/core/bloom_*.[ch] 2>/dev/null | sha1sum | cut -c1-10))")"
	echo
	T0=$(date +%s)
	"$OUTDIR/micro" "$@"
	echo
	echo "- run time: $(( $(date +%s) - T0 )) s"
} | tee "$OUT"
