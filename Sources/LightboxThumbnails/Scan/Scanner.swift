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

    /// The state of one scan: the batch being filled and the folders already seen.
    struct Walk {
        let limit: Int
        var openFolderLimit = 32
        var emit: (Batch) -> Bool
        var batch: Batch?
        /// The folders walked, shared by the walks of one scan's paths (`RootRelay`).
        var visited = FolderVisits()
        var emittedFiles = 0
        var problemCount = 0
        var isStopped = false
        /// Whether files of one stem are grouped into pairs (see `Pairing`).
        let pairs: Bool
        /// What the user set for reads at once (see `Scanner.readsInFlight`), and what the tree
        /// being walked uses.
        var readsInFlight: Int?
        var readWidth = 1
        var yielding: (@Sendable () -> Bool)?
        var index: LibraryIndex?
        var listsFirst = false
        /// Whether the folders taken whole from the index are kept, to be looked through after the walk.
        var keepsTrustedFolders = false
        /// Whether files looked at many at once have their metadata read with the sniff (`Scanner.readsMetadata`).
        var readsMetadata = false
        /// Those folders: each one's path, its files' names, and what the index had of them.
        var trustedFolders: [TrustedFolder] = []
        typealias TrustedFolder = (path: ImagePath, names: [[UInt8]], known: [[UInt8]: LibraryIndex.Record])
        /// Mount points inside the folder being walked, as this walk names them: each is walked on
        /// a thread of its own (`walkNested`), so one that stops answering holds up only itself.
        var nestedMounts: Set<[UInt8]> = []
        /// Those walks left waiting on their mount: what they find is handed on after (`drainNested`).
        var waitingNested: [NestedWalk] = []
        /// Where the mount points come from: the table as the scan read it (`makeWalk(mounts:emit:)`), else read here; a test's own list.
        var mountPoints: @Sendable () -> [[UInt8]] = { ReadWatch.mountPoints() }

        init(limit: Int, openFolderLimit: Int, pairs: Bool = false, emit: @escaping (Batch) -> Bool) {
            self.limit = limit
            self.openFolderLimit = openFolderLimit
            self.pairs = pairs
            self.emit = emit
        }

        /// A path given by the user: a folder is walked, a file taken as it is.
        mutating func scanArgument(_ path: ImagePath) {
            // What was found is handed on before a look that may hang (another mount's).
            flush()
            var info = stat()
            // Watched: a mount that does not answer is named on the status line.
            guard ReadWatch.shared.watching(path, { path.withCString({ stat($0, &info) }) }) == 0 else {
                return reportGiven(Scanner.failure("cannot open", path), path)
            }
            if Scanner.isDirectory(info) {
                walkFolder(path)
            } else {
                take(Scanner.lookAtFile(path, info, index: index), given: path)
            }
        }

        /// How many of `paths` `scanArguments` looks at at once.
        func lookWidth(for paths: [ImagePath]) -> Int {
            paths.count > 1 ? ParallelReads.width(for: paths[0], stated: readsInFlight) : 1
        }

        /// Paths given or listed (not a folder's entries), looked at many at once where their mount
        /// gains from it (`readsInFlight`, else `ParallelReads`' choice for the first one's mount),
        /// in steps that grow from one round (the first screen's files) to a thousand; what they
        /// are is taken in their order, folders walked in turn.
        /// - Complexity: a look at each (and an open and a read of each file the index does not know).
        mutating func scanArguments(_ paths: [ImagePath]) {
            let width = lookWidth(for: paths)
            guard width > 1 else { return paths.forEach { if !isStopped { scanArgument($0) } } }
            for range in ParallelReads.parts(of: paths.count, first: width) where !isStopped {
                let part = paths[range]
                // What was found is handed on before looks that may hang (another mount's).
                flush()
                let index = self.index, readingMetadata = readsMetadata
                let found = ParallelReads.map(part.count, width: width, yielding: yielding) { number -> Found? in
                    let path = part[part.startIndex + number]
                    var info = stat()
                    guard ReadWatch.shared.watching(path, { path.withCString({ stat($0, &info) }) }) == 0 else {
                        return .problem(Scanner.failure("cannot open", path))
                    }
                    return Scanner.isDirectory(info) ? nil : .file(Scanner.lookAtFile(path, info, index: index, readingMetadata: readingMetadata))
                }
                for (path, entry) in zip(part, found) where !isStopped {
                    if let entry {
                        switch entry {
                        case .file(let classification): take(classification, given: path)
                        case .problem(let reason): reportGiven(reason, path)
                        case .folder, .nothing: break
                        }
                    } else {
                        walkFolder(path)
                    }
                }
            }
        }

        /// Walks the folder given at `path`.
        mutating func walkFolder(_ path: ImagePath) {
            flush()
            nestedMounts = Self.mounts(inside: path, among: mountPoints())
            let fd = ReadWatch.shared.watching(path) { path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
            guard fd >= 0 else { return reportGiven(Scanner.failure("cannot read", path), path, in: path) }
            readWidth = ParallelReads.width(for: fd, stated: readsInFlight)
            walkTree(fd, path: path)
        }

        /// Takes what a file given at `path` was found to be: an image, or the reason it is not one.
        mutating func take(_ classification: Classification, given path: ImagePath) {
            switch classification {
            case .image(let file): add(file, in: path.parent)
            case .refused(let reason): reportGiven(reason, path)
            case .ignored: report("not an image: \(path)", in: path.parent)
            }
        }

        /// Says why a path given could not be looked at; one whose mount does not answer is kept
        /// for a walk again (`Batch.missed`).
        mutating func reportGiven(_ problem: String, _ path: ImagePath, in folder: ImagePath? = nil) {
            report(problem, in: folder ?? path.parent)
            if ReadWatch.shared.notAnswering(holding: path) != nil { batch!.missed.append(path) }
        }

        /// One folder of the walk: its subfolders, which is next, and its descriptor while open.
        struct Level {
            /// -1 while closed: only the root and the deepest few folders are kept open.
            var fd: Int32
            var path: ImagePath
            /// Its name in its parent, to open it again from there.
            var name: [UInt8]
            var identity: FileIdentity
            var subfolders: [[UInt8]]
            var next = 0
        }

        /// Walks the tree under the open folder `fd` (which it closes), depth first. At most
        /// `openFolderLimit` folders are open at once, whatever the depth: a folder closed on the
        /// way down is opened again from its parent on the way back (and must be the same folder).
        mutating func walkTree(_ fd: Int32, path: ImagePath) {
            // A low `ulimit -n` narrows the window: a quarter of it, the rest left to everything else.
            var files = rlimit()
            if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < rlim_t(Int32.max) {
                openFolderLimit = max(1, min(openFolderLimit, Int(files.rlim_cur) / 4))
            }
            var stack: [Level] = []
            if let (subfolders, identity) = listFolder(fd, path: path) {
                stack.append(Level(fd: fd, path: path, name: [], identity: identity, subfolders: subfolders))
            }
            while let top = stack.last, !isStopped {
                guard top.next < top.subfolders.count else {
                    if top.fd >= 0 { close(top.fd) }
                    stack.removeLast()
                    continue
                }
                let name = top.subfolders[top.next]
                stack[stack.count - 1].next += 1
                guard reopen(stack.count - 1, in: &stack) else { continue }
                let childPath = top.path.appending(name)
                flush()  // the folders before it, before a look that may hang
                drainNested()
                if nestedMounts.contains(childPath.bytes) {
                    walkNested(childPath)
                    continue
                }
                let parent = stack[stack.count - 1].fd
                // Watched: a mount that stops answering is named on the status line (and its walk left waiting, `RootRelay`).
                var child = ReadWatch.shared.watching(childPath) { Scanner.withCName(name) { openat(parent, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
                if child < 0 && (errno == EMFILE || errno == ENFILE) {
                    // Descriptors ran out elsewhere: give back all but the root's and this folder's, and try once more.
                    for i in 1..<max(1, stack.count - 1) where stack[i].fd >= 0 { close(stack[i].fd); stack[i].fd = -1 }
                    child = Scanner.withCName(name) { openat(stack[stack.count - 1].fd, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
                }
                guard child >= 0 else {
                    report(Scanner.failure("cannot read", childPath), in: childPath)
                    continue
                }
                if let (subfolders, identity) = listFolder(child, path: childPath) {
                    stack.append(Level(fd: child, path: childPath, name: name, identity: identity, subfolders: subfolders))
                    closeOutsideWindow(endingAt: stack.count - 1, in: &stack)
                }
            }
            for level in stack where level.fd >= 0 { close(level.fd) }
        }

        /// Opens the folder at `index` again if it was closed, from its nearest open ancestor
        /// down (the root is always open). False, with a problem reported and the rest of those
        /// folders skipped, when one of them cannot be opened or is no longer the same folder.
        mutating func reopen(_ index: Int, in stack: inout [Level]) -> Bool {
            guard stack[index].fd < 0 else { return true }
            var open = index
            while stack[open].fd < 0 { open -= 1 }
            for k in (open + 1)...index {
                let fd = Scanner.withCName(stack[k].name) { openat(stack[k - 1].fd, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
                var info = stat()
                guard fd >= 0, fstat(fd, &info) == 0, FileIdentity(info) == stack[k].identity else {
                    let reason = fd < 0 ? Scanner.errorText() : "it changed during the scan"
                    if fd >= 0 { close(fd) }
                    report("cannot read all of \(stack[k].path): \(reason)", in: stack[k].path)
                    for m in k...index { stack[m].next = stack[m].subfolders.count }
                    return false
                }
                stack[k].fd = fd
                closeOutsideWindow(endingAt: k, in: &stack)
            }
            return true
        }

        /// Closes the folder that falls out of the window of `openFolderLimit` open folders
        /// ending at level `top` (the root, level 0, stays open).
        func closeOutsideWindow(endingAt top: Int, in stack: inout [Level]) {
            let oldest = top - openFolderLimit
            guard oldest > 0, stack[oldest].fd >= 0 else { return }
            close(stack[oldest].fd)
            stack[oldest].fd = -1
        }

        /// Adds the images of the open folder `fd` and returns its subfolders' names in natural
        /// order, and what identifies it; nil (and `fd` closed) when the folder was seen before or
        /// cannot be read.
        mutating func listFolder(_ fd: Int32, path: ImagePath) -> ([[UInt8]], FileIdentity)? {
            var info = stat()
            guard fstat(fd, &info) == 0, visited.insert(FileIdentity(info)) else {
                close(fd)
                return nil
            }
            let identity = FileIdentity(info)
            let copy = dup(fd)
            guard copy >= 0, let dir = fdopendir(copy) else {
                if copy >= 0 { close(copy) }
                report("cannot read \(path): \(Scanner.errorText())", in: path)
                close(fd)
                return nil
            }
            var list = NameList()
            var listedAll = true
            while true {
                errno = 0
                guard let entry = ReadWatch.shared.watching(path, { readdir(dir) }) else {
                    if errno != 0 {
                        listedAll = false
                        report("cannot read all of \(path): \(Scanner.errorText())", in: path)
                    }
                    break
                }
                let name = DirectoryEntry.name(entry)
                if !name.isEmpty, !DirectoryEntry.isHidden(name) { list.append(name, type: DirectoryEntry.type(entry)) }
            }
            closedir(dir)

            // Regular files, folders and links, in natural order (FIFOs, devices, sockets: never opened).
            let entries = list.naturalOrder().compactMap { i -> (name: [UInt8], type: UInt8)? in
                let type = list.types[i]
                guard type == UInt8(DT_REG) || type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) else { return nil }
                return (Array(list.name(i)), type)
            }
            // Looked at `readWidth` at a time and taken in order, in steps that start at two
            // rounds (the first screen's files come soon) and grow to a thousand (each step
            // waits for its slowest file).
            // On a network mount, a folder whose listing the index has (its time and its
            // entries unchanged) is taken as the index has its files: one listing, no look at each.
            let listing = index.map { _ in
                LibraryIndex.FolderListing(
                    modified: Scanner.modified(info), fingerprint: Scanner.fingerprint(entries), isMountPoint: ParallelReads.isMountPoint(path))
            }
            let trusted = readWidth > 1 && listing.map { index?.hasListing($0, of: path) == true } == true
            // What the index knows of the folder's files, in one query (one a file cost a
            // 100,000-photo walk a read transaction each, a tenth of its time), and the names of
            // its other subfolders that hold files.
            let found = index?.records(in: path.absoluteBytes, skipping: entries.filter { $0.type == UInt8(DT_DIR) }.map(\.name), notImages: true)
            let known = found?.records, knownFolders = found?.others ?? []
            let listed = listsFirst && readWidth > 1 && !trusted && known?.isEmpty != false && handListing(entries, in: path)
            if trusted, keepsTrustedFolders, let known {
                // Sizes and times only: what the index read of 100,000 files is not held until the walk ends.
                let bare = known.filter { $0.value.format != nil }.mapValues {
                    LibraryIndex.Record(byteCount: $0.byteCount, modified: $0.modified, format: $0.format)
                }
                trustedFolders.append((path, entries.filter { $0.type == UInt8(DT_REG) && bare[$0.name] != nil }.map(\.name), bare))
            }
            var subfolders: [[UInt8]] = []
            // One at a time on a local disk; on a network mount two rounds first, growing.
            let parts =
                readWidth == 1 ? ParallelReads.parts(of: entries.count, first: 1, most: 1) : ParallelReads.parts(of: entries.count, first: readWidth * 2)
            for range in parts where !isStopped {
                let part = entries[range]
                let index = self.index, readingMetadata = readsMetadata && readWidth > 1
                let found = ParallelReads.map(part.count, width: readWidth, yielding: yielding) { number in
                    let entry = part[part.startIndex + number]
                    return Scanner.look(
                        at: entry.name, type: entry.type, in: fd, path: path, index: index, known: known.map { .some($0[entry.name]) } ?? .none,
                        trusting: trusted, readingMetadata: readingMetadata)
                }
                for entry in found {
                    switch entry {
                    case .folder(let name): subfolders.append(name)
                    case .file(.image(let image)): add(image, in: path)
                    case .file(.refused(let reason)), .problem(let reason): report(reason, in: path)
                    case .file(.ignored), .nothing: break
                    }
                }
                let start = range.upperBound
                // A full batch waits for a file of another stem; when the next entry's name has
                // another, it need not wait for the next step's reads.
                if pairs, start < entries.count, let last = batch?.files.last, batch!.folder == path, batch!.files.count >= fullBatchCount,
                    Pairing.stem(last.path) != Pairing.stem(path.appending(entries[start].name))
                {
                    flush()
                }
            }
            // Its mount gone (or stalled) while its files were looked at: some could not be, so
            // the listing is not taken as the index's, and what it named stays for a walk again.
            let isWhole = listedAll && ReadWatch.shared.notAnswering(holding: path) == nil
            // A share's mount point without its share, where the index had files: what it had
            // stays, shown offline as a mount gone's is, until the share is back.
            let unmounted = listing.map { Scanner.looksUnmounted($0, empty: entries.isEmpty, of: path, index: index) } == true
            if unmounted, known?.contains(where: { $0.value.format != nil }) == true || !knownFolders.isEmpty, !isStopped {
                ReadWatch.shared.noteUnmounted(path)
                report("\(path) looks unmounted (empty, unchanged since it held files)", in: path)
            }
            if let listing, !isStopped, isWhole, !unmounted {
                index?.rememberListing(listing, of: path)
                // What the index had here that the listing no longer names was deleted or moved: forgotten,
                // or it would be shown again on every visit until the walk's end.
                // (Hidden names, which the listing leaves out, say nothing: a list may have named them.)
                var gone = knownFolders
                if let known { gone.formUnion(known.keys) }
                gone.subtract(entries.map(\.name))
                gone = gone.filter { !DirectoryEntry.isHidden($0) }
                if !gone.isEmpty { index?.forgetGone(gone, in: path) }
            }
            if listed, !isStopped, isWhole {
                // Every file found handed out first: what the listing named and the walk did not find goes.
                flush()
                var end = Batch(folder: path, files: [])
                end.endsListing = true
                if !emit(end) { isStopped = true }
            }
            return (subfolders, identity)
        }

        /// Says the walk is over (`Batch.endsWalk`) when the trusted folders' files are looked at next.
        mutating func handWalkEnd() {
            guard !trustedFolders.isEmpty, !isStopped else { return }
            flush()
            if !emit(Scanner.walkEnd) { isStopped = true }
        }

        /// Looks at each file of the folders taken whole from the index (`trustedFolders`), many at
        /// once, and hands out those changed since as `Batch.isChanged`: the index's time or size
        /// no longer theirs, read again.
        /// - Complexity: one look a file, `readWidth` at once; an open and a read for each changed.
        mutating func checkTrustedFolders() {
            let folders = trustedFolders
            trustedFolders = []
            for folder in folders where !isStopped && !folder.names.isEmpty {
                let fd = ReadWatch.shared.watching(folder.path) { folder.path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
                guard fd >= 0 else { continue }  // gone since: the next visit's walk sees it
                defer { close(fd) }
                let width = ParallelReads.width(for: fd, stated: readsInFlight)
                // Without the index, so what it counted of the walk is not counted twice; what changed is kept below.
                let found = ParallelReads.map(folder.names.count, width: width, yielding: yielding) { number in
                    let name = folder.names[number]
                    return Scanner.look(at: name, type: UInt8(DT_REG), in: fd, path: folder.path, known: .some(folder.known[name]))
                }
                var changed: [ImageFile] = []
                for (name, entry) in zip(folder.names, found) {
                    switch entry {
                    case .file(.image(let image)):
                        if let was = folder.known[name], was.byteCount != image.byteCount || was.modified != image.modified || was.format != image.format {
                            changed.append(image)
                            index?.remember(image)
                        }
                    case .file(.refused(let reason)), .problem(let reason): report(reason, in: folder.path)
                    case .folder, .file(.ignored), .nothing: break
                    }
                }
                flush()
                guard !changed.isEmpty, !isStopped else { continue }
                var batch = Batch(folder: folder.path, files: changed)
                batch.isChanged = true
                if !emit(batch) { isStopped = true }
            }
            flush()
        }

        /// Hands out the files `entries` name like images, as listed (`Batch.isListing`), before
        /// any is read. Whether there were any.
        mutating func handListing(_ entries: [(name: [UInt8], type: UInt8)], in path: ImagePath) -> Bool {
            let files = entries.compactMap { entry -> ImageFile? in
                guard entry.type == UInt8(DT_REG) else { return nil }
                let named = path.appending(entry.name)
                return ImageFormat(naming: named).map { ImageFile(listed: named, format: $0) }
            }
            guard !files.isEmpty, !isStopped else { return false }
            flush()
            var listing = Batch(folder: path, files: pairs ? Pairing.group(files) : files)
            listing.isListing = true
            if !emit(listing) { isStopped = true }
            return true
        }

        /// Adds an image to the batch, starting a new batch when the folder changes.
        /// Small first batches bring the first screen early; later ones grow to the limit.
        var fullBatchCount: Int { min(limit, max(Scanner.firstBatchSize, emittedFiles)) }

        mutating func add(_ file: ImageFile, in folder: ImagePath) {
            startBatch(for: folder)
            let fullCount = fullBatchCount
            if pairs {
                // A full batch waits for a file of another stem, so a pair never straddles two batches.
                if let last = batch!.files.last, Pairing.stem(last.path) != Pairing.stem(file.path), batch!.files.count >= fullCount {
                    flush()
                    startBatch(for: folder)
                }
                batch!.files.append(file)
            } else {
                batch!.files.append(file)
                if batch!.files.count >= fullCount { flush() }
            }
        }

        /// Records a problem: listed while the sample has room, else counted. Problems alone
        /// flush a batch now and then, so a list of nothing but problems streams too.
        mutating func report(_ problem: String, in folder: ImagePath) {
            startBatch(for: folder)
            problemCount += 1
            if problemCount <= Scanner.problemSampleLimit {
                let limit = Scanner.problemTextLimit / 2
                batch!.problems.append(problem.count <= 2 * limit ? problem : problem.prefix(limit) + "…" + problem.suffix(limit))
            } else {
                batch!.unlistedProblems += 1
                if batch!.unlistedProblems >= 4096 { flush() }
            }
        }

        mutating func startBatch(for folder: ImagePath) {
            if let current = batch, current.folder != folder { flush() }
            if batch == nil { batch = Batch(folder: folder, files: [], problems: []) }
        }

        /// Hands out what was found so far, then `batches` (the index's) as they are.
        mutating func hand(_ batches: [Batch]) {
            flush()
            for batch in batches where !isStopped {
                if !emit(batch) { isStopped = true }
            }
        }

        /// Hands out the batch being filled, if any.
        /// Hands the batch out, files of one stem grouped into pairs (see `add`).
        mutating func flush() {
            guard var current = batch, !isStopped else { return }
            batch = nil
            if pairs { current.files = Pairing.group(current.files) }
            emittedFiles += current.files.count
            if !emit(current) { isStopped = true }
        }
    }

    /// What one name of a folder's listing is: a folder to walk, a file classified, a problem, or nothing to show.
    enum Found {
        case folder([UInt8])
        case file(Classification)
        case problem(String)
        case nothing
    }

    /// Looks at `name` (of listed `type`) in the folder open as `fd` at `path`: a link followed
    /// to what it names (a dangling one is nothing), a file opened and sniffed, or, when `index`
    /// knows it at its size and time, recognised from its attributes alone (one look instead of
    /// an open and a read). Safe on several threads at once.
    /// `known`, when given, is what the index knows of it (asked of the whole folder at once).
    static func look(
        at name: [UInt8], type: UInt8, in fd: Int32, path: ImagePath, index: LibraryIndex? = nil, known given: LibraryIndex.Record?? = .none,
        trusting: Bool = false, readingMetadata: Bool = false
    ) -> Found {
        if type == UInt8(DT_DIR) { return .folder(name) }
        let named = path.appending(name)
        let known = given ?? index?.record(of: named)
        if trusting, type == UInt8(DT_REG), let known { return recognised(known, at: named, index: index).map { .file(.image($0)) } ?? .nothing }
        return ReadWatch.shared.watching(named) {
            if type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN) || known != nil {
                var target = stat()
                guard Scanner.withCName(name, { fstatat(fd, $0, &target, 0) }) == 0 else {
                    // A dangling link is nothing to report; anything else is.
                    return errno == ENOENT ? .nothing : .problem(Scanner.failure("cannot read", named))
                }
                if Scanner.isDirectory(target) { return .folder(name) }
                if (target.st_mode & S_IFMT) != S_IFREG { return .nothing }
                if let known, Scanner.isKnown(known, as: target) {
                    return Scanner.recognised(known, at: named, index: index).map { .file(.image($0)) } ?? .nothing
                }
            }
            let file = Scanner.withCName(name) { openat(fd, $0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            return .file(Scanner.classify(file, path: named, keepingIn: index, withMetadata: readingMetadata))
        }
    }

    /// Whether a folder listed with nothing in it is more likely a share's mount point seen
    /// without its share (unmounted, the NAS asleep) than a folder emptied: the index knew it
    /// listed as a mount point and it is none now; or its time now is not past that listing's
    /// (nor the start of that listing's day), where deleting what it held would have moved it
    /// on. Then what the index had there is not forgotten (the next visit, mounted again, would
    /// be a first one), nor the empty listing kept.
    static func looksUnmounted(_ listing: LibraryIndex.FolderListing, empty: Bool, of path: ImagePath, index: LibraryIndex?) -> Bool {
        guard empty, let before = index?.lastListing(of: path) else { return false }
        // A share's mount point when the index saw it hold files, and none now: so exactly.
        if before.listing.isMountPoint && !listing.isMountPoint { return true }
        // Or it was empty since before the day a listing saw it hold files: a mount point made
        // after the share's folder last changed (its time is the mkdir's) is seen so too (a
        // listing from before the index kept mount points).
        return listing.modified <= before.listing.modified || listing.modified < before.day * 86_400 * 1_000_000_000
    }

    /// What the file given at `path` (not a folder; `info` its attributes) is: recognised from
    /// the index when it knows the file at that size and time, else opened and sniffed (and
    /// kept there). Safe on several threads at once.
    static func lookAtFile(_ path: ImagePath, _ info: stat, index: LibraryIndex?, readingMetadata: Bool = false) -> Classification {
        if (info.st_mode & S_IFMT) == S_IFREG, let known = index?.record(of: path), isKnown(known, as: info) {
            return recognised(known, at: path, index: index).map { .image($0) } ?? .ignored(byteCount: known.byteCount, modified: known.modified)
        }
        return openAndClassify(path, keepingIn: index, withMetadata: readingMetadata)
    }

    /// `classify` of the file at `path`, opened here, watched while it runs (`ReadWatch`).
    static func openAndClassify(_ path: ImagePath, keepingIn index: LibraryIndex?, withMetadata: Bool) -> Classification {
        ReadWatch.shared.watching(path) {
            classify(path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }, path: path, keepingIn: index, withMetadata: withMetadata)
        }
    }

    /// Whether the index's `known` record is of the file whose attributes are `info`: its size and time.
    static func isKnown(_ known: LibraryIndex.Record, as info: stat) -> Bool {
        known.byteCount == Int64(info.st_size) && known.modified == modified(info)
    }

    /// The file at `path` as the index knows it (its size and time as the index has them): an
    /// image, counted as recognised from it; nil when the index knows it is not one.
    static func recognised(_ known: LibraryIndex.Record, at path: ImagePath, index: LibraryIndex?) -> ImageFile? {
        guard let format = known.format else { return nil }
        index?.countRecognised()
        return ImageFile(path: path, byteCount: known.byteCount, modified: known.modified, format: format)
    }

    /// `classify` of the file open as `fd`, what it found kept in `index` (with an image's
    /// metadata, `withMetadata`); a file refused is said again on every visit, so not kept.
    static func classify(_ fd: Int32, path: ImagePath, keepingIn index: LibraryIndex?, withMetadata: Bool) -> Classification {
        let found = classify(fd, path: path, keepingMetadataIn: withMetadata ? index : nil)
        switch found {
        case .image(let image): index?.remember(image)
        case .ignored(let size, let modified) where size >= 0: index?.rememberNotAnImage(path, byteCount: size, modified: modified)
        case .ignored, .refused: break
        }
        return found
    }

    /// What a scanned file is.
    enum Classification {
        case image(ImageFile)
        /// Named like an image but not one: the reason.
        case refused(String)
        /// Not an image, nor named like one; its size and time when it is a regular file (for the index).
        case ignored(byteCount: Int64, modified: Int64)
    }

    /// Whether the file open as `fd` (which this closes; -1 when opening failed) is an image: a
    /// regular file whose first bytes name a known format; or a file named like one that is not.
    /// With `metadataIndex`, an image's metadata is read from the same open (the bytes the
    /// metadata reader would take, `MetadataReader.prefixLength`) and kept there, where the
    /// reader finds it: on a network mount one open a file instead of two.
    static func classify(_ fd: Int32, path: ImagePath, keepingMetadataIn metadataIndex: LibraryIndex? = nil) -> Classification {
        guard fd >= 0 else { return .refused(failure("cannot read", path)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .ignored(byteCount: -1, modified: 0) }
        errno = 0
        let header = FileReader.readUpTo(fd, count: metadataIndex == nil ? ImageFormat.sniffLength : MetadataReader.prefixLength, at: 0)
        // Bytes there and none read: the read failed (its mount gone, say), which says nothing of what the file is.
        if header.isEmpty, info.st_size > 0, errno != 0 { return .refused(failure("cannot read", path)) }
        guard !header.isEmpty, let format = ImageFormat(sniffing: Array(header.prefix(ImageFormat.sniffLength))) else {
            guard hasImageName(path) else { return .ignored(byteCount: Int64(info.st_size), modified: modified(info)) }
            return .refused(notAnImage(path, header: header))
        }
        let image = ImageFile(path: path, byteCount: Int64(info.st_size), modified: modified(info), format: format)
        if let metadataIndex {
            let bytes = FileBytes(prefix: header, fd: fd, count: Int(info.st_size))
            let metadata = format.traits.metadata(bytes)
            let size = MetadataReader.shownSize(of: bytes, format: format, metadata: metadata)
            metadataIndex.remember(image, metadata: IndexedMetadata(metadata: metadata, shownSize: size))
        }
        return .image(image)
    }

    /// The batch that says the walk is over (`Batch.endsWalk`).
    static var walkEnd: Batch {
        var end = Batch(folder: ImagePath("."), files: [])
        end.endsWalk = true
        return end
    }

    /// A fingerprint of a folder's entries (names and types, in order): FNV-1a, 64 bits.
    /// - Complexity: O(*n*) in the bytes of the names.
    static func fingerprint(_ entries: [(name: [UInt8], type: UInt8)]) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for entry in entries {
            entry.name.forEach(mix)
            mix(0)
            mix(entry.type)
        }
        return Int64(bitPattern: hash)
    }

    /// A file's modification time in nanoseconds since the epoch.
    static func modified(_ info: stat) -> Int64 { Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) }

    static func withCName<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (name + [0]).withUnsafeBufferPointer { body(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
    }

    static func hasImageName(_ path: ImagePath) -> Bool { ImageFormat(naming: path) != nil }

    /// Why the file at `path`, named like an image, is none: what its first bytes (`header`) look like.
    static func notAnImage(_ path: ImagePath, header: [UInt8]) -> String {
        "not an image: \(path) (\(describeContent(Array(header.prefix(ImageFormat.sniffLength)))))"
    }

    /// A short guess at what a file that is not an image holds, for the message.
    static func describeContent(_ header: [UInt8]) -> String {
        if header.isEmpty { return "empty" }
        let text = String(decoding: header, as: UTF8.self).lowercased()
        if text.hasPrefix("<svg") || text.hasPrefix("<?xml") { return "SVG or XML, not supported" }
        if header.count >= 2, header[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(header[1]) {
            return "PPM/PNM, not supported"
        }
        if header.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }) { return "text" }
        return "unknown content"
    }

    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    /// What `errno` says, and when it is the limit of open files, which limit.
    /// What a call about `path` that just failed says ("cannot read PATH: why"), its mount named
    /// not answering when the failure says it went away (`ReadWatch.noteFailure`).
    static func failure(_ doing: String, _ path: ImagePath) -> String {
        ReadWatch.shared.noteFailure(path)
        return "\(doing) \(path): \(errorText())"
    }

    static func errorText() -> String {
        let text = String(cString: strerror(errno))
        return errno == EMFILE ? text + " (the limit of open files, ulimit -n, was reached)" : text
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
            self[count - 1].files += batch.files
            self[count - 1].indexed += batch.indexed
            self[count - 1].problems += batch.problems
            self[count - 1].unlistedProblems += batch.unlistedProblems
        } else {
            append(batch)
        }
    }
}
