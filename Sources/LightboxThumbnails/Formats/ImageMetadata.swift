/// What a photo's EXIF says: when it was taken, with what, and how. Strings are bounded in
/// length but not sanitized: the view does that.
public struct ImageMetadata: Hashable, Sendable {
    /// A ratio as EXIF stores it.
    public struct Fraction: Hashable, Sendable {
        public var numerator: Int
        public var denominator: Int

        public init(numerator: Int, denominator: Int) {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    /// The fields, as they are held.
    struct Fields: Hashable, Sendable {
        var dateTaken: String?
        var make: String?
        var model: String?
        var lens: String?
        var exposure: Fraction?
        var fNumber: Double?
        var iso: Int?
        var focalLength: Double?
        var exposureBias: Double?
        var subsecond: Double?
        var hasGPS = false
        var orientation: Int?
        var video: VideoMetadata?
        var frameCount: Int?
        var focusPoint: FocusPoint?
        var burstID: String?
    }

    /// The fields behind one reference, copied only when changed while shared: inline they were
    /// 400 bytes that every copy moved (a 100,000-photo relaunch moved each through the index's
    /// replay, its batches and the library several times, half of the replay's time).
    final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage = Storage(Fields())

    /// The storage, copied first when another value shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    public static func == (a: ImageMetadata, b: ImageMetadata) -> Bool { a.storage === b.storage || a.storage.fields == b.storage.fields }
    public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }

    /// `DateTimeOriginal` (else `DateTime`) as written, `YYYY:MM:DD HH:MM:SS`, local to the camera.
    public var dateTaken: String? {
        get { storage.fields.dateTaken }
        set { unique().fields.dateTaken = newValue }
    }
    public var make: String? {
        get { storage.fields.make }
        set { unique().fields.make = newValue }
    }
    public var model: String? {
        get { storage.fields.model }
        set { unique().fields.model = newValue }
    }
    public var lens: String? {
        get { storage.fields.lens }
        set { unique().fields.lens = newValue }
    }
    /// Exposure time in seconds.
    public var exposure: Fraction? {
        get { storage.fields.exposure }
        set { unique().fields.exposure = newValue }
    }
    public var fNumber: Double? {
        get { storage.fields.fNumber }
        set { unique().fields.fNumber = newValue }
    }
    public var iso: Int? {
        get { storage.fields.iso }
        set { unique().fields.iso = newValue }
    }
    /// Focal length in millimetres.
    public var focalLength: Double? {
        get { storage.fields.focalLength }
        set { unique().fields.focalLength = newValue }
    }
    /// Exposure compensation in EV (`ExposureBiasValue`), negative darker.
    public var exposureBias: Double? {
        get { storage.fields.exposureBias }
        set { unique().fields.exposureBias = newValue }
    }
    /// The fraction of a second the photo was taken at (`SubSecTimeOriginal`), 0 to below 1: a
    /// burst's frames in one second told apart.
    public var subsecond: Double? {
        get { storage.fields.subsecond }
        set { unique().fields.subsecond = newValue }
    }
    public var hasGPS: Bool {
        get { storage.fields.hasGPS }
        set { unique().fields.hasGPS = newValue }
    }
    /// EXIF's orientation, 1 to 8 (nil when not said): 5 to 8 turn the picture a quarter.
    public var orientation: Int? {
        get { storage.fields.orientation }
        set { unique().fields.orientation = newValue }
    }
    /// What a video's container says of it; nil for photos.
    public var video: VideoMetadata? {
        get { storage.fields.video }
        set { unique().fields.video = newValue }
    }
    /// An animation's frames (GIF, APNG, animated WebP); nil for a still picture.
    public var frameCount: Int? {
        get { storage.fields.frameCount }
        set { unique().fields.frameCount = newValue }
    }
    /// Where the camera focused, when its maker note says (`ImageMetadata+MakerNotes`).
    public var focusPoint: FocusPoint? {
        get { storage.fields.focusPoint }
        set { unique().fields.focusPoint = newValue }
    }
    /// The burst the frame is one of, as the camera named it (Apple's `BurstUUID`).
    public var burstID: String? {
        get { storage.fields.burstID }
        set { unique().fields.burstID = newValue }
    }

    public init() {}

    /// With `fields` as they are (the index's records, decoded into a value first).
    init(fields: Fields) { storage = Storage(fields) }

    /// `SubSecTimeOriginal`'s digits as a fraction of a second (`"05"` is 0.05); nil for anything else.
    static func subsecond(digits: String) -> Double? {
        let digits = digits.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Double("0." + digits)
    }

    /// A video's metadata: what its container says, and when it was made as its date: the local
    /// time when the container gives it (`local`, as EXIF writes dates), else `created` (seconds since 1970, UTC).
    init(video: VideoMetadata, created: Int64?, local: String? = nil) {
        self.init()
        self.video = video
        dateTaken = local ?? created.flatMap(Self.dateText(seconds:))
    }

    /// `seconds` since 1970 as EXIF writes a date, `YYYY:MM:DD HH:MM:SS`; nil before year 1.
    static func dateText(seconds: Int64) -> String? {
        guard seconds > -62_135_596_800, seconds < 253_402_300_800 else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = Int(seconds - days * 86_400)
        // Civil from days (Howard Hinnant's algorithm), the inverse of `dateTakenSeconds`.
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText):\(two(month)):\(two(day)) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
    }

