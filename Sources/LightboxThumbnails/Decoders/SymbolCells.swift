import CChafa

/// The glyphs a picture is drawn with in the terminal.
public enum SymbolSet: String, Hashable, Sendable, CaseIterable {
    /// Upper half blocks, two pixels a cell: drawn by Lightbox itself, everywhere.
    case half
    /// Quadrants (and halves): four pixels a cell, in most fonts.
    case quadrant
    /// Sextants: six pixels a cell; they need a font that has them (Unicode 13).
    case sextant
    /// Braille dots: fine lines, few colours.
    case braille
    /// Letters and punctuation only, for terminals and fonts without block glyphs.
    case ascii

    var chafaValue: Int32 {
        switch self {
        case .half: Int32(LB_SYMBOLS_HALF)
        case .quadrant: Int32(LB_SYMBOLS_QUADRANT)
        case .sextant: Int32(LB_SYMBOLS_SEXTANT)
        case .braille: Int32(LB_SYMBOLS_BRAILLE)
        case .ascii: Int32(LB_SYMBOLS_ASCII)
        }
    }
}

/// How many colours the terminal shows, and so what cells are rendered in.
public enum ColorDepth: Hashable, Sendable {
    /// 24-bit colour: cells carry 0xRRGGBB.
    case trueColor
    /// The xterm palettes of 256, 16 and 8 colours: cells carry dithered palette numbers.
    case indexed256, indexed16, indexed8

    var chafaValue: Int32 {
        switch self {
        case .trueColor: Int32(LB_DEPTH_TRUECOLOR)
        case .indexed256: Int32(LB_DEPTH_256)
        case .indexed16: Int32(LB_DEPTH_16)
        case .indexed8: Int32(LB_DEPTH_8)
        }
    }
}

/// A picture rendered as terminal cells by libchafa: a glyph and two colours a cell.
public struct SymbolCells: Hashable, Sendable {
    /// Pixels decoded for each cell chafa renders: enough for it to choose among quadrants and
    /// sextants, and to dither (from one pixel by two it dithers noise).
    public static let pixelsPerCell = PixelSize(width: 4, height: 8)

    /// Whether pictures in `symbols` at `depth` need cells rendered by chafa: all but half blocks
    /// in true colour, which the view draws from the pixels itself.
    public static func areNeeded(symbols: SymbolSet, depth: ColorDepth) -> Bool { symbols != .half || depth != .trueColor }

    /// The cells a request's box holds, for a box of `pixelsPerCell` a cell.
    public static func cells(inBox box: PixelSize) -> (columns: Int, rows: Int) {
        (max(1, box.width / pixelsPerCell.width), max(1, box.height / pixelsPerCell.height))
    }

    public var symbols: SymbolSet
    /// Whether colours are 0xRRGGBB or palette numbers.
    public var depth: ColorDepth
    public var columns: Int
    public var rows: Int
    /// Code points, row by row.
    public var glyphs: [UInt32]
    /// Foreground and background of each cell, as 0xRRGGBB.
    public var colors: [UInt32]

    public init(symbols: SymbolSet, depth: ColorDepth = .trueColor, columns: Int, rows: Int, glyphs: [UInt32], colors: [UInt32]) {
        precondition(glyphs.count == columns * rows && colors.count == 2 * glyphs.count, "cells do not match \(columns)x\(rows)")
        self.symbols = symbols
        self.depth = depth
        self.columns = columns
        self.rows = rows
        self.glyphs = glyphs
        self.colors = colors
    }

    /// The glyph and colours of cell (x, y): 0xRRGGBB, or palette numbers (see `depth`).
    public func cell(x: Int, y: Int) -> (glyph: Character, foreground: UInt32, background: UInt32) {
        let i = y * columns + x
        let glyph = Unicode.Scalar(glyphs[i]).map(Character.init) ?? " "
        return (glyph, colors[i * 2], colors[i * 2 + 1])
    }

    /// Whether these cells are `symbols` in `depth`.
    public func matches(_ symbols: SymbolSet, _ depth: ColorDepth) -> Bool { self.symbols == symbols && self.depth == depth }

    /// `thumbnail` rendered in `columns` by `rows` cells of `symbols` at `depth`; nil when chafa cannot.
    /// - Complexity: O(*w* × *h*) in the pixels, plus chafa's symbol matching per cell.
    public static func render(_ thumbnail: Thumbnail, columns: Int, rows: Int, symbols: SymbolSet, depth: ColorDepth = .trueColor) -> SymbolCells? {
        guard columns > 0, rows > 0, columns * rows <= 1 << 20, thumbnail.width > 0, thumbnail.height > 0 else { return nil }
        var glyphs = [UInt32](repeating: 32, count: columns * rows)
        var colors = [UInt32](repeating: 0, count: columns * rows * 2)
        // Chafa reads rows at four-byte boundaries: rows of other lengths are padded.
        let row = thumbnail.width * 3, stride = (row + 3) & ~3
        var pixels = thumbnail.pixels
        if stride != row {
            pixels = []
            pixels.reserveCapacity(stride * thumbnail.height)
            for y in 0..<thumbnail.height {
                pixels += thumbnail.pixels[(y * row)..<((y + 1) * row)]
                pixels += [UInt8](repeating: 0, count: stride - row)
            }
        }
        let result = pixels.withUnsafeBufferPointer { pixels in
            lb_chafa_render(
                pixels.baseAddress, Int32(thumbnail.width), Int32(thumbnail.height), Int32(stride), Int32(columns),
                Int32(rows), symbols.chafaValue, depth.chafaValue, &glyphs, &colors)
        }
        guard result == 0 else { return nil }
        return SymbolCells(symbols: symbols, depth: depth, columns: columns, rows: rows, glyphs: glyphs, colors: colors)
    }
}
