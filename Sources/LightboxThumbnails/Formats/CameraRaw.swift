/// Camera RAW files: recognised by content, and their embedded previews (the JPEGs cameras
/// store beside the sensor data) found without reading that data. TIFF-based RAWs (DNG, CR2,
/// NEF, NRW, ARW, SR2, ORF, RW2, PEF, SRW) through our bounds-checked TIFF reader; Fujifilm's
/// RAF through its header; Canon's CR3 through its ISO base media boxes.
public enum CameraRaw {
    /// An embedded JPEG: where it is in the file.
    public struct Preview: Hashable, Sendable {
        public var offset: Int
        public var length: Int
    }

    /// Bytes of a TIFF-based RAW's start read to walk its directories (they sit before the data).
    static let directoryBytes = 1 << 20

    /// TIFF headers of RAWs that say so in their first bytes: CR2's, ORF's and RW2's own magic.
    static func hasRawMagic(_ header: [UInt8]) -> Bool {
        (ImageFormat.starts(header, [0x49, 0x49, 0x2A, 0x00]) && ImageFormat.starts(header, Array("CR".utf8), at: 8))
            || ImageFormat.starts(header, Array("IIRO".utf8)) || ImageFormat.starts(header, Array("IIRS".utf8))
            || ImageFormat.starts(header, Array("MMOR".utf8)) || ImageFormat.starts(header, [0x49, 0x49, 0x55, 0x00])
    }

    /// Whether a file's first bytes are a camera RAW's.
    public static func matches(_ header: [UInt8]) -> Bool {
        if hasRawMagic(header) || ImageFormat.starts(header, Array("FUJIFILMCCD-RAW".utf8)) { return true }
        if ImageFormat.isBMFF(header, brands: ["crx "]) { return true }
        return isTIFFRaw(header)
    }

    /// Whether a TIFF's first directory, as far as `header` holds it, is a RAW's: a DNG version,
    /// sub-directories (where cameras put the sensor data and previews), a vendor's compression
    /// of raw data, or colour-filter-array pixels.
    static func isTIFFRaw(_ header: [UInt8]) -> Bool {
        guard let tiff = TIFFStructure(header, range: 0..<header.count), let ifd0 = tiff.firstDirectory,
            let (entries, _) = tiff.directory(at: ifd0)
        else { return false }
        for entry in entries {
            switch entry.tag {
            case 0xC612, 0x014A: return true  // DNGVersion, SubIFDs
            case 0x0103: if let compression = tiff.number(entry), compression >= 32767 || compression == 34713 { return true }
            case 0x0106: if let photometric = tiff.number(entry), photometric == 32803 || photometric == 34892 { return true }
            default: break
            }
        }
        return false
    }

    /// A RAW's details and date: a TIFF-based RAW's own EXIF, a RAF's in its preview JPEG, a
    /// CR3's in the `CMT1` and `CMT2` boxes of its metadata `uuid` box.
    public static func metadata(_ file: FileBytes) -> ImageMetadata? {
        let head = file.prefix
        if ImageFormat.starts(head, Array("FUJIFILMCCD-RAW".utf8)) {
            guard let preview = previews(in: file).previews.first,
                let jpeg = file.bytes(at: preview.offset, count: min(preview.length, MetadataReader.prefixLength))
            else { return nil }
            return ImageMetadata(parsing: jpeg)
        }
        if ImageFormat.isBMFF(head, brands: ["crx "]) { return cr3Metadata(file) }
        return ImageMetadata(parsing: head)
    }

    /// Canon's metadata `uuid` box (85c0b687-820f-11e0-8111-f4ce462b6a48) inside `moov`.
    static let cr3MetadataUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    static func cr3Metadata(_ file: FileBytes) -> ImageMetadata? {
        var offset = 0
        for _ in 0..<64 {
            guard let (type, start, end) = BaseMediaBox.box(in: file, at: offset) else { return nil }
            if type == "moov" {
                guard end - start <= QuickTimeHeader.movieLimit, let movie = file.bytes(at: start, count: end - start) else { return nil }
                for (child, range) in BaseMediaBox.children(of: movie, in: 0..<movie.count)
                where child == "uuid" && range.count > 16 && Array(movie[range.lowerBound..<(range.lowerBound + 16)]) == cr3MetadataUUID {
                    let boxes = BaseMediaBox.children(of: movie, in: (range.lowerBound + 16)..<range.upperBound)
                    guard let cmt1 = boxes.first(where: { $0.type == "CMT1" })?.range else { return nil }
                    let cmt2 = boxes.first(where: { $0.type == "CMT2" }).map { Array(movie[$0.range]) }
                    return ImageMetadata(ifd0: Array(movie[cmt1]), exif: cmt2)
                }
                return nil
            }
            offset = end
        }
        return nil
    }

