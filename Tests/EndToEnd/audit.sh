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

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
