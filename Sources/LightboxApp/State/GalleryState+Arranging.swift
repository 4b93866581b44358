import LightboxThumbnails

extension GalleryState {
    /// Changes the library's order with `change`, keeping the cursor item on the same screen line
    /// and every mark and a pending range on its item (marks the filter hides are kept aside).
    /// - Complexity: O(*n*) plus what `change` costs.
    mutating func rearrange(_ change: (inout Library) -> Void) {
        rearrangeIfChanged { library in
            change(&library)
            return true
        }
    }

    /// As `rearrange(_:)`, for a change that says whether it arranged the library: when it did
    /// not, nothing else is done.
    mutating func rearrangeIfChanged(_ change: (inout Library) -> Bool) {
        let cursorID = library.isEmpty ? nil : library.id(at: viewport.cursor)
        let line = cursorLine
        let markedIDs = self.markedIDs
        let anchorID = selection.anchor.map { library.id(at: $0) }
        guard change(&library) else { return }
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
        // A frame gone into a stack: the cursor goes to the stack's tile.
        let shown = library.position(of: cursorID) < 0 ? library.stackOf[cursorID] ?? cursorID : cursorID
        let position = library.position(of: shown)
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
