#if canImport(Glibc)
    import Glibc
#endif

// The walk of folders: listing, looking at files several at once, batches in display order.
extension Scanner {
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
}
