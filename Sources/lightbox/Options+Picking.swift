import Foundation
import LightboxApp
import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

extension Options {
    /// What the options and the settings file ask of the state (the picture mode as asked: the
    /// interactive session settles `auto` with the terminal's answers).
    func settings() throws -> GalleryState.Settings {
        var settings = GalleryState.Settings()
        settings.showsFooters = showsFooters
        settings.graphics = graphics.graphics ?? .half
        settings.layoutMode = layoutMode
        settings.pairing = pairing
        settings.readAhead = readAhead
        settings.linkSpeed = linkSpeed
        settings.keyTable = keyTable
        settings.allowsMarks = allowsMarks
        settings.markLimit = markLimit
        settings.pendingMarks = try marksToResume()
        settings.theme = theme
        settings.cullKeys = cullKeys
        settings.selectsOnlyItem = selectsOnlyItem
        settings.advances = advances
        settings.clipping = clipping
        if let slideshowDelay {
            settings.slideshowDelay = slideshowDelay
            settings.startsSlideshow = true
        }
        return settings
    }

    /// The state a session starts from: an empty library still being scanned, with `settings`
    /// and the settings file's problems to show.
    func makeState(width: Int, height: Int, settings: GalleryState.Settings) -> GalleryState {
        var state = GalleryState(
            library: Library(arrangement: arrangement), spec: spec, width: width, height: height,
            cacheBudget: cacheBytes, scanProblems: configurationProblems, isScanning: true, settings: settings)
        state.scanRoots = readsStandardInput ? [] : paths
        return state
    }

    /// The scanner the options ask for: how files pair, and how many it reads at once.
    var scanner: LightboxThumbnails.Scanner {
        var scanner = LightboxThumbnails.Scanner(pairing: pairing)
        scanner.readsInFlight = readsInFlight
        scanner.index = index
        // Every file's metadata wanted from the start (dates order it, the masonry's shapes, bursts): read with the sniff.
        scanner.readsMetadata = arrangement.datesDecideOrder || layoutMode == .masonry || arrangement.stacks == .burst
        return scanner
    }

    /// Opens the index `--index` asks for in Lightbox's cache folder (none without one); what
    /// went wrong waits in it for the session to say.
    mutating func openIndex() {
        guard indexMode != .off, let folder = LibraryIndex.defaultFolder() else { return }
        index = LibraryIndex(folder: folder, mode: indexMode)
    }

    /// Files the metadata reader reads at once: as the user said, else the most a path given
    /// calls for (of a list on standard input, its first path, `peekList`).
    var metadataReads: Int {
        let given = readsStandardInput ? Self.firstRecord(of: listPrefix, separator: readsNul ? 0 : 10).map { [ImagePath(bytes: $0)] } ?? [] : paths
        return given.map { ParallelReads.width(for: $0, stated: readsInFlight) }.max() ?? readsInFlight ?? 1
    }

    /// Seconds the list on standard input is waited for to name its first path, so its mount
    /// sets how many reads go at once (a list slower than that is read as a local disk's): as
    /// long as the gallery waits for a first image before it opens anyway.
    static let listPeekWait = 0.5

    /// Reads the start of the list on standard input, until it names its first path (or
    /// `listPeekWait` passes, or 64 KB came, or it ended), into `listPrefix`, for the scan.
    mutating func peekList() {
        guard readsStandardInput, listPrefix.isEmpty else { return }
        let separator: UInt8 = readsNul ? 0 : 10
        let deadline = InteractiveSession.now + Self.listPeekWait
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Self.firstRecord(of: listPrefix, separator: separator) == nil, listPrefix.count < 65_536 {
            let left = deadline - InteractiveSession.now
            var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&ready, 1, Int32(left * 1000) + 1) > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            listPrefix += buffer[..<count]
        }
    }

    /// The first complete record of a list's start, if it holds one.
    static func firstRecord(of start: [UInt8], separator: UInt8) -> [UInt8]? {
        start.firstIndex(of: separator).map { Array(start[..<$0]) }
    }

    /// What the scan reads: the paths given, or the list on standard input.
    var scanSource: BackgroundScan.Source {
        readsStandardInput ? .list(fd: 0, separator: readsNul ? 0 : 10, prefix: listPrefix) : .paths(paths)
    }

    /// Where the images were looked for, for messages.
    var sourceDescription: String {
        readsStandardInput ? "the list on standard input" : paths.map(\.description).joined(separator: " ")
    }

    /// The paths to pre-mark (`--mark-from`), whose records end in NUL when the file holds one,
    /// else in newlines.
    func marksToResume() throws -> PathSet {
        guard let markFrom else { return PathSet() }
        switch FileReader.read(markFrom, limit: PathSet.byteLimit) {
        case .success(let bytes):
            let separator: UInt8 = bytes.contains(0) ? 0 : 10
            return PathSet(records: bytes, separator: separator)
        case .failure(let failure) where failure.message == "empty file":
            return PathSet()
        case .failure(let failure):
            throw UsageError(description: "--mark-from \(markFrom): \(failure.message)")
        }
    }
}

