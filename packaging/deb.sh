#!/usr/bin/env bash
# make deb: builds lightbox_VERSION_ARCH.deb with the Swift runtime linked statically, so it
# installs on a Debian 12 without Swift. Depends is what dpkg-shlibdeps finds the two binaries
# link. Usage: packaging/deb.sh [OUTPUT-DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:-.}")
SCRATCH=.build/static
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product lightbox
swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product lightbox-decode
BIN="$SCRATCH/release"
UPSTREAM=$("$BIN/lightbox" --version | awk '{print $2}')
VERSION="$UPSTREAM-$(sed -n '1s/.*(\(.*\)).*/\1/p' packaging/debian/changelog | sed 's/.*-//')"
ARCH=$(dpkg --print-architecture)
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
ROOT="$STAGE/root"

install -Dm755 "$BIN/lightbox" "$ROOT/usr/bin/lightbox"
install -Dm755 "$BIN/lightbox-decode" "$ROOT/usr/libexec/lightbox/lightbox-decode"
strip --strip-unneeded "$ROOT/usr/bin/lightbox" "$ROOT/usr/libexec/lightbox/lightbox-decode"
mkdir -p "$ROOT/usr/share/man/man1" "$ROOT/usr/share/bash-completion/completions" "$ROOT/usr/share/zsh/vendor-completions" \
    "$ROOT/usr/share/fish/vendor_completions.d" "$ROOT/usr/share/doc/lightbox"
"$BIN/lightbox" --man | gzip -9n > "$ROOT/usr/share/man/man1/lightbox.1.gz"
"$BIN/lightbox" --completions bash > "$ROOT/usr/share/bash-completion/completions/lightbox"
"$BIN/lightbox" --completions zsh > "$ROOT/usr/share/zsh/vendor-completions/_lightbox"
"$BIN/lightbox" --completions fish > "$ROOT/usr/share/fish/vendor_completions.d/lightbox.fish"
gzip -9n < packaging/debian/changelog > "$ROOT/usr/share/doc/lightbox/changelog.Debian.gz"
cp packaging/debian/copyright "$ROOT/usr/share/doc/lightbox/copyright"
chmod -R u+rwX,go+rX,go-w "$ROOT"

# The libraries the binaries link, as package names and versions, by dpkg-shlibdeps.
mkdir -p "$STAGE/src/debian"
printf 'Source: lightbox\n\nPackage: lightbox\nArchitecture: any\n' > "$STAGE/src/debian/control"
DEPENDS=$(cd "$STAGE/src" && dpkg-shlibdeps -O "$ROOT/usr/bin/lightbox" "$ROOT/usr/libexec/lightbox/lightbox-decode" 2>/dev/null \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$DEPENDS" ] || { echo "dpkg-shlibdeps found no dependencies" >&2; exit 1; }
SIZE=$(du -sk "$ROOT" | cut -f1)
mkdir -p "$ROOT/DEBIAN"
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$SIZE/" -e "s/@DEPENDS@/$DEPENDS/" packaging/debian/control.in > "$ROOT/DEBIAN/control"
(cd "$ROOT" && find usr -type f -exec md5sum {} + | sort -k2) > "$ROOT/DEBIAN/md5sums"
mkdir -p "$OUT"
DEB="$OUT/lightbox_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$DEB" >/dev/null
echo "$DEB"
