import LightboxThumbnails

/// The state's part for ratings, rejects and labels: what is decided of each item, what was
/// read from its sidecar, and the changes `u` undoes, many deep.
public struct Decisions: Hashable, Sendable {
    /// Every item's decision that is not empty, by id.
    public private(set) var byID: [ItemID: Decision] = [:]
    /// How many items have each rating, by rating + 1 (rejected first), kept as they change.
    private var ratingCounts = [Int](repeating: 0, count: 7)
    /// Each change the user made, newest last: the items and what they had before it.
    private var undoStack: [[ItemChange]] = []

    /// How many changes `u` can take back.
    public static let undoDepth = 1000

    /// One item's decision, before or after a change.
    public struct ItemChange: Hashable, Sendable {
        public var id: ItemID
        public var decision: Decision

        public init(id: ItemID, decision: Decision) {
            self.id = id
            self.decision = decision
        }
    }

    public init() {}

    public subscript(id: ItemID) -> Decision { byID[id] ?? .none }

    /// Applies `change` to each of `ids`; returns the items whose decision changed, with their
    /// new decision (to be written), and keeps what they had for `undo`.
    /// - Complexity: O(*k*) for *k* items.
    mutating func change(_ ids: [ItemID], _ change: (inout Decision) -> Void) -> [ItemChange] {
        var before: [ItemChange] = [], after: [ItemChange] = []
        for id in ids {
            var decision = self[id]
            change(&decision)
            guard decision != self[id] else { continue }
            before.append(ItemChange(id: id, decision: self[id]))
            after.append(ItemChange(id: id, decision: decision))
            set(id, decision)
        }
        if !before.isEmpty {
            undoStack.append(before)
            if undoStack.count > Self.undoDepth { undoStack.removeFirst() }
        }
        return after
    }

    /// Takes back the last change: the items it touched, with the decision they have again.
    mutating func undo() -> [ItemChange]? {
        guard let last = undoStack.popLast() else { return nil }
        for item in last { set(item.id, item.decision) }
        return last
    }

    /// What an item's sidecar says, read in the background: it is no change of the user's.
    mutating func read(_ id: ItemID, _ decision: Decision) { set(id, decision) }

    private mutating func set(_ id: ItemID, _ decision: Decision) {
        let old = byID.updateValue(decision, forKey: id) ?? .none
        if decision.isEmpty { byID[id] = nil }
        ratingCounts[old.rating + 1] -= 1
        ratingCounts[decision.rating + 1] += 1
    }

    /// How many items are rated `stars` (1 to 5) or more, and how many are rejected.
    public func counts(starsAtLeast stars: Int) -> (rated: Int, rejected: Int) {
        (ratingCounts[(max(1, min(5, stars)) + 1)...].reduce(0, +), ratingCounts[0])
    }
}
