#!/usr/bin/env bash
# End-to-end tests of what an independent audit broke (issue 12), each driven in tmux as the
# audit did: hostile pastes, late terminal answers, names the screen cannot draw, huge inputs.
# Usage: audit.sh PATH-TO-LIGHTBOX
source "$(dirname "$0")/helpers.sh" "$@"

# Pastes are text: outside the filter nothing happens; inside it, newlines are dropped.
start_shell 100 30
launch lib
if wait_for "1/40"; then
    tm set-buffer -b audit $'img\na\nx\n'
    tm paste-buffer -p -b audit -t e2e
    sleep 0.5
    outside=$(screen | tail -1)
    tm send-keys -t e2e /
    tm set-buffer -b audit $'IMG_1\na\n'
    tm paste-buffer -p -b audit -t e2e
    sleep 0.5
    inside=$(screen | tail -1)
    tm send-keys -t e2e Escape
    sleep 0.2
    tm send-keys -t e2e q
    wait_exit
    if grep -q "1/40" <<< "$outside" && grep -q "pasted text" <<< "$outside" && ! grep -q "marked" <<< "$outside" \
       && grep -q "/IMG_1a" <<< "$inside" && [ "$(cat "$WORK/rc")" = 130 ] && [ ! -s "$WORK/out" ] && sane; then
        pass "a paste is text: outside the filter it does nothing, inside it is the query without its newlines"
    else
        fail "paste" "outside: $outside"$'\n'"inside: $inside"$'\n'"rc $(cat "$WORK/rc") out $(cat "$WORK/out")"
    fi
else
    fail "grid for paste" "$(screen)"
fi

# A 100 KB paste into the filter is one bounded edit: Esc is answered at once.
start_shell 100 30
launch lib
if wait_for "1/40"; then
    tm send-keys -t e2e /
    head -c 100000 /dev/zero | tr '\0' 'x' > "$WORK/paste"
    tm load-buffer -b audit "$WORK/paste"
    tm paste-buffer -p -b audit -t e2e
    wait_for "/xxxxxxxx"
    start=$(date +%s%N)
    tm send-keys -t e2e Escape
    for _ in $(seq 100); do screen | tail -1 | grep -q "▏" || break; sleep 0.02; done
    took=$(( ($(date +%s%N) - start) / 1000000 ))
    sleep 0.2
    tm send-keys -t e2e q
    wait_exit
    if [ "$took" -lt 2000 ] && [ "$(cat "$WORK/rc")" = 130 ]; then
        pass "a 100 KB paste into the filter: Esc answered in $took ms"
    else
        fail "big paste" "took $took ms: $(screen | tail -1)"
    fi
else
    fail "grid for big paste" "$(screen)"
fi

# Terminal answers that arrive late (after the probe) are dropped whole, never read as keys.
start_shell 100 30
launch lib
if wait_for "1/40"; then
    # kitty's APC answer, XTVERSION's DCS, an OSC colour answer ended by BEL: full of G, x and m.
    tm send-keys -t e2e -H $(printf '\e_Gi=31;OK\e\\\eP>|XTerm(Gxm)\e\\\e]11;rgb:ffff/Gxm\a' | od -An -tx1)
    sleep 0.5
    after=$(screen | tail -1)
    tm send-keys -t e2e l Enter
    wait_exit
    if grep -q "1/40" <<< "$after" && ! grep -q "marked" <<< "$after" && [ "$(cat "$WORK/out")" = "lib/abstract/IMG_2.jpg" ]; then
        pass "late APC, DCS and OSC answers are dropped: no jump, no mark, keys work after them"
    else
        fail "late answers" "after: $after"$'\n'"out $(cat "$WORK/out") rc $(cat "$WORK/rc")"
    fi
else
    fail "grid for late answers" "$(screen)"
fi

# Names the screen cannot draw as they are: shown exactly or escaped, the live screen cell for
# cell what the frame says (the snapshot is the same frame as text), the status line on one line.
mkdir -p "$WORK/names"
for name in $'\u2614\u26a1\U1F004\U1FA90' $'\u2764\ufe0f' $'11\u0378\u0301x' $'\U1F1EB\U1F1F7\U1F1E9\U1F1EA' \
            $'\U1F468\u200d\U1F469\u200d\U1F467' $'a\u200eb\u200fc' $'\U10EEEE' $'cafe\u0301' $'\u65e5\u672c'; do
    cp "$WORK/lib/city/IMG_1.jpg" "$WORK/names/$name.jpg"
done
start_shell 100 30
launch --graphics ascii --no-disk-cache names
if wait_for "1/9"; then
    sleep 1
    wait_for "1/9 " >/dev/null
    # The lines of text (the pictures' characters differ: the snapshot is in true colour, tmux in 256).
    live=$(screen | sed 's/ *$//' | grep -e names -e '\.jpg')
    expected=$(cd "$WORK" && "$BIN" --snapshot 100x30 --graphics ascii --no-disk-cache names | sed 's/\x1b\[[0-9;]*m//g; s/ *$//' | grep -e names -e '\.jpg')
    statuses=""
    for _ in $(seq 9); do statuses+="$(screen | tail -1 | sed 's/ *$//')"$'\n'; tm send-keys -t e2e l; sleep 0.15; done
    lines=$(screen | wc -l)
    top=$(screen | head -1)
    tm send-keys -t e2e q
    wait_exit
    if [ "$live" = "$expected" ] && [ "$lines" = 30 ] && grep -q "names" <<< "$top" \
       && grep -qF '\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea.jpg' <<< "$statuses" && grep -qF $'\u2764\\ufe0f.jpg' <<< "$statuses" \
       && grep -qF '11\u0378\u0301x.jpg' <<< "$statuses" && grep -qF $'\U1F468\\u200d\U1F469' <<< "$statuses" \
       && grep -qF 'a\u200eb\u200fc.jpg' <<< "$statuses" && grep -qF '\U0010eeee.jpg' <<< "$statuses" \
       && grep -qF $'cafe\u0301.jpg' <<< "$statuses" && grep -qF $'\u2614\u26a1\U1F004\U1FA90.jpg' <<< "$statuses"; then
        pass "names drawn exactly or escaped: the live screen is the frame, line for line; the status line stays one line"
    else
        fail "names on screen" "$(diff <(echo "$expected") <(echo "$live"))"$'\n'"statuses: $statuses"$'\n'"top: $top"
    fi
else
    fail "grid for names" "$(screen)"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
