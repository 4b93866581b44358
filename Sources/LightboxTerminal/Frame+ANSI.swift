extension Frame {
    /// The frame as ANSI text with 24-bit colour, one line per row, for `--snapshot`.
    /// - Complexity: O(*w* × *h*).
    public var ansiText: String {
        var out = ""
        for y in 0..<height {
            var current: CellStyle? = nil
            for x in 0..<width {
                let cell = self[x, y]
                if cell.isContinuation { continue }
                if cell.style != current {
                    out += Self.sgr(cell.style)
                    current = cell.style
                }
                out += cell.glyph
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }

    /// The select-graphic-rendition sequence that sets `style` from scratch.
    static func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        if style.attributes.contains(.bold) { codes.append("1") }
        if style.attributes.contains(.dim) { codes.append("2") }
        if style.attributes.contains(.underline) { codes.append("4") }
        if style.attributes.contains(.reverse) { codes.append("7") }
        if case .rgb(let r, let g, let b) = style.foreground { codes.append("38;2;\(r);\(g);\(b)") }
        if case .indexed(let n) = style.foreground { codes.append("38;5;\(n)") }
        if case .rgb(let r, let g, let b) = style.background { codes.append("48;2;\(r);\(g);\(b)") }
        if case .indexed(let n) = style.background { codes.append("48;5;\(n)") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
