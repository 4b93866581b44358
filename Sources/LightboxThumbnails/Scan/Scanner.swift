#if canImport(Glibc)
    import Glibc
#endif

/// Finds images under the given paths: folders recursively, files directly.
///
/// Folders are walked with directory descriptors (`openat`), so trees deeper than `PATH_MAX`
/// are walked too, and found images are handed out in batches as they are found, in display
/// order: each folder's images in natural order, then its subfolders in natural order. A batch
/// only ever adds to the end of what came before.
public struct Scanner: Sendable {
    /// An item's decision as the index's copies of its files said it (`DecisionKeeper.combined`).
    public struct IndexedDecision: Hashable, Sendable {
        public var decision: Decision
        /// Read from the copy kept in Lightbox's state folder.
        public var isKept: Bool

        /// The decision of an item whose files' copies are `copies` (picture first): the last
        /// that says one (a RAW's wins); nil when a copy is missing.
        public init?(_ copies: [LibraryIndex.KnownDecision?]) {
            guard copies.allSatisfy({ $0 != nil }) else { return nil }
            (decision, isKept) = DecisionKeeper.combined(copies.map { ($0!.decision, $0!.isKept) })
        }

        /// The decision of an item of one file whose copy is `copy` (a replay makes one a file:
        /// without an array each).
        init?(single copy: LibraryIndex.KnownDecision?) {
            guard let copy else { return nil }
            (decision, isKept) = DecisionKeeper.combined(CollectionOfOne((copy.decision, copy.isKept)))
        }

        /// As the keeper says it of item `id`.
        func known(_ id: ItemID) -> DecisionKeeper.Known { DecisionKeeper.Known(id: id, decision: decision, isKept: isKept) }
    }

    /// Images found in one folder, to append after everything found before.
    public struct Batch: Hashable, Sendable {
        public var folder: ImagePath
        public var files: [ImageFile]
        /// What could not be read, or was named like an image and was not one (the first
        /// `Scanner.problemSampleLimit` of a scan; the rest are only counted).
        public var problems: [String]
        /// Problems met but not listed: past the sample.
        public var unlistedProblems: Int
        /// For a batch from the index (`LibraryIndex.replay`), not the walk: each file's metadata
        /// as kept there; empty for the walk's batches.
        public var indexed: [IndexedMetadata?]
        /// For a batch from the index: each item's decision as the index's copies of its files
        /// say it, nil where it lacks a copy of any of them (`DecisionKeeper` then recalls it);
        /// empty for the walk's batches.
        public var indexedDecisions: [IndexedDecision?] = []
        /// Whether the batch is what the index remembers (`LibraryIndex.replay`), for the walk to confirm.
        public var isFromIndex: Bool
        /// Whether the batch is a folder's listing, its files named and not read yet
        /// (`ImageFile.isListed`), for the walk to confirm (`Scanner.listsFirst`).
        public var isListing = false
        /// Whether the walk is done with a folder whose listing came first: the listed files it
        /// did not find are not images.
        public var endsListing = false
        /// Whether the batch holds files found changed in place since the index had them, in a
        /// folder it took whole from the index (`Scanner.checksTrustedFolders`): each replaces
        /// the file of its path, where it is.
        public var isChanged = false
        /// Paths given (arguments, a list's) that could not be looked at because their mount did
        /// not answer (gone, or stalled past the reads' limit): for a walk again once it does.
        public var missed: [ImagePath] = []
        /// Whether the walk is over and only the look at the trusted folders' files goes on
        /// (`Scanner.checksTrustedFolders`): what the walk did not find is gone. Holds no files.
        public var endsWalk = false

        public init(folder: ImagePath, files: [ImageFile], problems: [String] = [], unlistedProblems: Int = 0) {
            self.folder = folder
            self.files = files
            self.problems = problems
            self.unlistedProblems = unlistedProblems
            indexed = []
            isFromIndex = false
        }

        /// A batch from the index: `files` as an earlier visit found them, with their metadata.
        public init(folder: ImagePath, files: [ImageFile], indexed: [IndexedMetadata?]) {
            self.init(folder: folder, files: files)
            self.indexed = indexed
            isFromIndex = true
        }
    }

    /// What a whole scan found: folders of images in display order, and what could not be read.
    public struct Result: Sendable {
        public var folders: [ImageFolder]
        /// The first problems met, and how many more there were.
        public var problems: [String]
        public var unlistedProblems: Int
    }

