#!/usr/bin/env bash
# The recipes of docs/integrations.md, each tried for real in tmux: the host program (a shell
# function, fzf, nnn, lf, ranger, Neovim) calls Lightbox through the script in contrib/, two photos
# are marked, and we check what the host received. Usage: integrations.sh PATH-TO-LIGHTBOX
source "$(dirname "$0")/helpers.sh" "$@"
mkdir -p "$WORK/bin"
ln -s "$BIN" "$WORK/bin/lightbox"
export PATH="$WORK/bin:$PATH"
CONTRIB="$REPO/contrib"
# The first two photos of lib/city in Lightbox's order (natural, by name).
first_two=$(ls "$WORK/lib/city" | sort -V | head -2)
# Marks the first two tiles of a grid showing COUNT items, and accepts (once Lightbox's own
# status line shows: hosts show "1/10" too).
mark_two() {
    wait_for " 1/$1 .*? help" || return 1
    tm send-keys -t e2e Space Space
    wait_for "2 marked" && tm send-keys -t e2e Enter
}
# Runs the file manager COMMAND in lib/city in a fresh pane; true once it lists the folder and,
# SETTLE seconds later, takes keys.
open_in_city() {
    start_shell 100 30
    tm send-keys -t e2e "clear; cd lib/city; $1; cd $WORK" Enter
    wait_for "IMG_10" && sleep "$2"
}
# Types TEXT at the prompt KEY opens (lf's $, ranger's :) and runs it.
at_prompt() {
    tm send-keys -t e2e "$1"
    sleep 0.3
    tm send-keys -t e2e -l "$2"
    tm send-keys -t e2e Enter
}
# Waits until FILE exists and is not empty (up to 5 s).
wait_file() { for _ in $(seq 50); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }

# A shell function that picks and copies: lbcp DEST PATH.
start_shell 100 30
mkdir -p "$WORK/dest"
tm send-keys -t e2e "source $CONTRIB/shell/lightbox.sh; clear; lbcp dest lib/city; echo \$? > rc" Enter
if mark_two 10 && wait_file "$WORK/rc" && [ "$(ls "$WORK/dest")" = "$first_two" ] && [ "$(cat "$WORK/rc")" = 0 ]; then
    pass "shell: lbcp copied the two photos marked: $(ls "$WORK/dest" | tr '\n' ' ')"
else
    fail "shell: lbcp" "dest: $(ls "$WORK/dest" | tr '\n' ' ') rc: $(cat "$WORK/rc" 2>/dev/null)"
fi
rm -f "$WORK/rc"

# fzf: Tab selects three names, Ctrl-G shows them in Lightbox ({+}), two of them are picked.
start_shell 100 30
rm -f "$WORK/out" "$WORK/rc"
tm send-keys -t e2e "source $CONTRIB/fzf/lightbox-fzf.sh; clear; fzlightbox lib/city > out; echo \$? > rc" Enter
if wait_for "10/10"; then
    for _ in 1 2 3; do tm send-keys -t e2e Tab; sleep 0.1; done
    wait_for "(3)" || wait_for "10/10 (3)"
    tm send-keys -t e2e C-g
    expected=$(printf 'lib/city/%s\n' $first_two)
    if mark_two 3 && wait_file "$WORK/rc" && [ "$(cat "$WORK/out")" = "$expected" ] && [ "$(cat "$WORK/rc")" = 0 ]; then
        pass "fzf: the three selected shown in Lightbox, the two picked printed"
    else
        fail "fzf" "out: $(cat "$WORK/out" 2>/dev/null) rc: $(cat "$WORK/rc" 2>/dev/null) $(screen | tail -3)"
    fi
else
    fail "fzf did not start" "$(screen)"
fi

# nnn: the plugin (;l) opens Lightbox on the folder nnn shows; nnn lists the two picked.
mkdir -p "$WORK/config/nnn/plugins"
cp "$CONTRIB/nnn/lightbox" "$WORK/config/nnn/plugins/"
if open_in_city "XDG_CONFIG_HOME=$WORK/config NNN_PLUG='l:lightbox' nnn -A" 0.5; then
    tm send-keys -t e2e '\;' l
    mark_two 10
    sleep 1
    listed=$(screen | grep -oE "IMG_[0-9]+\.[a-z]+" | sort -u | tr '\n' ' ')
    if [ "$listed" = "$(echo $first_two) " ]; then
        pass "nnn: the plugin lists the two picked ($listed)"
    else
        fail "nnn" "listed: '$listed'; $(screen | head -5)"
    fi
    tm send-keys -t e2e q
