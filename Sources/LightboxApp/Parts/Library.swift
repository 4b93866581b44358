import LightboxThumbnails

/// The images of a gallery, grouped into sections and ordered by an `Arrangement`.
///
/// Each file has an id, its place in the order the scan found it, which never changes; its
/// *position* is its place on screen, which changes when the library is re-arranged. In the
/// default arrangement (by folder, by name) the two are the same and new files only append.
public struct Library: Sendable {
    /// A section: its title and the positions of its images.
    public struct Section: Hashable, Sendable {
        /// A folder's path, or a date as text; raw bytes, sanitized for display by the view.
        public var title: [UInt8]
        public var items: Range<Int>
        /// How many of its items are videos (the rest are pictures), for its counts.
        public var videoCount = 0
    }

    /// Files by id (`ItemID.rawValue`).
    private(set) var filesByID: [ImageFile] = []
    public private(set) var sections: [Section] = []
    public private(set) var arrangement: Arrangement
    /// Date taken by id, in seconds of local wall-clock time; `nil` until read or without one.
    private(set) var datesTaken: [Int64?] = []
    /// Picture height over width in thousandths by id, 0 until read from the file's header.
    private(set) var aspectsByID: [UInt16] = []
    /// When each item was taken, for bursts, by id; nil until read or without a date.
    var burstTimes: [BurstTime?] = []
    /// Each item's burst name (Android's `…_BURST…`), numbered by `burstNameNumbers`; 0: none.
    var burstNames: [Int32] = []
    var burstNameNumbers: [[UInt8]: Int32] = [:]
    /// The stacks the last arrangement made: by the item each shows as, its frames (it first).
    public internal(set) var stacks: [ItemID: [ItemID]] = [:]
    /// The shown item of the stack each frame is in.
    public internal(set) var stackOf: [ItemID: ItemID] = [:]
    /// Stacks opened in place (their frames laid out after the shown one), by their frame found first.
    public internal(set) var openStacks: Set<ItemID> = []
    /// Folder index by id, into `folders`.
    var folderOfID: [Int32] = []
    private var folders: [ImagePath] = []
    /// Each folder's place in the scan's order: its first file's `scanKeys`, by folder index.
    var folderKeys: [Int64] = []
    /// The last folder index of each folder path, where files the scan finds while checking go.
    var folderNumbers: [ImagePath: Int32] = [:]
    /// Each item's place in the scan's order, by id: ids are numbered as found, keys as a scan
    /// of the library now would find them (a file found while checking goes between the two it
    /// lies between). Spaced by `keySpacing`, so there is room between.
    var scanKeys: [Int64] = []
    /// Whether `scanKeys` rise with the ids (nothing went in between): scan order is id order.
    var keysRiseWithIDs = true
    /// The largest of `scanKeys`: a file found after everything goes after it.
    var largestKey: Int64 = 0
    /// Items taken from the index that the scan no longer found, or found changed, by id: never shown.
    var isGone: [Bool] = []
    /// How many of `isGone` are.
    var goneCount = 0
    /// What the index said is there that the walk has not seen yet, while it checks
    /// (`appendFromIndex`): by each item's path, its id. Those in `unconfirmedWaiting` are not in it yet.
    var unconfirmed: [ImagePath: Int] = [:]
    /// Ids the index added that `unconfirmed` does not hold yet, by the folder they came in:
    /// hashed when the walk reaches that folder (`settleUnconfirmed(in:)`), not while the index's
    /// library lands (a 100,000-photo relaunch: a third of the UI's time taking it), nor all at
    /// the walk's first finding (30 ms a key waited for). A folder with none waiting has no entry.
    var unconfirmedWaiting: [ImagePath: [Int]] = [:]
    /// Whether the library came from the index and the scan is checking it.
    public internal(set) var isChecking = false
    /// The key of the last item the checking walk found, where the next new one goes after.
    var lastCheckedKey: Int64 = -1
    /// Items shown from their folder's listing and not read yet (`ImageFile.isListed`), by folder.
    var listedByFolder: [ImagePath: [Int]] = [:]
    /// Items whose files the walk read since `takeNewlyRead()` was last asked: listed ones it
    /// confirmed, and those changed in place (`replaceChanged`).
    var newlyRead: [ItemID] = []
    /// How many items were found changed in place since the index had them.
    public internal(set) var changedCount = 0
    /// How many items were shown from their folders' listings before they were read.
    public internal(set) var listedCount = 0
    /// How many of them are not read yet.
    public internal(set) var unreadListedCount = 0
    /// The last arrangement's entries in its order (before stacking), for the next to reuse:
    /// the ids below `arrangedUpTo` as they were then, less `touchedSinceArranged`; -1: none to reuse.
    var arrangedEntries: [ArrangedEntry] = []
    var arrangedUpTo = -1
    /// Ids below `arrangedUpTo` whose section, sort key or filter match may have changed since.
    var touchedSinceArranged: [Int] = []
    /// How many camera and lens names there were then (a filter reading them resolves anew).
    var namesWhenArranged = 0
    /// Id by position, and position by id.
    private(set) var order: [Int] = []
    private(set) var positions: [Int] = []

