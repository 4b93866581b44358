/// The geometry of a sectioned grid at one width: pure numbers, no files, pixels or terminals.
///
/// Content is a vertical strip: each section is a header row followed by rows of tiles and an
/// optional footer line, and sections are separated by `sectionSpacing` blank lines. A collapsed
/// section is its header alone (its items keep their numbers but have no tiles). Items are
/// numbered globally in reading order. Building is O(*s*) in the number of sections; queries
/// are O(log *s*).
public struct GridLayout: Sendable {
    public let width: Int
    public let columns: [Column]
    public let metrics: TileMetrics
    public let rowSpacing: Int
    /// Height of the picture box of every tile, in cells.
    public let boxHeight: Int
    /// Height of a whole tile: box plus label.
    public let tileHeight: Int
    public let sections: SectionIndex
    /// `sectionTops[s]` is the content offset of section `s`'s header; one extra entry holds the end.
    let sectionTops: [Int]

    public init(sectionCounts: [Int], spec: GridSpec, width: Int, metrics: TileMetrics = TileMetrics(), collapsed: Set<Int> = []) {
        self.width = max(1, width)
        self.metrics = metrics
        sections = SectionIndex(counts: sectionCounts, collapsed: collapsed)
        self.rowSpacing = spec.rowSpacing
        columns = spec.resolvedColumns(forWidth: self.width)
        let widest = columns.map(\.width).max() ?? 1
        boxHeight = max(1, (widest * metrics.boxAspectPercent + 100) / 200)
        tileHeight = boxHeight + metrics.labelHeight

        var tops = [0]
        tops.reserveCapacity(sectionCounts.count + 1)
        let columnCount = columns.count
        for (s, count) in sections.counts.enumerated() {
            let rows = sections.collapsed[s] ? 0 : (count + columnCount - 1) / columnCount
            let footer = sections.collapsed[s] ? 0 : metrics.footerHeight
            let height = metrics.headerHeight + rows * tileHeight + max(0, rows - 1) * spec.rowSpacing + footer
            tops.append(tops.last! + height + metrics.sectionSpacing)
        }
        sectionTops = tops
    }

    /// Number of tiles in a full row.
    public var columnCount: Int { columns.count }
    /// Distance from one row's top to the next one's.
    public var rowPitch: Int { tileHeight + rowSpacing }
    /// Total height of the content, in lines.
    public var contentHeight: Int {
        sectionCounts.isEmpty ? 0 : sectionTops.last! - metrics.sectionSpacing
    }

    /// Global index range of the items of section `s`.
    /// Content offset of section `s`'s header.
    public func headerTop(ofSection s: Int) -> Int { sectionTops[s] }
    /// Content offset of section `s`'s first row of tiles.
    func rowsTop(ofSection s: Int) -> Int { sectionTops[s] + metrics.headerHeight }
    /// Number of rows of section `s`: none when collapsed.
    func rowCount(ofSection s: Int) -> Int { collapsed[s] ? 0 : (sectionCounts[s] + columnCount - 1) / columnCount }
    /// Content offset of section `s`'s footer line (meaningful when footers are on and it is expanded).
    public func footerTop(ofSection s: Int) -> Int { sectionTops[s + 1] - metrics.sectionSpacing - metrics.footerHeight }
}