else
    fail "nnn did not start" "$(screen)"
fi

# lf: Ctrl-L runs Lightbox on lf's folder; lf selects the two picked ($fs holds lf's selection).
# A runtime folder of its own makes this lf the first since boot: it starts its own server and
# joins it only a second or more later, which the recipe must wait for.
mkdir -m 700 "$WORK/run"
if open_in_city "XDG_RUNTIME_DIR=$WORK/run lf -config $CONTRIB/lf/lfrc" 0.5; then
    tm send-keys -t e2e C-l
    mark_two 10
    sleep 1
    at_prompt '$' "printf '%s\\n' \"\$fs\" > $WORK/lf-got"
    wait_file "$WORK/lf-got"
    expected=$(printf "$WORK/lib/city/%s\n" $first_two)
    if [ "$(cat "$WORK/lf-got" 2>/dev/null)" = "$expected" ]; then
        pass "lf: the two picked are lf's selection"
    else
        fail "lf" "selection: $(cat "$WORK/lf-got" 2>/dev/null); $(screen | tail -3)"
    fi
    tm send-keys -t e2e q
    sleep 0.3
    XDG_RUNTIME_DIR=$WORK/run lf -remote quit 2>/dev/null
else
    fail "lf did not start" "$(screen)"
fi

# ranger: :lightbox marks the two picked in ranger; its %s macro (the marked files) shows them.
mkdir -p "$WORK/ranger"
cp "$CONTRIB/ranger/commands.py" "$WORK/ranger/"
if open_in_city "ranger --confdir=$WORK/ranger" 1.5; then  # ranger takes keys a moment after it shows the folder
    at_prompt ":" "lightbox"
    mark_two 10
    sleep 1
    notified=$(screen | grep -c "lightbox: 2 marked")
    at_prompt ":" "shell printf '%%s\\n' %s > $WORK/ranger-got"
    wait_file "$WORK/ranger-got"
    if [ "$(cat "$WORK/ranger-got" 2>/dev/null)" = "$first_two" ] && [ "$notified" = 1 ]; then
        pass "ranger: :lightbox marks the two picked"
    else
        fail "ranger" "marked: $(cat "$WORK/ranger-got" 2>/dev/null); $(screen | tail -3)"
    fi
    tm send-keys -t e2e q
else
    fail "ranger did not start" "$(screen)"
fi

# Neovim: :LightboxPick puts the two picked paths at the cursor.
start_shell 100 30
tm send-keys -t e2e "clear; nvim --clean -c 'luafile $CONTRIB/nvim/lightbox.lua' picked.txt" Enter
if wait_for "picked.txt"; then
    tm send-keys -t e2e ":LightboxPick lib/city" Enter
    mark_two 10
    sleep 1
    tm send-keys -t e2e Escape ":wq" Enter
    wait_file "$WORK/picked.txt"
    sleep 0.3
    got=$(grep -v '^$' "$WORK/picked.txt" 2>/dev/null)
    if [ "$got" = "$(printf 'lib/city/%s\n' $first_two)" ]; then
        pass "Neovim: :LightboxPick puts the two picked paths in the buffer"
    else
        fail "Neovim" "buffer: $(cat "$WORK/picked.txt" 2>/dev/null); $(screen | tail -3)"
    fi
else
    fail "nvim did not start" "$(screen)"
fi

# Names that are not plain: a newline (beside the two files its halves name), quotes, $(…), a
# leading -, a backslash and a byte that is not UTF-8. Lightbox (through a wrapper that marks
# every file but the two decoys) picks the six; each host must receive them byte for byte, or
# refuse the one it cannot take (lf's and Neovim's lines cannot hold a newline) with a message.
mkdir -p "$WORK/names" "$WORK/hostile-bin"
cp "$WORK/lib/city/$(ls "$WORK/lib/city" | head -1)" "$WORK/names/a.jpg"
python3 - "$WORK/names" <<'PY'
import os, shutil, sys
for name in [b"b.jpg", b"a.jpg\nb.jpg", b"q\"uo'te.jpg", b"$(touch PWNED).jpg", b"-lead.jpg", b"back\\slash.jpg", b"caf\xe9.jpg"]:
    shutil.copy(os.path.join(sys.argv[1], "a.jpg"), os.path.join(os.fsencode(sys.argv[1]), name))
