import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// An item's place in an arrangement: its section, what it is ordered by within it, its id.
struct ArrangedEntry {
    var section: Int64
    var key: SortKey
    var id: Int
}

extension Library {
    /// Rebuilds the order and the sections from the files, their dates and the arrangement.
    /// What the last arrangement worked out is reused: only the items added or changed since
    /// (`touch(_:)`) are worked out, sorted and merged in.
    /// - Complexity: O(*n* + *k* log *k*) for *k* items added or changed since the last
    ///   arrangement; O(*n* log *n*) after a change of the arrangement or the filter.
    mutating func arrange() {
        let filter = self.filter.resolved(with: names)
        var clock = LocalClock()
        // In scan order the entries are in id order (folders are numbered as found), unless the
        // scan checking what the index had found files in between.
        let byID = arrangement.keepsScanOrder && keysRiseWithIDs
        let reversed = arrangement.isReversed, scanKeys = self.scanKeys
        let precedes = { (a: ArrangedEntry, b: ArrangedEntry) -> Bool in
            if byID { return a.id < b.id }
            if a.section != b.section { return reversed ? a.section > b.section : a.section < b.section }
            if a.key != b.key { return reversed ? a.key > b.key : a.key < b.key }
            let x = scanKeys[a.id], y = scanKeys[b.id]
            if x != y { return reversed ? x > y : x < y }
            return reversed ? a.id > b.id : a.id < b.id
        }
        var entries: [ArrangedEntry] = []
        if arrangedUpTo >= 0 && (filter.isEmpty || names.folded.count == namesWhenArranged) {
            var fresh: [ArrangedEntry] = []
            var isTouched: [Bool] = []
            if !touchedSinceArranged.isEmpty {
                isTouched = [Bool](repeating: false, count: arrangedUpTo)
                for id in touchedSinceArranged where !isTouched[id] {
                    isTouched[id] = true
                    if let entry = entry(of: id, filter: filter, clock: &clock) { fresh.append(entry) }
                }
            }
            for id in arrangedUpTo..<totalCount {
                if let entry = entry(of: id, filter: filter, clock: &clock) { fresh.append(entry) }
            }
            fresh.sort(by: precedes)
            entries.reserveCapacity(arrangedEntries.count + fresh.count)
            var next = 0
            for kept in arrangedEntries where isTouched.isEmpty || !isTouched[kept.id] {
                while next < fresh.count && precedes(fresh[next], kept) {
                    entries.append(fresh[next])
                    next += 1
                }
                entries.append(kept)
            }
            entries.append(contentsOf: fresh[next...])
        } else {
            entries.reserveCapacity(count)
            for id in 0..<totalCount {
                if let entry = entry(of: id, filter: filter, clock: &clock) { entries.append(entry) }
            }
            if !byID { entries.sort(by: precedes) }
        }
        arrangedEntries = entries
        arrangedUpTo = totalCount
        touchedSinceArranged = []
        namesWhenArranged = names.folded.count
        if arrangement.stacks == .burst {
            let stacked = stacked(entries.map(\.id), sections: entries.map(\.section))
            replaceOrder(stacked.ids, sectionKeys: stacked.sections)
        } else {
            stacks = [:]
            stackOf = [:]
            replaceOrder(entries.map(\.id), sectionKeys: entries.map(\.section))
        }
    }

    /// Item `id`'s place in the arrangement, or nil when it is gone or the filter hides it.
    func entry(of id: Int, filter: FilterExpression, clock: inout LocalClock) -> ArrangedEntry? {
        guard !isGone[id] else { return nil }
        if !filter.isEmpty {
            // The file read in place (a copy retains its path and companions), self not captured.
            let (name, kinds) = filesByID.withUnsafeBufferPointer { files in
                (
                    filter.readsNames ? files[id].path.lastComponent : [],
                    ImageFile.Kinds(
                        format: files[id].format, isPair: !files[id].companions.isEmpty, hasRaw: files[id].companions.contains { $0.format == .cameraRaw })
                )
            }
            let photo = FilterSubject(
                name: name, file: kinds, decision: decided[id], details: details[id], aspect: Int(aspectsByID[id]),
                isMarked: filter.readsMarks && filterMarks.contains(ItemID(id)), date: filter.readsDates ? dateForSorting(id, clock: &clock) : 0)
            if !filter.matches(photo) { return nil }
        }
        let date = arrangement.datesDecideOrder ? dateForSorting(id, clock: &clock) : 0
        let section: Int64
        switch arrangement.sections {
        case .folder: section = folderKeys[folderIndex(of: id)]
        case .date: section = Calendar.day(date)
        case .month: section = Calendar.month(date)
        case .year: section = Calendar.year(date)
        case .none: section = 0
        case .rating: section = Int64(5 - decided[id].rating)  // five stars first, rejected last
        }
        return ArrangedEntry(section: section, key: sortKey(of: id, date: date), id: id)
    }

    /// Notes that item `id`'s section, sort key or filter match may have changed: the next
    /// arrangement works it out again.
    mutating func touch(_ id: Int) {
        guard id < arrangedUpTo else { return }
        touchedSinceArranged.append(id)
        // Touched over and over without an arrangement: one made anew costs no more.
        if touchedSinceArranged.count > arrangedUpTo { forgetArrangement() }
    }

