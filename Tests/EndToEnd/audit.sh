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
    # The paste is in the filter (tmux takes a while to write 100 KB), then Esc: answered at once,
    # the paste being one edit, not 100,000 keys still to work through.
    for _ in $(seq 250); do screen | tail -1 | grep -q "/xxxx" && break; sleep 0.02; done
    start=$(date +%s%N)
    tm send-keys -t e2e Escape
    # Cleared, the status line shows the cursor's path again (the query may be cut in the middle).
    for _ in $(seq 500); do screen | tail -1 | grep -q "lib/abstract/IMG_1" && break; sleep 0.02; done
    took=$(( ($(date +%s%N) - start) / 1000000 ))
    cleared=$(screen | tail -1)
    sleep 0.2
    tm send-keys -t e2e q
    wait_exit
    if [ "$took" -lt 500 ] && grep -q "lib/abstract/IMG_1" <<< "$cleared" && [ "$(cat "$WORK/rc")" = 130 ]; then
        pass "a 100 KB paste into the filter, then Esc: answered in $took ms"
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

# --marks-file: symlinks planted at every temporary name the next pids would use are never
# followed (the victim keeps its bytes), the file is 0600 and regular, nothing is left behind.
mkdir -p "$WORK/shared"
echo precious > "$WORK/victim"
# One process plants them all (a loop of ln would use up the very pids it plants for).
python3 - "$WORK" <<'PY'
import os, sys
work = sys.argv[1]
last = int(open('/proc/sys/kernel/ns_last_pid').read())
for pid in range(last + 1, last + 301):
    os.symlink(f'{work}/victim', f'{work}/shared/.marks.lightbox-{pid}')
PY
start_shell 100 30
launch --marks-file shared/marks lib
if wait_for "1/40"; then
    tm send-keys -t e2e Space
    wait_for "1 marked"
    sleep 0.3
    tm send-keys -t e2e q
    wait_exit
    links=$(find "$WORK/shared" -name '.marks.lightbox-*' -type l | wc -l)
    others=$(find "$WORK/shared" -name '.marks.lightbox-*' ! -type l | wc -l)
    if [ "$(cat "$WORK/victim")" = precious ] && [ -f "$WORK/shared/marks" ] && [ ! -L "$WORK/shared/marks" ] \
       && [ "$(cat "$WORK/shared/marks")" = "lib/abstract/IMG_1.jpg" ] && [ "$(stat -c %a "$WORK/shared/marks")" = 600 ] \
       && [ "$links" = 300 ] && [ "$others" = 0 ]; then
        pass "--marks-file never follows a planted symlink: the target is untouched, the file is 0600, no temporary left"
    else
        fail "--marks-file symlinks" "victim: $(cat "$WORK/victim"); marks: $(ls -la "$WORK/shared/marks" 2>&1) $(cat "$WORK/shared/marks" 2>&1); links $links, others $others"
    fi
else
    fail "grid for marks file" "$(screen)"
fi

# A marks file that is a symlink the user made is followed (its target holds the marks, the
# link stays) and keeps its mode.
mkdir -p "$WORK/real" "$WORK/links"
: > "$WORK/real/marks"; chmod 640 "$WORK/real/marks"
ln -s ../real/marks "$WORK/links/marks"
start_shell 100 30
launch --marks-file links/marks lib
if wait_for "1/40"; then
    tm send-keys -t e2e l Space
    wait_for "1 marked"
    sleep 0.3
    tm send-keys -t e2e q
    wait_exit
    if [ -L "$WORK/links/marks" ] && [ "$(cat "$WORK/real/marks")" = "lib/abstract/IMG_2.jpg" ] && [ "$(stat -c %a "$WORK/real/marks")" = 640 ]; then
        pass "a marks file the user named as a symlink: its target holds the marks, mode kept"
    else
        fail "user's symlink" "$(ls -la "$WORK/links" "$WORK/real") $(cat "$WORK/real/marks")"
    fi
else
    fail "grid for user's symlink" "$(screen)"
fi

