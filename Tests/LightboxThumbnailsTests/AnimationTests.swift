import Foundation
@testable import LightboxThumbnails
import LightboxTestSupport
import Testing

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
