#if canImport(Glibc)
    import Glibc
#endif

extension ImagePath {
    /// The folder relative paths are from (the app never changes folder), read once.
    static let workingFolder: [UInt8] = {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let found =
            buffer.withUnsafeMutableBufferPointer { getcwd(UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count) } != nil
        return found ? Array(buffer.prefix { $0 != 0 }) : Array("/".utf8)
    }()

    /// The path from the root, without empty or `.` components (`..` is kept: a link may make
    /// it mean another folder than its text's parent), so without a trailing slash (but the root's). The same file named from two folders
    /// gives the same bytes.
    /// - Complexity: O(*n*) in the bytes, in one pass (it is asked for every photo of a library).
    public var absoluteBytes: [UInt8] {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + (bytes.first == slash ? 0 : Self.workingFolder.count + 1))
        /// Appends the components of `part`, each after a slash, leaving out empty and `.` ones.
        func append(_ part: [UInt8]) {
            part.withUnsafeBufferPointer { all in
                var start = 0
                while start <= all.count {
                    var end = start
                    while end < all.count, all[end] != slash { end += 1 }
                    let length = end - start
                    if length > 0, length != 1 || all[start] != dot {
                        out.append(slash)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: all[start..<end]))
                    }
                    start = end + 1
                }
            }
        }
        if bytes.first != slash { append(Self.workingFolder) }
        append(bytes)
        return out.isEmpty ? [slash] : out
    }
}
