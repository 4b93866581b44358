import Foundation
import LightboxApp
import LightboxThumbnails
#if canImport(Glibc)
import Glibc
#endif

extension Options {
    /// The state a session starts from: an empty library still being scanned, with everything
    /// the options and the settings file ask for.
    func makeState(width: Int, height: Int) throws -> GalleryState {
        var state = GalleryState(library: Library(arrangement: arrangement), spec: spec, width: width, height: height,
                                 cacheBudget: cacheBytes, isScanning: true)
        state.showsFooters = showsFooters
        state.graphics = graphics.graphics ?? .half  // auto is settled by the session
        state.scanProblems += configurationProblems
        state.setLayoutMode(layoutMode)
        state.keyTable = keyTable
        try configurePicking(&state)
        return state
    }

    /// What the scan reads: the paths given, or the list on standard input.
    var scanSource: BackgroundScan.Source {
        readsStandardInput ? .list(fd: 0, separator: readsNul ? 0 : 10) : .paths(paths)
    }

    /// Where the images were looked for, for messages.
    var sourceDescription: String {
        readsStandardInput ? "the list on standard input" : paths.map(\.description).joined(separator: " ")
    }

    /// Sets the state's marking rules and the paths to pre-mark (`--mark-from`, whose records end
    /// in NUL when the file holds one, else in newlines).
    func configurePicking(_ state: inout GalleryState) throws {
        state.allowsMarks = allowsMarks
        state.markLimit = markLimit
        guard let markFrom else { return }
        switch FileReader.read(markFrom, limit: 1 << 30) {
        case .success(let bytes):
            let separator: UInt8 = bytes.contains(0) ? 0 : 10
            state.pendingMarks = Set(bytes.split(separator: separator).map { ImagePath(bytes: Array($0)) })
        case .failure(let failure) where failure.message == "empty file":
            return
        case .failure(let failure):
            throw UsageError(description: "--mark-from \(markFrom): \(failure.message)")
        }
    }
}

/// `--marks-file`: the marks written out on every change, atomically (a temporary file in the
/// same folder, then a rename), so a crash or a kill never leaves half a selection.
struct MarksFile {
    let path: ImagePath
    let nulSeparated: Bool
    private(set) var writtenVersion = -1

    init(path: ImagePath, nulSeparated: Bool) {
        self.path = path
        self.nulSeparated = nulSeparated
    }

    /// Writes the state's marks if they changed since the last write. Returns an error message when writing failed.
    mutating func update(from state: GalleryState) -> String? {
        guard state.marksVersion != writtenVersion else { return nil }
        writtenVersion = state.marksVersion
        let bytes: [UInt8]
        switch Output.encode(state.markedPaths, nulSeparated: nulSeparated) {
        case .success(let encoded): bytes = encoded
        case .failure(let error): return "--marks-file: \(error.description)"
        }
        let temporary = path.parent.appending(Array(".\(path.lastComponent.count > 0 ? String(decoding: path.lastComponent, as: UTF8.self) : "marks").lightbox-\(getpid())".utf8))
        let fd = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return "--marks-file: cannot write \(temporary): \(String(cString: strerror(errno)))" }
        let written = FileReader.writeAll(bytes, to: fd)
        close(fd)
        guard written, temporary.withCString({ from in path.withCString { to in rename(from, to) } }) == 0 else {
            _ = temporary.withCString { unlink($0) }
            return "--marks-file: cannot write \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
