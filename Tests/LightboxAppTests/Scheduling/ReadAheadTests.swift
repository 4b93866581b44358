import LightboxApp
import LightboxLayout
import LightboxThumbnails
import Testing

/// The read-ahead's requests in an effect list, as library positions.
func readAheadPositions(_ effects: [Effect], in state: GalleryState) -> [Int] {
    effects.flatMap { effect -> [Int] in
        guard case .readAhead(let requests) = effect else { return [] }
        return requests.map { state.library.position(of: $0.id) }
    }
}

@Test func theReadAheadGoesOutwardFromTheCursorNearestFirst() {
    var state = GalleryState(library: library([100]), spec: threeColumns, width: 40, height: 20)
    _ = state.apply(Array(repeating: Command.move(.right), count: 50))
    #expect(state.viewport.cursor == 50)
    let first = readAheadPositions(state.apply(.idle), in: state)
    #expect(first == [50, 51, 49, 52, 48, 53, 47, 54], "\(first)")
    // Asked again before any is done: the next ones out, none twice.
    let second = readAheadPositions(state.apply(.idle), in: state)
    #expect(second == [46, 55, 45, 56, 44, 57, 43, 58], "\(second)")
    // Done, they are counted; dropped ones (a key came) are given again.
    _ = state.apply(.readAheadDone(first.map { ReadAheadOutcome(id: state.library.id(at: $0), outcome: .written) }))
    _ = state.apply(.readAheadDropped(second.map { state.library.id(at: $0) }))
    #expect(state.readAhead.written == 8 && state.readAheadProgress?.done == 8 && state.readAheadProgress?.total == 100)
    let third = readAheadPositions(state.apply(.idle), in: state)
    #expect(third == second, "the dropped ones again, nearest first: \(third)")
}

@Test func theReadAheadKeepsToItsScreensAndStopsWhenAllIsDone() {
    var state = GalleryState(
        library: library([60]), spec: threeColumns, width: 40, height: 20,
        settings: settings { $0.readAhead = .screens(1) })
    let screen = state.visibleItems.count
    var given: [Int] = []
    while true {
        let batch = readAheadPositions(state.apply(.idle), in: state)
        if batch.isEmpty { break }
        given += batch
        _ = state.apply(.readAheadDone(batch.map { ReadAheadOutcome(id: state.library.id(at: $0), outcome: .alreadyCached) }))
    }
    #expect(Set(given) == Set(0...screen), "a screen either side of the cursor at 0: \(given.sorted())")
    #expect(state.readAhead.isExhausted && state.readAhead.alreadyCached == given.count)
    // Moving on, the walk begins again where the cursor is, passing over what is done.
    _ = state.apply(.move(.last))
    let more = readAheadPositions(state.apply(.idle), in: state)
    #expect(more.first == 59 && !state.readAhead.isExhausted)
    // Off: nothing, ever.
    var off = GalleryState(library: library([10]), spec: threeColumns, width: 40, height: 20, settings: settings { $0.readAhead = .off })
    #expect(off.apply(.idle).isEmpty && off.readAheadProgress == nil)
    #expect(ReadAhead.Extent(parsing: "3") == .screens(3) && ReadAhead.Extent(parsing: "all") == .all && ReadAhead.Extent(parsing: "0") == nil)
}

@Test func aCacheThatTakesNothingIsSaidOnceAndTheReadAheadStops() {
    var state = GalleryState(library: library([100]), spec: threeColumns, width: 40, height: 20)
    let first = readAheadPositions(state.apply(.idle), in: state)
    let reason = "the thumbnail cache cannot be written: No space left on device"
    _ = state.apply(.readAheadDone(first.map { ReadAheadOutcome(id: state.library.id(at: $0), outcome: .cacheUnwritable(reason)) }))
    #expect(state.message == reason + "; reading ahead stopped")
    #expect(state.readAhead.isExhausted && state.apply(.idle).isEmpty, "nothing more is decoded for nothing")
    #expect(state.readAheadProgress == nil, "no progress shown for a read-ahead that stopped")
    // Said once: the outcomes still on their way do not say it again.
    _ = state.apply(.move(.right))
    #expect(state.message == nil)
    _ = state.apply(.readAheadDone([ReadAheadOutcome(id: state.library.id(at: 50), outcome: .cacheUnwritable(reason))]))
    #expect(state.message == nil && state.readAhead.cacheProblem == reason)
}
