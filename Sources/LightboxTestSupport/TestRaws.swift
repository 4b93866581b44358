/// Camera RAW files as cameras lay them out, written by our own code (no tool writes RAWs):
/// the TIFF directories, a sensor-data strip, and embedded JPEG previews.
public enum TestRaws {
    /// A TIFF directory entry: tag, type (3 SHORT, 4 LONG, 2 ASCII, 1 BYTE), and its value.
    public struct Entry {
        public var tag: Int
        public var type: Int
        public var values: [Int]
        public var text: String?
        /// The count written, when it is not the values' (an UNDEFINED blob's length, its offset the value).
        public var count: Int? = nil

        public static func short(_ tag: Int, _ values: Int...) -> Entry { Entry(tag: tag, type: 3, values: values) }
        public static func long(_ tag: Int, _ values: Int...) -> Entry { Entry(tag: tag, type: 4, values: values) }
        public static func bytes(_ tag: Int, _ values: Int...) -> Entry { Entry(tag: tag, type: 1, values: values) }
        public static func ascii(_ tag: Int, _ text: String) -> Entry { Entry(tag: tag, type: 2, values: [], text: text) }
        /// UNDEFINED bytes kept elsewhere (a blob): their length, and their offset once referenced.
        public static func undefined(_ tag: Int, length: Int) -> Entry { Entry(tag: tag, type: 7, values: [0], count: length) }
    }

    /// Where a value points: a directory or a blob of data, by index.
    public enum Reference { case directory(Int), blob(Int) }

