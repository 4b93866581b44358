# Issue 29's gallery figures: a library of large photos on sshfs behind a delaying proxy
# (bench/slow_mount.sh), opened in tmux (160x48, half blocks, read-ahead off, an empty cache):
# the timeline of `--stats` (first items, first picture, screen complete), beside a parallel
# reader of the same screen's files (8 at once, whole; then again, each decoded by djpeg at 1/8 as
# the gallery's decoders do), at each round trip given.
#   first_screen.sh BIN FOLDER ROUND_TRIP_MS...   (needs root, sshd, sshfs and tmux)
set -uo pipefail
BIN=$(realpath "$1") FOLDER=$2
shift 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/slow_mount.sh"
SESSION=lightbox-first-screen-$$
trap 'tmux kill-session -t "$SESSION" 2>/dev/null; slow_mount_stop_all' EXIT
MOUNT=$(mktemp -d) STATE=$(mktemp -d)
# The files of the first screen, read whole: the first folder's first 48 in the gallery's order, the
# 8x6 tiles with any part on a 160x48 half-block screen (five rows whole and the sixth's top), each
# of which the gallery's "screen complete" waits for.
peer() {  # peer [decode]: the screen's files read whole, 8 at once (and each decoded by djpeg -scale 1/8)
    python3 - "$MOUNT" "$@" <<'PY'
import os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
root = sys.argv[1]
first = sorted(d for d in os.listdir(root))[0]
names = sorted(os.listdir(os.path.join(root, first)), key=lambda n: [int(t) if t.isdigit() else t for t in __import__('re').split(r'(\d+)', n)])[:48]
decode = len(sys.argv) > 2
def whole(name):
    with open(os.path.join(root, first, name), 'rb') as f:
        data = b''.join(iter(lambda: f.read(1 << 20), b''))
    # With the decode too: djpeg at its smallest scale, as the gallery's decoders do for a tile.
    if decode: subprocess.run(['djpeg', '-scale', '1/8'], input=data, stdout=subprocess.DEVNULL, check=True)
start = time.time()
with ThreadPoolExecutor(8) as pool: list(pool.map(whole, names))
print(f'{time.time() - start:.2f}')
PY
}
mark() { sed -n "s/.*$1 \([0-9.]*\) ms.*/\1/p" "$STATE/err" | awk '{printf "%.2f", $1 / 1000}'; }
for rtt in "$@"; do
    slow_mount_start "$FOLDER" "$MOUNT" $((rtt / 2)) || { echo "first screen: could not mount"; exit 1; }
    rm -rf "$STATE/cache" "$STATE/err"
    tmux kill-session -t "$SESSION" 2>/dev/null
    tmux new-session -d -s "$SESSION" -x 160 -y 48 \
        "XDG_CACHE_HOME=$STATE/cache '$BIN' --stats --read-ahead off --graphics half '$MOUNT' 2> '$STATE/err'; sleep 60"
    # Until the screen has items and nothing on it is loading (at most two minutes).
    for _ in $(seq 600); do
        sleep 0.2
        status=$(tmux capture-pane -t "$SESSION" -p | tail -1)
        [[ "$status" == " 1/"* && "$status" != *loading* ]] && break
    done
    tmux send-keys -t "$SESSION" q
    for _ in $(seq 50); do grep -q "timeline" "$STATE/err" 2>/dev/null && break; sleep 0.1; done
    tmux kill-session -t "$SESSION" 2>/dev/null
    items=$(mark "scan's first batch") walked=$(mark "walk's first batch") first=$(mark "first thumbnail") complete=$(mark "screen complete")
    # The same screen's files on a fresh mount: nothing of them cached by the kernel.
    slow_mount_stop "$MOUNT"
    sleep 0.5
    slow_mount_start "$FOLDER" "$MOUNT" $((rtt / 2)) || exit 1
    read8=$(peer)
    slow_mount_stop "$MOUNT"
    sleep 0.5
    slow_mount_start "$FOLDER" "$MOUNT" $((rtt / 2)) || exit 1
    decoded8=$(peer decode)
    ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}x')" "${complete:-0}" "$1"; }
    echo "- at a ${rtt} ms round trip: the first screen's items ${items:-?} s (from the folder's listing; the walk's first files read ${walked:-?} s), first picture ${first:-?} s, screen complete ${complete:-?} s;" \
        "its 48 files read whole, 8 at once (Python) $read8 s: the screen complete at $(ratio "$read8") of it;" \
        "read so and each decoded by djpeg -scale 1/8 $decoded8 s ($(ratio "$decoded8"))"
    slow_mount_stop "$MOUNT"
    sleep 0.5
done
