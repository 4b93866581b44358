/// A band of screen rows moved up (positive `lines`) or down by whole lines, as a terminal's
/// scroll region moves them: rows leaving the band are gone, the rows coming in are blank.
public struct LineScroll: Hashable, Sendable {
    /// The band (the scroll region), in screen rows.
    public var rows: Range<Int>
    /// Lines the content moved: up when positive, down when negative.
    public var lines: Int

    public init(rows: Range<Int>, lines: Int) {
        self.rows = rows
        self.lines = lines
    }

    /// Where content at screen row `row` is after the scroll; nil when it left the band.
    public func destination(of row: Int) -> Int? {
        guard rows.contains(row) else { return row }
        let moved = row - lines
        return rows.contains(moved) ? moved : nil
    }
}

extension Frame {
    /// How this frame is `previous` with a band of rows moved by whole lines, as far as its
    /// pictures say: the move most of the pictures of both made (the same picture in the same
    /// columns, higher or lower), over the band from the first to the last row that moved with
    /// them, plus the rows the move brings in, and above (below, moving down) the rows that change
    /// anyway. Rows inside the band that do not match are
    /// written as any changed row is. Nil when no picture moved, or the band is under
    /// `minimumRows` rows.
    /// - Complexity: O(*w* × *h* + *i*) in the cells and the pictures.
    public func scroll(from previous: Frame, minimumRows: Int = 3) -> LineScroll? {
        guard previous.width == width, previous.height == height, height > 1 else { return nil }
        var before: [UInt32: FrameImage] = [:]
        for image in previous.images { before[image.id] = image }
        var votes: [Int: Int] = [:]
        for image in images {
            guard let old = before[image.id], old.x == image.x, old.columns == image.columns, old.y != image.y else { continue }
            votes[old.y - image.y, default: 0] += 1
        }
        // The most pictures; of equal counts, the smaller move.
        guard let lines = votes.max(by: { ($0.value, -abs($0.key)) < ($1.value, -abs($1.key)) })?.key, abs(lines) < height else { return nil }
        let new = rowHashes(), old = previous.rowHashes()
        let matched = (max(0, -lines)..<min(height, height - lines)).filter { new[$0] == old[$0 + lines] }
        guard let first = matched.first, let last = matched.last else { return nil }
        var band = lines > 0 ? first..<(last + 1 + lines) : (first + lines)..<(last + 1)
        // On the side content leaves by, rows that change anyway (the cursor's, say) go too, so
        // the pictures there move with the rest rather than be cut by the band's edge.
        if lines > 0 {
            while band.lowerBound > 0 && new[band.lowerBound - 1] != old[band.lowerBound - 1] { band = (band.lowerBound - 1)..<band.upperBound }
        } else {
            while band.upperBound < height && new[band.upperBound] != old[band.upperBound] { band = band.lowerBound..<(band.upperBound + 1) }
        }
        return band.count >= minimumRows ? LineScroll(rows: band, lines: lines) : nil
    }

    /// A hash of each row's cells.
    /// - Complexity: O(*w* × *h*).
    func rowHashes() -> [Int] {
        (0..<height).map { y in
            var hasher = Hasher()
            for x in 0..<width { hasher.combine(self[x, y]) }
            return hasher.finalize()
        }
    }
}
