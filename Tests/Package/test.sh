#!/usr/bin/env bash
# make test-package: installs the .deb into a clean Debian 12 root with no Swift (made once with
# debootstrap under .build/package-root, copied afresh for each run), runs lightbox --version,
# --help and a --snapshot of generated photos (JPEG, PNG) there, then purges it: nothing of it may
# be left. Needs root (chroot) and the network (debootstrap, the package's dependencies).
# Usage: Tests/Package/test.sh PATH-TO-DEB PATH-TO-LIGHTBOX-SAMPLES
set -uo pipefail
DEB=$(realpath "$1")
SAMPLES=$(realpath "$2")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
CLEAN=${PACKAGE_ROOT:-$REPO/.build/package-root}
[ "$(id -u)" = 0 ] || { echo "test.sh needs root (chroot)"; exit 2; }
source "$REPO/Tests/EndToEnd/debian_root.sh"
command -v sqlite3 >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null  # to read the index
[ -x "$CLEAN/usr/bin/apt-get" ] || debian_root bookworm "$CLEAN"
ROOT=$(mktemp -d /var/tmp/lightbox-package.XXXXXX)
cleanup() { umount -l "$ROOT/proc" "$ROOT/dev" 2>/dev/null; rm -rf "$ROOT"; }
trap cleanup EXIT
cp -a "$CLEAN/." "$ROOT/"
cp /etc/resolv.conf "$ROOT/etc/"
mount --bind /proc "$ROOT/proc" && mount --rbind /dev "$ROOT/dev" || { echo "cannot mount into $ROOT"; exit 1; }
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/    /'; }
in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=xterm-256color "$@"; }

# What the root holds before, to compare after the purge (apt's own lists and logs aside).
listing() { (cd "$ROOT" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./var/lib/apt -o -path ./var/cache -o -path ./var/log -o -path ./var/lib/dpkg -o -path ./tmp -o -path ./etc/ld.so.cache \) -prune -o -print | sort); }
in_root apt-get update -qq >/dev/null || { echo "apt-get update failed in the root"; exit 1; }
# The dependencies first (as apt would), so the comparison after the purge sees only the package.
deps=$(dpkg-deb -f "$DEB" Depends | sed 's/([^)]*)//g; s/|[^,]*//g; s/,/ /g')
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $deps >/dev/null 2>&1 || { echo "cannot install $deps"; exit 1; }
before=$(listing)
in_root sh -c 'command -v swift swiftc' >/dev/null && fail "the root has no Swift" || pass "the root has no Swift toolchain"
cp "$DEB" "$ROOT/tmp/lightbox.deb"
packages=$(in_root dpkg-query -W | wc -l)
if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/lightbox.deb >/dev/null 2>"$ROOT/tmp/apt.err" \
   && [ "$(in_root dpkg-query -W | wc -l)" = $((packages + 1)) ]; then
    pass "apt-get installs $(basename "$DEB") ($(du -k "$DEB" | cut -f1) KB), and nothing beyond its Depends"
else
    fail "install" "$(tail -5 "$ROOT/tmp/apt.err")"
fi
version=$(in_root lightbox --version 2>&1)
[[ "$version" =~ ^lightbox\ [0-9] ]] && pass "lightbox --version: $version" || fail "--version" "$version"
help=$(in_root lightbox --help 2>&1)
grep -q -- "--snapshot" <<< "$help" && pass "lightbox --help lists the options" || fail "--help" "$(head -3 <<< "$help")"
if zcat "$ROOT/usr/share/man/man1/lightbox.1.gz" 2>/dev/null | grep -q '^\.TH LIGHTBOX'; then pass "the manual page is installed"; else fail "man page"; fi
[ -s "$ROOT/usr/share/bash-completion/completions/lightbox" ] && [ -s "$ROOT/usr/share/zsh/vendor-completions/_lightbox" ] \
    && [ -s "$ROOT/usr/share/fish/vendor_completions.d/lightbox.fish" ] && pass "bash, zsh and fish completions are installed" || fail "completions"
"$SAMPLES" "$ROOT/tmp/photos" >/dev/null
shot=$(in_root lightbox --snapshot 100x30 --no-disk-cache /tmp/photos/city 2>&1)
plain=$(sed 's/\x1b\[[0-9;]*m//g' <<< "$shot")
if grep -q "IMG_" <<< "$plain" && grep -q "48;2" <<< "$shot" && ! grep -q "broken\|cannot" <<< "$plain"; then
    pass "a --snapshot of generated photos (JPEG by the app, PNG by lightbox-decode): $(grep -o ' [0-9]\+/[0-9]\+ ' <<< "$plain" | tail -1 | tr -d ' ') tiles, $(grep -o 'IMG_[0-9]*\.png' <<< "$plain" | wc -l) of them PNGs"
else
    fail "snapshot" "$(tail -4 <<< "$plain")"
fi
# The library's index (SQLite, a dependency of the package) is the user's cache, not the package's:
# written by the snapshot, it is removed by hand before the purge is compared.
index="$ROOT/root/.cache/lightbox/index.sqlite" indexed=""
[ -s "$index" ] && indexed=$(sqlite3 "$index" 'select count(*) from file' 2>/dev/null)
if [ "${indexed:-0}" -gt 0 ]; then
    pass "the snapshot wrote the library's index ($indexed files in ~/.cache/lightbox/index.sqlite)"
else
    fail "the index" "$(ls -la "$ROOT/root/.cache/lightbox" 2>&1)"
fi
rm -rf "$ROOT/root/.cache"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq lightbox >/dev/null 2>&1 || fail "purge"
rm -f "$ROOT/tmp/lightbox.deb"
left=$(diff <(echo "$before") <(listing) | grep '^[<>]')
[ -z "$left" ] && ! in_root sh -c 'command -v lightbox' >/dev/null && pass "apt-get purge leaves nothing behind" || fail "left behind" "$left"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
