import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A picture whose every pixel differs: where a part came from shows in its values.
func numbered(width: Int, height: Int) -> Thumbnail {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for i in 0..<(width * height) { (pixels[i * 3], pixels[i * 3 + 1], pixels[i * 3 + 2]) = (UInt8(i % 256), UInt8(i / 256 % 256), UInt8(i / 65536 % 256 + 7)) }
    return Thumbnail(width: width, height: height, pixels: pixels)
}

/// Four quarters of four colours: top-left red, top-right blue, bottom-left green, bottom-right white.
func quarters(width: Int, height: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let c: (UInt8, UInt8, UInt8) =
                y < height / 2 ? (x < width / 2 ? (250, 0, 0) : (0, 0, 250)) : (x < width / 2 ? (0, 250, 0) : (250, 250, 250))
            (pixels[(y * width + x) * 3], pixels[(y * width + x) * 3 + 1], pixels[(y * width + x) * 3 + 2]) = c
        }
    }
    return pixels
}

/// The mean difference of two pictures' values, or nil when their sizes differ.
func meanDifference(_ a: Thumbnail, _ b: Thumbnail) -> Double? {
    guard a.width == b.width, a.height == b.height else { return nil }
    return Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
}

/// A part of the upright picture is the part `source(underOrientation:)` names of the stored
/// one, oriented: for every EXIF orientation and every turn of the view.
@Test func aRegionMapsThroughEveryOrientationAsThePictureDoes() {
    let stored = numbered(width: 8, height: 12)
    let quarter = PhotoRegion.one / 4
    for region in [
        PhotoRegion(x: quarter, y: 0, width: 2 * quarter, height: 2 * quarter), PhotoRegion(x: 0, y: 3 * quarter, width: quarter, height: quarter),
        .whole,
    ] {
        for orientation in 1...8 {
            let upright = stored.oriented(orientation).cropped(to: region)
            let fromStored = stored.cropped(to: region.source(underOrientation: orientation)).oriented(orientation)
            #expect(upright == fromStored, "orientation \(orientation), \(region)")
        }
        for turns in 0...3 {
            #expect(stored.turned(turns).cropped(to: region) == stored.cropped(to: region.unturned(turns)).turned(turns), "\(turns) turns")
        }
    }
    #expect(PhotoRegion(fromX: 0.25, y: 0.5, toX: 0.75, y: 1) == PhotoRegion(x: quarter, y: 2 * quarter, width: 2 * quarter, height: 2 * quarter))
    #expect(PhotoRegion.whole.contains(PhotoRegion(x: 5, y: 5, width: 10, height: 10)) && !PhotoRegion(x: 5, y: 5, width: 10, height: 10).contains(.whole))
    #expect(PhotoRegion(x: -5, y: 70_000, width: 1 << 20, height: 0) == PhotoRegion(x: 0, y: PhotoRegion.one - 1, width: PhotoRegion.one, height: 1))
}

/// A JPEG's part (the file turned by its EXIF orientation) is cut out and decoded at full
/// resolution: the same pixels as the whole photo decoded and cut, or fitted to a smaller box.
@Test func aJPEGsPartIsDecodedAtFullResolutionThroughItsOrientation() throws {
    let folder = NSTemporaryDirectory() + "lightbox-region-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/big.jpg"
    try ImageEncoder.write(quarters(width: 1600, height: 1200), width: 1600, height: 1200, to: path, as: .jpeg(quality: 95, orientation: 6))
    let pipeline = ThumbnailPipeline(codecs: nil, diskCache: nil)
    let file = imageFile(path)
    guard case .decoded(let whole) = pipeline.decode(file, fitting: PixelSize(width: 4096, height: 4096)) else {
        Issue.record("the whole photo did not decode")
        return
    }
    #expect(whole.width == 1200 && whole.height == 1600, "upright")
    // Turned a quarter clockwise, the stored top-left (red) is at the upright top-right.
    let region = PhotoRegion(fromX: 0.3, y: 0.1, toX: 0.9, y: 0.45)
    guard case .decoded(let part) = pipeline.decodeRegion(file, region: region, fitting: PixelSize(width: 4096, height: 4096)) else {
        Issue.record("the part did not decode")
        return
    }
    let expected = whole.cropped(to: region)
    // 720 x 560 of the photo's pixels, its edges rounded out to whole pixels.
    #expect(part.width == expected.width && part.height == expected.height && abs(part.width - 720) <= 2 && abs(part.height - 560) <= 2)
    let difference = meanDifference(part, expected) ?? 99
    #expect(difference < 2, "the same pixels as the whole photo's: \(difference)")
    #expect(isRed(part.pixel(x: part.width - 1, y: 0)) && isRed(part.pixel(x: part.width - 1, y: part.height - 1)))
    #expect(isGreen(part.pixel(x: 0, y: 0)))
    // Fitted to a smaller box: decoded at a DCT scale, still the same place.
    guard case .decoded(let small) = pipeline.decodeRegion(file, region: region, fitting: PixelSize(width: 180, height: 180)) else {
        Issue.record("the small part did not decode")
        return
    }
    #expect(small.width == 180 && abs(small.height - 140) <= 1)
    let shrunk = expected.downscaled(toFit: PixelSize(width: 180, height: 180)).cropped(x: 0, y: 0, width: 180, height: small.height)
    let smallDifference = meanDifference(small.cropped(x: 0, y: 0, width: 180, height: shrunk.height), shrunk) ?? 99
    #expect(smallDifference < 8, "the same place, smaller: \(smallDifference)")
    // Not a JPEG at all: said, not crashed.
    try TestImages.bytes(Array("not a photo".utf8), at: folder + "/bad.jpg")
    guard case .failed = pipeline.decodeRegion(imageFile(folder + "/bad.jpg"), region: region, fitting: PixelSize(width: 100, height: 100)) else {
        Issue.record("a bad file decoded")
        return
    }
}

