import LightboxLayout
import LightboxThumbnails
import Testing

@testable import LightboxApp

@Test func spaceMarksAndAdvancesAcceptPrintsMarksInDisplayOrder() {
    var state = GalleryState(library: library([4, 3]), spec: threeColumns, width: 40, height: 30)
    state.apply([.move(.last), .toggleMark, .move(.first), .toggleMarkAndAdvance, .toggleMarkAndAdvance])
    #expect(state.viewport.cursor == 2)
    #expect(state.selection.marks.sorted == [0, 1, 6])
    let effects = state.apply(.accept)
    #expect(effects == [.accept([ImagePath("photos/s0/IMG_1.jpg"), ImagePath("photos/s0/IMG_2.jpg"), ImagePath("photos/s1/IMG_3.jpg")])])
}

@Test func acceptWithoutMarksPrintsTheCursorItem() {
    var state = GalleryState(library: library([4, 3]), spec: threeColumns, width: 40, height: 30)
    state.apply([.move(.right), .move(.down), .move(.down)])  // 1, then 3 (short row), then 5
    #expect(state.apply(.accept) == [.accept([ImagePath("photos/s1/IMG_2.jpg")])])
}

@Test func mTogglesWithoutMoving() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    state.apply([.move(.right), .toggleMark])
    #expect(state.viewport.cursor == 1 && state.selection.marks.contains(1))
    _ = state.apply(.toggleMark)
    #expect(state.viewport.cursor == 1 && state.selection.marks.count == 0)
}

@Test func rangeMarkCoversAnchorToCursorInEitherDirection() {
    var state = GalleryState(library: library([4, 3]), spec: threeColumns, width: 40, height: 30)
    state.apply([.move(.down), .move(.down), .toggleRange])  // anchor on item 4
    #expect(state.selection.anchor == 4)
    state.apply([.move(.left), .move(.left), .toggleRange])  // back to item 2
    #expect(state.selection.anchor == nil)
    #expect(state.selection.marks.sorted == [2, 3, 4])
}

@Test func markSectionTogglesTheCursorsSectionAndAllAndClear() {
    var state = GalleryState(library: library([4, 3, 2]), spec: threeColumns, width: 40, height: 30)
    state.apply([.move(.nextSection), .markSection])
    #expect(state.selection.marks.sorted == [4, 5, 6])
    _ = state.apply(.markSection)
    #expect(state.selection.marks.count == 0)
    _ = state.apply(.markAll)
    #expect(state.selection.marks.count == 9)
    _ = state.apply(.clearMarks)
    #expect(state.selection.marks.count == 0)
}

@Test func cancelQuitsWithoutOutput() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    _ = state.apply(.markAll)
    #expect(state.apply(.cancel) == [.cancel])
}

@Test func helpIsClosedByAnyKeyWhichDoesNothingElse() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    _ = state.apply(.toggleHelp)
    #expect(state.isShowingHelp)
    #expect(state.apply(.cancel) == [])
    #expect(!state.isShowingHelp)
    state.apply([.toggleHelp, .move(.right)])
    #expect(state.viewport.cursor == 0 && !state.isShowingHelp)
}

@Test func marksScaleToAMillionItems() {
    var marks = MarkSet(capacity: 1_000_000)
    marks.set(0..<1_000_000, marked: true)
    #expect(marks.count == 1_000_000)
    marks.set(999_999, marked: false)
    #expect(marks.sorted.count == 999_999 && marks.sorted.last == 999_998)
}

