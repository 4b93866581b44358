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

/// The bytes a stage's read handed on, with the file as opened; nil when it did not read it.
private func readBytes(_ outcome: FileReadStage.Outcome) -> (bytes: [UInt8], file: ImageFile)? {
    guard case .read(let bytes, let file) = outcome else { return nil }
    return (bytes, file)
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
    let read = readBytes(stage.read(jpeg))
    #expect(read?.bytes.count == Int(size) && read?.file.byteCount == size && read?.file.format == .jpeg)
    #expect(read?.file.modified == modifiedTime(path), "the file as opened: its time as it is")
    stage.release(read?.bytes.count ?? 0)
    #expect(!stage.isBusy && stage.readSoFar.files == 1 && stage.readSoFar.bytes == Int(size))
    for format in [ImageFormat.cameraRaw, .quickTime] {
        guard case .left(nil) = stage.read(ImageFile(path: ImagePath(path), byteCount: size, modified: 0, format: format)) else {
            Issue.record("\(format) is its decoder's to read")
            continue
        }
    }
    let huge = ImageFile(path: ImagePath(path), byteCount: Int64(FileReadStage.fileLimit + 1), modified: 0, format: .jpeg)
    #expect(readBytes(stage.read(huge)) == nil, "too large to hold")
    let gone = ImageFile(path: ImagePath(dir.path + "/gone.jpg"), byteCount: 10, modified: 0, format: .jpeg)
    guard case .left(nil) = stage.read(gone) else { Issue.record("a failed read leaves its decoder to say why"); return }
    #expect(!stage.isBusy && stage.readSoFar.files == 1)
}

/// The file's modification time in nanoseconds, as the scan has it.
private func modifiedTime(_ path: String) -> Int64 {
    var info = stat()
    stat(path, &info)
    return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
}

/// A file only listed (its size and time unknown, its kind guessed from its name) is read as it
/// is opened, its kind as its first bytes say: a PNG named .jpg is read as a PNG; a file named
/// like an image that is none is answered so, not read whole; a listed file's disk cache entry,
/// found from the file as opened, answers before any of it is read.
@Test func theStageTellsAListedFileByItsBytes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let png = try dir.file("a.jpg"), text = try dir.file("b.jpg")
    try TestImages.png(at: png, width: 30, height: 20)
    try TestImages.bytes(Array("not a photo at all\n".utf8), at: text)
    let stage = FileReadStage(width: 8, decoders: 2)
    var opened: [ImageFile] = []
    let read = readBytes(
        stage.read(
            ImageFile(listed: ImagePath(png), format: .jpeg),
            opened: {
                opened.append($0); return nil
            }))
    #expect(read?.file.format == .png && read?.file.byteCount == Int64(read?.bytes.count ?? -1) && read?.file.modified == modifiedTime(png))
    #expect(opened.count == 1 && opened[0].byteCount == read?.file.byteCount && opened[0].modified == modifiedTime(png))
    stage.release(read?.bytes.count ?? 0)
    guard case .answered(.failed(let failure)) = stage.read(ImageFile(listed: ImagePath(text), format: .jpeg)) else {
        Issue.record("a text named .jpg read as an image")
        return
    }
    #expect(failure.message.contains("not an image") && failure.message.contains("b.jpg"), "\(failure.message)")
    let cached = DecodeResult.decoded(Thumbnail(width: 1, height: 1, pixels: [1, 2, 3]))
    guard case .answered(cached) = stage.read(ImageFile(listed: ImagePath(png), format: .jpeg), opened: { _ in cached }) else {
        Issue.record("the disk cache's entry did not answer")
        return
    }
    #expect(stage.readSoFar.files == 1 && !stage.isBusy)
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

/// A whole read asks, with its first bytes (its header, at most `ThumbnailPipeline.headerBytes`),
/// whether a picture in them will do (an EXIF thumbnail): yes ends the read there (nothing
/// handed on, nothing held, counted); no reads on, whole.
@Test func aReadStopsAtItsFirstBytesWhenTheyWillDo() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("big.jpg")
    let size = 1 << 20
    try TestImages.bytes([0xFF, 0xD8, 0xFF] + (3..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }, at: path)
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(size), modified: 0, format: .jpeg)
    let small = DecodeResult.decoded(Thumbnail(width: 1, height: 1, pixels: [9, 9, 9]))
    for answers in [true, false] {
        let stage = FileReadStage(width: 8, decoders: 2, speed: ReadSpeed(mode: .normal))
        var asked: [Int] = []
        let outcome = stage.read(
            file,
            firstBytes: { _, prefix in
                asked.append(prefix.count)
                #expect(Array(prefix.prefix(3)) == [0xFF, 0xD8, 0xFF])
                return answers ? small : nil
            })
        #expect(asked.count == 1 && asked[0] <= ThumbnailPipeline.headerBytes, "asked once, with its first bytes: \(asked)")
        if answers {
            guard case .answered(small) = outcome else { Issue.record("read on"); continue }
            #expect(stage.answeredEarly == 1 && stage.readSoFar.files == 0 && !stage.isBusy)
        } else {
            let read = readBytes(outcome)
            let whole = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(read?.bytes.count == size && read?.bytes == whole, "read on, whole")
            #expect(stage.answeredEarly == 0)
            stage.release(read?.bytes.count ?? 0)
        }
    }
}

