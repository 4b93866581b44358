import LightboxApp
import LightboxLayout
import LightboxTerminal
import LightboxThumbnails
import Testing

private func writes(_ effects: [Effect]) -> [DecisionWrite] {
    effects.flatMap { effect -> [DecisionWrite] in if case .saveDecisions(let writes) = effect { return writes } else { return [] } }
}

@Test func aDecisionIsForTheMarkedPhotosOrElseTheCursorsAndGoesToTheirSidecars() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    var effects = state.apply(.rate(3))
    #expect(state.decisions[ItemID(0)] == Decision(rating: 3) && state.viewport.cursor == 0, "the grid does not move on")
    #expect(writes(effects) == [DecisionWrite(id: ItemID(0), paths: [ImagePath("photos/s0/IMG_1.jpg")], decision: Decision(rating: 3), fields: .rating)])
    state.apply([.move(.right), .toggleMark, .move(.right), .toggleMark])
    effects = state.apply(.toggleReject)
    #expect(state.decisions[ItemID(1)].isRejected && state.decisions[ItemID(2)].isRejected && state.message == "rejected on 2 photos")
    #expect(writes(effects).count == 2)
    // Again on them all: the reject is taken back. The same again changes nothing and writes nothing.
    _ = state.apply(.toggleReject)
    #expect(!state.decisions[ItemID(1)].isRejected)
    #expect(writes(state.apply(.rate(0))).isEmpty)
    // A label goes on all, then off all.
    _ = state.apply(.toggleLabel(.red))
    #expect(state.decisions[ItemID(1)].labels == [.red] && state.decisions[ItemID(2)].labels == [.red])
    _ = state.apply(.toggleLabel(.red))
    #expect(state.decisions[ItemID(2)].labels.isEmpty)
    #expect(state.decisions.counts(starsAtLeast: 3) == (rated: 1, rejected: 0))
}

@Test func undoTakesBackTheLastDecisionsManyDeepAndWritesWhatWasThere() {
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    state.apply([.rate(2), .rate(5), .toggleLabel(.green)])
    var effects = state.apply(.undo)
    #expect(state.decisions[ItemID(0)] == Decision(rating: 5) && state.message == "undone: 1 photo")
    #expect(writes(effects) == [DecisionWrite(id: ItemID(0), paths: [ImagePath("photos/s0/IMG_1.jpg")], decision: Decision(rating: 5), fields: .labels)])
    state.apply([.undo, .undo])
    #expect(state.decisions[ItemID(0)] == .none)
    effects = state.apply(.undo)
    #expect(effects.isEmpty && state.message == "nothing to undo")
}

@Test func inThePreviewDigitsRateAndTheNextPhotoComes() {
    var router = InputRouter()
    var state = GalleryState(library: library([4]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    _ = state.apply(.openPreview)
    let four = router.command(for: .key(.character("4")), in: state, at: 0)
    #expect(four == .rate(4))
    _ = state.apply(four!)
    #expect(state.decisions[ItemID(0)].stars == 4 && state.viewport.cursor == 1 && state.preview != nil, "on to the next photo")
    #expect(router.command(for: .key(.character("r")), in: state, at: 0) == .toggleReject)
    #expect(router.command(for: .key(.function(3)), in: state, at: 0) == .toggleLabel(.green))
    #expect(router.command(for: .key(.character("7")), in: state, at: 0) == .toggleLabel(.yellow))
}

@Test func theCullKeysMakeDigitsRateInTheGridAndCountsComeBackWithout() {
    var router = InputRouter()
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    #expect(router.command(for: .key(.character("3")), in: state, at: 0) == .countDigit(3))
    _ = state.apply(.toggleCullKeys)
    #expect(router.command(for: .key(.character("3")), in: state, at: 0) == .rate(3))
    #expect(router.command(for: .key(.character("9")), in: state, at: 0) == .toggleLabel(.blue))
    #expect(router.command(for: .key(.character("j")), in: state, at: 0) == .move(.down), "other keys keep their meaning")
    _ = state.apply(.rate(1))
    #expect(state.viewport.cursor == 1, "with the cull keys, a decision on the cursor's photo moves on")
    _ = state.apply(.toggleCullKeys)
    #expect(router.command(for: .key(.character("3")), in: state, at: 0) == .countDigit(3))
    // `--cull` starts with them on.
    let culling = GalleryState(library: library([2]), spec: threeColumns, width: 40, height: 30, settings: settings { $0.cullKeys = true })
    #expect(router.command(for: .key(.character("5")), in: culling, at: 0) == .rate(5))
}

@Test func whatSidecarsSayIsShownAndAPairsDecisionGoesToEveryMember() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 30, isScanning: true)
    let raw = ImageFile(path: ImagePath("f/IMG_1.CR2"), byteCount: 1, modified: 0, format: .cameraRaw)
    var jpeg = ImageFile(path: ImagePath("f/IMG_1.JPG"), byteCount: 1, modified: 0, format: .jpeg)
    jpeg.companions = [raw]
    let effects = state.apply(.scanned([Scanner.Batch(folder: ImagePath("f"), files: [jpeg])], isFinished: true))
    guard case .readDecisions(let reads) = effects.last else { return #expect(Bool(false), "no reads") }
    #expect(
        reads.map(\.id) == [ItemID(0)] && reads.first?.files.map(\.path) == [ImagePath("f/IMG_1.JPG"), ImagePath("f/IMG_1.CR2")],
        "one item: the picture, then the RAW")
    _ = state.apply(.decisionsRead([Decisions.ItemChange(id: ItemID(0), decision: Decision(rating: 2, labels: [.purple]))]))
    #expect(state.decisions[ItemID(0)] == Decision(rating: 2, labels: [.purple]))
    #expect(state.apply(.undo).isEmpty, "what was read is no change of the user's")
    #expect(writes(state.apply(.rate(4))).first?.paths == [ImagePath("f/IMG_1.JPG"), ImagePath("f/IMG_1.CR2")])
}

