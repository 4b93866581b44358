/// Image dimensions read from the first bytes of a file by our own small parsers, so limits are
/// checked before any image library sees the file. Every read is bounds-checked.
public enum ImageHeader {
    /// Bytes to read for `dimensions(of:format:)`.
    public static let prefixLength = 64 << 10

    /// Width and height of the largest image or frame the header declares, or nil when the
    /// header cannot be read from `data`.
    /// - Complexity: O(*n*) in the prefix.
    public static func dimensions(of data: [UInt8], format: ImageFormat) -> (width: Int, height: Int)? {
        format.traits.dimensions(data)
    }

    /// `width` x `height`, saturating: headers may declare sizes whose product overflows.
    public static func pixelCount(_ width: Int, _ height: Int) -> Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow || product < 0 ? .max : product
    }

    static func be32(_ d: [UInt8], _ i: Int) -> Int? {
        guard i >= 0, i + 4 <= d.count else { return nil }
        return Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
    }

    static func le16(_ d: [UInt8], _ i: Int) -> Int? {
        guard i >= 0, i + 2 <= d.count else { return nil }
        return Int(d[i]) | Int(d[i + 1]) << 8
    }

    static func le24(_ d: [UInt8], _ i: Int) -> Int? {
        guard i >= 0, i + 3 <= d.count else { return nil }
        return Int(d[i]) | Int(d[i + 1]) << 8 | Int(d[i + 2]) << 16
    }

    /// IHDR is the first chunk.
    static func png(_ d: [UInt8]) -> (Int, Int)? {
        guard d.count >= 24, String(decoding: d[12..<16], as: UTF8.self) == "IHDR", let w = be32(d, 16), let h = be32(d, 20) else { return nil }
        return (w, h)
    }

    /// The logical screen, and every image descriptor in the prefix: the largest counts.
    static func gif(_ d: [UInt8]) -> (Int, Int)? { gifFrames(d).largest }

    /// A GIF's largest frame (or screen) and how many frames `d` holds, walking its blocks.
    static func gifFrames(_ d: [UInt8]) -> (largest: (Int, Int)?, frames: Int) {
        guard let sw = le16(d, 6), let sh = le16(d, 8), d.count > 10 else { return (nil, 0) }
        var largest = (sw, sh)
        var i = 13
        if d[10] & 0x80 != 0 { i += 3 << (Int(d[10] & 7) + 1) }  // global colour table
        var frames = 0
        while i < d.count, frames < 10_000 {
            switch d[i] {
            case 0x2C:  // image descriptor
                guard let w = le16(d, i + 5), let h = le16(d, i + 7), i + 9 < d.count else { return (largest, frames) }
                if pixelCount(w, h) > pixelCount(largest.0, largest.1) { largest = (w, h) }
                frames += 1
                var j = i + 10
                if d[i + 9] & 0x80 != 0 { j += 3 << (Int(d[i + 9] & 7) + 1) }  // local colour table
                j += 1  // LZW minimum code size
                guard let end = skipSubBlocks(d, j) else { return (largest, frames) }
                i = end
            case 0x21:  // extension: label, then sub-blocks
                guard let end = skipSubBlocks(d, i + 2) else { return (largest, frames) }
                i = end
            default: return (largest, frames)  // trailer or garbage
            }
        }
        return (largest, frames)
    }

    /// Index after a chain of sub-blocks starting at `i`, or nil when it runs past the data.
    static func skipSubBlocks(_ d: [UInt8], _ start: Int) -> Int? {
        var i = start
        while i < d.count {
            let size = Int(d[i])
            i += 1 + size
            if size == 0 { return i }
        }
        return nil
    }

    /// VP8 (lossy), VP8L (lossless) or VP8X (extended) canvas.
    static func webp(_ d: [UInt8]) -> (Int, Int)? {
        guard d.count >= 30 else { return nil }
        switch String(decoding: d[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard d[23] == 0x9D, d[24] == 0x01, d[25] == 0x2A, let w = le16(d, 26), let h = le16(d, 28) else { return nil }
            return (w & 0x3FFF, h & 0x3FFF)
        case "VP8L":
            guard d[20] == 0x2F else { return nil }
            let bits = Int(d[21]) | Int(d[22]) << 8 | Int(d[23]) << 16 | Int(d[24]) << 24
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            guard let w = le24(d, 24), let h = le24(d, 27) else { return nil }
            return (w + 1, h + 1)
        default: return nil
        }
    }

    /// ImageWidth (256) and ImageLength (257) of the first IFD.
    static func tiff(_ d: [UInt8]) -> (Int, Int)? {
        guard d.count >= 8 else { return nil }
        let little = d[0] == 0x49
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= d.count else { return nil }
            return little ? Int(d[i]) | Int(d[i + 1]) << 8 : Int(d[i]) << 8 | Int(d[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd), count < 1000 else { return nil }
        var width: Int?, height: Int?
        for k in 0..<count {
            let e = ifd + 2 + 12 * k
            guard let tag = u16(e), let type = u16(e + 2) else { break }
            let value = type == 3 ? u16(e + 8) : u32(e + 8)
            if tag == 256 { width = value }
            if tag == 257 { height = value }
        }
        guard let width, let height else { return nil }
        return (width, height)
    }

    /// The largest `ispe` (image spatial extents) property in the prefix.
    static func heif(_ d: [UInt8]) -> (Int, Int)? {
        var largest: (Int, Int)?
        var i = 4
        let marker: [UInt8] = Array("ispe".utf8)
        while i + 16 <= d.count {
            if d[i] == marker[0] && d[i + 1] == marker[1] && d[i + 2] == marker[2] && d[i + 3] == marker[3],
                let w = be32(d, i + 8), let h = be32(d, i + 12)
            {
                if largest == nil || pixelCount(w, h) > pixelCount(largest!.0, largest!.1) { largest = (w, h) }
                i += 16
            } else {
                i += 1
            }
        }
        return largest
    }
}