    /// The next arrangement works every item out anew (the arrangement or the filter changed).
    mutating func forgetArrangement() {
        arrangedUpTo = -1
        arrangedEntries = []
        touchedSinceArranged = []
    }

    /// What item `id` is ordered by within its section; ties go by id (the scan's order).
    func sortKey(of id: Int, date: Int64) -> SortKey {
        switch arrangement.sort {
        case .name: .number(scanKeys[id])  // the scan's order: folders, then names, naturally
        case .date: .number(date)
        case .mtime: .number(filesByID[id].modified / 1_000_000_000)
        case .size: .number(filesByID[id].byteCount)
        case .kind: .text(Array(filesByID[id].format.traits.title.utf8))
        case .rating: .number(Int64(-decided[id].rating))  // the highest first, rejected last
        }
    }

    /// Sets the order to `ids` and cuts sections where the section key changes.
    private mutating func replaceOrder(_ ids: [Int], sectionKeys: [Int64]) {
        var newPositions = [Int](repeating: -1, count: totalCount)
        for (position, id) in ids.enumerated() { newPositions[id] = position }
        // Where each section ends; then its videos counted, the files read in id order (in
        // the arrangement's order each was a cache miss: most of an arrangement's cost).
        var ends: [Int] = []
        sectionKeys.withUnsafeBufferPointer { keys in
            for position in keys.indices where position == keys.count - 1 || keys[position + 1] != keys[position] { ends.append(position + 1) }
        }
        var videos = [Int](repeating: 0, count: ends.count)
        let videoKinds = ImageFormat.allCases.filter(\.isVideo)
        filesByID.withUnsafeBufferPointer { files in
            for id in files.indices where videoKinds.contains(files[id].format) {
                let position = newPositions[id]
                guard position >= 0 else { continue }
                // The section holding `position`: the first whose end is past it.
                var low = 0, high = ends.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if ends[middle] > position { high = middle } else { low = middle + 1 }
                }
                videos[low] += 1
            }
        }
        var newSections: [Section] = []
        newSections.reserveCapacity(ends.count)
        var start = 0
        for (index, end) in ends.enumerated() {
            newSections.append(Section(title: title(ofSection: sectionKeys[start], firstID: ids[start]), items: start..<end, videoCount: videos[index]))
            start = end
        }
        setOrder(ids, positions: newPositions, sections: newSections)
    }

    /// The header text of a section.
    func title(ofSection key: Int64, firstID: Int) -> [UInt8] {
        switch arrangement.sections {
        case .folder: return folderPath(of: firstID).bytes
        case .date: return Array(Calendar.dayText(key).utf8)
        case .month: return Array(Calendar.monthText(key).utf8)
        case .year: return Array(String(key).utf8)
        case .none: return Array("All images".utf8)
        case .rating:
            let rating = 5 - Int(key)
            return Array((rating < 0 ? "Rejected" : rating == 0 ? "Unrated" : String(repeating: "★", count: rating)).utf8)
        }
    }

    /// The date an item is sorted and grouped by: taken, else modified; local wall-clock seconds.
    func dateForSorting(_ id: Int, clock: inout LocalClock) -> Int64 {
        if let taken = datesTaken[id] { return taken }
        return clock.wallClock(filesByID[id].modified / 1_000_000_000)
    }
}

/// Local wall-clock seconds for Unix times, the C library asked once a quarter hour met (time
/// zones change their offset on a quarter hour at the finest), not once a file.
struct LocalClock {
    private var offsets: [Int64: Int64] = [:]

    mutating func wallClock(_ unix: Int64) -> Int64 {
        let quarter = unix >= 0 ? unix / 900 : (unix - 899) / 900
        if let offset = offsets[quarter] { return unix + offset }
        let offset = Calendar.localWallClock(quarter * 900) - quarter * 900
        offsets[quarter] = offset
        return unix + offset
    }
}

/// Day, month and year arithmetic on wall-clock seconds (local time read as if it were UTC).
enum Calendar {
    static func components(_ seconds: Int64) -> tm {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return parts
    }

    /// Local wall-clock seconds for a Unix time, so a photo taken at 23:30 belongs to that day.
    static func localWallClock(_ unix: Int64) -> Int64 {
        var time = time_t(unix)
        var parts = tm()
        localtime_r(&time, &parts)
        return Int64(timegm(&parts))
    }

    static func day(_ seconds: Int64) -> Int64 { seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400 }
    static func month(_ seconds: Int64) -> Int64 {
        let parts = components(seconds)
        return Int64(parts.tm_year + 1900) * 12 + Int64(parts.tm_mon)
    }
    static func year(_ seconds: Int64) -> Int64 { Int64(components(seconds).tm_year + 1900) }

    static func dayText(_ day: Int64) -> String {
        let parts = components(day * 86_400)
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        return "\(parts.tm_year + 1900)-\(twoDigits(parts.tm_mon + 1))-\(twoDigits(parts.tm_mday)) \(names[Int(parts.tm_wday)])"
    }

    static func monthText(_ month: Int64) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let m = Int(((month % 12) + 12) % 12)
        return "\(names[m]) \((month - Int64(m)) / 12)"
    }

    static func twoDigits(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