/// What the index's copies say of items comes with its library and shows at once (kept aside
/// too); those items' reads are checks only, the one it had no copy for is recalled.
@Test func decisionsThatComeWithTheIndexShowAtOnce() {
    var state = GalleryState(library: Library(), spec: threeColumns, width: 40, height: 30, isScanning: true)
    let files = (1...3).map { ImageFile(path: ImagePath("f/IMG_\($0).JPG"), byteCount: 1, modified: 0, format: .jpeg) }
    var batch = Scanner.Batch(folder: ImagePath("f"), files: files, indexed: [nil, nil, nil])
    let kept = LibraryIndex.KnownDecision(stamp: 1, decision: Decision(rating: 3, labels: [.red]), isKept: true)
    batch.indexedDecisions = [
        Scanner.IndexedDecision([kept]), nil, Scanner.IndexedDecision([LibraryIndex.KnownDecision(stamp: 1, decision: nil, isKept: false)]),
    ]
    let effects = state.apply(.scanned([batch], isFinished: false))
    #expect(state.decisions[ItemID(0)] == Decision(rating: 3, labels: [.red]) && state.decisions[ItemID(2)] == .none)
    #expect(state.decisions.keptAside == [ItemID(0)])
    guard case .readDecisions(let reads) = effects.last else { return #expect(Bool(false), "no reads") }
    #expect(reads.map(\.isRecalled) == [true, false, true])
    #expect(state.apply(.undo).isEmpty, "what the index said is no change of the user's")
}

/// A decision kept in the state folder (not beside the photo) is said once with its reason,
/// counted until it goes beside the photo, and found kept when read again.
@Test func decisionsKeptAsideAreSaidAndCounted() {
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    state.apply([.rate(3), .move(.right), .rate(2)])
    _ = state.apply(.decisionsStored([Decisions.Storage(id: ItemID(0), isKept: true, reason: "cannot write beside the photo: Read-only file system")]))
    #expect(state.decisions.keptAside == [ItemID(0)])
    #expect(state.message?.hasPrefix("not beside the photo (cannot write beside the photo: Read-only file system)") == true)
    _ = state.apply(.move(.left))
    _ = state.apply(.decisionsStored([Decisions.Storage(id: ItemID(1), isKept: true, reason: "cannot write beside the photo: Read-only file system")]))
    #expect(state.decisions.keptAside.count == 2 && state.message == nil, "a reason is said once")
    _ = state.apply(.decisionsStored([Decisions.Storage(id: ItemID(0), isKept: false)]))
    #expect(state.decisions.keptAside == [ItemID(1)], "written beside the photo at last")
    _ = state.apply(.decisionsStored([Decisions.Storage(id: ItemID(4), isKept: true)]))
    #expect(state.decisions.keptAside == [ItemID(1), ItemID(4)] && state.message == nil, "read from the state folder: counted, nothing to say")
}

/// `--no-advance` (`advance = no`): a decision in the preview or with the cull keys stays on its photo.
@Test func withoutAdvanceADecisionStaysOnItsPhoto() {
    var settings = GalleryState.Settings()
    settings.advances = false
    settings.cullKeys = true
    var state = GalleryState(library: library([6]), spec: threeColumns, width: 40, height: 30, settings: settings)
    _ = state.initialEffects()
    _ = state.apply(.rate(4))
    #expect(state.viewport.cursor == 0 && state.decisions[ItemID(0)].stars == 4)
    state.apply([.openPreview, .rate(2)])
    #expect(state.viewport.cursor == 0 && state.decisions[ItemID(0)].stars == 2)
    #expect(Configuration(parsing: "advance = no").advances == false)
}

/// A sidecar read that was in hand when the user decided the photo is older than the decision:
/// it does not take it back.
@Test func aLateReadNeverUndoesWhatTheUserDecided() {
    var state = GalleryState(library: library([3]), spec: threeColumns, width: 40, height: 30)
    _ = state.initialEffects()
    _ = state.apply(.rate(4))
    _ = state.apply(
        .decisionsRead([Decisions.ItemChange(id: ItemID(0), decision: Decision(rating: 1)), Decisions.ItemChange(id: ItemID(1), decision: Decision(rating: 2))])
    )
    #expect(state.decisions[ItemID(0)].stars == 4 && state.decisions[ItemID(1)].stars == 2)
}
