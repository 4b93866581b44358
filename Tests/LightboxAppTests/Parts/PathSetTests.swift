import LightboxApp
import LightboxThumbnails
import Testing

@Test func aPathSetFindsEachRecordOnceAndKeepsTheRestInOrder() {
    var set = PathSet(records: Array("a/1.jpg\n\nb/2.jpg\na/1.jpg\nc/3.jpg".utf8), separator: 10)
    #expect(set.count == 3)  // the empty record and the repeat count once
    do { let removed = set.remove(ImagePath("b/2.jpg")); #expect(removed) }
    do { let removed = set.remove(ImagePath("b/2.jpg")); #expect(!removed) }
    do { let removed = set.remove(ImagePath("a/1")); #expect(!removed) }
    do { let removed = set.remove(ImagePath("zzz")); #expect(!removed) }
    #expect(set.remaining == [ImagePath("a/1.jpg"), ImagePath("c/3.jpg")])
    #expect(set.count == 2)
}

@Test func aPathSetTakesNulRecordsWithNewlinesAndOddBytes() {
    var set = PathSet(records: [0x61, 0x0A, 0x62, 0, 0xFF, 0xFE, 0] + Array("\0\0c".utf8), separator: 0)
    #expect(set.count == 3)
    do { let removed = set.remove(ImagePath(bytes: [0xFF, 0xFE])); #expect(removed) }
    do { let removed = set.remove(ImagePath(bytes: [0x61, 0x0A, 0x62])); #expect(removed) }
    #expect(set.remaining == [ImagePath("c")])
}

@Test func aPathSetOfManyRecordsFindsEveryOne() {
    let names = (0..<50_000).map { "photos/\($0 * 7919 % 100_003).jpg" }
    var set = PathSet(records: Array(names.joined(separator: "\n").utf8), separator: 10)
    #expect(set.count == names.count)
    for name in names.shuffled() { let removed = set.remove(ImagePath(name)); #expect(removed) }
    #expect(set.isEmpty && set.remaining.isEmpty)
}

@Test func pendingMarksBeyondTheLimitStayPending() {
    var state = GalleryState(
        library: Library(arrangement: Arrangement()), spec: threeColumns, width: 40, height: 30, isScanning: true,
        settings: settings {
            $0.markLimit = 1
            $0.pendingMarks = PathSet(records: Array("photos/s0/IMG_1.jpg\nphotos/s0/IMG_2.jpg".utf8), separator: 10)
        })
    let files = (1...2).map { ImageFile(path: ImagePath("photos/s0/IMG_\($0).jpg"), byteCount: 1, modified: 0, format: .jpeg) }
    _ = state.apply(.scanned([Scanner.Batch(folder: ImagePath("photos/s0"), files: files, problems: [])], isFinished: true))
    #expect(state.markedCount == 1)
    #expect(state.selection.pending.remaining == [ImagePath("photos/s0/IMG_2.jpg")])
}
