/// Decoded thumbnails, least recently used evicted first, bounded in bytes.
public struct ThumbnailCache: Sendable {
    struct Entry: Sendable {
        var thumbnail: Thumbnail
        var lastUse: UInt64
    }

    public let budget: Int
    public private(set) var byteCount = 0
    var entries: [ThumbnailKey: Entry] = [:]
    /// The newest entry of each file version, whatever its box.
    var newest: [FileVersion: ThumbnailKey] = [:]
    var clock: UInt64 = 0

    /// A cache holding at most `budget` bytes of pixels.
    public init(budget: Int) { self.budget = max(0, budget) }

    public var count: Int { entries.count }

    /// The thumbnail for `key`, marking it recently used.
    public mutating func thumbnail(for key: ThumbnailKey) -> Thumbnail? {
        guard entries[key] != nil else { return nil }
        clock += 1
        entries[key]!.lastUse = clock
        return entries[key]!.thumbnail
    }

    /// The thumbnail for `key` without touching its recency.
    public func peek(_ key: ThumbnailKey) -> Thumbnail? { entries[key]?.thumbnail }

    public func contains(_ key: ThumbnailKey) -> Bool { entries[key] != nil }

    /// The thumbnail for `key`, or else the newest one of the same file at another size
    /// (to show scaled while the right size decodes).
    public func closest(to key: ThumbnailKey) -> Thumbnail? {
        if let exact = entries[key] { return exact.thumbnail }
        return newest[key.fileVersion].flatMap { entries[$0]?.thumbnail }
    }

    /// Stores a thumbnail, evicting the least recently used down to 90% of the budget when over it.
    /// - Complexity: amortized O(log *n*); an eviction pass sorts the entries.
    public mutating func insert(_ thumbnail: Thumbnail, for key: ThumbnailKey) {
        clock += 1
        if let old = entries[key] { byteCount -= old.thumbnail.byteCount }
        entries[key] = Entry(thumbnail: thumbnail, lastUse: clock)
        newest[key.fileVersion] = key
        byteCount += thumbnail.byteCount
        guard byteCount > budget else { return }
        let target = budget / 10 * 9
        for (oldKey, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard byteCount > target else { break }
            entries[oldKey] = nil
            if newest[oldKey.fileVersion] == oldKey { newest[oldKey.fileVersion] = nil }
            byteCount -= entry.thumbnail.byteCount
        }
    }
}
