#!/usr/bin/env bash
# The kitty path in a real kitty (0.28 or later, for Unicode placeholders), under Xvfb.
# Debian 12 ships kitty 0.26, so kitty comes from a Debian 13 chroot made once with debootstrap
# (about 700 MB under .build/kitty-root); Lightbox runs on this machine through a chroot back.
# Needs root (chroot, mounts). Usage: kitty.sh PATH-TO-LIGHTBOX
set -uo pipefail
BIN=$(realpath "${1:-.build/release/lightbox}")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
ROOT=${KITTY_ROOT:-$REPO/.build/kitty-root}
[ "$(id -u)" = 0 ] || { echo "kitty.sh needs root (chroot)"; exit 2; }
source "$REPO/Tests/EndToEnd/debian_root.sh"
if [ ! -x "$ROOT/usr/bin/kitty" ]; then
    debian_root trixie "$ROOT"
    chroot "$ROOT" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends kitty fonts-dejavu-core libgl1-mesa-dri libegl1 libgl1" >/dev/null \
        || { echo "cannot install kitty in $ROOT"; exit 1; }
fi
WORK=$(mktemp -d)
N=$((50 + $$ % 400))
mkdir -p "$ROOT/host" "$ROOT/tmp/.X11-unix"
mount --rbind /dev "$ROOT/dev" && mount --bind /proc "$ROOT/proc" && mount --bind /tmp/.X11-unix "$ROOT/tmp/.X11-unix" \
    && mount --rbind / "$ROOT/host" || { echo "cannot mount into $ROOT"; exit 1; }
cleanup() {
    pkill -f "kitty --config NONE --class lightbox-e2e" 2>/dev/null
    tmux -L lightbox-kitty kill-server 2>/dev/null
    kill "$XVFB" 2>/dev/null
    sleep 0.3
    umount -R -l "$ROOT/host" "$ROOT/tmp/.X11-unix" "$ROOT/proc" "$ROOT/dev" 2>/dev/null
    rm -rf "$WORK"
}
XVFB=
trap cleanup EXIT

source "$REPO/Tests/EndToEnd/pixels.sh"
make_pictures "$WORK/pictures"
start_xvfb
chroot "$ROOT" env DISPLAY=":$N" LIBGL_ALWAYS_SOFTWARE=1 HOME=/root kitty --config NONE --class lightbox-e2e -o font_size=10 \
    -o initial_window_width=1000 -o initial_window_height=620 -o remember_window_size=no -o window_padding_width=0 \
    chroot /host sh -c "cd '$WORK' && XDG_CACHE_HOME='$WORK/cache' '$BIN' --stats pictures > out 2> err; echo \$? > rc" >/dev/null 2>&1 &

# The pinned header is found by its colour.
check() { check_screen 1 "$@" -- headerband 37415a; }
check_first_and_end lightbox-e2e "$WORK/rc" 5
chosen=$(grep "pictures:" "$WORK/err" 2>/dev/null)
pkill -f "kitty --config NONE --class lightbox-e2e" 2>/dev/null
sleep 0.5

# Through tmux (allow-passthrough on) in the same kitty: the pictures still show, and no answer
# of the terminal is taken as a key (Enter prints the first picture, not another).
# tmux needs the outer terminal's terminfo (xterm-kitty), which this machine's Debian 12 lacks
# (kitty-terminfo is not installed): the chroot's is named, or tmux exits at once ("missing or
# unsuitable terminal"), which is what this half's failures were.
printf 'set -g allow-passthrough on\nset -g default-terminal tmux-256color\nset -g status off\n' > "$WORK/tmux.conf"
chroot "$ROOT" env DISPLAY=":$N" LIBGL_ALWAYS_SOFTWARE=1 HOME=/root kitty --config NONE --class lightbox-e2e -o font_size=10 \
    -o initial_window_width=1000 -o initial_window_height=620 -o remember_window_size=no -o window_padding_width=0 \
    chroot /host env HOME="$WORK" TERMINFO_DIRS="$ROOT/usr/share/terminfo:" tmux -L lightbox-kitty -f "$WORK/tmux.conf" new-session \
    "cd '$WORK' && XDG_CACHE_HOME='$WORK/cache' '$BIN' --stats pictures > out2 2> err2; echo \$? > rc2" >/dev/null 2>&1 &
tmuxed=$(check present "${COLOURS[@]:0:5}")
DISPLAY=":$N" xdotool windowfocus "$(DISPLAY=":$N" xdotool search --class lightbox-e2e | head -1)" 2>/dev/null
DISPLAY=":$N" xdotool key Return
for _ in $(seq 30); do [ -s "$WORK/rc2" ] && break; sleep 0.1; done
picked=$(cat "$WORK/out2" 2>/dev/null)
chosen2=$(grep "pictures:" "$WORK/err2" 2>/dev/null)

# auto must have chosen kitty graphics (symbols of a flat colour would pass the pixel checks too).
if [ "$first" = ok ] && [ "$last" = ok ] && [ "$gone" = ok ] && [ "$(cat "$WORK/rc" 2>/dev/null)" = 130 ] && grep -q "kitty graphics" <<< "$chosen" \
   && [ "$tmuxed" = ok ] && grep -q "kitty graphics" <<< "$chosen2" && [ "$picked" = pictures/one/00.png ] && [ "$(cat "$WORK/rc2" 2>/dev/null)" = 0 ]; then
    echo "ok - kitty $(chroot "$ROOT" kitty --version | awk '{print $2}'): auto chose kitty graphics; pictures in their own colours through placeholders, the pinned header text, none left after G; the same through tmux, no answer taken as a key"
else
    echo "FAIL - kitty: first screen: $first; after G shown: $last; gone: $gone; rc: $(cat "$WORK/rc" 2>/dev/null); $chosen; through tmux: $tmuxed, picked '$picked', rc $(cat "$WORK/rc2" 2>/dev/null), $chosen2"
    exit 1
fi
