/// A file path kept as the bytes the file system gave, so names that are not UTF-8 round-trip exactly.
public struct ImagePath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
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

/// Comparison of byte strings in natural order.
public enum NaturalOrder {
    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    /// - Complexity: O(*n*).
    public static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                var i2 = i, j2 = j
                while i2 < a.count && a[i2] == UInt8(ascii: "0") { i2 += 1 }
                while j2 < b.count && b[j2] == UInt8(ascii: "0") { j2 += 1 }
                var ie = i2, je = j2
                while ie < a.count && isDigit(a[ie]) { ie += 1 }
                while je < b.count && isDigit(b[je]) { je += 1 }
                if ie - i2 != je - j2 { return (ie - i2) - (je - j2) }
                for k in 0..<(ie - i2) where a[i2 + k] != b[j2 + k] { return Int(a[i2 + k]) - Int(b[j2 + k]) }
                if ie - i != je - j { return (ie - i) - (je - j) }  // fewer leading zeros first
                i = ie; j = je
            } else {
                let x = folded(a[i]), y = folded(b[j])
                if x != y { return Int(x) - Int(y) }
                i += 1; j += 1
            }
        }
        if a.count - i != b.count - j { return (a.count - i) - (b.count - j) }
        return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    static func folded(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }
}
