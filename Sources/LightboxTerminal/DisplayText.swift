/// Turns bytes and strings that came from data (file names, messages) into text safe to show:
/// controls, bidi controls and invalid UTF-8 are shown escaped, never interpreted; and every
/// character left is one ncurses draws in the cells `DisplayWidth` gives it (a base of width 1
/// or 2 and at most four combining marks after it, which `Frame.write` puts in one cell).
/// Flags, emoji sequences, variation selectors, lone marks and unassigned code points are
/// escaped (`\U0001f1eb`), so a name on screen is exactly the file's, cell for cell.
public enum DisplayText {
    /// Sanitized text for raw bytes, such as a file name from `readdir`.
    /// - Complexity: O(*n*).
    public static func sanitized<Bytes: Collection>(bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let bytes = Array(bytes)
        var result = ""
        var run = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeScalar(bytes, at: i) {
                run.append(scalar)
                i += length
            } else {
                appendGraphemes(of: String(run), to: &result)
                run = String.UnicodeScalarView()
                result += "\\x" + hex(bytes[i])
                i += 1
            }
        }
        appendGraphemes(of: String(run), to: &result)
        return result
    }

    /// `bytes` sanitized and shortened in the middle to `width` cells. Of a huge name only the
    /// ends that can show are read, so what a frame costs is bounded by what it shows.
    /// - Complexity: O(min(*n*, *width*)).
    public static func shortened<Bytes: RandomAccessCollection>(bytes: Bytes, toWidth width: Int) -> String where Bytes.Element == UInt8 {
        // At most 17 bytes make one cell (a base and four marks); a little more for each end.
        let side = 32 * max(1, width) + 64
        guard bytes.count > 2 * side else { return truncatedMiddle(sanitized(bytes: bytes), toWidth: width) }
        var headEnd = bytes.index(bytes.startIndex, offsetBy: side)
        var tailStart = bytes.index(bytes.endIndex, offsetBy: -side)
        // Never cut a UTF-8 sequence in two: the cut would show as escaped bytes that are not there.
        for _ in 0..<3 where bytes[headEnd] & 0xC0 == 0x80 { headEnd = bytes.index(before: headEnd) }
        for _ in 0..<3 where bytes[tailStart] & 0xC0 == 0x80 { tailStart = bytes.index(after: tailStart) }
        let text = sanitized(bytes: bytes[..<headEnd]) + "…" + sanitized(bytes: bytes[tailStart...])
        return truncatedMiddle(text, toWidth: width)
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
        appendGraphemes(of: text, to: &result)
        return result
    }

    /// Appends `text` scalar by scalar: each one that draws alone, and up to four combining marks
    /// after it (one ncurses cell), as it is; everything else escaped.
    static func appendGraphemes(of text: String, to result: inout String) {
        var cluster = 0  // scalars in the cell being filled; 0 after an escape or at the start
        for scalar in text.unicodeScalars {
            if drawsAlone(scalar) {
                cluster = 1
            } else if cluster > 0 && cluster < 5 && isCombining(scalar) {
                cluster += 1
            } else {
                result += escaped(scalar)
                cluster = 0
                continue
            }
            result.unicodeScalars.append(scalar)
        }
    }

    /// Whether `scalar` is shown as it is: a printable character of width 1 or 2 that neither
    /// joins its neighbours into another picture (regional indicators, skin tones), nor changes
    /// the direction of the text, nor is the kitty placeholder (which kitty would draw as a picture).
    static func drawsAlone(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return true }
        switch value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return false  // direction marks and overrides
        case 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF: return false  // regional indicators, emoji modifiers
        case 0x10EEEE: return false  // kitty's image placeholder
        default: return DisplayWidth.of(scalar) >= 1
        }
    }

    /// A mark ncurses adds to the cell before it: zero width, not a control (NUL is of width 0
    /// too), a format character or a variation selector (which change the width terminals give the base).
    static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0xA0, 0xFE00...0xFE0F, 0xE0100...0xE01EF: return false
        default: return DisplayWidth.of(scalar) == 0 && scalar.properties.generalCategory != .format
        }
    }

    /// `scalar` as an escape: `\x1b` for controls, `\u202e` in the basic plane, `\U0001f1eb` beyond.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0xA0 { return "\\x" + hex(UInt8(value)) }
        let digits = String(value, radix: 16)
        return value <= 0xFFFF
            ? "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            : "\\U" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// `text` shortened to `width` cells by replacing its middle with `…`; cut between cells, never
    /// between a character and its marks.
    /// - Complexity: O(*n*).
    public static func truncatedMiddle(_ text: String, toWidth width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var cells: [(glyph: String, width: Int)] = []
        DisplayWidth.forEachCell(of: text) {
            cells.append(($0, $1)); return true
        }
        let keep = width - 1
        let headWidth = (keep + 1) / 2
        var head = "", tail: [String] = []
        var used = 0
        for cell in cells {
            if used + cell.width > headWidth { break }
            head += cell.glyph; used += cell.width
        }
        var tailUsed = 0
        for cell in cells.reversed() {
            if used + tailUsed + cell.width > keep { break }
            tail.append(cell.glyph); tailUsed += cell.width
        }
        return head + "…" + tail.reversed().joined()
    }
}
