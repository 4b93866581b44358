/// Terminal cell widths of characters, independent of the C locale.
public enum DisplayWidth {
    /// Cells taken by one grapheme: 0 for controls and lone combining marks, 2 for wide East Asian and emoji.
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return isWide(scalar.value) || character.unicodeScalars.contains { $0.value == 0xFE0F } ? 2 : 1
    }

    /// Total cells taken by `text`.
    public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x231A...0x231B).contains(v) || (0x2E80...0x303E).contains(v)
            || (0x3041...0x33FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xA000...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v) || (0x1F680...0x1F6FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
    }
}
