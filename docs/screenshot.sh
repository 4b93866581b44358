#!/usr/bin/env bash
# Remakes docs/screenshot.png: real photographs in Lightbox's grid, in a real xterm showing sixel
# pictures under Xvfb. The photographs are scikit-image's sample data, taken from its wheel on PyPI
# (NASA's public-domain pictures and photos its authors gave under CC0; see skimage/data); none is
# kept in the repository, and the sample library in assets/ stays what `make run` opens offline.
#
# usage: bash docs/screenshot.sh [LIGHTBOX]   (default: .build/release/lightbox; needs xvfb xterm
#        x11-apps netpbm xdotool imagemagick fonts-dejavu-core, which make test-deps installs, and pip)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath "${1:-$REPO/.build/release/lightbox}")
WORK=$(mktemp -d)
cleanup() {
    [ -n "${XVFB:-}" ] && kill "$XVFB" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

# The photographs, by folder: a section each.
python3 -m pip download --quiet --no-deps --only-binary=:all: scikit-image==0.26.0 -d "$WORK/wheel"
python3 - "$WORK" <<'PY'
import glob, os, sys, zipfile
work = sys.argv[1]
folders = {
    "2026-06 space": ["astronaut.png", "rocket.jpg", "hubble_deep_field.jpg", "moon.png"],
    "2026-07 home": ["chelsea.png", "coffee.png", "camera.png", "coins.png", "brick.png", "grass.png", "gravel.png"],
}
wheel = zipfile.ZipFile(glob.glob(f"{work}/wheel/*.whl")[0])
for folder, names in folders.items():
    os.makedirs(f"{work}/raw/{folder}", exist_ok=True)
    for name in names:
        open(f"{work}/raw/{folder}/{name}", "wb").write(wheel.read(f"skimage/data/{name}"))
PY
# As a camera would hand them over: JPEGs named in sequence.
number=100
for folder in "$WORK/raw/"*; do
    mkdir -p "$WORK/Photos/$(basename "$folder")"
    for picture in "$folder"/*; do
        number=$((number + 1))
        convert "$picture" -quality 90 "$WORK/Photos/$(basename "$folder")/DSC_0$number.jpg"
    done
done

source "$REPO/Tests/EndToEnd/pixels.sh"
start_xvfb
DISPLAY=":$N" LANG=C.UTF-8 xterm -ti vt340 -tn xterm-256color -fa 'DejaVu Sans Mono' -fs 11 -bg '#14171c' -fg '#d8d8d8' -b 0 -bw 0 -geometry 120x34+0+0 \
    -e sh -c "cd '$WORK' && '$BIN' --graphics sixel --cache-dir '$WORK/cache' --footers Photos" >/dev/null 2>&1 &
sleep 4
DISPLAY=":$N" xdotool windowfocus "$(DISPLAY=":$N" xdotool search --class xterm | head -1)" 2>/dev/null
# Mark two photos and leave the cursor on a third, as in the middle of a pick.
DISPLAY=":$N" xdotool type --delay 400 ' l '
sleep 3
geometry=$(DISPLAY=":$N" xdotool getwindowgeometry "$(DISPLAY=":$N" xdotool search --class xterm | head -1)" | sed -n 's/.*Geometry: //p')
DISPLAY=":$N" xwd -root -silent | xwdtopnm 2>/dev/null | pnmcut 0 0 "${geometry%x*}" "${geometry#*x}" | pnmtopng > "$REPO/docs/screenshot.png"
DISPLAY=":$N" xdotool type q
echo "docs/screenshot.png: $geometry"
