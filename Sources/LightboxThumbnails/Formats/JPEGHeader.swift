/// What the first segments of a JPEG say: its size, its EXIF orientation and where its
/// embedded EXIF thumbnail is. Every offset is bounds-checked, so lying files give nil fields.
public struct JPEGHeader: Hashable, Sendable {
    public var width = 0
    public var height = 0
    /// EXIF orientation, 1 to 8 (1 when absent or invalid).
    public var orientation = 1
    /// Byte range of the embedded EXIF thumbnail (a JPEG) within the data parsed.
    public var exifThumbnail: Range<Int>?
    /// Byte range of the EXIF block's TIFF structure within the data parsed.
    public var exifBlock: Range<Int>?
    /// Byte range of the XMP packet (the standard XMP segment's body) within the data parsed.
    public var xmpPacket: Range<Int>?
    /// Whether the data parsed held every header segment, up to the scan: then an XMP packet
    /// not found is in no header.
    public var headersAreWhole = false

    /// What begins a standard XMP segment's body, before the packet.
    static let xmpNamespace = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// Parses `data`, the start of a JPEG file (the header segments need not be followed by the scan).
    /// Returns nil when it is not a JPEG.
    /// - Complexity: O(*n*) in the size of the header segments.
    public init?(parsing data: [UInt8]) {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var i = 2
        var sawExif = false
        while i + 4 <= data.count {
            guard data[i] == 0xFF else { return }
            let marker = data[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 {  // start of scan or end: headers are over
                headersAreWhole = true
                return
            }
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            guard length >= 2 else { return }
            let body = (i + 4)..<min(data.count, i + 2 + length)
            if marker == 0xE1, !sawExif, body.count >= 6, Array(data[body.lowerBound..<(body.lowerBound + 6)]) == Array("Exif\0\0".utf8) {
                sawExif = true  // only the first EXIF block counts
                readExif(data, tiff: (body.lowerBound + 6)..<body.upperBound)
            } else if marker == 0xE1, xmpPacket == nil, i + 2 + length <= data.count, data[body].starts(with: Self.xmpNamespace) {
                xmpPacket = (body.lowerBound + Self.xmpNamespace.count)..<body.upperBound
            } else if Self.isStartOfFrame(marker), body.count >= 5 {
                height = Int(data[body.lowerBound + 1]) << 8 | Int(data[body.lowerBound + 2])
                width = Int(data[body.lowerBound + 3]) << 8 | Int(data[body.lowerBound + 4])
            }
            i += 2 + length
        }
    }

    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Reads IFD0's orientation and IFD1's thumbnail pointer from the TIFF structure in `tiff`.
    mutating func readExif(_ data: [UInt8], tiff: Range<Int>) {
        guard let structure = TIFFStructure(data, range: tiff), let ifd0 = structure.firstDirectory,
            let (tags0, next) = structure.directory(at: ifd0)
        else { return }
        exifBlock = tiff
        for entry in tags0 where entry.tag == 0x0112 && entry.type == 3 {
            if let value = structure.u16(entry.field), (1...8).contains(value) { orientation = value }
        }
        guard let ifd1 = next, ifd1 > 0, ifd1 != ifd0, let (tags1, _) = structure.directory(at: ifd1) else { return }
        var start: Int?, length: Int?
        for entry in tags1 {
            if entry.tag == 0x0201 { start = structure.u32(entry.field) }
            if entry.tag == 0x0202 { length = structure.u32(entry.field) }
        }
        let base = tiff.lowerBound
        guard let start, let length, length > 4, start > 0, base + start + length <= tiff.upperBound else { return }
        let range = (base + start)..<(base + start + length)
        guard data[range.lowerBound] == 0xFF, data[range.lowerBound + 1] == 0xD8 else { return }  // a lying offset
        exifThumbnail = range
    }

    /// Whether width and height swap when the orientation is applied.
    public var isTransposed: Bool { orientation >= 5 }
}
