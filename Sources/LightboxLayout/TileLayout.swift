/// The direction content scrolls in.
public enum ScrollAxis: Hashable, Sendable {
    /// Down the screen: offsets are lines (grid, masonry).
    case vertical
    /// Across the screen: offsets are cells (the strip).
    case horizontal
}

/// Fixed heights of the non-tile parts of every layout: headers, labels, section spacing,
/// footers, and the boxes' shape.
public struct TileMetrics: Hashable, Sendable {
    public var headerHeight: Int
    public var labelHeight: Int
    public var sectionSpacing: Int
    /// Lines of each section's footer: 0 (none) or 1.
    public var footerHeight: Int
    /// Box height over box width in pixels, as a percentage (a half-block cell is two square pixels).
    public var boxAspectPercent: Int

    public init(
        headerHeight: Int = 1, labelHeight: Int = 1, sectionSpacing: Int = 1, boxAspectPercent: Int = 75,
        footerHeight: Int = 0
    ) {
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.labelHeight = labelHeight
        self.sectionSpacing = sectionSpacing
        self.boxAspectPercent = boxAspectPercent
    }
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
    var metrics: TileMetrics { get }
    /// Whether each section is collapsed to its header.
    /// Which items each section holds, and which sections are collapsed (the queries below on
    /// sections and items have default implementations that read it).
    var sections: SectionIndex { get }
    var collapsed: [Bool] { get }
    var itemCount: Int { get }
    var sectionCount: Int { get }
    func items(inSection s: Int) -> Range<Int>
    func section(ofItem index: Int) -> Int
    func isShown(_ index: Int) -> Bool
    /// Total length of the content along the axis.
    var contentHeight: Int { get }
    /// The height of the shortest whole tile: less room than this and a header is "too small".
    var tileHeight: Int { get }
    /// A typical distance between tiles along the axis: what page moves count in.
    var rowPitch: Int { get }

    func section(atOffset y: Int) -> Int?
    func headerTop(ofSection s: Int) -> Int
    func footerTop(ofSection s: Int) -> Int
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
        return axis == .vertical
            ? frame.maxY > offset && frame.y < offset + length
            : frame.maxX > offset && frame.x < offset + length
    }

    /// The header pinned to the viewport's leading edge at `offset`: its section, and where it is
    /// along the axis relative to the edge (0, or negative while the next header pushes it away).
    /// - Complexity: O(log *s*).
    public func pinnedHeader(atOffset offset: Int) -> (section: Int, y: Int)? {
        guard let s = section(atOffset: offset) else { return nil }
        guard s + 1 < sectionCount else { return (s, 0) }
        return (s, min(0, headerTop(ofSection: s + 1) - offset - pinnedHeaderLength))
    }

    /// The footer pinned to the bottom of a viewport `height` lines tall at `offset`: the section
    /// running past the bottom keeps its footer on the last line, as long as its header shows
    /// above it. Nil without footers, or when every section on screen ends on screen.
    /// - Complexity: O(log *s*).
    public func pinnedFooter(atOffset offset: Int, height: Int) -> (section: Int, y: Int)? {
        guard metrics.footerHeight > 0, height > 0, let s = section(atOffset: offset + height - 1), !collapsed[s] else { return nil }
        guard footerTop(ofSection: s) - offset > height - metrics.footerHeight else { return nil }  // it shows where it is
        let y = height - metrics.footerHeight
        return y >= headerTop(ofSection: s) + metrics.headerHeight - offset ? (s, y) : nil
    }

    /// The moves every layout makes alike: to the first or the last photo (a collapsed last
    /// section's header), and to the next or previous section's first photo. Nil for the others.
    /// - Complexity: O(log *s*), plus the empty sections passed over.
    func commonDestination(from index: Int, _ movement: Movement) -> Int? {
        switch movement {
        case .first: return 0
        case .last:
            let s = section(ofItem: itemCount - 1)
            return collapsed[s] ? items(inSection: s).lowerBound : itemCount - 1
        case .nextSection:
            return nonEmptySection(after: section(ofItem: index)).map { items(inSection: $0).lowerBound } ?? index
        case .previousSection:
            let s = section(ofItem: index)
            if index != items(inSection: s).lowerBound { return items(inSection: s).lowerBound }
            return nonEmptySection(before: s).map { items(inSection: $0).lowerBound } ?? index
        default: return nil
        }
    }

    func nonEmptySection(after s: Int) -> Int? {
        var t = s + 1
        while t < sectionCount, items(inSection: t).isEmpty { t += 1 }
        return t < sectionCount ? t : nil
    }

    func nonEmptySection(before s: Int) -> Int? {
        var t = s - 1
        while t >= 0, items(inSection: t).isEmpty { t -= 1 }
        return t >= 0 ? t : nil
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
