#if canImport(Glibc)
    import Glibc
#endif

extension ImagePath {
    /// Opens the path with `open(2)`'s `flags`; a path too long for the kernel (past `PATH_MAX`)
    /// is opened one folder at a time with `openat`. Returns the descriptor, or -1 with `errno` set.
    public func open(_ flags: Int32) -> Int32 {
        guard bytes.count >= Int(PATH_MAX) else { return withCString { Glibc.open($0, flags) } }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard let last = components.last else { return withCString { Glibc.open($0, flags) } }
        var folder = bytes.first == UInt8(ascii: "/") ? Glibc.open("/", Self.pathOnly | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD
        for component in components.dropLast() {
            guard folder >= 0 || folder == AT_FDCWD else { return -1 }
            let next = Self.openat(folder, component, Self.pathOnly | O_DIRECTORY | O_CLOEXEC)
            let error = errno
            if folder != AT_FDCWD { close(folder) }
            errno = error
            folder = next
        }
        guard folder >= 0 || folder == AT_FDCWD else { return -1 }
        let fd = Self.openat(folder, last, flags)
        let error = errno
        if folder != AT_FDCWD { close(folder) }
        errno = error
        return fd
    }

    /// Linux's `O_PATH` (Glibc hides it behind `_GNU_SOURCE`): a folder to walk through needs search
    /// permission only, not read.
    static let pathOnly: Int32 = 0o10000000

    static func openat(_ folder: Int32, _ name: ArraySlice<UInt8>, _ flags: Int32) -> Int32 {
        (Array(name) + [0]).withUnsafeBufferPointer {
            Glibc.openat(folder, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), flags)
        }
    }
}
