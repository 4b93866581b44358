/// What `TestImages.withMetadata` writes into an EXIF block; nil fields are left out.
public struct TestMetadata {
    public var make: String? = "Lightbox"
    public var model: String? = "Test Camera 1"
    public var dateTaken: String? = "2024:05:17 23:30:05"
    public var exposure: (Int, Int)? = (1, 250)
    public var fNumber: (Int, Int)? = (28, 10)
    public var iso: Int? = 400
    public var focalLength: (Int, Int)? = (35, 1)
    public var lens: String? = "Test Lens 35mm"
    public var hasGPS = true

    public init() {}
}

extension TestImages {
    /// A JPEG with an EXIF block holding `metadata` in IFD0, an Exif IFD and a GPS IFD, spliced in
    /// after the main image's SOI, as cameras write it (little-endian TIFF).
    public static func withMetadata(main: [UInt8], _ metadata: TestMetadata) -> [UInt8] {
        // Each IFD: entries (tag, type, count, value bytes); values over 4 bytes go to a data area.
        typealias Entry = (tag: Int, type: Int, count: Int, value: [UInt8])
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        func ascii(_ tag: Int, _ text: String?) -> Entry? { text.map { (tag, 2, $0.utf8.count + 1, Array($0.utf8) + [0]) } }
        func rational(_ tag: Int, _ value: (Int, Int)?) -> Entry? { value.map { (tag, 5, 1, le32($0.0) + le32($0.1)) } }
        func short(_ tag: Int, _ value: Int?) -> Entry? { value.map { (tag, 3, 1, le16($0) + [0, 0]) } }
        func long(_ tag: Int, _ value: Int) -> Entry { (tag, 4, 1, le32(value)) }

        /// Lays out IFDs one after another from `start`, each followed by its data; returns the bytes.
        func layout(_ ifds: [[Entry]], start: Int) -> [UInt8] {
            var out: [UInt8] = []
            var offset = start
            for entries in ifds {
                let tableSize = 2 + 12 * entries.count + 4
                var data: [UInt8] = []
                var table = le16(entries.count)
                for entry in entries {
                    table += le16(entry.tag) + le16(entry.type) + le32(entry.count)
                    if entry.value.count <= 4 {
                        table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                    } else {
                        table += le32(offset + tableSize + data.count)
                        data += entry.value
                        if data.count % 2 == 1 { data.append(0) }
                    }
                }
                table += le32(0)
                out += table + data
                offset += tableSize + data.count
            }
            return out
        }
        let exifEntries = [
            rational(0x829A, metadata.exposure), rational(0x829D, metadata.fNumber), short(0x8827, metadata.iso),
            ascii(0x9003, metadata.dateTaken), rational(0x920A, metadata.focalLength), ascii(0xA434, metadata.lens),
        ].compactMap { $0 }
        let gpsEntries: [Entry] = [(1, 2, 2, Array("N".utf8) + [0, 0])]
        // Sizes first (pointers are 4-byte values, so the layout does not depend on them).
        func ifd0(exifAt: Int, gpsAt: Int) -> [Entry] {
            [
                ascii(0x010F, metadata.make), ascii(0x0110, metadata.model), long(0x8769, exifAt),
                metadata.hasGPS ? long(0x8825, gpsAt) : nil,
            ].compactMap { $0 }
        }
        let size0 = layout([ifd0(exifAt: 0, gpsAt: 0)], start: 8).count
        let sizeExif = layout([exifEntries], start: 8 + size0).count
        let tiff =
            [0x49, 0x49, 0x2A, 0x00] + le32(8)
            + layout([ifd0(exifAt: 8 + size0, gpsAt: 8 + size0 + sizeExif), exifEntries, gpsEntries], start: 8)
        let payload = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload + main.dropFirst(2)
    }
}
