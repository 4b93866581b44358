#if canImport(Glibc)
    import Glibc
#endif

// Looking at one file: followed, recognised from the index, or opened and sniffed.
extension Scanner {
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
