import LightboxThumbnails

extension GalleryState {
    /// Changes the library's order with `change`, keeping the cursor item on the same screen line
    /// and every mark and a pending range on its item (marks the filter hides are kept aside).
    /// - Complexity: O(*n*) plus what `change` costs.
    mutating func rearrange(_ change: (inout Library) -> Void) {
        let cursorID = library.isEmpty ? nil : library.id(at: viewport.cursor)
        let line = cursorLine
        let markedIDs = self.markedIDs
        let anchorID = selection.anchor.map { library.id(at: $0) }
        change(&library)
        selection.follow((markedIDs, anchorID), in: library)
        rebuildLayout()
        viewport.stickyColumn = nil
        guard !library.isEmpty else {
            viewport.cursor = 0
            viewport.offset = 0
            return
        }
        guard hasUserActed, let cursorID else {
            viewport.cursor = 0
            viewport.offset = 0
            return
        }
        let position = library.position(of: cursorID)
        if position >= 0 {
            viewport.cursor = position
            keepCursor(atLine: line)
        } else {
            viewport.cursor = nearestShown(to: cursorID)
            scrollCursorIntoView()
        }
    }

    /// The position of the first shown item found after `id` (or the last one before it).
    /// - Complexity: O(*n*).
    func nearestShown(to id: ItemID) -> Int {
        // Stops at the first shown one: no list of every id is made.
        for number in id.rawValue..<library.totalCount where library.position(of: ItemID(number)) >= 0 { return library.position(of: ItemID(number)) }
        for number in stride(from: id.rawValue, through: 0, by: -1) where library.position(of: ItemID(number)) >= 0 {
            return library.position(of: ItemID(number))
        }
        return 0
    }
}
