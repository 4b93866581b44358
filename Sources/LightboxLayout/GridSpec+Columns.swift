/// A resolved column: where it starts and how wide it is, in cells.
public struct Column: Hashable, Sendable {
    public var x: Int
    public var width: Int
    public var alignment: GridItem.Alignment = .center
}

extension GridSpec {
    /// Resolves the column items for a grid `width` cells wide.
    ///
    /// Fixed columns take their width; the rest share what is left equally, adaptive items
    /// splitting their share into as many columns as fit. Columns that would start past the
    /// right edge are dropped (at least one remains) and the grid is centred.
    /// - Complexity: O(*c*), the number of resulting columns.
    public func resolvedColumns(forWidth width: Int) -> [Column] {
        let width = max(1, width)
        let gaps = columns.dropLast().map { $0.spacing ?? columnSpacing }.reduce(0, +)
        let fixedWidth = columns.reduce(0) { sum, item in
            if case .fixed(let w) = item.size { return sum + max(1, w) }
            return sum
        }
        let sharers = columns.filter { if case .fixed = $0.size { return false } else { return true } }.count
        let free = max(0, width - gaps - fixedWidth)
        var widths: [Int] = []
        var spacings: [Int] = []
        var alignments: [GridItem.Alignment] = []
        var shareIndex = 0
        for item in columns {
            let after = item.spacing ?? columnSpacing
            switch item.size {
            case .fixed(let w):
                widths.append(max(1, w)); spacings.append(after); alignments.append(item.alignment)
            case .flexible(let minimum, let maximum):
                let share = Self.share(of: free, among: sharers, index: shareIndex)
                shareIndex += 1
                widths.append(Self.clamp(share, minimum, maximum)); spacings.append(after); alignments.append(item.alignment)
            case .adaptive(let minimum, let maximum):
                let share = Self.share(of: free, among: sharers, index: shareIndex)
                shareIndex += 1
                let minimum = max(1, minimum)
                let count = max(1, (share + after) / (minimum + after))
                let inner = max(0, share - (count - 1) * after)
                for k in 0..<count {
                    widths.append(Self.clamp(Self.share(of: inner, among: count, index: k), minimum, maximum))
                    spacings.append(after)
                    alignments.append(item.alignment)
                }
            }
        }
        // Drop columns that cannot start inside the width; keep at least one.
        var result: [Column] = []
        var x = 0
        for (k, (w, gap)) in zip(widths, spacings).enumerated() {
            if !result.isEmpty && x + w > width { break }
            result.append(Column(x: x, width: min(w, width - x), alignment: alignments[k]))
            x += w + gap
        }
        let used = result.last.map { $0.x + $0.width } ?? 0
        let inset = max(0, (width - used) / 2)
        return result.map { Column(x: $0.x + inset, width: $0.width, alignment: $0.alignment) }
    }

    /// The `index`th of `count` near-equal integer shares of `total` (earlier shares get the remainder).
    static func share(of total: Int, among count: Int, index: Int) -> Int {
        guard count > 0 else { return total }
        return total / count + (index < total % count ? 1 : 0)
    }

    /// `value` within `minimum...maximum`, and never below one cell.
    static func clamp(_ value: Int, _ minimum: Int, _ maximum: Int) -> Int {
        max(1, min(max(value, minimum), max(minimum, maximum)))
    }
}
