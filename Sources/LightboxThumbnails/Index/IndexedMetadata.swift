/// What the metadata reader learned of one file, as the index keeps it: the metadata (nil when
/// the file has none) and the picture's shown size. Stored as bytes of our own layout: a
/// presence mask, then the fields present, in order; anything that does not read back whole is
/// no record at all (the file is read again). Held as those bytes, checked when made: the
/// gallery reads what it arranges by from them (`parts`) and makes an `ImageMetadata` only for
/// what it shows (a replay of 100,000 photos made one each, with its date's text, on the
/// replay's thread, for the gallery to take apart and let go).
public struct IndexedMetadata: Hashable, Sendable {
    /// The record as bytes.
    public let encoded: [UInt8]

    public init(metadata: ImageMetadata?, shownSize: PixelSize?) {
        encoded = Self.encode(metadata, shownSize)
    }

    /// The metadata; nil when the file has none.
    public var metadata: ImageMetadata? { decoded.metadata }
    /// The picture's shown size, when known (no texts made).
    public var shownSize: PixelSize? { parts.shownSize }

    /// Both, decoded (checked whole when made).
    /// - Complexity: O(*b*) in the record's bytes.
    public var decoded: (metadata: ImageMetadata?, shownSize: PixelSize?) {
        encoded.withUnsafeBytes { bytes in
            guard let parts = Parts(bytes) else { return (nil, nil) }
            return (parts.hasMetadata ? ImageMetadata(fields: parts.fields(in: bytes)) : nil, parts.shownSize)
        }
    }

    /// The record's parts, their texts where they are in `encoded`: what a gallery arranges by,
    /// without an `ImageMetadata` made (its fields, its texts).
    /// - Complexity: O(*b*) in the record's bytes.
    public var parts: Parts { Parts(of: encoded) }

    /// What the metadata reader would answer for item `id` with this.
    public func result(for id: ItemID) -> MetadataResult {
        let record = decoded
        return MetadataResult(id: id, metadata: record.metadata, size: record.shownSize)
    }

    /// The fields in the order written; a field's bit in the mask is its place here.
    private enum Field: Int, CaseIterable {
        case hasMetadata, shownSize, dateTaken, make, model, lens, exposure, fNumber, iso, focalLength, exposureBias, subsecond, hasGPS
        case orientation, videoDuration, videoCodec, videoFrameRate, videoSize, isVideo, frameCount, focusPoint, burstID
    }

    /// `metadata` and `shownSize` as bytes.
    private static func encode(_ metadata: ImageMetadata?, _ shownSize: PixelSize?) -> [UInt8] {
        var out = Writer()
        var mask: UInt32 = 0
        func has(_ field: Field) { mask |= 1 << UInt32(field.rawValue) }
        var body = Writer()
        if let size = shownSize {
            has(.shownSize)
            body.size(size)
        }
        if let m = metadata {
            has(.hasMetadata)
            if let v = m.dateTaken { has(.dateTaken); body.text(v) }
            if let v = m.make { has(.make); body.text(v) }
            if let v = m.model { has(.model); body.text(v) }
            if let v = m.lens { has(.lens); body.text(v) }
            if let v = m.exposure { has(.exposure); body.integer(v.numerator); body.integer(v.denominator) }
            if let v = m.fNumber { has(.fNumber); body.real(v) }
            if let v = m.iso { has(.iso); body.integer(v) }
            if let v = m.focalLength { has(.focalLength); body.real(v) }
            if let v = m.exposureBias { has(.exposureBias); body.real(v) }
            if let v = m.subsecond { has(.subsecond); body.real(v) }
            if m.hasGPS { has(.hasGPS) }
            if let v = m.orientation { has(.orientation); body.integer(v) }
            if let video = m.video {
                has(.isVideo)
                if let v = video.duration { has(.videoDuration); body.real(v) }
                if let v = video.codec { has(.videoCodec); body.text(v) }
                if let v = video.frameRate { has(.videoFrameRate); body.real(v) }
                if let v = video.size { has(.videoSize); body.size(v) }
            }
            if let v = m.frameCount { has(.frameCount); body.integer(v) }
            if let v = m.focusPoint {
                has(.focusPoint)
                body.integer(v.x); body.integer(v.y); body.integer(v.width ?? -1); body.integer(v.height ?? -1); body.text(v.source)
            }
            if let v = m.burstID { has(.burstID); body.text(v) }
        }
        out.integer(Int(mask))
        return out.bytes + body.bytes
    }

