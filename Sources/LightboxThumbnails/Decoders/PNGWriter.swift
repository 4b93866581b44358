import CZlib

/// Writes small RGB or RGBA PNGs with tEXt chunks, as the thumbnail cache wants them.
public enum PNGWriter {
    /// The PNG encoding of `thumbnail` with Latin-1 text chunks (keys and values must be ASCII):
    /// RGBA when it has transparency, else RGB.
    public static func encode(_ thumbnail: Thumbnail, text: [(String, String)]) -> [UInt8]? {
        var out = PNGText.signature
        var header: [UInt8] = []
        append32(UInt32(thumbnail.width), to: &header)
        append32(UInt32(thumbnail.height), to: &header)
        let channels = thumbnail.alpha == nil ? 3 : 4
        header += [8, channels == 4 ? 6 : 2, 0, 0, 0]  // 8 bits, RGB(A), deflate, no filter method, no interlace
        chunk("IHDR", header, into: &out)
        for (key, value) in text { chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8), into: &out) }
        // Each row: filter byte 0, then the pixels.
        let pixels = channels == 4 ? thumbnail.straightRGBA : thumbnail.pixels
        let rowBytes = thumbnail.width * channels
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * thumbnail.height)
        for y in 0..<thumbnail.height {
            raw.replaceSubrange(
                (y * (rowBytes + 1) + 1)..<((y + 1) * (rowBytes + 1)),
                with: pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        guard compress2(&compressed, &compressedLength, raw, uLong(raw.count), 6) == Z_OK else { return nil }
        chunk("IDAT", Array(compressed.prefix(Int(compressedLength))), into: &out)
        chunk("IEND", [], into: &out)
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
        append32(UInt32(data.count), to: &out)
        let body = Array(type.utf8) + data
        out += body
        append32(UInt32(crc32(0, body, uInt(body.count))), to: &out)
    }

    static func append32(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// Inflates a zlib stream of at most `limit` bytes of output (for zTXt chunks).
    static func inflate(_ data: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        var length = uLong(limit)
        var out = [UInt8](repeating: 0, count: limit)
        let input = Array(data)
        guard uncompress(&out, &length, input, uLong(input.count)) == Z_OK else { return nil }
        return Array(out.prefix(Int(length)))
    }
}
