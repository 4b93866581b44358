import CZlib

/// A small decoder for the PNGs thumbnail caches hold (8-bit grey, RGB or RGBA, not interlaced),
/// so a warm start needs no image library at all. Anything else returns nil and goes to libvips.
public enum PNGDecoder {
    /// Largest side accepted: cache entries are at most 1024 pixels.
    static let maxSide = 4096

    /// The pixels of `data` as RGB, with its alpha when it has one (`Thumbnail.alpha`); nil when
    /// not handled.
    /// - Complexity: O(*w* × *h*).
    public static func decode(_ data: [UInt8]) -> Thumbnail? {
        guard data.count > 33, Array(data[0..<8]) == PNGText.signature else { return nil }
        var width = 0, height = 0, channels = 0
        var compressed: [UInt8] = []
        var i = 8
        while i + 12 <= data.count {
            let length = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            guard length >= 0, length <= data.count - i - 12 else { return nil }
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = data[(i + 8)..<(i + 8 + length)]
            switch type {
            case "IHDR":
                guard length == 13 else { return nil }
                let b = Array(body)
                width = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
                height = Int(b[4]) << 24 | Int(b[5]) << 16 | Int(b[6]) << 8 | Int(b[7])
                guard b[8] == 8, b[12] == 0, (1...maxSide).contains(width), (1...maxSide).contains(height) else { return nil }
                switch b[9] {
                case 0: channels = 1;
                case 2: channels = 3;
                case 4: channels = 2;
                case 6: channels = 4;
                default: return nil
                }
            case "IDAT": compressed += body
            case "IEND": i = data.count; continue
            default: break
            }
            i += 12 + length
        }
        guard channels > 0 else { return nil }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLong(raw.count)
        guard !compressed.isEmpty, uncompress(&raw, &rawLength, compressed, uLong(compressed.count)) == Z_OK,
            Int(rawLength) == raw.count, unfilter(&raw, stride: stride, height: height, bpp: channels)
        else { return nil }
        if channels == 3 {
            // RGB, what our own cache entries are: each row as it is, after its filter byte.
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height { rgb.replaceSubrange((y * stride)..<((y + 1) * stride), with: raw[(y * (stride + 1) + 1)..<((y + 1) * (stride + 1))]) }
            return Thumbnail(width: width, height: height, pixels: rgb)
        }
        // Grey spread to the three colours, opaque where there is no alpha; then premultiplied.
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let row = y * (stride + 1) + 1
            for x in 0..<width {
                let s = row + x * channels, o = (y * width + x) * 4
                let (r, g, b) = channels == 4 ? (raw[s], raw[s + 1], raw[s + 2]) : (raw[s], raw[s], raw[s])
                rgba[o] = r; rgba[o + 1] = g; rgba[o + 2] = b
                if channels % 2 == 0 { rgba[o + 3] = raw[s + channels - 1] }
            }
        }
        return rgba.withUnsafeBufferPointer { Thumbnail(width: width, height: height, rgba: $0) }
    }

    /// Undoes PNG's per-row filters in place (each row starts with its filter byte).
    static func unfilter(_ raw: inout [UInt8], stride: Int, height: Int, bpp: Int) -> Bool {
        for y in 0..<height {
            let row = y * (stride + 1)
            let filter = raw[row]
            for x in 0..<stride {
                let i = row + 1 + x
                let left = x >= bpp ? Int(raw[i - bpp]) : 0
                let up = y > 0 ? Int(raw[i - stride - 1]) : 0
                let upLeft = (y > 0 && x >= bpp) ? Int(raw[i - stride - 1 - bpp]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let pa = abs(p - left), pb = abs(p - up), pc = abs(p - upLeft)
                    predictor = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
                default: return false
                }
                raw[i] = raw[i] &+ UInt8(truncatingIfNeeded: predictor)
            }
        }
        return true
    }
}
