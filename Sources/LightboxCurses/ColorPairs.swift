import CNcurses

/// Colour pairs for the cells of a frame, recycled across frames.
///
/// The pair table is small and `alloc_pair` fails when it is full, so pairs not used by the frame
/// being painted are reassigned; pairs still on screen are never redefined under it.
final class ColorPairs {
    struct Key: Hashable { var foreground: Int32; var background: Int32 }

    private var pairs: [Key: Int32] = [:]
    private var free: [Int32]

    init(capacity: Int) {
        free = capacity > 1 ? Array((1..<Int32(min(capacity, 1 << 20))).reversed()) : []
    }

    /// Makes sure every key of the coming frame has a pair, evicting pairs the frame does not use.
    /// - Complexity: O(*p*) in the size of the pair table, only when it is full.
    func prepare(_ keys: Set<Key>) {
        let missing = keys.filter { pairs[$0] == nil && !($0.foreground == -1 && $0.background == -1) }
        if missing.count > free.count {
            for key in pairs.keys where !keys.contains(key) {
                free.append(pairs.removeValue(forKey: key)!)
                if free.count >= missing.count { break }
            }
        }
        for key in missing {
            guard let pair = free.popLast() else { return }  // more colours than pairs: the rest fall back
            init_extended_pair(pair, key.foreground, key.background)
            pairs[key] = pair
        }
    }

    /// The pair for a key; 0 (the default colours) for one that did not fit.
    func pair(for key: Key) -> Int32 { pairs[key] ?? 0 }
}
