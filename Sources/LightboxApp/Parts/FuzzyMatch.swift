/// The filter's matching: a name matches when it holds the query's characters in order, not
/// necessarily together (fzf's fuzzy match), ASCII letters case-insensitive.
public enum FuzzyMatch {
    /// `bytes` with ASCII capitals lowered.
    public static func folded(_ bytes: [UInt8]) -> [UInt8] { bytes.map(fold) }

    static func fold(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Whether `name` holds the folded `query`'s bytes in order.
    /// - Complexity: O(*n*) in the name's length.
    public static func matches<C: Collection>(_ query: [UInt8], _ name: C) -> Bool where C.Element == UInt8 {
        var next = 0
        for byte in name where next < query.count && fold(byte) == query[next] { next += 1 }
        return next == query.count
    }

    /// The indices of the characters of `text` that match `query` (greedily, left to right), for
    /// highlighting; nil when it does not match.
    public static func matchedCharacters(_ query: String, in text: String) -> Set<Int>? {
        let wanted = Array(query.lowercased())
        guard !wanted.isEmpty else { return [] }
        var next = 0
        var found = Set<Int>()
        for (i, character) in text.lowercased().enumerated() where next < wanted.count && character == wanted[next] {
            found.insert(i)
            next += 1
        }
        return next == wanted.count ? found : nil
    }
}
