# Narrow a photo collection by name with fzf, select some with Tab, press Ctrl-G: Lightbox
# shows fzf's selection (the line under the cursor when none) as a grid, and what you pick
# there is printed, one a line, or NUL-separated with -0 (names holding a newline need it).
# Source it from ~/.bashrc or ~/.zshrc; then: fzlightbox [-0] [FOLDER]
# fzf shows names as UTF-8 and would hand back other bytes changed, so it is given each name's
# number beside it and hands back the numbers; the names go to Lightbox from the list find
# made, NUL-separated, byte for byte.
fzlightbox() {
    local print0= list
    if [ "${1:-}" = -0 ]; then print0=-0; shift; fi
    list=$(mktemp) || return 1
    find "${1:-.}" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' -o -iname '*.heic' \
        -o -iname '*.webp' -o -iname '*.gif' -o -iname '*.mp4' -o -iname '*.mov' -o -iname '*.dng' \) -print0 | sort -zV > "$list"
    local number=0 name
    while IFS= read -r -d '' name; do
        number=$((number + 1))
        printf '%d\t%s\0' "$number" "$name"
    done < "$list" \
        | fzf --read0 --multi --delimiter '\t' --with-nth '2..' --layout=reverse --prompt 'photos> ' \
              --header 'Tab: select   Ctrl-G: show the selection in Lightbox' \
              --bind "ctrl-g:become(sed -z -n \"\$(printf '%sp;' {+1})\" '$list' | lightbox --read0 $print0)"
    local status=$?
    rm -f "$list"
    return $status
}
