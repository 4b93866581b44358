import LightboxLayout

/// The state's part for how tiles are laid out: the layout mode, the column spec, the sections
/// collapsed to their headers, whether sections end with a footer, and the layout built from
/// them. Its own reducer changes those and rebuilds the layout for a library and an area.
public struct LayoutState: Sendable {
    public private(set) var mode: LayoutMode
    public private(set) var spec: GridSpec
    /// Sections collapsed to their headers, by title (so they stay collapsed as items arrive).
    public private(set) var collapsedTitles: Set<[UInt8]> = []
    /// Whether each section ends with a footer line of counts.
    public private(set) var showsFooters: Bool
    /// The layout built for the last library and area given.
    public private(set) var current: any TileLayout

    /// A layout of `mode` for `library` in an area of `width` by `height` cells.
    init(mode: LayoutMode, spec: GridSpec, showsFooters: Bool, library: Library, width: Int, height: Int) {
        self.mode = mode
        self.spec = spec
        self.showsFooters = showsFooters
        current = GridLayout(sectionCounts: [], spec: spec, width: max(1, width))
        rebuild(for: library, width: width, height: height)
    }

    /// Builds the layout for `library` in an area of `width` by `height` cells.
    /// - Complexity: O(*s*) for the grid and the strip, O(*n* × *c*) for masonry.
    mutating func rebuild(for library: Library, width: Int, height: Int) {
        let collapsed = collapsedTitles.isEmpty ? [] : Set(library.sections.indices.filter { collapsedTitles.contains(library.sections[$0].title) })
        let width = max(1, width)
        let metrics = TileMetrics(footerHeight: showsFooters ? 1 : 0)
        switch mode {
        case .grid:
            current = GridLayout(sectionCounts: library.sectionCounts, spec: spec, width: width, metrics: metrics, collapsed: collapsed)
        case .masonry:
            current = MasonryLayout(
                sectionCounts: library.sectionCounts, aspects: library.aspectsInOrder, spec: spec, width: width,
                metrics: metrics, collapsed: collapsed)
        case .strip:
            current = StripLayout(
                sectionCounts: library.sectionCounts, spec: spec, width: width, height: height,
                metrics: metrics, collapsed: collapsed)
        }
    }

    /// Switches to the next layout mode (grid, masonry, strip, then grid again).
    mutating func cycleMode() {
        let modes = LayoutMode.allCases
        mode = modes[(modes.firstIndex(of: mode)! + 1) % modes.count]
    }

    /// Collapses the section titled `title` to its header, or expands it.
    mutating func toggleCollapsed(_ title: [UInt8]) {
        if collapsedTitles.remove(title) == nil { collapsedTitles.insert(title) }
    }

    /// Collapses every section of `titles`, or expands them all when all are collapsed.
    mutating func toggleAllCollapsed(_ titles: [[UInt8]]) {
        let all = Set(titles)
        collapsedTitles = collapsedTitles.isSuperset(of: all) ? [] : all
    }

    /// Scales every column's width by `delta` cells (fixed, adaptive and bounded flexible ones), or
    /// changes the number of unbounded flexible columns: one fewer when growing, one more when shrinking.
    mutating func rescale(by delta: Int) {
        var columns: [GridItem] = []
        let unbounded = spec.columns.filter { if case .flexible(_, Int.max) = $0.size { return true } else { return false } }
        let flexibleCount = unbounded.count
        var flexibleLeft = delta > 0 ? max(1, flexibleCount - 1) : flexibleCount + 1
        for item in spec.columns {
            var scaled = item
            switch item.size {
            case .fixed(let w):
                scaled.size = .fixed(max(4, w + delta))
                columns.append(scaled)
            case .adaptive(let lo, let hi):
                let newLo = max(4, lo + delta)
                scaled.size = .adaptive(minimum: newLo, maximum: max(newLo, hi + (newLo - lo)))
                columns.append(scaled)
            case .flexible(_, Int.max):
                if flexibleLeft > 0 { columns.append(item); flexibleLeft -= 1 }
            case .flexible(let lo, let hi):
                let newLo = max(1, lo + delta)
                scaled.size = .flexible(minimum: newLo, maximum: max(newLo, hi + (newLo - lo)))
                columns.append(scaled)
            }
        }
        if delta < 0 && flexibleCount > 0 && flexibleLeft > 0, let last = unbounded.last {
            columns.append(last)
        }
        spec = GridSpec(columns: columns, rowSpacing: spec.rowSpacing, columnSpacing: spec.columnSpacing)
    }
}
