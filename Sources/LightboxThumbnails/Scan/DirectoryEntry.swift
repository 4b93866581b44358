#if canImport(Glibc)
    import Glibc
#endif

/// What `readdir` hands out, read without going past the entry.
///
/// glibc packs entries into its buffer at their own length (`d_reclen`), not `dirent`'s: a copy
/// of the whole struct, or of its 256-byte `d_name`, reads past a short name, and past the end
/// of the buffer when the entry is the last before an unmapped page (a crash seen on folders of
/// 1,000 files while the gallery was busy).
public enum DirectoryEntry {
    /// The entry's name: the bytes before its terminating zero, valid until the next `readdir`.
    /// - Complexity: O(*m*) in the name's length.
    public static func name(_ entry: UnsafePointer<dirent>) -> UnsafeBufferPointer<UInt8> {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }

    /// Whether the walk leaves a name out of its folder: hidden, a dot first (`.` and `..` too).
    public static func isHidden(_ name: some Collection<UInt8>) -> Bool { name.first == UInt8(ascii: ".") }

    /// The entry's type (`DT_REG`, `DT_DIR`, …; `DT_UNKNOWN` where the file system does not say).
    public static func type(_ entry: UnsafePointer<dirent>) -> UInt8 {
        let at = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_type)!
        return at.load(as: UInt8.self)
    }
}
