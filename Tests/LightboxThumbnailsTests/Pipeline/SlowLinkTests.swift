import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// The meter at `rate` bytes a second for `seconds`, files of `fileBytes` read 8 at once, in chunks every 0.1 s.
private func meter(rate: Double, seconds: Double, fileBytes: Int, startingAt start: Double = 0, _ meter: inout ReadSpeed.Meter) {
    for _ in 0..<8 { meter.began(bytes: fileBytes, at: start) }
    var t = start
    while t < start + seconds - 1e-9 {
        t += 0.1
        meter.moved(Int(rate * 0.1), firstAfter: nil, at: t)
    }
    for _ in 0..<8 { meter.ended(at: t) }
}

@Test func theLinkIsSlowWhenWholeFilesComeAtFewerThanTenASecond() {
    var slow = ReadSpeed.Meter()
    slow.began(bytes: 2_000_000, at: 0)
    slow.moved(100_000, firstAfter: 0.04, at: 0.2)
    #expect(slow.bytesPerSecond(at: 0.3) == nil && !slow.isSlow(at: 0.3), "too soon to say")
    // 1 MB/s of 2 MB files: half a file a second.
    var oneMB = ReadSpeed.Meter()
    meter(rate: 1e6, seconds: 2, fileBytes: 2_000_000, &oneMB)
    #expect(oneMB.isSlow(at: 2) && abs(oneMB.bytesPerSecond(at: 2)! - 1e6) < 1e5)
    // 55 MB/s (the harness at 10 ms) of 2.2 MB files: 25 a second.
    var fast = ReadSpeed.Meter()
    meter(rate: 55e6, seconds: 2, fileBytes: 2_200_000, &fast)
    #expect(!fast.isSlow(at: 2))
    // Time with no read in flight does not count against the link.
    #expect(!fast.isSlow(at: 60))
    // A link that gets fast is followed: 30 s slow, then 10 s fast.
    var changing = ReadSpeed.Meter()
    meter(rate: 1e6, seconds: 30, fileBytes: 2_000_000, &changing)
    #expect(changing.isSlow(at: 30))
    meter(rate: 100e6, seconds: 10, fileBytes: 2_000_000, startingAt: 30, &changing)
    #expect(!changing.isSlow(at: 40))
}

@Test func aLongRoundTripIsSlowUntilTheRateIsMeasured() {
    var far = ReadSpeed.Meter()
    far.began(bytes: 2_000_000, at: 0)
    #expect(!far.isSlow(at: 0.1), "nothing measured")
    far.moved(65_536, firstAfter: ReadSpeed.slowFromRoundTrip + 0.01, at: 0.2)
    #expect(far.bytesPerSecond(at: 0.3) == nil && far.isSlow(at: 0.3), "first bytes late: slow at once")
    var near = ReadSpeed.Meter()
    near.began(bytes: 2_000_000, at: 0)
    near.moved(65_536, firstAfter: 0.002, at: 0.01)
    #expect(!near.isSlow(at: 0.1), "a LAN's round trip")
    // Once the rate says, it decides: 100 MB/s of 2 MB files is 50 a second, however late the first bytes.
    meter(rate: 100e6, seconds: 2, fileBytes: 2_000_000, startingAt: 0.2, &far)
    #expect(!far.isSlow(at: 2.2))
}

@Test func ioSettingsOverTheMeasureAndTheLargestBoxServedSmaller() {
    #expect(ReadSpeed(mode: .slow).isSlow && !ReadSpeed(mode: .normal).isSlow && !ReadSpeed(mode: .auto).isSlow)
    let slow = ReadSpeed(mode: .slow)
    #expect(slow.smallerSuffices(for: PixelSize(width: 240, height: 160)))
    #expect(!slow.smallerSuffices(for: PixelSize(width: 1600, height: 900)), "the full-screen preview gets what it needs")
    #expect(ReadSpeed(mode: .auto).report == "link: not measured yet")
}

