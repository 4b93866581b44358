import LightboxThumbnails

extension GalleryState {
    /// Rates, rejects, labels or undoes, on the marked photos or else the cursor's, in the grid
    /// and the preview alike; the decisions go to the photos' sidecars as an effect.
    mutating func decide(_ command: Command) -> [Effect] {
        let changed: [Decisions.ItemChange]
        let targets = decisionTargets
        switch command {
        case .undo:
            guard let undone = decisions.undo() else {
                message = "nothing to undo"
                return []
            }
            changed = undone
            message = "undone: " + Self.photos(undone.count)
        case .rate(let stars):
            changed = decisions.change(targets) { $0.rating = stars }
            message = (stars == 0 ? "rating cleared" : String(repeating: "★", count: stars)) + onPhotos(targets)
        case .toggleReject:
            let all = targets.allSatisfy { decisions[$0].isRejected }
            changed = decisions.change(targets) { $0.rating = all ? 0 : -1 }
            message = (all ? "reject taken back" : "rejected") + onPhotos(targets)
        case .toggleLabel(let label):
            let all = targets.allSatisfy { decisions[$0].has(label) }
            changed = decisions.change(targets) { if $0.has(label) == all { $0.toggle(label) } }
            message = label.name.lowercased() + " label " + (all ? "off" : "on") + onPhotos(targets)
        default:
            return []
        }
        // On the cursor's photo alone, the preview and the cull keys move on to the next (compare stays).
        if command != .undo, advances, compare == nil, selection.count == 0, preview != nil || cullKeys, viewport.cursor + 1 < library.count {
            if preview != nil {
                flipDirection = 1
                viewport.cursor += 1
                preview = Preview()
            } else {
                moveCursor(to: viewport.cursor + 1)
            }
        }
        // Kept for the next arrangement: a decision does not move its photo from under the cursor.
        library.setDecisions(changed)
        let writes = changed.map { DecisionWrite(id: $0.id, paths: library.file($0.id).memberPaths, decision: $0.decision, fields: $0.fields) }
        return (writes.isEmpty ? [] : [.saveDecisions(writes)]) + loadEffects()
    }

    /// Reads of what the sidecars of the items from id `first` on say: every member of a pair,
    /// the picture first (a later answer, a RAW's, wins).
    func decisionReads(from first: Int, recalled: [ItemID] = []) -> [Effect] {
        guard first < library.totalCount else { return [] }
        return decisionReads(of: (first..<library.totalCount).map(ItemID.init), recalled: recalled)
    }

    /// Takes what items' XMP says (read, or the index's copy); whether the library was
    /// arranged again for it (an order or a filter that asks what was decided).
    mutating func takeDecisions(_ read: [Decisions.ItemChange]) -> Bool {
        let known = read.filter { $0.id.rawValue < library.totalCount }
        for item in known { decisions.read(item.id, item.decision) }
        let now = known.map { Decisions.ItemChange(id: $0.id, decision: decisions[$0.id]) }
        guard library.decisionsDecideOrder else {
            library.setDecisions(now)
            return false
        }
        rearrange { $0.setDecisions(now, arranging: true) }
        return true
    }

    /// Reads of what the sidecars of items `ids` say; listed files (not read yet) wait to be read.
    /// Those of `recalled` (whose decisions came with the index's library) are checks only
    /// (`DecisionKeeper.Read.isRecalled`); both ascending when `recalled` is given.
    /// - Complexity: O(*k* + *r*).
    func decisionReads(of ids: [ItemID], recalled: [ItemID] = []) -> [Effect] {
        var next = recalled.startIndex
        let reads = ids.compactMap { id -> DecisionKeeper.Read? in
            while next < recalled.endIndex, recalled[next] < id { next += 1 }
            let isRecalled = next < recalled.endIndex && recalled[next] == id
            let file = library.file(id)
            guard !file.isListed, !library.isGone(id) else { return nil }
            var read = DecisionKeeper.Read(id: id, item: file)
            read.isRecalled = isRecalled
            return read
        }
        return reads.isEmpty ? [] : [.readDecisions(reads)]
    }

    /// The items a decision is for: compare's focused one; the marked ones (those the filter
    /// hides too), else the cursor's.
    var decisionTargets: [ItemID] {
        if let compare { return [compare.focused] }
        guard selection.count > 0 else { return [library.id(at: viewport.cursor)] }
        return markedIDs
    }

    /// " on N photos" when a decision was for more than one.
    func onPhotos(_ targets: [ItemID]) -> String { targets.count > 1 ? " on " + Self.photos(targets.count) : "" }

    static func photos(_ count: Int) -> String { "\(count) photo\(count == 1 ? "" : "s")" }
}
