extension GridLayout {
    /// Where an item sits: its section, row within the section and column.
    struct Position: Hashable, Sendable {
        var section: Int
        var row: Int
        var column: Int
    }

    /// Section, row and column of item `index`.
    /// - Complexity: O(log *s*).
    func position(ofItem index: Int) -> Position {
        let s = section(ofItem: index)
        if collapsed[s] { return Position(section: s, row: 0, column: 0) }
        let k = index - sections.starts[s]
        return Position(section: s, row: k / columnCount, column: k % columnCount)
    }

    /// The item at a position, with the column clamped to the row's last item; a collapsed
    /// section's first item for any position in it.
    func item(at position: Position) -> Int {
        let range = items(inSection: position.section)
        if collapsed[position.section] { return range.lowerBound }
        let first = range.lowerBound + position.row * columnCount
        return min(first + min(max(0, position.column), columnCount - 1), range.upperBound - 1)
    }

    /// The whole tile of item `index` (box and label), in content coordinates; for an item of a
    /// collapsed section, its section's header line.
    /// - Complexity: O(log *s*).
    public func frame(ofItem index: Int) -> Rect {
        let p = position(ofItem: index)
        if collapsed[p.section] { return Rect(x: 0, y: headerTop(ofSection: p.section), width: width, height: metrics.headerHeight) }
        let column = columns[p.column]
        return Rect(
            x: column.x, y: rowsTop(ofSection: p.section) + p.row * rowPitch,
            width: column.width, height: tileHeight)
    }

    /// The picture box of item `index`: the tile without its label.
    public func boxFrame(ofItem index: Int) -> Rect {
        var rect = frame(ofItem: index)
        rect.height = boxHeight
        return rect
    }

    /// The section whose extent holds content offset `y` (the last header at or above it).
    /// - Complexity: O(log *s*).
    public func section(atOffset y: Int) -> Int? {
        guard sectionCount > 0 else { return nil }
        return max(0, min(sectionCount - 1, upperBound(sectionTops.dropLast(), y) - 1))
    }

    /// Items whose tiles intersect the lines `offset..<offset+height`, a contiguous range (which
    /// may hold items of collapsed sections between: see `isShown(_:)`).
    /// - Complexity: O(log *s*).
    public func visibleItems(offset: Int, height: Int) -> Range<Int> {
        guard height > 0, let top = section(atOffset: offset), let bottom = section(atOffset: offset + height - 1) else {
            return 0..<0
        }
        // First item whose tile ends below `offset`.
        let first: Int
        let rowsTop0 = rowsTop(ofSection: top)
        if collapsed[top] {
            first = sections.starts[top + 1]
        } else if offset < rowsTop0 {
            first = sections.starts[top]
        } else {
            var r = (offset - rowsTop0) / rowPitch
            if rowsTop0 + r * rowPitch + tileHeight <= offset { r += 1 }
            first = r < rowCount(ofSection: top) ? sections.starts[top] + r * columnCount : sections.starts[top + 1]
        }
        // Last item whose tile starts above `offset + height`.
        let last: Int
        let end = offset + height
        let rowsTop1 = rowsTop(ofSection: bottom)
        if end <= rowsTop1 || collapsed[bottom] {
            last = sections.starts[bottom] - 1
        } else {
            let r = min((end - 1 - rowsTop1) / rowPitch, rowCount(ofSection: bottom) - 1)
            last = r < 0 ? sections.starts[bottom] - 1 : min(sections.starts[bottom] + (r + 1) * columnCount, sections.starts[bottom + 1]) - 1
        }
        return first <= last ? first..<(last + 1) : first..<first
    }

    /// The item whose tile holds the cell at column `x`, content line `y`, if any.
    /// - Complexity: O(log *s* + *c*).
    public func item(atX x: Int, y: Int) -> Int? {
        guard let s = section(atOffset: y) else { return nil }
        let top = rowsTop(ofSection: s)
        guard y >= top else { return nil }
        let r = (y - top) / rowPitch
        guard r < rowCount(ofSection: s), y < top + r * rowPitch + tileHeight,
            let c = columns.firstIndex(where: { x >= $0.x && x < $0.x + $0.width })
        else { return nil }
        let index = sections.starts[s] + r * columnCount + c
        return index < sections.starts[s + 1] ? index : nil
    }
}

/// Index of the first element of the sorted `values` greater than `key`.
func upperBound<C: RandomAccessCollection>(_ values: C, _ key: Int) -> Int where C.Element == Int, C.Index == Int {
    var low = values.startIndex
    var high = values.endIndex
    while low < high {
        let mid = low + (high - low) / 2
        if values[mid] <= key { low = mid + 1 } else { high = mid }
    }
    return low
}
