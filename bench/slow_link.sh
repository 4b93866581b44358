# Issue 29's slow-link figures (ask 2): 24 photos of 1 MB whose EXIF thumbnails are 160x120, on a
# share through the harness (DELAY ms each way, a cap of KBIT kbit/s), two columns in tmux 160x48
# (quadrants, so the tiles need more than the thumbnails have), `--no-disk-cache --read-ahead
# off`; the --stats timeline's screen complete with `--io normal`, `slow` and `auto`, and the
# files read whole, beside a Python reader of the screen's files (6, whole, all at once).
#   slow_link.sh BIN DELAY KBIT   (needs root, sshd, sshfs, tmux, ImageMagick and exiftool)
set -uo pipefail
BIN=$(realpath "$1") DELAY=$2 KBIT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/slow_mount.sh"
SESSION=lightbox-slowlink-$$
WORK=$(mktemp -d)
trap 'tmux kill-session -t "$SESSION" 2>/dev/null; slow_mount_stop_all; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/src/exif"
convert -size 1200x900 xc:gray +noise Random -quality 98 "$WORK/big.jpg" && convert -size 160x120 xc:green "$WORK/thumb.jpg"
exiftool -q -overwrite_original "-ThumbnailImage<=$WORK/thumb.jpg" "$WORK/big.jpg"
for i in $(seq -w 24); do cp "$WORK/big.jpg" "$WORK/src/exif/IMG_$i.JPG"; done
slow_mount_start "$WORK/src" "$WORK/mnt" "$DELAY" "$KBIT" || { echo "slow link: no mount"; exit 1; }
mark() { sed -n "s/.*$1 \([0-9.]*\) ms.*/\1/p" "$WORK/err" | awk '{printf "%.2f", $1 / 1000}'; }
for io in normal slow auto; do
    rm -f "$WORK/err"
    tmux kill-session -t "$SESSION" 2>/dev/null
    tmux new-session -d -s "$SESSION" -x 160 -y 48 \
        "cd '$WORK' && XDG_CACHE_HOME=$WORK/cache '$BIN' --stats --no-disk-cache --read-ahead off --io $io -c 2 mnt/exif 2> '$WORK/err'; sleep 60"
    for _ in $(seq 600); do
        sleep 0.1
        s=$(tmux capture-pane -t "$SESSION" -p)
        [[ "$(tail -1 <<< "$s")" == " 1/24 "* ]] && ! grep -q "⋯" <<< "$s" && break
    done
    tmux send-keys -t "$SESSION" q
    for _ in $(seq 50); do [ -s "$WORK/err" ] && grep -q "memory cache" "$WORK/err" && break; sleep 0.1; done
    whole=$(sed -n 's/.*files read ahead of the decoders: \([0-9]*\),.*/\1/p' "$WORK/err")
    smaller=$(sed -n 's/.*smaller than the tile, for a slow link: \([0-9]*\)/\1/p' "$WORK/err")
    echo "- slow link ($((2 * DELAY)) ms, $KBIT kbit/s), --io $io: screen complete $(mark "screen complete") s, $whole files read whole, $smaller tiles smaller; $(sed -n 's/^  \(link: .*\)/\1/p' "$WORK/err")"
done
files=$(ls "$WORK/mnt/exif" | head -6 | sed "s|^|$WORK/mnt/exif/|")
reader=$(python3 - $files <<'PY'
import sys, time, threading
start = time.time()
def read(p):
    with open(p, 'rb') as f: f.read()
threads = [threading.Thread(target=read, args=(p,)) for p in sys.argv[1:]]
[t.start() for t in threads]; [t.join() for t in threads]
print(f"{time.time() - start:.2f}")
PY
)
echo "- slow link ($((2 * DELAY)) ms, $KBIT kbit/s): the screen's 6 files read whole by Python, all at once: $reader s"
