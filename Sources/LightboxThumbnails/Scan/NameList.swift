#if canImport(Glibc)
    import Glibc
#endif

/// The entries of one folder, kept in one buffer: a million names cost a few allocations, not a million.
struct NameList {
    private var storage: [UInt8] = []
    /// `starts[i]` is where name `i` begins in `storage`; one extra entry holds the end.
    private var starts: [Int] = [0]
    /// Each entry's `d_type`.
    private(set) var types: [UInt8] = []

    var count: Int { types.count }

    mutating func append(_ name: UnsafeBufferPointer<UInt8>, type: UInt8) {
        storage.append(contentsOf: name)
        starts.append(storage.count)
        types.append(type)
    }

    /// Name `i`'s bytes.
    func name(_ i: Int) -> ArraySlice<UInt8> { storage[starts[i]..<starts[i + 1]] }

    /// The entry indices in natural order (as `NaturalOrder.compare` orders the names).
    /// - Complexity: O(*n* log *n*) comparisons of two integers each, full keys only on ties
    ///   within the first 16 key bytes.
    func naturalOrder() -> [Int] {
        var keys: [UInt8] = []
        var keyStarts = [0]
        keys.reserveCapacity(storage.count + storage.count / 2)
        keyStarts.reserveCapacity(count + 1)
        storage.withUnsafeBufferPointer { all in
            for i in 0..<count {
                NaturalOrder.appendKey(of: UnsafeBufferPointer(rebasing: all[starts[i]..<starts[i + 1]]), to: &keys)
                keyStarts.append(keys.count)
            }
        }
        struct Entry { var high: UInt64; var low: UInt64; var index: Int }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        keys.withUnsafeBufferPointer { keys in
            for i in 0..<count {
                var high: UInt64 = 0, low: UInt64 = 0
                let start = keyStarts[i], length = keyStarts[i + 1] - start
                for k in 0..<16 {
                    let byte = k < length ? UInt64(keys[start + k]) : 0
                    if k < 8 { high = high << 8 | byte } else { low = low << 8 | byte }
                }
                entries.append(Entry(high: high, low: low, index: i))
            }
            entries.sort { a, b in
                if a.high != b.high { return a.high < b.high }
                if a.low != b.low { return a.low < b.low }
                let aStart = keyStarts[a.index], aLength = keyStarts[a.index + 1] - aStart
                let bStart = keyStarts[b.index], bLength = keyStarts[b.index + 1] - bStart
                let order = memcmp(keys.baseAddress! + aStart, keys.baseAddress! + bStart, min(aLength, bLength))
                return order != 0 ? order < 0 : aLength < bLength
            }
        }
        return entries.map(\.index)
    }
}
