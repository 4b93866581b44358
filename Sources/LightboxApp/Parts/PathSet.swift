import LightboxThumbnails

/// A set of paths kept compactly: the records of one list (`--mark-from`) in one buffer, with an
/// offset and a hash slot each (about 10 bytes an entry beside the list itself), so a list of
/// millions of short lines costs a few times its size, not a heap object per line.
///
/// Paths are found and taken out as the scan meets them; the ones never met stay, in their order.
public struct PathSet: Sendable {
    /// The records, each followed by exactly one separator: the list with its empty records left out.
    private var storage: [UInt8] = []
    /// Where each record starts in `storage`; a record ends one byte before the next one starts.
    private var starts: [UInt32] = []
    /// Open addressing: record numbers by hash, -1 for an empty slot.
    private var slots: [Int32] = [-1]
    /// Records taken out (or repeating an earlier one), one bit each.
    private var taken: [UInt64] = []
    /// Records not taken out.
    public private(set) var count = 0

    /// Most bytes a list may hold.
    public static let byteLimit = 256 << 20

    public init() {}

    /// The set of `paths` (none may hold a NUL, which no path can).
    public init(_ paths: [ImagePath]) {
        self.init(records: paths.flatMap { $0.bytes + [0] }, separator: 0)
    }

    /// The records of `list` separated by `separator`; repeated and empty ones count once.
    /// - Complexity: O(*n*) in the bytes of the list.
    public init(records list: consuming [UInt8], separator: UInt8) {
        precondition(list.count < Int(Int32.max), "a list is bounded by PathSet.byteLimit")
        // Compact in place (the list is the storage, not a copy): drop empty records, end the
        // last one with a separator.
        var starts: [UInt32] = []
        var write = 0, recordStart = true
        list.withUnsafeMutableBufferPointer { bytes in
            for read in 0..<bytes.count {
                let byte = bytes[read]
                if byte == separator && recordStart { continue }
                if recordStart { starts.append(UInt32(write)) }
                bytes[write] = byte
                write += 1
                recordStart = byte == separator
            }
        }
        list.removeLast(list.count - write)
        if !recordStart { list.append(separator) }
        var size = 8
        while size < starts.count + starts.count / 3 + 1 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        var taken = [UInt64](repeating: 0, count: (starts.count + 63) / 64)
        var count = 0
        list.withUnsafeBufferPointer { bytes in
            slots.withUnsafeMutableBufferPointer { slots in
                for record in starts.indices {
                    let record32 = Int32(record)
                    let key = Self.bytes(ofRecord: record, starts: starts, in: bytes)
                    var slot = Int(truncatingIfNeeded: Self.hash(key)) & (size - 1)
                    var isRepeat = false
                    while slots[slot] >= 0 {
                        if Self.bytes(ofRecord: Int(slots[slot]), starts: starts, in: bytes).elementsEqual(key) { isRepeat = true; break }
                        slot = (slot + 1) & (size - 1)
                    }
                    if isRepeat { taken[record / 64] |= 1 << UInt64(record % 64) } else { slots[slot] = record32; count += 1 }
                }
            }
        }
        storage = list
        self.starts = starts
        self.slots = slots
        self.taken = taken
        self.count = count
    }

    public var isEmpty: Bool { count == 0 }

    /// Takes `path` out; false when it is not in the set (or was taken already).
    /// - Complexity: O(1) expected, plus the path's length.
    public mutating func remove(_ path: ImagePath) -> Bool {
        guard count > 0, let record = record(holding: path), !isTaken(record) else { return false }
        taken[record / 64] |= 1 << UInt64(record % 64)
        count -= 1
        return true
    }

    /// The paths not taken out, in the list's order.
    /// - Complexity: O(*n*).
    public var remaining: [ImagePath] {
        var paths: [ImagePath] = []
        paths.reserveCapacity(count)
        storage.withUnsafeBufferPointer { bytes in
            for record in starts.indices where !isTaken(record) {
                paths.append(ImagePath(bytes: Array(Self.bytes(ofRecord: record, starts: starts, in: bytes))))
            }
        }
        return paths
    }

    private func isTaken(_ record: Int) -> Bool { taken[record / 64] & (1 << UInt64(record % 64)) != 0 }

    private func record(holding path: ImagePath) -> Int? {
        storage.withUnsafeBufferPointer { bytes in
            path.bytes.withUnsafeBufferPointer { key in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: Self.hash(key)) & mask
                while slots[slot] >= 0 {
                    let record = Int(slots[slot])
                    if Self.bytes(ofRecord: record, starts: starts, in: bytes).elementsEqual(key) { return record }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    private static func bytes(ofRecord record: Int, starts: [UInt32], in storage: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = Int(starts[record])
        let end = (record + 1 < starts.count ? Int(starts[record + 1]) : storage.count) - 1  // before the separator
        return UnsafeBufferPointer(rebasing: storage[start..<end])
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
