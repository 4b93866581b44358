/// A JPEG decoder in our own code for the small baseline JPEGs cameras and phones embed as EXIF
/// thumbnails, so a screen of them is decoded in the app itself: no decoder process on that path,
/// and no image library in the app's process (every read and write here is bounds-checked, and
/// hostile bytes give nil). What it does not handle (progressive, arithmetic or 12-bit coding,
/// CMYK, a scan per component, more than a megapixel) gives nil too, and goes to libjpeg-turbo in
/// a decoder process. It decodes as the app's libjpeg-turbo does: at the smallest DCT scale that
/// covers the box, chroma upsampled by repetition, a truncated file refused.
public enum BaselineJPEGDecoder {
    /// Largest picture decoded (EXIF thumbnails are at most 640x480, in 64 KB).
    static let maxPixels = 1 << 20

    /// The pixels of `data` at the smallest of 1/8, 1/4, 1/2 or full size covering `needed`, or
    /// nil when it is not a baseline JPEG this decoder handles or is damaged.
    /// - Complexity: O(*n*) in the size of the data and of the picture at that scale.
    public static func decode(_ data: [UInt8], covering needed: PixelSize) -> Thumbnail? {
        guard let reader = SegmentReader(data), let frame = reader.frame, let scan = reader.scan else { return nil }
        let scale = TurboJPEGDecoder.eighths(width: frame.width, height: frame.height, covering: needed)
        guard var decoder = ScanDecoder(data: data, start: reader.position, frame: frame, scan: scan, tables: reader.tables, scale: scale),
            decoder.decodeAll()
        else { return nil }
        return decoder.thumbnail(isRGB: reader.isRGB)
    }
}