    /// The record `bytes` hold, or nil when they are not one whole.
    public init?(encoded bytes: [UInt8]) {
        guard bytes.withUnsafeBytes({ Parts($0) }) != nil else { return nil }
        encoded = bytes
    }

    /// The record `bytes` hold (a database's column, read where it is), or nil when they are not one whole.
    public init?(encoded bytes: UnsafeRawBufferPointer) {
        guard Parts(bytes) != nil else { return nil }
        encoded = Array(bytes)
    }

    /// A record's fields as its bytes hold them, texts as where they are (checked as UTF-8, not made).
    public struct Parts: Sendable {
        public var shownSize: PixelSize?
        /// Whether the file had metadata (else the fields below are all nil).
        public var hasMetadata = false
        public var dateTaken: Range<Int>?
        public var make: Range<Int>?
        public var model: Range<Int>?
        public var lens: Range<Int>?
        public var exposure: ImageMetadata.Fraction?
        public var fNumber: Double?
        public var iso: Int?
        public var focalLength: Double?
        public var exposureBias: Double?
        public var subsecond: Double?
        public var hasGPS = false
        public var orientation: Int?
        public var isVideo = false
        public var videoDuration: Double?
        public var videoCodec: Range<Int>?
        public var videoFrameRate: Double?
        public var videoSize: PixelSize?
        public var frameCount: Int?
        public var focusPoint: (x: Int, y: Int, width: Int, height: Int, source: Range<Int>)?
        public var burstID: Range<Int>?

        init() {}

        /// The parts of a record's bytes (`encoded`, checked when it was made).
        public init(of bytes: [UInt8]) { self = bytes.withUnsafeBytes { Parts($0) } ?? Parts() }

        /// The parts of the record `bytes` hold, or nil when they are not one whole.
        init?(_ bytes: UnsafeRawBufferPointer) {
            var input = Reader(bytes: bytes)
            guard let rawMask = input.integer(), let mask = UInt32(exactly: rawMask), mask >> UInt32(Field.allCases.count) == 0 else { return nil }
            func has(_ field: Field) -> Bool { mask & (1 << UInt32(field.rawValue)) != 0 }
            if has(.shownSize) {
                guard let size = input.size() else { return nil }
                shownSize = size
            }
            guard has(.hasMetadata) else {
                guard input.isAtEnd, mask & ~(1 << UInt32(Field.shownSize.rawValue)) == 0 else { return nil }
                return
            }
            hasMetadata = true
            var failed = false
            func read<T>(_ field: Field, _ value: () -> T?) -> T? {
                guard has(field), !failed else { return nil }
                guard let v = value() else {
                    failed = true
                    return nil
                }
                return v
            }
            dateTaken = read(.dateTaken) { input.text() }
            make = read(.make) { input.text() }
            model = read(.model) { input.text() }
            lens = read(.lens) { input.text() }
            exposure = read(.exposure) {
                guard let n = input.integer(), let d = input.integer() else { return nil }
                return ImageMetadata.Fraction(numerator: n, denominator: d)
            }
            fNumber = read(.fNumber) { input.real() }
            iso = read(.iso) { input.integer() }
            focalLength = read(.focalLength) { input.real() }
            exposureBias = read(.exposureBias) { input.real() }
            subsecond = read(.subsecond) { input.real() }
            hasGPS = has(.hasGPS)
            orientation = read(.orientation) { input.integer() }
            isVideo = has(.isVideo)
            if isVideo {
                videoDuration = read(.videoDuration) { input.real() }
                videoCodec = read(.videoCodec) { input.text() }
                videoFrameRate = read(.videoFrameRate) { input.real() }
                videoSize = read(.videoSize) { input.size() }
            }
            frameCount = read(.frameCount) { input.integer() }
            focusPoint = read(.focusPoint) {
                guard let x = input.integer(), let y = input.integer(), let w = input.integer(), let h = input.integer(), let source = input.text() else {
                    return nil
                }
                return (x, y, w, h, source)
            }
            burstID = read(.burstID) { input.text() }
            guard !failed, input.isAtEnd else { return nil }
        }

