import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import Testing

@testable import LightboxApp

func loads(_ effects: [Effect]) -> [DecodeRequest]? {
    for case .load(let requests) in effects { return requests }
    return nil
}

@Test func demandIsVisibleFirstThenOneScreenAheadNeverTheWholeLibrary() {
    var state = GalleryState(library: library([5000]), spec: threeColumns, width: 40, height: 20)
    let requests = loads(state.initialEffects())!
    let visible = Array(state.visibleItems)
    #expect(Array(requests.prefix(visible.count).map(\.id.rawValue)) == visible)
    let ahead = requests.dropFirst(visible.count).map(\.id.rawValue)
    #expect(!ahead.isEmpty)
    #expect(ahead.allSatisfy { $0 > visible.last! })
    #expect(requests.count <= 3 * visible.count)
}

@Test func theCursorsTileIsAskedForFirst() {
    var state = GalleryState(library: library([5000]), spec: threeColumns, width: 40, height: 20)
    _ = state.initialEffects()
    let requests = loads(state.apply(.move(.down)))!
    let cursor = state.viewport.cursor
    #expect(cursor > 0 && requests.first?.id.rawValue == cursor)
    #expect(Array(requests.dropFirst().prefix(state.visibleItems.count - 1).map(\.id.rawValue)) == state.visibleItems.filter { $0 != cursor })
}

@Test func jumpingAwayReplacesTheDemand() {
    var state = GalleryState(library: library([5000]), spec: threeColumns, width: 40, height: 20)
    _ = state.initialEffects()
    let requests = loads(state.apply(.move(.last)))!
    #expect(requests.first.map { state.visibleItems.contains($0.id.rawValue) } == true)
    #expect(!requests.contains { $0.id.rawValue < 100 })
    // Scrolling up: the prefetch goes upwards.
    let up = loads(state.apply(.pageUp))!
    let visible = state.visibleItems
    #expect(up.dropFirst(visible.count).allSatisfy { $0.id.rawValue < visible.lowerBound })
}

@Test func decodedAndFailedItemsLeaveTheDemand() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 40)
    let requests = loads(state.initialEffects())!
    #expect(requests.count == 6)
    let thumbnail = Thumbnail(width: 1, height: 1, pixels: [1, 2, 3])
    let next = loads(state.apply(.decoded(requests[0], .decoded(thumbnail))))!
    #expect(next.count == 5)
    let after = loads(state.apply(.decoded(requests[1], .failed(.badFile("cannot decode: bad")))))!
    #expect(after.count == 4)
    #expect(state.store.failures[ItemID(1)] == "cannot decode: bad")
    #expect(state.loadingCount == 4)
}

@Test func cacheStaysWithinItsBudget() {
    var cache = ThumbnailCache(budget: 3000)
    let file = ImageFile(path: ImagePath("a.jpg"), byteCount: 1, modified: 0, format: .jpeg)
    for i in 0..<100 {
        let key = ThumbnailKey(file: file, box: PixelSize(width: i + 1, height: 1))
        cache.insert(Thumbnail(width: 10, height: 10, pixels: [UInt8](repeating: 0, count: 300)), for: key)
        #expect(cache.byteCount <= 3000)
    }
    // The most recent survive.
    #expect(cache.contains(ThumbnailKey(file: file, box: PixelSize(width: 100, height: 1))))
    #expect(!cache.contains(ThumbnailKey(file: file, box: PixelSize(width: 1, height: 1))))
}

@Test func cacheKeepsWhatWasUsedRecently() {
    var cache = ThumbnailCache(budget: 1000)
    let file = ImageFile(path: ImagePath("a.jpg"), byteCount: 1, modified: 0, format: .jpeg)
    func key(_ i: Int) -> ThumbnailKey { ThumbnailKey(file: file, box: PixelSize(width: i, height: 1)) }
    let t = Thumbnail(width: 10, height: 10, pixels: [UInt8](repeating: 0, count: 300))
    cache.insert(t, for: key(1)); cache.insert(t, for: key(2)); cache.insert(t, for: key(3))
    _ = cache.thumbnail(for: key(1))
    cache.insert(t, for: key(4))
    #expect(cache.contains(key(1)) && cache.contains(key(4)))
    #expect(!cache.contains(key(2)))
}

@Test func coalescingKeepsOnlyTheLastLoad() {
    let a = DecodeRequest(id: ItemID(0), file: ImageFile(path: ImagePath("a"), byteCount: 0, modified: 0, format: .jpeg), box: PixelSize(width: 1, height: 1))
    let effects: [Effect] = [.load([a]), .load([]), .suspend, .load([a, a])]
    #expect(effects.coalesced == [.suspend, .load([a, a])])
    #expect(([] as [Effect]).coalesced.isEmpty)
}

