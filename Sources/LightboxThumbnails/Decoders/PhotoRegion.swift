/// A part of a photo, as fractions of its width and height in 65,536ths (0, 0, 65536, 65536 is
/// the whole photo): what a zoomed view decodes at full resolution. Fractions, not pixels, so a
/// region means the same on the photo's own pixels and on a RAW's smaller embedded preview.
public struct PhotoRegion: Hashable, Sendable {
    public static let one = 65_536
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A region held to the photo, at least one unit a side.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = min(Self.one - 1, max(0, x))
        self.y = min(Self.one - 1, max(0, y))
        self.width = min(Self.one - self.x, max(1, width))
        self.height = min(Self.one - self.y, max(1, height))
    }

    /// The region from fractions (0...1) of the photo.
    public init(fromX x0: Double, y y0: Double, toX x1: Double, y y1: Double) {
        let one = Double(Self.one)
        let left = Int((min(x0, x1) * one).rounded(.down)), top = Int((min(y0, y1) * one).rounded(.down))
        self.init(x: left, y: top, width: Int((max(x0, x1) * one).rounded(.up)) - left, height: Int((max(y0, y1) * one).rounded(.up)) - top)
    }

    public static let whole = PhotoRegion(x: 0, y: 0, width: one, height: one)

    /// Where it ends, in 65,536ths.
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// Whether `other` lies inside it.
    public func contains(_ other: PhotoRegion) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The same part of the picture before `orientation` (EXIF's 1 to 8) was applied to it: the
    /// region of the stored picture that `Thumbnail.oriented(_:)` turns into this one.
    public func source(underOrientation orientation: Int) -> PhotoRegion {
        // `oriented` shows at (x, y) the source pixel its table names; in fractions, for a span.
        let (u0, u1, v0, v1) = (x, maxX, y, maxY)
        let flippedU = (Self.one - u1, Self.one - u0), flippedV = (Self.one - v1, Self.one - v0)
        let (sx, sy): ((Int, Int), (Int, Int))
        switch orientation {
        case 2: (sx, sy) = (flippedU, (v0, v1))
        case 3: (sx, sy) = (flippedU, flippedV)
        case 4: (sx, sy) = ((u0, u1), flippedV)
        case 5: (sx, sy) = ((v0, v1), (u0, u1))
        case 6: (sx, sy) = ((v0, v1), flippedU)
        case 7: (sx, sy) = (flippedV, flippedU)
        case 8: (sx, sy) = (flippedV, (u0, u1))
        default: return self
        }
        return PhotoRegion(x: sx.0, y: sy.0, width: sx.1 - sx.0, height: sy.1 - sy.0)
    }

    /// The region before the view was turned `turns` quarter turns clockwise.
    public func unturned(_ turns: Int) -> PhotoRegion { source(underOrientation: [1, 6, 3, 8][turns & 3]) }

    /// The region in the pixels of a picture of `width` x `height`: whole pixels covering it,
    /// at least one.
    public func pixels(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let left = x * width / Self.one, top = y * height / Self.one
        let right = min(width, (maxX * width + Self.one - 1) / Self.one), bottom = min(height, (maxY * height + Self.one - 1) / Self.one)
        let l = min(left, width - 1), t = min(top, height - 1)
        return (l, t, max(1, right - l), max(1, bottom - t))
    }
}

extension Thumbnail {
    /// The pixels of the rectangle at (`x`, `y`), `width` x `height`, held to the picture.
    /// - Complexity: O(*w* × *h*) in the rectangle's pixels.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Thumbnail {
        let left = min(max(0, x), width - 1), top = min(max(0, y), height - 1)
        let w = max(1, min(w, width - left)), h = max(1, min(h, height - top))
        var out = [UInt8]()
        out.reserveCapacity(w * h * 3)
        var outAlpha: [UInt8]? = alpha == nil ? nil : []
        for row in top..<(top + h) {
            let start = (row * width + left) * 3
            out += pixels[start..<(start + w * 3)]
            if let alpha { outAlpha! += alpha[(row * width + left)..<(row * width + left + w)] }
        }
        var part = Thumbnail(width: w, height: h, pixels: out)
        part.alpha = outAlpha
        return part
    }

    /// The part `region` of the picture.
    public func cropped(to region: PhotoRegion) -> Thumbnail {
        let r = region.pixels(width: width, height: height)
        return cropped(x: r.x, y: r.y, width: r.width, height: r.height)
    }
}
