import LightboxApp
import LightboxLayout
import LightboxThumbnails
import Testing

/// `count` fake files of one folder, numbered from `start`.
private func batch(_ folder: String, _ range: Range<Int>) -> Scanner.Batch {
    Scanner.Batch(
        folder: ImagePath(folder),
        files: range.map { i in
            ImageFile(path: ImagePath("\(folder)/IMG_\(i).jpg"), byteCount: 1000, modified: 0, format: .jpeg)
        })
}

@Test func itemsArrivingKeepTheCursorTheScrollAndTheMarks() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([batch("a", 0..<30)], isFinished: false))
    state.apply([.move(.down), .move(.down), .move(.down), .move(.down), .move(.down), .toggleMark, .move(.right)])
    let cursor = state.viewport.cursor, offset = state.viewport.offset, path = state.library[cursor].path
    #expect(offset > 0)
    // More of the same folder, then new folders, with a problem.
    var more = batch("b", 0..<40)
    more.problems = ["cannot read b/x"]
    _ = state.apply(.scanned([batch("a", 30..<50), more], isFinished: false))
    #expect(state.viewport.cursor == cursor && state.viewport.offset == offset)
    #expect(state.library[state.viewport.cursor].path == path)
    #expect(state.selection.marks.sorted == [15])
    #expect(state.library.sections.map(\.items) == [0..<50, 50..<90])
    #expect(state.layout.itemCount == 90)
    #expect(state.scanProblems == ["cannot read b/x"])
    #expect(state.isScanning)
    // New items can be marked and reached.
    state.apply([.move(.last), .toggleMark])
    #expect(state.selection.marks.sorted == [15, 89])
    _ = state.apply(.scanned([], isFinished: true))
    #expect(!state.isScanning)
}

/// `G` while the scan goes on is the end of the library: the cursor stays on the last item as
/// more come, until another key; after that, items arriving leave it where it is.
@Test func theLastItemAskedForWhileScanningStaysTheLast() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([batch("a", 0..<30)], isFinished: false))
    _ = state.apply(.move(.last))
    _ = state.apply(.scanned([batch("a", 30..<50), batch("b", 0..<40)], isFinished: false))
    #expect(state.library[state.viewport.cursor].path == ImagePath("b/IMG_39.jpg"))
    #expect(state.viewport.offset > 0, "scrolled to it")
    _ = state.apply(.move(.left))
    let cursor = state.viewport.cursor
    _ = state.apply(.scanned([batch("c", 0..<10)], isFinished: false))
    #expect(state.viewport.cursor == cursor, "another key ended it")
    state.apply([.move(.last), .toggleMark])
    _ = state.apply(.scanned([batch("d", 0..<10)], isFinished: false))
    #expect(state.library[state.viewport.cursor].path == ImagePath("c/IMG_9.jpg"), "a mark ended it")
    _ = state.apply(.scanned([], isFinished: true))
    _ = state.apply(.move(.first))
    _ = state.apply(.move(.last))
    #expect(state.library[state.viewport.cursor].path == ImagePath("d/IMG_9.jpg"))
}

/// `G` while the index's library lands: the screens passed on the way to its end are not
/// decoded (their pictures would be dropped at the next part); the end's are once it has landed.
@Test func theScreensPassedOnTheWayToTheEndAreNotDecoded() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.indexLanding(true))
    #expect(loads(state.apply(.scanned([batch("a", 0..<30)], isFinished: false)))?.isEmpty == false, "the first screen")
    #expect(loads(state.apply(.move(.last))) == [])
    #expect(loads(state.apply(.scanned([batch("b", 0..<40)], isFinished: false))) == nil, "nothing asked on the way")
    let end = loads(state.apply(.indexLanding(false)))
    #expect(end?.first?.id.rawValue == state.viewport.cursor && state.library[state.viewport.cursor].path == ImagePath("b/IMG_39.jpg"))
    // Without G the screen is decoded as the index lands.
    var other = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = other.apply(.indexLanding(true))
    _ = other.apply(.scanned([batch("a", 0..<30)], isFinished: false))
    #expect(loads(other.apply(.move(.down)))?.isEmpty == false)
}

/// While the index's library lands the screen's tiles are decoded, the screen ahead once it is
/// all in (until then the two cores are the landing's).
@Test func theScreenAheadWaitsForTheIndexsLibrary() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.indexLanding(true))
    let first = loads(state.apply(.scanned([batch("a", 0..<60)], isFinished: false))) ?? []
    let firstAhead = first.filter(\.isAhead).count
    #expect(!first.isEmpty && firstAhead == 0, "the screen only")
    let landed = loads(state.apply(.indexLanding(false))) ?? []
    let landedAhead = landed.filter(\.isAhead).count
    #expect(landedAhead > 0, "then the screen ahead")
    #expect(Set(first.map(\.id)).isSubset(of: Set(landed.map(\.id))))
}

@Test func anEmptyLibraryWaitsForTheScanAndThenShowsTheFirstScreen() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    #expect(state.apply(.move(.down)).isEmpty)
    let effects = state.apply(.scanned([batch("a", 0..<5)], isFinished: false))
    #expect(effects.first == .load(state.store.demand))
    #expect(state.store.demand.map(\.id.rawValue) == Array(0..<5))
    // What the new photos' sidecars say is asked for, in the background.
    guard case .readDecisions(let reads) = effects.last else { return #expect(Bool(false), "no read of decisions") }
    #expect(effects.count == 2 && reads.map(\.id.rawValue) == Array(0..<5))
    #expect(state.viewport.cursor == 0)
}

@Test func scanResultsDoNotCloseTheHelpOrClearTheMessage() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    _ = state.apply(.scanned([batch("a", 0..<5)], isFinished: false))
    _ = state.apply(.toggleHelp)
    _ = state.apply(.scanned([batch("a", 5..<9)], isFinished: false))
    #expect(state.isShowingHelp)
    state.apply([.move(.first), .toggleRange])
    _ = state.apply(.scanned([batch("a", 9..<12)], isFinished: true))
    #expect(state.message != nil)
}

/// `--select-1` once the UI opened (the scan took longer than its wait): a scan that ends with
/// one item, before any key, accepts it, as fzf does; a key first, or a second item, keeps the UI.
@Test func aScanEndingWithOneItemBeforeAnyKeyAcceptsIt() {
    let selecting = settings { $0.selectsOnlyItem = true }
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true, settings: selecting)
    #expect(!state.apply(.scanned([batch("a", 0..<1)], isFinished: false)).contains { if case .accept = $0 { true } else { false } })
    #expect(state.apply(.scanned([], isFinished: true)) == [.accept([state.library[0].path])])

    var typed = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true, settings: selecting)
    _ = typed.apply(.scanned([batch("a", 0..<1)], isFinished: false))
    _ = typed.apply(.move(.right))
    #expect(!typed.apply(.scanned([], isFinished: true)).contains { if case .accept = $0 { true } else { false } }, "a key made it the user's")

    var two = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true, settings: selecting)
    #expect(!two.apply(.scanned([batch("a", 0..<2)], isFinished: true)).contains { if case .accept = $0 { true } else { false } })

    var plain = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 20, isScanning: true)
    #expect(!plain.apply(.scanned([batch("a", 0..<1)], isFinished: true)).contains { if case .accept = $0 { true } else { false } }, "without --select-1")
}
