import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import Testing

@testable import LightboxApp

/// A state in kitty mode on 160x48 cells of 10x20 pixels, `count` photos whose sizes are read.
private func comparing(_ count: Int, size: PixelSize = PixelSize(width: 4000, height: 3000), marks: [Int] = []) -> GalleryState {
    var state = GalleryState(
        library: library([count]), spec: threeColumns, width: 160, height: 48,
        settings: settings {
            $0.graphics = .kitty
            $0.availableGraphics = [.kitty]
            $0.cellPixels = CellPixelSize(width: 10, height: 20)
        })
    _ = state.initialEffects()
    _ = state.apply(.metadataRead((0..<count).map { MetadataResult(id: ItemID($0), metadata: nil, size: size) }))
    for item in marks {
        state.viewport.cursor = item
        _ = state.apply(.toggleMark)
    }
    state.viewport.cursor = 0
    return state
}

/// A picture fitted to its view, zoomed about a point: centred when smaller than the view,
/// else held so the view stays on it.
@Test func aZoomedViewFitsZoomsAndStaysOnThePicture() {
    let view = PixelSize(width: 800, height: 460)
    let fit = ZoomedView(picture: PixelSize(width: 4000, height: 3000), view: view, zoom: 1, centre: .middle)
    #expect(fit.drawn == PixelSize(width: 613, height: 460) && fit.originX == -93 && fit.originY == 0)
    let twice = ZoomedView(picture: PixelSize(width: 4000, height: 3000), view: view, zoom: 2, centre: .middle)
    #expect(twice.drawn == PixelSize(width: 1227, height: 920) && twice.originX == 214 && twice.originY == 230)
    let edge = ZoomedView(picture: PixelSize(width: 4000, height: 3000), view: view, zoom: 2, centre: PhotoPoint(x: 1, y: 0))
    #expect(edge.originX == 1227 - 800 && edge.originY == 0, "the view stays on the picture")
}

/// `C` with photos marked compares them (four in panes, the rest waiting); with none, the
/// cursor's and the next, the photos after them coming in as one is dropped; dropping down to
/// one shows it full-screen.
@Test func compareOpensOnTheMarksOrTheCursorAndDropBringsTheNextIn() {
    var state = comparing(8, marks: [1, 2, 4, 5, 6, 7])
    state.viewport.cursor = 2
    _ = state.apply(.compare)
    #expect(state.compare?.shown == [1, 2, 4, 5].map(ItemID.init) && state.compare?.focused == ItemID(2) && state.compare?.waitingCount == 2)
    #expect(state.comparePanes.count == 4 && state.message?.hasPrefix("comparing 4 marked photos, 2 waiting") == true)
    _ = state.apply(.dropFromCompare)
    #expect(state.compare?.shown == [1, 6, 4, 5].map(ItemID.init) && state.message == "dropped IMG_3.jpg, IMG_7.jpg came in")
    state.apply([.dropFromCompare, .dropFromCompare])
    #expect(state.compare?.shown == [1, 5].map(ItemID.init) || state.compare?.shown.count == 3)
    _ = state.apply(.closePreview)
    #expect(state.compare == nil && state.mode == .grid)

    var plain = comparing(4)
    plain.viewport.cursor = 1
    _ = plain.apply(.compare)
    #expect(plain.compare?.shown == [1, 2].map(ItemID.init) && plain.compare?.focused == ItemID(1))
    _ = plain.apply(.dropFromCompare)
    #expect(plain.compare?.shown == [3, 2].map(ItemID.init), "the photo after the last shown comes in")
    _ = plain.apply(.dropFromCompare)
    #expect(plain.compare == nil && plain.preview != nil && plain.viewport.cursor == 2, "one left: full-screen")
    #expect(plain.message == "dropped IMG_4.jpg: one left, shown full-screen (C compares again)")

    var last = comparing(3)
    last.viewport.cursor = 2
    _ = last.apply(.compare)
    #expect(last.compare?.shown == [1, 2].map(ItemID.init) && last.compare?.focused == ItemID(2), "the last photo and the one before")
}

/// Zoom and pan are locked: every pane shows the same part of photos of one size; Shift's keys
/// move the focused one alone. 100% is each photo's own, from its size read.
@Test func zoomAndPanAreLockedAcrossThePanesAndOneMovesAlone() {
    var state = comparing(3, marks: [0, 1, 2])
    _ = state.apply(.compare)
    #expect(state.comparePanes.count == 3)
    _ = state.apply(.actualSize)
    let compare = state.compare!
    #expect(compare.isActualSize && state.message?.hasPrefix("each at 100%") == true)
    // Each pane at 100%: the photo's 4000 pixels across are 4000 screen pixels.
    let view = state.compareView(ofPane: 0)
    for pane in 0..<3 {
        let zoomed = ZoomedView(
            picture: PixelSize(width: 4000, height: 3000), view: view, zoom: state.compareZoom(ofPane: pane), centre: compare.centre(ofPane: pane))
        #expect(abs(zoomed.drawn.width - 4000) <= 2, "pane \(pane) at 100%")
    }
    func region(_ pane: Int) -> (Int, Int) {
        let view = ZoomedView(
            picture: PixelSize(width: 4000, height: 3000), view: state.compareView(ofPane: pane), zoom: state.compareZoom(ofPane: pane),
            centre: state.compare!.centre(ofPane: pane))
        return (view.originX, view.originY)
    }
    #expect(region(0) == region(1) && region(1) == region(2))
    state.apply([.pan(dx: 1, dy: 0), .pan(dx: 0, dy: 1)])
    #expect(region(0) == region(1) && region(1) == region(2) && region(0) != (1700, 1270))
    let before = region(1)
    state.apply([.focusPane(1), .panAlone(dx: 1, dy: 0)])
    #expect(state.compare?.focus == 1 && region(1) != before && region(0) == region(2), "the focused one alone")
    let ownMove = region(1).0 - region(0).0
    #expect(ownMove > 0)
    _ = state.apply(.pan(dx: -1, dy: 0))
    #expect(region(0) == region(2) && region(0) != before && abs(region(1).0 - region(0).0 - ownMove) <= 1, "its own move is kept as they all move")
    // Dragged left by a cell, every photo moves with the pointer: the views a cell's pixels right.
    let dragged = region(0)
    _ = state.apply(.drag(dx: -1, dy: 0))
    let unit = state.compareUnit.width
    #expect(abs(region(0).0 - dragged.0 - unit) <= 2 && region(0) == region(2) && region(0).1 == dragged.1, "\(dragged) → \(region(0))")
    _ = state.apply(.zoomOut)
    #expect(state.compare?.isActualSize == false && (state.compare?.zoom ?? 0) > 1)
    _ = state.apply(.actualSize)
    #expect(state.compare?.zoom == 1 && state.compare?.offsets.isEmpty == true && state.message == "fit")
    // Not zoomed, the arrows and Tab go through the panes, round.
    state.apply([.pan(dx: 1, dy: 0), .pan(dx: 1, dy: 0)])
    #expect(state.compare?.focus == 0)
}

