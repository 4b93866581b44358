import LightboxLayout
import Testing

@testable import LightboxApp

@Test func theLayoutPartBuildsItsModeForTheLibraryAndTheArea() {
    var part = LayoutState(mode: .grid, spec: threeColumns, showsFooters: false, library: library([4, 5]), width: 40, height: 20)
    #expect(part.current is GridLayout && part.current.itemCount == 9 && part.current.width == 40)
    part.cycleMode()
    #expect(part.mode == .masonry && part.current is GridLayout, "the layout changes only when rebuilt")
    part.rebuild(for: library([4, 5]), width: 40, height: 20)
    #expect(part.current is MasonryLayout)
    part.cycleMode()
    part.rebuild(for: library([4, 5, 6]), width: 50, height: 12)
    #expect(part.mode == .strip && part.current is StripLayout && part.current.itemCount == 15)
    part.cycleMode()
    #expect(part.mode == .grid)
}

@Test func collapsedSectionsAreKeptByTitleAcrossRebuilds() {
    let titles = library([4, 5]).sections.map(\.title)
    var part = LayoutState(mode: .grid, spec: threeColumns, showsFooters: true, library: library([4, 5]), width: 40, height: 20)
    #expect(part.current.metrics.footerHeight == 1)
    part.toggleCollapsed(titles[1])
    part.rebuild(for: library([4, 5, 2]), width: 40, height: 20)
    #expect(part.current.collapsed == [false, true, false])
    part.toggleAllCollapsed(titles)
    #expect(part.collapsedTitles == Set(titles), "some collapsed: all collapse")
    part.toggleAllCollapsed(titles)
    #expect(part.collapsedTitles.isEmpty, "all collapsed: all expand")
    part.toggleCollapsed(titles[0])
    part.toggleCollapsed(titles[0])
    #expect(part.collapsedTitles.isEmpty)
}

@Test func rescalingWidensFixedColumnsAndNeverNarrowsThemBelowFourCells() {
    var part = LayoutState(mode: .grid, spec: threeColumns, showsFooters: false, library: library([4]), width: 40, height: 20)
    part.rescale(by: 4)
    #expect(part.spec.columns.map(\.size) == Array(repeating: .fixed(14), count: 3))
    for _ in 0..<5 { part.rescale(by: -4) }
    #expect(part.spec.columns.map(\.size) == Array(repeating: .fixed(4), count: 3))
    #expect(part.spec.rowSpacing == threeColumns.rowSpacing && part.spec.columnSpacing == threeColumns.columnSpacing)
}
