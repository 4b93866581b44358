import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A 1600x1200 photo (left half red, right half blue) with a 160x120 EXIF thumbnail that is
/// green, so a test can tell which one was shown.
func cameraJPEG(orientation: Int = 1, thumbnailSize: (Int, Int) = (160, 120), offsetError: Int = 0) throws -> [UInt8] {
    let main = try TestImages.jpegBytes(
        TestImages.halves(width: 1600, height: 1200, left: (255, 0, 0), right: (0, 0, 255)),
        width: 1600, height: 1200)
    let (tw, th) = thumbnailSize
    let thumb = try TestImages.jpegBytes(
        TestImages.halves(width: tw, height: th, left: (0, 255, 0), right: (0, 120, 0)),
        width: tw, height: th)
    return TestImages.withExif(main: main, thumbnail: thumb, orientation: orientation, thumbnailOffsetError: offsetError)
}

func imageFile(_ path: String) -> ImageFile {
    var info = stat()
    stat(path, &info)
    return ImageFile(
        path: ImagePath(path), byteCount: Int64(info.st_size),
        modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec), format: .jpeg)
}

func isGreen(_ p: (UInt8, UInt8, UInt8)) -> Bool { p.1 > 90 && p.0 < 60 && p.2 < 60 }
func isRed(_ p: (UInt8, UInt8, UInt8)) -> Bool { p.0 > 200 && p.1 < 60 && p.2 < 60 }
func isBlue(_ p: (UInt8, UInt8, UInt8)) -> Bool { p.2 > 200 && p.0 < 60 && p.1 < 60 }

@Test func headerParsingFindsSizeOrientationAndTheEmbeddedThumbnail() throws {
    let data = try cameraJPEG(orientation: 6)
    let header = try #require(JPEGHeader(parsing: data))
    #expect(header.width == 1600 && header.height == 1200)
    #expect(header.orientation == 6 && header.isTransposed)
    let range = try #require(header.exifThumbnail)
    #expect(Array(data[range].prefix(2)) == [0xFF, 0xD8])
    #expect(TurboJPEGDecoder.size(of: Array(data[range]))! == (160, 120))
    #expect(JPEGHeader(parsing: Array("GIF89a".utf8)) == nil)
}

@Test func aLyingThumbnailOffsetIsIgnored() throws {
    for error in [7, 100_000, -40] {
        let header = try #require(JPEGHeader(parsing: try cameraJPEG(offsetError: error)))
        #expect(header.exifThumbnail == nil, "offset error \(error)")
        #expect(header.width == 1600)
    }
    // Truncated headers never read out of bounds.
    let data = try cameraJPEG()
    for cut in stride(from: 0, to: 400, by: 3) { _ = JPEGHeader(parsing: Array(data.prefix(cut))) }
}

@Test func theEmbeddedThumbnailServesSmallTiles() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("camera.jpg")
    try TestImages.bytes(try cameraJPEG(), at: path)
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    let result = pipeline.decode(imageFile(path), fitting: PixelSize(width: 40, height: 40))
    guard case .decoded(let thumbnail) = result else { Issue.record("\(result)"); return }
    #expect(thumbnail.width == 40 && thumbnail.height == 30)
    #expect(isGreen(thumbnail.pixel(x: 5, y: 15)))
    #expect(pipeline.statistics.count(.exif) == 1)
    // Too small for a big tile: the photo itself, DCT-scaled.
    let big = pipeline.decode(imageFile(path), fitting: PixelSize(width: 300, height: 300))
    guard case .decoded(let large) = big else { Issue.record("\(big)"); return }
    #expect(large.width == 300 && large.height == 225)
    #expect(isRed(large.pixel(x: 10, y: 100)) && isBlue(large.pixel(x: 290, y: 100)))
    #expect(pipeline.statistics.count(.dct) == 1)
}

@Test func theEmbeddedThumbnailTakesTheMainImagesOrientation() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("turned.jpg")
    try TestImages.bytes(try cameraJPEG(orientation: 6), at: path)
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    let result = pipeline.decode(imageFile(path), fitting: PixelSize(width: 40, height: 40))
    guard case .decoded(let thumbnail) = result else { Issue.record("\(result)"); return }
    #expect(thumbnail.width == 30 && thumbnail.height == 40)
    // Turned clockwise: the stored left half (bright green) is on top.
    #expect(thumbnail.pixel(x: 15, y: 5).1 > 200 && thumbnail.pixel(x: 15, y: 35).1 < 160)
    #expect(pipeline.statistics.count(.exif) == 1)
    // The DCT path turns the photo the same way.
    let big = pipeline.decode(imageFile(path), fitting: PixelSize(width: 300, height: 300))
    guard case .decoded(let large) = big else { Issue.record("\(big)"); return }
    #expect(large.width == 225 && large.height == 300)
    #expect(isRed(large.pixel(x: 100, y: 10)) && isBlue(large.pixel(x: 100, y: 290)))
}