/// Other kinds go to libvips: a PNG's part is the whole picture's, cut.
@Test func aPNGsPartIsDecodedByLibvips() throws {
    let folder = NSTemporaryDirectory() + "lightbox-region-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/big.png"
    let picture = numbered(width: 640, height: 480)
    try ImageEncoder.write(picture.pixels, width: 640, height: 480, to: path, as: .png)
    var file = imageFile(path)
    file.format = .png
    let region = PhotoRegion(fromX: 0.5, y: 0.25, toX: 0.75, y: 1)
    #expect(
        ThumbnailPipeline(codecs: nil, diskCache: nil).decodeRegion(file, region: region, fitting: PixelSize(width: 999, height: 999)) == .failed(.needsCodecs))
    let pipeline = ThumbnailPipeline(codecs: LinkedCodecs(), diskCache: nil)
    guard case .decoded(let part) = pipeline.decodeRegion(file, region: region, fitting: PixelSize(width: 999, height: 999)) else {
        Issue.record("the part did not decode")
        return
    }
    #expect(part == picture.cropped(to: region))
}

/// A part's request travels to a decoder process and back whole; a malformed one is refused.
@Test func aRegionRequestRoundTrips() {
    let request = DecodeMessage.Request.decodeRegion(someFile, PixelSize(width: 1600, height: 960), PhotoRegion(x: 100, y: 200, width: 3000, height: 4000))
    let body = Array(DecodeMessage.encode(request).dropFirst(4))
    #expect(DecodeMessage.request(from: body) == request)
    // A region past the photo's edge.
    var bad = body
    bad[26..<30] = [0xFF, 0xFF, 0, 0]
    bad[34..<38] = [0xFF, 0xFF, 0, 0]
    #expect(DecodeMessage.request(from: bad) == nil)
}

/// A clip's request travels to a decoder process and back whole; a malformed one is refused.
@Test func aClipRequestRoundTrips() {
    let request = DecodeMessage.Request.decodeClip(someFile, PixelSize(width: 1600, height: 960), start: 83_000)
    let body = Array(DecodeMessage.encode(request).dropFirst(4))
    #expect(DecodeMessage.request(from: body) == request)
    #expect(DecodeMessage.request(from: Array(body.prefix(28))) == nil, "cut before its start")
}

/// A part of a photo is kept in memory under its own key and never stands in for the whole.
@Test func aPartNeverStandsInForTheWholePhoto() {
    var cache = ThumbnailCache(budget: 1 << 20)
    let whole = ThumbnailKey(file: someFile, box: PixelSize(width: 40, height: 30))
    let part = ThumbnailKey(file: someFile, box: PixelSize(width: 40, height: 30), region: PhotoRegion(x: 0, y: 0, width: 100, height: 100))
    cache.insert(Thumbnail(width: 4, height: 3, pixels: [UInt8](repeating: 1, count: 36)), for: whole)
    cache.insert(Thumbnail(width: 4, height: 3, pixels: [UInt8](repeating: 2, count: 36)), for: part)
    #expect(cache.closest(to: ThumbnailKey(file: someFile, box: PixelSize(width: 80, height: 60)))?.pixels.first == 1)
    #expect(cache.peek(part)?.pixels.first == 2)
    // Nor do a video's clip or an animation's frames, one above the other.
    for key in [
        ThumbnailKey(file: someFile, box: PixelSize(width: 40, height: 30), clipStart: 0),
        ThumbnailKey(file: someFile, box: PixelSize(width: 40, height: 30), isAnimated: true),
    ] {
        cache.insert(Thumbnail(width: 4, height: 3, pixels: [UInt8](repeating: 3, count: 36)), for: key)
        #expect(cache.closest(to: ThumbnailKey(file: someFile, box: PixelSize(width: 80, height: 60)))?.pixels.first == 1)
    }
}
