import LightboxThumbnails

/// A library first shown from the index (what an earlier visit found), then checked by the
/// scan: the items it confirms stay as they are; what it finds that the index did not have goes
/// where a scan would put it; what it no longer finds, or finds changed, goes. Ids never change,
/// so the cursor and the marks stay on their photos.
extension Library {
    /// Room between two items' keys for the files a checking scan finds between them.
    static let keySpacing: Int64 = 1 << 20

    /// Adds what the index remembers (`LibraryIndex.replay`), or a folder's listing
    /// (`ImageFile.isListed`), for the scan to check.
    /// - Complexity: as `append(_:)`.
    public mutating func appendFromIndex(_ batches: [(files: [ImageFile], folder: ImagePath)], arranging: Bool = true) {
        // Checking from here on: what the walk found before stays where it is, and comes before.
        if !isChecking { lastCheckedKey = totalCount > 0 ? largestKey : -1 }
        isChecking = true
        let first = totalCount
        append(batches, arranging: arranging)
        var id = first
        for batch in batches {
            if !batch.files.isEmpty { unconfirmedWaiting[batch.folder, default: []] += id..<(id + batch.files.count) }
            id += batch.files.count
        }
        for id in first..<totalCount {
            let file = filesByID[id]
            if file.isListed {
                listedByFolder[folderPath(of: id), default: []].append(id)
                listedCount += 1
                unreadListedCount += 1
            }
        }
    }

    /// Takes what the checking scan found: a file the index had, as it had it, is confirmed
    /// (nothing changes); a file it did not have, or had otherwise, is added where the scan's
    /// order puts it (a changed file's old item goes). Whether anything changed.
    /// - Complexity: O(*k*) for *k* files found, plus hashing the index's items of their folders
    ///   (of all it had, once, for a file it did not have there), plus an arrangement when any is new.
    @discardableResult
    public mutating func appendChecked(_ batches: [(files: [ImageFile], folder: ImagePath)]) -> Bool {
        var added: [(files: [ImageFile], folder: ImagePath, keys: [Int64])] = []
        var changed = false
        for batch in batches {
            settleUnconfirmed(in: batch.folder)
            var files: [ImageFile] = [], keys: [Int64] = []
            for file in batch.files {
                var key = lastCheckedKey + 1
                var known = unconfirmed.removeValue(forKey: file.path)
                if known == nil, !unconfirmedWaiting.isEmpty {
                    // Not among its folder's: among all the index had (it named the folder otherwise).
                    settleUnconfirmed()
                    known = unconfirmed.removeValue(forKey: file.path)
                }
                if let id = known {
                    if filesByID[id] == file {
                        lastCheckedKey = max(lastCheckedKey, scanKeys[id])
                        continue
                    }
                    if filesByID[id].isListed {
                        // Listed, now read: the same item, its kind as its bytes say.
                        if filesByID[id].format != file.format || filesByID[id].companions != file.companions || !appendsInScanOrder { changed = true }
                        replaceFile(id, with: file)
                        newlyRead.append(ItemID(id))
                        unreadListedCount -= 1
                        lastCheckedKey = max(lastCheckedKey, scanKeys[id])
                        continue
                    }
                    // Changed since: the file as it is now takes the old one's place.
                    markGone(id)
                    changed = true
                    key = scanKeys[id]
                } else if lastCheckedKey >= largestKey {
                    key = (lastCheckedKey / Self.keySpacing + 1) * Self.keySpacing  // past all the index had: at the end
                }
                lastCheckedKey = max(lastCheckedKey, key)
                files.append(file)
                keys.append(key)
            }
            if !files.isEmpty { added.append((files, batch.folder, keys)) }
        }
        guard !added.isEmpty || changed else { return false }
        for batch in added { append(batch.files, in: batch.folder, keys: batch.keys, arranging: false) }
        arrange()
        return true
    }

    /// The walk is done with `folder`, whose listing came first: what it listed and the walk did
    /// not find (named like an image, and not one) goes. Whether anything did.
    /// - Complexity: O(*k*) in the folder's listed items, plus an arrangement (O(*n* + *k* log *k*)) when any goes.
    @discardableResult
    public mutating func settleListing(of folder: ImagePath) -> Bool {
        guard let listed = listedByFolder.removeValue(forKey: folder) else { return false }
        settleUnconfirmed(in: folder)
        var changed = false
        for id in listed where filesByID[id].isListed && !isGone[id] {
            unconfirmed[filesByID[id].path] = nil
            markGone(id)
            unreadListedCount -= 1
            changed = true
        }
        if changed { arrange() }
        return changed
    }

