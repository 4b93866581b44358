import CWidth

/// Terminal cell widths, measured as ncurses and the terminal measure them: the C library's
/// `wcwidth` in a UTF-8 locale (whatever the process's own locale is).
public enum DisplayWidth {
    /// Cells taken by one grapheme as `Frame.write` lays it out (see `forEachCell(of:_:)`).
    public static func of(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + max(0, of($1)) }
    }

    /// Calls `body` with each cell `text` takes, as ncurses draws it, until `body` returns false:
    /// each scalar of width 1 or 2 starts a cell, with up to four marks of width 0 that follow it.
    /// Marks with no cell before them, and what cannot be shown, are left out (sanitized text has none).
    /// - Complexity: O(*n*) in the cells visited.
    public static func forEachCell(of text: String, _ body: (_ glyph: String, _ width: Int) -> Bool) {
        var glyph = String.UnicodeScalarView(), width = 0, marks = 0
        for scalar in text.unicodeScalars {
            let w = of(scalar)
            if w >= 1 {
                if width > 0, !body(String(glyph), width) { return }
                glyph = String.UnicodeScalarView([scalar])
                width = w
                marks = 0
            } else if w == 0, scalar.value >= 0xA0, width > 0, marks < 4 {
                glyph.append(scalar)
                marks += 1
            }
        }
        if width > 0 { _ = body(String(glyph), width) }
    }

    /// Cells `scalar` takes alone: 1 or 2, 0 for a combining mark or a format character, -1 for
    /// what cannot be shown (a control, an unassigned code point).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        let width = Int(lb_wcwidth(value))
        return width >= -1 ? width : fallbackWidth(scalar)
    }

    /// Total cells taken by `text`.
    public static func of(_ text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + max(0, of($1)) } }

    /// Widths where the C library has no UTF-8 locale: a table of the wide ranges.
    static func fallbackWidth(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { return -1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        case .unassigned: return -1
        default: return isWide(scalar.value) ? 2 : 1
        }
    }

    static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x231A...0x231B).contains(v) || (0x2E80...0x303E).contains(v)
            || (0x3041...0x33FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xA000...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v) || (0x1F680...0x1F6FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
    }
}
