import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

let someFile = ImageFile(path: ImagePath("/photos/a.jpg"), byteCount: 10, modified: 20, format: .jpeg)

/// Two pixels, the second half covered (premultiplied), with their alpha.
var translucent: Thumbnail {
    var thumbnail = Thumbnail(width: 2, height: 1, pixels: [200, 10, 10, 50, 50, 0])
    thumbnail.alpha = [255, 128]
    return thumbnail
}

var translucentAnimation: Thumbnail {
    var thumbnail = Thumbnail(width: 1, height: 2, pixels: [200, 10, 10, 50, 50, 0])
    thumbnail.alpha = [255, 0]
    thumbnail.delays = [100, 40]
    return thumbnail
}

@Test func messagesRoundTrip() {
    for request in [
        DecodeMessage.Request.decode(someFile, PixelSize(width: 40, height: 30)), .decode(someFile, PixelSize(width: 40, height: 30), smallerSuffices: true),
        .warm(someFile, .large), .finish,
    ] {
        let framed = DecodeMessage.encode(request)
        #expect(DecodeMessage.request(from: Array(framed.dropFirst(4))) == request)
    }
    // Every source travels, each with its own count.
    let bySource = Dictionary(uniqueKeysWithValues: DecodeStatistics.Source.allCases.enumerated().map { ($0.element, $0.offset) })
    let counts = DecodeStatistics.Counts(bySource: bySource, writes: 1)
    let responses: [DecodeMessage.Response] = [
        .init(body: .decoded(.decoded(Thumbnail(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6]))), counts: counts),
        .init(body: .decoded(.failed(.badFile("cannot decode: bad"))), counts: counts),
        .init(body: .decoded(.failed(.decoder("decoder crashed (signal 11)"))), counts: counts),
        .init(body: .warmed(.alreadyCached), counts: counts),
        .init(body: .warmed(.failed("x")), counts: counts),
        .init(body: .finished, counts: counts),
        .init(body: .decoded(.decoded(translucent)), counts: counts),
        .init(body: .decoded(.decoded(translucentAnimation)), counts: counts),
    ]
    for response in responses {
        #expect(DecodeMessage.response(from: Array(DecodeMessage.encode(response).dropFirst(4))) == response)
    }
    // Truncated or junk bodies are refused, never trusted.
    for response in [responses[0], responses[6], responses[7]] {  // opaque, translucent, a translucent animation
        let body = Array(DecodeMessage.encode(response).dropFirst(4))
        for cut in 0..<body.count { #expect(DecodeMessage.response(from: Array(body.prefix(cut))) == nil) }
    }
    #expect(DecodeMessage.request(from: [9, 9, 9]) == nil)
}

/// A thumbnail crosses from a decoder to the app with no copy of its pixels on either side: it
/// is sent from its own buffer, and read into the one the app keeps.
@Test func aThumbnailIsHandedOverWithoutCopies() throws {
    let pixels = [UInt8](repeating: 7, count: 320 * 240 * 3)
    let response = DecodeMessage.Response(body: .decoded(.decoded(Thumbnail(width: 320, height: 240, pixels: pixels))), counts: .init())
    let parts = DecodeMessage.encodeParts(response)
    #expect(parts.count == 3 && parts[1].withUnsafeBufferPointer { $0.baseAddress } == pixels.withUnsafeBufferPointer { $0.baseAddress })
    var ends: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    defer { close(ends[0]); close(ends[1]) }
    let writeEnd = ends[1]
    Thread { _ = MessageChannel.write(parts: parts, to: writeEnd) }.start()
    guard case .success(let body) = MessageChannel.read(from: ends[0], within: 5) else { Issue.record("nothing read"); return }
    let read = body.withUnsafeBufferPointer { $0.baseAddress }
    guard case .decoded(.decoded(let thumbnail))? = DecodeMessage.response(from: consume body)?.body else { Issue.record("not a thumbnail"); return }
    #expect(thumbnail.pixels == pixels)
    #expect(thumbnail.pixels.withUnsafeBufferPointer { $0.baseAddress } == read, "the pixels were copied out of the buffer read")
}

/// The largest thumbnail a decoder makes (a preview at `PixelSize.maxSide`), with its alpha
/// plane, fits in one message.
@Test func theLargestTransparentThumbnailFitsAMessage() throws {
    let side = PixelSize.maxSide
    var thumbnail = Thumbnail(width: side, height: side, pixels: [UInt8](repeating: 9, count: side * side * 3))
    thumbnail.alpha = [UInt8](repeating: 128, count: side * side)
    let parts = DecodeMessage.encodeParts(DecodeMessage.Response(body: .decoded(.decoded(thumbnail)), counts: .init()))
    var ends: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    defer { close(ends[0]); close(ends[1]) }
    let writeEnd = ends[1]
    Thread { _ = MessageChannel.write(parts: parts, to: writeEnd) }.start()
    guard case .success(let body) = MessageChannel.read(from: ends[0], within: 10) else { Issue.record("refused or not read"); return }
    guard case .decoded(.decoded(let read))? = DecodeMessage.response(from: consume body)?.body else { Issue.record("not a thumbnail"); return }
    #expect(read.alpha?.count == side * side && read.width == side)
}