@Test func aScreenTooSmallForATileIsCompleteAtOnce() {
    // --snapshot waits for the visible tiles: a screen with none to show must not wait forever.
    for (width, height) in [(40, 5), (200, 3), (5, 5), (1, 1)] {
        var state = GalleryState(library: library([6]), spec: threeColumns, width: width, height: height)
        _ = state.initialEffects()
        #expect(state.isTooSmall && state.isVisibleComplete, "\(width)x\(height)")
    }
}

@Test func aCellSizeChangeIsAnActionAndTheBoxesFollowIt() {
    var state = GalleryState(
        library: library([6]), spec: threeColumns, width: 40, height: 30,
        settings: settings {
            $0.graphics = .sixel; $0.cellPixels = CellPixelSize(width: 10, height: 20)
        })
    _ = state.initialEffects()
    let before = state.store.demand.map(\.box)
    let effects = state.apply(.cellSizeChanged(CellPixelSize(width: 20, height: 40)))
    #expect(state.pictures.cellPixels == CellPixelSize(width: 20, height: 40))
    #expect(state.store.demand.map(\.box) == before.map { PixelSize(width: $0.width * 2, height: $0.height * 2) })
    #expect(effects == [.load(state.store.demand)])
    #expect(state.apply(.cellSizeChanged(CellPixelSize(width: 20, height: 40))).isEmpty, "unchanged: nothing to do")
}

@Test func aNoticeShowsWithoutClosingTheHelpOrCountingAsAKey() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 30)
    _ = state.apply(.toggleHelp)
    _ = state.apply(.notice("the command exited with status 3"))
    #expect(state.isShowingHelp && state.message == "the command exited with status 3")
    _ = state.apply(.toggleHelp)
    #expect(state.message == nil)
}

@Test func thePictureStoreKeepsResultsAndAsksOnlyForWhatIsNew() {
    var store = PictureStore(budget: 1 << 20)
    let request = DecodeRequest(
        id: ItemID(4), file: ImageFile(path: ImagePath("a.jpg"), byteCount: 1, modified: 0, format: .jpeg),
        box: PixelSize(width: 2, height: 1))
    #expect(store.want([request]) == [request] && store.want([request]) == nil, "the same demand is not asked twice")
    #expect(store.record(request, .failed(.badFile("cannot decode: bad"))).isEmpty && store.failures[ItemID(4)] == "cannot decode: bad")
    #expect(store.record(request, .decoded(Thumbnail(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6]))).isEmpty)
    #expect(store.cache.contains(request.key))
}

/// A slow link's stand-in (a smaller source scaled up) stays shown; once the read-ahead has read
/// its file whole into the disk cache it is asked for again, and the sharp picture replaces it.
/// A stand-in again (nothing sharper came) is not asked for once more.
@Test func aStandInIsAskedForAgainOnceItsFileWasReadWhole() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 40)
    let requests = loads(state.initialEffects())!
    var standIn = Thumbnail(width: 1, height: 1, pixels: [0, 200, 0])
    standIn.isStandIn = true
    let sharp = Thumbnail(width: 1, height: 1, pixels: [90, 90, 90])
    for request in requests { _ = state.apply(.decoded(request, .decoded(request.id.rawValue < 2 ? standIn : sharp))) }
    #expect(state.isScreenComplete && state.loadingCount == 0 && state.store.standIns.count == 2)
    // The read-ahead wrote items 0 (a stand-in), 3 (sharp already), and failed 1.
    let again = loads(
        state.apply(
            .readAheadDone([
                ReadAheadOutcome(id: ItemID(0), outcome: .written), ReadAheadOutcome(id: ItemID(3), outcome: .written),
                ReadAheadOutcome(id: ItemID(1), outcome: .failed("bad")),
            ])))
    #expect(again?.map(\.id.rawValue) == [0], "only the stand-in read whole")
    #expect(state.isScreenComplete && state.loadingCount == 0, "the stand-in shown meanwhile")
    let after = loads(state.apply(.decoded(again![0], .decoded(sharp))))
    #expect(after?.isEmpty == true && state.store.upgradedCount == 1 && state.store.standIns.count == 1)
    // Item 1 read whole later, but its decode brings a stand-in again: left as it is.
    let once = loads(state.apply(.readAheadDone([ReadAheadOutcome(id: ItemID(1), outcome: .written)])))!
    #expect(once.map(\.id.rawValue) == [1])
    #expect(loads(state.apply(.decoded(once[0], .decoded(standIn))))?.isEmpty == true && state.store.upgradedCount == 1)
    #expect(state.apply(.readAheadDone([ReadAheadOutcome(id: ItemID(4), outcome: .written)])).isEmpty, "no stand-in: nothing asked")
}
