import Foundation
import LightboxCodecs
import LightboxTestSupport
import LightboxThumbnails
import Testing

func file(_ path: String, format: ImageFormat = .jpeg) -> ImageFile {
    ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: format)
}

func decoded(_ result: DecodeResult) -> Thumbnail? {
    if case .decoded(let thumbnail) = result { return thumbnail }
    return nil
}

func failure(_ result: DecodeResult) -> String? {
    if case .failed(let failure) = result { return failure.message }
    return nil
}

@Test func jpegShrinksIntoTheBoxKeepingItsAspectRatio() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("wide.jpg")
    try TestImages.jpeg(at: path, width: 800, height: 400, color: (200, 60, 40))
    let thumbnail = try #require(decoded(VipsDecoder().decode(file(path), fitting: PixelSize(width: 40, height: 40))))
    #expect(thumbnail.width == 40 && thumbnail.height == 20)
    let (r, g, b) = thumbnail.pixel(x: 20, y: 10)
    #expect(abs(Int(r) - 200) < 12 && abs(Int(g) - 60) < 12 && abs(Int(b) - 40) < 12)
}

@Test func pngDecodes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("tall.png")
    try TestImages.png(at: path, width: 100, height: 300, color: (40, 120, 220))
    let thumbnail = try #require(decoded(VipsDecoder().decode(file(path, format: .png), fitting: PixelSize(width: 30, height: 30))))
    #expect(thumbnail.width == 10 && thumbnail.height == 30)
    #expect(thumbnail.pixel(x: 5, y: 15) == (40, 120, 220))
}

@Test func exifOrientationIsApplied() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("rotated.jpg")
    // Stored 200x100, left half red, right half blue; orientation 6 means "rotate 90° clockwise to view".
    let pixels = TestImages.halves(width: 200, height: 100, left: (255, 0, 0), right: (0, 0, 255))
    try ImageEncoder.write(pixels, width: 200, height: 100, to: path, as: .jpeg(quality: 95, orientation: 6))
    let thumbnail = try #require(decoded(VipsDecoder().decode(file(path), fitting: PixelSize(width: 100, height: 100))))
    #expect(thumbnail.width == 50 && thumbnail.height == 100)
    // After turning clockwise, the stored left half (red) is on top.
    #expect(thumbnail.pixel(x: 25, y: 10).0 > 200 && thumbnail.pixel(x: 25, y: 10).2 < 60)
    #expect(thumbnail.pixel(x: 25, y: 90).2 > 200 && thumbnail.pixel(x: 25, y: 90).0 < 60)
}

@Test func corruptTruncatedEmptyAndHugeFilesFailWithAReason() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let good = try dir.file("good.jpg")
    try TestImages.jpeg(at: good, width: 640, height: 480)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: good)))

    let corrupt = try dir.file("corrupt.jpg")
    try TestImages.bytes([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x41, count: 500), at: corrupt)
    let truncated = try dir.file("truncated.jpg")
    try TestImages.bytes(Array(bytes.prefix(bytes.count / 2)), at: truncated)
    let empty = try dir.file("empty.jpg")
    try TestImages.bytes([], at: empty)

    let decoder = VipsDecoder()
    let box = PixelSize(width: 32, height: 32)
    for path in [corrupt, truncated, empty] {
        let reason = failure(decoder.decode(file(path), fitting: box))
        #expect(reason != nil && !reason!.isEmpty, "\(path) should fail")
    }
    #expect(failure(decoder.decode(file(dir.path + "/missing.jpg"), fitting: box))?.contains("No such file") == true)
    #expect(failure(decoder.decode(file(dir.path), fitting: box)) == "not a regular file")

    let small = VipsDecoder(limits: DecodeLimits(pixelLimit: 100_000))
    let reason = try #require(failure(small.decode(file(good), fitting: box)))
    #expect(reason.hasPrefix("too large: 640x480"))
}

@Test func formatsAreRecognisedByContent() {
    #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE1]) == .jpeg)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
    #expect(ImageFormat(sniffing: Array("GIF89a".utf8)) == .gif)
    #expect(ImageFormat(sniffing: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
    #expect(ImageFormat(sniffing: [0, 0, 0, 0x18] + Array("ftypavif".utf8)) == .heif)
    #expect(ImageFormat(sniffing: Array("<svg xmlns=".utf8)) == nil)
    #expect(ImageFormat(sniffing: Array("P6\n".utf8)) == nil)
}

/// A 40x40 PNG: transparent, with an opaque red square in the middle and a half-covered blue
/// band at the top (ImageMagick, as a user's logo or screenshot would be made).
func translucentPNG(in dir: TemporaryDirectory) throws -> String {
    let path = try dir.file("logo.png")
    try runTool([
        "convert", "-size", "40x40", "xc:none", "-fill", "rgb(200,0,0)", "-draw", "rectangle 10,10 29,29",
        "-fill", "rgba(0,0,200,0.5)", "-draw", "rectangle 0,0 39,4", "PNG32:" + path,
    ])
    return path
}

@Test func aTransparentPNGKeepsItsAlphaToTheAppAndOntoAnyGround() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try translucentPNG(in: dir)
    let byLibvips = try #require(decoded(VipsDecoder().decode(file(path, format: .png), fitting: PixelSize(width: 40, height: 40))))
    let byOurs = try #require(PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
    for thumbnail in [byLibvips, byOurs] {
        let alpha = try #require(thumbnail.alpha, "the alpha is kept")
        #expect(alpha[39 * 40] == 0 && thumbnail.pixel(x: 0, y: 39) == (0, 0, 0), "a clear corner: no colour, no cover")
        #expect(alpha[20 * 40 + 20] == 255 && thumbnail.pixel(x: 20, y: 20) == (200, 0, 0), "the square as it is")
        #expect(abs(Int(alpha[2 * 40 + 2]) - 128) <= 1 && abs(Int(thumbnail.pixel(x: 2, y: 2).2) - 100) <= 1, "the band half covered, premultiplied")
        let white = thumbnail.flattened(onto: 0xFFFFFF), black = thumbnail.flattened(onto: 0x000000)
        #expect(white.pixel(x: 0, y: 39) == (255, 255, 255) && black.pixel(x: 0, y: 39) == (0, 0, 0), "the ground shows through")
        #expect(white.pixel(x: 20, y: 20) == (200, 0, 0) && black.pixel(x: 20, y: 20) == (200, 0, 0))
        let band = white.pixel(x: 2, y: 2)
        #expect(abs(Int(band.0) - 127) <= 2 && abs(Int(band.2) - 227) <= 2, "half blue over white: \(band)")
    }
    // Shrunk and turned, the cover goes with the colours.
    let small = byOurs.downscaled(toFit: PixelSize(width: 20, height: 20))
    #expect(small.alpha?.count == 400 && small.alpha?[19 * 20] == 0 && small.alpha?[10 * 20 + 10] == 255)
    let turned = byOurs.oriented(3)
    #expect(turned.alpha?[0] == 0 && turned.alpha?[39 * 40 + 39] != 0, "upside down: the clear corner at the top")
}
