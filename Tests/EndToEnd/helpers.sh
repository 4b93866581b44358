# What the end-to-end scripts share: a tmux server of their own, a pane running a shell, the
# binary launched in it, waiting for the screen, and the generated sample library in $WORK/lib.
# Sourced with the path of the binary: source helpers.sh PATH-TO-LIGHTBOX
set -uo pipefail
BIN=$(realpath "${1:-.build/release/lightbox}")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SAMPLES=$(dirname "$BIN")/lightbox-samples
WORK=$(mktemp -d)
SOCKET="lightbox-e2e-$$"
trap 'tmux -L "$SOCKET" kill-server 2>/dev/null; sleep 0.3; rm -rf "$WORK" 2>/dev/null' EXIT
passed=0; failed=0
export XDG_CACHE_HOME="$WORK/cache"   # never touch the user's thumbnail cache

tm() { tmux -L "$SOCKET" "$@"; }
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/    /'; }

# A pane running an interactive bash in $WORK/lib's parent, sized WxH.
start_shell() {
    # A server still going away can take the new one with it ("server exited unexpectedly",
    # seen once in a CI run): the session is made again until it stands.
    for _ in 1 2 3; do
        tm kill-server 2>/dev/null
        for _ in $(seq 20); do tm has-session 2>/dev/null || break; sleep 0.1; done
        tm -f /dev/null new-session -d -s e2e -x "$1" -y "$2" "env -i HOME=$WORK PATH=$PATH TERM=tmux-256color LANG=C.UTF-8 SWIFT_BACKTRACE=interactive=no LIGHTBOX_E2E_RUN=$SOCKET PS1='$ ' bash --norc --noprofile" \
            && sleep 0.1 && tm has-session -t e2e 2>/dev/null && break
        sleep 0.5
    done
    tm send-keys -t e2e "cd $WORK" Enter
    sleep 0.3
}
screen() { tm capture-pane -p -t e2e 2>/dev/null; }
# Waits until the screen matches a pattern (up to 5 s).
wait_for() {
    for _ in $(seq 50); do screen | grep -q -- "$1" && return 0; sleep 0.1; done
    return 1
}
# Runs lightbox in the pane: stdout to out, exit code to rc, terminal state to stty.
launch() {
    rm -f "$WORK/out" "$WORK/rc" "$WORK/stty" "$WORK/err"
    tm send-keys -t e2e "clear; $BIN $* > out; echo \$? > rc; stty -a > stty" Enter
}
# Runs lightbox with a list piped to its standard input: launch_from "COMMAND" ARGS...
launch_from() {
    local producer=$1; shift
    rm -f "$WORK/out" "$WORK/rc" "$WORK/stty" "$WORK/err"
    tm send-keys -t e2e "clear; $producer | $BIN $* > out; echo \$? > rc; stty -a > stty" Enter
}
wait_exit() {
    for _ in $(seq 100); do [ -s "$WORK/rc" ] && [ -s "$WORK/stty" ] && return 0; sleep 0.1; done
    return 1
}
# The pids of decoder processes started by this run's Lightboxes (they inherit the run's
# marker), not any other Lightbox's on the machine.
own_decoders() {
    local pid
    # Started from the executable (--decode-worker), or forked by the decoder factory when needed
    # (named lightbox-decode), and the factory itself (lightbox-forks).
    for pid in $(pgrep -f -- "--decode-worker"; pgrep -x lightbox-decode; pgrep -x lightbox-forks); do
        tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "LIGHTBOX_E2E_RUN=$SOCKET" && echo "$pid"
    done
}
# The pid of this run's Lightbox app (not a decoder it started, nor the watcher the shell waits for).
own_app() {
    local pid
    for pid in $(pgrep -x lightbox); do
        tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "--decode-worker" && continue
        tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "LIGHTBOX_E2E_RUN=$SOCKET" && echo "$pid"
    done
}
sane() { grep -q -- ' icanon' "$WORK/stty" && grep -q -- ' echo ' "$WORK/stty"; }

"$SAMPLES" "$WORK/lib" >/dev/null || { echo "cannot generate test images"; exit 1; }
# Runs a check script whose lines say "ok - ..." or "FAIL - ..." (others are shown indented),
# each counted under LABEL; fewer than EXPECTED oks fails too: checks LABEL EXPECTED SECONDS SCRIPT ARGS...
checks() {
    local label=$1 expected=$2 seconds=$3 script=$4 count=0 line
    shift 4
    while IFS= read -r line; do
        case "$line" in
            "ok - "*) pass "$label: ${line#ok - }"; count=$((count + 1)) ;;
            "FAIL - "*) fail "$label: ${line#FAIL - }" ;;
            *) echo "    $line" ;;
        esac
    done < <(timeout "$seconds" python3 "$script" "$@" 2>&1 || echo "FAIL - $(basename "$script") ended with $?")
    [ "$count" = "$expected" ] || fail "$label: $count of $expected checks passed"
}