    /// Problems a scan lists; past these it only counts them (`yes | lightbox` meets millions).
    public static let problemSampleLimit = 100
    /// Longest problem text kept, in characters: a message about a huge name keeps its ends.
    public static let problemTextLimit = 1024
    /// Longest record of a list read (a path of over a megabyte is not one).
    public static let listRecordLimit = 1 << 20

    /// The most images a batch holds; the first batches are smaller, so a first screen comes quickly.
    public var batchLimit = 8192
    /// The size of the first batch; each later one is as large as all before it, up to `batchLimit`.
    public static let firstBatchSize = 64
    /// The most folders a walk keeps open (besides the root), whatever the depth of the tree.
    public var openFolderLimit = 32
    /// Whether files written together (RAW+JPEG, Live Photos) become one item.
    public var pairing = Pairing.together
    /// Files a folder's scan opens and sniffs at once (`--reads`); nil: `ParallelReads`'s choice
    /// for the mount each path given is on (many on a network mount, one on a local disk).
    public var readsInFlight: Int?
    /// While this says more wanted reads wait (the screen's files, `FileReadStage.isBusy`),
    /// the scan keeps only `ParallelReads.yieldingWidth` of its reads in flight.
    public var yielding: (@Sendable () -> Bool)?
    /// What earlier visits learned (`LibraryIndex`): a file of the size and time it knows is
    /// recognised from a look at its attributes, not opened and sniffed; what is found is kept there.
    public var index: LibraryIndex?
    /// Whether, on a network mount, a folder the index does not know is first handed out as its
    /// listing names it (`Batch.isListing`: one round trip, where sniffing its first screen's
    /// files takes several), before the walk reads each file. Only for a gallery that takes the
    /// listing's files back as the walk confirms them.
    public var listsFirst = false
    /// Whether, once the walk is over, the folders taken whole from the index (their listings
    /// unchanged) have each file looked at after all: a file rewritten in place changes its own
    /// time, not its folder's. What changed is handed out in batches marked `isChanged`. For a
    /// gallery, where this runs in the background; a list trusts the listing.
    public var checksTrustedFolders = false
    /// Whether every file's metadata will be wanted (dates decide the order, the filter asks
    /// details): on a network mount the scan then reads it from the open that sniffs the file
    /// and keeps it in `index`, where the metadata reader finds it (one open a file, not two).
    public var readsMetadata = false

    public init(pairing: Pairing = .together) {
        self.pairing = pairing
    }

    /// Scans everything, then returns it.
    public func scan(_ paths: [ImagePath]) -> Result {
        collect { scan(paths, emit: $0) }
    }

    /// Scans every path listed in the file open as `fd`, then returns what was found.
    public func scan(listIn fd: Int32, separator: UInt8, prefix: [UInt8] = []) -> Result {
        collect { scan(listIn: fd, separator: separator, prefix: prefix, emit: $0) }
    }

    /// What a scan run by `body` found, its batches merged by folder.
    func collect(_ body: ((Batch) -> Bool) -> Void) -> Result {
        var folders: [Batch] = [], problems: [String] = [], unlisted = 0
        body { batch in
            problems += batch.problems
            unlisted += batch.unlistedProblems
            if !batch.files.isEmpty, !batch.isListing, !batch.isChanged { folders.appendMerging(Batch(folder: batch.folder, files: batch.files)) }
            return true
        }
        return Result(folders: folders.map { ImageFolder(path: $0.folder, files: $0.files) }, problems: problems, unlistedProblems: unlisted)
    }

