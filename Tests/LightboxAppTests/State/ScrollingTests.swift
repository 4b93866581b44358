import LightboxLayout
import LightboxThumbnails
import Testing

@testable import LightboxApp

/// Sections of 7, 2 and 20 items: ragged rows, sections shorter and taller than a screen.
let ragged = library([7, 2, 20])

@Test func everyMoveKeepsTheCursorTileOnScreen() {
    var state = GalleryState(library: ragged, spec: threeColumns, width: 40, height: 20)
    let moves: [Command] = [
        .move(.down), .move(.down), .move(.down), .move(.right), .pageDown, .pageDown, .move(.last),
        .pageUp, .halfPageUp, .move(.previousSection), .move(.first), .halfPageDown, .move(.nextSection),
    ]
    for move in moves {
        _ = state.apply(move)
        #expect(state.tileOfCursorIsVisible, "after \(move): cursor \(state.viewport.cursor) offset \(state.viewport.offset)")
    }
}

@Test func theHeaderLineAboveTheCursorRowStaysFree() {
    var state = GalleryState(library: ragged, spec: threeColumns, width: 40, height: 20)
    state.apply([.move(.last), .move(.first)])
    #expect(state.viewport.offset == 0)
    state.apply([.move(.last)])
    state.apply([.move(.up), .move(.up), .move(.up), .move(.up)])
    let tile = state.layout.frame(ofItem: state.viewport.cursor)
    #expect(tile.y - 1 >= state.viewport.offset, "the tile is not under the pinned header")
}

@Test func resizeReflowsAndKeepsTheCursorVisible() {
    var state = GalleryState(library: ragged, spec: .standard, width: 120, height: 30)
    let wide = state.layout.columnCount
    _ = state.apply(.move(.last))
    _ = state.apply(.resize(width: 40, height: 20))
    #expect(state.layout.columnCount < wide)
    #expect(state.tileOfCursorIsVisible)
    _ = state.apply(.resize(width: 5, height: 3))
    #expect(state.isTooSmall)
    _ = state.apply(.resize(width: 100, height: 40))
    #expect(!state.isTooSmall && state.tileOfCursorIsVisible)
}

@Test func zoomChangesTheAdaptiveMinimumAndKeepsTheCursorVisible() {
    var state = GalleryState(library: ragged, spec: .standard, width: 120, height: 30)
    _ = state.apply(.move(.last))
    let before = state.layout.columnCount
    state.apply([.zoomIn, .zoomIn])
    #expect(state.layout.columnCount < before)
    #expect(state.layoutState.spec.columns[0].size == .adaptive(minimum: 24, maximum: 32))
    #expect(state.tileOfCursorIsVisible)
    state.apply([.zoomOut, .zoomOut, .zoomOut])
    #expect(state.layout.columnCount > before)
    #expect(state.tileOfCursorIsVisible)
}

@Test func zoomOnFlexibleColumnsChangesTheirCount() {
    var state = GalleryState(library: ragged, spec: .flexible(count: 4), width: 120, height: 30)
    _ = state.apply(.zoomIn)
    #expect(state.layout.columnCount == 3)
    state.apply([.zoomOut, .zoomOut])
    #expect(state.layout.columnCount == 5)
}

@Test func clickMovesTheCursorToTheTileUnderIt() {
    var state = GalleryState(library: ragged, spec: threeColumns, width: 40, height: 40)
    let target = state.layout.frame(ofItem: 4)
    _ = state.apply(.click(x: target.x + GalleryState.gridInset + 2, y: target.y - state.viewport.offset + 1))
    #expect(state.viewport.cursor == 4)
    _ = state.apply(.click(x: 0, y: 0))  // a header: its section's first photo
    #expect(state.viewport.cursor == 0)
}

@Test func wheelScrollsAndBringsTheCursorAlong() {
    var state = GalleryState(library: ragged, spec: threeColumns, width: 40, height: 20)
    for _ in 0..<10 { _ = state.apply(.scroll(lines: 3)) }
    #expect(state.viewport.offset > 0)
    #expect(state.tileOfCursorIsVisible)
    for _ in 0..<20 { _ = state.apply(.scroll(lines: -3)) }
    #expect(state.viewport.offset == 0)
    #expect(state.tileOfCursorIsVisible)
}

@Test func zoomScalesEveryKindOfColumnAndKeepsAlignments() throws {
    let spec = try GridSpec(parsing: "fixed:12:leading,flexible,flexible,flexible:20-30:trailing")
    var state = GalleryState(library: ragged, spec: spec, width: 200, height: 40)
    state.apply([.move(.last), .zoomIn])
    #expect(
        state.layoutState.spec.columns == [
            GridItem(.fixed(16), alignment: .leading), GridItem(.flexible(minimum: 1, maximum: Int.max)),
            GridItem(.flexible(minimum: 24, maximum: 34), alignment: .trailing),
        ])
    #expect(state.tileOfCursorIsVisible)
    state.apply([.zoomOut, .zoomOut])
    #expect(
        state.layoutState.spec.columns == [
            GridItem(.fixed(8), alignment: .leading), GridItem(.flexible(minimum: 1, maximum: Int.max)),
            GridItem(.flexible(minimum: 16, maximum: 26), alignment: .trailing),
            GridItem(.flexible(minimum: 1, maximum: Int.max)), GridItem(.flexible(minimum: 1, maximum: Int.max)),
        ])
    #expect(state.tileOfCursorIsVisible)
}

@Test func theViewportPartScrollsAndKeepsTheCursorInView() {
    let layout = GridLayout(sectionCounts: [30], spec: threeColumns, width: 36)
    var viewport = Viewport()
    viewport.cursor = 29  // the last row
    viewport.scrollCursorIntoView(in: layout, length: 10)
    #expect(viewport.offset == Viewport.maxOffset(layout, length: 10) && viewport.direction == 1)
    // Scrolling back to the top takes the cursor onto a tile still in view.
    viewport.scroll(by: -1000, in: layout, length: 10)
    #expect(viewport.offset == 0 && viewport.direction == -1)
    let tile = layout.frame(ofItem: viewport.cursor)
    #expect(tile.y >= layout.pinnedHeaderLength && tile.maxY <= 10)
}

@Test func theScreenPartPlacesTheInfoPanelAndTheGrid() {
    var screen = Screen(width: 120, height: 30)
    #expect(screen.infoPanel == nil && screen.gridHeight == 29 && screen.gridAreaWidth == 120)
    screen.toggleInfo()
    #expect(screen.infoPanel == Rect(x: 78, y: 0, width: 42, height: 29) && screen.gridAreaWidth == 78 && screen.gridHeight == 29)
    screen.resize(width: 80, height: 30)  // too narrow: below the grid
    #expect(screen.infoPanel == Rect(x: 0, y: 15, width: 80, height: 14) && screen.gridHeight == 15 && screen.gridAreaWidth == 80)
    screen.resize(width: 0, height: -5)
    #expect(screen.width == 1 && screen.height == 1 && screen.gridHeight == 0)
}
