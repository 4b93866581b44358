# Issue 29's index figures: the gallery opened twice on a library over sshfs behind a delaying
# proxy (bench/slow_mount.sh), one cache folder for both (the index and the disk cache), in tmux
# (160x48, half blocks, read-ahead off, date sections, so every file's date is needed): the
# second visit's timeline of `--stats` and what it took from the index, beside `ls -lR` of the
# same mount, at each round trip given.
#   second_visit.sh BIN FOLDER ROUND_TRIP_MS...   (needs root, sshd, sshfs and tmux)
set -uo pipefail
BIN=$(realpath "$1") FOLDER=$2
shift 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/slow_mount.sh"
SESSION=lightbox-second-visit-$$
trap 'tmux kill-session -t "$SESSION" 2>/dev/null; slow_mount_stop_all' EXIT
MOUNT=$(mktemp -d) STATE=$(mktemp -d)
mark() { sed -n "s/.*$1 \([0-9.]*\) ms.*/\1/p" "$STATE/err" | awk '{printf "%.2f", $1 / 1000}'; }
# One visit: until the scan is over and nothing on the screen is loading (at most three minutes).
visit() {
    rm -f "$STATE/err"
    tmux kill-session -t "$SESSION" 2>/dev/null
    tmux new-session -d -s "$SESSION" -x 160 -y 48 \
        "XDG_CACHE_HOME=$STATE/cache '$BIN' --stats --read-ahead off --graphics half --sections date '$MOUNT' 2> '$STATE/err'; sleep 60"
    for _ in $(seq 900); do
        sleep 0.2
        status=$(tmux capture-pane -t "$SESSION" -p | tail -1)
        [[ "$status" == " 1/"* && "$status" != *loading* && "$status" != *scanning* && "$status" != *checking* ]] && break
    done
    tmux send-keys -t "$SESSION" q
    for _ in $(seq 50); do grep -q "timeline" "$STATE/err" 2>/dev/null && break; sleep 0.1; done
    tmux kill-session -t "$SESSION" 2>/dev/null
}
for rtt in "$@"; do
    slow_mount_start "$FOLDER" "$MOUNT" $((rtt / 2)) || { echo "second visit: could not mount"; exit 1; }
    rm -rf "$STATE/cache"
    start=$(date +%s.%N)
    ls -lR "$MOUNT" > /dev/null
    listing=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)")
    visit
    cold=$(mark "screen complete")
    visit
    items=$(mark "scan's first batch") first=$(mark "first thumbnail") complete=$(mark "screen complete")
    taken=$(grep -o 'index: [^(]*' "$STATE/err" | sed 's/ *$//')
    ratio=$(python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.3f}x')" "${complete:-0}" "$listing")
    echo "- at a ${rtt} ms round trip, the second visit (the first's screen complete at ${cold:-?} s): items ${items:-?} s," \
        "first picture ${first:-?} s, screen complete ${complete:-?} s ($taken); ls -lR of the mount $listing s: the screen complete at $ratio of it"
    slow_mount_stop "$MOUNT"
    sleep 0.5
done
