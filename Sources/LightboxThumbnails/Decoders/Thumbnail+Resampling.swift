extension Thumbnail {
    /// The size of a `width` x `height` image fitted inside `box`, aspect kept, never below 1.
    public static func fittedSize(width: Int, height: Int, in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0 else { return PixelSize(width: 1, height: 1) }
        if width * box.height >= height * box.width {
            return PixelSize(width: box.width, height: max(1, (height * box.width + width / 2) / width))
        }
        return PixelSize(width: max(1, (width * box.height + height / 2) / height), height: box.height)
    }

    /// The image shrunk to fit `box` by area averaging; unchanged when it already fits.
    /// - Complexity: O(*w* × *h*) of the source.
    public func downscaled(toFit box: PixelSize) -> Thumbnail {
        guard width > box.width || height > box.height else { return self }
        let target = Self.fittedSize(width: width, height: height, in: box)
        var shrunk = Thumbnail(width: target.width, height: target.height, pixels: Self.downscaled(pixels, width: width, height: height, to: target))
        // Premultiplied colours average like the coverage does, so edges keep no dark fringe.
        shrunk.alpha = alpha.map { Self.downscaled(alpha: $0, width: width, height: height, to: target) }
        return shrunk
    }

    /// The image enlarged to fill `box` (aspect kept) by bilinear interpolation; unchanged when
    /// it already reaches the box. For a reduced copy standing in on a slow link, so pixel modes
    /// show it at the tile's size.
    /// - Complexity: O(*w* × *h*) of the result.
    public func upscaled(toFit box: PixelSize) -> Thumbnail {
        let target = Self.fittedSize(width: width, height: height, in: box)
        guard target.width > width || target.height > height else { return self }
        var grown = Thumbnail(width: target.width, height: target.height, pixels: Self.upscaled(pixels, channels: 3, width: width, height: height, to: target))
        grown.alpha = alpha.map { Self.upscaled($0, channels: 1, width: width, height: height, to: target) }
        grown.isStandIn = true
        return grown
    }

    /// Interleaved `channels`-byte `pixels` of `width` x `height` interpolated up to `target`
    /// (pixel centres aligned, edges held).
    static func upscaled(_ pixels: [UInt8], channels: Int, width: Int, height: Int, to target: PixelSize) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: target.width * target.height * channels)
        // Where each target column falls in the source, in 1/256ths: the two columns and the weight of the second.
        func taps(_ count: Int, from source: Int) -> [(Int, Int, Int)] {
            (0..<count).map { t in
                let at = max(0, ((2 * t + 1) * source * 256 / (2 * count)) - 128)
                let low = min(source - 1, at >> 8)
                return (low, min(source - 1, low + 1), at & 255)
            }
        }
        let xs = taps(target.width, from: width), ys = taps(target.height, from: height)
        pixels.withUnsafeBufferPointer { source in
            for (ty, (y0, y1, wy)) in ys.enumerated() {
                for (tx, (x0, x1, wx)) in xs.enumerated() {
                    for c in 0..<channels {
                        let a = Int(source[(y0 * width + x0) * channels + c]), b = Int(source[(y0 * width + x1) * channels + c])
                        let d = Int(source[(y1 * width + x0) * channels + c]), e = Int(source[(y1 * width + x1) * channels + c])
                        let top = a * (256 - wx) + b * wx, bottom = d * (256 - wx) + e * wx
                        out[(ty * target.width + tx) * channels + c] = UInt8((top * (256 - wy) + bottom * wy + (1 << 15)) >> 16)
                    }
                }
            }
        }
        return out
    }

    /// An alpha plane averaged down to `target`, as `downscaled(_:width:height:to:)` does colours.
    static func downscaled(alpha: [UInt8], width: Int, height: Int, to target: PixelSize) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: target.width * target.height)
        for ty in 0..<target.height {
            let y0 = ty * height / target.height, y1 = max(y0 + 1, (ty + 1) * height / target.height)
            for tx in 0..<target.width {
                let x0 = tx * width / target.width, x1 = max(x0 + 1, (tx + 1) * width / target.width)
                var sum = 0
                for y in y0..<y1 { for x in x0..<x1 { sum += Int(alpha[y * width + x]) } }
                let n = (y1 - y0) * (x1 - x0)
                out[ty * target.width + tx] = UInt8((sum + n / 2) / n)
            }
        }
        return out
    }

    /// RGB `pixels` of `width` x `height` averaged down to `target`.
    static func downscaled(_ pixels: [UInt8], width: Int, height: Int, to target: PixelSize) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: target.width * target.height * 3)
        pixels.withUnsafeBufferPointer { source in
            for ty in 0..<target.height {
                let y0 = ty * height / target.height, y1 = max(y0 + 1, (ty + 1) * height / target.height)
                for tx in 0..<target.width {
                    let x0 = tx * width / target.width, x1 = max(x0 + 1, (tx + 1) * width / target.width)
                    var r = 0, g = 0, b = 0
                    for y in y0..<y1 {
                        var i = (y * width + x0) * 3
                        for _ in x0..<x1 {
                            r += Int(source[i]); g += Int(source[i + 1]); b += Int(source[i + 2])
                            i += 3
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0)
                    let o = (ty * target.width + tx) * 3
                    out[o] = UInt8((r + n / 2) / n); out[o + 1] = UInt8((g + n / 2) / n); out[o + 2] = UInt8((b + n / 2) / n)
                }
            }
        }
        return out
    }

    /// The image turned as an EXIF `orientation` (1 to 8) says, so that it displays upright.
    /// - Complexity: O(*w* × *h*).
    public func oriented(_ orientation: Int) -> Thumbnail {
        guard (2...8).contains(orientation) else { return self }
        let transposed = orientation >= 5
        let (ow, oh) = transposed ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        var outAlpha = alpha.map { [UInt8](repeating: 0, count: $0.count) }
        for y in 0..<oh {
            for x in 0..<ow {
                // The source pixel shown at (x, y) of the upright image.
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (width - 1 - x, y)
                case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                case 4: (sx, sy) = (x, height - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, height - 1 - x)
                case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                default: (sx, sy) = (width - 1 - y, x)  // 8
                }
                let s = (sy * width + sx) * 3, o = (y * ow + x) * 3
                out[o] = pixels[s]; out[o + 1] = pixels[s + 1]; out[o + 2] = pixels[s + 2]
                if let alpha { outAlpha?[o / 3] = alpha[s / 3] }
            }
        }
        var turned = Thumbnail(width: ow, height: oh, pixels: out)
        turned.alpha = outAlpha
        return turned
    }

    /// The picture turned `turns` quarter turns clockwise (EXIF's orientations 6, 3 and 8); frames
    /// one above the other each turned, kept in their order.
    public func turned(_ turns: Int) -> Thumbnail {
        guard turns & 3 != 0 else { return self }
        guard delays.count > 1 else {
            var one = oriented([1, 6, 3, 8][turns & 3])
            one.delays = delays
            return one
        }
        let frames = (0..<delays.count).map { frame($0).turned(turns) }
        var stack = Thumbnail(width: frames[0].width, height: frames[0].height * frames.count, pixels: frames.flatMap(\.pixels))
        stack.alpha = alpha == nil ? nil : frames.flatMap { $0.alpha ?? [] }
        stack.delays = delays
        return stack
    }

    /// The picture at two fifths of its brightness, as a rejected photo's tile shows it.
    /// - Complexity: O(*n*) in its pixels.
    public var dimmed: Thumbnail {
        var copy = self
        copy.pixels = pixels.map { UInt8(UInt16($0) * 2 / 5) }
        return copy
    }
}
