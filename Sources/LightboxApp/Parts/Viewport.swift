import LightboxLayout

/// The state's part for where the user is: the cursor's position, the scroll offset along the
/// layout's axis, the column vertical moves keep, and the direction of the last scroll. Its own
/// reducer scrolls and keeps the cursor in view, given the layout and the viewport's length.
public struct Viewport: Hashable, Sendable {
    /// The cursor's position.
    public internal(set) var cursor = 0
    /// Content line (cells for the strip) shown at the viewport's leading edge.
    public internal(set) var offset = 0
    /// The column up and down moves keep across short rows.
    var stickyColumn: Int?
    /// Direction of the last scroll: +1 down (or right), -1 up.
    var direction = 1

    /// The largest useful offset.
    static func maxOffset(_ layout: any TileLayout, length: Int) -> Int { max(0, layout.contentHeight - length) }

    /// Where the cursor tile starts along the axis, relative to the viewport.
    func cursorLine(in layout: any TileLayout) -> Int { layout.span(of: layout.frame(ofItem: cursor)).start - offset }

    /// Scrolls the least needed to show the cursor's tile whole, clear of the pinned header.
    mutating func scrollCursorIntoView(in layout: any TileLayout, length: Int) {
        let tile = layout.span(of: layout.frame(ofItem: cursor))
        let old = offset
        let top = tile.start - layout.pinnedHeaderLength  // room for the pinned header before the tile
        if top < offset {
            offset = top
        } else if tile.end > offset + length {
            offset = tile.end - length
        }
        offset = min(max(0, offset), Self.maxOffset(layout, length: length))
        if offset != old { direction = offset > old ? 1 : -1 }
    }

    /// Scrolls by `lines` (cells for the strip), then brings the cursor onto a tile still shown.
    mutating func scroll(by lines: Int, in layout: any TileLayout, length: Int) {
        let old = offset
        offset = min(max(0, offset + lines), Self.maxOffset(layout, length: length))
        guard offset != old else { return }
        direction = offset > old ? 1 : -1
        let top = offset + layout.pinnedHeaderLength
        let bottom = offset + length
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
    mutating func keepCursor(atLine line: Int, in layout: any TileLayout, length: Int) {
        offset = min(max(0, layout.span(of: layout.frame(ofItem: cursor)).start - line), Self.maxOffset(layout, length: length))
        scrollCursorIntoView(in: layout, length: length)
    }
}
