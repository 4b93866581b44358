import Testing

@testable import LightboxLayout

/// Three sections of 7, 2 and 5 items in 3 columns of 4 cells:
/// ```
/// s0: 0 1 2 / 3 4 5 / 6
/// s1: 7 8
/// s2: 9 10 11 / 12 13
/// ```
let ragged = GridLayout(sectionCounts: [7, 2, 5], spec: GridSpec(columns: Array(repeating: GridItem(.fixed(4)), count: 3)), width: 20)

@Test func leftAndRightFollowReadingOrderAcrossSections() {
    #expect(ragged.destination(from: 6, .right) == 7)
    #expect(ragged.destination(from: 7, .left) == 6)
    #expect(ragged.destination(from: 0, .left) == 0)
    #expect(ragged.destination(from: 13, .right) == 13)
}

@Test func upAndDownKeepTheColumnAndLandOnTheNearestItemOfShortRows() {
    #expect(ragged.destination(from: 1, .down) == 4)
    #expect(ragged.destination(from: 5, .down) == 6)  // short last row: nearest item
    #expect(ragged.destination(from: 6, .down) == 7)  // into the next section, column 0
    #expect(ragged.destination(from: 8, .down) == 10)  // column 1 kept
    #expect(ragged.destination(from: 11, .down) == 13)
    #expect(ragged.destination(from: 13, .down) == 13)  // last row: stays
    #expect(ragged.destination(from: 11, .up) == 8)  // column 2 clamped to the short row above
    #expect(ragged.destination(from: 7, .up) == 6)
    #expect(ragged.destination(from: 8, .up) == 6)
    #expect(ragged.destination(from: 2, .up) == 2)
}

@Test func pagesFirstLastAndSections() {
    #expect(ragged.destination(from: 1, .rowsDown(2)) == 6)  // via 4, then the short row
    #expect(ragged.destination(from: 12, .rowsDown(10)) == 13)  // no row below: the last item
    #expect(ragged.destination(from: 13, .rowsDown(1)) == 13)
    #expect(ragged.destination(from: 10, .rowsUp(3)) == 3)
    #expect(ragged.destination(from: 4, .first) == 0)
    #expect(ragged.destination(from: 4, .last) == 13)
    #expect(ragged.destination(from: 4, .nextSection) == 7)
    #expect(ragged.destination(from: 12, .nextSection) == 12)
    #expect(ragged.destination(from: 12, .previousSection) == 9)
    #expect(ragged.destination(from: 9, .previousSection) == 7)
    #expect(ragged.destination(from: 0, .previousSection) == 0)
}

@Test func emptySectionsAreSkipped() {
    let layout = GridLayout(sectionCounts: [2, 0, 0, 3], spec: .flexible(count: 2), width: 20)
    #expect(layout.section(ofItem: 2) == 3)
    #expect(layout.destination(from: 0, .down) == 2)
    #expect(layout.destination(from: 2, .up) == 0)
    #expect(layout.destination(from: 1, .nextSection) == 2)
}

@Test func verticalMovesCanAimForARememberedColumn() {
    #expect(ragged.destination(from: 6, .down, column: 2) == 8)  // s1 has 2 items: nearest
    #expect(ragged.destination(from: 8, .down, column: 2) == 11)
    #expect(ragged.destination(from: 0, .rowsDown(3), column: 1) == 8)  // 4, 6, then column 1 again
}

@Test func movesStepOverCollapsedSectionsOntoTheirHeaders() {
    // Sections of 4, 5 and 4 items in two columns; the middle one collapsed.
    let layout = GridLayout(sectionCounts: [4, 5, 4], spec: .flexible(count: 2), width: 40, collapsed: [1])
    #expect(layout.destination(from: 3, .right) == 4)  // onto the collapsed section's header
    #expect(layout.destination(from: 4, .right) == 9)  // and over its hidden items
    #expect(layout.destination(from: 9, .left) == 4)
    #expect(layout.destination(from: 2, .down) == 4)
    #expect(layout.destination(from: 4, .down) == 9)
    #expect(layout.destination(from: 10, .up) == 4)
    #expect(layout.destination(from: 4, .up) == 2)
    #expect(layout.frame(ofItem: 6) == Rect(x: 0, y: layout.headerTop(ofSection: 1), width: 40, height: 1))
    let last = GridLayout(sectionCounts: [4, 5], spec: .flexible(count: 2), width: 40, collapsed: [1])
    #expect(last.destination(from: 0, .last) == 4)
}

@Test func theFooterOfTheSectionRunningPastTheBottomIsPinnedThere() {
    let layout = GridLayout(sectionCounts: [40, 40], spec: .flexible(count: 2), width: 40, metrics: TileMetrics(footerHeight: 1))
    // Mid-section: pinned on the last line.
    #expect(layout.pinnedFooter(atOffset: 10, height: 20)! == (0, 19))
    // Where the last section's own footer shows, nothing is pinned; above it, the next section's is.
    #expect(layout.pinnedFooter(atOffset: layout.contentHeight - 20, height: 20) == nil)
    let footer = layout.footerTop(ofSection: 0)
    #expect(layout.pinnedFooter(atOffset: footer - 10, height: 20)! == (1, 19))
    #expect(GridLayout(sectionCounts: [40], spec: .flexible(count: 2), width: 40).pinnedFooter(atOffset: 0, height: 20) == nil)
}
