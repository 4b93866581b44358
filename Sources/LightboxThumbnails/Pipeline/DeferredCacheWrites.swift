import Foundation

/// Disk cache entries a decoder process has made and not yet written: written when no request
/// waits (after the screen is complete), so PNG encoding never holds up a thumbnail on screen.
/// An entry is written whole under a temporary name and renamed, so one abandoned at the end
/// (the process is killed on quit) leaves nothing; its file is decoded again another time.
public final class DeferredCacheWrites: @unchecked Sendable {
    /// Entries kept at most; beyond, one is written at once (the memory stays bounded).
    public static let capacity = 48
    private let lock = NSLock()
    private var pending: [(thumbnail: Thumbnail, source: FreedesktopCache.Source, size: FreedesktopCache.Size)] = []

    public init() {}

    /// Entries waiting.
    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return pending.count
    }

    /// Keeps an entry for later; false when full (the caller writes it now).
    func keep(_ thumbnail: Thumbnail, for source: FreedesktopCache.Source, size: FreedesktopCache.Size) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard pending.count < Self.capacity else { return false }
        pending.append((thumbnail, source, size))
        return true
    }

    /// Writes the oldest entry to `cache`; false when none waits.
    @discardableResult
    public func writeOne(to cache: FreedesktopCache, statistics: DecodeStatistics) -> Bool {
        lock.lock()
        guard !pending.isEmpty else { lock.unlock(); return false }
        let entry = pending.removeFirst()
        lock.unlock()
        if cache.store(entry.thumbnail, for: entry.source, size: entry.size) { statistics.recordWrite() }
        return true
    }
}