/// 100% waits for the photos' sizes, which compare asks for at once.
@Test func compareAsksForItsPhotosSizesAndDecodesEachPaneAtItsBox() {
    var state = GalleryState(
        library: library([4]), spec: threeColumns, width: 160, height: 48,
        settings: settings {
            $0.graphics = .kitty
            $0.availableGraphics = [.kitty]
            $0.cellPixels = CellPixelSize(width: 10, height: 20)
        })
    _ = state.initialEffects()
    let effects = state.apply(.compare)
    #expect(effects.contains { if case .readMetadata(let requests, true) = $0 { Set(requests.map(\.id)) == [ItemID(0), ItemID(1)] } else { false } })
    let panes = state.comparePanes
    let boxes = state.store.demand.map(\.box)
    #expect(state.store.demand.map(\.id) == [ItemID(0), ItemID(1)], "the focused one first")
    let area = CompareLayout.picture(of: panes[0])
    #expect(boxes.allSatisfy { $0 == PixelSize(width: area.width * 10, height: area.height * 20) })
    _ = state.apply(.actualSize)
    #expect(state.message == "100%: reading the photos' sizes…" && state.compareZoom(ofPane: 0) == 1)
    _ = state.apply(.metadataRead([0, 1].map { MetadataResult(id: ItemID($0), metadata: nil, size: PixelSize(width: 4000, height: 3000)) }))
    #expect(state.compareZoom(ofPane: 0) > 4 && state.store.demand.allSatisfy { $0.box.width > 3000 && !$0.wantsCells })
}

/// Decisions and marks go to the focused photo alone (not the marked set compared), and compare
/// does not move on; commands compare has no keys for are said, not done.
@Test func inCompareDecisionsAndMarksAreTheFocusedPhotos() {
    var state = comparing(4, marks: [0, 1, 2])
    _ = state.apply(.compare)
    _ = state.apply(.focusPane(1))
    let effects = state.apply(.rate(4))
    #expect(state.decisions[ItemID(1)].stars == 4 && state.decisions[ItemID(0)].stars == 0 && state.decisions[ItemID(2)].stars == 0)
    #expect(effects.contains { if case .saveDecisions(let writes) = $0 { writes.map(\.id) == [ItemID(1)] } else { false } })
    #expect(state.compare?.focus == 1, "compare stays on the photo decided")
    _ = state.apply(.toggleReject)
    #expect(state.decisions[ItemID(1)].isRejected && state.decisions[ItemID(2)].rating == 0)
    _ = state.apply(.toggleMark)
    #expect(!state.selection.marks.contains(1) && state.selection.marks.contains(0) && state.compare?.shown.count == 3)
    _ = state.apply(.rotate(clockwise: true))
    #expect(state.viewTurns == [ItemID(1): 1])
    _ = state.apply(.cycleSort)
    #expect(state.compare != nil && state.message == "sort: not in compare (Esc goes back to the grid)")
    _ = state.apply(.accept)
    let accepted = state.apply(.accept)
    #expect(accepted == [.accept(state.markedPaths)])
    // A click focuses the pane under it.
    let third = state.comparePanes[2]
    _ = state.apply(.click(x: third.x + 1, y: third.y + 1))
    #expect(state.compare?.focus == 2 && state.viewport.cursor == 2)
    _ = state.apply(.openPreview)
    #expect(state.preview != nil && state.viewport.cursor == 2)
}

/// Compare's keys: Tab and h l focus, Shift's H J K L pan one alone, d drops, Esc and C go back.
@Test func compareKeysAreRoutedFromTheirTable() {
    var state = comparing(3)
    _ = state.apply(.compare)
    var router = InputRouter()
    func command(_ key: Key) -> Command? { router.command(for: .key(key), in: state, at: 0) }
    #expect(command(.tab) == .focusPane(1) && command(.character("h")) == .focusPane(-1))
    #expect(command(.character("L")) == .panAlone(dx: 1, dy: 0) && command(.character("d")) == .dropFromCompare)
    #expect(command(.escape) == .closePreview && command(.character("C")) == .closePreview && command(.character("3")) == .rate(3))
    #expect(router.command(for: .mouse(MouseEvent(kind: .wheelUp, x: 3, y: 3, isShift: false, isControl: false)), in: state, at: 0) == .zoomIn)
    for binding in KeyTable.compare.bindings { #expect(binding.command.traits.contains(.inCompare) || binding.command.traits.contains(.inEveryMode)) }
}