@Test func upscalingFillsTheBoxKeepingCornersAndFlatColour() {
    var t = Thumbnail(width: 2, height: 2, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
    t.alpha = [255, 255, 0, 255]
    let grown = t.upscaled(toFit: PixelSize(width: 8, height: 6))
    #expect(grown.width == 6 && grown.height == 6)
    #expect(grown.pixel(x: 0, y: 0) == (255, 0, 0) && grown.pixel(x: 5, y: 5) == (255, 255, 255))
    #expect(grown.pixel(x: 5, y: 0) == (0, 255, 0) && grown.pixel(x: 0, y: 5) == (0, 0, 255))
    #expect(grown.alpha?.count == 36 && grown.alpha?[30] == 0)
    let flat = Thumbnail(width: 3, height: 2, pixels: [UInt8](repeating: 77, count: 18)).upscaled(toFit: PixelSize(width: 30, height: 30))
    #expect(flat.width == 30 && flat.height == 20 && flat.pixels.allSatisfy { $0 == 77 })
    #expect(t.upscaled(toFit: PixelSize(width: 2, height: 2)) == t, "never shrinks")
}

@Test func onASlowLinkAnEXIFThumbnailHalfTheTileIsEnoughAndFillsIt() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("camera.jpg")
    try TestImages.bytes(try cameraJPEG(), at: path)  // 1600x1200, a 160x120 green EXIF thumbnail
    let box = PixelSize(width: 300, height: 300)
    let normal = ThumbnailPipeline.withCodecs(diskCache: nil)
    guard case .decoded(let whole) = normal.decode(imageFile(path), fitting: box) else { Issue.record("no picture"); return }
    #expect(isRed(whole.pixel(x: 10, y: 100)) && normal.statistics.count(.dct) == 1 && normal.statistics.count(.smaller) == 0)
    #expect(normal.decodeWithoutLibraries(imageFile(path), fitting: box) == nil, "the app's own code has nothing for it")

    var slow = ThumbnailPipeline.withCodecs(diskCache: nil)
    slow.smallerSuffices = true
    for result in [slow.decode(imageFile(path), fitting: box), slow.decodeWithoutLibraries(imageFile(path), fitting: box)] {
        guard case .decoded(let small)? = result else { Issue.record("no picture"); return }
        #expect(small.width == 300 && small.height == 225 && isGreen(small.pixel(x: 10, y: 100)), "the thumbnail, scaled up to the tile")
    }
    #expect(slow.statistics.count(.exif) == 2 && slow.statistics.count(.smaller) == 2 && slow.statistics.count(.dct) == 0)
    // Less than half the tile: the photo itself still.
    guard case .decoded(let big) = slow.decode(imageFile(path), fitting: PixelSize(width: 400, height: 400)) else { Issue.record("no picture"); return }
    #expect(isRed(big.pixel(x: 10, y: 100)) && slow.statistics.count(.dct) == 1)
}

@Test func onASlowLinkARawsSmallPreviewIsEnoughAndNotCached() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("two.nef")  // a 40x30 green preview and a 300x200 red and blue one
    let raw = try twoPreviewNEF()
    try TestImages.bytes(raw, at: path)
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(raw.count), modified: 0, format: .cameraRaw)
    let box = PixelSize(width: 64, height: 64)
    var slow = ThumbnailPipeline.withCodecs(diskCache: FreedesktopCache(root: ImagePath(dir.path + "/slow")))
    slow.smallerSuffices = true
    guard case .decoded(let small) = slow.decode(file, fitting: box) else { Issue.record("no picture"); return }
    #expect(small.width == 64 && small.height == 48 && small.pixel(x: 32, y: 24).1 > 150, "the green one, scaled up")
    #expect(slow.statistics.count(.smaller) == 1 && slow.statistics.cacheWrites == 0)
    let normal = ThumbnailPipeline.withCodecs(diskCache: FreedesktopCache(root: ImagePath(dir.path + "/normal")))
    guard case .decoded(let large) = normal.decode(file, fitting: box) else { Issue.record("no picture"); return }
    #expect(large.pixel(x: 5, y: 20).0 > 180 && normal.statistics.count(.smaller) == 0 && normal.statistics.cacheWrites == 1)
}

@Test func onASlowLinkASmallerCacheEntryIsEnough() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("a.jpg")
    try TestImages.jpeg(at: photo, width: 800, height: 600, color: (20, 200, 90))
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    _ = ThumbnailPipeline.withCodecs(diskCache: cache).decode(imageFile(photo), fitting: PixelSize(width: 40, height: 40))  // a 128-pixel entry
    let box = PixelSize(width: 200, height: 200)
    var slow = ThumbnailPipeline(codecs: nil, diskCache: cache)
    slow.smallerSuffices = true
    guard case .decoded(let t)? = slow.decodeWithoutLibraries(imageFile(photo), fitting: box) else { Issue.record("not from the cache"); return }
    #expect(t.width == 200 && t.height == 150 && slow.statistics.count(.diskCache) == 1 && slow.statistics.count(.smaller) == 1)
    #expect(ThumbnailPipeline(codecs: nil, diskCache: cache).decodeWithoutLibraries(imageFile(photo), fitting: box) == nil, "a normal link reads the photo")
}