    /// An embedded JPEG and its size, as its own header says.
    public struct SizedPreview: Hashable, Sendable {
        public var preview: Preview
        public var width: Int
        public var height: Int
    }

    /// Bytes of an embedded JPEG read to learn its size.
    static let previewHeaderBytes = 64 << 10

    /// The JPEG previews a RAW holds with their sizes (each preview's own EXIF thumbnail one
    /// more: a RAF's header JPEG holds one), those of at most `byteLimit` bytes, and the RAW's
    /// orientation (EXIF's 1–8).
    public static func sizedPreviews(in bytes: FileBytes, byteLimit: Int) -> (previews: [SizedPreview], orientation: Int) {
        let (previews, orientation) = self.previews(in: bytes)
        var sized: [SizedPreview] = []
        for preview in previews where preview.length > 4 && preview.length <= byteLimit {
            guard let head = bytes.bytes(at: preview.offset, count: min(preview.length, previewHeaderBytes)),
                head.starts(with: [0xFF, 0xD8]), let header = JPEGHeader(parsing: head), header.width > 0, header.height > 0
            else { continue }
            sized.append(SizedPreview(preview: preview, width: header.width, height: header.height))
            if let thumbnail = header.exifThumbnail, thumbnail.upperBound <= head.count, thumbnail.count > 4,
                let inner = JPEGHeader(parsing: Array(head[thumbnail])), inner.width > 0, inner.height > 0
            {
                sized.append(
                    SizedPreview(
                        preview: Preview(offset: preview.offset + thumbnail.lowerBound, length: thumbnail.count), width: inner.width, height: inner.height))
            }
        }
        return (sized, orientation)
    }

    /// The JPEG previews a RAW holds, and its orientation (EXIF's 1–8).
    public static func previews(in file: FileBytes) -> (previews: [Preview], orientation: Int) {
        let head = file.prefix
        if ImageFormat.starts(head, Array("FUJIFILMCCD-RAW".utf8)) {
            // RAF: the JPEG's offset and length at 84, big-endian.
            guard let offset = head.bigEndian(at: 84, width: 4), let length = head.bigEndian(at: 88, width: 4) else { return ([], 1) }
            return ([Preview(offset: Int(offset), length: Int(length))], 1)
        }
        if ImageFormat.isBMFF(head, brands: ["crx "]) { return (cr3Previews(file), 1) }
        guard let bytes = file.bytes(at: 0, count: min(file.count, directoryBytes)), let tiff = TIFFStructure(bytes, range: 0..<bytes.count),
            let first = tiff.firstDirectory
        else { return ([], 1) }
        var found: [Preview] = []
        var orientation = 1
        var queue = [first]
        var seen: Set<Int> = []
        while let offset = queue.popLast(), seen.count < 32 {
            guard seen.insert(offset).inserted, let (entries, next) = tiff.directory(at: offset) else { continue }
            let isFirst = offset == first
            var values: [Int: Int] = [:]
            for entry in entries {
                switch entry.tag {
                case 0x0112 where isFirst: orientation = tiff.number(entry).map { (1...8).contains($0) ? $0 : 1 } ?? 1
                case 0x014A:
                    // SubIFDs: one offset in the field, or a list of them elsewhere.
                    if entry.count == 1 {
                        tiff.u32(entry.field).map { queue.append($0) }
                    } else if let list = tiff.u32(entry.field) {
                        for i in 0..<min(entry.count, 8) { tiff.u32(list + 4 * i).map { queue.append($0) } }
                    }
                case 0x002E:
                    // Panasonic's JpgFromRaw: the JPEG is the value itself.
                    if let start = tiff.u32(entry.field), entry.count > 0 { found.append(Preview(offset: start, length: entry.count)) }
                case 0x0103, 0x0111, 0x0117, 0x0201, 0x0202:
                    if entry.count == 1 { values[entry.tag] = tiff.number(entry) }
                case 0x8769 where isFirst:
                    // The Exif directory: an Olympus or OM System maker note there holds the ORF's previews.
                    if let exif = tiff.number(entry) { found += makerNotePreviews(tiff, exif: exif) }
                default: break
                }
            }
            if let start = values[0x0201], let length = values[0x0202] { found.append(Preview(offset: start, length: length)) }
            // A single strip of JPEG (old-style or baseline): CR2's and DNG's previews.
            if let compression = values[0x0103], compression == 6 || compression == 7,
                let start = values[0x0111], let length = values[0x0117]
            {
                found.append(Preview(offset: start, length: length))
            }
            if let next, next > 0, isFirst || seen.count < 8 { queue.append(next) }
        }
        return (Array(Set(found)).sorted { $0.offset < $1.offset }, orientation)
    }

