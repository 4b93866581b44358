/// What a Matroska or WebM file's segment says: when it was made, how long it runs, and its
/// first video track's coding, frame rate and picture. Our own bounds-checked reader of the
/// EBML elements: only the segment's `Info` and `Tracks` are read, never a cluster.
struct MatroskaHeader: Hashable {
    var created: Int64?
    var video = VideoMetadata()

    /// Most elements walked at the top of the segment before giving up.
    static let elementLimit = 1024
    /// The largest `Info` or `Tracks` element read.
    static let elementSizeLimit = 4 << 20
    /// Seconds from 1970 to 2001, where Matroska's dates count from.
    static let epochOffset: Int64 = 978_307_200

    static let segment: UInt32 = 0x1853_8067, info: UInt32 = 0x1549_A966, tracks: UInt32 = 0x1654_AE6B, cluster: UInt32 = 0x1F43_B675

    /// Reads the segment's information and tracks; nil when the file has no segment.
    init?(reading file: FileBytes) {
        // The EBML header, then the segment.
        guard let ebml = Self.element(in: file, at: 0), ebml.id == 0x1A45_DFA3,
            let segment = Self.element(in: file, at: ebml.end), segment.id == Self.segment
        else { return nil }
        var offset = segment.start
        var seenInfo = false, seenTracks = false
        for _ in 0..<Self.elementLimit where !(seenInfo && seenTracks) {
            guard let child = Self.element(in: file, at: offset), child.id != Self.cluster else { break }
            if child.id == Self.info || child.id == Self.tracks, child.end - child.start <= Self.elementSizeLimit,
                let payload = file.bytes(at: child.start, count: child.end - child.start)
            {
                if child.id == Self.info {
                    readInfo(payload)
                    seenInfo = true
                } else {
                    readTracks(payload)
                    seenTracks = true
                }
            }
            offset = child.end
        }
    }

    mutating func readInfo(_ bytes: [UInt8]) {
        var scale = 1_000_000.0
        var duration: Double?
        for element in Self.elements(of: bytes, in: 0..<bytes.count) {
            switch element.id {
            case 0x2A_D7B1: if let value = Self.unsigned(bytes, element.range), value > 0 { scale = Double(value) }
            case 0x4489: duration = Self.float(bytes, element.range)
            case 0x4461:
                if let raw = Self.unsigned(bytes, element.range), element.range.count == 8 {
                    created = Int64(bitPattern: raw) / 1_000_000_000 + Self.epochOffset
                }
            default: break
            }
        }
        if let duration, duration > 0, duration.isFinite { video.duration = duration * scale / 1e9 }
    }

    mutating func readTracks(_ bytes: [UInt8]) {
        for entry in Self.elements(of: bytes, in: 0..<bytes.count) where entry.id == 0xAE {
            var isVideo = false, codec: String?, frameDuration: UInt64?, size: PixelSize?
            for field in Self.elements(of: bytes, in: entry.range) {
                switch field.id {
                case 0x83: isVideo = Self.unsigned(bytes, field.range) == 1
                case 0x86: codec = String(decoding: bytes[field.range].prefix { $0 != 0 }.prefix(32), as: UTF8.self)
                case 0x23_E383: frameDuration = Self.unsigned(bytes, field.range)
                case 0xE0:
                    var width: UInt64?, height: UInt64?
                    for dimension in Self.elements(of: bytes, in: field.range) {
                        if dimension.id == 0xB0 { width = Self.unsigned(bytes, dimension.range) }
                        if dimension.id == 0xBA { height = Self.unsigned(bytes, dimension.range) }
                    }
                    if let width, let height, width > 0, height > 0, width < 1 << 20, height < 1 << 20 {
                        size = PixelSize(width: Int(width), height: Int(height))
                    }
                default: break
                }
            }
            guard isVideo else { continue }
            video.codec = codec
            video.size = size
            if let frameDuration, frameDuration > 0 { video.frameRate = 1e9 / Double(frameDuration) }
            return
        }
    }

    /// An element of a file: its id and where its payload starts and ends (an unknown size runs to the end).
    static func element(in file: FileBytes, at offset: Int) -> (id: UInt32, start: Int, end: Int)? {
        guard let bytes = file.bytes(at: offset, count: min(12, file.count - offset)),
            let (id, size, length) = header(bytes, at: 0)
        else { return nil }
        let start = offset + length
        let end = size.map { $0 <= UInt64(file.count - start) ? start + Int($0) : -1 } ?? file.count
        return end >= start ? (id, start, end) : nil
    }

    /// The elements inside `range` of `bytes`.
    static func elements(of bytes: [UInt8], in range: Range<Int>) -> [(id: UInt32, range: Range<Int>)] {
        var found: [(id: UInt32, range: Range<Int>)] = []
        var offset = range.lowerBound
        while offset < range.upperBound, found.count < elementLimit {
            guard let (id, size, length) = header(Array(bytes[offset..<min(range.upperBound, offset + 12)]), at: 0) else { break }
            let start = offset + length
            guard start <= range.upperBound else { break }
            let end = size.map { $0 <= UInt64(range.upperBound - start) ? start + Int($0) : -1 } ?? range.upperBound
            guard end >= start else { break }
            found.append((id, start..<end))
            offset = end
        }
        return found
    }

    /// An element's id, payload size (nil: unknown) and header length, read at `offset`.
    static func header(_ bytes: [UInt8], at offset: Int) -> (id: UInt32, size: UInt64?, length: Int)? {
        guard offset < bytes.count else { return nil }
        let idLength = bytes[offset].leadingZeroBitCount + 1
        guard idLength <= 4, let id = bytes.bigEndian(at: offset, width: idLength) else { return nil }
        let sizeAt = offset + idLength
        guard sizeAt < bytes.count else { return nil }
        let sizeLength = bytes[sizeAt].leadingZeroBitCount + 1
        guard sizeLength <= 8, var size = bytes.bigEndian(at: sizeAt, width: sizeLength) else { return nil }
        let marker: UInt64 = 1 << UInt64(7 * sizeLength)
        size &= marker - 1
        return (UInt32(id), size == marker - 1 ? nil : size, idLength + sizeLength)
    }

    static func unsigned(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64? {
        guard (1...8).contains(range.count) else { return nil }
        return bytes.bigEndian(at: range.lowerBound, width: range.count)
    }

    static func float(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        guard let raw = unsigned(bytes, range) else { return nil }
        if range.count == 4 { return Double(Float(bitPattern: UInt32(raw))) }
        return range.count == 8 ? Double(bitPattern: raw) : nil
    }
}
