/// The direction content scrolls in.
public enum ScrollAxis: Hashable, Sendable {
    /// Down the screen: offsets are lines (grid, masonry).
    case vertical
    /// Across the screen: offsets are cells (the strip).
    case horizontal
}

/// What the app and the view ask of a layout, whichever it is: where tiles, headers and footers
/// are, what is visible, what is under a cell, and where the cursor goes. Items are numbered
/// globally in reading order; sections are contiguous ranges of them.
///
/// Offsets and lengths are along the layout's `axis`: lines for vertical layouts, cells for the
/// horizontal strip. Frames are in content coordinates: the axis coordinate counts from the
/// content's start, the other from the grid's edge.
public protocol TileLayout: Sendable {
    var axis: ScrollAxis { get }
    /// How much of the viewport's leading edge a pinned header covers, along the axis.
    var pinnedHeaderLength: Int { get }
    /// The extent of section `s`'s header: a full-width line (vertical) or a card at the
    /// section's start (horizontal), in content coordinates.
    func headerFrame(ofSection s: Int) -> Rect
    var width: Int { get }
    var columns: [Column] { get }
    var metrics: GridLayout.Metrics { get }
    /// Whether each section is collapsed to its header.
    var collapsed: [Bool] { get }
    var itemCount: Int { get }
    var sectionCount: Int { get }
    /// Total length of the content along the axis.
    var contentHeight: Int { get }
    /// The height of the shortest whole tile: less room than this and a header is "too small".
    var tileHeight: Int { get }
    /// A typical distance between tiles along the axis: what page moves count in.
    var rowPitch: Int { get }

    func items(inSection s: Int) -> Range<Int>
    func section(ofItem index: Int) -> Int
    func section(atOffset y: Int) -> Int?
    func headerTop(ofSection s: Int) -> Int
    func footerTop(ofSection s: Int) -> Int
    func isShown(_ index: Int) -> Bool
    /// The column item `index` is in.
    func column(ofItem index: Int) -> Int
    /// The whole tile (box and label), in content coordinates; a collapsed section's header line
    /// for its items.
    func frame(ofItem index: Int) -> Rect
    /// The picture box: the tile without its label.
    func boxFrame(ofItem index: Int) -> Rect
    /// A contiguous range holding every item whose tile meets the lines `offset..<offset+height`
    /// (it may hold others: draw those whose frames meet the lines and `isShown`).
    func visibleItems(offset: Int, height: Int) -> Range<Int>
    func item(atX x: Int, y: Int) -> Int?
    func pinnedHeader(atOffset offset: Int) -> (section: Int, y: Int)?
    func pinnedFooter(atOffset offset: Int, height: Int) -> (section: Int, y: Int)?
    func destination(from index: Int, _ movement: Movement, column: Int?) -> Int
}

extension TileLayout {
    public func destination(from index: Int, _ movement: Movement) -> Int { destination(from: index, movement, column: nil) }
    public var columnCount: Int { columns.count }
    /// Whether item `index` has a tile meeting `offset..<offset+length` along the axis.
    public func isVisible(_ index: Int, offset: Int, height length: Int) -> Bool {
        guard isShown(index) else { return false }
        let frame = frame(ofItem: index)
        return axis == .vertical ? frame.maxY > offset && frame.y < offset + length
                                 : frame.maxX > offset && frame.x < offset + length
    }

    /// Where a rectangle starts and ends along the axis.
    public func span(of rect: Rect) -> (start: Int, end: Int) {
        axis == .vertical ? (rect.y, rect.maxY) : (rect.x, rect.maxX)
    }
}

extension GridLayout {
    public var axis: ScrollAxis { .vertical }
    public var pinnedHeaderLength: Int { metrics.headerHeight }
    public func headerFrame(ofSection s: Int) -> Rect { Rect(x: 0, y: headerTop(ofSection: s), width: width, height: metrics.headerHeight) }
}

extension MasonryLayout {
    public var axis: ScrollAxis { .vertical }
    public var pinnedHeaderLength: Int { metrics.headerHeight }
    public func headerFrame(ofSection s: Int) -> Rect { Rect(x: 0, y: headerTop(ofSection: s), width: width, height: metrics.headerHeight) }
}

/// The ways items can be laid out.
public enum LayoutMode: String, Hashable, Sendable, CaseIterable {
    /// Rows of equal-height tiles.
    case grid
    /// Columns of tiles at their pictures' own shapes, each tile into the shortest column.
    case masonry
    /// Rows of tiles scrolling sideways, a filmstrip; section headers are cards at the leading edge.
    case strip
}

extension GridLayout: TileLayout {
    public func column(ofItem index: Int) -> Int { position(ofItem: index).column }
}
