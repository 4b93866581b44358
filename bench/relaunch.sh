# Issue 29's relaunch figures on a large local library: COUNT photos (small JPEGs with an EXIF
# date, 1,000 a folder, hard links of one in each) opened twice in tmux (160x48, half blocks, read-ahead off,
# date sections) with one cache folder; the second visit's `--stats` timeline, and how long `G`
# takes to show the last photo in the status line, beside `find` listing the same tree.
#   relaunch.sh BIN COUNT   (needs tmux, ImageMagick and exiftool)
set -uo pipefail
BIN=$(realpath "$1") COUNT=$2
SESSION=lightbox-relaunch-$$
WORK=$(mktemp -d)
trap 'tmux kill-session -t "$SESSION" 2>/dev/null; rm -rf "$WORK"' EXIT
convert -size 64x48 xc:gray +noise Random "$WORK/one.jpg" && exiftool -q -overwrite_original -DateTimeOriginal="2024:05:01 10:00:00" "$WORK/one.jpg"
# A copy a folder, hard links of it for the rest (a file takes at most 65,000 links).
for ((i = 0; i < COUNT; i++)); do
    folder=$WORK/lib/folder-$((i / 1000))
    if ((i % 1000 == 0)); then
        mkdir -p "$folder" && cp "$WORK/one.jpg" "$folder/IMG_$i.JPG" && first=$folder/IMG_$i.JPG
    else
        ln "$first" "$folder/IMG_$i.JPG"
    fi
done
mark() { sed -n "s/.*$1 \([0-9.]*\) ms.*/\1/p" "$WORK/err" | awk '{printf "%.2f", $1 / 1000}'; }
status() { tmux capture-pane -t "$SESSION" -p | tail -1; }
# One visit: until the scan is over, every date read and nothing on the screen loading (at most
# ten minutes); with `jump`, then G and the time until the status line shows the last photo.
visit() {
    rm -f "$WORK/err"
    tmux kill-session -t "$SESSION" 2>/dev/null
    tmux new-session -d -s "$SESSION" -x 160 -y 48 \
        "cd '$WORK' && XDG_CACHE_HOME=$WORK/cache '$BIN' --stats --read-ahead off --graphics half --sections date lib 2> '$WORK/err'; sleep 60"
    if [ "${1:-}" = jump ]; then
        for _ in $(seq 100); do [[ "$(status)" == " 1/"* ]] && break; sleep 0.01; done
        local start
        start=$(date +%s.%N)
        tmux send-keys -t "$SESSION" G
        for _ in $(seq 2000); do [[ "$(status)" == " $COUNT/$COUNT "* ]] && break; done
        jumped=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$start" "$(date +%s.%N)")
    fi
    for _ in $(seq 3000); do
        sleep 0.2
        s=$(status)
        [[ "$s" != *loading* && "$s" != *scanning* && "$s" != *reading* ]] && break
    done
    tmux send-keys -t "$SESSION" q
    for _ in $(seq 50); do grep -q "timeline" "$WORK/err" 2>/dev/null && break; sleep 0.1; done
    tmux kill-session -t "$SESSION" 2>/dev/null
}
start=$(date +%s.%N)
find "$WORK/lib" -type f | wc -l > /dev/null
listing=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)")
visit
cold=$(mark "screen complete")
visit jump
taken=$(grep -o 'index: [^(]*' "$WORK/err" | sed 's/ *$//')
echo "- $COUNT local photos, the second visit (the first's screen complete at ${cold:-?} s): items $(mark "scan's first batch") s," \
    "first picture $(mark "first thumbnail") s, screen complete $(mark "screen complete") s, G to the last photo in $jumped s ($taken); find of the tree $listing s"
