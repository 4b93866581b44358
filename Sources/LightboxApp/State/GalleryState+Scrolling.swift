import LightboxLayout

extension GalleryState {
    /// The viewport's length along the layout's axis: lines for vertical layouts, cells for the strip.
    public var viewportLength: Int { layout.axis == .vertical ? screen.gridHeight : layout.width }

    /// The largest useful scroll offset.
    var maxScrollOffset: Int { Viewport.maxOffset(layout, length: viewportLength) }

    /// Where the cursor tile starts along the axis, relative to the viewport.
    var cursorLine: Int { library.isEmpty ? 0 : viewport.cursorLine(in: layout) }

    /// Scrolls the least needed to show the cursor's tile whole, clear of the pinned header.
    mutating func scrollCursorIntoView() {
        guard !library.isEmpty else { return }
        viewport.scrollCursorIntoView(in: layout, length: viewportLength)
    }

    /// Scrolls the viewport by `lines` (cells for the strip), then brings the cursor onto a tile
    /// that is still shown.
    mutating func scroll(by lines: Int) { viewport.scroll(by: lines, in: layout, length: viewportLength) }

    /// Puts the cursor tile back at `line` along the axis after the layout changed under it.
    mutating func keepCursor(atLine line: Int) {
        guard !library.isEmpty else { return }
        viewport.keepCursor(atLine: line, in: layout, length: viewportLength)
    }
}
