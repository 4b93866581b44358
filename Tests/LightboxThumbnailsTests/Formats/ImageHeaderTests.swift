import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

/// A GIF whose screen is 10x10 but whose one frame claims 65535x65535: the 35-byte bomb.
let gifBomb: [UInt8] =
    Array("GIF89a".utf8) + le16(10) + le16(10) + [0, 0, 0]
    + [0x2C] + le16(0) + le16(0) + le16(65535) + le16(65535) + [0] + [2, 2, 0x4C, 0x01, 0] + [0x3B]

@Test func dimensionsOfEveryFormatFromTheirHeaders() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let png = try dir.file("a.png")
    try TestImages.png(at: png, width: 123, height: 45)
    #expect(ImageHeader.dimensions(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: png))), format: .png)! == (123, 45))
    let jpeg = try dir.file("a.jpg")
    try TestImages.jpeg(at: jpeg, width: 77, height: 66)
    #expect(ImageHeader.dimensions(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg))), format: .jpeg)! == (77, 66))

    #expect(ImageHeader.dimensions(of: gifBomb, format: .gif)! == (65535, 65535))
    let vp8x: [UInt8] =
        Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0x0F, 0, 0] + [0, 0, 0, 0]
    #expect(ImageHeader.dimensions(of: vp8x, format: .webp)! == (0x1000000, 16))
    let vp8: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x9D, 0x01, 0x2A] + le16(640) + le16(480) + [0, 0]
    #expect(ImageHeader.dimensions(of: vp8, format: .webp)! == (640, 480))
    let tiff: [UInt8] =
        [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0] + le16(2)
        + le16(256) + le16(4) + [1, 0, 0, 0] + [0x40, 0x9C, 0, 0]  // width 40000 (LONG)
        + le16(257) + le16(3) + [1, 0, 0, 0] + le16(30000) + [0, 0]  // height 30000 (SHORT)
    #expect(ImageHeader.dimensions(of: tiff, format: .tiff)! == (40000, 30000))
    let heif: [UInt8] =
        [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 12)
        + be32(20) + Array("ispe".utf8) + [0, 0, 0, 0] + be32(8000) + be32(6000)
        + be32(20) + Array("ispe".utf8) + [0, 0, 0, 0] + be32(320) + be32(240)
    #expect(ImageHeader.dimensions(of: heif, format: .heif)! == (8000, 6000))
}