    /// A library of `folders`, in the order given.
    public init(folders: [ImageFolder] = [], arrangement: Arrangement = Arrangement()) {
        self.arrangement = arrangement
        for folder in folders { append(folder.files, in: folder.path) }
    }

    /// Whether new files simply go at the end: scan order and no filter.
    var appendsInScanOrder: Bool { arrangement.keepsScanOrder && filter.isEmpty && stacks.isEmpty && keysRiseWithIDs }

    /// Items shown: all, or those the filter lets through.
    public var count: Int { order.count }
    public var isEmpty: Bool { order.isEmpty }
    /// Every item found, shown or not, gone or not: ids are below it (`foundCount`: those still there).
    public var totalCount: Int { filesByID.count }
    /// Every file found, a pair's members each counted.
    public internal(set) var fileCount = 0
    /// The filter (see `FilterExpression`); empty shows all.
    public private(set) var filter = FilterExpression.all
    /// What was decided of each item by id, as last given: what the filter's fields and the
    /// rating order ask (a decision made does not move its photo until the library is arranged again).
    private(set) var decided: [Decision] = []
    /// What each item's metadata said that the filter asks, by id.
    private(set) var details: [ItemDetails] = []
    /// The cameras' and lenses' names that `details` number.
    private(set) var names = NameTable()
    /// How many items' metadata was read.
    public private(set) var detailsReadCount = 0
    /// What was marked when the filter was set, for its `marked` field.
    private(set) var filterMarks: Set<ItemID> = []
    public var sectionCounts: [Int] { sections.map(\.items.count) }

    /// The file at a position on screen.
    public subscript(position: Int) -> ImageFile { filesByID[order[position]] }
    /// The id of the file at `position`.
    public func id(at position: Int) -> ItemID { ItemID(order[position]) }
    /// The position of the file with id `id`, or -1 when the filter hides it.
    public func position(of id: ItemID) -> Int { positions[id.rawValue] }
    /// The file with id `id`, shown or not.
    public func file(_ id: ItemID) -> ImageFile { filesByID[id.rawValue] }
    /// The ids of every file found, shown or not, in the order found.
    public var ids: [ItemID] { (0..<totalCount).map(ItemID.init) }
    /// The picture's height over its width in thousandths, 0 while unknown.
    public func aspect(of id: ItemID) -> Int { Int(aspectsByID[id.rawValue]) }

    /// Shows only the files `expression` keeps, asking it with what was decided and marked.
    /// - Complexity: O(*n* × *m*) to test the files, plus O(*n* log *n*) when sorted other than by scan order.
    public mutating func setFilter(_ expression: FilterExpression, marked: Set<ItemID> = []) {
        filter = expression
        filterMarks = expression.readsMarks ? marked : []
        forgetArrangement()
        arrange()
    }

