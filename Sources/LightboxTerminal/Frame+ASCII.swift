extension Frame {
    /// ASCII stand-ins for the symbols the views use.
    static let asciiSymbols: [String: String] = [
        "✓": "*", "⋯": ".", "✗": "x", "⚠": "!", "▍": "#", "▐": "[", "▌": "]", "▕": "|", "▏": "|",
        "·": "-", "…": "~", "←": "<", "→": ">", "↑": "^", "↓": "v",
    ]

    /// The frame for a terminal that shows only ASCII (a C locale): half-block pictures become
    /// cells of their two pixels' average colour, symbols become ASCII, anything else `?`.
    /// - Complexity: O(*w* × *h*).
    public func asciiOnly() -> Frame {
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                var cell = self[x, y]
                if cell.glyph == "▀" {
                    cell = Cell(
                        " ",
                        style: CellStyle(
                            background: Self.average(cell.style.foreground, cell.style.background),
                            attributes: cell.style.attributes))
                } else if cell.isContinuation {
                    cell.glyph = "?"
                } else if !cell.glyph.unicodeScalars.allSatisfy({ $0.isASCII }) {
                    cell.glyph = Self.asciiSymbols[cell.glyph] ?? "?"
                }
                out[x, y] = cell
            }
        }
        return out
    }

    static func average(_ a: TerminalColor, _ b: TerminalColor) -> TerminalColor {
        guard case .rgb(let r1, let g1, let b1) = a, case .rgb(let r2, let g2, let b2) = b else { return b }
        return .rgb(UInt8((Int(r1) + Int(r2)) / 2), UInt8((Int(g1) + Int(g2)) / 2), UInt8((Int(b1) + Int(b2)) / 2))
    }
}
