/// A file path kept as the bytes the file system gave, so names that are not UTF-8 round-trip exactly.
public struct ImagePath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes in one call: the synthesized hash fed them one at a time, the most of what
    /// a large library's dictionaries of paths cost.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
    public init(_ string: String) { bytes = Array(string.utf8) }

    /// `self` with `component` appended after a slash.
    public func appending(_ component: [UInt8]) -> ImagePath {
        if bytes.isEmpty { return ImagePath(bytes: component) }
        return ImagePath(bytes: bytes.last == UInt8(ascii: "/") ? bytes + component : bytes + [UInt8(ascii: "/")] + component)
    }

    /// The last path component.
    public var lastComponent: ArraySlice<UInt8> {
        let end = bytes.last == UInt8(ascii: "/") && bytes.count > 1 ? bytes.count - 1 : bytes.count
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return bytes[start..<end]
    }

    /// The folder holding this path, `.` for a bare name.
    public var parent: ImagePath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ImagePath(".") }
        return slash == 0 ? ImagePath("/") : ImagePath(bytes: Array(bytes[..<slash]))
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Natural order: digit runs compare as numbers, so `IMG_2` sorts before `IMG_10`.
    public static func < (a: ImagePath, b: ImagePath) -> Bool { NaturalOrder.compare(a.bytes, b.bytes) < 0 }

    /// The path for display: lossy, and not yet sanitized for the terminal.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
