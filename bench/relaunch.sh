# Issue 29's relaunch figures on a large local library: COUNT photos (small JPEGs with an EXIF
# date, 1,000 a folder, hard links of one in each) opened twice in tmux (160x48, half blocks, read-ahead off,
# date sections) with one cache folder, then a third and a fourth time; the second visit's `--stats` timeline, how
# long `G` pressed at once on the third takes to reach the last photo (it follows the end as the rest comes), `G`
# once the library is known, and `G` pressed on the fourth when the first screen's target (0.3 s) has passed, beside
# `find` listing the same tree.
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
# The last row alone (the status line of a 48-row pane): no `tail` forked a poll, less of the cores taken from the gallery.
status() { tmux capture-pane -t "$SESSION" -p -S 47 -E 47; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$(date +%s.%N)"; }
# Polls the status line every 10 ms (a busy poll takes a core from the gallery) until it starts with $1.
until_status() { for _ in $(seq 3000); do [[ "$(status)" == "$1"* ]] && return 0; sleep 0.01; done; return 1; }
# One visit: until the scan is over, every date read and nothing on the screen loading (at most
# ten minutes). With `jump`: G as soon as the first photo shows (the cursor follows the end as
# the rest comes: how long until it is on the last), when the whole library is known, and G
# again (how long G itself takes).
visit() {
    rm -f "$WORK/err"
    tmux kill-session -t "$SESSION" 2>/dev/null
    local launched
    launched=$(date +%s.%N)
    tmux new-session -d -s "$SESSION" -x 160 -y 48 \
        "cd '$WORK' && XDG_CACHE_HOME=$WORK/cache '$BIN' --stats --read-ahead off --graphics half --sections date lib 2> '$WORK/err'; sleep 60"
    if [ "${1:-}" = jump ] || [ "${1:-}" = late ]; then
        until_status " 1/"
        local start
        # late: G when the first screen's target (0.3 s after the launch) has passed, as a user
        # who saw it would press it.
        [ "$1" = late ] && sleep "$(python3 -c "import sys; print(max(0, 0.3 - (float(sys.argv[2]) - float(sys.argv[1]))))" "$launched" "$(date +%s.%N)")"
        start=$(date +%s.%N)
        tmux send-keys -t "$SESSION" G
        until_status " $COUNT/$COUNT "
        followed=$(since "$start")
        known=$(since "$launched")
        tmux send-keys -t "$SESSION" g
        until_status " 1/$COUNT "
        start=$(date +%s.%N)
        tmux send-keys -t "$SESSION" G
        until_status " $COUNT/$COUNT "
        jumped=$(since "$start")
    fi
    for _ in $(seq 3000); do
        sleep 0.2
        s=$(status)
        [[ "$s" != *loading* && "$s" != *scanning* && "$s" != *checking* && "$s" != *reading* ]] && break
    done
    tmux send-keys -t "$SESSION" q
    for _ in $(seq 200); do grep -q "timeline" "$WORK/err" 2>/dev/null && break; sleep 0.1; done
    tmux kill-session -t "$SESSION" 2>/dev/null
}
start=$(date +%s.%N)
find "$WORK/lib" -type f | wc -l > /dev/null
listing=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)")
visit
cold=$(mark "screen complete")
visit
taken=$(grep -o 'index: [^(]*' "$WORK/err" | sed 's/ *$//')
second="items $(mark "scan's first batch") s, first picture $(mark "first thumbnail") s, screen complete $(mark "screen complete") s, the library all in $(mark "index landed") s ($taken)"
# A third visit for G (the cursor's moves change the screen, so its timeline is not the first screen's).
visit jump
early="on the last after $followed s (all $COUNT known $known s after the launch), then G from the first photo $jumped s"
visit late
echo "- $COUNT local photos, the second visit (the first's screen complete at ${cold:-?} s): $second;" \
    "a third, G pressed at the first photo: $early; a fourth, G pressed 0.3 s after the launch: on the last after $followed s;" \
    "find of the tree $listing s"
# The replay and the checking walk alone, outside the gallery (what the threads beside them cost it).
BENCH=$(dirname "$BIN")/lightbox-bench
[ -x "$BENCH" ] && echo "  $("$BENCH" replay "$WORK/cache/lightbox" "$WORK/lib")"
