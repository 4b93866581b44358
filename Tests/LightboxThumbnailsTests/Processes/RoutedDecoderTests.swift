import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A decoder that names itself in what it makes and counts what it was asked.
final class NamedDecoder: ThumbnailDecoding, CacheWarming, @unchecked Sendable {
    let answer: DecodeResult
    private let lock = NSLock()
    private var asked: [String] = []
    init(answer: DecodeResult) { self.answer = answer }
    var files: [String] { lock.lock(); defer { lock.unlock() }; return asked }
    func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        lock.lock(); asked.append(file.path.description); lock.unlock()
        return answer
    }
    func warm(_ file: ImageFile, size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome {
        lock.lock(); asked.append(file.path.description); lock.unlock()
        if case .failed(let failure) = answer, failure.kind == .needsCodecs { return .needsCodecs }
        return .written
    }
}

/// JPEGs and RAW previews go to the app's own decoders; HEIC, PNG and video to lightbox-decode,
/// and so does a RAW the app's decoder finds it cannot do (no preview to show).
@Test func eachFileGoesToTheDecoderThatCanMakeIt() {
    let pixel = DecodeResult.decoded(Thumbnail(width: 1, height: 1, pixels: [1, 2, 3]))
    func file(_ name: String, _ format: ImageFormat) -> ImageFile { ImageFile(path: ImagePath(name), byteCount: 1, modified: 0, format: format) }
    let core = NamedDecoder(answer: pixel), codecs = NamedDecoder(answer: pixel)
    let routed = RoutedDecoder(core: core, codecs: codecs)
    for (name, format) in [("a.jpg", ImageFormat.jpeg), ("b.heic", .heif), ("c.png", .png), ("d.mp4", .quickTime), ("e.dng", .cameraRaw)] {
        _ = routed.decode(file(name, format), fitting: PixelSize(width: 8, height: 8))
    }
    _ = routed.warm(file("f.jpg", .jpeg), size: .normal)
    #expect(core.files == ["a.jpg", "e.dng", "f.jpg"])
    #expect(codecs.files == ["b.heic", "c.png", "d.mp4"])

    let unable = NamedDecoder(answer: .failed(.needsCodecs)), able = NamedDecoder(answer: pixel)
    let rerouted = RoutedDecoder(core: unable, codecs: able)
    #expect(rerouted.decode(file("g.dng", .cameraRaw), fitting: PixelSize(width: 8, height: 8)) == pixel)
    #expect(rerouted.warm(file("h.dng", .cameraRaw), size: .normal) == .written)
    #expect(unable.files == ["g.dng", "h.dng"] && able.files == ["g.dng", "h.dng"])
}

/// Without the image libraries a pipeline still reads JPEGs, and says `.needsCodecs` (counted as
/// no failure) for a PNG, which a pipeline with them then decodes.
@Test func aPipelineWithoutCodecsAsksForThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try dir.file("a.jpg"), png = try dir.file("b.png")
    try TestImages.jpeg(at: jpeg, width: 400, height: 300, color: (10, 20, 230))
    try TestImages.png(at: png, width: 40, height: 30, color: (200, 20, 30))
    let statistics = DecodeStatistics()
    let core = ThumbnailPipeline(codecs: nil, diskCache: nil, statistics: statistics)
    let box = PixelSize(width: 40, height: 40)
    guard case .decoded = core.decode(ImageFile(path: ImagePath(jpeg), byteCount: 0, modified: 0, format: .jpeg), fitting: box) else {
        Issue.record("no JPEG without codecs"); return
    }
    let pngFile = ImageFile(path: ImagePath(png), byteCount: 0, modified: 0, format: .png)
    #expect(core.decode(pngFile, fitting: box) == .failed(.needsCodecs))
    #expect(statistics.count(.failed) == 0 && statistics.count(.dct) == 1)
    let routed = RoutedDecoder(core: core, codecs: ThumbnailPipeline.withCodecs(diskCache: nil, statistics: statistics))
    guard case .decoded(let thumbnail) = routed.decode(pngFile, fitting: box) else { Issue.record("the PNG was not decoded"); return }
    #expect(thumbnail.width == 40 && thumbnail.pixels.prefix(3).elementsEqual([200, 20, 30]))
    #expect(statistics.count(.vips) == 1)
}

@Test func eachKindIsRoutedAsItsRowSays() {
    let file = { (format: ImageFormat) in ImageFile(path: ImagePath("x"), byteCount: 1, modified: 0, format: format) }
    let ours = ImageFormat.allCases.filter { RoutedDecoder.coreCanTry(file($0)) }
    #expect(ours == [.jpeg, .cameraRaw], "JPEG and RAW previews by our own code first; the rest by the libraries")
    let oursAnimated = ImageFormat.allCases.filter { RoutedDecoder.coreCanTry(file($0), frames: true) }
    #expect(oursAnimated == [.jpeg, .png, .cameraRaw], "an APNG's frames by our own decoder")
    #expect(ImageFormat.allCases.filter(\.mayAnimate) == [.png, .gif, .webp])
}