/// A listed file's picture is made of the file as opened, and says so (`Thumbnail.readFile`):
/// read by the stage on a network mount, looked at first without one. One named like a photo
/// that is none gets the reason, and so does a FIFO so named.
@Test func aListedFilesPictureSaysWhichFileItWasMadeOf() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("a.jpg"), text = try dir.file("b.jpg")
    try TestImages.jpeg(at: photo, width: 64, height: 48)
    try TestImages.bytes(Array("not a photo\n".utf8), at: text)
    let pipe = try dir.file("c.jpg")
    #expect(mkfifo(pipe, 0o600) == 0)
    let size = Int64(try FileManager.default.attributesOfItem(atPath: photo)[.size] as! Int)
    let box = PixelSize(width: 32, height: 32)
    for stage in [FileReadStage(width: 4, decoders: 1), nil] {
        let decoder = ThreadedPipeline(ThumbnailPipeline(codecs: nil, diskCache: nil), stage: stage, speed: nil)
        guard case .decoded(let thumbnail) = decoder.decode(ImageFile(listed: ImagePath(photo), format: .jpeg), fitting: box) else {
            Issue.record("no picture of a listed photo")
            continue
        }
        #expect(thumbnail.width == 32 && thumbnail.readFile?.byteCount == size && thumbnail.readFile?.modified == modifiedTime(photo))
        #expect(stage.map { $0.readSoFar.files == 1 } ?? true, "read by the stage")
        guard case .failed(let failure) = decoder.decode(ImageFile(listed: ImagePath(text), format: .jpeg), fitting: box) else {
            Issue.record("a text named .jpg decoded")
            continue
        }
        #expect(failure.message.contains("not an image"), "\(failure.message)")
        // A FIFO named like a photo: said to be no regular file (and never waited on).
        guard case .failed(let fifo) = decoder.decode(ImageFile(listed: ImagePath(pipe), format: .jpeg), fitting: box) else {
            Issue.record("a FIFO named .jpg decoded")
            continue
        }
        #expect(fifo.message == "not a regular file: \(pipe)", "\(fifo.message)")
        // A file the scan read is decoded as it was: its picture names no file.
        guard case .decoded(let known) = decoder.decode(ImageFile(path: ImagePath(photo), byteCount: size, modified: 0, format: .jpeg), fitting: box) else {
            Issue.record("no picture")
            continue
        }
        #expect(known.readFile == nil)
    }
    // Its disk cache entry, found from the file as opened, says so too.
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let stage = FileReadStage(width: 4, decoders: 1)
    let cached = ThreadedPipeline(ThumbnailPipeline(codecs: nil, diskCache: cache), stage: stage, speed: nil)
    _ = cached.decode(ImageFile(path: ImagePath(photo), byteCount: size, modified: modifiedTime(photo), format: .jpeg), fitting: box)
    let statistics = cached.near.local?.statistics
    guard case .decoded(let fromCache) = cached.decode(ImageFile(listed: ImagePath(photo), format: .jpeg), fitting: box) else {
        Issue.record("no picture")
        return
    }
    #expect(fromCache.readFile?.modified == modifiedTime(photo) && statistics?.count(.diskCache) == 1 && stage.readSoFar.files == 1)
    // Without a stage, the file looked at first finds it too.
    let bare = ThreadedPipeline(ThumbnailPipeline(codecs: nil, diskCache: cache), stage: nil, speed: nil)
    guard case .decoded(let alsoFromCache) = bare.decode(ImageFile(listed: ImagePath(photo), format: .jpeg), fitting: box) else {
        Issue.record("no picture")
        return
    }
    #expect(alsoFromCache.readFile?.modified == modifiedTime(photo) && bare.near.local?.statistics.count(.diskCache) == 1)
}

