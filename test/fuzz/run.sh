#!/usr/bin/env bash
# test/fuzz/run.sh [executions]  -- libFuzzer run of the bloomset decoders
#
# Builds test/fuzz/fuzz_decode.c with the core, src/core/bloom_*.c (no PostgreSQL
# needed) under clang -fsanitize=fuzzer,address,undefined, seeds a scratch
# corpus with test/fuzz/corpus/ plus freshly generated valid encodings
# (gen_seeds.c), and runs the given number of executions (default
# 10,000,000, about 2 minutes on one core; 200000 is the quick mode the
# main test run uses).  A crash (sanitizer report, abort on a broken
# invariant, timeout, out-of-memory) is saved to test/fuzz/crashes/ and the
# run resumes with the executions left, up to FUZZ_MAX_CRASHES crashes.
#
#   FUZZ_SEED=N          libFuzzer -seed (default: random, printed)
#   FUZZ_MAX_LEN=N       largest input in bytes (default 8192)
#   FUZZ_CORPUS_DIR=DIR  keep the grown corpus in DIR (default: scratch)
#   FUZZ_MAX_CRASHES=N   stop after N crashes (default 5)
#
#   test/fuzz/run.sh --repro FILE...   run the target on saved inputs
#
# Ends with "SUITE fuzz: N passed, M failed" (1 passed when no crash).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
source "$ROOT/scripts/lib.sh"

ensure_packages clang libclang-rt-14-dev

CC=${FUZZ_CC:-clang}
MAX_LEN=${FUZZ_MAX_LEN:-8192}
MAX_CRASHES=${FUZZ_MAX_CRASHES:-5}
WORK=$(mktemp -d /tmp/bloomset-fuzz.XXXXXX)
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

CORE=("$ROOT"/src/core/bloom_*.c "$ROOT/src/core/parquet_format.c")
SAN="-fsanitize=fuzzer,address,undefined,float-divide-by-zero -fno-sanitize-recover=all"
build() {
	$CC -g -O1 -fno-omit-frame-pointer -Wall $SAN -I"$ROOT/src/core" \
		"$HERE/fuzz_decode.c" "${CORE[@]}" -lm -o "$WORK/fuzz_decode"
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ "${1:-}" = "--repro" ]; then
	shift
	build
	exec "$WORK/fuzz_decode" "$@"
fi

RUNS=${1:-10000000}
case $RUNS in
	'' | *[!0-9]*) echo "usage: $0 [executions] | --repro FILE..." >&2; exit 2 ;;
esac

echo "== fuzz: building fuzz_decode ($CC, ASan+UBSan+libFuzzer)"
build
$CC -O1 -I"$ROOT/src/core" "$HERE/gen_seeds.c" "${CORE[@]}" -lm -o "$WORK/gen_seeds"

CORPUS=${FUZZ_CORPUS_DIR:-$WORK/corpus}
mkdir -p "$CORPUS" "$WORK/artifacts"
"$WORK/gen_seeds" "$CORPUS" >/dev/null
if [ -d "$HERE/corpus" ]; then cp "$HERE"/corpus/* "$CORPUS"/ 2>/dev/null || true; fi
echo "== fuzz: corpus $(ls "$CORPUS" | wc -l) inputs, $RUNS executions requested, max_len $MAX_LEN"

executed=0
crashes=0
attempt=0
start=$(date +%s)
while [ "$executed" -lt "$RUNS" ] && [ "$crashes" -lt "$MAX_CRASHES" ]; do
	attempt=$((attempt + 1))
	left=$((RUNS - executed))
	seedopt=()
	[ -n "${FUZZ_SEED:-}" ] && seedopt=(-seed=$((FUZZ_SEED + attempt - 1)))
	log=$WORK/fuzz-$attempt.log
	rc=0
	"$WORK/fuzz_decode" -runs="$left" -max_len="$MAX_LEN" -dict="$HERE/bloom.dict" \
		-timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$WORK/artifacts/" "${seedopt[@]}" \
		"$CORPUS" >"$log" 2>&1 || rc=$?
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ -z "$n" ]; then
		# no final stats (killed hard): use the last progress line
		n=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
		n=${n:-0}
	fi
	grep -m1 -E '^INFO: Seed:' "$log" || true
	executed=$((executed + n))
	if [ "$rc" -ne 0 ]; then
		crashes=$((crashes + 1))
		echo "!! crash $crashes (exit $rc) after $n executions of this attempt:"
		grep -E 'ERROR: |runtime error|invariant failed|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 | sed 's/^/   /'
		mkdir -p "$HERE/crashes"
		for a in "$WORK"/artifacts/*; do
			[ -e "$a" ] || continue
			cp "$a" "$HERE/crashes/" && echo "   saved test/fuzz/crashes/$(basename "$a")"
			rm -f "$a"
		done
		cp "$log" "$HERE/crashes/fuzz-$(date +%Y%m%d-%H%M%S)-$attempt.log"
		if [ "$n" -eq 0 ]; then
			break		# crashes before running anything: don't spin
		fi
	fi
done
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -gt 0 ] || elapsed=1
units=$(sed -n 's/^stat::new_units_added: *//p' "$WORK"/fuzz-*.log | awk '{s += $1} END {print s + 0}')
cov=$(grep -oE 'cov: [0-9]+' "$WORK"/fuzz-*.log | tail -1 | awk '{print $2}')
echo "fuzz: executions: $executed (requested $RUNS) in ${elapsed}s, $((executed / elapsed))/s"
echo "fuzz: coverage edges: ${cov:-?}, new corpus units: $units, corpus now $(ls "$CORPUS" | wc -l) inputs"
echo "fuzz: crashes: $crashes"
if [ "$crashes" -eq 0 ] && [ "$executed" -ge "$RUNS" ]; then
	echo "SUITE fuzz: 1 passed, 0 failed"
else
	echo "SUITE fuzz: 0 passed, 1 failed"
	exit 1
fi