# Resuming a pick from its own marks file: marks the scan has not found are kept in the file.
printf 'lib/city/IMG_2.jpg\nelsewhere/never-scanned.jpg\nlib/abstract/IMG_1.jpg\n' > "$WORK/resume"
start_shell 100 30
launch --mark-from resume --marks-file resume lib
if wait_for "2 marked"; then
    tm send-keys -t e2e q
    wait_exit
    expected=$'lib/abstract/IMG_1.jpg\nlib/city/IMG_2.jpg\nelsewhere/never-scanned.jpg'
    if [ "$(cat "$WORK/resume")" = "$expected" ]; then
        pass "resuming from the marks file keeps the marks not found (yet) in it"
    else
        fail "resume" "$(cat "$WORK/resume")"
    fi
else
    fail "grid for resume" "$(screen)"
fi

# --mark-from with 20 million lines (about 170 MB): stored compactly.
seq 1 20000000 > "$WORK/huge-list"
read -r rss seconds rc < <(cd "$WORK" && python3 - "$BIN" <<'PY'
import resource, subprocess, sys, time
start = time.time()
rc = subprocess.run([sys.argv[1], "--snapshot", "80x24", "--no-disk-cache", "--mark-from", "huge-list", "lib"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, round(time.time() - start, 1), rc)
PY
)
rm -f "$WORK/huge-list"
if [ "$rc" = 0 ] && [ "$rss" -lt 700 ]; then
    pass "--mark-from with 20 million lines: peak $rss MB, $seconds s"
else
    fail "huge --mark-from" "rc $rc, peak $rss MB, $seconds s"
fi

# A NUL-separated list read as lines is refused with a hint, never one item printed whole.
out=$(cd "$WORK" && printf 'lib/city/IMG_1.jpg\0/etc/passwd\0' | "$BIN" -1 2>"$WORK/err"); rc=$?
if [ $rc = 1 ] && [ -z "$out" ] && grep -q -- "--read0" "$WORK/err"; then
    pass "a NUL-separated list without --read0: nothing printed, exit 1, the message says --read0"
else
    fail "NUL list" "rc $rc out $(printf %q "$out") err $(cat "$WORK/err")"
fi

# `yes | lightbox`: problems are counted, not kept; memory stays flat.
start_shell 100 30
rm -f "$WORK/out" "$WORK/rc" "$WORK/stty"
tm send-keys -t e2e "clear; yes | $BIN > out; echo \${PIPESTATUS[1]} > rc; stty -a > stty" Enter
sleep 4
pid=$(own_app | head -1)  # the app, not the watcher the shell waits for
first=$(ps -o rss= -p "$pid" 2>/dev/null | tr -d ' ')
sleep 3
second=$(ps -o rss= -p "$pid" 2>/dev/null | tr -d ' ')
status=$(screen | tail -1)
tm send-keys -t e2e q
wait_exit
if [ -n "$first" ] && [ "$second" -lt 200000 ] && [ $((second - first)) -lt 20000 ] && grep -q "more" <<< "$status" \
   && [ "$(cat "$WORK/rc")" = 130 ] && sane; then
    pass "yes | lightbox: $first KB, then $second KB three seconds later; the problems are counted ($(grep -o '+[0-9]* more' <<< "$status"))"
else
    fail "yes | lightbox" "rss $first then $second KB; status: $status; rc $(cat "$WORK/rc")"
fi

# Cache and settings folders whose names are not UTF-8 are the folders they name, in the app
# and in its decoder processes.
odd=$(printf "$WORK/caf\xe9")
mkdir -p "$odd/lightbox"
echo "columns = 3" > "$odd/lightbox/config"
columns=$(cd "$WORK" && XDG_CACHE_HOME="$odd" XDG_CONFIG_HOME="$odd" "$BIN" --snapshot 100x30 lib | sed 's/\x1b\[[0-9;]*m//g' | grep -m1 IMG_ | grep -o 'IMG_' | wc -l)
entries=$(find "$odd/thumbnails" -name '*.png' 2>/dev/null | wc -l)
lossy=$(find "$WORK" -maxdepth 1 -name $'caf\ufffd*' | wc -l)
if [ "$columns" = 3 ] && [ "$entries" -gt 0 ] && [ "$lossy" = 0 ]; then
    pass "a non-UTF-8 XDG_CACHE_HOME and XDG_CONFIG_HOME: the settings are read, $entries cache entries written there"
else
    fail "non-UTF-8 folders" "columns $columns, entries $entries, lossy folders $lossy"
fi

# A failed command's message reaches the status line (the resize on coming back cleared it).
start_shell 100 30
launch --exec "'exit 3'" --bind "'y:exec:/nonexistent/program'" lib
if wait_for "1/40"; then
    tm send-keys -t e2e x
    wait_for "status 3"; exec_status=$(screen | tail -1)
    tm send-keys -t e2e y
    wait_for "127"; bind_status=$(screen | tail -1)
    tm send-keys -t e2e q
    wait_exit
    if grep -q "the command exited with status 3" <<< "$exec_status" && grep -q "status 127" <<< "$bind_status"; then
        pass "a failed --exec or --bind command says so in the status line when the grid comes back"
    else
        fail "command failure message" "exec: $exec_status"$'\n'"bind: $bind_status"
    fi
else
    fail "grid for command failure" "$(screen)"
fi

# Accepted paths that cannot be written: a message, exit 2, and the marks file still holds them.
for target in /dev/full closed; do
    start_shell 100 30
    rm -f "$WORK/rc" "$WORK/stty" "$WORK/err" "$WORK/kept"
    redirect=$([ $target = closed ] && echo ">&-" || echo "> /dev/full")
    tm send-keys -t e2e "clear; $BIN --marks-file kept lib $redirect 2> err; echo \$? > rc; stty -a > stty" Enter
    if wait_for "1/40"; then
        tm send-keys -t e2e Space Space
        wait_for "2 marked"
        tm send-keys -t e2e Enter
        wait_exit
        if [ "$(cat "$WORK/rc")" = 2 ] && grep -q "cannot write the 2 accepted paths" "$WORK/err" && grep -q "kept in kept" "$WORK/err" \
           && [ "$(wc -l < "$WORK/kept")" = 2 ] && sane; then
            pass "accepting onto $target: exit 2, a message, the marks kept in the marks file"
        else
            fail "accept onto $target" "rc $(cat "$WORK/rc"): $(cat "$WORK/err"); kept: $(cat "$WORK/kept" 2>&1)"
        fi
    else
        fail "grid for $target" "$(screen)"
    fi
done

# --snapshot ends at any size, even one too small for a tile.
hung=""
for size in 40x9 40x5 200x3 5x5 1x1 40x1 9x40 300x2; do
    (cd "$WORK" && timeout 20 "$BIN" --snapshot "$size" lib > /dev/null 2>&1) || hung+=" $size(rc $?)"
done
[ -z "$hung" ] && pass "--snapshot ends at every size, tiny ones too" || fail "--snapshot at small sizes" "$hung"

# A tree 1,100 folders deep under `ulimit -n 1024` (and 40): its deepest image is found.
deep="$WORK/deep"
mkdir -p "$deep/$(printf 'd/%.0s' $(seq 1 1100))"
cp "$WORK/lib/city/IMG_1.jpg" "$deep/$(printf 'd/%.0s' $(seq 1 1100))bottom.jpg"
cp "$WORK/lib/city/IMG_1.jpg" "$deep/top.jpg"
for files in 1024 40; do
    out=$(cd "$WORK" && ulimit -n $files && "$BIN" --snapshot 80x24 --sections none deep 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
    if grep -q "1/2 " <<< "$out" && grep -q "bottom.jpg" <<< "$out" && ! grep -qi "descriptor\|cannot read\|⚠" <<< "$out"; then
        pass "a tree 1,100 folders deep under ulimit -n $files: both images found, no problem"
    else
        fail "deep tree, ulimit -n $files" "$(echo "$out" | grep -v '^ *$' | tail -3)"
    fi
done

# A terminal that reports huge cells (200x400 pixels) gets pictures no larger than the decoder
# makes, not "decoder crashed" on every tile and workers started for ever.
mkdir -p "$WORK/two"; cp "$WORK/lib/city/IMG_1.jpg" "$WORK/lib/city/IMG_2.jpg" "$WORK/two/"
report=$(timeout 90 python3 "$(dirname "$0")/huge_cells.py" "$BIN" "$WORK/two")
if grep -q "exit 130" <<< "$report" && grep -q "no-crash" <<< "$report" && grep -q "failed: 0" <<< "$report" \
   && ! grep -q "DCT-scaled: 0 libvips: 0" <<< "$report"; then
    pass "huge cells: pictures decoded within the limit ($report)"
else
    fail "huge cells" "$report"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
