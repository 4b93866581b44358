/// Which items each section holds and which sections are collapsed: the bookkeeping every
/// layout shares. Items are numbered globally in reading order; sections are contiguous ranges.
public struct SectionIndex: Hashable, Sendable {
    /// Item count of each section.
    public let counts: [Int]
    /// Whether each section is collapsed to its header.
    public let collapsed: [Bool]
    /// `starts[s]` is the global index of section `s`'s first item; one extra entry holds the total.
    let starts: [Int]

    /// Sections of `counts` items (negative counts as none), those in `collapsed` collapsed.
    /// - Complexity: O(*s*).
    public init(counts: [Int], collapsed: Set<Int> = []) {
        self.counts = counts.map { max(0, $0) }
        self.collapsed = counts.indices.map { collapsed.contains($0) }
        var starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for count in self.counts { starts.append(starts.last! + count) }
        self.starts = starts
    }

    public var itemCount: Int { starts.last! }
    public var sectionCount: Int { counts.count }

    /// The items of section `s`.
    public func items(inSection s: Int) -> Range<Int> { starts[s]..<starts[s + 1] }

    /// The section holding item `index`.
    /// - Complexity: O(log *s*).
    public func section(ofItem index: Int) -> Int {
        precondition(index >= 0 && index < itemCount, "item \(index) out of range")
        // The last section starting at or before `index` is the non-empty one holding it.
        return upperBound(starts, index) - 1
    }
}

extension TileLayout {
    public var collapsed: [Bool] { sections.collapsed }
    public var sectionCounts: [Int] { sections.counts }
    public var itemCount: Int { sections.itemCount }
    public var sectionCount: Int { sections.sectionCount }
    public func items(inSection s: Int) -> Range<Int> { sections.items(inSection: s) }
    /// - Complexity: O(log *s*).
    public func section(ofItem index: Int) -> Int { sections.section(ofItem: index) }
    /// Whether item `index` has a tile: its section is not collapsed.
    public func isShown(_ index: Int) -> Bool { !sections.collapsed[section(ofItem: index)] }
}