PY
cat > "$WORK/hostile-bin/lightbox" <<'SH'
#!/usr/bin/env bash
# Lightbox with every file of its arguments (or of its --read0 list) marked but a.jpg and b.jpg.
list=$(mktemp) paths=0 read0=0
for arg in "$@"; do
    [ "$arg" = --read0 ] && read0=1
    if [ "$paths" = 1 ]; then
        if [ -d "$arg" ]; then find "$arg" -maxdepth 1 -type f ! -name a.jpg ! -name b.jpg -print0
        else case "${arg##*/}" in a.jpg | b.jpg) ;; *) printf '%s\0' "$arg" ;; esac; fi
    fi
    [ "$arg" = -- ] && paths=1
done > "$list"
if [ "$read0" = 1 ]; then
    input=$(mktemp)
    cat > "$input"
    while IFS= read -r -d '' path; do
        case "${path##*/}" in a.jpg | b.jpg) ;; *) printf '%s\0' "$path" ;; esac
    done < "$input" >> "$list"
    exec "$LIGHTBOX_REAL" --mark-from "$list" "$@" < "$input"
fi
exec "$LIGHTBOX_REAL" --mark-from "$list" "$@"
SH
chmod +x "$WORK/hostile-bin/lightbox"
HOSTILE_ENV="PATH=$WORK/hostile-bin:\$PATH LIGHTBOX_REAL=$BIN"
# True when FILE (records ending in NUL, or newline with 'lines') names exactly the six picked
# (their last parts), or with 'without-newline' the five a line can hold.
names_match() {
    python3 - "$@" <<'PY'
import os, sys
path, separator, which = sys.argv[1], sys.argv[2], sys.argv[3]
try: data = open(path, "rb").read()
except OSError: sys.exit(1)
end = b"\0" if separator == "nul" else b"\n"
got = sorted(os.path.basename(record) for record in data.split(end) if record)
want = [b"q\"uo'te.jpg", b"$(touch PWNED).jpg", b"-lead.jpg", b"back\\slash.jpg", b"caf\xe9.jpg"]
if which == "all": want.append(b"a.jpg\nb.jpg")
if got != sorted(want):
    print("got", got, "want", sorted(want)); sys.exit(1)
PY
}
# Waits for Lightbox's status line with the six marked, then accepts.
accept_six() { wait_for "6 marked" && tm send-keys -t e2e Enter; }
pwned() { find "$WORK" -name PWNED | grep -q .; }

start_shell 100 30
mkdir -p "$WORK/names-dest"
rm -f "$WORK/rc"
tm send-keys -t e2e "export $HOSTILE_ENV; source $CONTRIB/shell/lightbox.sh; clear; lbcp names-dest names; echo \$? > rc" Enter
accept_six && wait_file "$WORK/rc"
(cd "$WORK/names-dest" && find . -type f -print0) > "$WORK/names-got"
if why=$(names_match "$WORK/names-got" nul all) && ! pwned; then pass "shell: lbcp copied the six odd names byte for byte"; else fail "shell: odd names" "$why"; fi

start_shell 100 30
rm -f "$WORK/out" "$WORK/rc"
tm send-keys -t e2e "export $HOSTILE_ENV; source $CONTRIB/fzf/lightbox-fzf.sh; clear; fzlightbox -0 names > out; echo \$? > rc" Enter
if wait_for "8/8"; then
    for _ in $(seq 8); do tm send-keys -t e2e Tab; done
    wait_for "(8)"
    tm send-keys -t e2e C-g
    accept_six && wait_file "$WORK/rc"
    if why=$(names_match "$WORK/out" nul all) && [ "$(cat "$WORK/rc")" = 0 ] && ! pwned; then
        pass "fzf: the six odd names selected in fzf reach Lightbox and come out byte for byte"
    else
        fail "fzf: odd names" "$why rc: $(cat "$WORK/rc" 2>/dev/null)"
    fi
else
    fail "fzf did not start on the odd names" "$(screen)"
fi

