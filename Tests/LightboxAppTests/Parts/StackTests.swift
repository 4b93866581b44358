import LightboxLayout
import LightboxThumbnails
import Testing

@testable import LightboxApp

/// What a camera wrote of frame `id`: its camera, and when (seconds past 10:00:00, and the
/// fraction of the second when it says it).
private func frame(_ id: Int, camera: String = "X100V", at seconds: Int, subsecond: String? = nil) -> MetadataResult {
    var metadata = ImageMetadata()
    metadata.make = "FUJIFILM"
    metadata.model = camera
    metadata.dateTaken = String(format: "2024:05:01 10:%02d:%02d", seconds / 60, seconds % 60)
    metadata.subsecond = subsecond.flatMap { Double("0." + $0) }
    return MetadataResult(id: ItemID(id), metadata: metadata, size: PixelSize(width: 6000, height: 4000))
}

/// A library of fake files with bursts stacked (`--stacks burst`).
private func bursts(_ counts: [Int]) -> Library {
    var stacked = library(counts)
    stacked.arrange(by: Arrangement(stacks: .burst))
    return stacked
}

private func stacks(_ state: GalleryState) -> [[Int]] {
    state.library.stacks.values.map { $0.map(\.rawValue) }.sorted { $0[0] < $1[0] }
}

/// Frames of one camera a second apart or less are one stack: to the millisecond with
/// sub-seconds, else by whole seconds (the same or the next); a longer gap starts another.
@Test func burstsAreGroupedByTimeWithAndWithoutSubseconds() {
    var state = GalleryState(library: bursts([7]), spec: threeColumns, width: 80, height: 24)
    _ = state.apply(
        .metadataRead([
            frame(0, at: 0, subsecond: "100"), frame(1, at: 0, subsecond: "400"), frame(2, at: 1, subsecond: "350"),
            frame(3, at: 2, subsecond: "900"),  // 1.55 s after: not the same burst
            frame(4, at: 10), frame(5, at: 11), frame(6, at: 13),  // whole seconds: 10 and 11 are one, 13 alone
        ]))
    #expect(stacks(state) == [[0, 1, 2], [4, 5]])
    #expect(state.library.count == 4 && state.library.position(of: ItemID(1)) == -1 && state.library.position(of: ItemID(3)) == 1)
    #expect(state.library.stackOf[ItemID(2)] == ItemID(0))
}

/// Two cameras shooting at once, their frames interleaved by name: no frame is next to one of its
/// own camera's, so none is stacked; by camera they would be (sorted so, they are next to each other).
@Test func twoCamerasInterleavedAreNotOneBurst() {
    var state = GalleryState(library: bursts([4]), spec: threeColumns, width: 80, height: 24)
    _ = state.apply(
        .metadataRead([
            frame(0, camera: "A", at: 0, subsecond: "1"), frame(1, camera: "B", at: 0, subsecond: "2"),
            frame(2, camera: "A", at: 0, subsecond: "3"), frame(3, camera: "B", at: 0, subsecond: "4"),
        ]))
    #expect(state.library.stacks.isEmpty && state.library.count == 4)
}

/// A burst across a folder boundary (a camera starts 101CANON mid-burst): each folder's
/// section holds its own stack; in one section of everything, it is one.
@Test func aBurstAcrossAFolderBoundary() {
    var state = GalleryState(library: bursts([2, 2]), spec: threeColumns, width: 80, height: 24)
    _ = state.apply(.metadataRead((0..<4).map { frame($0, at: 0, subsecond: "\($0 + 1)") }))
    #expect(stacks(state) == [[0, 1], [2, 3]])
    state.rearrange { $0.arrange(by: Arrangement(sections: .none, stacks: .burst)) }
    #expect(stacks(state) == [[0, 1, 2, 3]] && state.library.count == 1)
    state.rearrange { $0.arrange(by: Arrangement(sections: .none, stacks: .off)) }
    #expect(state.library.stacks.isEmpty && state.library.count == 4, "--stacks off")
}

/// Android names a burst's frames (`…_BURST001.jpg`, `…_BURST002_COVER.jpg`): one stack from
/// the names alone, the cover frame shown.
@Test func androidBurstNamesAreOneStackCoverFirst() {
    let names = ["IMG_20240501_100000_BURST001.jpg", "IMG_20240501_100000_BURST002_COVER.jpg", "IMG_20240501_100000_BURST003.jpg", "IMG_2.jpg"]
    let files = names.map { ImageFile(path: ImagePath("p/\($0)"), byteCount: 1, modified: 0, format: .jpeg) }
    let state = GalleryState(
        library: Library(folders: [ImageFolder(path: ImagePath("p"), files: files)], arrangement: Arrangement(stacks: .burst)), spec: threeColumns, width: 80,
        height: 24)
    #expect(stacks(state) == [[1, 0, 2]] && state.library.count == 2 && state.library.id(at: 0) == ItemID(1))
    #expect(Library.burstName(Array("00001IMG_00001_BURST20180101120000123.jpg".utf8)[...]) == Array("BURST20180101120000123".utf8))
    #expect(Library.burstName(Array("IMG_2.jpg".utf8)[...]) == nil && Library.burstName(Array("BURSTY.jpg".utf8)[...]) == nil)
}

