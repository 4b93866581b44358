import Dispatch

/// How pictures are encoded for one terminal: its protocol, tmux, its cells' pixels, its sixel
/// registers, the link's reduction. A value, so pictures can be made on another thread exactly
/// as the painter would make them (`PictureEncoder`). No I/O.
public struct PictureEncoding: Hashable, Sendable {
    public var mode: PixelProtocol?
    public var inTmux: Bool
    public var cellPixels: CellPixelSize
    public var colorRegisters: Int
    public var reduction: Int

    /// A picture's bytes as the terminal takes them: a kitty transmission (with the offsets
    /// between its chunks), or the sixel string or iTerm2 image of its shown part.
    public struct Prepared: Sendable {
        public var bytes: [UInt8]
        public var breaks: [Int] = []
        /// The kitty image transmitted, to send it ahead of the frame showing it.
        public var image: FrameImage?
    }

    /// `image` made for the terminal: a kitty transmission of the whole picture, else its shown part.
    /// - Complexity: O(pixels).
    public func prepared(_ image: FrameImage) -> Prepared {
        switch mode {
        case .kitty:
            let chunks = KittyGraphics.transmissionChunks(reduced(image), inTmux: inTmux)
            var breaks: [Int] = [], offset = 0
            for chunk in chunks.dropLast() {
                offset += chunk.count
                breaks.append(offset)
            }
            return Prepared(bytes: Array(chunks.joined()), breaks: breaks, image: image)
        case .sixel: return Prepared(bytes: sixel(image))
        case .iterm: return Prepared(bytes: iterm(image))
        case nil: return Prepared(bytes: [])
        }
    }

    /// `images` made for the terminal, each on a core of its own when there are several (each is
    /// a value: nothing is shared but this encoding, which is one too), in their order.
    /// - Complexity: O(pixels), over the cores.
    public func preparedSideBySide(_ images: [FrameImage]) -> [Prepared] {
        guard images.count > 1 else { return images.map(prepared) }
        var out = [Prepared](repeating: Prepared(bytes: []), count: images.count)
        out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: images.count) { index in slots[index] = prepared(images[index]) }
        }
        return out
    }

    /// The pixels of a picture's shown part, and their width and height; nil when none shows.
    func shownPart(_ image: FrameImage) -> (pixels: [UInt8], width: Int, height: Int)? {
        let left = image.visibleColumns.lowerBound * cellPixels.width
        let right = min(image.pixelWidth, image.visibleColumns.upperBound * cellPixels.width)
        let top = image.visibleRows.lowerBound * cellPixels.height
        let bottom = min(image.pixelHeight, image.visibleRows.upperBound * cellPixels.height)
        guard left < right, top < bottom, image.screenRows.lowerBound >= 0, image.screenColumns.lowerBound >= 0 else { return nil }
        var crop: [UInt8] = []
        crop.reserveCapacity((right - left) * (bottom - top) * 3)
        for y in top..<bottom {
            let start = (y * image.pixelWidth + left) * 3
            crop += image.pixels[start..<(start + (right - left) * 3)]
        }
        return (crop, right - left, bottom - top)
    }

    /// One picture's shown part as sixel.
    func sixel(_ image: FrameImage) -> [UInt8] {
        guard let part = shownPart(image) else { return [] }
        return Sixel.encode(pixels: part.pixels, width: part.width, registers: colorRegisters)
    }

    /// One picture's shown part as an iTerm2 image over the cells it shows in.
    func iterm(_ image: FrameImage) -> [UInt8] {
        guard var part = shownPart(image) else { return [] }
        if reduction > 1 { part = FrameImage.shrunk(part.pixels, width: part.width, height: part.height, by: reduction) }
        return ITermImages.encode(
            pixels: part.pixels, width: part.width, height: part.height,
            columns: image.screenColumns.count, rows: image.screenRows.count, inTmux: false)
    }

    /// `image` at 1/`reduction` of its resolution, for the terminal to scale into the same cells.
    func reduced(_ image: FrameImage) -> FrameImage {
        guard reduction > 1, mode?.scalesPictures == true else { return image }
        var copy = image
        let small = FrameImage.shrunk(image.pixels, width: image.pixelWidth, height: image.pixelHeight, by: reduction)
        (copy.pixels, copy.pixelWidth, copy.pixelHeight) = (small.pixels, small.width, small.height)
        return copy
    }
}

/// A picture as the painter keeps it encoded: its id and the part of it shown (a kitty image:
/// the whole of it).
public struct PictureKey: Hashable, Sendable {
    var id: UInt32
    var rows: Range<Int>
    var columns: Range<Int>

    init(id: UInt32, rows: Range<Int>, columns: Range<Int>) {
        self.id = id
        self.rows = rows
        self.columns = columns
    }

    /// A kitty image's: transmitted whole, whatever shows.
    init(kittyImage image: FrameImage) { self.init(id: image.id, rows: 0..<image.rows, columns: 0..<image.columns) }
}