# Whole reads stuck on a share whose server stops hold no turn once the share is named: photos
# on the local disk shown beside it still load. The share (the server slow_mount_sshd runs)
# holds 12 photos of about 1.1 MB behind a 1 MB/s link, so 8 are read at once for seconds; the
# server stops a second after the gallery shows, and the local folder's 2 tiles must come.
stuck_reads_beside_local() {
    mkdir -p "$WORK/stuck-src/big" "$WORK/stuck-local"
    convert -size 1500x1000 xc:gray +noise Random -quality 92 "$WORK/stuck.jpg"
    for i in $(seq 12); do cp "$WORK/stuck.jpg" "$WORK/stuck-src/big/B$i.jpg"; done
    convert -size 64x48 gradient:red-blue "$WORK/stuck-local/L1.jpg"
    convert -size 64x48 gradient:green-white "$WORK/stuck-local/L2.jpg"
    if ! slow_mount_start "$WORK/stuck-src" "$WORK/stuck" 5 8000; then
        fail "stuck reads beside a local folder" "could not mount the share"
        return
    fi
    local stopped loading="" came="" last
    stopped=$(slow_mount_server_pids)
    start_shell 160 30
    launch --stats --index off --no-disk-cache --read-ahead off --io normal stuck/big stuck-local "2>stuck-stats"
    if wait_for " 1/"; then
        sleep 1
        screen | tail -1 | grep -q loading && loading=yes
        kill -STOP $stopped
        for _ in $(seq 100); do
            last=$(screen | tail -1)
            [[ "$last" == *"▲ $WORK/stuck not answering"* && "$last" != *loading* ]] && screen | grep -q "L2.jpg" && { came=yes; break; }
            sleep 0.1
        done
        local seen
        seen=$(screen)
        tm send-keys -t e2e q
        wait_exit
        if [ "$loading" = yes ] && [ "$came" = yes ] && [ "$(cat "$WORK/rc")" = 130 ]; then
            pass "reads stuck on a share that stopped answering gave up their turns: the local folder's photos beside it loaded ($(echo "$last" | sed 's/  */ /g'))"
        else
            fail "reads stuck on a share beside a local folder" "loading before the stop '$loading', local photos came '$came', rc $(cat "$WORK/rc" 2>/dev/null); $seen"
        fi
    else
        fail "reads stuck on a share beside a local folder: no gallery" "$(screen)"
    fi
    kill -CONT $stopped
    slow_mount_stop "$WORK/stuck"
}

# A share whose sshfs ends (the mount gone: "Transport endpoint is not connected") after a visit
# filled the index: the gallery still shows its 3 photos from the index, names the mount not
# answering, marks one, its tiles offline (not broken); mounted again while the gallery runs,
# their pictures load.
mount_gone_away() {
    mkdir -p "$WORK/away-src/trip"
    for i in 1 2 3; do convert -size 64x48 "gradient:red-blue" "$WORK/away-src/trip/A$i.jpg"; done
    if ! slow_mount_start "$WORK/away-src" "$WORK/away" 5; then
        fail "a share gone away" "could not mount it"
        return
    fi
    start_shell 160 30
    launch away
    wait_for " 1/3 " && sleep 1
    tm send-keys -t e2e q
    wait_exit
    local pid
    for pid in $(pgrep -x sshfs); do tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- " $WORK/away " && kill -9 "$pid"; done
    sleep 0.5
    start_shell 160 30
    launch --no-disk-cache away
    local said="" marked="" offline="" back=""
    said=$(wait_for " 1/3 .*▲ $WORK/away not answering" && echo yes)
    tm send-keys -t e2e Space
    marked=$(wait_for "1 marked" && echo yes)
    [ "$(screen | grep -o offline | wc -l)" = 3 ] && ! screen | grep -q broken && offline=yes
    fusermount -u -z "$WORK/away" 2>/dev/null
    # A photo added while it was away: the walk, which could not look there, looks again.
    convert -size 64x48 "gradient:red-blue" "$WORK/away-src/trip/A4.jpg"
    local walked=""
    if slow_mount_start "$WORK/away-src" "$WORK/away" 5; then
        for _ in $(seq 100); do
            screen | tail -1 | grep -q "not answering\|loading" || { ! screen | grep -q "offline\|broken" && back=yes && break; }
            sleep 0.1
        done
        wait_for " [0-9]/4 " && ! screen | tail -1 | grep -q "cannot open" && walked=yes
    fi
    local last
    last=$(screen | tail -1)
    tm send-keys -t e2e q
    wait_exit
    if [ "$said" = yes ] && [ "$marked" = yes ] && [ "$offline" = yes ] && [ "$back" = yes ] && [ "$walked" = yes ] && [ "$(cat "$WORK/rc")" = 130 ]; then
        pass "a share gone away (its sshfs ended): its 3 photos shown from the index, the mount named, a mark taken, the tiles offline; mounted again, their pictures came, and the photo added meanwhile was found"
    else
        fail "a share gone away" "named '$said', marked '$marked', offline '$offline', back '$back', walked again '$walked', rc $(cat "$WORK/rc" 2>/dev/null); $last"
    fi
    slow_mount_stop "$WORK/away"
}

