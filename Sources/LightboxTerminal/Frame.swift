/// A colour as the app means it; the backend maps it to what the terminal can show.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own default colour.
    case standard
    case rgb(UInt8, UInt8, UInt8)
    /// A colour of the terminal's palette by number (0–255), as dithered for 256- and 16-colour terminals.
    case indexed(UInt8)
}

/// Text attributes of a cell.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let reverse = CellAttributes(rawValue: 1 << 1)
    public static let underline = CellAttributes(rawValue: 1 << 2)
    public static let dim = CellAttributes(rawValue: 1 << 3)
}

/// How a cell looks: colours and attributes, without the glyph.
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: CellAttributes

    public init(foreground: TerminalColor = .standard, background: TerminalColor = .standard, attributes: CellAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = CellStyle()
}

/// One character cell. A wide glyph occupies its cell and marks the next one as a continuation.
public struct Cell: Hashable, Sendable {
    /// The glyph: one grapheme, or empty for the right half of a wide glyph.
    public var glyph: String
    public var style: CellStyle

    public init(_ glyph: String = " ", style: CellStyle = .plain) {
        self.glyph = glyph
        self.style = style
    }

    public var isContinuation: Bool { glyph.isEmpty }
    public static let blank = Cell()
}

/// A grid of cells: the contract between the app's view code and the terminal.
public struct Frame: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Pictures shown in pixels over some cells (kitty graphics, sixel), in drawing order.
    public var images: [FrameImage] = []

    public init(width: Int, height: Int, filling cell: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: cell, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set {
            guard x >= 0, x < width, y >= 0, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    /// Whether (x, y) is inside the frame.
    public func contains(x: Int, y: Int) -> Bool { x >= 0 && x < width && y >= 0 && y < height }

    /// Fills a rectangle with one cell; parts outside the frame are clipped.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell) {
        for row in max(0, y)..<min(height, y + h) where max(0, x) < min(width, x + w) {
            for column in max(0, x)..<min(width, x + w) { cells[row * width + column] = cell }
        }
    }

    /// Writes `text` from (x, y) rightwards, clipped at `maxWidth` cells and the frame's edge.
    /// The text must already be sanitized. Returns the number of cells written.
    /// - Complexity: O(*n*) in the length of `text`.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle, maxWidth: Int = .max) -> Int {
        guard y >= 0, y < height, maxWidth > 0 else { return 0 }
        let limit = min(width, x > Int.max - maxWidth ? Int.max : x + maxWidth)
        var column = x
        DisplayWidth.forEachCell(of: text) { glyph, w in
            if column + w > limit { return false }
            if column >= 0 {
                self[column, y] = Cell(glyph, style: style)
                if w == 2, column + 1 < width { self[column + 1, y] = Cell("", style: style) }
            }
            column += w
            return true
        }
        return column - x
    }

    /// The glyphs of each line, continuation cells skipped, trailing spaces kept.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !self[x, y].isContinuation { line += self[x, y].glyph }
            return line
        }
    }

    /// The lines joined by newlines, for text snapshots.
    public var text: String { lines.joined(separator: "\n") }
}