    /// Scans `paths` in the order given, calling `emit` with each batch; `emit` returns false to
    /// stop the scan. Hidden entries are skipped, symlinked folders are followed once each (no
    /// loops), and only regular files are ever opened.
    /// - Complexity: O(*n* log *n*) in the number of entries of each folder, plus one open and a
    ///   16-byte read per file.
    public func scan(_ paths: [ImagePath], emit: (Batch) -> Bool) {
        let mounts = ReadWatch.mountPoints()
        let groups = Scanner.groupedByMount(paths, mounts: mounts)
        guard groups.count > 1 else {
            withoutActuallyEscaping(emit) { emit in
                var walk = makeWalk(mounts: mounts, emit: emit)
                walk.scanArguments(paths)
                walk.flush()
                walk.finishNested()
                walk.handWalkEnd()
                walk.checkTrustedFolders()
            }
            index?.flush()
            return
        }
        // Several mounts: one that stops answering holds up only its own paths (and those of a
        // path it is mounted inside, `Walk.walkNested`).
        let waitsOn = groups.map { Scanner.mountsWaitedOn(by: $0, among: mounts) }
        let relay = RootRelay(groups: groups.count) { number in
            ReadWatch.shared.notAnswering().contains { waitsOn[number].contains(Array($0.utf8)) }
        }
        let visited = FolderVisits()
        relay.run(emit: emit) { number, port in
            var walk = makeWalk(mounts: mounts) { port.hand($0) }
            walk.visited = visited
            walk.scanArguments(groups[number])
            walk.flush()
            walk.finishNested()
            port.walked(checking: walk.keepsTrustedFolders && !walk.trustedFolders.isEmpty)
            if walk.keepsTrustedFolders, port.waitForChecks() { walk.checkTrustedFolders() }
        }
        index?.flush()
    }

    /// A walk as this scanner's settings say, handing its batches to `emit`.
    /// `mounts`: the mount table as the scan read it, for the walk's folders (else read by each).
    func makeWalk(mounts: [[UInt8]]? = nil, emit: @escaping (Batch) -> Bool) -> Walk {
        var walk = Walk(limit: batchLimit, openFolderLimit: openFolderLimit, pairs: pairing != .apart, emit: emit)
        if let mounts { walk.mountPoints = { mounts } }
        walk.readsInFlight = readsInFlight
        walk.yielding = yielding
        walk.index = index
        walk.listsFirst = listsFirst
        walk.keepsTrustedFolders = checksTrustedFolders
        walk.readsMetadata = readsMetadata
        return walk
    }

    /// The mount points of `mounts` a walk of `paths` may wait on: those holding them, and those inside them.
    /// - Complexity: O(*p* · *m*) for *p* paths and *m* mounts.
    static func mountsWaitedOn(by paths: [ImagePath], among mounts: [[UInt8]]) -> Set<[UInt8]> {
        var waited = Set<[UInt8]>()
        for path in paths {
            let bytes = path.absoluteBytes
            if let holding = ReadWatch.longestMount(holding: bytes, among: mounts) { waited.insert(mounts[holding]) }
            waited.formUnion(ReadWatch.mounts(inside: bytes, among: mounts))
        }
        return waited
    }

    /// `paths` in runs of consecutive paths on one mount of `mounts` (told by the paths alone: nothing is looked at).
    /// - Complexity: O(*p* · *m*) for *p* paths and *m* mounts.
    static func groupedByMount(_ paths: [ImagePath], mounts: [[UInt8]]) -> [[ImagePath]] {
        var groups: [[ImagePath]] = [], last: Int?? = .none
        for path in paths {
            let mount = ReadWatch.longestMount(holding: path.absoluteBytes, among: mounts)
            if last == .some(mount) { groups[groups.count - 1].append(path) } else { groups.append([path]) }
            last = .some(mount)
        }
        return groups
    }