    /// Takes these items' decisions, for the next arrangement; arranges at once when `arranging`.
    /// - Complexity: O(*k*) for *k* changes, plus an arrangement when `arranging`.
    public mutating func setDecisions(_ changes: [Decisions.ItemChange], arranging: Bool = false) {
        for change in changes where change.id.rawValue < decided.count {
            decided[change.id.rawValue] = change.decision
            touch(change.id.rawValue)
        }
        if arranging { arrange() }
    }

    /// What was decided of item `id`, as the library last heard.
    public func decision(of id: ItemID) -> Decision { decided[id.rawValue] }

    /// How many of the items at `positions` are rated `stars` or more, and how many rejected
    /// (a section's, for its header).
    /// - Complexity: O(*k*) in the positions.
    public func decisionCounts(in positions: Range<Int>, starsAtLeast stars: Int) -> (rated: Int, rejected: Int) {
        var rated = 0, rejected = 0
        for position in positions.clamped(to: 0..<count) {
            let rating = decided[order[position]].rating
            if rating < 0 { rejected += 1 } else if rating >= stars { rated += 1 }
        }
        return (rated, rejected)
    }

    /// Takes what was read of files' metadata: their shapes (for masonry), dates taken and the
    /// details the filter asks; re-arranges when the order, the sections or the filter ask them.
    /// - Complexity: O(*k*), plus an arrangement (O(*n* + *k* log *k*)) when they decide the order.
    /// With `arranging` false, it is left to the caller (who arranges once for several changes).
    @discardableResult
    public mutating func record(_ results: [MetadataResult], arranging: Bool = true) -> Bool {
        for result in results where result.id.rawValue < totalCount {
            let metadata = result.metadata
            recordRead(
                result.id.rawValue, size: result.size, seconds: metadata?.dateTakenSeconds, subsecond: metadata?.subsecond,
                details: ItemDetails(metadata, names: &names), burstID: metadata?.burstID.map { Array($0.utf8) })
        }
        return arrangeAfterRecording(results.lazy.map(\.id), arranging: arranging)
    }

    /// What was read of item `id`: its picture's `size`, the date taken (`seconds`, and the
    /// fraction `subsecond` of the next), its `details`, the camera's burst id (`burstID`'s bytes).
    private mutating func recordRead(_ id: Int, size: PixelSize?, seconds: Int64?, subsecond: Double?, details read: ItemDetails, burstID: [UInt8]?) {
        touch(id)
        if let size, size.width > 0 { aspectsByID[id] = UInt16(clamping: size.height * 1000 / size.width) }
        datesTaken[id] = seconds
        if !details[id].isRead { detailsReadCount += 1 }
        details[id] = read
        burstTimes[id] = seconds.map { BurstTime(seconds: $0, subsecond: subsecond) }
        // The camera's own burst (Apple's BurstUUID) names it as Android's file names do.
        if let burstID { burstNames[id] = burstNameNumber(Array("burst id ".utf8) + burstID) }
    }

    /// Metadata the index kept for a run of items from `first` on, in order (nil: none for that one).
    public struct IndexedRun: Sendable {
        public var first: ItemID
        public var metadata: [IndexedMetadata?]

        public init(first: ItemID, metadata: [IndexedMetadata?]) {
            self.first = first
            self.metadata = metadata
        }

        /// What the index kept for item `id`, if it is in the run.
        public func metadata(of id: ItemID) -> IndexedMetadata? {
            let offset = id.rawValue - first.rawValue
            return metadata.indices.contains(offset) ? metadata[offset] : nil
        }
    }