/// `DecodeWorker.serve` on a thread, spoken to over pipes, with a 400x300 JPEG to ask for.
struct WorkerOverPipes {
    let dir: TemporaryDirectory
    let file: ImageFile
    let toWorker: Int32, fromWorker: Int32

    init() throws {
        dir = try TemporaryDirectory()
        let path = try dir.file("a.jpg")
        try TestImages.jpeg(at: path, width: 400, height: 300, color: (10, 20, 230))
        file = ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: .jpeg)
        var to: [Int32] = [0, 0], from: [Int32] = [0, 0]
        pipe(&to); pipe(&from)
        (toWorker, fromWorker) = (to[1], from[0])
        let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
        let (input, output) = (to[0], from[1])
        Thread { DecodeWorker.serve(input: input, output: output, pipeline: pipeline) }.start()
    }

    /// Sends `request` framed as the app frames it; the answer, if one came.
    func ask(_ request: DecodeMessage.Request) -> DecodeMessage.Response? {
        guard MessageChannel.write(DecodeMessage.encode(request), to: toWorker),
            case .success(let body) = MessageChannel.read(from: fromWorker, within: 10)
        else { return nil }
        return DecodeMessage.response(from: body)
    }

    /// Ends the worker (it ends when its input closes) and the folder.
    func end() {
        close(toWorker)
        dir.remove()
    }
}

@Test func theWorkerLoopAnswersOverPipes() throws {
    let worker = try WorkerOverPipes()
    defer { worker.end() }
    guard let response = worker.ask(.decode(worker.file, PixelSize(width: 40, height: 40))),
        case .decoded(.decoded(let thumbnail)) = response.body
    else { Issue.record("no answer"); return }
    #expect(thumbnail.width == 40 && thumbnail.height == 30)
    #expect(response.counts.bySource[.dct] == 1)
}

@Test func aWorkerThatCrashesCostsOneFile() {
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "kill -SEGV $$"])
    guard case .failed(let failure) = pool.decode(someFile, fitting: PixelSize(width: 8, height: 8)) else {
        Issue.record("a crash decoded"); return
    }
    #expect(failure == .decoder("decoder crashed (signal 11)"))
    #expect(pool.statistics.count(.failed) == 1)
    // The next file gets a new worker (which crashes again here, but is tried).
    guard case .failed(let again) = pool.decode(someFile, fitting: PixelSize(width: 8, height: 8)) else { return }
    #expect(again.message.hasPrefix("decoder crashed"))
}

@Test func aWorkerThatHangsIsKilledAtTheTimeLimit() {
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "exec sleep 30"], timeLimit: 1)
    let start = Date()
    guard case .failed(let failure) = pool.decode(someFile, fitting: PixelSize(width: 8, height: 8)) else {
        Issue.record("a hang decoded"); return
    }
    #expect(failure == .decoder("timed out after 1 s"))
    #expect(Date().timeIntervalSince(start) < 5)
}

@Test func aWorkerThatAnswersGarbageIsDropped() {
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "head -c 4 >/dev/null; printf '\\004\\000\\000\\000junk'; sleep 5"], timeLimit: 3)
    guard case .failed(let failure) = pool.decode(someFile, fitting: PixelSize(width: 8, height: 8)) else {
        Issue.record("garbage decoded"); return
    }
    #expect(failure == .decoder("decoder sent a malformed answer"))
}

/// Forks are made only while the process has one thread, so the count must see every thread:
/// it agrees with the kernel's own figure (other tests start and end threads meanwhile, so it
/// is compared between two readings of that figure that agree).
@Test func theThreadCountSeesEveryThread() throws {
    func kernelsCount() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Threads:") })
        return try #require(Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)))
    }
    let release = DispatchSemaphore(value: 0)
    let threads = (0..<3).map { _ in Thread { release.wait() } }
    threads.forEach { $0.start() }
    defer { threads.forEach { _ in release.signal() } }
    var agreed = false
    for _ in 0..<50 where !agreed {
        let before = try kernelsCount()
        let counted = WorkerPoolDecoder.threadCount()
        if try kernelsCount() == before {
            #expect(counted == before)
            #expect(counted >= 4)
            agreed = true
        }
    }
    #expect(agreed, "the thread count never held still")
}