    /// The date taken as wall-clock seconds since 1970 (the camera's local time read as UTC), for sorting and grouping.
    public var dateTakenSeconds: Int64? {
        guard var text = dateTaken, text.utf8.count >= 19 else { return nil }
        // In place: a copy of the bytes cost a 100,000-photo relaunch a tenth of taking the index's library.
        return text.withUTF8 { Self.seconds(from: $0) }
    }

    /// `dateTakenSeconds` of `digits`, a date's text of 19 bytes at least.
    static func seconds(from digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard (48...57).contains(digits[i]) else { return nil }
                value = value * 10 + Int(digits[i] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61, year > 1800
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm), so no time zone is involved.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Reads the EXIF block of a JPEG (or a TIFF file's own header) from the start of a file.
    /// Nil when there is no EXIF to read.
    /// - Complexity: O(*n*) in the size of the header segments.
    public init?(parsing data: [UInt8]) {
        let range: Range<Int>
        if let header = JPEGHeader(parsing: data), let block = header.exifBlock {
            range = block
        } else if data.count >= 8, data[0] == data[1], data[0] == 0x49 || data[0] == 0x4D {
            range = 0..<data.count
        } else {
            return nil
        }
        guard let tiff = TIFFStructure(data, range: range), let ifd0 = tiff.firstDirectory,
            let (entries, _) = tiff.directory(at: ifd0)
        else { return nil }
        self.init()
        var exifIFD: Int?
        var dateTime: String?
        for entry in entries {
            switch entry.tag {
            case 0x010F: make = tiff.text(entry)
            case 0x0110: model = tiff.text(entry)
            case 0x0132: dateTime = tiff.text(entry)
            case 0x0112: orientation = tiff.number(entry).flatMap { (1...8).contains($0) ? $0 : nil }
            case 0x8769: exifIFD = tiff.number(entry)
            case 0x8825: hasGPS = tiff.number(entry).flatMap { tiff.directory(at: $0) }.map { !$0.entries.isEmpty } ?? false
            default: break
            }
        }
        if let exifIFD, exifIFD != ifd0 { readExif(tiff, at: exifIFD) }
        if dateTaken == nil { dateTaken = dateTime }
    }

    /// Reads an Exif directory: exposure, aperture, ISO, the date taken, focal length, lens.
    mutating func readExif(_ tiff: TIFFStructure, at offset: Int) {
        guard let (exif, _) = tiff.directory(at: offset) else { return }
        var note: TIFFStructure.Entry?, frameWidth: Int?, frameHeight: Int?
        defer {
            let frame = frameWidth.flatMap { w in frameHeight.map { (width: w, height: $0) } }
            if let note { readMakerNote(tiff, note: note, frame: frame) }
        }
        for entry in exif {
            switch entry.tag {
            case 0x829A: exposure = tiff.rational(entry).map { Fraction(numerator: $0.numerator, denominator: $0.denominator) }
            case 0x829D: fNumber = tiff.rational(entry).map { Double($0.numerator) / Double($0.denominator) }
            case 0x8827: iso = tiff.number(entry)
            case 0x9003: dateTaken = tiff.text(entry)
            case 0x9291: subsecond = tiff.text(entry, limit: 9).flatMap(Self.subsecond(digits:))
            case 0x9204: exposureBias = tiff.rational(entry).map { Double($0.numerator) / Double($0.denominator) }
            case 0x920A: focalLength = tiff.rational(entry).map { Double($0.numerator) / Double($0.denominator) }
            case 0xA434: lens = tiff.text(entry)
            case 0x927C where entry.type == 7: note = entry
            case 0xA002: frameWidth = tiff.number(entry)
            case 0xA003: frameHeight = tiff.number(entry)
            default: break
            }
        }
    }

    /// A CR3's metadata: `CMT1` holds IFD0 as a TIFF, `CMT2` the Exif directory as a TIFF of its own.
    init?(ifd0: [UInt8], exif: [UInt8]?) {
        guard var metadata = ImageMetadata(parsing: ifd0) else { return nil }
        if let exif, let tiff = TIFFStructure(exif, range: 0..<exif.count), let first = tiff.firstDirectory {
            let fallback = metadata.dateTaken
            metadata.dateTaken = nil
            metadata.readExif(tiff, at: first)
            if metadata.dateTaken == nil { metadata.dateTaken = fallback }
        }
        self = metadata
    }
}

/// What a video's container says of it: how long it runs, how it is coded, its picture.
public struct VideoMetadata: Hashable, Sendable {
    /// Seconds.
    public var duration: Double?
    /// The video's coding, as the container names it (`avc1`, `hvc1`, `V_VP9`).
    public var codec: String?
    /// Frames a second.
    public var frameRate: Double?
    /// The picture as shown: its rotation applied.
    public var size: PixelSize?

    public init(duration: Double? = nil, codec: String? = nil, frameRate: Double? = nil, size: PixelSize? = nil) {
        self.duration = duration
        self.codec = codec
        self.frameRate = frameRate
        self.size = size
    }
}
