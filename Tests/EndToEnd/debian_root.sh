# Sourced by the tests that need a Debian root of their own (kitty.sh, Tests/Package/test.sh).

# debian_root SUITE DIR: a minimal Debian SUITE made in DIR by debootstrap (installed first when
# missing), with this machine's resolver; needs root and the network. Exits with a message on failure.
debian_root() {
    [ "$(id -u)" = 0 ] || { echo "$(basename "$0") needs root (chroot)"; exit 2; }
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    rm -rf "$2"
    debootstrap --variant=minbase "$1" "$2" http://deb.debian.org/debian >/dev/null || { echo "debootstrap $1 failed"; exit 1; }
    cp /etc/resolv.conf "$2/etc/"
}
