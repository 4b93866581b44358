#!/usr/bin/env bash
# iTerm2 images in a real Konsole (Debian 12's, 22.12) under Xvfb: auto picks them from Konsole's
# XTVERSION answer, each tile shows its colour, nothing stays behind after G (Konsole keeps
# images over later text, so a picture leaving clears the screen), and a scroll and a row move
# leave every tile whole. Konsole is about 200 packages: `make test-konsole` installs it, not
# `make test`. Usage: konsole.sh PATH-TO-LIGHTBOX
source "$(dirname "$0")/helpers.sh" "$1"
source "$REPO/Tests/EndToEnd/pixels.sh"
command -v konsole >/dev/null || { echo "konsole is not installed (make test-konsole installs it)"; exit 2; }
make_pictures "$WORK/iterm"
start_xvfb
trap 'pkill -f "konsole --nofork" 2>/dev/null; kill "$XVFB" 2>/dev/null; sleep 0.3; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/runtime" && chmod 700 "$WORK/runtime"
DISPLAY=":$N" LANG=C.UTF-8 XDG_RUNTIME_DIR="$WORK/runtime" QT_QPA_PLATFORM=xcb konsole --nofork \
    -e sh -c "cd '$WORK' && '$BIN' --stats iterm 2> konsole-err; echo \$? > konsole-rc" >/dev/null 2>&1 &
# Konsole's menus and toolbar sit above the cells: no check of text rows by position here.
first=$(check_screen 20 present "${COLOURS[@]:0:5}")
DISPLAY=":$N" xdotool windowfocus "$(DISPLAY=":$N" xdotool search --class konsole | head -1)" 2>/dev/null
DISPLAY=":$N" xdotool type --delay 200 G
last=$(check_screen 20 present "${COLOURS[@]:20:5}")
gone=$(check_screen 20 absent "${COLOURS[@]:0:5}")
DISPLAY=":$N" xdotool type --delay 300 gjj
moved=$(check_screen 20 present "${COLOURS[@]:5:10}")
DISPLAY=":$N" xdotool type q
for _ in $(seq 30); do [ -s "$WORK/konsole-rc" ] && break; sleep 0.1; done
chosen=$(grep "pictures:" "$WORK/konsole-err" 2>/dev/null)
if [ "$first" = ok ] && [ "$last" = ok ] && [ "$gone" = ok ] && [ "$moved" = ok ] && [ "$(cat "$WORK/konsole-rc" 2>/dev/null)" = 130 ] \
   && grep -q "pictures: iTerm2 images (terminal: Konsole" <<< "$chosen"; then
    pass "Konsole: auto chose iTerm2 images; JPEGs in their tiles' colours, none left after G, whole after g j j"
else
    fail "iTerm2 images in Konsole" "first screen: $first"$'\n'"after G, shown: $last"$'\n'"after G, gone: $gone"$'\n'"after g j j: $moved"$'\n'"rc: $(cat "$WORK/konsole-rc" 2>/dev/null), $chosen"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
