import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

private func photo(_ metadata: TestMetadata) throws -> [UInt8] {
    TestImages.withMetadata(main: try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 1, 2, 3), width: 8, height: 8), metadata)
}

@Test func exifMetadataIsRead() throws {
    let metadata = try #require(ImageMetadata(parsing: try photo(TestMetadata())))
    #expect(metadata.make == "Lightbox" && metadata.model == "Test Camera 1" && metadata.lens == "Test Lens 35mm")
    #expect(metadata.dateTaken == "2024:05:17 23:30:05")
    #expect(metadata.exposure == ImageMetadata.Fraction(numerator: 1, denominator: 250))
    #expect(metadata.fNumber == 2.8 && metadata.iso == 400 && metadata.focalLength == 35 && metadata.hasGPS)
    // 2024-05-17 is day 19,860 since 1970.
    let expected: Int64 = 19_860 * 86_400 + 84_605
    #expect(metadata.dateTakenSeconds == expected)
}

@Test func missingAndLyingExifGivesNilFieldsNotACrash() throws {
    var sparse = TestMetadata()
    sparse.make = nil; sparse.lens = nil; sparse.exposure = nil; sparse.hasGPS = false; sparse.dateTaken = "garbage"
    let metadata = try #require(ImageMetadata(parsing: try photo(sparse)))
    #expect(metadata.make == nil && metadata.lens == nil && metadata.exposure == nil && !metadata.hasGPS)
    #expect(metadata.model == "Test Camera 1" && metadata.dateTakenSeconds == nil)
    let plain = ImageMetadata(parsing: try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 1, 2, 3), width: 8, height: 8))
    #expect(plain?.dateTaken == nil && plain?.make == nil)
    #expect(ImageMetadata(parsing: Array("GIF89a".utf8)) == nil)
    let data = try photo(TestMetadata())
    for cut in stride(from: 0, to: 400, by: 3) { _ = ImageMetadata(parsing: Array(data.prefix(cut))) }
    var flipped = data
    for i in stride(from: 20, to: 300, by: 7) {
        flipped[i] ^= 0xFF
        _ = ImageMetadata(parsing: flipped)
    }
}

/// A phone's portrait photo is stored landscape with orientation 6: shown, it is portrait. The
/// file is ImageMagick's, its EXIF exiftool's, as a camera or phone would leave them.
@Test func theShownSizeTurnsWithTheOrientation() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lightbox-orientation-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/turned.jpg"
    try runTool(["convert", "-size", "60x40", "xc:#336699", path])
    try runTool(["exiftool", "-q", "-overwrite_original", "-Orientation#=6", "-Make=Apple", "-Model=iPhone 15", "-ISO=50", path])
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(size), modified: 0, format: .jpeg)
    let read = MetadataReader.read(MetadataRequest(id: ItemID(0), file: file))
    #expect(read.metadata?.orientation == 6 && read.metadata?.model == "iPhone 15" && read.metadata?.iso == 50)
    #expect(read.size == PixelSize(width: 40, height: 60), "shown turned a quarter")
    try runTool(["exiftool", "-q", "-overwrite_original", "-Orientation#=1", path])
    #expect(MetadataReader.read(MetadataRequest(id: ItemID(0), file: file)).size == PixelSize(width: 60, height: 40))
}

/// A little-endian TIFF of IFD0 (the make) and an Exif directory with `PixelXDimension` and
/// `PixelYDimension` and a maker note of `note`'s bytes (placed at `noteOffset`, which they may
/// count from).
private func tiffWithMakerNote(make: String, note: (Int) -> [UInt8], width: Int = 6000, height: Int = 4000) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
    let makeBytes = Array(make.utf8) + [0]
    // Header 8, IFD0 at 8 (2 entries: 30 bytes), Exif IFD at 38 (3 entries: 42 bytes), the make at 80, the note after.
    let makeOffset = 80, noteOffset = 80 + makeBytes.count
    let body = note(noteOffset)
    var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8)
    out += le16(2) + le16(0x010F) + le16(2) + le32(makeBytes.count) + le32(makeOffset) + le16(0x8769) + le16(4) + le32(1) + le32(38) + le32(0)
    out += le16(3) + le16(0x927C) + le16(7) + le32(body.count) + le32(noteOffset)
    out += le16(0xA002) + le16(4) + le32(1) + le32(width) + le16(0xA003) + le16(4) + le32(1) + le32(height) + le32(0)
    precondition(out.count == makeOffset)
    return out + makeBytes + body
}

