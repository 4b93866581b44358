/// The waterfall layout: each section's columns stack tiles at their own aspect ratio, each new
/// tile going into the currently shortest column, so columns stay balanced. Columns resolve from
/// the same `GridSpec` as the grid.
///
/// Building is O(*n* × *c*); frames are O(1); visible ranges, hit tests and vertical moves are
/// O(*c* log *n*) through per-column arrays of tiles in top-to-bottom order.
public struct MasonryLayout: TileLayout {
    public let width: Int
    public let columns: [Column]
    public let metrics: TileMetrics
    public let sections: SectionIndex
    public let tileHeight: Int
    public let rowPitch: Int
    let sectionTops: [Int]
    /// By item: its tile's top, its box height, its column, and its place in that column's list.
    let tops: [Int32]
    let boxHeights: [Int32]
    let itemColumns: [Int16]
    let slots: [Int32]
    /// By column: its items from top to bottom, across sections.
    let columnItems: [[Int32]]

    /// The default picture shape, height over width in thousandths, for items whose size is not known yet.
    static let defaultAspect = 750

    /// `aspects[i]` is item `i`'s picture height over width in thousandths (0 when unknown).
    public init(
        sectionCounts: [Int], aspects: [Int], spec: GridSpec, width: Int,
        metrics: TileMetrics = TileMetrics(), collapsed: Set<Int> = []
    ) {
        self.width = max(1, width)
        self.metrics = metrics
        sections = SectionIndex(counts: sectionCounts, collapsed: collapsed)
        columns = spec.resolvedColumns(forWidth: self.width)
        let columnCount = columns.count
        let total = sections.itemCount
        var tops = [Int32](repeating: 0, count: total)
        var boxHeights = [Int32](repeating: 0, count: total)
        var itemColumns = [Int16](repeating: 0, count: total)
        var slots = [Int32](repeating: -1, count: total)
        var columnItems = [[Int32]](repeating: [], count: columnCount)
        var sectionTops = [0]
        var smallest = Int.max
        var item = 0
        for (s, count) in sections.counts.enumerated() {
            let rowsTop = sectionTops.last! + metrics.headerHeight
            guard !sections.collapsed[s] else {
                for i in item..<(item + count) { tops[i] = Int32(sectionTops.last!); boxHeights[i] = Int32(metrics.headerHeight) }
                item += count
                sectionTops.append(rowsTop + metrics.sectionSpacing)
                continue
            }
            var heights = [Int](repeating: 0, count: columnCount)
            for i in item..<(item + count) {
                // The shortest column; the leftmost of equals.
                var c = 0
                for k in 1..<columnCount where heights[k] < heights[c] { c = k }
                let aspect = i < aspects.count && aspects[i] > 0 ? aspects[i] : Self.defaultAspect
                let box = Self.boxHeight(columnWidth: columns[c].width, aspect: aspect)
                smallest = min(smallest, box + metrics.labelHeight)
                tops[i] = Int32(rowsTop + heights[c])
                boxHeights[i] = Int32(box)
                itemColumns[i] = Int16(c)
                slots[i] = Int32(columnItems[c].count)
                columnItems[c].append(Int32(i))
                heights[c] += box + metrics.labelHeight + spec.rowSpacing
            }
            item += count
            let tallest = (heights.max() ?? 0) - (count > 0 ? spec.rowSpacing : 0)
            sectionTops.append(rowsTop + max(0, tallest) + metrics.footerHeight + metrics.sectionSpacing)
        }
        let standard = Self.boxHeight(columnWidth: columns.map(\.width).max() ?? 1, aspect: Self.defaultAspect)
        tileHeight = smallest == Int.max ? standard + metrics.labelHeight : smallest
        rowPitch = standard + metrics.labelHeight + spec.rowSpacing
        self.sectionTops = sectionTops
        self.tops = tops
        self.boxHeights = boxHeights
        self.itemColumns = itemColumns
        self.slots = slots
        self.columnItems = columnItems
    }

    /// Cells of a picture box: two pixels a cell vertically, so half the width times the shape;
    /// at least two lines, at most twice the width (very tall pictures are cropped to that).
    static func boxHeight(columnWidth: Int, aspect: Int) -> Int {
        min(max(2, (columnWidth * aspect + 1000) / 2000), max(2, columnWidth * 2))
    }

    public var contentHeight: Int { sectionCounts.isEmpty ? 0 : sectionTops.last! - metrics.sectionSpacing }