/// `b` opens a stack in place (its frames after it) and closes it; marking a closed stack marks
/// every frame, marking inside an open one marks one; accept prints them frame by frame; `C`
/// compares the cursor's burst.
@Test func aStackOpensInPlaceMarksAsOneAndCompares() {
    var state = GalleryState(library: bursts([6]), spec: threeColumns, width: 80, height: 24)
    _ = state.apply(.metadataRead([frame(0, at: 0), frame(1, at: 30), frame(2, at: 30), frame(3, at: 30), frame(4, at: 31), frame(5, at: 50)]))
    #expect(stacks(state) == [[1, 2, 3, 4]] && state.library.count == 3)
    state.apply([.move(.right), .toggleMark])
    #expect(state.markedCount == 4 && state.selection.hidden == [ItemID(2), ItemID(3), ItemID(4)], "the stack's every frame")
    let accepted = state.apply(.accept)
    #expect(accepted == [.accept((1...4).map { state.library.file(ItemID($0)).path })])
    _ = state.apply(.toggleMark)
    #expect(state.markedCount == 0, "unmarked: every frame")
    _ = state.apply(.toggleStack)
    #expect(state.library.count == 6 && state.viewport.cursor == 1 && state.message == "stack of 4 opened: b closes it")
    state.apply([.move(.right), .move(.right), .toggleMark])
    #expect(state.markedCount == 1 && state.selection.marks.contains(3), "one frame inside")
    _ = state.apply(.toggleStack)
    #expect(state.library.count == 3 && state.viewport.cursor == 1 && state.markedCount == 1 && state.selection.hidden == [ItemID(3)])
    _ = state.apply(.clearMarks)
    _ = state.apply(.compare)
    #expect(state.compare?.shown == (1...4).map(ItemID.init) && state.library.count == 6, "opened, its frames compared")
    #expect(state.message?.hasPrefix("comparing the burst's 4 frames") == true)
}

/// The badge: a closed stack's count, an open one's frames numbered.
@Test func stackBadgesCountAndNumberTheFrames() {
    var state = GalleryState(library: bursts([3]), spec: threeColumns, width: 80, height: 24)
    _ = state.apply(.metadataRead([frame(0, at: 0), frame(1, at: 0), frame(2, at: 1)]))
    #expect(state.library.count == 1 && state.library.stacks[ItemID(0)]?.count == 3)
    _ = state.apply(.toggleStack)
    #expect(state.library.count == 3 && state.library.isOpen(ItemID(0)))
}

/// A photo looked at full-screen, or compared, whose burst is found meanwhile stays in view: its
/// stack opens; the preview stays on it.
@Test func aPhotoLookedAtStaysInViewWhenItsBurstIsFound() {
    var state = GalleryState(library: bursts([4]), spec: threeColumns, width: 80, height: 24)
    state.apply([.move(.right), .move(.right), .openPreview])
    _ = state.apply(.metadataRead([frame(0, at: 0), frame(1, at: 0), frame(2, at: 0), frame(3, at: 30)]))
    #expect(state.library.stacks[ItemID(0)]?.count == 3 && state.library.isOpen(ItemID(0)))
    #expect(state.preview != nil && state.library.id(at: state.viewport.cursor) == ItemID(2))
    var comparing = GalleryState(library: bursts([4]), spec: threeColumns, width: 80, height: 24)
    comparing.apply([.move(.right), .compare])
    _ = comparing.apply(.metadataRead([frame(0, at: 0), frame(1, at: 0), frame(2, at: 0)]))
    #expect(comparing.compare?.shown.allSatisfy { comparing.library.position(of: $0) >= 0 } == true)
}

/// Frames the camera marked as one burst (Apple's BurstUUID) are one stack however far apart
/// their times; another burst id starts another.
@Test func framesOfOneCameraBurstIDAreOneStack() {
    var state = GalleryState(library: bursts([4]), spec: threeColumns, width: 80, height: 24)
    func apple(_ id: Int, at seconds: Int, burst: String?) -> MetadataResult {
        var result = frame(id, camera: "iPhone 15", at: seconds)
        result.metadata?.make = "Apple"
        result.metadata?.burstID = burst
        return result
    }
    _ = state.apply(
        .metadataRead([
            apple(0, at: 0, burst: "A1B2"), apple(1, at: 5, burst: "A1B2"), apple(2, at: 9, burst: "A1B2"),  // seconds apart: one burst all the same
            apple(3, at: 10, burst: "C3D4"),
        ]))
    #expect(stacks(state) == [[0, 1, 2]])
}
