import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// A request with the file's bytes read ahead travels to a decoder whole; a malformed one is refused.
@Test func aRequestWithItsBytesRoundTrips() {
    let request = DecodeMessage.Request.decodeRead(someFile, PixelSize(width: 320, height: 240), contents: [0xFF, 0xD8, 1, 2, 3])
    let body = Array(DecodeMessage.encode(request).dropFirst(4))
    #expect(DecodeMessage.request(from: body) == request)
    #expect(DecodeMessage.request(from: Array(body.prefix(30))) == nil, "cut inside its bytes")
    var empty = body
    empty[26..<30] = [0, 0, 0, 0]  // no bytes: not this kind of request
    #expect(DecodeMessage.request(from: empty) == nil)
}

/// A decoder given the bytes decodes them, not the file (here gone): the bytes read ahead are
/// the ones decoded; without them the missing file is the reason.
@Test func aDecoderDecodesTheBytesReadAhead() throws {
    let worker = try WorkerOverPipes()
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: worker.file.path.description)))
    let box = PixelSize(width: 40, height: 30)
    guard case .decoded(.decoded(let fromFile))? = worker.ask(.decode(worker.file, box))?.body else { Issue.record("the file was not decoded"); return }
    unlink(worker.file.path.description)
    guard case .decoded(.decoded(let thumbnail))? = worker.ask(.decodeRead(worker.file, box, contents: bytes))?.body else {
        Issue.record("the bytes were not decoded")
        return
    }
    #expect(thumbnail == fromFile && thumbnail.pixels[2] > 200 && thumbnail.pixels[0] < 40, "the file's blue")
    guard case .decoded(.failed(let failure))? = worker.ask(.decode(worker.file, box))?.body else { Issue.record("a missing file decoded"); return }
    #expect(failure.message.contains("cannot open"), "\(failure.message)")
}

/// The stage reads stills its decoders read whole, not RAWs (only their previews are read) or
/// videos (FFmpeg reads parts); it counts what it read and is idle after.
@Test func theStageReadsWholeStillsOnly() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("a.jpg")
    try TestImages.jpeg(at: path, width: 64, height: 48)
    let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
    let stage = FileReadStage(width: 8, decoders: 2)
    let jpeg = ImageFile(path: ImagePath(path), byteCount: size, modified: 0, format: .jpeg)
    let bytes = stage.read(jpeg)
    #expect(bytes?.count == Int(size))
    stage.release(bytes?.count ?? 0)
    #expect(!stage.isBusy && stage.readSoFar.files == 1 && stage.readSoFar.bytes == Int(size))
    #expect(stage.read(ImageFile(path: ImagePath(path), byteCount: size, modified: 0, format: .cameraRaw)) == nil, "a RAW is its decoder's to read")
    #expect(stage.read(ImageFile(path: ImagePath(path), byteCount: size, modified: 0, format: .quickTime)) == nil, "a video is FFmpeg's to read")
    let huge = ImageFile(path: ImagePath(path), byteCount: Int64(FileReadStage.fileLimit + 1), modified: 0, format: .jpeg)
    #expect(stage.read(huge) == nil, "too large to hold")
    let gone = ImageFile(path: ImagePath(dir.path + "/gone.jpg"), byteCount: 10, modified: 0, format: .jpeg)
    #expect(stage.read(gone) == nil && !stage.isBusy, "a failed read leaves its decoder to say why")
}

/// No more decodes run at once than the stage has decoders, however many threads ask.
@Test func theStageRunsNoMoreDecodesThanItHasDecoders() {
    let stage = FileReadStage(width: 16, decoders: 2), count = RunningCount()
    _ = ParallelReads.map(32, width: 16) { _ in
        stage.withDecoder {
            count.change(1)
            usleep(2000)
            count.change(-1)
        }
    }
    #expect(count.most == 2, "\(count.most) at once")
}

/// While `yielding` says more wanted reads wait, a map keeps only `yieldingWidth` running; it
/// widens again after, and its results are whole and in order.
@Test func aYieldingMapNarrowsWhileAsked() {
    final class Count: @unchecked Sendable {
        let lock = NSLock()
        var running = 0, most = 0, done = 0
        var narrow = true
        func change(_ by: Int) {
            lock.lock()
            running += by
            if narrow { most = max(most, running) }
            if by < 0 { done += 1 }
            if done == 40 { narrow = false }
            lock.unlock()
        }
        var isNarrow: Bool {
            lock.lock()
            defer { lock.unlock() }
            return narrow
        }
    }
    let count = Count()
    let isNarrow: @Sendable () -> Bool = { count.isNarrow }
    let work = { (index: Int) -> Int in
        count.change(1)
        usleep(3000)
        count.change(-1)
        return index
    }
    let results = ParallelReads.map(200, width: 16, yielding: isNarrow, work)
    #expect(results == Array(0..<200))
    #expect(count.most <= ParallelReads.yieldingWidth, "\(count.most) at once while yielding")
}

/// On a link counted slow, a whole read asks, with its first bytes, whether a smaller source in
/// them will do: yes ends the read there (nothing handed on, nothing held, counted as cut); no
/// reads on, whole. On a link not slow it is never asked.
@Test func aReadOnASlowLinkStopsAtItsFirstBytesWhenTheyWillDo() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("big.jpg")
    let size = 1 << 20
    try TestImages.bytes([0xFF, 0xD8, 0xFF] + (3..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }, at: path)
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(size), modified: 0, format: .jpeg)
    for (mode, answer) in [(ReadSpeed.Mode.slow, true), (.slow, false), (.normal, true)] {
        let stage = FileReadStage(width: 8, decoders: 2, speed: ReadSpeed(mode: mode))
        var asked: [Int] = []
        let bytes = stage.read(file) { prefix in
            asked.append(prefix.count)
            #expect(Array(prefix.prefix(3)) == [0xFF, 0xD8, 0xFF])
            return answer
        }
        if let bytes { stage.release(bytes.count) }
        switch (mode, answer) {
        case (.slow, true):
            #expect(bytes == nil && asked.count == 1 && asked[0] <= ThumbnailPipeline.headerBytes && stage.cutShort == 1)
            #expect(stage.readSoFar.files == 0 && !stage.isBusy)
        case (.slow, false):
            #expect(bytes?.count == size && stage.cutShort == 0, "read on, whole")
            #expect(!asked.isEmpty && asked.allSatisfy { $0 <= ThumbnailPipeline.headerBytes }, "asked only with its first bytes: \(asked)")
        default:
            #expect(bytes?.count == size && asked.isEmpty && stage.cutShort == 0, "never asked on a link not slow")
        }
    }
}
