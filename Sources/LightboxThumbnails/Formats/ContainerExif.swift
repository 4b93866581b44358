/// The EXIF that image containers other than JPEG and TIFF carry, found by our own
/// bounds-checked readers of their structure: PNG's `eXIf` chunk, WebP's `EXIF` chunk, and the
/// `Exif` item of a HEIF or AVIF file. Each holds a TIFF structure, read as a TIFF file's start is.
/// The same walks count an animation's frames (APNG's `acTL`, WebP's `ANMF` chunks; GIF's frames).
enum ContainerExif {
    /// Most chunks or boxes walked in one file.
    static let walkLimit = 10_000
    /// The largest EXIF block read.
    static let blockLimit = 1 << 20

    /// The metadata in a TIFF structure at the start of `block` (after an `Exif\0\0` some writers put first).
    static func metadata(_ block: [UInt8]) -> ImageMetadata? {
        let exifPrefix = Array("Exif".utf8) + [0, 0]
        return ImageMetadata(parsing: block.starts(with: exifPrefix) ? Array(block.dropFirst(6)) : block)
    }

    /// The metadata found, with `frames` counted when there are more than one; nil when there is neither.
    static func result(_ found: ImageMetadata?, frames: Int) -> ImageMetadata? {
        guard found != nil || frames > 1 else { return nil }
        var metadata = found ?? ImageMetadata()
        if frames > 1 { metadata.frameCount = frames }
        return metadata
    }

    /// PNG: chunks of a length, a type, the data and a CRC, from byte 8 to `IEND`.
    static func png(_ file: FileBytes) -> ImageMetadata? {
        var offset = 8, found: ImageMetadata?, frames = 0
        for _ in 0..<walkLimit {
            guard let header = file.bytes(at: offset, count: 8), let length = header.bigEndian(at: 0, width: 4),
                let type = header.fourCC(at: 4), type != "IEND"
            else { break }
            if type == "eXIf", length <= blockLimit { found = file.bytes(at: offset + 8, count: Int(length)).flatMap(metadata) }
            if type == "acTL", let count = file.bytes(at: offset + 8, count: 4)?.bigEndian(at: 0, width: 4) { frames = Int(min(count, 1 << 20)) }
            offset += 12 + Int(length)
        }
        return result(found, frames: frames)
    }

    /// WebP: RIFF chunks of a type and a little-endian size, padded to even lengths, from byte 12.
    static func webp(_ file: FileBytes) -> ImageMetadata? {
        var offset = 12, found: ImageMetadata?, frames = 0
        for _ in 0..<walkLimit {
            guard let header = file.bytes(at: offset, count: 8), let type = header.fourCC(at: 0),
                let size = header.bigEndian(at: 4, width: 4).map({ Int(UInt32($0).byteSwapped) })
            else { break }
            if type == "EXIF", size <= blockLimit { found = file.bytes(at: offset + 8, count: size).flatMap(metadata) }
            if type == "ANMF" { frames += 1 }
            offset += 8 + size + size % 2
        }
        return result(found, frames: frames)
    }

    /// The most of a GIF read to count its frames (a longer one's count is of its first frames).
    static let gifLimit = 16 << 20

    /// GIF: its frames, counted by walking its blocks (GIF keeps no EXIF).
    static func gif(_ file: FileBytes) -> ImageMetadata? {
        guard let data = file.bytes(at: 0, count: min(file.count, gifLimit)) else { return nil }
        return result(nil, frames: ImageHeader.gifFrames(data).frames)
    }

    /// HEIF and AVIF: the `meta` box's item information (`iinf`) names the `Exif` item, its
    /// location (`iloc`) says where it is; the item starts with the offset of its TIFF header.
    static func heif(_ file: FileBytes) -> ImageMetadata? {
        var offset = 0
        var meta: [UInt8]?
        for _ in 0..<64 {
            guard let (type, start, end) = BaseMediaBox.box(in: file, at: offset) else { return nil }
            if type == "meta" {
                guard end - start <= 4 << 20 else { return nil }
                meta = file.bytes(at: start, count: end - start)
                break
            }
            offset = end
        }
        // meta is a full box: version and flags, then its children.
        guard let meta, meta.count > 4 else { return nil }
        let children = BaseMediaBox.children(of: meta, in: 4..<meta.count)
        guard let iinf = children.first(where: { $0.type == "iinf" })?.range,
            let iloc = children.first(where: { $0.type == "iloc" })?.range,
            let item = exifItem(meta, iinf), let (start, length) = location(of: item, meta, iloc),
            length > 4, length <= blockLimit, let block = file.bytes(at: start, count: length),
            let tiffOffset = block.bigEndian(at: 0, width: 4), tiffOffset < UInt64(length - 4)
        else { return nil }
        return metadata(Array(block[(4 + Int(tiffOffset))...]))
    }

    /// The id of the item of type `Exif` in an `iinf` box.
    static func exifItem(_ bytes: [UInt8], _ iinf: Range<Int>) -> UInt64? {
        guard let version = bytes.bigEndian(at: iinf.lowerBound, width: 1) else { return nil }
        let entriesStart = iinf.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard entriesStart <= iinf.upperBound else { return nil }
        for (type, range) in BaseMediaBox.children(of: bytes, in: entriesStart..<iinf.upperBound) where type == "infe" {
            guard let infeVersion = bytes.bigEndian(at: range.lowerBound, width: 1), infeVersion >= 2 else { continue }
            let idWidth = infeVersion == 2 ? 2 : 4
            guard let id = bytes.bigEndian(at: range.lowerBound + 4, width: idWidth),
                bytes.fourCC(at: range.lowerBound + 4 + idWidth + 2) == "Exif"
            else { continue }
            return id
        }
        return nil
    }

    /// Where item `item` is in the file, from an `iloc` box: its first extent (construction method 0, file offsets).
    static func location(of item: UInt64, _ bytes: [UInt8], _ iloc: Range<Int>) -> (start: Int, length: Int)? {
        var at = iloc.lowerBound
        func read(_ width: Int) -> UInt64? {
            guard width > 0 else { return 0 }
            guard at + width <= iloc.upperBound, let value = bytes.bigEndian(at: at, width: width) else { return nil }
            at += width
            return value
        }
        guard let version = read(1), read(3) != nil, let sizes = read(1), let sizes2 = read(1) else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(sizes2 >> 4)
        let indexSize = version == 1 || version == 2 ? Int(sizes2 & 15) : 0
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize), [0, 4, 8].contains(indexSize),
            let count = read(version < 2 ? 2 : 4)
        else { return nil }
        for _ in 0..<min(count, 10_000) {
            guard let id = read(version < 2 ? 2 : 4) else { return nil }
            var method: UInt64 = 0
            if version == 1 || version == 2 { guard let value = read(2) else { return nil }; method = value & 15 }
            guard read(2) != nil, let base = read(baseSize), let extents = read(2) else { return nil }
            var first: (UInt64, UInt64)?
            for _ in 0..<extents {
                guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else { return nil }
                if first == nil { first = (offset, length) }
            }
            guard id == item else { continue }
            guard method == 0, let (offset, length) = first, base < 1 << 40, offset < 1 << 40, length < 1 << 40 else { return nil }
            return (Int(base + offset), Int(length))
        }
        return nil
    }
}
