#if canImport(Glibc)
    import Glibc
#endif

/// The process's environment as the bytes the kernel gave: a folder named in `HOME` or
/// `XDG_CACHE_HOME` that is not UTF-8 stays the folder it names.
public enum EnvironmentVariable {
    /// The value of `name`, nil when it is unset or empty.
    public static func bytes(_ name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value)))
        return bytes.isEmpty ? nil : bytes
    }

    /// A folder the variable names: an absolute path, or nil.
    public static func folder(_ name: String) -> ImagePath? {
        bytes(name).flatMap { $0.first == UInt8(ascii: "/") ? ImagePath(bytes: $0) : nil }
    }
}
