import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

@Test func animationsCountTheirFramesAndStillPicturesHaveNone() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let source = ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1.7"]
    let files: [(String, [String], ImageFormat)] = [
        ("a.gif", [], .gif), ("a.webp", ["-loop", "0"], .webp), ("a.png", ["-plays", "0", "-f", "apng"], .png),
    ]
    for (name, arguments, format) in files {
        let path = try dir.file(name)
        try TestVideos.ffmpeg(source + arguments + [path])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ImageFormat(sniffing: Array(bytes.prefix(ImageFormat.sniffLength))) == format)
        #expect(format.traits.metadata(FileBytes(bytes))?.frameCount == 17, "\(name)")
    }
    let still = try dir.file("still.png"), stillGIF = try dir.file("still.gif")
    try TestVideos.ffmpeg(source + ["-frames:v", "1", still])
    try TestVideos.ffmpeg(source + ["-frames:v", "1", stillGIF])
    #expect(ImageFormat.png.traits.metadata(FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: still))))) == nil)
    #expect(ImageFormat.gif.traits.metadata(FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: stillGIF)))))?.frameCount == nil)
}

@Test func anAnimationsFramesAreDecodedWithTheirDelaysWithinTheBudget() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for (name, arguments) in [("a.gif", [String]()), ("a.webp", ["-loop", "0"]), ("a.png", ["-plays", "0", "-f", "apng"])] {
        let path = try dir.file(name)
        // Five frames of 200 ms: the test pattern moves between them.
        try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=80x60:r=5:d=1"] + arguments + [path])
        let format: ImageFormat = name.hasSuffix("gif") ? .gif : name.hasSuffix("png") ? .png : .webp
        let file = ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: format)
        guard case .decoded(let t) = ThumbnailPipeline.withCodecs(diskCache: nil).decodeFrames(file, fitting: PixelSize(width: 40, height: 40)) else {
            Issue.record("\(name) did not decode"); continue
        }
        #expect(t.frameCount == 5 && t.delays == [200, 200, 200, 200, 200], "\(name): \(t.delays)")
        #expect(t.width == 40 && t.height == 5 * 30, "\(name): frames fitted one above the other, \(t.width)x\(t.height)")
        #expect(t.frame(0).height == 30 && t.frame(0) != t.frame(3), "\(name): frames differ")
        // A still is what decode gives.
        guard case .decoded(let still) = ThumbnailPipeline.withCodecs(diskCache: nil).decode(file, fitting: PixelSize(width: 40, height: 40)) else { continue }
        #expect(still.delays.isEmpty && still.height == 30)
    }
}

@Test func anAnimationTravelsFromADecoderProcessWithItsDelays() {
    var thumbnail = Thumbnail(width: 2, height: 4, pixels: Array(0..<24))
    thumbnail.delays = [100, 250]
    let response = DecodeMessage.Response(body: .decoded(.decoded(thumbnail)), counts: DecodeStatistics.Counts())
    #expect(DecodeMessage.response(from: Array(DecodeMessage.encode(response).dropFirst(4)))?.body == .decoded(.decoded(thumbnail)))
    let request = DecodeMessage.Request.decodeFrames(
        ImageFile(path: ImagePath("a.gif"), byteCount: 1, modified: 2, format: .gif), PixelSize(width: 9, height: 9))
    #expect(DecodeMessage.request(from: Array(DecodeMessage.encode(request).dropFirst(4))) == request)
}

@Test func apngFramesAreComposedAsFFmpegComposesThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("moving.png"), frames = try dir.file("frames.rgb")
    // A small moving pattern with transparency: ffmpeg writes sub-rectangles that blend over what is there.
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=48x32:r=5:d=1.2,format=rgba,colorchannelmixer=aa=0.6", "-plays", "0", "-f", "apng", path])
    let data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    guard let decoded = APNGDecoder.decode(data, fitting: PixelSize(width: 48, height: 32), pixelLimit: 1 << 24) else {
        Issue.record("not decoded"); return
    }
    #expect(decoded.frameCount == 6)
    // ffmpeg's own decoding, premultiplied onto black as ours flattens onto background 0.
    try TestVideos.ffmpeg(["-i", path, "-vf", "premultiply=inplace=1,format=rgb24", "-f", "rawvideo", frames])
    let reference = Array(try Data(contentsOf: URL(fileURLWithPath: frames)))
    #expect(reference.count == 6 * 48 * 32 * 3)
    for k in 0..<6 {
        let ours = decoded.frame(k).pixels, theirs = reference[(k * 48 * 32 * 3)..<((k + 1) * 48 * 32 * 3)]
        let difference = zip(ours, theirs).map { abs(Int($0) - Int($1)) }.reduce(0, +) / ours.count
        #expect(difference <= 3, "frame \(k): mean difference \(difference)")
    }
}

@Test func anAPNGTooLargeToPlayInADecodersMemoryIsShownAsAStill() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("moving.png")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=200x100:r=5:d=1", "-plays", "0", "-f", "apng", path])
    let data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let box = PixelSize(width: 40, height: 20)
    // 200x100 needs a canvas and its copy (8 bytes a pixel) and one inflated frame: 160,000 + 60,100.
    #expect(APNGDecoder.decode(data, fitting: box, pixelLimit: 1 << 24, memoryLimit: 220_100)?.frameCount == 5)
    #expect(APNGDecoder.decode(data, fitting: box, pixelLimit: 1 << 24, memoryLimit: 220_099) == nil)
    // Through the pipeline, the still: libvips decodes it shrinking as it reads.
    var limits = DecodeLimits()
    limits.memoryLimit = 100_000
    let file = ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: .png)
    guard case .decoded(let still) = ThumbnailPipeline.withCodecs(limits: limits, diskCache: nil).decodeFrames(file, fitting: box) else {
        Issue.record("no still"); return
    }
    #expect(still.frameCount == 1 && still.width == 40)
}
