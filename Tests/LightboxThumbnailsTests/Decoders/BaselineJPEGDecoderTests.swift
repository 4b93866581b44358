import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A textured picture (ImageMagick's plasma, fixed seed) as a JPEG made by `cjpeg` with `options`.
private func cjpeg(_ options: [String], width: Int = 157, height: Int = 117, in folder: TemporaryDirectory) throws -> [UInt8] {
    let source = try folder.file("plasma-\(width)x\(height).ppm"), output = try folder.file("out.jpg")
    if !FileManager.default.fileExists(atPath: source) {
        try runTool(["convert", "-seed", "7", "-size", "\(width)x\(height)", "plasma:fractal", source])
    }
    try runTool(["cjpeg"] + options + ["-outfile", output, source])
    return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
}

/// How far two pictures of one size differ: the mean and the largest difference of a channel.
private func difference(_ a: Thumbnail, _ b: Thumbnail) -> (mean: Double, max: Int) {
    let diffs = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
    return (Double(diffs.reduce(0, +)) / Double(max(1, diffs.count)), diffs.max() ?? 0)
}

/// Each way cameras and encoders lay out a baseline JPEG, decoded at each DCT scale, gives what
/// libjpeg-turbo gives (the app's own decoder stands in for it in the app's process).
@Test(arguments: [
    ["-sample", "2x2"], ["-sample", "1x1"], ["-sample", "2x1"], ["-sample", "1x2"], ["-sample", "4x1"],
    ["-grayscale"], ["-sample", "2x2", "-restart", "2B"], ["-sample", "2x1", "-restart", "1"],
    ["-quality", "100"], ["-quality", "20", "-optimize"], ["-rgb"],
])
func decodesAsLibjpegTurbo(options: [String]) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let data = try cjpeg(options, in: folder)
    for needed in [PixelSize(width: 10, height: 10), PixelSize(width: 30, height: 20), PixelSize(width: 70, height: 50), PixelSize(width: 157, height: 117)] {
        let ours = try #require(BaselineJPEGDecoder.decode(data, covering: needed), "\(options) \(needed)")
        guard case .decoded(let theirs) = TurboJPEGDecoder.decode(data, width: 157, height: 117, covering: needed, pixelLimit: 1 << 20) else {
            Issue.record("libjpeg-turbo refused \(options)")
            return
        }
        #expect(ours.width == theirs.width && ours.height == theirs.height, "\(options) \(needed)")
        let (mean, largest) = difference(ours, theirs)
        #expect(mean < 2 && largest <= 16, "\(options) \(needed): mean \(mean), max \(largest)")
    }
}

/// What it does not handle is refused, for a decoder process to take.
@Test(arguments: [["-progressive"], ["-arithmetic"]])
func refusesWhatItDoesNotHandle(options: [String]) throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let data = try cjpeg(options, in: folder)
    #expect(BaselineJPEGDecoder.decode(data, covering: PixelSize(width: 40, height: 30)) == nil)
}

/// A picture of more than a megapixel is left to libjpeg-turbo (EXIF thumbnails are far smaller).
@Test func refusesLargePictures() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let data = try cjpeg([], width: 1200, height: 900, in: folder)
    #expect(BaselineJPEGDecoder.decode(data, covering: PixelSize(width: 40, height: 30)) == nil)
}

/// Damaged data gives nil or a picture, never a crash: cut at every length (a cut inside the scan
/// is refused, as libjpeg-turbo refuses it), and each byte of the headers and some of the scan
/// changed.
@Test func damagedDataNeverTraps() throws {
    let folder = try TemporaryDirectory()
    defer { folder.remove() }
    let data = try cjpeg(["-sample", "2x2", "-restart", "1"], width: 40, height: 24, in: folder)
    let needed = PixelSize(width: 40, height: 24)
    #expect(BaselineJPEGDecoder.decode(data, covering: needed) != nil)
    for length in 0..<(data.count - 2) {
        #expect(BaselineJPEGDecoder.decode(Array(data[..<length]), covering: needed) == nil, "cut at \(length) of \(data.count)")
    }
    for position in 0..<data.count {
        for flip: UInt8 in [0x01, 0x80, 0xFF] {
            var damaged = data
            damaged[position] ^= flip
            if let picture = BaselineJPEGDecoder.decode(damaged, covering: needed) {
                #expect(picture.pixels.count == picture.width * picture.height * 3)
            }
        }
    }
}

/// Huffman tables that ask for more codes than a length holds are refused.
@Test func refusesOversubscribedHuffmanTables() {
    #expect(BaselineJPEGDecoder.HuffmanTable(counts: [3] + Array(repeating: 0, count: 15), symbols: [1, 2, 3]) == nil)
    #expect(BaselineJPEGDecoder.HuffmanTable(counts: [2] + Array(repeating: 0, count: 15), symbols: [1, 2]) != nil)
    #expect(BaselineJPEGDecoder.HuffmanTable(counts: [0, 4, 1] + Array(repeating: 0, count: 13), symbols: [1, 2, 3, 4, 5]) == nil)
}
