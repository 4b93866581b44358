#!/usr/bin/env bash
# The phone and camera part of make bench: videos, RAWs, and a mixed folder, beside the peers.
# Usage: bench/media.sh [CORPUS-DIR] [RUNS]
source "$(dirname "$0")/common.sh"
"$BENCH" media "$CORPUS" >/dev/null || exit 1
M="$CORPUS/media"

fresh="rm -rf '$TMP/cache' '$TMP/out'; mkdir -p '$TMP/out'"

echo "## Phones and cameras"
echo
echo "8 phone videos (1080p, 8 s, H.264; half turned a quarter, half fading in), 12 DNGs (4000x3000 sensor data, 1616x1080 JPEG preview), 8 HEICs of 4000x3000 photos. Medians of $RUNS runs; 2 processes on each side; files in the page cache, no thumbnail cache."
echo
row "what" "wall s" "CPU s" "ratio"
row "---" "---" "---" "---"
read -r fw fc _ < <(PREPARE="$fresh" measure "$RUNS" sh -c "ls '$M'/videos/*.MP4 | xargs -P2 -I{} sh -c 'ffmpegthumbnailer -s 256 -i \"\$1\" -o \"\$2/\$(basename \"\$1\").png\"' _ {} '$TMP/out'")
row "ffmpegthumbnailer -s 256, 8 videos" "$fw" "$fc" "1"
read -r lw lc _ < <(PREPARE="$fresh" measure "$RUNS" env XDG_CACHE_HOME="$TMP/cache" "$BIN" --warm "$M/videos")
row "lightbox --warm (a frame each, 256 px), 8 videos" "$lw" "$lc" "$(ratio "$lw" "$fw") (goal ≤ 1)"
read -r ew ec _ < <(PREPARE="$fresh" measure "$RUNS" sh -c "ls '$M'/raw/*.DNG | xargs -P2 -I{} sh -c 'exiftool -b -PreviewImage {} | djpeg -scale 1/8 > /dev/null'")
row "exiftool -b -PreviewImage then djpeg -scale 1/8, 12 DNGs" "$ew" "$ec" "1"
read -r rw rc _ < <(PREPARE="$fresh" measure "$RUNS" env XDG_CACHE_HOME="$TMP/cache" "$BIN" --warm "$M/raw")
row "lightbox --warm (the preview, 256 px), 12 DNGs" "$rw" "$rc" "$(ratio "$rw" "$ew") (goal ≤ 0.5)"
read -r jw jc _ < <(measure "$RUNS" "$BIN" --snapshot 160x48 --no-disk-cache "$CORPUS/photos24")
row "lightbox --snapshot 160x48, 24 JPEGs, cold" "$jw" "$jc" "1"
read -r mw mc _ < <(measure "$RUNS" "$BIN" --snapshot 160x48 --no-disk-cache "$M/mixed24")
row "lightbox --snapshot 160x48, 8 HEIC + 8 DNG + 8 videos, cold" "$mw" "$mc" "$(ratio "$mw" "$jw") (goal ≤ 1.3)"
read -r cw cc _ < <(measure "$RUNS" "$BIN" --snapshot 160x48 --no-disk-cache "$M/card")
row "lightbox --snapshot 160x48, a card: 12 RAW+JPEG pairs and 12 DNGs (24 items), cold" "$cw" "$cc" "$(ratio "$cw" "$jw")"
echo
sources=$("$BIN" --snapshot 160x48 --no-disk-cache --stats "$M/mixed24" 2>&1 >/dev/null \
    | awk -F': ' '/RAW preview|RAW developed|video frame|libvips|failed/ && $2 > 0 {sub(/^ +/, "", $1); printf "%s%s: %s", sep, $1, $2; sep = ", "}')
echo "Where the thumbnails came from, for the mixed folder: $sources."

echo
echo "## The wire"
echo
echo "A 160x48 pseudo-terminal of 10x20-pixel cells read at a link's rate, on 200 photos of the library, the disk cache warm (bench/wire.py): the first screen, five PgDn 0.15 s apart (timed from the last), the pages measured in the disk cache first (a run of their own), and how long the cells of a key pressed 0.2 s in take to arrive; timg --grid on 24 of the files beside."
echo
if [ -d "$CORPUS/library/f00" ]; then
    for kbit in 10000 2000; do
        echo "At $kbit kbit/s:"
        echo
        python3 bench/wire.py "$BIN" "$CORPUS/library/f00" half,iterm,kitty,sixel "$kbit"
        echo
    done
    echo "At 2000 kbit/s with --link-speed 2000 (pictures at a quarter of their resolution):"
    echo
    LIGHTBOX_LINK_SPEED=2000 python3 bench/wire.py "$BIN" "$CORPUS/library/f00" iterm,kitty 2000
    echo
    echo "Scrolling with the wheel (30 lines, the link as fast as written): bytes a line, beside a row of the first screen."
    echo
    python3 bench/wire.py "$BIN" "$CORPUS/library/f00" scroll sixel,half,kitty,iterm
    echo
    echo "Key to frame on a fast link (200 keys, l and h in turn):"
    echo
    python3 bench/wire.py "$BIN" "$CORPUS/library/f00" keys kitty,sixel,half
    echo
    echo "The read-ahead on a cold disk cache, the whole 2,000-file library, half blocks: keys 0.6 s apart while it works, then G after 60 s, beside --read-ahead off:"
    echo
    python3 bench/wire.py "$BIN" "$CORPUS/library" read-ahead half 60
else
    echo "(no $CORPUS/library: bench/run.sh makes it)"
fi
