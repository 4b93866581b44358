/// Marked item indices as a bit set: one bit an item, so marking a million costs 125 KB.
public struct MarkSet: Hashable, Sendable {
    private var words: [UInt64]
    public private(set) var count = 0
    public private(set) var capacity: Int

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        words = Array(repeating: 0, count: (self.capacity + 63) / 64)
    }

    /// Makes room for items up to `newCapacity`, unmarked.
    /// - Complexity: O(*n* / 64) when the storage grows, amortized O(1) a new item.
    public mutating func grow(to newCapacity: Int) {
        guard newCapacity > capacity else { return }
        capacity = newCapacity
        let needed = (newCapacity + 63) / 64
        if needed > words.count { words.append(contentsOf: repeatElement(0, count: needed - words.count)) }
    }

    public func contains(_ item: Int) -> Bool {
        guard item >= 0 && item < capacity else { return false }
        return words[item >> 6] & (1 << UInt64(item & 63)) != 0
    }

    /// Marks or unmarks one item.
    public mutating func set(_ item: Int, marked: Bool) {
        guard item >= 0 && item < capacity, contains(item) != marked else { return }
        words[item >> 6] ^= 1 << UInt64(item & 63)
        count += marked ? 1 : -1
    }

    public mutating func toggle(_ item: Int) { set(item, marked: !contains(item)) }

    /// Marks or unmarks every item in `range`.
    /// - Complexity: O(*k* / 64) in the range's length.
    public mutating func set(_ range: Range<Int>, marked: Bool) {
        let range = range.clamped(to: 0..<capacity)
        forEachWord(in: range) { w, mask in
            let before = words[w].nonzeroBitCount
            words[w] = marked ? words[w] | mask : words[w] & ~mask
            count += words[w].nonzeroBitCount - before
        }
    }

    /// How many items of `range` are marked.
    /// - Complexity: O(*k* / 64).
    public func count(in range: Range<Int>) -> Int {
        var total = 0
        forEachWord(in: range.clamped(to: 0..<capacity)) { w, mask in total += (words[w] & mask).nonzeroBitCount }
        return total
    }

    /// Whether every item of `range` is marked.
    public func containsAll(_ range: Range<Int>) -> Bool { count(in: range) == range.clamped(to: 0..<capacity).count }

    /// Calls `body` with each word index touching `range` and the mask of the range's bits in it.
    private func forEachWord(in range: Range<Int>, _ body: (Int, UInt64) -> Void) {
        guard !range.isEmpty else { return }
        let last = range.upperBound - 1
        for w in (range.lowerBound >> 6)...(last >> 6) {
            let low = w == range.lowerBound >> 6 ? range.lowerBound & 63 : 0
            let high = w == last >> 6 ? last & 63 : 63
            let mask = (high == 63 ? UInt64.max : (UInt64(1) << UInt64(high + 1)) - 1) & ~((UInt64(1) << UInt64(low)) - 1)
            body(w, mask)
        }
    }

    /// The first marked item after `item` (or before it, going back), if any.
    /// - Complexity: O(*n* / 64).
    public func nextMarked(after item: Int, forward: Bool = true) -> Int? {
        if forward {
            var i = item + 1
            while i < capacity {
                let word = words[i >> 6] >> UInt64(i & 63)
                if word != 0 { return i + word.trailingZeroBitCount }
                i = (i | 63) + 1
            }
        } else {
            var i = min(item, capacity) - 1
            while i >= 0 {
                let word = words[i >> 6] << UInt64(63 - (i & 63))
                if word != 0 { return i - word.leadingZeroBitCount }
                i = (i & ~63) - 1
            }
        }
        return nil
    }

    public mutating func removeAll() {
        words = Array(repeating: 0, count: words.count)
        count = 0
    }

    /// The marked items in ascending order.
    /// - Complexity: O(*n* / 64 + *k*).
    public var sorted: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        for (w, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(w * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
