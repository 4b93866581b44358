/// What the app and the view ask of a layout, whichever it is: where tiles, headers and footers
/// are, what is visible, what is under a cell, and where the cursor goes. Items are numbered
/// globally in reading order; sections are contiguous ranges of them.
public protocol TileLayout: Sendable {
    var width: Int { get }
    var columns: [Column] { get }
    var metrics: GridLayout.Metrics { get }
    /// Whether each section is collapsed to its header.
    var collapsed: [Bool] { get }
    var itemCount: Int { get }
    var sectionCount: Int { get }
    /// Total height of the content, in lines.
    var contentHeight: Int { get }
    /// The height of the shortest whole tile: less room than this and a header is "too small".
    var tileHeight: Int { get }
    /// A typical distance between the tops of tiles one above the other: what page moves count in.
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
    /// Whether item `index` has a tile meeting the lines `offset..<offset+height`.
    public func isVisible(_ index: Int, offset: Int, height: Int) -> Bool {
        guard isShown(index) else { return false }
        let frame = frame(ofItem: index)
        return frame.maxY > offset && frame.y < offset + height
    }
}

/// The ways items can be laid out.
public enum LayoutMode: String, Hashable, Sendable, CaseIterable {
    /// Rows of equal-height tiles.
    case grid
    /// Columns of tiles at their pictures' own shapes, each tile into the shortest column.
    case masonry
}

extension GridLayout: TileLayout {
    public func column(ofItem index: Int) -> Int { position(ofItem: index).column }
}
