import LightboxLayout

extension GalleryState {
    /// The viewport's length along the layout's axis: lines for vertical layouts, cells for the strip.
    public var viewportLength: Int { layout.axis == .vertical ? gridHeight : layout.width }

    /// The largest useful scroll offset.
    var maxScrollOffset: Int { max(0, layout.contentHeight - viewportLength) }

    /// Where the cursor tile starts along the axis, relative to the viewport.
    var cursorLine: Int { library.isEmpty ? 0 : layout.span(of: layout.frame(ofItem: cursor)).start - scrollOffset }

    /// Scrolls the least needed to show the cursor's tile whole, clear of the pinned header.
    mutating func scrollCursorIntoView() {
        guard !library.isEmpty else { return }
        let tile = layout.span(of: layout.frame(ofItem: cursor))
        let old = scrollOffset
        let top = tile.start - layout.pinnedHeaderLength  // room for the pinned header before the tile
        if top < scrollOffset {
            scrollOffset = top
        } else if tile.end > scrollOffset + viewportLength {
            scrollOffset = tile.end - viewportLength
        }
        scrollOffset = min(max(0, scrollOffset), maxScrollOffset)
        if scrollOffset != old { scrollDirection = scrollOffset > old ? 1 : -1 }
    }

    /// Scrolls the viewport by `lines` (cells for the strip), then brings the cursor onto a tile
    /// that is still shown.
    mutating func scroll(by lines: Int) {
        let old = scrollOffset
        scrollOffset = min(max(0, scrollOffset + lines), maxScrollOffset)
        guard scrollOffset != old else { return }
        scrollDirection = scrollOffset > old ? 1 : -1
        let top = scrollOffset + layout.pinnedHeaderLength
        let bottom = scrollOffset + viewportLength
        let tile = layout.span(of: layout.frame(ofItem: cursor))
        guard tile.start < top || tile.end > bottom else { return }
        // Move tile by tile until it is inside; the layout knows the way across sections.
        let forward: Movement = layout.axis == .vertical ? .down : .right
        let backward: Movement = layout.axis == .vertical ? .up : .left
        var item = cursor
        for _ in 0..<1000 {
            let span = layout.span(of: layout.frame(ofItem: item))
            if span.start >= top && span.end <= bottom { break }
            let next = layout.destination(from: item, span.start < top ? forward : backward)
            if next == item { break }
            item = next
        }
        cursor = item
    }

    /// Puts the cursor tile back at `line` along the axis after the layout changed under it.
    mutating func keepCursor(atLine line: Int) {
        guard !library.isEmpty else { return }
        scrollOffset = min(max(0, layout.span(of: layout.frame(ofItem: cursor)).start - line), maxScrollOffset)
        scrollCursorIntoView()
    }
}
