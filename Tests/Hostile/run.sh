#!/usr/bin/env bash
# Runs hostile inputs through the scanner, the header parsers, the decoder processes and the view
# (--snapshot), one file at a time and all together, with a time limit. Fails on any crash, hang
# or escape byte that did not come from Lightbox's own colours.
# Usage: run.sh LIGHTBOX [--fast]   (--fast: the generated corpus only)
set -uo pipefail
BIN=$(realpath "$1")
FAST=${2:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache"
cd "$(dirname "$0")/../.."
passed=0; failed=0

python3 Tests/Hostile/make_corpus.py "$WORK/generated" assets/city/IMG_1.jpg assets/city/IMG_4.png >/dev/null || exit 1
folders=("$WORK/generated")
if [ "$FAST" != "--fast" ]; then
    for dir in /usr/libexec/installed-tests/gdk-pixbuf/test-images/fail \
               /usr/libexec/installed-tests/gdk-pixbuf/test-images/randomly-modified \
               /usr/share/gocode/src/github.com/rwcarlsen/goexif/exif/corrupt \
               /usr/share/go-1.19/src/image/testdata \
               /usr/share/go-1.19/src/image/png/testdata \
               /usr/share/go-1.19/src/image/png/testdata/pngsuite \
               /usr/share/gocode/src/golang.org/x/image/testdata; do
        # make test-hostile installs them all: a missing one means a corpus went untested.
        if [ -d "$dir" ]; then folders+=("$dir"); else failed=$((failed + 1)); echo "FAIL - missing corpus $dir"; fi
    done
fi

# Output may hold only our own SGR colour sequences: ESC [ digits/semicolons m.
clean() { ! LC_ALL=C grep -aP '\x1b(?!\[[0-9;]*m)|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]' "$1" >/dev/null; }

check() {  # check WHAT PATH
    timeout 30 "$BIN" --snapshot 100x30 --no-disk-cache "$2" >"$WORK/out" 2>"$WORK/err"
    local rc=$?
    if [ $rc -ge 124 ]; then
        failed=$((failed + 1)); echo "FAIL - $1: exit $rc $(head -c 300 "$WORK/err")"
    elif ! clean "$WORK/out"; then
        failed=$((failed + 1)); echo "FAIL - $1: stray control bytes in the output"
    else
        passed=$((passed + 1))
    fi
}

for folder in "${folders[@]}"; do
    count=0
    while IFS= read -r -d '' file; do
        check "$file" "$file"
        count=$((count + 1))
    done < <(find "$folder" -maxdepth 1 -type f -print0)
    check "all of $folder" "$folder"
    echo "checked $count files of $folder, one by one and together"
done
# A tiny view of the generated folder, so every broken tile is on screen and drawn.
timeout 30 "$BIN" --snapshot 300x200 --no-disk-cache "$WORK/generated" >"$WORK/out" 2>&1
rc=$?
if [ $rc = 0 ] && clean "$WORK/out"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL - large snapshot: exit $rc"; fi
# An EXIF thumbnail claiming 65500 pixels a side is held to --max-megapixels like the photo.
peak=$(python3 - "$BIN" "$WORK/generated/jpeg-exif-thumbnail-bomb.jpg" <<'PY'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "--snapshot", "40x12", "--no-disk-cache", "--decoders", "thread", "--max-megapixels", "1", sys.argv[2]],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
)
if [ -n "$peak" ] && [ "$peak" -lt 100 ]; then
    passed=$((passed + 1)); echo "ok - a lying EXIF thumbnail is bounded: peak $peak MB with --max-megapixels 1"
else
    failed=$((failed + 1)); echo "FAIL - EXIF thumbnail bomb: peak $peak MB"
fi
# Decoder bombs past the declared-size check: each bounded in time and memory, with a reason.
while IFS= read -r line; do
    case "$line" in
        "ok - "*) passed=$((passed + 1)); echo "$line" ;;
        "FAIL - "*) failed=$((failed + 1)); echo "$line" ;;
        *) echo "    $line" ;;
    esac
done < <(timeout 300 python3 Tests/Hostile/bombs.py "$BIN" "$WORK" 2>&1 || echo "FAIL - bombs.py ended with $?")
# Permission denied, as an unprivileged user: reported in the status line, the rest still shown.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    perm="$WORK/perm"
    mkdir -p "$perm/locked"
    cp assets/city/IMG_1.jpg "$perm/open.jpg"; cp assets/city/IMG_2.jpg "$perm/secret.jpg"; cp assets/city/IMG_3.jpg "$perm/locked/x.jpg"
    chmod 000 "$perm/secret.jpg" "$perm/locked"; chmod 755 "$WORK" "$perm"
    out=$(cd "$perm" && timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" --snapshot 120x30 --no-disk-cache . 2>&1)
    rc=$?
    text=$(echo "$out" | sed 's/\x1b\[[0-9;]*m//g')
    if [ $rc = 0 ] && grep -q "open.jpg" <<< "$text" && grep -q "Permission denied" <<< "$text" && grep -q "+1 more" <<< "$text"; then
        passed=$((passed + 1)); echo "ok - unreadable file and folder reported, the readable image shown"
    else
        failed=$((failed + 1)); echo "FAIL - permissions: exit $rc: $(echo "$text" | tail -1)"
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