start_shell 100 30
mkdir -p "$WORK/nnn-names/nnn/plugins"
cp "$CONTRIB/nnn/lightbox" "$WORK/nnn-names/nnn/plugins/"
tm send-keys -t e2e "export $HOSTILE_ENV; clear; cd names; XDG_CONFIG_HOME=$WORK/nnn-names NNN_PLUG='l:lightbox' nnn -A; cd $WORK" Enter
if wait_for "caf"; then
    sleep 0.5
    tm send-keys -t e2e '\;' l
    accept_six
    sleep 1
    tm send-keys -t e2e a  # nnn selects its whole list and writes the selection, NUL-separated
    sleep 0.5
    if why=$(names_match "$WORK/nnn-names/nnn/.selection" nul all) && ! pwned; then
        pass "nnn: its list of the picked holds the six odd names byte for byte"
    else
        fail "nnn: odd names" "$why"
    fi
    tm send-keys -t e2e q
else
    fail "nnn did not start on the odd names" "$(screen)"
fi

start_shell 100 30
mkdir -p "$WORK/ranger-names"
cp "$CONTRIB/ranger/commands.py" "$WORK/ranger-names/"
tm send-keys -t e2e "export $HOSTILE_ENV; clear; cd names; ranger --confdir=$WORK/ranger-names; cd $WORK" Enter
if wait_for "caf" && sleep 1.5; then
    at_prompt ":" "lightbox"
    accept_six
    sleep 1
    rm -f "$WORK/ranger-names-got"
    at_prompt ":" "shell printf '%%s\\0' %s > $WORK/ranger-names-got"
    wait_file "$WORK/ranger-names-got"
    if why=$(names_match "$WORK/ranger-names-got" nul all) && ! pwned; then pass "ranger: marks the six odd names"; else fail "ranger: odd names" "$why"; fi
    tm send-keys -t e2e q
else
    fail "ranger did not start on the odd names" "$(screen)"
fi

start_shell 100 30
mkdir -m 700 "$WORK/run-names"
tm send-keys -t e2e "export $HOSTILE_ENV; clear; cd names; XDG_RUNTIME_DIR=$WORK/run-names lf -config $CONTRIB/lf/lfrc; cd $WORK" Enter
if wait_for "caf" && sleep 0.5; then
    tm send-keys -t e2e C-l
    accept_six
    wait_for "cannot select a name holding a newline" && refused=yes || refused=no
    tm send-keys -t e2e Enter
    sleep 1
    rm -f "$WORK/lf-names-got"
    at_prompt '$' "printf '%s\\n' \"\$fs\" > $WORK/lf-names-got"
    wait_file "$WORK/lf-names-got"
    if why=$(names_match "$WORK/lf-names-got" lines without-newline) && [ "$refused" = yes ] && ! pwned; then
        pass "lf: selects the five odd names a line can hold, not the two files the sixth's halves name, and says why not the sixth"
    else
        fail "lf: odd names" "$why refused message: $refused; $(screen | tail -3)"
    fi
    tm send-keys -t e2e q
    sleep 0.3
    XDG_RUNTIME_DIR=$WORK/run-names lf -remote quit 2>/dev/null
else
    fail "lf did not start on the odd names" "$(screen)"
fi

start_shell 120 30
rm -f "$WORK/names.txt"
tm send-keys -t e2e "export $HOSTILE_ENV; clear; nvim --clean -c 'luafile $CONTRIB/nvim/lightbox.lua' names.txt" Enter
if wait_for "names.txt"; then
    tm send-keys -t e2e ":LightboxPick names" Enter
    accept_six
    wait_for "a name holding a newline cannot be a line" && refused=yes || refused=no
    tm send-keys -t e2e Escape ":w" Enter
    wait_file "$WORK/names.txt"
    if why=$(names_match "$WORK/names.txt" lines without-newline) && [ "$refused" = yes ] && ! pwned; then
        pass "Neovim: puts the five odd names a line can hold, byte for byte, and says why not the sixth"
    else
        fail "Neovim: odd names" "$why refused message: $refused; $(screen | tail -3)"
    fi
    tm send-keys -t e2e ":LightboxPick nowhere" Enter
    if wait_for "no images found in nowhere"; then pass "Neovim: Lightbox's own message is shown when it ends with one"; else fail "Neovim: no message" "$(screen | tail -3)"; fi
    tm send-keys -t e2e Enter ":qa!" Enter
else
    fail "nvim did not start on the odd names" "$(screen)"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
