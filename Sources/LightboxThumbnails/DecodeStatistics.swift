import Foundation

/// Counts of where thumbnails came from, for `--stats`. Safe to update from any thread.
public final class DecodeStatistics: @unchecked Sendable {
    /// Where one thumbnail came from.
    public enum Source: String, CaseIterable, Sendable {
        case diskCache = "disk cache", exif = "EXIF thumbnail", dct = "JPEG DCT-scaled", vips = "libvips", failed = "failed"
    }

    private let lock = NSLock()
    private var counts: [Source: Int] = [:]
    private var written = 0

    public init() {}

    func record(_ source: Source) {
        lock.lock(); counts[source, default: 0] += 1; lock.unlock()
    }

    func recordWrite() {
        lock.lock(); written += 1; lock.unlock()
    }

    /// How many thumbnails came from `source`.
    public func count(_ source: Source) -> Int {
        lock.lock(); defer { lock.unlock() }
        return counts[source, default: 0]
    }

    /// Entries written to the disk cache.
    public var cacheWrites: Int {
        lock.lock(); defer { lock.unlock() }
        return written
    }
}
