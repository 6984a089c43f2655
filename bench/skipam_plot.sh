#!/usr/bin/env bash
# bench/skipam_plot.sh -- the skipam group's picture: index pages read and
# time per point lookup (a present key) against table size, for btree, BRIN
# bloom (its defaults) and bloomskip (its defaults), from the figures the
# last run of the group wrote next to its report:
#
#   bash bench/skipam_plot.sh [bench/results/skipam.tsv]
#
# Reads the TSV (columns: rows, index, index_pages_present, ...; see
# bench/skipam_report.sh), draws two panels, log-log, with gnuplot (Debian's
# gnuplot-nox, installed if missing) into bench/results/skipam.png.  No
# server, no build: the figures are the report's.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../scripts/lib.sh"

TSV=${1:-$HERE/results/skipam.tsv}
OUT_PNG=${SKIPAM_PNG:-$(dirname "$TSV")/skipam.png}
[ -s "$TSV" ] || { echo "no figures in $TSV: run BENCH_GROUPS=skipam bash bench/run.sh first" >&2; exit 1; }

ensure_packages gnuplot-nox

# one data block per index (gnuplot's index n), in the order drawn
DAT=$(mktemp)
trap 'rm -f "$DAT"' EXIT
LABELS=()
for ix in btree brin bloomskip; do
	awk -F'\t' -v ix="$ix" 'NR > 1 && $2 == ix && $3 != "" { print $1, $3, $6 }' "$TSV" | sort -n > "$DAT.$ix"
	if [ -s "$DAT.$ix" ]; then
		cat "$DAT.$ix" >> "$DAT"
		printf '\n\n' >> "$DAT"
		case $ix in
			btree) LABELS+=("btree") ;;
			brin) LABELS+=("BRIN bloom (defaults; index forced)") ;;
			bloomskip) LABELS+=("bloomskip (defaults)") ;;
		esac
	fi
	rm -f "$DAT.$ix"
done
[ ${#LABELS[@]} -gt 0 ] || { echo "no btree, brin or bloomskip rows in $TSV" >&2; exit 1; }

PLOTS_PAGES= PLOTS_MS=
for i in "${!LABELS[@]}"; do
	sep=${PLOTS_PAGES:+, }
	PLOTS_PAGES+="$sep\"$DAT\" index $i using 1:2 with linespoints lw 2 pt $((i + 5)) ps 1.4 title \"${LABELS[$i]}\""
	PLOTS_MS+="$sep\"$DAT\" index $i using 1:3 with linespoints lw 2 pt $((i + 5)) ps 1.4 title \"${LABELS[$i]}\""
done

gnuplot <<EOF
set terminal pngcairo size 1200,520 font ",11" enhanced
set output "$OUT_PNG"
set multiplot layout 1,2 title "point lookup of a present key (8 rows) in spans: $(basename "$TSV"), $(date -u -r "$TSV" '+%Y-%m-%d')"
set logscale xy
set grid
set xlabel "table rows"
set format x "10^{%T}"
set xrange [5e5:2e8]
set key outside below center horizontal
set title "index pages read per lookup (median of 21 keys)"
set ylabel "index pages (shared hit + read)"
set format y "%g"
plot $PLOTS_PAGES
set title "time per lookup (median, ms; a shared 2-core machine)"
set ylabel "ms"
plot $PLOTS_MS
unset multiplot
EOF
echo "wrote $OUT_PNG"
