import LightboxTerminal
import LightboxThumbnails

extension GalleryState {
    /// The symbol set cells are rendered in: the mode's, or half blocks under a pixel mode (for
    /// a stand-in of another size while the right one decodes).
    public var symbols: SymbolSet { graphics.symbols ?? .half }

    /// Whether thumbnails need cells rendered by the provider (not just pixels).
    var wantsCells: Bool { !graphics.isPixels && SymbolCells.areNeeded(symbols: symbols, depth: colorDepth) }

    /// The pixels a cell's worth of picture is decoded at: the terminal's cell in a pixel mode,
    /// what chafa renders a cell from for cells, else half blocks (one by two).
    var pixelsPerCell: PixelSize {
        graphics.isPixels ? PixelSize(width: cellPixels.width, height: cellPixels.height)
            : wantsCells ? SymbolCells.pixelsPerCell : PixelSize(width: 1, height: 2)
    }

    /// Whether a cached thumbnail can be drawn as it is in the current mode.
    func isReady(_ thumbnail: Thumbnail) -> Bool {
        !wantsCells || thumbnail.cells?.matches(symbols, colorDepth) == true
    }

    /// The request for the item at `position` fitting `box`, in the current mode.
    func decodeRequest(item position: Int, box: PixelSize, symbolsAllowed: Bool = true) -> DecodeRequest {
        let cells = symbolsAllowed && wantsCells
        return DecodeRequest(id: library.id(at: position), file: library[position], box: box,
                             symbols: cells ? symbols : .half, depth: cells ? colorDepth : .trueColor)
    }

    /// The kitty image id of the picture with cache serial `serial`.
    public func imageID(serial: UInt32) -> UInt32 {
        KittyGraphics.imageID(serial: serial, directColor: colorDepth == .trueColor)
    }

    /// The kitty image id of the zoomed preview's crop in this frame.
    public var previewImageID: UInt32 {
        KittyGraphics.transientID(revision: previewRevision, directColor: colorDepth == .trueColor)
    }

    /// Steps to the next available mode.
    mutating func cycleGraphics() {
        let modes = availableGraphics.isEmpty ? Graphics.symbolModes : availableGraphics
        let next = modes.firstIndex(of: graphics).map { modes[($0 + 1) % modes.count] } ?? modes[0]
        setGraphics(next)
        message = "pictures in " + next.title
    }

    /// Draws pictures in `mode` from now on; a protocol whose terminal keeps pictures must hear
    /// of those that leave the memory cache.
    mutating func setGraphics(_ mode: Graphics) {
        graphics = mode
        thumbnails.recordsEvictions = mode.pixelProtocol?.keepsPictures == true
    }
}