@Test func aMissingDecoderProgramIsAClearFailure() {
    let pool = WorkerPoolDecoder(command: ["/nonexistent/lightbox", "--decode-worker"])
    guard case .failed(let failure) = pool.decode(someFile, fitting: PixelSize(width: 8, height: 8)) else { return }
    #expect(failure.message.contains("decoder"))
}

@Test func negativeTimesRoundTripAndFuzzFindingsStayFixed() {
    // Files dated before 1970 have negative times; reading them back used to trap.
    let old = ImageFile(path: ImagePath("/old.jpg"), byteCount: 1, modified: -5_000_000_000, format: .png)
    let request = DecodeMessage.Request.decode(old, PixelSize(width: 4, height: 4))
    #expect(DecodeMessage.request(from: Array(DecodeMessage.encode(request).dropFirst(4))) == request)
    // The input libFuzzer found (make fuzz, target message).
    let found: [UInt8] = [0x00, 0x95, 0x00, 0x10, 0x00, 0x95, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF]
    #expect(DecodeMessage.request(from: found) == nil)
    #expect(DecodeMessage.response(from: found) == nil)
}

@Test func diskCacheHitsAreServedWithoutAWorker() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("photo.jpg")
    try TestImages.jpeg(at: path, width: 800, height: 600)
    var info = stat()
    stat(path, &info)
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000, format: .jpeg)
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    #expect(ThumbnailPipeline.withCodecs(diskCache: cache).warm(file) == .written)
    // Every worker would crash: only the in-process cache path can answer.
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "kill -SEGV $$"])
    pool.local = ThumbnailPipeline(codecs: nil, diskCache: cache, statistics: pool.statistics)
    guard case .decoded(let thumbnail) = pool.decode(file, fitting: PixelSize(width: 40, height: 40)) else {
        Issue.record("a cached thumbnail went to a worker"); return
    }
    #expect(thumbnail.width == 40 && thumbnail.height == 30)
    #expect(pool.statistics.count(.diskCache) == 1)
}

/// A photo's EXIF thumbnail is decoded in this process by our own decoder, with no disk cache
/// and no worker (every one would crash); a photo without one goes to a worker.
@Test func exifThumbnailsAreServedWithoutAWorker() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let camera = try dir.file("camera.jpg"), plain = try dir.file("plain.jpg")
    try TestImages.bytes(cameraJPEG(orientation: 6), at: camera)
    try TestImages.jpeg(at: plain, width: 800, height: 600)
    let pool = WorkerPoolDecoder(command: ["/bin/sh", "-c", "kill -SEGV $$"])
    pool.local = ThumbnailPipeline(codecs: nil, diskCache: nil, statistics: pool.statistics)
    guard case .decoded(let thumbnail) = pool.decode(imageFile(camera), fitting: PixelSize(width: 40, height: 40)) else {
        Issue.record("an EXIF thumbnail went to a worker"); return
    }
    // The green thumbnail, turned as its photo (orientation 6: a quarter turn clockwise).
    #expect(thumbnail.width == 30 && thumbnail.height == 40 && isGreen(thumbnail.pixel(x: 15, y: 5)))
    #expect(pool.statistics.count(.exif) == 1)
    guard case .failed(let failure) = pool.decode(imageFile(plain), fitting: PixelSize(width: 40, height: 40)) else {
        Issue.record("a photo without a thumbnail was decoded without a worker"); return
    }
    #expect(failure.kind == .decoder)
}

@Test func theWorkerAnswersARequestItCannotReadAndServesTheNext() throws {
    let worker = try WorkerOverPipes()
    defer { worker.end() }
    // A box over the largest side: a well-framed request the worker refuses, then answers.
    guard case .decoded(.failed(let failure))? = worker.ask(.decode(worker.file, PixelSize(width: 5000, height: 40)))?.body else {
        Issue.record("no answer"); return
    }
    #expect(failure.kind == .decoder && failure.message.contains("request"))
    guard case .decoded(.decoded(let thumbnail))? = worker.ask(.decode(worker.file, PixelSize(width: 40, height: 40)))?.body else {
        Issue.record("no second answer"); return
    }
    #expect(thumbnail.width == 40 && thumbnail.height == 30)
}

@Test func boxesAreLimitedToTheLargestSideShapeKept() {
    #expect(PixelSize(width: 200 * 24, height: 400 * 8).limitedToMaxSide == PixelSize(width: 4096, height: 2730))
    #expect(PixelSize(width: 10, height: 100_000).limitedToMaxSide == PixelSize(width: 1, height: 4096))
    #expect(PixelSize(width: 300, height: 200).limitedToMaxSide == PixelSize(width: 300, height: 200))
}