@Test func rangeOperationsAgreeWithItemByItemOnes() {
    var marks = MarkSet(capacity: 300)
    var reference = Set<Int>()
    let ranges = [3..<70, 64..<128, 0..<1, 127..<129, 250..<300, 10..<10, 5..<200]
    for (i, range) in ranges.enumerated() {
        let marked = i % 3 != 2
        marks.set(range, marked: marked)
        if marked { reference.formUnion(range) } else { reference.subtract(range) }
        #expect(marks.sorted == reference.sorted())
        #expect(marks.count == reference.count)
        for probe in ranges { #expect(marks.count(in: probe) == reference.filter { probe.contains($0) }.count) }
    }
}

@Test func aMarkLimitRefusesMoreAndNoMultiRefusesAll() {
    var state = GalleryState(library: library([10]), spec: threeColumns, width: 40, height: 20, settings: settings { $0.markLimit = 2 })
    state.apply([.toggleMarkAndAdvance, .toggleMarkAndAdvance, .toggleMarkAndAdvance])
    #expect(state.selection.marks.count == 2 && state.message == "at most 2 may be marked (--multi=2)")
    _ = state.apply(.markAll)
    #expect(state.selection.marks.count == 2)
    let version = state.selection.version
    _ = state.apply(.clearMarks)
    #expect(state.selection.marks.count == 0 && state.selection.version == version + 1)
    state = GalleryState(library: library([10]), spec: threeColumns, width: 40, height: 20, settings: settings { $0.allowsMarks = false })
    state.apply([.move(.right), .toggleMark])
    #expect(state.selection.marks.count == 0 && state.message?.contains("--no-multi") == true)
    #expect(state.apply(.accept) == [.accept([state.library[state.viewport.cursor].path])])
}

@Test func pathsToPreMarkAreMarkedAsTheScanFindsThem() {
    var state = GalleryState(
        library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true,
        settings: settings { $0.pendingMarks = PathSet([ImagePath("f/IMG_3.jpg"), ImagePath("f/IMG_7.jpg"), ImagePath("elsewhere.jpg")]) })
    let files = (0..<10).map { ImageFile(path: ImagePath("f/IMG_\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg) }
    _ = state.apply(.scanned([Scanner.Batch(folder: ImagePath("f"), files: Array(files[0..<5]))], isFinished: false))
    #expect(state.selection.marks.sorted == [3])
    _ = state.apply(.scanned([Scanner.Batch(folder: ImagePath("f"), files: Array(files[5...]))], isFinished: true))
    #expect(state.markedPaths == [ImagePath("f/IMG_3.jpg"), ImagePath("f/IMG_7.jpg")])
    #expect(state.selection.pending.remaining == [ImagePath("elsewhere.jpg")])
}

@Test func theFilterNarrowsAsTypedAndMarksSurviveIt() {
    var state = GalleryState(library: library([12]), spec: threeColumns, width: 40, height: 20)
    state.apply([.move(.right), .toggleMark, .move(.right), .move(.right), .toggleMark])  // IMG_2 and IMG_4
    state.apply([.startFilter, .filterInput("i"), .filterInput("1")])
    // IMG_1, IMG_10, IMG_11, IMG_12: fuzzy, case-insensitive.
    #expect(
        (0..<state.library.count).map { state.library[$0].path.description.split(separator: "/").last! } == [
            "IMG_1.jpg", "IMG_10.jpg", "IMG_11.jpg", "IMG_12.jpg",
        ])
    #expect(state.viewport.cursor == 0 && state.isEditingFilter)
    #expect(state.markedCount == 2 && state.selection.hidden.count == 2)
    state.apply([.acceptFilter, .move(.right), .toggleMark])
    #expect(!state.isEditingFilter && state.markedCount == 3)
    // Accept prints every mark, hidden ones too, in the order found.
    #expect(state.apply(.accept) == [.accept(["IMG_2", "IMG_4", "IMG_10"].map { ImagePath("photos/s0/\($0).jpg") })])
    state.apply([.startFilter, .cancelFilter])
    #expect(state.library.count == 12 && state.selection.marks.count == 3 && state.selection.hidden.isEmpty)
    #expect(state.library[state.viewport.cursor].path.description == "photos/s0/IMG_10.jpg", "the cursor stays on its item")
    state.apply([.startFilter, .filterInput("zz")])
    #expect(state.library.isEmpty && state.library.totalCount == 12 && state.markedCount == 3)
    #expect(state.apply(.toggleMark).isEmpty && state.markedCount == 3)
}

@Test func fuzzyMatching() {
    #expect(FuzzyMatch.matches(FuzzyMatch.folded(Array("ig1".utf8)), Array("IMG_10.jpg".utf8)))
    #expect(!FuzzyMatch.matches(FuzzyMatch.folded(Array("1m".utf8)), Array("IMG_10.jpg".utf8)))
    #expect(FuzzyMatch.matchedCharacters("ig1", in: "IMG_10.jpg") == [0, 2, 4])
    #expect(FuzzyMatch.matchedCharacters("x", in: "IMG_10.jpg") == nil)
}

@Test func countsMarksAndJumpsBack() {
    var state = GalleryState(library: library([30]), spec: threeColumns, width: 40, height: 20)
    #expect(KeyTable.standard.command(for: .character("7")) == .countDigit(7))
    state.apply([.countDigit(5), .move(.right)])
    #expect(state.viewport.cursor == 5 && state.pendingCount == nil)
    state.apply([.countDigit(2), .move(.down)])
    #expect(state.viewport.cursor == 11)
    state.apply([.countDigit(1), .countDigit(2), .move(.last)])
    #expect(state.viewport.cursor == 11, "12G: the twelfth item")
    state.apply([.countDigit(0), .move(.right)])
    #expect(state.viewport.cursor == 12, "a lone 0 is not a count")
    state.apply([.toggleMark, .move(.first), .nextMark])
    #expect(state.viewport.cursor == 12)
    _ = state.apply(.nextMark)
    #expect(state.viewport.cursor == 12 && state.message == "no marked item after this one")
    _ = state.apply(.move(.last))
    _ = state.apply(.previousMark)
    #expect(state.viewport.cursor == 12)
    _ = state.apply(.jumpBack)
    #expect(state.viewport.cursor == 29, "back to where N started")
    _ = state.apply(.jumpBack)
    #expect(state.viewport.cursor == 12)
}

@Test func thePreviewShowsOnePhotoZoomsPansMarksAndReturnsToItsPlace() {
    var state = GalleryState(library: library([20]), spec: threeColumns, width: 80, height: 25)
    state.apply([.move(.right), .openPreview])
    #expect(state.preview == Preview())
    #expect(state.store.demand.map(\.id.rawValue) == [1, 2, 0, 3], "the photo first, then its neighbours: the next, the one before, the one after the next")
    #expect(state.store.demand.allSatisfy { $0.box == PixelSize(width: 80, height: 48) })
    // A big picture arrives: zooming in asks for it larger and pans stay on it.
    let big = Thumbnail(width: 80, height: 48, pixels: [UInt8](repeating: 9, count: 80 * 48 * 3))
    _ = state.apply(.decoded(state.store.demand[0], .decoded(big)))
    _ = state.apply(.zoomIn)
    #expect(state.preview?.zoom == 2 && state.previewBox == PixelSize(width: 160, height: 96))
    #expect(state.store.demand.first?.box == PixelSize(width: 160, height: 96))
    state.apply([.pan(dx: 1, dy: 1), .pan(dx: 1, dy: 1), .pan(dx: 5, dy: 5)])
    #expect(state.preview!.panX <= 160 - 80 && state.preview!.panY <= 96 - 48 && state.preview!.panX > 0)
    #expect(state.viewport.cursor == 1, "zoomed, arrows pan instead of changing photos")
    state.apply([.move(.right), .toggleMark])
    #expect(state.viewport.cursor == 2 && state.preview == Preview() && state.selection.marks.sorted == [2])
    _ = state.apply(.closePreview)
    #expect(state.preview == nil && state.viewport.cursor == 2)
    state.apply([.openPreview, .pan(dx: -1, dy: 0)])
    #expect(state.viewport.cursor == 1, "not zoomed, the arrows go through the photos")
}

@Test func clicksMoveMarkRangePreviewAndFoldSections() {
    var state = GalleryState(library: library([7, 20]), spec: threeColumns, width: 40, height: 30)
    func cell(of item: Int) -> (x: Int, y: Int) {
        let frame = state.layout.frame(ofItem: item)
        return (frame.x + GalleryState.gridInset + 2, frame.y - state.viewport.offset + 1)
    }
    var c = cell(of: 4)
    _ = state.apply(.click(x: c.x, y: c.y))
    #expect(state.viewport.cursor == 4)
    c = cell(of: 8)
    _ = state.apply(.shiftClick(x: c.x, y: c.y))
    #expect(state.selection.marks.sorted == [4, 5, 6, 7, 8] && state.viewport.cursor == 8)
    c = cell(of: 5)
    _ = state.apply(.controlClick(x: c.x, y: c.y))
    #expect(state.selection.marks.sorted == [4, 6, 7, 8])
    // A header: a click goes to its section, a double click folds it.
    let header = state.layout.headerTop(ofSection: 1) - state.viewport.offset
    state.apply([.move(.first), .click(x: 5, y: header)])
    #expect(state.viewport.cursor == 7)
    _ = state.apply(.doubleClick(x: 5, y: state.layout.headerTop(ofSection: 1) - state.viewport.offset))
    #expect(state.layout.collapsed == [false, true])
    c = cell(of: 2)
    _ = state.apply(.doubleClick(x: c.x, y: c.y))
    #expect(state.viewport.cursor == 2 && state.preview != nil)
}

@Test func theSelectionPartKeepsItsRulesAndCountsRealChanges() {
    var selection = Selection(capacity: 10, allowsMarks: true, limit: 2, pending: PathSet())
    var before = selection.marks
    selection.marks.set(0..<2, marked: true)
    #expect(selection.settle(since: before) == nil && selection.version == 1)
    before = selection.marks
    selection.marks.set(5, marked: true)
    #expect(selection.settle(since: before) == "at most 2 may be marked (--multi=2)")
    #expect(selection.marks == before && selection.version == 1, "over the limit: back as it was, no change counted")
    before = selection.marks
    #expect(selection.settle(since: before) == nil && selection.version == 1, "nothing changed: nothing counted")
    #expect(selection.isFull)
}