    /// A little-endian TIFF of `directories` (the first is IFD0) and `blobs`; `references` fill
    /// entries (by directory and tag) with the offsets of other directories or blobs.
    /// `magic` replaces bytes 8..<12 (CR2's "CR\u{2}\0") when given, the first IFD following it.
    public static func tiff(
        _ directories: [[Entry]], blobs: [[UInt8]], references: [(directory: Int, tag: Int, to: [Reference])],
        magic: [UInt8]? = nil, byteOrder: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
    ) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        func valueBytes(_ entry: Entry) -> [UInt8] {
            switch entry.type {
            case 2: return Array((entry.text ?? "").utf8) + [0]
            case 3: return entry.values.flatMap(le16)
            case 1: return entry.values.map { UInt8($0 & 0xFF) }
            default: return entry.values.flatMap(le32)
            }
        }
        func count(_ entry: Entry) -> Int { entry.count ?? (entry.type == 2 ? (entry.text ?? "").utf8.count + 1 : entry.values.count) }
        // Sizes first: a directory is its table, then the values too long for their fields.
        let header = magic == nil ? 8 : 16
        let sizes = directories.map { entries in
            2 + 12 * entries.count + 4
                + entries.map {
                    let n = valueBytes($0).count; return n > 4 ? (n + 1) & ~1 : 0
                }.reduce(0, +)
        }
        var directoryOffsets: [Int] = [], offset = header
        for size in sizes { directoryOffsets.append(offset); offset += size }
        var blobOffsets: [Int] = []
        for blob in blobs { blobOffsets.append(offset); offset += (blob.count + 1) & ~1 }
        var directories = directories
        for (index, tag, targets) in references {
            let offsets = targets.map { target -> Int in
                switch target {
                case .directory(let k): return directoryOffsets[k]
                case .blob(let k): return blobOffsets[k]
                }
            }
            if let at = directories[index].firstIndex(where: { $0.tag == tag }) { directories[index][at].values = offsets }
        }
        var out = byteOrder + le32(header)
        if let magic { out += magic + [0, 0, 0, 0] }
        for (k, entries) in directories.enumerated() {
            let sorted = entries.sorted { $0.tag < $1.tag }
            var data: [UInt8] = []
            let dataStart = directoryOffsets[k] + 2 + 12 * sorted.count + 4
            out += le16(sorted.count)
            for entry in sorted {
                let value = valueBytes(entry)
                out += le16(entry.tag) + le16(entry.type) + le32(count(entry))
                if value.count <= 4 {
                    out += value + [UInt8](repeating: 0, count: 4 - value.count)
                } else {
                    out += le32(dataStart + data.count)
                    data += value
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += le32(0) + data
        }
        for blob in blobs { out += blob; if blob.count % 2 == 1 { out.append(0) } }
        return out
    }

    /// A DNG as cameras and converters write it: IFD0 a small RGB thumbnail with the DNG version,
    /// orientation, make and date; a sub-directory of 16-bit colour-filter-array sensor data; and,
    /// when given, a sub-directory holding `preview` (a JPEG of `previewSize`). The sensor saw red
    /// on its left half and blue on its right (an RGGB pattern, 14 bits used).
    public static func dng(
        preview: [UInt8]?, previewSize: (Int, Int) = (0, 0), orientation: Int = 1,
        sensor: (width: Int, height: Int) = (64, 48)
    ) -> [UInt8] {
        let thumbnail = [UInt8](repeating: 40, count: 16 * 12 * 3)
        var raw: [UInt8] = []
        for y in 0..<sensor.height {
            for x in 0..<sensor.width {
                let colour = [[0, 1], [1, 2]][y % 2][x % 2]  // R G / G B
                let lit = x < sensor.width / 2 ? colour == 0 : colour == 2
                let value = lit ? 12_000 : 600
                raw += [UInt8(value & 0xFF), UInt8(value >> 8)]
            }
        }
        var ifd0: [Entry] = [
            .long(0xFE, 1), .long(0x100, 16), .long(0x101, 12), .short(0x102, 8, 8, 8), .short(0x103, 1), .short(0x106, 2),
            .ascii(0x10F, "Lightbox"), .ascii(0x110, "Test DNG"), .long(0x111, 0), .short(0x112, orientation),
            .short(0x115, 3), .long(0x116, 12), .long(0x117, thumbnail.count), .ascii(0x132, "2021:07:04 12:00:00"),
            .bytes(0xC612, 1, 4, 0, 0),
        ]
        let rawIFD: [Entry] = [
            .long(0xFE, 0), .long(0x100, sensor.width), .long(0x101, sensor.height), .short(0x102, 16), .short(0x103, 1),
            .short(0x106, 32803), .long(0x111, 0), .short(0x115, 1), .long(0x116, sensor.height), .long(0x117, raw.count),
            .short(0x828D, 2, 2), .bytes(0x828E, 0, 1, 1, 2), .long(0xC61D, 16_383),
        ]
        var directories = [ifd0, rawIFD]
        var blobs = [thumbnail, raw]
        var references: [(directory: Int, tag: Int, to: [Reference])] = [(0, 0x111, [.blob(0)]), (1, 0x111, [.blob(1)])]
        if let preview {
            directories.append([
                .long(0xFE, 1), .long(0x100, previewSize.0), .long(0x101, previewSize.1), .short(0x102, 8, 8, 8), .short(0x103, 7),
                .short(0x106, 6), .long(0x111, 0), .short(0x115, 3), .long(0x116, previewSize.1), .long(0x117, preview.count),
            ])
            blobs.append(preview)
            references.append((2, 0x111, [.blob(2)]))
        }
        ifd0.append(Entry(tag: 0x14A, type: 4, values: preview == nil ? [0] : [0, 0]))
        directories[0] = ifd0
        references.append((0, 0x14A, preview == nil ? [.directory(1)] : [.directory(1), .directory(2)]))
        return tiff(directories, blobs: blobs, references: references)
    }

    /// A Nikon-style NEF: IFD0 a tiny thumbnail with the make, sub-directories for a JPEG preview
    /// (JPEGInterchangeFormat) and the sensor data.
    public static func nef(preview: [UInt8]) -> [UInt8] {
        let raw = [UInt8](repeating: 0x20, count: 32 * 24 * 2)
        let directories: [[Entry]] = [
            [
                .long(0xFE, 1), .long(0x100, 4), .long(0x101, 3), .short(0x103, 1), .ascii(0x10F, "NIKON CORPORATION"), .ascii(0x110, "NIKON D0"),
                .short(0x112, 1), .long(0x14A, 0, 0),
            ],
            [.long(0xFE, 1), .short(0x103, 6), .long(0x201, 0), .long(0x202, preview.count)],
            [.long(0xFE, 0), .long(0x100, 32), .long(0x101, 24), .short(0x103, 34713), .short(0x106, 32803), .long(0x111, 0), .long(0x117, raw.count)],
        ]
        return tiff(
            directories, blobs: [preview, raw],
            references: [(0, 0x14A, [.directory(1), .directory(2)]), (1, 0x201, [.blob(0)]), (2, 0x111, [.blob(1)])])
    }

    /// A Canon-style CR2: "CR" at byte 8, IFD0 the JPEG preview as one old-style JPEG strip.
    public static func cr2(preview: [UInt8], orientation: Int = 1) -> [UInt8] {
        let directories: [[Entry]] = [
            [
                .long(0x100, 0), .long(0x101, 0), .short(0x103, 6), .ascii(0x10F, "Canon"), .long(0x111, 0),
                .short(0x112, orientation), .long(0x117, preview.count),
            ]
        ]
        return tiff(directories, blobs: [preview], references: [(0, 0x111, [.blob(0)])], magic: [0x43, 0x52, 0x02, 0x00])
    }

    /// An Olympus ORF (`IIRO`): IFD0 with the make, the orientation and the sensor strip; its Exif
    /// directory with the date taken and a new-style maker note (`OLYMPUS\0II`, offsets from the
    /// note's start) whose camera settings (`0x2020`) hold the preview's start and length
    /// (`0x0101`, `0x0102`), the preview inside the note, as exiftool reads them.
    /// `omSystem`: the note as OM System's cameras begin it (`OM SYSTEM\0\0\0II`, version 4).
    public static func orf(preview: [UInt8], orientation: Int = 1, date: String = "2024:05:06 07:08:09", omSystem: Bool = false) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] { le16(tag) + le16(type) + le32(count) + le32(value) }
        // The note: header (12, or 16), its directory (2 + 2 entries + next), the camera settings
        // directory (2 + 3 entries + next), then the preview.
        let header = omSystem ? Array("OM SYSTEM\0\0\0".utf8) + [0x49, 0x49, 0x04, 0x00] : Array("OLYMPUS\0".utf8) + [0x49, 0x49, 0x03, 0x00]
        let settingsAt = header.count + 2 + 2 * 12 + 4, previewAt = settingsAt + 2 + 3 * 12 + 4
        var note = header
        note += le16(2) + entry(0x0000, 7, 4, 0x3030_3130) + entry(0x2020, 13, 1, settingsAt) + le32(0)
        note += le16(3) + entry(0x0100, 4, 1, 1) + entry(0x0101, 4, 1, previewAt) + entry(0x0102, 4, 1, preview.count) + le32(0)
        note += preview
        let raw = [UInt8](repeating: 0x21, count: 64 * 48 * 2)
        let directories: [[Entry]] = [
            [
                .long(0x100, 64), .long(0x101, 48), .short(0x102, 16), .short(0x103, 1), .ascii(0x10F, "OLYMPUS IMAGING CORP."),
                .ascii(0x110, "E-M5MarkII"), .long(0x111, 0), .short(0x112, orientation), .long(0x117, raw.count), .long(0x8769, 0),
            ],
            [.ascii(0x9003, date), .short(0x8827, 200), .undefined(0x927C, length: note.count)],
        ]
        return tiff(
            directories, blobs: [raw, note], references: [(0, 0x111, [.blob(0)]), (0, 0x8769, [.directory(1)]), (1, 0x927C, [.blob(1)])],
            byteOrder: Array("IIRO".utf8))
    }

    /// A Panasonic RW2 (`IIU\0`): IFD0 with the make, the orientation, the sensor strip, the
    /// Exif directory (the date taken) and the JpgFromRaw (`0x002E`, the JPEG as the value).
    public static func rw2(preview: [UInt8], orientation: Int = 1, date: String = "2023:11:12 13:14:15") -> [UInt8] {
        let raw = [UInt8](repeating: 0x22, count: 64 * 48 * 2)
        let directories: [[Entry]] = [
            [
                .short(0x0001, 0x30, 0x34, 0x30, 0x35), .undefined(0x002E, length: preview.count), .ascii(0x10F, "Panasonic"),
                .ascii(0x110, "DC-G9"), .long(0x111, 0), .short(0x112, orientation), .long(0x117, raw.count), .long(0x8769, 0),
            ],
            [.ascii(0x9003, date), .short(0x8827, 400)],
        ]
        return tiff(
            directories, blobs: [raw, preview], references: [(0, 0x111, [.blob(0)]), (0, 0x8769, [.directory(1)]), (0, 0x002E, [.blob(1)])],
            byteOrder: [0x49, 0x49, 0x55, 0x00])
    }

    /// A Fujifilm RAF: its header, the JPEG's offset and length at 84, the JPEG after.
    public static func raf(preview: [UInt8]) -> [UInt8] {
        var header = Array("FUJIFILMCCD-RAW 0201FF383501".utf8)
        header += [UInt8](repeating: 0, count: 84 - header.count)
        let offset = 100
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        header += be32(offset) + be32(preview.count)
        header += [UInt8](repeating: 0, count: offset - header.count)
        return header + preview + [UInt8](repeating: 0x33, count: 4096)
    }

    /// A Canon CR3: `ftyp` of brand `crx `, `moov` with the metadata `uuid` box (`CMT1`: IFD0 as
    /// a TIFF, with the make and model; `CMT2`: the Exif directory as a TIFF, with the date taken),
    /// the preview `uuid` box holding `PRVW` (the JPEG's length at 20, the JPEG at 24), then an
    /// `mdat` of sensor data.
    public static func cr3(preview: [UInt8], size: (Int, Int)) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }
        let prvw = box("PRVW", be32(0) + be16(1) + be16(size.0) + be16(size.1) + be16(1) + be32(preview.count) + preview)
        let uuid: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]
        let cmt1 = tiff([[.ascii(0x10F, "Canon"), .ascii(0x110, "Canon EOS Test"), .ascii(0x132, "2020:01:01 00:00:00")]], blobs: [], references: [])
        let cmt2 = tiff([[.ascii(0x9003, "2023:08:09 10:11:12"), .short(0x8827, 800)]], blobs: [], references: [])
        let metadataUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
        let moov = box("moov", box("uuid", metadataUUID + box("CMT1", cmt1) + box("CMT2", cmt2)))
        return box("ftyp", Array("crx ".utf8) + be32(1) + Array("crx isom".utf8)) + moov + box("uuid", uuid + be32(0) + prvw)
            + box("mdat", [UInt8](repeating: 0x44, count: 8192))
    }
}
