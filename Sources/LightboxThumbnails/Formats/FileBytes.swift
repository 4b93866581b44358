#if canImport(Glibc)
    import Glibc
#endif

/// A file's bytes for a parser that needs more than its start: the first ones at hand, the
/// rest read by position on demand (a movie's index often sits at its end).
public struct FileBytes {
    /// The file's first bytes (`MetadataReader.prefixLength` of them, or all of a shorter file).
    public let prefix: [UInt8]
    /// The file's length.
    public let count: Int
    private let reader: (_ offset: Int, _ count: Int) -> [UInt8]

    /// Bytes held in memory (tests, fuzzing).
    public init(_ bytes: [UInt8]) {
        prefix = Array(bytes.prefix(MetadataReader.prefixLength))
        count = bytes.count
        reader = { offset, count in Array(bytes[offset..<(offset + count)]) }
    }

    /// The file open as `fd`, `count` bytes long: its first `MetadataReader.prefixLength` read
    /// now, the rest on demand, all with `pread` (the descriptor's offset stays where it is).
    init(fd: Int32, count: Int) {
        self.init(prefix: FileReader.readUpTo(fd, count: min(count, MetadataReader.prefixLength), at: 0), fd: fd, count: count)
    }

    /// The file open as `fd`, `count` bytes long, whose first bytes `prefix` were read already
    /// (up to `MetadataReader.prefixLength` of them are kept); the rest on demand with `pread`.
    init(prefix: [UInt8], fd: Int32, count: Int) {
        self.prefix = Array(prefix.prefix(MetadataReader.prefixLength))
        self.count = count
        reader = { offset, count in FileReader.readUpTo(fd, count: count, at: offset) }
    }

    /// `body` given the regular file at `path` as bytes: its first `MetadataReader.prefixLength`
    /// read, the rest on demand while `body` runs.
    static func reading<T>(_ path: ImagePath, _ body: (FileBytes) -> T) -> Result<T, FileReader.Failure> {
        FileReader.withRegularFile(path, limit: .max) { fd, count in .success(body(FileBytes(fd: fd, count: count))) }
    }

    /// The `count` bytes at `offset`, or nil when they are not all in the file.
    public func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= self.count - count else { return nil }
        if offset + count <= prefix.count { return Array(prefix[offset..<(offset + count)]) }
        let data = reader(offset, count)
        return data.count == count ? data : nil
    }
}

extension Array where Element == UInt8 {
    /// The big-endian number of `width` bytes at `offset`, or nil past the end.
    func bigEndian(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, width <= 8, offset <= count - width else { return nil }
        var value: UInt64 = 0
        for i in offset..<(offset + width) { value = value << 8 | UInt64(self[i]) }
        return value
    }

    /// The four characters at `offset` (a box's or a chunk's type), or nil past the end.
    func fourCC(at offset: Int) -> String? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        return String(decoding: self[offset..<(offset + 4)], as: UTF8.self)
    }
}