# A share's mount point opened while the share is not mounted (the NAS asleep, its fstab entry not
# mounted): an empty folder, made long before the photos went on the share. The index's photos are
# shown, offline, the folder said not mounted (it said "no images found" and exited 1); a
# snapshot the same, exit 0; mounted again, the pictures come and a photo added meanwhile is found.
mount_point_unmounted() {
    mkdir -p "$WORK/unm-src" "$WORK/unm"
    for i in 1 2 3; do convert -size 64x48 "gradient:green-blue" "$WORK/unm-src/U$i.jpg"; done
    if ! slow_mount_start "$WORK/unm-src" "$WORK/unm" 5; then
        fail "a share not mounted" "could not mount it"
        return
    fi
    start_shell 160 30
    launch unm
    wait_for " 1/3 " && sleep 1
    tm send-keys -t e2e q
    wait_exit
    slow_mount_stop "$WORK/unm"
    # The mount point's time past the listing's, the same day (a fresh mkdir's): only that the
    # index saw a mount point there tells it from a folder emptied.
    touch "$WORK/unm"
    local snapshot said="" marked="" offline="" back="" walked=""
    snapshot=$(cd "$WORK" && XDG_CACHE_HOME="$WORK/.cache" timeout -s KILL 30 "$BIN" --snapshot 160x20 unm 2> "$WORK/unm-snap-err"; echo "rc $?")
    start_shell 160 30
    launch --no-disk-cache --cull unm
    said=$(wait_for " 1/3 .*▲ $WORK/unm not mounted" && echo yes)
    tm send-keys -t e2e Space
    marked=$(wait_for "1 marked" && echo yes)
    [ "$(screen | grep -o offline | wc -l)" = 3 ] && ! screen | grep -q broken && offline=yes
    # Its stars kept in the state folder, not written into the empty mount point (hidden once
    # the share is mounted over it; and the folder changed, the gallery took the share for back).
    local kept=""
    tm send-keys -t e2e 3
    wait_for "not beside the photo" && [ -z "$(ls -A "$WORK/unm")" ] && kept=yes
    convert -size 64x48 "gradient:green-blue" "$WORK/unm-src/U4.jpg"
    if slow_mount_start "$WORK/unm-src" "$WORK/unm" 5; then
        for _ in $(seq 100); do
            screen | tail -1 | grep -q "not mounted\|loading" || { ! screen | grep -q "offline\|broken" && back=yes && break; }
            sleep 0.1
        done
        wait_for " [0-9]/4 " && walked=yes
    fi
    local last
    last=$(screen | tail -1)
    tm send-keys -t e2e q
    wait_exit
    if [ "$said" = yes ] && [ "$marked" = yes ] && [ "$offline" = yes ] && [ "$kept" = yes ] && [ "$back" = yes ] && [ "$walked" = yes ] \
        && [ "$(cat "$WORK/rc")" = 130 ] && [[ "$snapshot" == *" 1/3 "*"▲ $WORK/unm not mounted"*"rc 0" ]] \
        && grep -q "unm not mounted: the snapshot shows what the index had of it" "$WORK/unm-snap-err"; then
        pass "a share's mount point while the share is not mounted: its 3 photos shown from the index, offline, the folder said not mounted, a mark taken, stars kept in the state folder, not in the mount point (and so in --snapshot, exit 0); mounted again, their pictures came and the photo added meanwhile was found"
    else
        fail "a share not mounted" "named '$said', marked '$marked', offline '$offline', kept '$kept', back '$back', walked again '$walked', rc $(cat "$WORK/rc" 2>/dev/null); $last; snapshot: $(tail -c 300 <<< "$snapshot" | sed 's/\x1b\[[0-9;]*m//g') $(cat "$WORK/unm-snap-err")"
    fi
    slow_mount_stop "$WORK/unm"
}

