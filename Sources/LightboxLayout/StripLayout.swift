/// The horizontal grid, a filmstrip: `rowCount` rows of equal tiles that scroll sideways, as
/// SwiftUI's `LazyHGrid`. Items fill a column of tiles top to bottom, then the next column. Each
/// section starts with a header card at its leading edge, pinned to the viewport's left while its
/// section scrolls, as `LazyHStack` pins headers. Footers are not shown in this layout.
///
/// Offsets along the axis are cells. Building is O(*s*); queries are O(log *s*).
public struct StripLayout: TileLayout {
    public let width: Int
    /// One column: the tile width, from the spec's widest resolved column.
    public let columns: [Column]
    public let metrics: TileMetrics
    public let sections: SectionIndex
    let rowCount: Int
    let tileWidth: Int
    public let boxHeight: Int
    public let tileHeight: Int
    public let rowSpacing: Int
    public let columnSpacing: Int
    /// Width of a section's header card.
    let headerWidth: Int
    /// `sectionStarts[s]` is the content x of section `s`'s header card; one extra entry holds the end.
    let sectionStarts: [Int]

    public var axis: ScrollAxis { .horizontal }

    /// A strip for a viewport `width` cells wide and `height` lines tall.
    public init(
        sectionCounts: [Int], spec: GridSpec, width: Int, height: Int,
        metrics: TileMetrics = TileMetrics(), collapsed: Set<Int> = []
    ) {
        self.width = max(1, width)
        self.metrics = metrics
        sections = SectionIndex(counts: sectionCounts, collapsed: collapsed)
        tileWidth = max(1, min(self.width, spec.resolvedColumns(forWidth: self.width).map(\.width).max() ?? 1))
        columns = [Column(x: 0, width: tileWidth, alignment: spec.columns.first?.alignment ?? .center)]
        boxHeight = max(1, (tileWidth * metrics.boxAspectPercent + 100) / 200)
        tileHeight = boxHeight + metrics.labelHeight
        rowSpacing = spec.rowSpacing
        columnSpacing = max(1, spec.columnSpacing)
        rowCount = max(1, (max(1, height) + spec.rowSpacing) / (tileHeight + spec.rowSpacing))
        headerWidth = min(16, max(4, self.width / 4))
        var lefts = [0]
        for (s, count) in sections.counts.enumerated() {
            let columnsUsed = sections.collapsed[s] ? 0 : (count + rowCount - 1) / rowCount
            let tiles = columnsUsed == 0 ? 0 : columnSpacing + columnsUsed * (tileWidth + columnSpacing) - columnSpacing
            lefts.append(lefts.last! + headerWidth + tiles + 2 * metrics.sectionSpacing + 1)
        }
        sectionStarts = lefts
    }

    public var contentHeight: Int { sectionCounts.isEmpty ? 0 : sectionStarts.last! - 2 * metrics.sectionSpacing - 1 }
    public var rowPitch: Int { tileWidth + columnSpacing }
    public var pinnedHeaderLength: Int { headerWidth + columnSpacing }
    var sectionGap: Int { 2 * metrics.sectionSpacing + 1 }

    public func section(atOffset x: Int) -> Int? {
        guard sectionCount > 0 else { return nil }
        return max(0, min(sectionCount - 1, upperBound(sectionStarts.dropLast(), x) - 1))
    }
    public func headerTop(ofSection s: Int) -> Int { sectionStarts[s] }
    public func footerTop(ofSection s: Int) -> Int { sectionStarts[s + 1] - sectionGap }
    public func headerFrame(ofSection s: Int) -> Rect {
        Rect(x: sectionStarts[s], y: 0, width: headerWidth, height: rowCount * (tileHeight + rowSpacing) - rowSpacing)
    }
    public func column(ofItem index: Int) -> Int { 0 }

    /// Content x of section `s`'s first column of tiles.
    func tilesLeft(ofSection s: Int) -> Int { sectionStarts[s] + headerWidth + columnSpacing }
    /// Number of tile columns of section `s`.
    func columnCount(ofSection s: Int) -> Int { collapsed[s] ? 0 : (sectionCounts[s] + rowCount - 1) / rowCount }

    public func frame(ofItem index: Int) -> Rect {
        let s = section(ofItem: index)
        if collapsed[s] { return headerFrame(ofSection: s) }
        let k = index - sections.starts[s]
        return Rect(
            x: tilesLeft(ofSection: s) + (k / rowCount) * (tileWidth + columnSpacing),
            y: (k % rowCount) * (tileHeight + rowSpacing), width: tileWidth, height: tileHeight)
    }

