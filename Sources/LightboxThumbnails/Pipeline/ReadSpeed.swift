import Foundation

/// How fast the photos' mount brings whole files, seen by the reads themselves, and whether that
/// makes the link slow: then half a tile's width and height are enough (`ThumbnailPipeline.smallerSuffices`),
/// so tiles come from EXIF thumbnails, a RAW's small preview or a smaller disk cache entry, scaled
/// up, instead of whole files. Safe to use from any thread.
public final class ReadSpeed: @unchecked Sendable {
    /// What `--io` chose.
    public enum Mode: String, CaseIterable, Sendable {
        /// Slow when the reads measure it so (a network mount's; a local disk is never measured).
        case auto
        /// Always slow: small sources first, everywhere.
        case slow
        /// Never slow: each tile gets the pixels it needs, whatever the link.
        case normal
    }

    /// Whole files a second below which the link is slow: a screen of 40 tiles read whole would
    /// take more than 4 s.
    public static let slowBelowFilesPerSecond = 10.0

    /// Seconds from a whole-file read's start to its first bytes past which the link is slow
    /// until the reads have run long enough to measure their rate (`Meter.sampleSeconds`): so
    /// the first screen's reads on a distant link already take smaller sources.
    public static let slowFromRoundTrip = 0.1

    /// The largest box (its longest side) a smaller source may stand in for: tiles, not the
    /// full-screen preview, which gets what it needs.
    public static let largestBoxServedSmaller = 512

    public let mode: Mode
    private let lock = NSLock()
    private var meter = Meter()

    public init(mode: Mode) { self.mode = mode }

    /// Whether a source of half its width and height will do for a picture fitting `box` now.
    public func smallerSuffices(for box: PixelSize) -> Bool {
        max(box.width, box.height) <= Self.largestBoxServedSmaller && isSlow
    }

    /// Whether the link counts as slow now.
    public var isSlow: Bool {
        switch mode {
        case .slow: return true
        case .normal: return false
        case .auto:
            lock.lock()
            defer { lock.unlock() }
            return meter.isSlow(at: Self.now())
        }
    }

    /// A whole-file read of `bytes` starts.
    public func began(bytes: Int) {
        lock.lock()
        meter.began(bytes: bytes, at: Self.now())
        lock.unlock()
    }

    /// A read in flight brought `bytes` more; `firstAfter`: they are its first, this many seconds after it began.
    public func moved(_ bytes: Int, firstAfter: Double? = nil) {
        lock.lock()
        meter.moved(bytes, firstAfter: firstAfter, at: Self.now())
        lock.unlock()
    }

    /// A whole-file read ended.
    public func ended() {
        lock.lock()
        meter.ended(at: Self.now())
        lock.unlock()
    }

    /// What `--stats` says of the link.
    public var report: String {
        lock.lock()
        let meter = self.meter
        lock.unlock()
        let now = Self.now()
        let firstBytes = meter.firstBytes.count > 0 ? String(format: "first bytes after %.0f ms", meter.firstBytes.mean * 1000) : nil
        let measured = meter.bytesPerSecond(at: now).map { rate in
            String(format: "%.1f MB/s", rate / 1e6) + (firstBytes.map { ", " + $0 } ?? "")
        }
        switch mode {
        case .slow: return "link: slow (--io slow)" + (measured.map { "; measured \($0)" } ?? "")
        case .normal: return "link: normal (--io normal)" + (measured.map { "; measured \($0)" } ?? "")
        case .auto:
            let verdict = meter.isSlow(at: now) ? "slow" : "not slow"
            guard let measured else { return firstBytes.map { "link: \($0), rate not measured yet: \(verdict)" } ?? "link: not measured yet" }
            return "link: \(measured) reading whole files: \(verdict)"
        }
    }

    static func now() -> Double { ProcessInfo.processInfo.systemUptime }

    /// The measure itself, on a clock given: bytes that came while whole-file reads were in
    /// flight, over the seconds they were (reads at once share the link, so together they show
    /// its speed), and the files' mean size, to say it in files a second.
    struct Meter: Hashable, Sendable {
        /// Seconds of reading before the measure counts (a first file's open is not the link's speed).
        static let sampleSeconds = 0.5
        /// Seconds of reading the measure remembers: past them the old half is forgotten, so a
        /// link that changes is followed.
        static let windowSeconds = 10.0

        var bytes = 0.0, seconds = 0.0
        /// Reads in flight, and since when some were (when `seconds` last took in time).
        var reading = 0, since = 0.0
        /// Files begun and their bytes, for the mean size.
        var files = 0, fileBytes = 0.0
        /// The time from a read's start to its first bytes, summed, and how many.
        var firstBytes = FirstBytes()
        struct FirstBytes: Hashable, Sendable {
            var seconds = 0.0, count = 0
            /// The mean time to first bytes (0 before any).
            var mean: Double { count > 0 ? seconds / Double(count) : 0 }
        }

        mutating func began(bytes: Int, at now: Double) {
            fold(at: now)
            reading += 1
            files += 1
            fileBytes += Double(bytes)
        }

        mutating func moved(_ count: Int, firstAfter: Double?, at now: Double) {
            fold(at: now)
            bytes += Double(count)
            if let firstAfter {
                firstBytes.seconds += firstAfter
                firstBytes.count += 1
            }
        }

        mutating func ended(at now: Double) {
            fold(at: now)
            reading = max(0, reading - 1)
        }

        /// Takes the time since `since` into `seconds` when reads were in flight, forgetting half of
        /// what is past the window.
        mutating func fold(at now: Double) {
            if reading > 0 { seconds += max(0, now - since) }
            since = now
            if seconds > Self.windowSeconds {
                bytes /= 2
                seconds /= 2
            }
        }

        /// Bytes a second, once reads have run long enough to say; nil before.
        func bytesPerSecond(at now: Double) -> Double? {
            let total = seconds + (reading > 0 ? max(0, now - since) : 0)
            guard total >= Self.sampleSeconds else { return nil }
            return bytes / total
        }

        /// Whether whole files come at fewer than `slowBelowFilesPerSecond`; before the rate is
        /// measured, whether their first bytes came `slowFromRoundTrip` or more after they began.
        func isSlow(at now: Double) -> Bool {
            guard let rate = bytesPerSecond(at: now) else {
                return firstBytes.count > 0 && firstBytes.mean >= ReadSpeed.slowFromRoundTrip
            }
            guard files > 0, fileBytes > 0 else { return false }
            return rate / (fileBytes / Double(files)) < ReadSpeed.slowBelowFilesPerSecond
        }
    }
}
