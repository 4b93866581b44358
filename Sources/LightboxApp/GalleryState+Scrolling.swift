import LightboxLayout

extension GalleryState {
    /// The largest useful scroll offset.
    var maxScrollOffset: Int { max(0, layout.contentHeight - gridHeight) }

    /// Scrolls the least needed to show the cursor's tile whole, below the pinned header line.
    mutating func scrollCursorIntoView() {
        guard !library.isEmpty else { return }
        let tile = layout.frame(ofItem: cursor)
        let old = scrollOffset
        let top = tile.y - layout.metrics.headerHeight  // the header line above the tile
        if top < scrollOffset {
            scrollOffset = top
        } else if tile.maxY > scrollOffset + gridHeight {
            scrollOffset = tile.maxY - gridHeight
        }
        scrollOffset = min(max(0, scrollOffset), maxScrollOffset)
        if scrollOffset != old { scrollDirection = scrollOffset > old ? 1 : -1 }
    }

    /// Scrolls the viewport by `lines`, then brings the cursor onto a tile that is still shown.
    mutating func scroll(by lines: Int) {
        let old = scrollOffset
        scrollOffset = min(max(0, scrollOffset + lines), maxScrollOffset)
        guard scrollOffset != old else { return }
        scrollDirection = scrollOffset > old ? 1 : -1
        let tile = layout.frame(ofItem: cursor)
        let top = scrollOffset + layout.metrics.headerHeight
        let bottom = scrollOffset + gridHeight
        guard tile.y < top || tile.maxY > bottom else { return }
        // Move by whole rows until the tile is inside; the layout knows the way across sections.
        var item = cursor
        for _ in 0..<1000 {
            let frame = layout.frame(ofItem: item)
            if frame.y >= top && frame.maxY <= bottom { break }
            let next = layout.destination(from: item, frame.y < top ? .down : .up)
            if next == item { break }
            item = next
        }
        cursor = item
    }
}
