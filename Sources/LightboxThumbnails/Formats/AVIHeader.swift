/// What an AVI file's header list says: how long it runs, its frame rate, picture and the
/// coding of its first video stream. Our own bounds-checked reader of the RIFF chunks of
/// `hdrl`, which sits at the file's start.
struct AVIHeader: Hashable {
    var video = VideoMetadata()
    /// When it was recorded, as the camera wrote it in `IDIT` (RIFF's DateTimeOriginal), as EXIF writes dates.
    var dateTaken: String?

    /// Reads the `hdrl` list from a file's first bytes; nil without one.
    init?(parsing bytes: [UInt8]) {
        // RIFF size "AVI ", then "LIST" size "hdrl".
        guard bytes.fourCC(at: 12) == "LIST", bytes.fourCC(at: 20) == "hdrl", let size = Self.little(bytes, 16) else { return nil }
        let end = max(24, min(bytes.count, 20 + Int(size)))
        for (type, range) in Self.chunks(bytes, in: 24..<end) {
            if type == "avih", range.count >= 40, let perFrame = Self.little(bytes, range.lowerBound),
                let frames = Self.little(bytes, range.lowerBound + 16),
                let width = Self.little(bytes, range.lowerBound + 32), let height = Self.little(bytes, range.lowerBound + 36)
            {
                if perFrame > 0 {
                    video.frameRate = 1e6 / Double(perFrame)
                    if frames > 0 { video.duration = Double(frames) * Double(perFrame) / 1e6 }
                }
                if width > 0, height > 0, width < 1 << 20, height < 1 << 20 { video.size = PixelSize(width: Int(width), height: Int(height)) }
            }
            if type == "IDIT", dateTaken == nil { dateTaken = Self.date(Array(bytes[range.clamped(to: range.lowerBound..<(range.lowerBound + 64))])) }
            // LIST strl: strh names the stream's kind and coding.
            if type == "LIST", range.count >= 4, bytes.fourCC(at: range.lowerBound) == "strl", video.codec == nil {
                for (inner, innerRange) in Self.chunks(bytes, in: (range.lowerBound + 4)..<range.upperBound) where inner == "strh" {
                    if bytes.fourCC(at: innerRange.lowerBound) == "vids", let handler = bytes.fourCC(at: innerRange.lowerBound + 4) {
                        video.codec = String(handler.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.map(Character.init))
                    }
                }
            }
        }
    }

    /// An `IDIT` date as cameras write it, the C library's `Mon Mar 10 15:04:43 2003` or
    /// `2003:03:10 15:04:43` (or with - or / between the date's parts), as EXIF writes dates.
    static func date(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix { $0 != 0 && $0 != 10 && $0 != 13 }, as: UTF8.self)
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        var parts: (year: Int, month: Int, day: Int, time: String)?
        if words.count == 5, let month = months.firstIndex(of: String(words[1].prefix(3)).lowercased()), let day = Int(words[2]),
            let year = Int(words[4])
        {
            parts = (year, month + 1, day, words[3])
        } else if words.count == 2 {
            let date = words[0].split(whereSeparator: { ":-/".contains($0) }).compactMap { Int($0) }
            if date.count == 3 { parts = (date[0], date[1], date[2], words[1]) }
        }
        let time = parts.map { $0.time.split(separator: ":").compactMap { Int($0) } } ?? []
        guard let parts, time.count == 3 else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        // Checked as every EXIF date is (months, days, hours in range), by the one reading of them.
        var metadata = ImageMetadata()
        metadata.dateTaken = "\(parts.year):\(two(parts.month)):\(two(parts.day)) \(two(time[0])):\(two(time[1])):\(two(time[2]))"
        return metadata.dateTakenSeconds == nil ? nil : metadata.dateTaken
    }

    /// The chunks inside `range`: type and payload.
    static func chunks(_ bytes: [UInt8], in range: Range<Int>) -> [(type: String, range: Range<Int>)] {
        var found: [(type: String, range: Range<Int>)] = []
        var offset = range.lowerBound
        while offset <= range.upperBound - 8, found.count < 256 {
            guard let type = bytes.fourCC(at: offset), let size = little(bytes, offset + 4) else { break }
            let start = offset + 8
            guard Int(size) <= range.upperBound - start else { break }
            found.append((type, start..<(start + Int(size))))
            offset = start + Int(size) + Int(size & 1)  // chunks are padded to even lengths
        }
        return found
    }

    /// The little-endian 32-bit number at `offset`, or nil past the end.
    static func little(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard let value = bytes.bigEndian(at: offset, width: 4) else { return nil }
        return UInt32(value).byteSwapped
    }
}