@Test func theAppsDecoderAsksForSmallerSourcesOnlyWhileTheLinkIsSlow() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("camera.jpg")
    try TestImages.bytes(try cameraJPEG(), at: path)
    let box = PixelSize(width: 300, height: 300)
    // No worker can start: what comes back was made by the app's own code.
    let pool = WorkerPoolDecoder(command: ["/nonexistent/lightbox-decode"])
    pool.local = ThumbnailPipeline(codecs: nil, diskCache: nil, statistics: pool.statistics)
    pool.speed = ReadSpeed(mode: .slow)
    guard case .decoded(let small) = pool.decode(imageFile(path), fitting: box) else { Issue.record("no picture"); return }
    #expect(small.width == 300 && isGreen(small.pixel(x: 10, y: 100)) && small.isStandIn)
    pool.speed = ReadSpeed(mode: .normal)
    guard case .failed(let failure) = pool.decode(imageFile(path), fitting: box) else { Issue.record("the thumbnail on a normal link"); return }
    #expect(failure.message.contains("cannot start the decoder"))
}

/// `--decoders thread` gets what the worker pool does around its decodes: files read ahead by the
/// stage, smaller sources on a slow link.
@Test func theThreadsDecoderReadsAheadAndTakesSmallerSourcesOnASlowLink() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("camera.jpg")
    try TestImages.bytes(try cameraJPEG(), at: path)
    let box = PixelSize(width: 300, height: 300)
    let stage = FileReadStage(width: 4, decoders: 1, speed: nil)
    let normal = ThreadedPipeline(ThumbnailPipeline(codecs: nil, diskCache: nil), stage: stage, speed: ReadSpeed(mode: .normal))
    guard case .decoded(let whole) = normal.decode(imageFile(path), fitting: box) else { Issue.record("no picture"); return }
    #expect(isRed(whole.pixel(x: 10, y: 100)) && !whole.isStandIn)
    #expect(stage.readSoFar.files == 1 && !stage.isBusy, "read whole by the stage, then decoded")
    let slow = ThreadedPipeline(ThumbnailPipeline(codecs: nil, diskCache: nil), stage: stage, speed: ReadSpeed(mode: .slow))
    guard case .decoded(let small) = slow.decode(imageFile(path), fitting: box) else { Issue.record("no picture"); return }
    #expect(isGreen(small.pixel(x: 10, y: 100)) && small.isStandIn && stage.readSoFar.files == 1, "the EXIF thumbnail, no whole read")
    // No stage (a local disk): the pipeline reads the file itself.
    let local = ThreadedPipeline(ThumbnailPipeline(codecs: nil, diskCache: nil), stage: nil, speed: nil)
    guard case .decoded(let read) = local.decode(imageFile(path), fitting: box) else { Issue.record("no picture"); return }
    #expect(isRed(read.pixel(x: 10, y: 100)))
}

/// A picture scaled up to fill its box is a stand-in; one that reaches the box already is not.
@Test func aPictureScaledUpIsAStandIn() {
    let small = Thumbnail(width: 2, height: 2, pixels: Array(repeating: 100, count: 12))
    #expect(small.upscaled(toFit: PixelSize(width: 8, height: 8)).isStandIn)
    #expect(!small.upscaled(toFit: PixelSize(width: 2, height: 2)).isStandIn && !small.isStandIn)
}

/// A worker's picture made from a smaller source is a stand-in in the app too: its answer's
/// counts say so, as the flag itself does not travel.
@Test func aWorkersSmallerPictureArrivesAsAStandIn() {
    let pool = WorkerPoolDecoder(command: ["/nonexistent/lightbox-decode"])
    let picture = Thumbnail(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6])
    for smaller in [0, 1] {
        let response = DecodeMessage.Response(body: .decoded(.decoded(picture)), counts: DecodeStatistics.Counts(bySource: [.exif: 1, .smaller: smaller]))
        guard case .decoded(let arrived) = pool.answer(.success(response)) else { Issue.record("no picture"); continue }
        #expect(arrived.isStandIn == (smaller == 1) && arrived.pixels == picture.pixels)
    }
}
