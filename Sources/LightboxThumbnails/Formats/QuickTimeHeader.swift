import Foundation

/// What a QuickTime or MP4 file's movie box says: when it was made, how long it runs, and its
/// video track's coding, frame rate and picture. Our own bounds-checked reader of the boxes
/// (ISO/IEC 14496-12): no media data is read, only box headers and the `moov` box.
struct QuickTimeHeader: Hashable {
    var created: Int64?
    /// The local time Apple's phones write (`com.apple.quicktime.creationdate`), as EXIF writes
    /// a date: `mvhd`'s time is UTC, a photo's EXIF date is local, so this one sorts beside photos.
    var localCreated: String?
    var video = VideoMetadata()
    /// The most samples (or chunks) any track's tables claim: a file of N bytes holds at most N
    /// (FFmpeg builds an index entry for each before anything is checked).
    var claimedSamples: UInt64 = 0

    /// The largest `moov` box read (a long phone video's is a few MB).
    static let movieLimit = 64 << 20
    /// Seconds from 1904, where QuickTime counts from, to 1970.
    static let epochOffset: Int64 = 2_082_844_800

    /// Reads the movie box of `file`; nil when it has none.
    init?(reading file: FileBytes) {
        var offset = 0
        var movie: [UInt8]?
        for _ in 0..<BaseMediaBox.limit {
            guard let (type, start, end) = BaseMediaBox.box(in: file, at: offset) else { break }
            if type == "moov" {
                guard end - start <= Self.movieLimit else { return nil }
                movie = file.bytes(at: start, count: end - start)
                break
            }
            offset = end
        }
        guard let movie else { return nil }
        self.init(movie: movie)
    }

    /// Reads a `moov` box's payload.
    init(movie: [UInt8]) {
        for (type, range) in BaseMediaBox.children(of: movie, in: 0..<movie.count) {
            switch type {
            case "mvhd":
                let wide = movie.bigEndian(at: range.lowerBound, width: 1) == 1
                let created = movie.bigEndian(at: range.lowerBound + 4, width: wide ? 8 : 4)
                let scale = movie.bigEndian(at: range.lowerBound + (wide ? 20 : 12), width: 4)
                let duration = movie.bigEndian(at: range.lowerBound + (wide ? 24 : 16), width: wide ? 8 : 4)
                if let created, created > 0, created < UInt64(Int64.max) { self.created = Int64(created) - Self.epochOffset }
                if let scale, scale > 0, let duration, duration > 0, duration != (wide ? UInt64.max : 0xFFFF_FFFF) {
                    video.duration = Double(duration) / Double(scale)
                }
            case "trak":
                claimedSamples = max(claimedSamples, Self.claimedSamples(movie, range))
                if video.codec == nil { readVideoTrack(movie, range) }
            case "meta":
                localCreated = localCreated ?? Self.appleCreationDate(movie, range)
            case "udta":
                // iPhones put the meta box in moov, ffmpeg in moov/udta.
                if let meta = BaseMediaBox.children(of: movie, in: range).first(where: { $0.type == "meta" }) {
                    localCreated = localCreated ?? Self.appleCreationDate(movie, meta.range)
                }
            default: break
            }
        }
    }

    /// Reads a `trak` box when it is the first video track: its picture, coding and frame rate.
    mutating func readVideoTrack(_ bytes: [UInt8], _ trak: Range<Int>) {
        var size: PixelSize?
        var turned = false
        var isVideo = false
        var codec: String?
        var frameRate: Double?
        for (type, range) in BaseMediaBox.children(of: bytes, in: trak) {
            if type == "tkhd" {
                let wide = bytes.bigEndian(at: range.lowerBound, width: 1) == 1
                let matrix = range.lowerBound + (wide ? 52 : 40)
                if let a = bytes.bigEndian(at: matrix, width: 4), let c = bytes.bigEndian(at: matrix + 12, width: 4),
                    let w = bytes.bigEndian(at: matrix + 36, width: 4), let h = bytes.bigEndian(at: matrix + 40, width: 4)
                {
                    // A turn by a quarter leaves the matrix's first entry at 0 and its fourth at ±1.
                    turned = a == 0 && c != 0
                    if w >> 16 > 0, h >> 16 > 0 { size = PixelSize(width: Int(w >> 16), height: Int(h >> 16)) }
                }
            }
            guard type == "mdia" else { continue }
            var scale: UInt64 = 0, duration: UInt64 = 0
            for (inner, innerRange) in BaseMediaBox.children(of: bytes, in: range) {
                switch inner {
                case "hdlr": isVideo = bytes.fourCC(at: innerRange.lowerBound + 8) == "vide"
                case "mdhd":
                    let wide = bytes.bigEndian(at: innerRange.lowerBound, width: 1) == 1
                    scale = bytes.bigEndian(at: innerRange.lowerBound + (wide ? 20 : 12), width: 4) ?? 0
                    duration = bytes.bigEndian(at: innerRange.lowerBound + (wide ? 24 : 16), width: wide ? 8 : 4) ?? 0
                case "minf":
                    guard let stbl = BaseMediaBox.children(of: bytes, in: innerRange).first(where: { $0.type == "stbl" })?.range else { break }
                    for (table, tableRange) in BaseMediaBox.children(of: bytes, in: stbl) {
                        if table == "stsd" { codec = bytes.fourCC(at: tableRange.lowerBound + 12) }
                        if table == "stts", scale > 0, duration > 0, let entries = bytes.bigEndian(at: tableRange.lowerBound + 4, width: 4) {
                            var samples: UInt64 = 0
                            for i in 0..<min(Int(entries), 100_000) {
                                guard let n = bytes.bigEndian(at: tableRange.lowerBound + 8 + 8 * i, width: 4) else { break }
                                samples += n
                            }
                            if samples > 0 { frameRate = Double(samples) * Double(scale) / Double(duration) }
                        }
                    }
                default: break
                }
            }
        }
        guard isVideo else { return }
        video.codec = codec.map { $0.trimmingCharacters(in: .whitespaces) }
        video.frameRate = frameRate
        video.size = size.map { turned ? PixelSize(width: $0.height, height: $0.width) : $0 }
    }