extension BaselineJPEGDecoder {
    /// One component of a frame: its sampling factors and tables.
    struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
        var quantTable: Int
    }

    /// What the frame header (SOF0 or SOF1) says.
    struct FrameHeader {
        var width: Int
        var height: Int
        var components: [Component]
        /// The largest sampling factors: an MCU is 8 times these in pixels.
        var maxHorizontal: Int, maxVertical: Int
    }

    /// The scan's components (as indices into the frame's) and their Huffman tables.
    struct ScanHeader {
        var components: [(index: Int, dcTable: Int, acTable: Int)]
    }

    /// The tables the header segments define.
    struct Tables {
        /// Four quantization tables in natural (row-major) order; nil until defined.
        var quant: [[Int]?] = [nil, nil, nil, nil]
        var dc: [HuffmanTable?] = [nil, nil, nil, nil]
        var ac: [HuffmanTable?] = [nil, nil, nil, nil]
        /// MCUs between restart markers; 0 when none.
        var restartInterval = 0
    }

    /// Reads the segments before the scan: tables, frame, restart interval, the scan's header.
    struct SegmentReader {
        var tables = Tables()
        var frame: FrameHeader?
        var scan: ScanHeader?
        /// Where the entropy-coded data starts, once the scan header is read.
        var position = 2
        /// An Adobe segment saying the three components are RGB, not YCbCr.
        var adobeTransform: Int?

        init?(_ data: [UInt8]) {
            guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
            while position + 4 <= data.count {
                guard data[position] == 0xFF else { return nil }
                let marker = data[position + 1]
                if marker == 0xFF { position += 1; continue }
                let length = Int(data[position + 2]) << 8 | Int(data[position + 3])
                guard length >= 2, position + 2 + length <= data.count else { return nil }
                let body = Array(data[(position + 4)..<(position + 2 + length)])
                position += 2 + length
                switch marker {
                case 0xC0, 0xC1: guard frame == nil, let header = Self.frameHeader(body) else { return nil }; frame = header
                case 0xC4: guard readHuffmanTables(body) else { return nil }
                case 0xDB: guard readQuantTables(body) else { return nil }
                case 0xDD: guard body.count >= 2 else { return nil }; tables.restartInterval = Int(body[0]) << 8 | Int(body[1])
                case 0xEE: if body.count >= 12, body.starts(with: Array("Adobe".utf8)) { adobeTransform = Int(body[11]) }
                case 0xDA:
                    guard let frame, let header = Self.scanHeader(body, frame: frame, tables: tables) else { return nil }
                    scan = header
                    return
                case 0xC2...0xCF, 0xD8, 0xD9: return nil  // progressive, lossless, arithmetic; a second start; the end
                default: break  // APPn, COM and the like
                }
            }
            return nil
        }

        /// Whether the three components hold R, G and B (an Adobe segment, or their ids say so).
        var isRGB: Bool {
            guard let frame, frame.components.count == 3 else { return false }
            if let adobeTransform { return adobeTransform == 0 }
            return frame.components.map(\.id) == Array("RGB".utf8)
        }

        static func frameHeader(_ body: [UInt8]) -> FrameHeader? {
            guard body.count >= 6, body[0] == 8 else { return nil }  // 8-bit samples only
            let height = Int(body[1]) << 8 | Int(body[2]), width = Int(body[3]) << 8 | Int(body[4])
            let count = Int(body[5])
            guard width > 0, height > 0, width * height <= maxPixels, count == 1 || count == 3, body.count >= 6 + 3 * count else { return nil }
            var components: [Component] = []
            for c in 0..<count {
                let at = 6 + 3 * c
                let h = Int(body[at + 1] >> 4), v = Int(body[at + 1] & 15), q = Int(body[at + 2])
                guard (1...4).contains(h), (1...4).contains(v), q < 4 else { return nil }
                // One component is coded block by block whatever its factors say.
                components.append(Component(id: body[at], horizontal: count == 1 ? 1 : h, vertical: count == 1 ? 1 : v, quantTable: q))
            }
            let hMax = components.map(\.horizontal).max() ?? 1, vMax = components.map(\.vertical).max() ?? 1
            guard components.allSatisfy({ hMax % $0.horizontal == 0 && vMax % $0.vertical == 0 }) else { return nil }
            return FrameHeader(width: width, height: height, components: components, maxHorizontal: hMax, maxVertical: vMax)
        }

        static func scanHeader(_ body: [UInt8], frame: FrameHeader, tables: Tables) -> ScanHeader? {
            guard let count = body.first.map(Int.init), count == frame.components.count, body.count >= 1 + 2 * count + 3 else { return nil }
            var components: [(index: Int, dcTable: Int, acTable: Int)] = []
            for c in 0..<count {
                let id = body[1 + 2 * c], selectors = body[2 + 2 * c]
                let dc = Int(selectors >> 4), ac = Int(selectors & 15)
                guard let index = frame.components.firstIndex(where: { $0.id == id }), !components.contains(where: { $0.index == index }),
                    dc < 4, ac < 4, tables.dc[dc] != nil, tables.ac[ac] != nil, tables.quant[frame.components[index].quantTable] != nil
                else { return nil }
                components.append((index, dc, ac))
            }
            // Spectral selection 0...63 and no successive approximation: sequential.
            let at = 1 + 2 * count
            guard body[at] == 0, body[at + 1] == 63, body[at + 2] == 0 else { return nil }
            return ScanHeader(components: components)
        }

        mutating func readQuantTables(_ body: [UInt8]) -> Bool {
            var i = 0
            while i < body.count {
                let precision = Int(body[i] >> 4), id = Int(body[i] & 15)
                let size = precision == 0 ? 64 : 128
                guard precision <= 1, id < 4, i + 1 + size <= body.count else { return false }
                var table = [Int](repeating: 0, count: 64)
                for k in 0..<64 {
                    let value = precision == 0 ? Int(body[i + 1 + k]) : Int(body[i + 1 + 2 * k]) << 8 | Int(body[i + 2 + 2 * k])
                    table[Int(zigzag[k])] = value
                }
                tables.quant[id] = table
                i += 1 + size
            }
            return true
        }

        mutating func readHuffmanTables(_ body: [UInt8]) -> Bool {
            var i = 0
            while i < body.count {
                guard i + 17 <= body.count else { return false }
                let kind = Int(body[i] >> 4), id = Int(body[i] & 15)
                let counts = Array(body[(i + 1)..<(i + 17)])
                let total = counts.reduce(0) { $0 + Int($1) }
                guard kind <= 1, id < 4, total <= 256, i + 17 + total <= body.count,
                    let table = HuffmanTable(counts: counts, symbols: Array(body[(i + 17)..<(i + 17 + total)]))
                else { return false }
                if kind == 0 { tables.dc[id] = table } else { tables.ac[id] = table }
                i += 17 + total
            }
            return true
        }
    }

    /// The natural (row-major) position of each coefficient in zigzag order.
    static let zigzag: [UInt8] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]
}