    /// As `record(_:arranging:)`, for metadata as the index kept it (a replay's thousands), read
    /// from its bytes: no `ImageMetadata` is made for each (its fields and its date's text were
    /// most of taking a 100,000-photo replay), a camera's or lens's name only where it changes.
    /// - Complexity: as `record(_:arranging:)`.
    @discardableResult
    public mutating func record(indexed runs: [IndexedRun], answered ids: [ItemID], arranging: Bool = true) -> Bool {
        var camera: (make: [UInt8]?, model: [UInt8]?, number: Int32)?, lens: (name: [UInt8]?, number: Int32)?
        for run in runs {
            for offset in run.metadata.indices {
                let id = run.first.rawValue + offset
                guard id < totalCount, let bytes = run.metadata[offset]?.encoded else { continue }
                let parts = IndexedMetadata.Parts(of: bytes)
                func same(_ range: Range<Int>?, _ known: [UInt8]?) -> Bool {
                    guard let range, let known else { return range == nil && known == nil }
                    return bytes[range].elementsEqual(known)
                }
                func text(_ range: Range<Int>?) -> String? { range.map { String(decoding: bytes[$0], as: UTF8.self) } }
                guard parts.hasMetadata else {
                    recordRead(id, size: parts.shownSize, seconds: nil, subsecond: nil, details: ItemDetails(nil, names: &names), burstID: nil)
                    continue
                }
                if camera == nil || !same(parts.make, camera?.make) || !same(parts.model, camera?.model) {
                    let number = names.camera(make: text(parts.make), model: text(parts.model))
                    camera = (parts.make.map { Array(bytes[$0]) }, parts.model.map { Array(bytes[$0]) }, number)
                }
                if lens == nil || !same(parts.lens, lens?.name) {
                    lens = (parts.lens.map { Array(bytes[$0]) }, names.lens(text(parts.lens)))
                }
                let details = ItemDetails(
                    camera: camera!.number, lens: lens!.number, iso: parts.iso, frameCount: parts.frameCount, fNumber: parts.fNumber,
                    focalLength: parts.focalLength)
                recordRead(
                    id, size: parts.shownSize, seconds: parts.dateTakenSeconds(in: bytes), subsecond: parts.subsecond, details: details,
                    burstID: parts.burstID.map { Array(bytes[$0]) })
            }
        }
        return arrangeAfterRecording(ids, arranging: arranging)
    }

    /// After recording the metadata of `ids`: arranges (when `arranging`) if the order, the
    /// sections, the filter or the stacks ask it; whether they do.
    private mutating func arrangeAfterRecording(_ ids: some Collection<ItemID>, arranging: Bool) -> Bool {
        let stacking = arrangement.stacks == .burst && ids.contains { $0.rawValue < totalCount && mayStack($0.rawValue) }
        guard arrangement.datesDecideOrder || filter.readsDetails || stacking else { return false }
        if arranging { arrange() }
        return true
    }

    /// Whether the order, the sections or the filter ask what was decided.
    public var decisionsDecideOrder: Bool { filter.readsDecisions || arrangement.sort == .rating || arrangement.sections == .rating }

    /// Adds `newFiles`, found in `folder` after everything before. In the default arrangement
    /// they go at the end (to the last section when it is `folder`'s); otherwise the library is
    /// re-arranged.
    /// - Complexity: O(*k*) for *k* new files in the default arrangement, else an arrangement (O(*n* + *k* log *k*)).
    public mutating func append(_ newFiles: [ImageFile], in folder: ImagePath) {
        append(newFiles, in: folder, arranging: true)
    }

    /// Adds several batches, re-arranging (when needed, and `arranging`) once.
    public mutating func append(_ batches: [(files: [ImageFile], folder: ImagePath)], arranging: Bool = true) {
        for batch in batches { append(batch.files, in: batch.folder, arranging: false) }
        if arranging && !appendsInScanOrder && batches.contains(where: { !$0.files.isEmpty }) { arrange() }
    }

