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
    /// it mean another folder than its text's parent). The same file named from two folders
    /// gives the same bytes.
    public var absoluteBytes: [UInt8] {
        let slash = UInt8(ascii: "/")
        let whole = bytes.first == slash ? bytes : Self.workingFolder + [slash] + bytes
        var out: [UInt8] = []
        out.reserveCapacity(whole.count)
        for part in whole.split(separator: slash) where part != [UInt8(ascii: ".")] {
            out.append(slash)
            out += part
        }
        return out.isEmpty ? [slash] : out
    }
}
