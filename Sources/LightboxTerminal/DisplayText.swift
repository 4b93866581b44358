/// Turns bytes and strings that came from data (file names, messages) into text safe to show:
/// controls, bidi overrides and invalid UTF-8 are shown escaped, never interpreted.
public enum DisplayText {
    /// Sanitized text for raw bytes, such as a file name from `readdir`.
    /// - Complexity: O(*n*).
    public static func sanitized<Bytes: Collection>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var result = ""
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeScalar(bytes, at: i) {
                append(scalar, to: &result)
                i += length
            } else {
                result += "\\x" + hex(bytes[i])
                i += 1
            }
        }
        return result
    }

    /// The well-formed UTF-8 scalar starting at `i`, and its length; nil when the bytes there are not one.
    static func decodeScalar(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// Sanitized text for a Swift string.
    public static func sanitized(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        let v = scalar.value
        if v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v) {
            result += "\\x" + hex(UInt8(v))
        } else if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
            result += "\\u" + String(v, radix: 16)
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// `text` shortened to `width` cells by replacing its middle with `…`.
    /// - Complexity: O(*n*).
    public static func truncatedMiddle(_ text: String, toWidth width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        let characters = Array(text)
        let keep = width - 1
        let headWidth = (keep + 1) / 2
        var head = "", tail = ""
        var used = 0
        for c in characters {
            let w = DisplayWidth.of(c)
            if used + w > headWidth { break }
            head.append(c); used += w
        }
        var tailUsed = 0
        for c in characters.reversed() {
            let w = DisplayWidth.of(c)
            if used + tailUsed + w > keep { break }
            tail.insert(c, at: tail.startIndex); tailUsed += w
        }
        return head + "…" + tail
    }
}