    /// Scans the paths listed in the file open as `fd` (a pipe, say), one per `separator`-ended
    /// record, as they are read: what each chunk of the list names is handed out before the next
    /// read waits. Empty records are skipped; a final record need not end in the separator.
    /// `prefix`: the list's first bytes, already read from `fd` by the caller (to tell its mount).
    /// With `recalling`, what that index knows of each chunk's paths is handed out first
    /// (`LibraryIndex.recall`), for the walk's looks that follow to confirm.
    public func scan(listIn fd: Int32, separator: UInt8, prefix: [UInt8] = [], recalling recallIndex: LibraryIndex? = nil, emit: (Batch) -> Bool) {
        withoutActuallyEscaping(emit) { emit in
            var walk = makeWalk(emit: emit)
            walk.keepsTrustedFolders = false
            var pending: [UInt8] = []
            var isSkippingLongRecord = false
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // The paths of what was read so far, looked at together (many at once on a network mount).
            var paths: [ImagePath] = []
            func scanPaths() {
                guard !paths.isEmpty else { return }
                // The mount table once a chunk of the list, not once a folder it names.
                let mounts = ReadWatch.mountPoints()
                walk.mountPoints = { mounts }
                // Paired as the walk's looks will pair them (named files looked at one at a time are not).
                if let recallIndex { walk.hand(recallIndex.recall(paths, pairs: walk.pairs && walk.lookWidth(for: paths) > 1)) }
                walk.scanArguments(paths)
                paths = []
            }
            /// A record of the list: a path, unless it holds a NUL (a NUL-separated list read as
            /// lines, whose one "line" names every file) or is too long to be one.
            func take(_ record: [UInt8]) {
                if isSkippingLongRecord {
                    isSkippingLongRecord = false
                } else if separator != 0, record.contains(0) {
                    scanPaths()
                    walk.report("a line of the list holds NUL bytes, so it is not a path: is it NUL-separated? then use --read0", in: ImagePath("."))
                } else if !record.isEmpty {
                    paths.append(ImagePath(bytes: record))
                }
            }
            /// Takes the records `bytes` end, keeping the start of the next.
            func consume(_ bytes: ArraySlice<UInt8>) {
                let searchFrom = pending.count
                pending += bytes
                var start = 0
                var from = searchFrom
                while let end = pending[from...].firstIndex(of: separator), !walk.isStopped {
                    take(Array(pending[start..<end]))
                    start = end + 1
                    from = start
                }
                pending.removeFirst(start)
                scanPaths()
                if pending.count > Scanner.listRecordLimit {
                    if !isSkippingLongRecord {
                        walk.report("a record of the list is longer than \(Scanner.listRecordLimit >> 20) MB, so it is not a path: skipped", in: ImagePath("."))
                    }
                    isSkippingLongRecord = true
                    pending.removeAll()
                }
                walk.flush()
            }
            if !prefix.isEmpty { consume(prefix[...]) }
            while !walk.isStopped {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                consume(buffer[..<count])
            }
            if !pending.isEmpty && !walk.isStopped { take(pending) }
            scanPaths()
            walk.flush()
            walk.finishNested()
            index?.flush()
        }
    }
}

/// Device and inode: what makes a folder the same folder however it is reached.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

extension Array where Element == Scanner.Batch {
    /// Appends `batch`, into the last batch when both are of one folder.
    mutating func appendMerging(_ batch: Scanner.Batch) {
        if let last = self.last, last.folder == batch.folder, last.isFromIndex == batch.isFromIndex, last.isListing == batch.isListing,
            last.isChanged == batch.isChanged, !last.endsListing, !last.endsWalk, !batch.endsWalk
        {
            self[count - 1].endsListing = batch.endsListing
            // Each file's metadata and decision stay beside it: a part without them is given nils.
            self[count - 1].indexed = Self.joined(last.indexed, last.files.count, batch.indexed, batch.files.count)
            self[count - 1].indexedDecisions = Self.joined(last.indexedDecisions, last.files.count, batch.indexedDecisions, batch.files.count)
            self[count - 1].files += batch.files
            self[count - 1].problems += batch.problems
            self[count - 1].unlistedProblems += batch.unlistedProblems
        } else {
            append(batch)
        }
    }

    /// `first` (of a batch of `firstCount` files) then `second` (of `secondCount`): empty when both
    /// are, a nil for each file of a part that has none (or whose count is not its files').
    static func joined<Value>(_ first: [Value?], _ firstCount: Int, _ second: [Value?], _ secondCount: Int) -> [Value?] {
        if first.isEmpty && second.isEmpty { return [] }
        func aligned(_ part: [Value?], _ count: Int) -> [Value?] { part.count == count ? part : [Value?](repeating: nil, count: count) }
        return aligned(first, firstCount) + aligned(second, secondCount)
    }
}

extension Scanner.Batch {
    /// The batch with only the files `isKept` keeps, each with its metadata and decision from the index.
    /// - Complexity: O(*n*) in the batch's files.
    public func keeping(_ isKept: (ImageFile) -> Bool) -> Scanner.Batch {
        let kept = files.indices.filter { isKept(files[$0]) }
        guard kept.count < files.count else { return self }
        // A file's values where there is one a file (else none: they could not be told apart).
        func picked<Value>(_ values: [Value]) -> [Value] { values.count == files.count ? kept.map { values[$0] } : [] }
        var result = self
        result.files = kept.map { files[$0] }
        result.indexed = picked(indexed)
        result.indexedDecisions = picked(indexedDecisions)
        return result
    }
}
