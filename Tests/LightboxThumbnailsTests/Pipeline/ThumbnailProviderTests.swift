import Foundation
import LightboxThumbnails
import Testing

/// A decoder that records what it was asked for and can be held until released.
final class RecordingDecoder: ThumbnailDecoding, @unchecked Sendable {
    private let lock = NSCondition()
    private(set) var asked: [ImagePath] = []
    private var held = true

    func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        lock.lock()
        asked.append(file.path)
        while held { lock.wait() }
        lock.unlock()
        return .decoded(Thumbnail(width: 1, height: 1, pixels: [0, 0, 0]))
    }

    func release() { lock.lock(); held = false; lock.broadcast(); lock.unlock() }
    var askedPaths: [ImagePath] { lock.lock(); defer { lock.unlock() }; return asked }
}

func requests(_ range: Range<Int>) -> [DecodeRequest] {
    range.map {
        DecodeRequest(
            id: ItemID($0), file: ImageFile(path: ImagePath("f\($0)"), byteCount: 0, modified: 0, format: .jpeg),
            box: PixelSize(width: 8, height: 8))
    }
}

func waitUntil(_ condition: () -> Bool) {
    for _ in 0..<500 where !condition() { usleep(2000) }
}

@Test func workIsTakenMostWantedFirstAndDroppedWhenNoLongerWanted() {
    let decoder = RecordingDecoder()
    let provider = ThumbnailProvider(decoder: decoder, workers: 1)
    provider.request(requests(0..<10))
    waitUntil { decoder.askedPaths.count == 1 }
    #expect(decoder.askedPaths == [ImagePath("f0")])  // the first, while the rest wait
    // The viewport jumps: 1...9 are no longer wanted and must never be decoded.
    provider.request(requests(500..<503))
    decoder.release()
    waitUntil { provider.outstandingCount == 0 }
    #expect(decoder.askedPaths == ["f0", "f500", "f501", "f502"].map(ImagePath.init))
    // f0 finished after it left the window: its result is discarded.
    #expect(provider.takeResults().map(\.0.id.rawValue) == [500, 501, 502])
    provider.shutdown()
}

/// A listed file's decode running when the scan reads the file (asked for again by its size and
/// time) goes on for it: not decoded twice, its result handed on.
@Test func aListedFilesDecodeGoesOnWhenTheScanReadsTheFile() {
    let decoder = RecordingDecoder()
    let provider = ThumbnailProvider(decoder: decoder, workers: 1)
    var request = DecodeRequest(id: ItemID(0), file: ImageFile(listed: ImagePath("a.jpg"), format: .jpeg), box: PixelSize(width: 8, height: 8))
    provider.request([request])
    waitUntil { decoder.askedPaths.count == 1 }
    request.file = ImageFile(path: ImagePath("a.jpg"), byteCount: 100, modified: 7, format: .jpeg)
    provider.request([request] + requests(1..<2))
    decoder.release()
    waitUntil { provider.outstandingCount == 0 }
    #expect(decoder.askedPaths == [ImagePath("a.jpg"), ImagePath("f1")], "\(decoder.askedPaths)")
    let results = provider.takeResults()
    #expect(results.map(\.0.file.isListed) == [true, false] && provider.cancellations == (0, 0))
    // The same file for another box is decoded as asked.
    request.box = PixelSize(width: 16, height: 16)
    provider.request([request])
    waitUntil { provider.outstandingCount == 0 }
    #expect(decoder.askedPaths.count == 3)
    provider.shutdown()
}

@Test func resultsArriveOffTheCallingThreadAndWakeTheLoop() {
    let decoder = RecordingDecoder()
    decoder.release()
    let woken = NSCondition()
    nonisolated(unsafe) var wakes = 0
    let provider = ThumbnailProvider(decoder: decoder, workers: 2) {
        woken.lock(); wakes += 1; woken.unlock()
    }
    provider.request(requests(0..<20))
    waitUntil { provider.outstandingCount == 0 }
    waitUntil {
        woken.lock(); defer { woken.unlock() }; return wakes == 20
    }
    #expect(Set(provider.takeResults().map(\.0.id.rawValue)) == Set(0..<20))
    provider.shutdown()
}

