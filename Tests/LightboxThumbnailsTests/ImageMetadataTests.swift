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