        /// The text at `range` of `bytes` (checked as UTF-8 when the parts were read).
        static func text(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        /// The date taken as `ImageMetadata.dateTakenSeconds` says it; `bytes`: the record's.
        public func dateTakenSeconds(in bytes: [UInt8]) -> Int64? {
            guard let range = dateTaken, range.count >= 19 else { return nil }
            return bytes[range].withUnsafeBufferPointer { ImageMetadata.seconds(from: $0) }
        }

        /// The fields, their texts made.
        func fields(in bytes: UnsafeRawBufferPointer) -> ImageMetadata.Fields {
            func text(_ range: Range<Int>?) -> String? { range.map { Self.text($0, in: bytes) } }
            var m = ImageMetadata.Fields()
            m.dateTaken = text(dateTaken)
            m.make = text(make)
            m.model = text(model)
            m.lens = text(lens)
            m.exposure = exposure
            m.fNumber = fNumber
            m.iso = iso
            m.focalLength = focalLength
            m.exposureBias = exposureBias
            m.subsecond = subsecond
            m.hasGPS = hasGPS
            m.orientation = orientation
            if isVideo { m.video = VideoMetadata(duration: videoDuration, codec: text(videoCodec), frameRate: videoFrameRate, size: videoSize) }
            m.frameCount = frameCount
            m.focusPoint = focusPoint.map {
                ImageMetadata.FocusPoint(
                    x: $0.x, y: $0.y, width: $0.width < 0 ? nil : $0.width, height: $0.height < 0 ? nil : $0.height, source: Self.text($0.source, in: bytes))
            }
            m.burstID = text(burstID)
            return m
        }
    }

    /// Numbers as zig-zag varints, reals as their 8 bytes, texts as a length and UTF-8.
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func integer(_ value: Int) {
            var zigzag = UInt64(bitPattern: Int64(value << 1) ^ Int64(value >> 63))
            repeat {
                let low = UInt8(zigzag & 0x7f)
                zigzag >>= 7
                bytes.append(zigzag == 0 ? low : low | 0x80)
            } while zigzag != 0
        }

        mutating func real(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
        }

        mutating func text(_ value: String) {
            integer(value.utf8.count)
            bytes += value.utf8
        }

        mutating func size(_ value: PixelSize) {
            integer(value.width)
            integer(value.height)
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at = 0
        var isAtEnd: Bool { at == bytes.count }

        mutating func integer() -> Int? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while at < bytes.count, shift < 64 {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return Int(truncatingIfNeeded: Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)) }
                shift += 7
            }
            return nil
        }

        mutating func real() -> Double? {
            guard at + 8 <= bytes.count else { return nil }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            at += 8
            // No reader writes a NaN or an infinity: one is damage (and NaN would not equal itself).
            let value = Double(bitPattern: bits)
            return value.isFinite ? value : nil
        }

        /// Where a text is, checked as UTF-8.
        mutating func text() -> Range<Int>? {
            guard let count = integer(), count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            let text = UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)])
            // ASCII (a date, most cameras' names) is UTF-8 as it is: the generic validation was a
            // sixth of a 100,000-photo replay.
            guard text.contains(where: { $0 >= 0x80 }) else { return at..<(at + count) }
            return String(validating: text, as: UTF8.self) == nil ? nil : at..<(at + count)
        }

        mutating func size() -> PixelSize? {
            guard let width = integer(), let height = integer() else { return nil }
            return PixelSize(width: width, height: height)
        }
    }
}