/// `--marks-file`: the marks written out on every change, atomically (a temporary file in the
/// same folder, then a rename), so a crash or a kill never leaves half a selection. Paths that
/// `--mark-from` listed and the scan has not found (yet) are kept after the marks, so a pick
/// resumed from the same file and quit early loses nothing.
///
/// The temporary file is made with `mkstemp` (a name nobody can guess, `O_EXCL`, so a planted
/// symlink is never followed), mode 0600 or the marks file's own; the rename replaces whatever
/// is at the final name without following it. A symlink the user named is followed once, at start.
struct MarksFile {
    let path: ImagePath
    let nulSeparated: Bool
    private(set) var writtenVersion = -1
    /// The unmatched `--mark-from` paths as written, by how many there were (the count only falls).
    private var pendingBytes: (count: Int, bytes: [UInt8])?

    init(path: ImagePath, nulSeparated: Bool) {
        self.path = Self.resolvingSymlink(path)
        self.nulSeparated = nulSeparated
    }

    /// Writes the state's marks if they changed since the last write. Returns an error message when writing failed.
    mutating func update(from state: GalleryState) -> String? {
        guard state.selection.version != writtenVersion else { return nil }
        writtenVersion = state.selection.version
        var bytes: [UInt8]
        switch Output.encode(state.markedPaths, nulSeparated: nulSeparated) {
        case .success(let encoded): bytes = encoded
        case .failure(let error): return "--marks-file: \(error.description)"
        }
        if !state.selection.pending.isEmpty {
            if pendingBytes?.count != state.selection.pending.count {
                guard case .success(let encoded) = Output.encode(state.selection.pending.remaining, nulSeparated: nulSeparated) else {
                    return "--marks-file: a listed path holds a newline; use -0"
                }
                pendingBytes = (state.selection.pending.count, encoded)
            }
            bytes += pendingBytes!.bytes
        }
        return write(bytes)
    }

    /// Replaces the file's contents with `bytes`, atomically.
    func write(_ bytes: [UInt8]) -> String? {
        let name = path.lastComponent.isEmpty ? Array("marks".utf8) : Array(path.lastComponent)
        var template = path.parent.appending([UInt8(ascii: ".")] + name + Array(".lightbox-XXXXXX".utf8)).bytes.map { CChar(bitPattern: $0) } + [0]
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return "--marks-file: cannot write in \(path.parent): \(String(cString: strerror(errno)))" }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = ImagePath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
        var existing = stat()
        if path.withCString({ stat($0, &existing) }) == 0 { _ = fchmod(fd, existing.st_mode & 0o777) }
        let written = FileReader.writeAll(bytes, to: fd) && fsync(fd) == 0
        let problem = errno
        close(fd)
        guard written, temporary.withCString({ from in path.withCString { to in rename(from, to) } }) == 0 else {
            let reason = String(cString: strerror(written ? errno : problem))
            _ = temporary.withCString { unlink($0) }
            return "--marks-file: cannot write \(path): \(reason)"
        }
        return nil
    }

    /// The file a symlink named by the user points to (followed once, now); any other path as it is.
    static func resolvingSymlink(_ path: ImagePath) -> ImagePath {
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK,
            let resolved = path.withCString({ realpath($0, nil) })
        else { return path }
        defer { free(resolved) }
        return ImagePath(bytes: Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved))))
    }
}