    /// Takes files the walk found changed in place since the index had them (`Scanner.Batch.isChanged`):
    /// each replaces the file of its path where it is (a pair's member inside its item), ids
    /// unchanged. Whether the library was arranged again (a file's kind changed).
    /// - Complexity: O(*n*) to find them by path, plus an arrangement when a kind changed.
    @discardableResult
    public mutating func replaceChanged(_ files: [ImageFile]) -> Bool {
        guard !files.isEmpty else { return false }
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        var kindChanged = false
        for id in 0..<totalCount where !isGone[id] {
            let was = filesByID[id]
            var item = was
            if let now = byPath[item.path] {
                item = now
                item.companions = was.companions
            }
            for k in item.companions.indices { item.companions[k] = byPath[item.companions[k].path] ?? item.companions[k] }
            guard item != was, !was.isListed else { continue }
            kindChanged = kindChanged || item.format != was.format
            replaceFile(id, with: item)
            newlyRead.append(ItemID(id))
            changedCount += 1
        }
        if kindChanged { arrange() }
        return kindChanged
    }

    /// The listed items the walk has read since last asked, and those changed in place (their
    /// metadata and sidecars are read now).
    public mutating func takeNewlyRead() -> [ItemID] {
        defer { newlyRead = [] }
        return newlyRead
    }

    /// Whether some item shown is only listed, not read yet.
    public var hasListedItems: Bool { !listedByFolder.isEmpty }

    /// The scan is over: what the index had and the scan did not find goes, unless it is under
    /// one of `mounts` (mount points not answering: the scan could not look). Whether anything went.
    /// - Complexity: O(*k* · *m*) in what was not found and the mounts, plus an arrangement (O(*n* + *k* log *k*)) when anything goes.
    @discardableResult
    public mutating func finishChecking(keepingUnder mounts: [String] = []) -> Bool {
        guard isChecking else { return false }
        isChecking = false
        let away = mounts.map { Array($0.utf8) }
        let missing = (Array(unconfirmed.values) + unconfirmedWaiting.values.joined()).filter { id in
            away.isEmpty || !away.contains { ReadWatch.mount($0, holds: filesByID[id].path.absoluteBytes) }
        }
        unconfirmed = [:]
        unconfirmedWaiting = [:]
        listedByFolder = [:]
        unreadListedCount = 0
        guard !missing.isEmpty else { return false }
        for id in missing { markGone(id) }
        arrange()
        return true
    }

    /// The items under `roots` (absolute paths) are to be checked by a walk of them again, as
    /// what the index had is (`appendChecked`, then `finishChecking`): a walk that could not look
    /// there (its mount had gone) is done again once it answers. What it finds that is new goes
    /// where the walk's order puts it, among theirs.
    /// - Complexity: O(*n* · *r*) for *r* roots.
    public mutating func startChecking(under roots: [[UInt8]]) {
        settleUnconfirmed()
        let ids = (0..<totalCount).filter { id in
            !isGone[id] && roots.contains { ReadWatch.mount($0, holds: filesByID[id].path.absoluteBytes) }
        }
        guard let first = ids.min(by: { scanKeys[$0] < scanKeys[$1] }) else { return }
        // New files found before the first of them go after what comes before it.
        let firstKey = scanKeys[first]
        lastCheckedKey = (0..<totalCount).reduce(-1) { before, id in scanKeys[id] < firstKey && !isGone[id] ? max(before, scanKeys[id]) : before }
        isChecking = true
        for id in ids { unconfirmed[filesByID[id].path] = id }
    }

    /// How many items the index had that the scan has not confirmed yet.
    public var uncheckedCount: Int { unconfirmed.count + unconfirmedWaitingCount }

    /// How many ids `unconfirmedWaiting` holds.
    /// - Complexity: O(*f*) in the folders waiting.
    var unconfirmedWaitingCount: Int { unconfirmedWaiting.values.reduce(0) { $0 + $1.count } }

    /// Puts the ids the index added since into `unconfirmed`, by path.
    /// - Complexity: O(*k*) in the ids waiting.
    mutating func settleUnconfirmed() {
        guard !unconfirmedWaiting.isEmpty else { return }
        unconfirmed.reserveCapacity(unconfirmed.count + unconfirmedWaitingCount)
        for ids in unconfirmedWaiting.values { for id in ids { unconfirmed[filesByID[id].path] = id } }
        unconfirmedWaiting = [:]
    }

    /// Puts the ids the index added in `folder` into `unconfirmed`, by path.
    /// - Complexity: O(*k*) in that folder's ids waiting.
    mutating func settleUnconfirmed(in folder: ImagePath) {
        guard let ids = unconfirmedWaiting.removeValue(forKey: folder) else { return }
        for id in ids { unconfirmed[filesByID[id].path] = id }
    }

    /// Whether item `id` was taken from the index and is no longer there.
    public func isGone(_ id: ItemID) -> Bool { isGone[id.rawValue] }

    /// Items found and still there (`totalCount` less those gone), shown or not.
    public var foundCount: Int { totalCount - goneCount }

    private mutating func markGone(_ id: Int) {
        guard !isGone[id] else { return }
        isGone[id] = true
        touch(id)
        goneCount += 1
        fileCount -= 1 + filesByID[id].companions.count
    }
}