    public func section(atOffset y: Int) -> Int? {
        guard sectionCount > 0 else { return nil }
        return max(0, min(sectionCount - 1, upperBound(sectionTops.dropLast(), y) - 1))
    }
    public func headerTop(ofSection s: Int) -> Int { sectionTops[s] }
    public func footerTop(ofSection s: Int) -> Int { sectionTops[s + 1] - metrics.sectionSpacing - metrics.footerHeight }
    public func isShown(_ index: Int) -> Bool { slots[index] >= 0 }
    public func column(ofItem index: Int) -> Int { Int(itemColumns[index]) }

    public func frame(ofItem index: Int) -> Rect {
        guard isShown(index) else { return Rect(x: 0, y: Int(tops[index]), width: width, height: metrics.headerHeight) }
        let column = columns[Int(itemColumns[index])]
        return Rect(x: column.x, y: Int(tops[index]), width: column.width, height: Int(boxHeights[index]) + metrics.labelHeight)
    }

    public func boxFrame(ofItem index: Int) -> Rect {
        var rect = frame(ofItem: index)
        if isShown(index) { rect.height = Int(boxHeights[index]) }
        return rect
    }

    /// The place in column `c`'s list of its first tile ending below `y`.
    func firstSlot(endingBelow y: Int, in c: Int) -> Int {
        let list = columnItems[c]
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            let i = Int(list[mid])
            if Int(tops[i]) + Int(boxHeights[i]) + metrics.labelHeight <= y { low = mid + 1 } else { high = mid }
        }
        return low
    }

    public func visibleItems(offset: Int, height: Int) -> Range<Int> {
        guard height > 0 else { return 0..<0 }
        var first = Int.max, last = -1
        for c in columns.indices {
            let list = columnItems[c]
            var slot = firstSlot(endingBelow: offset, in: c)
            while slot < list.count, Int(tops[Int(list[slot])]) < offset + height {
                first = min(first, Int(list[slot]))
                last = max(last, Int(list[slot]))
                slot += 1
            }
        }
        return first <= last ? first..<(last + 1) : 0..<0
    }

    public func item(atX x: Int, y: Int) -> Int? {
        guard let c = columns.firstIndex(where: { x >= $0.x && x < $0.x + $0.width }) else { return nil }
        let slot = firstSlot(endingBelow: y, in: c)
        guard slot < columnItems[c].count else { return nil }
        let i = Int(columnItems[c][slot])
        return Int(tops[i]) <= y ? i : nil
    }

    /// Up and down move within a column (across sections); left and right go to the neighbouring
    /// column's tile nearest in height. Collapsed sections are reached by their headers.
    public func destination(from index: Int, _ movement: Movement, column: Int?) -> Int {
        guard itemCount > 0 else { return 0 }
        let index = min(max(0, index), itemCount - 1)
        if let common = commonDestination(from: index, movement) { return common }
        switch movement {
        case .first, .last, .nextSection, .previousSection: return index  // answered above
        case .down: return vertical(from: index, by: 1)
        case .up: return vertical(from: index, by: -1)
        case .rowsDown(let n): return (0..<max(1, n)).reduce(index) { i, _ in vertical(from: i, by: 1) }
        case .rowsUp(let n): return (0..<max(1, n)).reduce(index) { i, _ in vertical(from: i, by: -1) }
        case .left: return sideways(from: index, by: -1)
        case .right: return sideways(from: index, by: 1)
        }
    }

    /// The next tile down (or up) the same column; from a collapsed header, the nearest tile past it.
    func vertical(from index: Int, by step: Int) -> Int {
        if isShown(index) {
            let list = columnItems[Int(itemColumns[index])]
            let slot = Int(slots[index]) + step
            return slot >= 0 && slot < list.count ? Int(list[slot]) : index
        }
        let s = section(ofItem: index)
        let next = step > 0 ? destination(from: index, .nextSection) : (s > 0 ? sections.starts[s] - 1 : index)
        return next == index || next < 0 ? index : next
    }

    /// The tile in the neighbouring column whose middle is nearest this tile's middle.
    func sideways(from index: Int, by step: Int) -> Int {
        guard isShown(index) else { return step > 0 ? destination(from: index, .nextSection) : max(0, sections.starts[section(ofItem: index)] - 1) }
        let c = Int(itemColumns[index]) + step
        guard c >= 0, c < columns.count, !columnItems[c].isEmpty else { return index }
        let middle = Int(tops[index]) + Int(boxHeights[index]) / 2
        let list = columnItems[c]
        let slot = min(firstSlot(endingBelow: middle, in: c), list.count - 1)
        var best = Int(list[slot])
        if slot > 0 {
            let before = Int(list[slot - 1])
            if abs(Int(tops[before]) + Int(boxHeights[before]) / 2 - middle) < abs(Int(tops[best]) + Int(boxHeights[best]) / 2 - middle) {
                best = before
            }
        }
        return best
    }
}