/// Most cameras' header segments fit in the first 16 KB, which is all that is read for them; a
/// large ICC profile between the EXIF block and the frame header takes a second read, as does an
/// EXIF block larger than the first read, and the thumbnail is still found.
@Test func theHeaderIsReadInTwoStepsOnlyWhenItGoesOn() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let camera = try cameraJPEG()
    let exifEnd = 4 + (Int(camera[4]) << 8 | Int(camera[5]))  // SOI, then the APP1 segment
    let profile: [UInt8] = [0xFF, 0xE2, 0x75, 0x32] + Array("ICC_PROFILE\0".utf8) + [UInt8](repeating: 7, count: 0x7532 - 14)
    var seed: UInt32 = 1
    let noise = (0..<(160 * 120 * 3)).map { _ in
        seed = seed &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: seed >> 24)
    }
    let noisyThumbnail = try TestImages.jpegBytes(noise, width: 160, height: 120, quality: 90)
    #expect(noisyThumbnail.count > ThumbnailPipeline.firstHeaderBytes, "the EXIF block must outgrow the first read")
    let bigThumbnail = TestImages.withExif(
        main: try TestImages.jpegBytes(TestImages.halves(width: 1600, height: 1200, left: (255, 0, 0), right: (0, 0, 255)), width: 1600, height: 1200),
        thumbnail: noisyThumbnail)
    let files = [
        ("plain.jpg", camera, false),
        ("profile.jpg", Array(camera[..<exifEnd]) + profile + Array(camera[exifEnd...]), true),
        ("big-exif.jpg", bigThumbnail, true),
    ]
    for (name, bytes, goesOn) in files {
        let path = try dir.file(name)
        try TestImages.bytes(bytes, at: path)
        guard case .success(let (prefix, header)) = ThumbnailPipeline.jpegHeader(ImagePath(path)) else { Issue.record("\(name) unread"); continue }
        #expect((prefix.count > ThumbnailPipeline.firstHeaderBytes) == goesOn, "\(name): \(prefix.count) bytes read")
        #expect(header?.width == 1600 && header?.exifThumbnail != nil, "\(name)")
        let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
        let result = pipeline.decode(imageFile(path), fitting: PixelSize(width: 40, height: 40))
        guard case .decoded = result else { Issue.record("\(name): \(result)"); continue }
        #expect(pipeline.statistics.count(.exif) == 1, "\(name)")
    }
}

@Test func aThumbnailOfAnotherShapeIsNotUsed() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("padded.jpg")
    try TestImages.bytes(try cameraJPEG(thumbnailSize: (160, 160)), at: path)  // square, the photo is 4:3
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    guard case .decoded(let thumbnail) = pipeline.decode(imageFile(path), fitting: PixelSize(width: 40, height: 40)) else {
        Issue.record("did not decode"); return
    }
    #expect(isRed(thumbnail.pixel(x: 5, y: 15)))
    #expect(pipeline.statistics.count(.exif) == 0 && pipeline.statistics.count(.dct) == 1)
}

@Test func dctScaleIsTheSmallestThatCoversTheBox() {
    #expect(TurboJPEGDecoder.scaledSize(width: 4000, height: 3000, covering: PixelSize(width: 128, height: 96)) == (500, 375))
    #expect(TurboJPEGDecoder.scaledSize(width: 4000, height: 3000, covering: PixelSize(width: 600, height: 450)) == (1000, 750))
    #expect(TurboJPEGDecoder.scaledSize(width: 4000, height: 3000, covering: PixelSize(width: 1500, height: 1125)) == (2000, 1500))
    #expect(TurboJPEGDecoder.scaledSize(width: 4000, height: 3000, covering: PixelSize(width: 3000, height: 2250)) == (4000, 3000))
    #expect(TurboJPEGDecoder.scaledSize(width: 1001, height: 7, covering: PixelSize(width: 100, height: 1)) == (126, 1))
}

