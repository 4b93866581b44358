import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// Pictures of known values: the levels counted, luma by Rec. 709, what is clipped at any
/// thresholds read from the counts.
@Test func theHistogramCountsKnownPictures() {
    // Left half black, right half white: half at 0 and half at 255 in every channel.
    let halves = Thumbnail(width: 10, height: 4, pixels: TestImages.halves(width: 10, height: 4, left: (0, 0, 0), right: (255, 255, 255)))
    let h = Histogram(of: halves)
    #expect(h.total == 40 && h.luma[0] == 20 && h.luma[255] == 20 && h.red[0] == 20 && h.blue[255] == 20)
    #expect(h.share(h.luma, atLeast: 250) == 0.5 && h.share(h.luma, atMost: 5) == 0.5 && h.share(h.green, atLeast: 256) == 0.5)
    // Pure red: its luma is 0.2126 of full, 54; only red is blown.
    let red = Histogram(of: Thumbnail(width: 3, height: 3, pixels: TestImages.solid(width: 3, height: 3, 255, 0, 0)))
    #expect(red.luma[54] == 9 && red.share(red.red, atLeast: 250) == 1 && red.share(red.green, atLeast: 250) == 0)
    #expect(red.binned(red.red, into: 4) == [0, 0, 0, 9] && red.binned(red.luma, into: 4) == [9, 0, 0, 0])
    // A grey ramp over every level: one pixel each.
    let ramp = Thumbnail(width: 256, height: 1, pixels: (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0)] })
    let r = Histogram(of: ramp)
    #expect(r.luma.allSatisfy { $0 == 1 } && abs(r.share(r.luma, atLeast: 250) - 6.0 / 256) < 1e-9)
}

/// The clipping marks: red where any channel is at the highlights' level or above, blue where
/// every channel is at the shadows' or below, the rest unchanged; thresholds parsed as given.
@Test func clippingMarksBlownAndBlockedPixels() {
    let t = ClippingThresholds(shadows: 5, highlights: 250)
    let marked = t.marking([255, 10, 10, 3, 4, 5, 100, 120, 130, 6, 0, 0])
    #expect(Array(marked[0..<3]) == [255, 0, 0] && Array(marked[3..<6]) == [0, 80, 255])
    #expect(Array(marked[6..<9]) == [100, 120, 130] && Array(marked[9..<12]) == [6, 0, 0], "one channel above the shadows' level is not blocked")
    #expect(ClippingThresholds(parsing: "3, 252") == ClippingThresholds(shadows: 3, highlights: 252))
    for bad in ["250,5", "5", "-1,250", "5,256", "a,b", "5,250,1"] { #expect(ClippingThresholds(parsing: bad) == nil, "\(bad)") }
}

/// The provider measures the histogram when asked, on the picture as shown (flattened, turned).
@Test func theProviderMeasuresTheHistogramWhenAsked() {
    let provider = ThumbnailProvider(decoder: WideDecoder(), workers: 1)
    defer { provider.shutdown() }
    let file = ImageFile(path: ImagePath("wide"), byteCount: 0, modified: 0, format: .jpeg)
    var request = DecodeRequest(id: ItemID(0), file: file, box: PixelSize(width: 4, height: 2))
    request.wantsHistogram = true
    let plain = DecodeRequest(id: ItemID(1), file: file, box: PixelSize(width: 4, height: 3))
    provider.request([request, plain])
    var results: [(DecodeRequest, DecodeResult)] = []
    waitUntil {
        results += provider.takeResults(); return results.count == 2
    }
    for (asked, result) in results {
        guard case .decoded(let thumbnail) = result else { Issue.record("no picture"); continue }
        if asked.wantsHistogram {
            #expect(thumbnail.histogram == Histogram(of: thumbnail) && thumbnail.histogram?.total == thumbnail.width * thumbnail.height)
        } else {
            #expect(thumbnail.histogram == nil)
        }
    }
}

/// Exposure compensation as a camera writes it (exiftool here): a signed rational, in EV.
@Test func exposureCompensationIsRead() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lightbox-bias-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/bias.jpg"
    try runTool(["convert", "-size", "30x20", "xc:#336699", path])
    try runTool(["exiftool", "-q", "-overwrite_original", "-ExposureCompensation=-0.7", path])
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let read = MetadataReader.read(MetadataRequest(id: ItemID(0), file: ImageFile(path: ImagePath(path), byteCount: Int64(size), modified: 0, format: .jpeg)))
    #expect(abs((read.metadata?.exposureBias ?? 0) + 0.7) < 0.01)
}
