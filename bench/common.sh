# What bench/run.sh and bench/media.sh share; sourced, with the corpus folder and the number of
# runs as $1 and $2: the binaries, a temporary folder, and how a command is timed and reported.
set -uo pipefail
cd "$(dirname "$0")/.."
CORPUS=$(realpath -m "${1:-bench-corpus}")
RUNS=${2:-5}
BIN=$(realpath .build/release/lightbox)
BENCH=$(realpath .build/release/lightbox-bench)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# median WALL USER+SYS MAXRSS(KB) of RUNS runs of a command (stdout discarded); before each run,
# $PREPARE (a shell snippet, if set) runs untimed.
measure() {
    local runs=$1; shift
    : > "$TMP/runs"
    for _ in $(seq "$runs"); do
        [ -n "${PREPARE:-}" ] && sh -c "$PREPARE"
        /usr/bin/time -f "%e %U %S %M" -o "$TMP/t" "$@" >/dev/null 2>"$TMP/err" || echo "failed: $* ($(tail -1 "$TMP/err"))" >&2
        tail -1 "$TMP/t" >> "$TMP/runs"
    done
    local wall cpu rss
    wall=$(awk '{print $1}' "$TMP/runs" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
    cpu=$(awk '{printf "%.2f\n", $2 + $3}' "$TMP/runs" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
    rss=$(awk '{print $4}' "$TMP/runs" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
    echo "$wall $cpu $rss"
}
# median wall time in milliseconds (0.1 ms) of RUNS runs of a command, stdout and stderr discarded:
# for what /usr/bin/time's 10 ms cannot tell apart.
millis() {
    python3 - "$@" <<'PY'
import subprocess, sys, time
runs, argv = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
print(f"{sorted(times)[len(times) // 2]:.1f}")
PY
}
row() { printf "| %s | %s | %s | %s |\n" "$1" "$2" "$3" "$4"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
