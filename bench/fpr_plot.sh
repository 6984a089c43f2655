#!/usr/bin/env bash
# bench/fpr_plot.sh -- the README's picture: measured false-positive rate
# against bits per item, for each layout and hashing scheme, with the
# theory curves.  One command regenerates it:
#
#   bash bench/fpr_plot.sh        (SKIP_BUILD=1: bloomset already installed)
#
# On a throwaway cluster: for bits per item b = 4, 6, ..., 24, a filter of
# m = 2^20 bits gets n = m / b distinct bigint keys, and 200,000 keys that
# were not added are probed; the share answered "maybe" is the measured
# rate.  Series (bench/fpr_series.sql): each layout and scheme bloomset
# writes.  Theory: classic (1 - e^(-k/b))^k with k = round(b ln 2);
# blocked (split block, 8 bits in a 256-bit block):
# sum_j Pois(j; 256/b) (1 - (31/32)^j)^8.
# Writes bench/results/fpr_vs_bits.dat (the numbers) and
# bench/results/fpr_vs_bits.png (gnuplot, from Debian's gnuplot-nox).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../scripts/lib.sh"

OUT_DAT=$HERE/results/fpr_vs_bits.dat
OUT_PNG=$HERE/results/fpr_vs_bits.png

ensure_packages gnuplot-nox
if [ "${SKIP_BUILD:-0}" != 1 ]; then
	ensure_base_packages
	build_install
fi
pg_start
psql_q -c "CREATE EXTENSION bloomset"
{
	echo "# bench/fpr_plot.sh on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$HERE/.." rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "# m = 2^20 bits, n = m / b keys, 200,000 non-member probes per point"
	psql_q -At -F ' ' -f "$HERE/fpr_series.sql"
} > "$OUT_DAT"
cat "$OUT_DAT"

cols=$(sed -n 's/^# columns: //p' "$OUT_DAT")
gnuplot <<EOF
set terminal pngcairo size 800,560 font ",11" enhanced
set output "$OUT_PNG"
set title "false-positive rate against bits per item (m = 2^{20} bits, 200,000 probes per point)"
set xlabel "bits per item (m / n)"
set ylabel "false-positive rate"
set logscale y
set format y "%.0e"
set grid
set key top right inside box opaque
set xrange [3:25]
plot "$OUT_DAT" using 1:(\$7) with lines lw 2 lc rgb "#888888" title "theory: classic, k = round(b ln 2)", \
     "$OUT_DAT" using 1:(\$8) with lines lw 2 dt 2 lc rgb "#444444" title "theory: blocked (split block)", \
     for [c=2:6] "$OUT_DAT" using 1:(column(c) > 0 ? column(c) : 1/0) with linespoints pt c ps 1.2 title word("$cols", c) noenhanced
EOF
echo "wrote $OUT_PNG"