@Test func secondRunComesFromTheDiskCacheAndFailuresAreRemembered() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("photos/a.jpg")
    try TestImages.jpeg(at: photo, width: 800, height: 600, color: (20, 200, 90))
    let png = try dir.file("photos/b.png")
    try TestImages.png(at: png, width: 300, height: 600)
    let broken = try dir.file("photos/c.jpg")
    try TestImages.bytes([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 7, count: 300), at: broken)
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let box = PixelSize(width: 40, height: 40)
    let first = ThumbnailPipeline.withCodecs(diskCache: cache)
    var pngFile = imageFile(png)
    pngFile.format = .png
    for file in [imageFile(photo), pngFile, imageFile(broken)] { _ = first.decode(file, fitting: box) }
    #expect(first.statistics.count(.dct) == 1 && first.statistics.count(.vips) == 1 && first.statistics.count(.failed) == 1)
    #expect(first.statistics.cacheWrites == 2)
    // The entries are at the standard size.
    let entry = try #require(
        cache.lookup(
            FreedesktopCache.Source(
                absolutePath: ImagePath(photo), modifiedSeconds: imageFile(photo).modified / 1_000_000_000,
                byteCount: imageFile(photo).byteCount), needing: 128))
    func be32(_ at: Int) -> Int { entry[at...].prefix(4).reduce(0) { $0 << 8 | Int($1) } }
    #expect(be32(16) == 128 && be32(20) == 96)  // IHDR width and height

    let second = ThumbnailPipeline.withCodecs(diskCache: cache)
    for file in [imageFile(photo), pngFile, imageFile(broken)] { _ = second.decode(file, fitting: box) }
    #expect(second.statistics.count(.diskCache) == 2)
    #expect(second.statistics.count(.dct) == 0 && second.statistics.count(.vips) == 0)
    #expect(second.statistics.count(.failed) == 1)
    #expect(second.statistics.cacheWrites == 0)
}

@Test func filesInsideTheCacheAreNotThumbnailed() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let inside = try dir.file("thumbnails/normal/x.jpg")
    try TestImages.jpeg(at: inside, width: 64, height: 64)
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: FreedesktopCache(root: ImagePath(dir.path + "/thumbnails")))
    guard case .failed(let failure) = pipeline.decode(imageFile(inside), fitting: PixelSize(width: 32, height: 32)) else {
        Issue.record("thumbnailed a cache file"); return
    }
    #expect(failure.message.contains("thumbnail cache"))
}

@Test func resamplingKeepsColourAndTurnsCorrectly() {
    let image = Thumbnail(width: 4, height: 2, pixels: TestImages.halves(width: 4, height: 2, left: (255, 0, 0), right: (0, 0, 255)))
    let small = image.downscaled(toFit: PixelSize(width: 2, height: 2))
    #expect(small.width == 2 && small.height == 1)
    #expect(small.pixel(x: 0, y: 0) == (255, 0, 0) && small.pixel(x: 1, y: 0) == (0, 0, 255))
    for orientation in 1...8 {
        let turned = image.oriented(orientation)
        #expect((turned.width, turned.height) == (orientation >= 5 ? (2, 4) : (4, 2)))
        // Every orientation is a permutation: the colours are all still there.
        #expect(turned.pixels.sorted() == image.pixels.sorted())
    }
    let right = image.oriented(6)  // clockwise: the left half goes to the top
    #expect(right.pixel(x: 0, y: 0) == (255, 0, 0) && right.pixel(x: 0, y: 3) == (0, 0, 255))
    let left = image.oriented(8)  // counter-clockwise: the left half goes to the bottom
    #expect(left.pixel(x: 0, y: 3) == (255, 0, 0) && left.pixel(x: 0, y: 0) == (0, 0, 255))
}

@Test func filesChangedAfterTheScanFailCleanly() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["a.jpg", "b.jpg", "c.jpg"] { try TestImages.jpeg(at: try dir.file(name), width: 640, height: 480) }
    let files = Scanner().scan([ImagePath(dir.path)]).folders.flatMap(\.files)
    #expect(files.count == 3)
    // Truncated, replaced by text, and deleted between the scan and the decode.
    let a = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/a.jpg"))
    try a.prefix(a.count / 3).write(to: URL(fileURLWithPath: dir.path + "/a.jpg"))
    try Data("no longer a picture".utf8).write(to: URL(fileURLWithPath: dir.path + "/b.jpg"))
    try FileManager.default.removeItem(atPath: dir.path + "/c.jpg")
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    let reasons = files.map { file -> String? in
        if case .failed(let failure) = pipeline.decode(file, fitting: PixelSize(width: 32, height: 32)) { return failure.message }
        return nil
    }
    #expect(reasons.allSatisfy { $0 != nil }, "\(reasons)")
    #expect(reasons[2]?.contains("No such file") == true)
}

/// `jpeg` with its frame header claiming `width` x `height`.
func claimingSize(_ jpeg: [UInt8], width: Int, height: Int) throws -> [UInt8] {
    var bytes = jpeg
    let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
    bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
    return bytes
}

