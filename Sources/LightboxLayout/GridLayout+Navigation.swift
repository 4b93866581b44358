/// A cursor movement on the grid's geometry.
public enum Movement: Hashable, Sendable {
    case left, right, up, down
    /// Down or up by `rows` rows (pages and half pages).
    case rowsDown(Int), rowsUp(Int)
    case first, last
    case nextSection, previousSection
}

extension GridLayout {
    /// Where the cursor goes from item `index` under `movement`; it stays put at the edges.
    /// Vertical moves aim for `column` when given (the column the user last chose), so passing
    /// through a short row does not lose it.
    /// - Complexity: O(log *s*), or O(*k* log *s*) for *k* rows.
    public func destination(from index: Int, _ movement: Movement, column: Int? = nil) -> Int {
        guard itemCount > 0 else { return 0 }
        let index = min(max(0, index), itemCount - 1)
        if let common = commonDestination(from: index, movement) { return common }
        switch movement {
        case .left:
            guard index > 0 else { return 0 }
            // Into a collapsed section: onto its header (its first item).
            let s = section(ofItem: index - 1)
            return collapsed[s] ? sections.starts[s] : index - 1
        case .right:
            let s = section(ofItem: index)
            if collapsed[s] { return nonEmptySection(after: s).map { sections.starts[$0] } ?? index }
            return min(itemCount - 1, index + 1)
        case .down: return rowBelow(index, column: column) ?? index
        case .up: return rowAbove(index, column: column) ?? index
        case .rowsDown(let n):
            var i = index
            for _ in 0..<max(1, n) {
                guard let next = rowBelow(i, column: column) else { return i == index ? itemCount - 1 : i }
                i = next
            }
            return i
        case .rowsUp(let n):
            var i = index
            for _ in 0..<max(1, n) {
                guard let next = rowAbove(i, column: column) else { return i == index ? 0 : i }
                i = next
            }
            return i
        case .first, .last, .nextSection, .previousSection: return index  // answered above
        }
    }

    /// The item in the same column one row down, crossing into the next section; nil at the end.
    func rowBelow(_ index: Int, column: Int? = nil) -> Int? {
        var p = position(ofItem: index)
        p.column = column ?? p.column
        if p.row + 1 < rowCount(ofSection: p.section) {
            return item(at: Position(section: p.section, row: p.row + 1, column: p.column))
        }
        guard let next = nonEmptySection(after: p.section) else { return nil }
        return item(at: Position(section: next, row: 0, column: p.column))
    }

    /// The item in the same column one row up, crossing into the previous section; nil at the start.
    func rowAbove(_ index: Int, column: Int? = nil) -> Int? {
        var p = position(ofItem: index)
        p.column = column ?? p.column
        if p.row > 0 {
            return item(at: Position(section: p.section, row: p.row - 1, column: p.column))
        }
        guard let previous = nonEmptySection(before: p.section) else { return nil }
        return item(at: Position(section: previous, row: max(0, rowCount(ofSection: previous) - 1), column: p.column))
    }
}
