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
