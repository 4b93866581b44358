/// A JPEG XL file's dimensions, from its codestream's `SizeHeader` (ISO/IEC 18181-1), bare or
/// inside the container's `jxlc` or first `jxlp` box. Every read is bounds-checked.
enum JPEGXLHeader {
    /// The codestream's signature.
    static let codestream: [UInt8] = [0xFF, 0x0A]
    /// The container's signature box.
    static let container: [UInt8] = [0, 0, 0, 0x0C] + Array("JXL ".utf8) + [0x0D, 0x0A, 0x87, 0x0A]

    /// Width and height the image declares.
    static func dimensions(_ d: [UInt8]) -> (Int, Int)? {
        if ImageFormat.starts(d, codestream) { return sizeHeader(d, at: 2) }
        guard ImageFormat.starts(d, container) else { return nil }
        var offset = 0
        for _ in 0..<64 {
            // The boxes may run past the bytes at hand: their room is the file's, unknown here.
            guard let (type, headerLength, size) = BaseMediaBox.header(d, at: offset, room: Int.max / 2) else { return nil }
            let start = offset + headerLength
            if type == "jxlc" { return sizeHeader(d, at: start + 2, signatureAt: start) }
            if type == "jxlp" { return sizeHeader(d, at: start + 6, signatureAt: start + 4) }
            offset += size
        }
        return nil
    }

    /// The `SizeHeader` at byte `offset`, after the codestream signature at `signatureAt`.
    static func sizeHeader(_ d: [UInt8], at offset: Int, signatureAt: Int? = nil) -> (Int, Int)? {
        if let signatureAt, !ImageFormat.starts(d, codestream, at: signatureAt) { return nil }
        var bits = BitReader(bytes: d, position: offset * 8)
        func dimension(small: Bool) -> Int? {
            if small { return bits.read(5).map { ($0 + 1) * 8 } }
            guard let selector = bits.read(2) else { return nil }
            return bits.read([9, 13, 18, 30][selector]).map { $0 + 1 }
        }
        guard let small = bits.read(1), let height = dimension(small: small == 1), let ratio = bits.read(3) else { return nil }
        if ratio == 0 { return dimension(small: small == 1).map { ($0, height) } }
        let (numerator, denominator) = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)][ratio - 1]
        return (height * numerator / denominator, height)
    }

    /// Bits read least significant first, as JPEG XL packs them.
    struct BitReader {
        let bytes: [UInt8]
        var position: Int

        mutating func read(_ count: Int) -> Int? {
            guard position >= 0, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for i in 0..<count {
                let bit = Int(bytes[(position + i) / 8] >> UInt8((position + i) % 8)) & 1
                value |= bit << i
            }
            position += count
            return value
        }
    }
}

/// A JPEG 2000 file's dimensions: a bare codestream's `SIZ` marker, or a JP2 file's `ihdr` box.
enum JPEG2000Header {
    static let codestream: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51]
    static let container: [UInt8] = [0, 0, 0, 0x0C] + Array("jP  ".utf8) + [0x0D, 0x0A, 0x87, 0x0A]

    static func dimensions(_ d: [UInt8]) -> (Int, Int)? {
        if ImageFormat.starts(d, codestream) {
            guard let x = ImageHeader.be32(d, 8), let y = ImageHeader.be32(d, 12), let x0 = ImageHeader.be32(d, 16),
                let y0 = ImageHeader.be32(d, 20), x >= x0, y >= y0
            else { return nil }
            return (x - x0, y - y0)
        }
        guard ImageFormat.starts(d, container) else { return nil }
        var offset = 0
        for _ in 0..<64 {
            guard let (type, headerLength, size) = BaseMediaBox.header(d, at: offset, room: Int.max / 2) else { return nil }
            if type == "jp2h" {
                // The header box's first child is ihdr: height, then width.
                let ihdr = offset + headerLength
                guard d.fourCC(at: ihdr + 4) == "ihdr", let h = ImageHeader.be32(d, ihdr + 8), let w = ImageHeader.be32(d, ihdr + 12) else { return nil }
                return (w, h)
            }
            offset += size
        }
        return nil
    }
}
