import LightboxTerminal
import LightboxThumbnails

extension GalleryState {
    /// The symbol set cells are rendered in (see `PictureMode.symbols`).
    public var symbols: SymbolSet { pictures.symbols }
    var wantsCells: Bool { pictures.wantsCells }
    var pixelsPerCell: PixelSize { pictures.pixelsPerCell }

    /// Whether a cached thumbnail can be drawn as it is in the current mode.
    func isReady(_ thumbnail: Thumbnail) -> Bool {
        !wantsCells || thumbnail.cells?.matches(symbols, pictures.colorDepth) == true
    }

    /// The request for the item at `position` fitting `box`, in the current mode.
    func decodeRequest(item position: Int, box: PixelSize, symbolsAllowed: Bool = true) -> DecodeRequest {
        let cells = symbolsAllowed && wantsCells
        return DecodeRequest(
            id: library.id(at: position), file: library[position], box: box,
            symbols: cells ? symbols : .half, depth: cells ? pictures.colorDepth : .trueColor, turns: turns(at: position))
    }

    /// The kitty image id of the picture with cache serial `serial`.
    public func imageID(serial: UInt32) -> UInt32 {
        KittyGraphics.imageID(serial: serial, directColor: pictures.colorDepth == .trueColor)
    }

    /// The kitty image id of the zoomed preview's crop in this frame.
    public var previewImageID: UInt32 {
        KittyGraphics.transientID(revision: previewRevision, directColor: pictures.colorDepth == .trueColor)
    }

    /// Steps to the next available mode.
    mutating func cycleGraphics() {
        let next = pictures.step()
        setGraphics(next)
        message = "pictures in " + next.title
    }

    /// Draws pictures in `mode` from now on; a protocol whose terminal keeps pictures must hear
    /// of those that leave the memory cache.
    mutating func setGraphics(_ mode: Graphics) {
        pictures.graphics = mode
        store.recordEvictions(mode.pixelProtocol?.keepsPictures == true)
    }
}
