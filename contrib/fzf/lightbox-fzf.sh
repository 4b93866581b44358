# Narrow a photo collection by name with fzf, select some with Tab, press Ctrl-G: Lightbox
# shows fzf's selection ({+}; the line under the cursor when none) as a grid, and what you pick
# there is printed. Source it from ~/.bashrc or ~/.zshrc; then: fzlightbox [FOLDER]
fzlightbox() {
    find "${1:-.}" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' -o -iname '*.heic' \
        -o -iname '*.webp' -o -iname '*.gif' -o -iname '*.mp4' -o -iname '*.mov' -o -iname '*.dng' \) | sort -V \
        | fzf --multi --layout=reverse --prompt 'photos> ' --header 'Tab: select   Ctrl-G: show the selection in Lightbox' \
              --bind 'ctrl-g:become(lightbox -- {+})'
}
