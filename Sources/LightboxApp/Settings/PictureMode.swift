import LightboxTerminal
import LightboxThumbnails

/// The state's part for how pictures are drawn: the mode, the modes `t` steps through, the
/// terminal's colours and cell size, and what follows from them (the symbol set, whether cells
/// are rendered, the pixels a cell is decoded at). Its own reducer steps the mode and takes a
/// new cell size.
public struct PictureMode: Sendable {
    public internal(set) var graphics: Graphics
    /// The modes `t` steps through: a pixel mode the terminal has, then the symbol sets.
    public let available: [Graphics]
    /// The colours the terminal shows; below true colour, cells are dithered to its palette.
    public let colorDepth: ColorDepth
    /// One cell's size in pixels, for the boxes of the pixel modes.
    public internal(set) var cellPixels: CellPixelSize
    /// The link to the terminal, in kbit/s, when the user said (`--link-speed`).
    public let statedLinkSpeed: Int?
    /// The link as the terminal writer measured it while pictures waited.
    public internal(set) var measuredLinkSpeed: Int?
    /// Pictures waiting to be written to the terminal (over a slow link, "on their way").
    public internal(set) var waiting = 0

    /// The link to the terminal in kbit/s: as the user said, else as measured; nil: fast.
    public var linkSpeed: Int? { statedLinkSpeed ?? measuredLinkSpeed }

    /// Below these speeds (kbit/s) pictures go at half, then a quarter, of their resolution.
    static let halfResolutionBelow = 20_000
    static let quarterResolutionBelow = 3_000

    init(graphics: Graphics, available: [Graphics], colorDepth: ColorDepth, cellPixels: CellPixelSize, linkSpeed: Int? = nil) {
        self.graphics = graphics
        self.available = available
        self.colorDepth = colorDepth
        self.cellPixels = cellPixels
        self.statedLinkSpeed = linkSpeed
    }

    /// The fraction of their resolution pictures are sent at (1, 2 or 4 for a half or a quarter):
    /// lower over a slow link, where the terminal scales them into the same cells.
    public var reduction: Int {
        guard let speed = linkSpeed, graphics.pixelProtocol?.scalesPictures == true else { return 1 }
        return speed < Self.quarterResolutionBelow ? 4 : speed < Self.halfResolutionBelow ? 2 : 1
    }

    /// The symbol set cells are rendered in: the mode's, or half blocks under a pixel mode (for
    /// a stand-in of another size while the right one decodes).
    public var symbols: SymbolSet { graphics.symbols ?? .half }

    /// Whether thumbnails need cells rendered by the provider (not just pixels).
    var wantsCells: Bool { !graphics.isPixels && SymbolCells.areNeeded(symbols: symbols, depth: colorDepth) }

    /// The pixels a cell's worth of picture is decoded at: the terminal's cell in a pixel mode,
    /// what chafa renders a cell from for cells, else half blocks (one by two).
    var pixelsPerCell: PixelSize {
        graphics.isPixels
            ? PixelSize(width: cellPixels.width, height: cellPixels.height)
            : wantsCells ? SymbolCells.pixelsPerCell : PixelSize(width: 1, height: 2)
    }

    /// Steps to the next available mode; returns it.
    mutating func step() -> Graphics {
        let modes = available.isEmpty ? Graphics.symbolModes : available
        graphics = modes.firstIndex(of: graphics).map { modes[($0 + 1) % modes.count] } ?? modes[0]
        return graphics
    }

    /// Takes what the writer measured and how many pictures wait.
    mutating func setOutput(waiting count: Int, measuredLinkSpeed speed: Int?) {
        waiting = count
        if let speed { measuredLinkSpeed = speed }
    }

    /// Takes the terminal's new cell size; false when it is the same.
    mutating func setCellPixels(_ size: CellPixelSize) -> Bool {
        guard size != cellPixels else { return false }
        cellPixels = size
        return true
    }
}
