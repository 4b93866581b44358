import LightboxThumbnails

/// The state's part for what is picked: the marks (by position, and by id those the filter
/// hides), a pending range, the `--mark-from` paths not found yet, and the rules (`--no-multi`,
/// `--multi=MAX`). Its own reducer keeps a change within the rules and counts real changes, so
/// the marks file is written only when the marks changed.
public struct Selection: Sendable {
    /// Marked positions.
    public internal(set) var marks: MarkSet
    /// Marked items the filter hides, by id.
    public internal(set) var hidden: Set<ItemID> = []
    /// Where a pending range mark started, by position.
    public internal(set) var anchor: Int?
    /// Paths to mark when the scan finds them (`--mark-from`).
    public internal(set) var pending: PathSet
    /// Counts changes to the marks.
    public internal(set) var version = 0
    /// Whether marking is allowed at all (`--no-multi` turns it off).
    public let allowsMarks: Bool
    /// The most items that may be marked (`--multi=MAX`), or nil for any number.
    public let limit: Int?

    init(capacity: Int, allowsMarks: Bool, limit: Int?, pending: PathSet) {
        marks = MarkSet(capacity: capacity)
        self.allowsMarks = allowsMarks
        self.limit = limit
        self.pending = pending
    }

    /// How many items are marked, shown or hidden by the filter.
    public var count: Int { marks.count + hidden.count }

    /// Whether another mark would pass the limit.
    var isFull: Bool { limit.map { count >= $0 } ?? false }

    /// What an action that marks says when marking is off.
    static let markingIsOff = "marking is off (--no-multi): Enter picks the photo under the cursor"

    /// Keeps the marks made since they were `before` within the limit (else they go back, and
    /// this says why) and counts a change that changed something.
    mutating func settle(since before: MarkSet) -> String? {
        if let limit, count > limit {
            marks = before
            return "at most \(limit) may be marked (--multi=\(limit))"
        }
        if marks != before { version += 1 }
        return nil
    }

    /// Marks the item `id` (at `position`, or hidden by the filter when -1), found by the scan as
    /// one `--mark-from` listed; counted as a change.
    mutating func markFound(_ id: ItemID, at position: Int) {
        if position >= 0 { marks.set(position, marked: true) } else { hidden.insert(id) }
        version += 1
    }

    /// The marks after the library's order changed: every mark, and the range's start, on its item.
    /// - Complexity: O(*m*) in the marks.
    mutating func follow(_ ids: (marked: [ItemID], anchor: ItemID?), in library: Library) {
        marks = MarkSet(capacity: library.count)
        hidden = []
        // A mark on a photo the scan found gone goes with it (hidden by a filter, it stays).
        for id in ids.marked where !library.isGone(id) {
            let position = library.position(of: id)
            if position >= 0 { marks.set(position, marked: true) } else { hidden.insert(id) }
        }
        anchor = ids.anchor.map { library.position(of: $0) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}