# A share of three photos ($WORK/NAME-src/PREFIX1.jpg to 3, gradients of COLOURS) mounted at
# $WORK/NAME, their paths listed in $WORK/NAME.txt and piped to the gallery once (the index then
# holds them), q. When the share cannot be mounted: fails as WHAT, returns 1.
list_visited_once() {
    local name=$1 prefix=$2 colours=$3 what=$4 i
    mkdir -p "$WORK/$name-src"
    for i in 1 2 3; do convert -size 64x48 "gradient:$colours" "$WORK/$name-src/$prefix$i.jpg"; done
    if ! slow_mount_start "$WORK/$name-src" "$WORK/$name" 5; then
        fail "$what" "could not mount it"
        return 1
    fi
    for i in 1 2 3; do echo "$WORK/$name/$prefix$i.jpg"; done > "$WORK/$name.txt"
    start_shell 160 30
    launch_from "cat $name.txt"
    wait_for " 1/3 " && sleep 1
    tm send-keys -t e2e q
    wait_exit
}

# A list on standard input whose share went away (its sshfs ended): a share's three photos listed,
# visited once; the share gone, a fourth added to it and to the list, listed again: the three
# shown from the index, offline, the fourth not looked at (its mount named); mounted again, the
# list's paths are looked at again and the fourth comes, its problem gone.
list_gone_away() {
    list_visited_once list-away G yellow-blue "a list of a share gone away" || return
    local pid
    for pid in $(pgrep -x sshfs); do tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- " $WORK/list-away " && kill -9 "$pid"; done
    sleep 0.5
    convert -size 64x48 "gradient:yellow-blue" "$WORK/list-away-src/G4.jpg"
    echo "$WORK/list-away/G4.jpg" >> "$WORK/list-away.txt"
    start_shell 160 30
    launch_from "cat list-away.txt" --no-disk-cache
    local said="" missed="" found=""
    said=$(wait_for " 1/3 .*▲ $WORK/list-away not answering" && echo yes)
    missed=$(wait_for "cannot open .*not connected" && echo yes)
    fusermount -u -z "$WORK/list-away" 2>/dev/null
    if slow_mount_start "$WORK/list-away-src" "$WORK/list-away" 5; then
        wait_for " [0-9]/4 " && ! screen | tail -1 | grep -q "cannot open\|not answering" && found=yes
    fi
    local last
    last=$(screen | tail -1)
    tm send-keys -t e2e q
    wait_exit
    if [ "$said" = yes ] && [ "$missed" = yes ] && [ "$found" = yes ] && [ "$(cat "$WORK/rc")" = 130 ]; then
        pass "a list of a share gone away: its 3 photos shown from the index, the mount named, the 4th not looked at; mounted again, the list's paths looked at again and the 4th found"
    else
        fail "a list of a share gone away" "named '$said', missed '$missed', found '$found', rc $(cat "$WORK/rc" 2>/dev/null); $last"
    fi
    slow_mount_stop "$WORK/list-away"
}

# A list on standard input shown from the index at once: a share's three photos listed, visited
# once; then, its server stopped, listed again: the three shown (the index's), the mount named,
# `q` ends at once; the server resumed.
list_from_index_while_stalled() {
    list_visited_once listed L green-blue "a list from the index, its share stalled" || return
    local servers shown="" named="" ended=""
    servers=$(slow_mount_server_pids)
    kill -STOP $servers
    start_shell 160 30
    launch_from "cat listed.txt"
    shown=$(wait_for " 1/3 " && echo yes)
    named=$(wait_for "▲ $WORK/listed not answering" && echo yes)
    tm send-keys -t e2e q
    ended=$(wait_exit && echo yes)
    kill -CONT $servers
    if [ "$shown" = yes ] && [ "$named" = yes ] && [ "$ended" = yes ] && [ "$(cat "$WORK/rc")" = 130 ]; then
        pass "a list on standard input of a stalled share: its 3 photos shown from the index, the mount named, q ended it"
    else
        fail "a list from the index, its share stalled" "shown '$shown', named '$named', ended '$ended', rc $(cat "$WORK/rc" 2>/dev/null); $(screen | tail -3)"
    fi
    slow_mount_stop "$WORK/listed"
}