@Test func tilesAheadWaitUntilNoTileOnScreenIsBeingDecoded() {
    let decoder = RecordingDecoder()
    let provider = ThumbnailProvider(decoder: decoder, workers: 2)
    var wanted = requests(0..<3)
    wanted[1].isAhead = true
    wanted[2].isAhead = true
    provider.request(wanted)
    waitUntil { decoder.askedPaths.count == 1 }
    usleep(50_000)
    #expect(decoder.askedPaths == [ImagePath("f0")], "the second worker waits rather than start a tile ahead: \(decoder.askedPaths)")
    decoder.release()
    waitUntil { provider.outstandingCount == 0 }
    #expect(Set(decoder.askedPaths) == [ImagePath("f0"), ImagePath("f1"), ImagePath("f2")])
    provider.shutdown()
}

/// A decoder whose every thumbnail is half covered.
struct TranslucentDecoder: ThumbnailDecoding {
    func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        var thumbnail = Thumbnail(width: 2, height: 1, pixels: [200, 10, 10, 50, 50, 0])
        thumbnail.alpha = [255, 128]
        return .decoded(thumbnail)
    }
}

@Test func transparentPartsAreLaidOnTheProvidersBackground() {
    for (background, expected) in [(UInt32(0xFFFFFF), [UInt8](arrayLiteral: 200, 10, 10, 177, 177, 127)), (0x000000, [200, 10, 10, 50, 50, 0])] {
        let provider = ThumbnailProvider(decoder: TranslucentDecoder(), workers: 1, background: background)
        defer { provider.shutdown() }
        provider.request(requests(0..<1))
        var results: [(DecodeRequest, DecodeResult)] = []
        waitUntil {
            results += provider.takeResults(); return !results.isEmpty
        }
        guard case .decoded(let thumbnail)? = results.first?.1 else { Issue.record("no result"); continue }
        #expect(thumbnail.alpha == nil, "opaque once laid on the ground")
        #expect(thumbnail.pixels == expected, "on \(String(background, radix: 16))")
    }
}

/// Fits the picture it is given to the box it is asked for: a wide 4x2 at most.
struct WideDecoder: ThumbnailDecoding {
    func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        // Red on the left half, blue on the right; asked for a tall box it still comes wide, fitted.
        let width = min(4, box.width), height = max(1, width / 2)
        var pixels: [UInt8] = []
        for _ in 0..<height { for x in 0..<width { pixels += x < width / 2 ? [255, 0, 0] : [0, 0, 255] } }
        return .decoded(Thumbnail(width: width, height: height, pixels: pixels))
    }
}

/// A view turned a quarter: decoded to fit the box turned, then turned, so it fills the box;
/// its key says so, and turned back it is another key.
@Test func aTurnedViewIsDecodedForTheTurnedBoxAndTurned() {
    let provider = ThumbnailProvider(decoder: WideDecoder(), workers: 1)
    defer { provider.shutdown() }
    let file = ImageFile(path: ImagePath("wide"), byteCount: 0, modified: 0, format: .jpeg)
    let request = DecodeRequest(id: ItemID(0), file: file, box: PixelSize(width: 2, height: 4), turns: 1)
    #expect(request.key.turns == 1 && request.key != DecodeRequest(id: ItemID(0), file: file, box: PixelSize(width: 2, height: 4)).key)
    provider.request([request])
    var results: [(DecodeRequest, DecodeResult)] = []
    waitUntil {
        results += provider.takeResults(); return !results.isEmpty
    }
    guard case .decoded(let thumbnail)? = results.first?.1 else {
        Issue.record("no result")
        return
    }
    #expect(thumbnail.width == 2 && thumbnail.height == 4, "decoded 4x2 for the turned box, then turned to fill 2x4")
    #expect(Array(thumbnail.pixels[0..<3]) == [255, 0, 0] && Array(thumbnail.pixels[(7 * 3)..<(8 * 3)]) == [0, 0, 255], "red on top once turned clockwise")
}
