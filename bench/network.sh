# Issue 29's first figures: a folder of photos on sshfs behind a delaying proxy (bench/slow_mount.sh),
# listed, sniffed and read by the peers and by Lightbox, at the round trips given.
#   network.sh BIN FOLDER ROUND_TRIP_MS...   (needs root, sshd and sshfs)
# Prints one line per figure: seconds, and the ratio to the 32-reader sniff of the same run.
set -uo pipefail
BIN=$1 FOLDER=$2
shift 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/slow_mount.sh"
trap slow_mount_stop_all EXIT
MOUNT=$(mktemp -d)
seconds() { local start=$(date +%s.%N); "$@" > /dev/null 2>&1; python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)"; }
sniff() {  # sniff READERS: 16 bytes of each file, READERS at once
    python3 - "$MOUNT" "$1" <<'PY'
import os, sys
from concurrent.futures import ThreadPoolExecutor
root, readers = sys.argv[1], int(sys.argv[2])
paths = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
def head(p):
    with open(p, 'rb') as f: return f.read(16)
with ThreadPoolExecutor(readers) as pool: list(pool.map(head, paths))
PY
}
count=$(find "$FOLDER" -type f | wc -l)
for rtt in "$@"; do
    slow_mount_start "$FOLDER" "$MOUNT" $((rtt / 2)) || { echo "network: could not mount"; exit 1; }
    ls_lr=$(seconds ls -lR "$MOUNT")
    one=$(seconds sniff 1)
    many=$(seconds sniff 32)
    ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}x')" "$1" "$many"; }
    # A first visit each: a cache folder of its own (an index shared would remember the run before).
    first() { local cache; cache=$(mktemp -d); seconds env XDG_CACHE_HOME="$cache" "$BIN" "$@"; rm -rf "$cache"; }
    found1=$(first --reads 1 --list kind:photo "$MOUNT")
    found=$(first --list kind:photo "$MOUNT")
    dated1=$(first --reads 1 --list date:2000..2100 "$MOUNT")
    dated=$(first --list date:2000..2100 "$MOUNT")
    # The second visit: an index filled by a first.
    index=$(mktemp -d)
    XDG_CACHE_HOME=$index "$BIN" --list date:2000..2100 "$MOUNT" > /dev/null 2>&1
    indexed=$(seconds env XDG_CACHE_HOME="$index" "$BIN" --list date:2000..2100 "$MOUNT")
    rm -rf "$index"
    echo "- $count files on sshfs at a ${rtt} ms round trip: ls -lR $ls_lr s; 16 bytes of each, one at a time $one s, 32 readers $many s;" \
        "lightbox --list kind:photo (every file recognised) --reads 1 $found1 s ($(ratio "$found1")), auto $found s ($(ratio "$found"));" \
        "--list date:… (every date read too) --reads 1 $dated1 s ($(ratio "$dated1")), auto $dated s ($(ratio "$dated"));" \
        "the same again with the index a first visit filled $indexed s ($(ratio "$indexed"))"
    slow_mount_stop "$MOUNT"
    sleep 0.5
done
