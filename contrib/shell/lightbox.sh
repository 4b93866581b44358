# Shell functions around Lightbox; source this file from ~/.bashrc or ~/.zshrc.

# lbcp DEST [PATH...]: pick photos in a grid (of PATH, or the current folder) and copy them to DEST.
lbcp() {
    if [ $# -lt 1 ] || [ ! -d "$1" ]; then
        echo "usage: lbcp DEST-FOLDER [PATH...]" >&2
        return 2
    fi
    local dest=$1
    shift
    lightbox -0 -- "${@:-.}" | xargs -0 -r cp -n -t "$dest" --
}

# lbcd [PATH...]: pick one photo and go to its folder.
lbcd() {
    local picked
    picked=$(lightbox --no-multi -- "${@:-.}") && [ -n "$picked" ] && cd -- "$(dirname -- "$picked")"
}