/// Where the camera focused: Sony's FocusLocation (its own frame, offsets from the TIFF's
/// start), Fujifilm's FocusPixel (the photo's pixels, its note little-endian with offsets from
/// its start); other makers' notes, and a lying one, give none.
@Test func theFocusPointIsReadFromSonyAndFujifilmMakerNotes() throws {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
    let sony = tiffWithMakerNote(make: "SONY") { at in
        Array("SONY DSC \0\0\0".utf8) + le16(1) + le16(0x2027) + le16(3) + le32(4) + le32(at + 30) + le32(0) + le16(6000) + le16(4000) + le16(4500)
            + le16(1000)
    }
    let sonyPoint = try #require(ImageMetadata(parsing: sony)?.focusPoint)
    #expect(sonyPoint == ImageMetadata.FocusPoint(x: 4500, y: 1000, width: 6000, height: 4000, source: "Sony FocusLocation"))
    #expect(sonyPoint.fractions.map { abs($0.x - 0.75) < 0.001 && abs($0.y - 0.25) < 0.001 } == true)
    let fuji = tiffWithMakerNote(make: "FUJIFILM") { _ in
        Array("FUJIFILM".utf8) + le32(12) + le16(1) + le16(0x1031) + le16(3) + le32(2) + le16(1500) + le16(3000) + le32(0)
    }
    let fujiPoint = try #require(ImageMetadata(parsing: fuji)?.focusPoint)
    #expect(fujiPoint == ImageMetadata.FocusPoint(x: 1500, y: 3000, width: 6000, height: 4000, source: "Fujifilm FocusPixel"))
    // Canon's note (no name, AFInfo2) is not read; a Sony note whose value lies past the end gives none.
    let canon = tiffWithMakerNote(make: "Canon") { _ in le16(1) + le16(0x0026) + le16(3) + le32(1) + le32(0) + le32(0) + [UInt8](repeating: 0, count: 8) }
    #expect(ImageMetadata(parsing: canon)?.focusPoint == nil)
    let lying = tiffWithMakerNote(make: "SONY") { _ in
        Array("SONY DSC \0\0\0".utf8) + le16(1) + le16(0x2027) + le16(3) + le32(4) + le32(1 << 20) + le32(0) + [UInt8](repeating: 0, count: 8)
    }
    #expect(ImageMetadata(parsing: lying) != nil && ImageMetadata(parsing: lying)?.focusPoint == nil)
    // Outside its frame: no fractions.
    #expect(ImageMetadata.FocusPoint(x: 7000, y: 10, width: 6000, height: 4000, source: "").fractions == nil)
}

/// An iPhone's burst: Apple's maker note (big-endian, offsets from its start) names it.
@Test func anApplePhotosBurstIsReadFromItsMakerNote() throws {
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func be32(_ v: Int) -> [UInt8] { be16(v >> 16 & 0xFFFF) + be16(v & 0xFFFF) }
    let id = "FFCBAC24-E547-4BBC-AF47-38B1A3D845E3"
    let apple = tiffWithMakerNote(make: "Apple") { _ in
        Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + be16(1) + be16(0x000B) + be16(2) + be32(id.utf8.count + 1) + be32(32) + be32(0)
            + Array(id.utf8) + [0]
    }
    let metadata = try #require(ImageMetadata(parsing: apple))
    #expect(metadata.burstID == id && metadata.focusPoint == nil && metadata.make == "Apple")
}
