import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads users' files safely (and writes whole buffers): regular files only (never a FIFO or device), opened non-blocking,
/// read with `read` into memory (no `mmap`, so a file truncated under us cannot raise SIGBUS).
public enum FileReader {
    public struct Failure: Error, Hashable {
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// The whole file, if it is a regular file no larger than `limit` bytes; `progress` is told
    /// the bytes each read call brings; `stop`, asked with the bytes so far after each, ends the
    /// read there when it says so (the bytes so far are the result).
    public static func read(
        _ path: ImagePath, limit: Int, progress: ((Int) -> Void)? = nil, stop: ((ArraySlice<UInt8>) -> Bool)? = nil
    ) -> Result<[UInt8], Failure> {
        withRegularFile(path, limit: limit) { fd, size in
            let data = readUpTo(fd, count: size, progress: progress, stop: stop)
            return data.isEmpty ? .failure(Failure(message: "empty file")) : .success(data)
        }
    }

    /// `body` given the regular file at `path` open, and its size, if no larger than `limit`;
    /// watched while it runs (`ReadWatch`), so a mount that stops answering is noticed.
    public static func withRegularFile<T>(_ path: ImagePath, limit: Int, _ body: (Int32, Int) -> Result<T, Failure>) -> Result<T, Failure> {
        withOpenFile(path, limit: limit) { fd, info in body(fd, Int(info.st_size)) }
    }

    /// The same, `body` given the file's attributes as opened (its size and time).
    public static func withOpenFile<T>(_ path: ImagePath, limit: Int, _ body: (Int32, stat) -> Result<T, Failure>) -> Result<T, Failure> {
        ReadWatch.shared.watching(path) { openRegularFile(path, limit: limit, body) }
    }

    static func openRegularFile<T>(_ path: ImagePath, limit: Int, _ body: (Int32, stat) -> Result<T, Failure>) -> Result<T, Failure> {
        let fd = path.open(O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            ReadWatch.shared.noteFailure(path, errno: error)
            return .failure(Failure(message: "cannot open: " + String(cString: strerror(error))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(Failure(message: "not a regular file")) }
        guard info.st_size <= limit else { return .failure(Failure(message: "file too large (\(info.st_size >> 20) MiB)")) }
        return body(fd, info)
    }

    /// A file the kernel makes as it is read (`/proc`, `/sys`: its size says 0), read to its end,
    /// `limit` bytes at most; nil when it cannot be opened. Foundation's `contents(atPath:)` stops
    /// at the first page of such a file (a mount table of more than 4 KB lost its last mounts).
    /// - Complexity: O(*n*) in its bytes.
    public static func readToEnd(_ path: String, limit: Int = 4 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, limit - bytes.count)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        return bytes
    }

    /// Writes all of `bytes` to `fd`, retrying short writes; false when the descriptor fails.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            written += n
        }
        return true
    }

    /// Bytes a read call asks for first: each call that returns says the mount answers
    /// (`ReadWatch.progressed`), so a long read on a slow link is not taken for a stalled one.
    static let chunk = 64 << 10
    /// ...and at most, past a file's first `growsFrom` bytes: each call that came back within
    /// `quickRead` seconds asks for twice as much. On a FUSE mount a call's bytes are asked for
    /// together (the kernel sends its requests at once), so 64 KB calls held a 10 ms share to
    /// 26 MB/s where growing ones get 43-46 (BENCHMARKS.md).
    static let largestChunk = 1 << 20
    /// Past this many bytes of a file its reads may grow (`stop` is asked at each 64 KB before).
    static let growsFrom = 128 << 10
    /// A call that took less than this lets the next ask for twice as much (about twice as long:
    /// far from `ReadWatch.limit`, so the link would have to slow sixfold at once for a growing
    /// read to be taken for a stalled one); one that took over four times as long makes it ask for half.
    static let quickRead = 0.25

    /// Up to `count` bytes from `offset` (`pread`: the descriptor's offset stays) or, when nil, from
    /// the current position; fewer if the file shrank.
    /// - Complexity: O(*count*), in reads of `chunk` bytes growing to `largestChunk` (`nextChunk`).
    static func readUpTo(
        _ fd: Int32, count: Int, at offset: Int? = nil, progress: ((Int) -> Void)? = nil, stop: ((ArraySlice<UInt8>) -> Bool)? = nil
    ) -> [UInt8] {
        var data = [UInt8](repeating: 0, count: count)
        var filled = 0
        var size = chunk
        while filled < count {
            let asked = min(size, count - filled)
            let began = ProcessInfo.processInfo.systemUptime
            let n = data.withUnsafeMutableBytes { buffer in
                if let offset { return pread(fd, buffer.baseAddress! + filled, asked, off_t(offset + filled)) }
                return Glibc.read(fd, buffer.baseAddress! + filled, asked)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
            size = nextChunk(after: size, took: ProcessInfo.processInfo.systemUptime - began, filled: filled)
            ReadWatch.shared.progressed()
            progress?(n)
            if filled < count, let stop, stop(data[..<filled]) { break }
        }
        if filled < count { data.removeLast(count - filled) }
        return data
    }

    /// The bytes the next read call asks for, after one of `size` that took `took` seconds with
    /// `filled` bytes of the file in: twice as many when it came back quickly (past the
    /// header), half when slowly, between `chunk` and `largestChunk`.
    static func nextChunk(after size: Int, took: Double, filled: Int) -> Int {
        if filled >= growsFrom, took < quickRead { return min(largestChunk, size * 2) }
        if took > quickRead * 4 { return max(chunk, size / 2) }
        return size
    }
}