    mutating func append(_ newFiles: [ImageFile], in folder: ImagePath, keys: [Int64]? = nil, arranging: Bool) {
        guard !newFiles.isEmpty else { return }
        let newKeys = keys ?? (1...Int64(newFiles.count)).map { (largestKey / Self.keySpacing + $0) * Self.keySpacing }
        if keysRiseWithIDs, newKeys[0] <= (scanKeys.last ?? -1) || zip(newKeys, newKeys.dropFirst()).contains(where: { $0 >= $1 }) {
            keysRiseWithIDs = false
            forgetArrangement()  // the last one was in id order, not sorted
        }
        scanKeys.append(contentsOf: newKeys)
        largestKey = max(largestKey, newKeys.max()!)
        isGone.append(contentsOf: repeatElement(false, count: newFiles.count))
        // While checking, a file the walk found in a folder the index had goes to that folder's
        // section; what the index had (`keys` nil: at the end) goes where it comes, as the walk's
        // own would (a list naming a folder again after another starts a section anew).
        if isChecking, keys != nil, let known = folderNumbers[folder] {
            if folders.last != folder { keysRiseWithIDs = false }
            if newKeys[0] < folderKeys[Int(known)] {
                folderKeys[Int(known)] = newKeys[0]
                forgetArrangement()  // every item of the folder has a new section key
            }
        } else if folders.last != folder {
            folders.append(folder)
            folderKeys.append(newKeys[0])
            folderNumbers[folder] = Int32(folders.count - 1)
        }
        let folderIndex = isChecking ? folderNumbers[folder]! : Int32(folders.count - 1)
        let first = filesByID.count
        filesByID.append(contentsOf: newFiles)
        fileCount += newFiles.reduce(0) { $0 + 1 + $1.companions.count }
        folderOfID.append(contentsOf: repeatElement(folderIndex, count: newFiles.count))
        datesTaken.append(contentsOf: repeatElement(nil, count: newFiles.count))
        decided.append(contentsOf: repeatElement(.none, count: newFiles.count))
        details.append(contentsOf: repeatElement(ItemDetails(), count: newFiles.count))
        aspectsByID.append(contentsOf: repeatElement(0, count: newFiles.count))
        burstTimes.append(contentsOf: repeatElement(nil, count: newFiles.count))
        var named = false
        for file in newFiles {
            let key = Self.burstName(file.path.lastComponent)
            burstNames.append(key.map { burstNameNumber($0) } ?? 0)
            named = named || (key != nil && arrangement.stacks == .burst)
        }
        // Files named as one burst are a stack at once: the library is arranged.
        guard appendsInScanOrder, !named else {
            if arranging { arrange() }
            return
        }
        order.append(contentsOf: first..<filesByID.count)
        positions.append(contentsOf: first..<filesByID.count)
        let videos = newFiles.reduce(0) { $0 + ($1.format.isVideo ? 1 : 0) }
        if let last = sections.last, last.title == folder.bytes {
            sections[sections.count - 1].items = last.items.lowerBound..<filesByID.count
            sections[sections.count - 1].videoCount += videos
        } else {
            sections.append(Section(title: folder.bytes, items: first..<filesByID.count, videoCount: videos))
        }
    }

    /// Records dates taken by id (from EXIF), re-arranging when the order depends on them.
    /// - Complexity: O(*k*), plus an arrangement (O(*n* + *k* log *k*)) when dates decide the order.
    public mutating func setDatesTaken(_ dates: [(id: ItemID, seconds: Int64?)]) {
        for (id, seconds) in dates where id.rawValue < datesTaken.count {
            datesTaken[id.rawValue] = seconds
            touch(id.rawValue)
        }
        if arrangement.datesDecideOrder || filter.readsDetails { arrange() }
    }

    func folderIndex(of id: Int) -> Int { Int(folderOfID[id]) }
    func folderPath(of id: Int) -> ImagePath { folders[Int(folderOfID[id])] }

    mutating func setOrder(_ ids: [Int], positions newPositions: [Int], sections newSections: [Section]) {
        order = ids
        positions = newPositions
        sections = newSections
    }

    /// Picture shapes in display order, for the masonry layout (0 where unknown).
    /// - Complexity: O(*n*).
    public var aspectsInOrder: [Int] { order.map { Int(aspectsByID[$0]) } }

    /// Puts `file` in the place of item `id` (a listed file as the walk read it): same id, same place.
    mutating func replaceFile(_ id: Int, with file: ImageFile) {
        fileCount += file.companions.count - filesByID[id].companions.count
        filesByID[id] = file
        touch(id)
    }

    /// Re-arranges by `arrangement`.
    /// - Complexity: O(*n* log *n*).
    public mutating func arrange(by arrangement: Arrangement) {
        self.arrangement = arrangement
        forgetArrangement()
        arrange()
    }
}