    /// The previews in an Olympus or OM System maker note (ORF) in the Exif directory at `exif`:
    /// the preview image of its camera settings (`0x2020`: `0x0101` start, `0x0102` length) and
    /// the older cameras' thumbnail (`0x0100`, the JPEG itself). New-style notes (`OLYMPUS\0II`,
    /// `OM SYSTEM\0\0\0II`) count offsets from the note's start; old ones (`OLYMP\0`) from the TIFF's.
    static func makerNotePreviews(_ tiff: TIFFStructure, exif: Int) -> [Preview] {
        guard let (entries, _) = tiff.directory(at: exif),
            let note = entries.first(where: { $0.tag == 0x927C }), note.count > 16, let start = tiff.u32(note.field),
            tiff.base + start + note.count <= tiff.end
        else { return [] }
        let at = tiff.base + start
        let header = Array(tiff.data[at..<(at + 16)])
        let notes: TIFFStructure?, first: Int
        if ImageFormat.starts(header, Array("OLYMPUS\0".utf8)) || ImageFormat.starts(header, Array("OM SYSTEM\0\0\0".utf8)) {
            let order = header[0] == 0x4F && header[1] == 0x4C ? 8 : 12  // after the name: II or MM, then the version
            notes = TIFFStructure(tiff.data, base: at, end: at + note.count, isLittleEndian: header[order] == 0x49)
            first = order + 4
        } else if ImageFormat.starts(header, Array("OLYMP\0".utf8)) {
            notes = TIFFStructure(tiff.data, base: tiff.base, end: tiff.end, isLittleEndian: tiff.isLittleEndian)
            first = start + 8
        } else {
            return []
        }
        guard let notes, let (main, _) = notes.directory(at: first) else { return [] }
        // Offsets are made absolute in the file from where the note's own count from.
        let origin = notes.base
        var found: [Preview] = []
        for entry in main {
            switch entry.tag {
            case 0x0100 where entry.type == 7 && entry.count > 4:
                if let offset = notes.u32(entry.field) { found.append(Preview(offset: origin + offset, length: entry.count)) }
            case 0x2020:
                guard let settings = notes.u32(entry.field), let (values, _) = notes.directory(at: settings) else { continue }
                let number = { (tag: Int) in values.first { $0.tag == tag }.flatMap { notes.number($0) } }
                if let offset = number(0x0101), let length = number(0x0102), length > 0 {
                    found.append(Preview(offset: origin + offset, length: length))
                }
            default: break
            }
        }
        return found
    }

    /// CR3's preview: the `PRVW` box in its preview `uuid` box (about 1620x1080): the JPEG's
    /// length at 20 from the box's start, the JPEG at 24 (as Laurent Clévy's notes describe it).
    static func cr3Previews(_ file: FileBytes) -> [Preview] {
        var found: [Preview] = []
        var offset = 0
        for _ in 0..<64 {
            guard let (type, start, end) = BaseMediaBox.box(in: file, at: offset) else { break }
            if type == "uuid", end - start <= 4 << 20, let payload = file.bytes(at: start, count: end - start) {
                let pattern = Array("PRVW".utf8)
                var i = 4
                while i + 4 <= payload.count, found.count < 4 {
                    defer { i += 1 }
                    guard payload[i] == pattern[0], Array(payload[i..<(i + 4)]) == pattern,
                        let length = payload.bigEndian(at: i + 16, width: 4)
                    else { continue }
                    found.append(Preview(offset: start + i + 20, length: Int(length)))
                }
            }
            offset = end
        }
        return found
    }
}
