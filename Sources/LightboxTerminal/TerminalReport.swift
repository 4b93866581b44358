/// A colour, 8 bits a channel.
public struct RGB: Hashable, Sendable {
    public var red, green, blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Whether dark text reads better on it than light (relative luminance above 0.5, by the
    /// sRGB weights, as terminals' own light/dark detection does).
    public var isLight: Bool {
        0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue) > 127.5
    }

    /// The background `COLORFGBG` names ("15;0": foreground 15 on background 0), as rxvt and
    /// Konsole set it (the last field is the background): palette colours 7 (light grey) and 15
    /// (white) are light, the rest dark. Nil when unset or unreadable.
    public static func background(colorFGBG value: String?) -> RGB? {
        guard let last = value?.split(separator: ";").last, let index = Int(last), (0...255).contains(index) else { return nil }
        return index == 7 || index == 15 ? RGB(255, 255, 255) : RGB(0, 0, 0)
    }
}

/// What a terminal said about itself when asked (see `TerminalReport.queries`).
public struct TerminalReport: Hashable, Sendable {
    /// It answered the kitty graphics query with OK.
    public var hasKittyGraphics = false
    /// Its primary device attributes include 4 (sixel graphics).
    public var hasSixel = false
    /// Its name and version (XTVERSION), sanitized.
    public var name: String?
    /// Its cell size in pixels (the reply to CSI 16 t).
    public var cellPixels: CellPixelSize?
    /// How many sixel colour registers it has (XTSMGRAPHICS).
    public var colorRegisters: Int?
    /// Its default background colour (the reply to OSC 11), 8 bits a channel.
    public var background: RGB?
    /// Whether the device attributes came, which are asked last: every other answer is in by then.
    public var isComplete = false
    /// Seconds from the queries to the complete answer: the link's round trip.
    public var roundTrip: Double?

    public init() {}

    /// The questions, device attributes last (every terminal answers them, so every other
    /// answer is in by then). Inside tmux the kitty query is not asked: tmux answers the device
    /// attributes at once, and the outer terminal's answer through passthrough would come after
    /// them, and be read as keys. (There, kitty is known from the environment.)
    public static func queries(inTmux: Bool) -> [UInt8] {
        (inTmux ? [] : KittyGraphics.query) + Array("\u{1B}[>0q\u{1B}[16t\u{1B}[?1;1;0S\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)
    }

    /// Reads the replies in `bytes`; anything else is skipped.
    /// - Complexity: O(*n*).
    public init(parsing bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else { i += 1; continue }
            let kind = bytes[i + 1]
            if kind == 0x5B {  // CSI: parameters, then a final byte
                var j = i + 2
                while j < bytes.count && !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                readControlSequence(Array(bytes[(i + 2)..<j]), final: bytes[j])
                i = j + 1
            } else if kind == 0x5D {  // OSC, up to BEL or ESC \
                var j = i + 2
                while j < bytes.count && bytes[j] != 0x07 && !(bytes[j] == 0x1B && j + 1 < bytes.count && bytes[j + 1] == 0x5C) { j += 1 }
                guard j < bytes.count, bytes[j] == 0x07 || j + 1 < bytes.count else { break }
                readOperatingSystemCommand(Array(bytes[(i + 2)..<j]))
                i = j + (bytes[j] == 0x07 ? 1 : 2)
            } else if kind == 0x5F || kind == 0x50 {  // APC or DCS, up to ESC \
                var j = i + 2
                while j + 1 < bytes.count && !(bytes[j] == 0x1B && bytes[j + 1] == 0x5C) { j += 1 }
                guard j + 1 < bytes.count else { break }
                readString(Array(bytes[(i + 2)..<j]), isAPC: kind == 0x5F)
                i = j + 2
            } else {
                i += 1
            }
        }
    }

    mutating func readControlSequence(_ body: [UInt8], final: UInt8) {
        let text = String(decoding: body, as: UTF8.self)
        switch final {
        case UInt8(ascii: "c") where text.hasPrefix("?"):
            let attributes = text.dropFirst().split(separator: ";").compactMap { Int($0) }
            hasSixel = attributes.dropFirst().contains(4)  // the first is the terminal's class
            isComplete = true
        case UInt8(ascii: "t"):
            let numbers = text.split(separator: ";").compactMap { Int($0) }
            if numbers.count == 3, numbers[0] == 6, numbers[1] > 0, numbers[2] > 0 {
                cellPixels = CellPixelSize(width: numbers[2], height: numbers[1])
            }
        case UInt8(ascii: "S") where text.hasPrefix("?"):
            let numbers = text.dropFirst().split(separator: ";").compactMap { Int($0) }
            if numbers.count == 3, numbers[0] == 1, numbers[1] == 0, numbers[2] > 0 { colorRegisters = numbers[2] }
        default: break
        }
    }

    /// `11;rgb:RRRR/GGGG/BBBB` (1 to 4 hex digits a channel, as XParseColor reads them).
    mutating func readOperatingSystemCommand(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        guard text.hasPrefix("11;rgb:") else { return }
        let channels = text.dropFirst("11;rgb:".count).split(separator: "/", omittingEmptySubsequences: false)
        let values = channels.compactMap { digits -> UInt8? in
            guard (1...4).contains(digits.count), let value = Int(digits, radix: 16) else { return nil }
            let maximum = (1 << (4 * digits.count)) - 1
            return UInt8((value * 255 + maximum / 2) / maximum)
        }
        guard channels.count == 3, values.count == 3 else { return }
        background = RGB(values[0], values[1], values[2])
    }

    mutating func readString(_ body: [UInt8], isAPC: Bool) {
        if isAPC, body.first == UInt8(ascii: "G") {
            let text = String(decoding: body.dropFirst(), as: UTF8.self)
            if text.contains("i=31"), text.hasSuffix(";OK") { hasKittyGraphics = true }
        } else if !isAPC, body.starts(with: Array(">|".utf8)) {
            name = DisplayText.sanitized(bytes: Array(body.dropFirst(2)))
        }
    }
}
