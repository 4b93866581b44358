/// Decoded thumbnails, least recently used evicted first, bounded in bytes.
public struct ThumbnailCache: Sendable {
    struct Entry: Sendable {
        var thumbnail: Thumbnail
        var lastUse: UInt64
        var serial: UInt32
    }

    public let budget: Int
    public private(set) var byteCount = 0
    var entries: [ThumbnailKey: Entry] = [:]
    /// The newest entry of each file version, whatever its box.
    var newest: [FileVersion: ThumbnailKey] = [:]
    var clock: UInt64 = 0
    var nextSerial: UInt32 = 1
    /// Serials of entries that left since `takeEvicted()`, when `recordsEvictions` is on.
    var evicted: [UInt32] = []
    /// Whether evictions are kept for `takeEvicted()` (for pictures held by the terminal).
    public var recordsEvictions = false

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

    /// A number naming the picture stored for `key`: every insert gets a new one.
    public func serial(of key: ThumbnailKey) -> UInt32? { entries[key]?.serial }

    /// Serials of the pictures that left the cache since the last call.
    public mutating func takeEvicted() -> [UInt32] {
        defer { evicted.removeAll() }
        return evicted
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

    /// Forgets the thumbnail for `key` (a video's clip played through), as an eviction.
    public mutating func remove(_ key: ThumbnailKey) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        if newest[key.fileVersion] == key { newest[key.fileVersion] = nil }
        byteCount -= entry.thumbnail.byteCount
        if recordsEvictions { evicted.append(entry.serial) }
    }

    /// Keeps the thumbnail stored for `old` under `new` instead (the same picture, its file now
    /// known by its size and time): its serial and its recency stay.
    public mutating func rekey(_ old: ThumbnailKey, to new: ThumbnailKey) {
        guard old != new, let entry = entries.removeValue(forKey: old) else { return }
        if newest[old.fileVersion] == old { newest[old.fileVersion] = nil }
        if let replaced = entries[new] {
            byteCount -= replaced.thumbnail.byteCount
            if recordsEvictions { evicted.append(replaced.serial) }
        }
        entries[new] = entry
        if new.region == nil, new.clipStart == nil, !new.isAnimated { newest[new.fileVersion] = new }
    }

    /// Stores a thumbnail, evicting the least recently used down to 90% of the budget when over it.
    /// - Complexity: amortized O(log *n*); an eviction pass sorts the entries.
    public mutating func insert(_ thumbnail: Thumbnail, for key: ThumbnailKey) {
        clock += 1
        if let old = entries[key] {
            byteCount -= old.thumbnail.byteCount
            if recordsEvictions { evicted.append(old.serial) }
        }
        entries[key] = Entry(thumbnail: thumbnail, lastUse: clock, serial: nextSerial)
        nextSerial = nextSerial == .max ? 1 : nextSerial + 1
        // A part of a photo never stands in for the whole, nor frames one above the other for a still.
        if key.region == nil, key.clipStart == nil, !key.isAnimated { newest[key.fileVersion] = key }
        byteCount += thumbnail.byteCount
        guard byteCount > budget else { return }
        let target = budget / 10 * 9
        for (oldKey, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard byteCount > target else { break }
            entries[oldKey] = nil
            if newest[oldKey.fileVersion] == oldKey { newest[oldKey.fileVersion] = nil }
            byteCount -= entry.thumbnail.byteCount
            if recordsEvictions { evicted.append(entry.serial) }
        }
    }
}
