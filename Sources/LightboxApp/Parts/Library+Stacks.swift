import LightboxThumbnails

/// When a photo was taken, as a burst's frames are told apart: wall-clock milliseconds, and
/// whether the camera said the fraction of the second (`SubSecTimeOriginal`).
struct BurstTime: Hashable, Sendable {
    var milliseconds: Int64
    var isPrecise: Bool

    /// At `seconds` and the fraction `subsecond` of the next (when said).
    init(seconds: Int64, subsecond: Double?) {
        milliseconds = seconds * 1000 + Int64(((subsecond ?? 0) * 1000).rounded(.down))
        isPrecise = subsecond != nil
    }

    init(milliseconds: Int64, isPrecise: Bool) {
        self.milliseconds = milliseconds
        self.isPrecise = isPrecise
    }
}

extension Library {
    /// The most apart two frames of one burst are: a second.
    static let burstGap: Int64 = 1000

    /// Whether the items `a` and `b` (ids, next to each other in the order) are frames of one
    /// burst: named as one in one folder (by Android's file names or the camera's burst id), or of one camera a second apart or less (to the
    /// millisecond when both say it, else in whole seconds: the same or the next).
    func isBurst(_ a: Int, _ b: Int) -> Bool {
        if burstNames[a] != 0, burstNames[a] == burstNames[b], folderOfID[a] == folderOfID[b] { return true }
        // Named as two bursts: two, however close in time.
        if burstNames[a] != 0, burstNames[b] != 0 { return false }
        guard let ta = burstTimes[a], let tb = burstTimes[b], details[a].camera != 0, details[a].camera == details[b].camera else { return false }
        if ta.isPrecise && tb.isPrecise { return abs(ta.milliseconds - tb.milliseconds) <= Self.burstGap }
        return abs(ta.milliseconds / 1000 - tb.milliseconds / 1000) <= Self.burstGap / 1000
    }

    /// Whether item `id` may be a frame of a burst with a neighbour, found or shown: a reason to arrange again.
    func mayStack(_ id: Int) -> Bool {
        guard burstTimes[id] != nil || burstNames[id] != 0 else { return false }
        var neighbours = [id - 1, id + 1]
        let position = positions[id]
        for next in [position - 1, position + 1] where position >= 0 && next >= 0 && next < order.count { neighbours.append(order[next]) }
        for other in neighbours where other >= 0 && other < totalCount && other != id {
            if isBurst(other, id) { return true }
        }
        return false
    }

    /// `entries` (in their order, with their sections) with each burst's frames one stack: the
    /// frame shown first (a cover frame, as Android names it, else the first), the others left
    /// out unless the stack is open, when they follow it. Records `stacks` and `stackOf`.
    /// - Complexity: O(*n*).
    mutating func stacked(_ ids: [Int], sections keys: [Int64]) -> (ids: [Int], sections: [Int64]) {
        stacks = [:]
        stackOf = [:]
        var keptIDs: [Int] = [], keptKeys: [Int64] = []
        keptIDs.reserveCapacity(ids.count)
        keptKeys.reserveCapacity(ids.count)
        var i = 0
        while i < ids.count {
            var j = i + 1
            while j < ids.count, keys[j] == keys[i], isBurst(ids[j - 1], ids[j]) { j += 1 }
            guard j - i >= 2 else {
                keptIDs.append(ids[i])
                keptKeys.append(keys[i])
                i = j
                continue
            }
            let group = Array(ids[i..<j])
            let shown = group.first { Self.isCover(filesByID[$0].path.lastComponent) } ?? group[0]
            let frames = [shown] + group.filter { $0 != shown }
            stacks[ItemID(shown)] = frames.map(ItemID.init)
            for frame in frames { stackOf[ItemID(frame)] = ItemID(shown) }
            let kept = openStacks.contains(ItemID(group.min()!)) ? frames : [shown]
            keptIDs += kept
            keptKeys += repeatElement(keys[i], count: kept.count)
            i = j
        }
        return (keptIDs, keptKeys)
    }

    /// The stack's lasting name: its frame found first, which re-arranging does not change.
    public func stackIdentity(of shown: ItemID) -> ItemID? { stacks[shown]?.min() }

    /// Opens the stack `shown` stands for in place, or closes it.
    /// - Complexity: O(*n*): the library is arranged again.
    public mutating func toggleStack(_ shown: ItemID) {
        guard let identity = stackIdentity(of: shown) else { return }
        if openStacks.remove(identity) == nil { openStacks.insert(identity) }
        arrange()
    }

    /// Whether the stack `shown` stands for shows its frames.
    public func isOpen(_ shown: ItemID) -> Bool { stackIdentity(of: shown).map(openStacks.contains) ?? false }

    /// The burst a file's name says it is part of, as Android cameras name them: the name up to
    /// `BURST` with the frame's number left out (`IMG_20180101_120000_BURST001.jpg`), or `BURST`
    /// and the burst's own number (`00001IMG_00001_BURST20180101120000123.jpg`); nil for others.
    static func burstName(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        let marker = burstMarker
        guard let at = name.firstStart(ofRun: marker) else { return nil }
        let after = name[(at + marker.count)...]
        let digits = after.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty else { return nil }
        // A long number is the burst's own (a time); a short one the frame's.
        return digits.count >= 10 ? marker + digits : Array(name[..<(at + marker.count)])
    }

    /// Made once: asked of each file's name as it comes (100,000 on a relaunch).
    private static let burstMarker = Array("BURST".utf8)

    /// Whether a file's name says it is its burst's cover frame (`…_COVER.jpg`).
    static func isCover(_ name: ArraySlice<UInt8>) -> Bool {
        name.containsRun(Array("_COVER".utf8))
    }

    /// The number of a burst name, numbering it when new.
    mutating func burstNameNumber(_ key: [UInt8]) -> Int32 {
        if let known = burstNameNumbers[key] { return known }
        let number = Int32(burstNameNumbers.count + 1)
        burstNameNumbers[key] = number
        return number
    }
}
