# Shared by the real-terminal tests (run.sh's xterm test, kitty.sh); sourced, with WORK and REPO set.

# One colour a picture, none near another or the 16 ANSI colours: a tile showing it exactly is
# pixels, not symbols.
COLOURS=(d83636 994126 d88436 997826 d8d236 829926 91d836 4a9926 43d836 269938 36d877 26996f 36d8c5 268b99 369ed8
         265499 3650d8 2f2699 6a36d8 662699 b836d8 992694 d836ab 99265d d8365d)

# FOLDER/one holds the first five colours as 120x90 PNGs, FOLDER/two the other twenty.
make_pictures() {
    mkdir -p "$1/one" "$1/two"
    python3 - "$1" "${COLOURS[@]}" <<'PY'
import struct, sys, zlib
folder, colours = sys.argv[1], sys.argv[2:]
def png(path, rgb, w=120, h=90):
    raw = b''.join(b'\x00' + bytes(rgb) * w for _ in range(h))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
for i, c in enumerate(colours):
    png(f"{folder}/{'one' if i < 5 else 'two'}/{i:02d}.png", bytes.fromhex(c))
PY
}

# Starts Xvfb on a display of its own: sets N (the display number) and XVFB (its pid).
start_xvfb() {
    N=$((50 + $$ % 400))
    # The same display as the test before: its server may still be going, its socket still there.
    for _ in $(seq 50); do [ -e "/tmp/.X$N-lock" ] || break; sleep 0.1; done
    Xvfb ":$N" -screen 0 1100x700x24 -nolisten tcp >/dev/null 2>&1 &
    XVFB=$!
    # Ready once its own lock names it and its socket is there.
    for _ in $(seq 50); do
        [ "$(tr -d ' ' < "/tmp/.X$N-lock" 2>/dev/null)" = "$XVFB" ] && [ -e "/tmp/.X11-unix/X$N" ] && break
        sleep 0.1
    done
}

# check_screen CELL-HEIGHT ARGS... -- WHERE...: screenshots of display N until screenshot.py
# says ok (the pictures are decoding) or fifteen seconds pass; prints its last answer.
check_screen() {
    local cell=$1 result; shift
    for _ in $(seq 30); do
        DISPLAY=":$N" xwd -root -silent | xwdtopnm 2>/dev/null > "$WORK/shot.ppm"
        result=$(python3 "$REPO/Tests/EndToEnd/screenshot.py" "$WORK/shot.ppm" "$cell" "$@")
        [ "$result" = ok ] && break
        sleep 0.5
    done
    echo "$result"
}

# check_first_and_end CLASS RC-FILE GONE: with `check` (a function of present|absent COLOURS...)
# sets `first` (the first screen's five pictures), presses G in the window of class CLASS, sets
# `last` (the last five shown) and `gone` (none of the first GONE colours left), presses q and
# waits for RC-FILE.
check_first_and_end() {
    local class=$1 rc=$2 count=$3
    first=$(check present "${COLOURS[@]:0:5}")
    DISPLAY=":$N" xdotool windowfocus "$(DISPLAY=":$N" xdotool search --class "$class" | head -1)" 2>/dev/null
    DISPLAY=":$N" xdotool type --delay 150 G
    last=$(check present "${COLOURS[@]:20:5}")
    gone=$(check absent "${COLOURS[@]:0:$count}")
    DISPLAY=":$N" xdotool type q
    for _ in $(seq 30); do [ -s "$rc" ] && break; sleep 0.1; done
}

# Three 2400x1800 JPEGs of 50-pixel stripes (red across, green down), told apart by their blue.
make_stripes() {
    [ -s "$1/s2.jpg" ] && return
    mkdir -p "$1"
    for i in 0 1 2; do
        python3 -c "
import sys; w, h, b = 2400, 1800, $i * 120
row = lambda y: b''.join(bytes((255 if x // 50 % 2 else 0, 255 if y // 50 % 2 else 0, b)) for x in range(w))
rows = [row(0), row(50)]
sys.stdout.buffer.write(b'P6\\n%d %d\\n255\\n' % (w, h) + b''.join(rows[y // 50 % 2] for y in range(h)))" > "$1/s$i.ppm"
        convert "$1/s$i.ppm" -quality 95 "$1/s$i.jpg" && rm "$1/s$i.ppm"
    done
}

# With Lightbox just started on make_stripes' photos in a terminal of window class CLASS,
# 100x30 cells of CW x CH pixels: marks them all, compares them (C) at 100% (z), pans them
# together (Right) and the first alone (L), and quits (its exit status in $WORK/RC, stripes-rc
# unless said); says ok, or what the screen showed.
check_compare() {
    local class=$1 cw=$2 ch=$3 rc=${4:-stripes-rc} aspect at100 panned alone
    aspect=$(python3 -c "print(4 / 3 * $ch / $cw)")
    shot() {
        local want=$1 mode=$2 got=""
        for _ in $(seq 20); do
            sleep 0.5
            got=$(DISPLAY=":$N" xwd -root -silent | xwdtopnm 2>/dev/null | python3 "$REPO/Tests/EndToEnd/compare_panes.py" 100 30 "$cw" "$ch" 3 "$aspect" "$mode")
            case "$got" in $want) break ;; esac
        done
        echo "$got"
    }
    sleep 2
    DISPLAY=":$N" xdotool windowfocus "$(DISPLAY=":$N" xdotool search --class "$class" | head -1)" 2>/dev/null
    DISPLAY=":$N" xdotool type --delay 300 aCz
    at100=$(shot "ok*" same)
    DISPLAY=":$N" xdotool key Right
    for _ in 1 2 3 4 5; do
        panned=$(shot "ok*" same)
        [ "$panned" != "$at100" ] && break
    done
    DISPLAY=":$N" xdotool type L
    alone=$(shot ok alone)
    DISPLAY=":$N" xdotool type --delay 300 qq
    for _ in $(seq 100); do [ -s "$WORK/$rc" ] && break; sleep 0.1; done
    if [ "${at100%% *}" = ok ] && [ "${panned%% *}" = ok ] && [ "$panned" != "$at100" ] && [ "$alone" = ok ]; then
        echo ok
    else
        echo "at 100%: $at100; panned: $panned; alone: $alone"
    fi
}
