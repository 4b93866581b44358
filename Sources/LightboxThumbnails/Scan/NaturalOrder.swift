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

extension NaturalOrder {
    /// Appends to `key` a byte string whose plain byte order is `compare`'s order: each digit run
    /// becomes `0x30, significant length, significant digits, whole length`, letters fold to lower
    /// case, and a 0 byte then the raw bytes break ties. Names of up to 255 bytes only.
    static func appendKey(of name: UnsafeBufferPointer<UInt8>, to key: inout [UInt8]) {
        var i = 0
        while i < name.count {
            if isDigit(name[i]) {
                var significant = i
                while significant < name.count && name[significant] == UInt8(ascii: "0") { significant += 1 }
                var end = significant
                while end < name.count && isDigit(name[end]) { end += 1 }
                key.append(UInt8(ascii: "0"))
                key.append(UInt8(min(255, end - significant)))
                key.append(contentsOf: name[significant..<end])
                key.append(UInt8(min(255, end - i)))
                i = end
            } else {
                key.append(folded(name[i]))
                i += 1
            }
        }
        key.append(0)
        key.append(contentsOf: name)
    }
}
