extension GalleryState {
    /// Changes the library's order with `change`, keeping the cursor item on the same screen line
    /// and every mark and a pending range on its item.
    /// - Complexity: O(*n*) plus what `change` costs.
    mutating func rearrange(_ change: (inout Library) -> Void) {
        guard !library.isEmpty else {
            change(&library)
            marks.grow(to: library.count)
            layout = makeLayout()
            return
        }
        let cursorID = library.id(at: cursor)
        let line = cursorLine
        let markedIDs = marks.sorted.map { library.id(at: $0) }
        let anchorID = rangeAnchor.map { library.id(at: $0) }
        change(&library)
        marks = MarkSet(capacity: library.count)
        for id in markedIDs { marks.set(library.position(of: id), marked: true) }
        rangeAnchor = anchorID.map { library.position(of: $0) }
        cursor = hasUserActed ? library.position(of: cursorID) : 0
        layout = makeLayout()
        stickyColumn = nil
        keepCursor(atLine: line)
    }
}
