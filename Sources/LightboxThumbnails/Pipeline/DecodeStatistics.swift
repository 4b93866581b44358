import Foundation

/// Counts of where thumbnails came from, for `--stats`. Safe to update from any thread.
public final class DecodeStatistics: @unchecked Sendable {
    /// Where one thumbnail came from.
    public enum Source: String, CaseIterable, Sendable {
        case diskCache = "disk cache", exif = "EXIF thumbnail", dct = "JPEG DCT-scaled", vips = "libvips", rawPreview = "RAW preview", rawDeveloped =
            "RAW developed (slow)", video = "video frame", failed = "failed"
        /// Of those above, the ones made from a source smaller than the tile, scaled up (a slow link, `ReadSpeed`).
        case smaller = "of them smaller than the tile, for a slow link"
    }

    private let lock = NSLock()
    private var tallies: [Source: Int] = [:]
    private var written = 0

    public init() {}

    /// Counts at one moment: by source, and cache writes.
    public struct Counts: Hashable, Sendable {
        public var bySource: [Source: Int] = [:]
        public var writes = 0

        public init(bySource: [Source: Int] = [:], writes: Int = 0) {
            self.bySource = bySource
            self.writes = writes
        }

        /// What happened between `earlier` and these counts.
        public func since(_ earlier: Counts) -> Counts {
            var delta = Counts(writes: writes - earlier.writes)
            for source in Source.allCases { delta.bySource[source] = bySource[source, default: 0] - earlier.bySource[source, default: 0] }
            return delta
        }
    }

    /// The counts now.
    public var counts: Counts {
        lock.lock(); defer { lock.unlock() }
        return Counts(bySource: tallies, writes: written)
    }

    /// Adds counts made elsewhere (by a worker process).
    public func add(_ other: Counts) {
        lock.lock(); defer { lock.unlock() }
        for (source, n) in other.bySource { tallies[source, default: 0] += n }
        written += other.writes
    }

    func record(_ source: Source) {
        lock.lock(); tallies[source, default: 0] += 1; lock.unlock()
    }

    func recordWrite() {
        lock.lock(); written += 1; lock.unlock()
    }

    /// How many thumbnails came from `source`.
    public func count(_ source: Source) -> Int {
        lock.lock(); defer { lock.unlock() }
        return tallies[source, default: 0]
    }

    /// Entries written to the disk cache.
    public var cacheWrites: Int {
        lock.lock(); defer { lock.unlock() }
        return written
    }
}
