import LightboxThumbnails

/// The state's part for ratings, rejects and labels: what is decided of each item, what was
/// read from its sidecar, and the changes `u` undoes, many deep.
public struct Decisions: Hashable, Sendable {
    /// Every item's decision that is not empty, by id.
    public private(set) var byID: [ItemID: Decision] = [:]
    /// How many items have each rating, by rating + 1 (rejected first), kept as they change.
    private var ratingCounts = [Int](repeating: 0, count: 7)
    /// Items whose decision is kept in Lightbox's state folder, not beside the photo (a
    /// read-only folder, `sidecar = off`, a sidecar Lightbox cannot write into).
    public private(set) var keptAside: Set<ItemID> = []
    /// Why decisions were kept aside, as said once each.
    private var saidReasons: Set<String> = []

    /// Where an item's decision is stored: beside the photo, or kept aside (and why, when a
    /// write just put it there).
    public struct Storage: Hashable, Sendable {
        public var id: ItemID
        public var isKept: Bool
        public var reason: String?

        public init(id: ItemID, isKept: Bool, reason: String? = nil) {
            self.id = id
            self.isKept = isKept
            self.reason = reason
        }
    }
    /// Each change the user made, newest last: the items and what they had before it.
    private var undoStack: [[ItemChange]] = []
    /// Items the user decided in this session: what their sidecars said when read is older.
    private var decidedHere: Set<ItemID> = []

    /// How many changes `u` can take back.
    public static let undoDepth = 1000

    /// One item's decision, before or after a change.
    public struct ItemChange: Hashable, Sendable {
        public var id: ItemID
        public var decision: Decision
        /// What of it the change touched (a read: all of it).
        public var fields: DecisionFields

        public init(id: ItemID, decision: Decision, fields: DecisionFields = .all) {
            self.id = id
            self.decision = decision
            self.fields = fields
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
            let fields = decision.fields(differingFrom: self[id])
            decidedHere.insert(id)
            before.append(ItemChange(id: id, decision: self[id], fields: fields))
            after.append(ItemChange(id: id, decision: decision, fields: fields))
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

    /// What an item's sidecar says, read in the background: it is no change of the user's, and
    /// one the user decided since (a read that was in hand) keeps what the user decided.
    mutating func read(_ id: ItemID, _ decision: Decision) {
        guard !decidedHere.contains(id) else { return }
        set(id, decision)
    }

    /// Records where decisions went; the reasons for keeping them aside not said before.
    mutating func stored(_ storages: [Storage]) -> [String] {
        var reasons: [String] = []
        for storage in storages {
            if storage.isKept { keptAside.insert(storage.id) } else { keptAside.remove(storage.id) }
            if let reason = storage.reason, saidReasons.insert(reason).inserted { reasons.append(reason) }
        }
        return reasons
    }

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
