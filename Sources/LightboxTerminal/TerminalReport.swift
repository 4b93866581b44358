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
    /// Whether the device attributes came, which are asked last: every other answer is in by then.
    public var isComplete = false

    public init() {}

    /// The questions, device attributes last (every terminal answers them, so every other
    /// answer is in by then). Inside tmux the kitty query is not asked: tmux answers the device
    /// attributes at once, and the outer terminal's answer through passthrough would come after
    /// them, and be read as keys. (There, kitty is known from the environment.)
    public static func queries(inTmux: Bool) -> [UInt8] {
        (inTmux ? [] : KittyGraphics.query) + Array("\u{1B}[>0q\u{1B}[16t\u{1B}[?1;1;0S\u{1B}[c".utf8)
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

    mutating func readString(_ body: [UInt8], isAPC: Bool) {
        if isAPC, body.first == UInt8(ascii: "G") {
            let text = String(decoding: body.dropFirst(), as: UTF8.self)
            if text.contains("i=31"), text.hasSuffix(";OK") { hasKittyGraphics = true }
        } else if !isAPC, body.starts(with: Array(">|".utf8)) {
            name = DisplayText.sanitized(bytes: Array(body.dropFirst(2)))
        }
    }
}