    /// The most samples or chunks a track's sample tables claim: `stsz`'s and `stz2`'s count, the
    /// sums of `stts`'s and `ctts`'s runs, `stco`'s, `co64`'s, `stsc`'s and `stss`'s entries.
    /// - Complexity: O(*n*) in the entries of the run tables.
    static func claimedSamples(_ bytes: [UInt8], _ trak: Range<Int>) -> UInt64 {
        guard let mdia = BaseMediaBox.children(of: bytes, in: trak).first(where: { $0.type == "mdia" })?.range,
            let minf = BaseMediaBox.children(of: bytes, in: mdia).first(where: { $0.type == "minf" })?.range,
            let stbl = BaseMediaBox.children(of: bytes, in: minf).first(where: { $0.type == "stbl" })?.range
        else { return 0 }
        var most: UInt64 = 0
        for (table, range) in BaseMediaBox.children(of: bytes, in: stbl) {
            let start = range.lowerBound
            switch table {
            case "stsz", "stz2": most = max(most, bytes.bigEndian(at: start + 8, width: 4) ?? 0)
            case "stco", "co64", "stsc", "stss": most = max(most, bytes.bigEndian(at: start + 4, width: 4) ?? 0)
            case "stts", "ctts":
                // Runs of (count, value): what they add up to, as far as the box holds them.
                var sum: UInt64 = 0
                let entries = Int(min(bytes.bigEndian(at: start + 4, width: 4) ?? 0, UInt64(range.count / 8)))
                for i in 0..<entries { sum += bytes.bigEndian(at: start + 8 + 8 * i, width: 4) ?? 0 }
                most = max(most, sum)
            default: break
            }
        }
        return most
    }

    /// `com.apple.quicktime.creationdate` (`2024-05-17T23:30:05+0200`) from a `meta` box's
    /// `keys` and `ilst`, as `2024:05:17 23:30:05`: the local time, its offset dropped.
    static func appleCreationDate(_ bytes: [UInt8], _ meta: Range<Int>) -> String? {
        // QuickTime's meta box has no version and flags; ISO's has: its first child tells.
        let start = bytes.fourCC(at: meta.lowerBound + 4) == "hdlr" ? meta.lowerBound : meta.lowerBound + 4
        guard start <= meta.upperBound else { return nil }
        let boxes = BaseMediaBox.children(of: bytes, in: start..<meta.upperBound)
        guard let keys = boxes.first(where: { $0.type == "keys" })?.range,
            let ilst = boxes.first(where: { $0.type == "ilst" })?.range,
            let count = bytes.bigEndian(at: keys.lowerBound + 4, width: 4)
        else { return nil }
        // Keys are numbered from 1: find the creation date's number.
        var at = keys.lowerBound + 8, index: UInt64?
        for number in 1...max(1, min(count, 1000)) {
            guard let size = bytes.bigEndian(at: at, width: 4), size >= 8, at + Int(size) <= keys.upperBound else { return nil }
            if Array(bytes[(at + 8)..<(at + Int(size))]) == Array("com.apple.quicktime.creationdate".utf8) { index = number; break }
            at += Int(size)
        }
        guard let index else { return nil }
        for (_, item) in BaseMediaBox.children(of: bytes, in: ilst) where bytes.bigEndian(at: item.lowerBound - 4, width: 4) == index {
            // The item's data box: type and locale, then the text.
            guard let data = BaseMediaBox.children(of: bytes, in: item).first(where: { $0.type == "data" })?.range, data.count >= 8 + 19 else { continue }
            let text = Array(bytes[(data.lowerBound + 8)..<(data.lowerBound + 8 + 19)])
            guard text[4] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T") else { return nil }
            var exif = String(decoding: text, as: UTF8.self).replacingOccurrences(of: "T", with: " ")
            exif = String(exif.prefix(10).replacingOccurrences(of: "-", with: ":")) + exif.dropFirst(10)
            return exif
        }
        return nil
    }
}

/// Checks of a video container's claims against the file, made before FFmpeg reads it.
public enum VideoContainer {
    /// Why FFmpeg must not be given `file` (read with `demuxer`), or nil: an MP4 or QuickTime
    /// file whose sample tables claim more samples than it has bytes.
    /// The same for the file open as `fd`, `count` bytes long (read with `pread`: its offset stays).
    public static func problem(fd: Int32, count: Int, demuxer: String) -> String? {
        guard demuxer == "mov" else { return nil }
        return problem(in: FileBytes(fd: fd, count: count), demuxer: demuxer)
    }

    public static func problem(in file: FileBytes, demuxer: String) -> String? {
        guard demuxer == "mov", let header = QuickTimeHeader(reading: file), header.claimedSamples > UInt64(file.count) else { return nil }
        return "its sample tables claim \(header.claimedSamples) samples in \(file.count) bytes"
    }
}
