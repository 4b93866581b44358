/// A picture a frame shows in pixels (kitty graphics or sixel) over a rectangle of cells.
///
/// Two images are equal when they show the same picture at the same place; the pixels are not
/// compared, since the id names them.
public struct FrameImage: Hashable, Sendable {
    /// Names the picture while it stays in the app's cache; another picture gets another id.
    public var id: UInt32
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Row-major RGB, three bytes a pixel.
    public var pixels: [UInt8]
    /// The cell of the picture's top-left corner (it may lie above the frame when scrolled).
    public var x: Int
    public var y: Int
    /// Cells the whole picture covers.
    public var columns: Int
    public var rows: Int
    /// The picture's rows of cells that show (the rest is scrolled away or under a header).
    public var visibleRows: Range<Int>
    /// The picture's columns of cells that show (the rest is under a header card or an overlay).
    public var visibleColumns: Range<Int>
    /// Made for this frame (a zoomed crop) rather than kept in the app's cache: the terminal may
    /// drop it as soon as a frame no longer shows it.
    public var isTransient: Bool

    public init(
        id: UInt32, pixelWidth: Int, pixelHeight: Int, pixels: [UInt8], x: Int, y: Int, columns: Int, rows: Int,
        visibleRows: Range<Int>, visibleColumns: Range<Int>? = nil, isTransient: Bool = false
    ) {
        precondition(pixels.count == pixelWidth * pixelHeight * 3, "pixels do not match \(pixelWidth)x\(pixelHeight)")
        self.id = id
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pixels = pixels
        self.x = x
        self.y = y
        self.columns = columns
        self.rows = rows
        self.visibleRows = visibleRows
        self.visibleColumns = visibleColumns ?? 0..<columns
        self.isTransient = isTransient
    }

    /// Whether this is `image`, or some of its rows: the same picture at the same place.
    public func isPart(of image: FrameImage) -> Bool {
        id == image.id && x == image.x && y == image.y && columns == image.columns && rows == image.rows
            && visibleColumns == image.visibleColumns && pixelWidth == image.pixelWidth && pixelHeight == image.pixelHeight
            && image.visibleRows.contains(visibleRows)
    }

    /// The screen rows the image shows on.
    public var screenRows: Range<Int> { (y + visibleRows.lowerBound)..<(y + visibleRows.upperBound) }
    /// The screen columns the image shows on.
    public var screenColumns: Range<Int> { (x + visibleColumns.lowerBound)..<(x + visibleColumns.upperBound) }

    public static func == (a: FrameImage, b: FrameImage) -> Bool {
        a.id == b.id && a.x == b.x && a.y == b.y && a.columns == b.columns && a.rows == b.rows && a.visibleRows == b.visibleRows
            && a.visibleColumns == b.visibleColumns
            && a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(x)
        hasher.combine(y)
        hasher.combine(visibleRows.lowerBound)
        hasher.combine(visibleRows.upperBound)
    }
}

/// The size of one character cell in pixels.
public struct CellPixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// What most terminals' default fonts come close to, for when the terminal does not say.
    public static let standard = CellPixelSize(width: 10, height: 20)
}

extension Frame {
    /// Narrows each image to the largest rectangle of its shown cells that nothing was drawn over
    /// since (a pinned header, a header card, an overlay), so pixels never cover them; images
    /// left with nothing are dropped. `isImageCell` says whether a cell is still the image's.
    /// - Complexity: O(*c*) in the cells the images cover.
    public mutating func clipImages(keeping isImageCell: (Cell) -> Bool) {
        images = images.compactMap { image in
            var image = image
            func isClear(row: Int, column: Int) -> Bool {
                let x = image.x + column, y = image.y + row
                return contains(x: x, y: y) && isImageCell(self[x, y])
            }
            let columns = Self.longestRun(in: image.visibleColumns) { c in image.visibleRows.allSatisfy { isClear(row: $0, column: c) } }
            guard !columns.isEmpty else {
                // Covered somewhere in every column: keep the rows that are clear all across.
                let rows = Self.longestRun(in: image.visibleRows) { r in image.visibleColumns.allSatisfy { isClear(row: r, column: $0) } }
                guard !rows.isEmpty else { return nil }
                image.visibleRows = rows
                return image
            }
            image.visibleColumns = columns
            return image
        }
    }

    /// The longest run of consecutive values in `range` that satisfy `isKept`.
    static func longestRun(in range: Range<Int>, _ isKept: (Int) -> Bool) -> Range<Int> {
        var best = range.lowerBound..<range.lowerBound, start: Int? = nil
        for value in range {
            if isKept(value) {
                if start == nil { start = value }
                if value + 1 - start! > best.count { best = start!..<(value + 1) }
            } else {
                start = nil
            }
        }
        return best
    }
}

extension FrameImage {
    /// RGB `pixels` of `width` x `height` averaged over `factor` x `factor` squares (the last
    /// ones partial), for a slow link.
    /// - Complexity: O(*w* × *h*).
    public static func shrunk(_ pixels: [UInt8], width: Int, height: Int, by factor: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                var sum = (0, 0, 0), count = 0
                for sy in (y * factor)..<min(height, (y + 1) * factor) {
                    for sx in (x * factor)..<min(width, (x + 1) * factor) {
                        let i = (sy * width + sx) * 3
                        sum = (sum.0 + Int(pixels[i]), sum.1 + Int(pixels[i + 1]), sum.2 + Int(pixels[i + 2]))
                        count += 1
                    }
                }
                let o = (y * w + x) * 3
                out[o] = UInt8(sum.0 / count); out[o + 1] = UInt8(sum.1 / count); out[o + 2] = UInt8(sum.2 / count)
            }
        }
        return (out, w, h)
    }
}