@Test func headersThatLieOrEndEarlyNeverReadOutOfBounds() {
    // A GIF cut before its screen size and flags (11 bytes) has none; the PNG is no PNG; the TIFF's
    // directory lies outside the file: nothing is found, however much of each there is.
    let samples: [(ImageFormat, [UInt8], shortest: Int?)] = [
        (.gif, gifBomb, 11), (.png, Array(repeating: 0x89, count: 30), nil),
        (.tiff, [0x4D, 0x4D, 0, 0x2A, 0xFF, 0xFF, 0xFF, 0xFF], nil),
    ]
    for (format, bytes, shortest) in samples {
        for cut in 0...bytes.count {
            let found = ImageHeader.dimensions(of: Array(bytes.prefix(cut)), format: format)
            #expect((found != nil) == (shortest.map { cut >= $0 } ?? false), "\(format) cut at \(cut)")
        }
    }
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
        let junk = (0..<Int.random(in: 0..<80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for format in ImageFormat.allCases {
            if let (width, height) = ImageHeader.dimensions(of: junk, format: format) { #expect(width >= 0 && height >= 0) }
        }
    }
}

@Test func bombsAndEmptyImagesAreRefusedBeforeAnyLibrarySeesThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let bomb = try dir.file("bomb.gif")
    try TestImages.bytes(gifBomb, at: bomb)
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    let result = pipeline.decode(ImageFile(path: ImagePath(bomb), byteCount: 35, modified: 0, format: .gif), fitting: PixelSize(width: 32, height: 32))
    #expect(result == .failed(.refused("too large: 65535x65535 (4294 MP, limit 100 MP)")))
    let empty = try dir.file("empty.png")
    try TestImages.bytes(PNGText.signature + be32(13) + Array("IHDR".utf8) + be32(0) + be32(10) + [8, 2, 0, 0, 0, 0, 0, 0, 0], at: empty)
    let none = pipeline.decode(ImageFile(path: ImagePath(empty), byteCount: 0, modified: 0, format: .png), fitting: PixelSize(width: 32, height: 32))
    #expect(none == .failed(.refused("image has no pixels (0x10)")))
}

@Test func sizesWhoseProductOverflowsAreRefusedNotATrap() throws {
    // Found by make fuzz (target header): two ispe boxes of 4,000,000,000 x 4,000,000,000.
    let huge: [UInt8] =
        [0, 0, 0, 0] + be32(20) + Array("ispe".utf8) + [0, 0, 0, 0] + [0xEE, 0x6B, 0x28, 0x00, 0xEE, 0x6B, 0x28, 0x00]
        + be32(20) + Array("ispe".utf8) + [0, 0, 0, 0] + [0xEE, 0x6B, 0x28, 0x00, 0xEE, 0x6B, 0x28, 0x00]
    #expect(ImageHeader.dimensions(of: huge, format: .heif)! == (4_000_000_000, 4_000_000_000))
    #expect(ImageHeader.pixelCount(4_000_000_000, 4_000_000_000) == .max)
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("huge.png")
    try TestImages.bytes(
        PNGText.signature + be32(13) + Array("IHDR".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [8, 2, 0, 0, 0, 0, 0, 0, 0], at: path)
    let result = ThumbnailPipeline.withCodecs(diskCache: nil).decode(
        ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: .png),
        fitting: PixelSize(width: 8, height: 8))
    guard case .failed(let failure) = result else { Issue.record("decoded"); return }
    #expect(failure.kind == .refused && failure.message.hasPrefix("too large: 4294967295x4294967295"))
}

@Test func everyKindOfFileIsOneRowOfTheTable() throws {
    #expect(ImageFormat.table.map(\.format) == ImageFormat.allCases)
    // A kind's traits are its own row's.
    #expect(ImageFormat.table.allSatisfy { $0.format.traits.title == $0.traits.title && $0.format.traits.extensions == $0.traits.extensions })
    // Each kind's signature is its own: a sample of each is sniffed as that kind and no other.
    let samples: [ImageFormat: [UInt8]] = [
        .jpeg: [0xFF, 0xD8, 0xFF, 0xE0], .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .gif: Array("GIF89a".utf8),
        .webp: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8), .tiff: [0x4D, 0x4D, 0x00, 0x2A],
        .heif: [0, 0, 0, 0x18] + Array("ftypavif".utf8),
        .cameraRaw: [0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0] + Array("CR".utf8) + [2, 0], .jpegXL: [0xFF, 0x0A],
        .jpeg2000: [0, 0, 0, 0x0C] + Array("jP  ".utf8) + [0x0D, 0x0A, 0x87, 0x0A],
        .quickTime: [0, 0, 0, 0x18] + Array("ftypisom".utf8), .matroska: [0x1A, 0x45, 0xDF, 0xA3],
        .avi: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI LIST".utf8),
    ]
    // QuickTime files without an ftyp box start with their boxes; sound-only MP4s are not videos.
    #expect(ImageFormat(sniffing: [0, 0, 0, 8] + Array("wide".utf8) + [0, 0, 0, 0]) == .quickTime)
    #expect(ImageFormat(sniffing: [0, 0, 0, 0x18] + Array("ftypM4A ".utf8)) == nil)
    for format in ImageFormat.allCases {
        let sample = samples[format]! + [UInt8](repeating: 0, count: 8)
        #expect(ImageFormat(sniffing: sample) == format)
        #expect(ImageFormat.table.filter { $0.traits.matches(sample) }.map(\.format) == [format])
    }
    #expect(
        ImageFormat.extensions == [
            "jpg", "jpeg", "jpe", "png", "gif", "webp", "dng", "cr2", "cr3", "nef", "nrw", "arw", "sr2", "srf", "raf", "orf", "rw2", "pef", "srw", "raw",
            "tif", "tiff", "heic", "heif", "avif",
            "jxl", "jp2", "j2k", "j2c", "jpf", "jpx", "mp4", "mov", "m4v", "3gp", "3g2", "qt", "mkv", "webm", "avi",
        ])
    #expect(ImageFormat.allCases.filter { $0.traits.decoding == .dctScaled } == [.jpeg])
    // A JPEG's EXIF read by each kind's metadata reader: those of the kinds that keep EXIF find it.
    let photo = TestImages.withMetadata(main: try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 1, 2, 3), width: 8, height: 8), TestMetadata())
    #expect(ImageFormat.allCases.filter { $0.traits.metadata(FileBytes(photo))?.dateTaken != nil } == [.jpeg, .cameraRaw, .tiff])
}