/// Whole reads waiting for a turn take it most wanted first (`FileReadStage.order`, the
/// provider's count of requests taken), whatever order they came in.
@Test func wholeReadsTakeTheirTurnsMostWantedFirst() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let holders = FileReadStage.wholeReads, count = holders + 12
    let files = try (0..<count).map { index in
        let path = try dir.file("\(index).jpg")
        // Larger than the first bytes read (`ThumbnailPipeline.headerBytes`): the rest waits for a turn.
        try TestImages.bytes([0xFF, 0xD8, 0xFF] + [UInt8](repeating: UInt8(index), count: 256 << 10), at: path)
        return ImageFile(path: ImagePath(path), byteCount: Int64(3 + (256 << 10)), modified: 0, format: .jpeg)
    }
    /// The orders as turns were taken; each read keeps its turn until released, one at a time.
    final class Turns: @unchecked Sendable {
        let condition = NSCondition()
        var taken: [Int] = []
        var released = 0
        var takenCount: Int {
            condition.lock()
            defer { condition.unlock() }
            return taken.count
        }
    }
    let turns = Turns(), stage = FileReadStage(width: count, decoders: 2)
    stage.tookTurn = { order in
        turns.condition.lock()
        let position = turns.taken.count
        turns.taken.append(order)
        while turns.released <= position { turns.condition.wait() }
        turns.condition.unlock()
    }
    // The first reads take every turn; the rest come most wanted last and wait.
    let orders = (0..<holders).map { -1 - $0 } + (1...12).reversed()
    let done = DispatchGroup()
    for (index, order) in orders.enumerated() {
        done.enter()
        Thread {
            if case .read(let bytes, _) = FileReadStage.$order.withValue(order, operation: { stage.read(files[index]) }) { stage.release(bytes.count) }
            done.leave()
        }.start()
        if index < holders { waitUntil { turns.takenCount == index + 1 } } else { waitUntil { stage.waitingCount == index - holders + 1 } }
    }
    // Each turn given back lets exactly one more read take one.
    for release in 1...count {
        turns.condition.lock()
        turns.released = release
        turns.condition.broadcast()
        turns.condition.unlock()
        if release + holders <= count { waitUntil { turns.takenCount == release + holders } }
    }
    done.wait()
    #expect(Array(turns.taken.dropFirst(holders)) == Array(1...12), "\(turns.taken)")
}

/// Threads in reads of a stage, each held in its open until `goesOn` says so.
private final class HeldReads: @unchecked Sendable {
    let condition = NSCondition()
    private(set) var threads: Set<pthread_t> = []
    private let done = DispatchGroup()
    /// Whether the threads held (`threads`) may go on; asked each time one arrives or is told.
    private let goesOn: (_ held: Int) -> Bool

    /// `count` reads of `file` in `stage`, each in a thread of its own.
    init(_ count: Int, of file: ImageFile, in stage: FileReadStage, goOnWhen goesOn: @escaping (_ held: Int) -> Bool) {
        self.goesOn = goesOn
        for _ in 0..<count {
            done.enter()
            Thread { [self] in
                _ = stage.read(file, opened: { _ in self.hold() })
                done.leave()
            }.start()
        }
    }

    private func hold() -> DecodeResult? {
        condition.lock()
        threads.insert(pthread_self())
        condition.broadcast()
        while !goesOn(threads.count) { condition.wait() }
        condition.unlock()
        return nil
    }

    /// The threads held so far.
    var held: Set<pthread_t> {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Wakes the held threads to ask `goesOn` again.
    func tell() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Whether every read ended within `seconds`.
    func ended(within seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}

/// Reads stuck on a mount that does not answer hold no turn once the app says so (`standIn`):
/// a read waiting behind them goes on; the stuck ones end later without taking anyone's turn.
@Test func readsStuckOnAMountGiveUpTheirTurns() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("a.jpg")
    try TestImages.jpeg(at: path, width: 64, height: 48)
    let file = ImageFile(
        path: ImagePath(path), byteCount: Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int), modified: 0, format: .jpeg)
    let stage = FileReadStage(width: 32, decoders: 2), turns = FileReadStage.wholeReads
    let answered = SharedFlag(false)
    let stuck = HeldReads(turns, of: file, in: stage) { _ in answered.isSet }
    waitUntil { stuck.held.count == turns }
    let other = DispatchSemaphore(value: 0)
    Thread {
        if case .read(let bytes, _) = stage.read(file) { stage.release(bytes.count) }
        other.signal()
    }.start()
    waitUntil { stage.waitingCount == 1 }
    #expect(other.wait(timeout: .now() + 0.2) == .timedOut, "every turn held")
    #expect(stage.standIn(for: [pthread_self()]) == 0, "a thread holding no turn")
    #expect(stage.standIn(for: stuck.held) == turns)
    #expect(other.wait(timeout: .now() + 5) == .success, "the read behind them went on")
    #expect(!stage.isBusy, "reads left behind do not keep the scan yielding")
    answered.set(true)
    stuck.tell()
    #expect(stuck.ended(within: 5))
    // Every turn free again: as many reads as there are turns go at once.
    let together = HeldReads(turns, of: file, in: stage) { $0 == turns }
    #expect(together.ended(within: 5), "\(together.held.count) of the turns taken at once")
    #expect(!stage.isBusy)
}