    public func boxFrame(ofItem index: Int) -> Rect {
        var rect = frame(ofItem: index)
        if isShown(index) { rect.height = boxHeight }
        return rect
    }

    /// The first item of the tile column reaching past content x `x` in section `s`, or the section's end.
    func firstItem(endingAfter x: Int, in s: Int) -> Int {
        guard !collapsed[s] else { return sections.starts[s + 1] }
        let left = tilesLeft(ofSection: s)
        guard x >= left else { return sections.starts[s] }
        var c = (x - left) / (tileWidth + columnSpacing)
        if left + c * (tileWidth + columnSpacing) + tileWidth <= x { c += 1 }
        return min(sections.starts[s] + c * rowCount, sections.starts[s + 1])
    }

    public func visibleItems(offset: Int, height length: Int) -> Range<Int> {
        guard length > 0, let first = section(atOffset: offset), let last = section(atOffset: offset + length - 1) else { return 0..<0 }
        let start = firstItem(endingAfter: offset, in: first)
        let end = firstItem(endingAfter: offset + length - 1, in: last)
        // `end` is the first item of the column holding the last cell; take that whole column.
        let upper = collapsed[last] ? sections.starts[last] : min(sections.starts[last + 1], columnStart(of: end, in: last) + rowCount)
        return start < upper ? start..<upper : start..<start
    }

    /// The first item of the tile column holding `item` (or where it would be) in section `s`.
    func columnStart(of item: Int, in s: Int) -> Int {
        let k = item - sections.starts[s]
        return sections.starts[s] + (k / rowCount) * rowCount
    }

    public func item(atX x: Int, y: Int) -> Int? {
        guard let s = section(atOffset: x), !collapsed[s] else { return nil }
        let left = tilesLeft(ofSection: s)
        guard x >= left, y >= 0 else { return nil }
        let c = (x - left) / (tileWidth + columnSpacing), r = y / (tileHeight + rowSpacing)
        guard x - left - c * (tileWidth + columnSpacing) < tileWidth, y - r * (tileHeight + rowSpacing) < tileHeight, r < rowCount else { return nil }
        let index = sections.starts[s] + c * rowCount + r
        return index < sections.starts[s + 1] ? index : nil
    }

    public func pinnedFooter(atOffset offset: Int, height: Int) -> (section: Int, y: Int)? { nil }

    /// Left and right move a column (into the next or previous section, same row as near as it
    /// goes); up and down move a row within the column.
    public func destination(from index: Int, _ movement: Movement, column: Int?) -> Int {
        guard itemCount > 0 else { return 0 }
        let index = min(max(0, index), itemCount - 1)
        let s = section(ofItem: index)
        let k = index - sections.starts[s]
        if let common = commonDestination(from: index, movement) { return common }
        switch movement {
        case .first, .last, .nextSection, .previousSection: return index  // answered above
        case .up: return collapsed[s] || k % rowCount == 0 ? index : index - 1
        case .down: return collapsed[s] || k % rowCount == rowCount - 1 || index + 1 >= sections.starts[s + 1] ? index : index + 1
        case .right, .rowsDown:
            let n = { if case .rowsDown(let n) = movement { return max(1, n) } else { return 1 } }()
            return (0..<n).reduce(index) { i, _ in step(from: i, by: 1) }
        case .left, .rowsUp:
            let n = { if case .rowsUp(let n) = movement { return max(1, n) } else { return 1 } }()
            return (0..<n).reduce(index) { i, _ in step(from: i, by: -1) }
        }
    }

    /// One tile column sideways, keeping the row, across section edges.
    func step(from index: Int, by direction: Int) -> Int {
        let s = section(ofItem: index)
        let row = collapsed[s] ? 0 : (index - sections.starts[s]) % rowCount
        let target = index + direction * rowCount
        if !collapsed[s], target >= sections.starts[s], target < sections.starts[s + 1] { return target }
        if direction > 0, !collapsed[s], target < sections.starts[s] + columnCount(ofSection: s) * rowCount, target >= sections.starts[s + 1] {
            // A short last column: its last tile.
            if columnStart(of: index, in: s) + rowCount < sections.starts[s + 1] { return sections.starts[s + 1] - 1 }
        }
        var t = s + direction
        while t >= 0, t < sectionCount, sectionCounts[t] == 0 { t += direction }
        guard t >= 0, t < sectionCount else { return index }
        if collapsed[t] { return sections.starts[t] }
        let columnFirst = direction > 0 ? sections.starts[t] : sections.starts[t] + (columnCount(ofSection: t) - 1) * rowCount
        return min(columnFirst + row, sections.starts[t + 1] - 1)
    }
}