@Test func anEmbeddedThumbnailIsBoundedLikeEveryPicture() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let main = try TestImages.jpegBytes(TestImages.halves(width: 1600, height: 1200, left: (255, 0, 0), right: (0, 0, 255)), width: 1600, height: 1200)
    let small = try TestImages.jpegBytes(TestImages.solid(width: 160, height: 120, 0, 255, 0), width: 160, height: 120)
    // The audit's thumbnail: its own header claims 65500x49125 (the photo's shape), decoded at 1/8 it took 150 MB.
    let lying = try claimingSize(small, width: 65500, height: 49125)
    let path = try dir.file("bomb.jpg")
    try TestImages.bytes(TestImages.withExif(main: main, thumbnail: lying, orientation: 1, thumbnailOffsetError: 0), at: path)
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    #expect(pipeline.exifThumbnail(imageFile(path), fitting: PixelSize(width: 40, height: 40)) == nil)
    let result = pipeline.decode(imageFile(path), fitting: PixelSize(width: 40, height: 40))
    guard case .decoded(let thumbnail) = result else { Issue.record("\(result)"); return }
    #expect(isRed(thumbnail.pixel(x: 5, y: 15)) && pipeline.statistics.count(.exif) == 0)
    // The decoder itself refuses what the limit refuses, whoever asks.
    let refused = TurboJPEGDecoder.decode(lying, width: 65500, height: 49125, covering: PixelSize(width: 40, height: 30), pixelLimit: 1_000_000)
    guard case .failed(let failure) = refused else { Issue.record("decoded a 3 GP picture"); return }
    #expect(failure.kind == .refused && failure.message.hasPrefix("too large"))
}

@Test func aDecoderProcessWritesItsCacheEntriesAfterAnsweringWhenNoRequestWaits() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("photo.jpg")
    try TestImages.bytes(
        try TestImages.jpegBytes(TestImages.halves(width: 1600, height: 1200, left: (255, 0, 0), right: (0, 0, 255)), width: 1600, height: 1200), at: path)
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    var pipeline = ThumbnailPipeline.withCodecs(diskCache: cache)
    pipeline.deferredWrites = DeferredCacheWrites()
    let file = imageFile(path)
    let source = FreedesktopCache.Source(
        absolutePath: FreedesktopCache.absolute(file.path), modifiedSeconds: file.modified / 1_000_000_000,
        byteCount: file.byteCount)
    // The decode answers without writing: the entry waits.
    guard case .decoded = pipeline.decode(file, fitting: PixelSize(width: 100, height: 100)) else { Issue.record("no thumbnail"); return }
    #expect(pipeline.deferredWrites?.count == 1 && cache.lookup(source, needing: 128) == nil)
    // Served as a decoder process is: the answer comes, then, with no request waiting, the entry lands.
    var ends: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    let served = pipeline, workerEnd = ends[1]
    final class Ended: @unchecked Sendable { var value = false }
    let ended = Ended()
    let worker = Thread {
        DecodeWorker.serve(input: workerEnd, output: workerEnd, pipeline: served)
        ended.value = true
    }
    worker.start()
    #expect(MessageChannel.write(DecodeMessage.encode(.decode(file, PixelSize(width: 90, height: 90))), to: ends[0]))
    guard case .success(let answerBody) = MessageChannel.read(from: ends[0], within: 5), let answer = DecodeMessage.response(from: answerBody)
    else { Issue.record("no answer"); return }
    var landed = false
    for _ in 0..<100 where !landed {
        landed = cache.lookup(source, needing: 128) != nil
        if !landed { Thread.sleep(forTimeInterval: 0.01) }
    }
    #expect(landed && pipeline.deferredWrites?.count == 0, "written once the process was idle")
    let leftovers = try FileManager.default.subpathsOfDirectory(atPath: dir.path + "/thumbnails").filter { $0.contains(".lightbox-") }
    #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
    // Asked to finish (the app quitting with --stats), it reports what it wrote since its last
    // answer, which no answer carried: every write it made is counted once. Then it ends.
    #expect(MessageChannel.write(DecodeMessage.encode(.finish), to: ends[0]))
    guard case .success(let body) = MessageChannel.read(from: ends[0], within: 5), let response = DecodeMessage.response(from: body) else {
        Issue.record("no answer to finish"); return
    }
    let written = pipeline.statistics.counts.writes
    #expect(response.body == .finished && written > 0 && answer.counts.writes + response.counts.writes == written, "\(written) written")
    for _ in 0..<100 where !ended.value { Thread.sleep(forTimeInterval: 0.01) }
    #expect(ended.value, "the worker ended after finishing")
    close(ends[0])
    close(ends[1])
}
