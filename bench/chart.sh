#!/usr/bin/env bash
# Draws the first screen's figures of a bench/run.sh report as a bar chart (PNG, gnuplot):
# each program's wall time for the 24 photos, cold. Usage: bench/chart.sh REPORT.md OUT.png
set -euo pipefail
report=$1 out=$2
data=$(mktemp)
trap 'rm -f "$data"' EXIT
# "| what | wall s | ..." rows about the 24 files, cold: a short name and the wall time.
awk -F'|' '
    function bar(name) { if (!seen[name]++) print "\"" name "\"", $3 }
    /^\| lightbox --snapshot 160x48, 24 files, cold \|/ { bar("Lightbox"); next }
    /decoders thread .* 24 files, cold/ { bar("Lightbox, threads"); next }
    /^\| timg .* 24 files/ { bar("timg, 2 threads"); next }
    /^\| djpeg .* 24 files/ { bar("djpeg 1/8 (floor)"); next }
    /^\| vipsthumbnail/ { bar("vipsthumbnail"); next }
    /^\| chafa/ { bar("chafa"); next }
' "$report" > "$data"
[ -s "$data" ] || { echo "chart.sh: no rows found in $report" >&2; exit 1; }
gnuplot <<GP
set terminal pngcairo size 760,360 font "DejaVu Sans,11" noenhanced
set output "$out"
set title "The first screen of 24 photos (4000x3000 JPEG), cold: wall seconds (less is better)"
set style fill solid 0.85 border -1
set boxwidth 0.6
set yrange [0:*]
set grid ytics
set xtics rotate by -20 scale 0
unset key
plot "$data" using 0:2:xtic(1) with boxes lc rgb "#4a90c8", \
     "" using 0:2:(sprintf("%.2f", \$2)) with labels offset 0,0.8
GP
echo "$out"
