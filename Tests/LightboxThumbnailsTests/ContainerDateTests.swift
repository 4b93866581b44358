import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

@Test func datesComeFromTheEXIFOfEveryImageContainer() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let png = try dir.file("a.png")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", png])
    let webp = try dir.file("a.webp"), heic = try dir.file("a.heic"), avif = try dir.file("a.avif")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", "-c:v", "libwebp", webp])
    try runTool(["heif-enc", "-q", "50", png, "-o", heic])
    try runTool(["heif-enc", "--avif", png, "-o", avif])
    let files: [(String, ImageFormat)] = [(png, .png), (webp, .webp), (heic, .heif), (avif, .heif)]
    for (path, format) in files {
        let before = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(format.traits.metadata(FileBytes(before))?.dateTaken == nil, "\(path): no date before exiftool wrote one")
        // exiftool writes each container's own EXIF (PNG eXIf, WebP EXIF, the HEIF Exif item).
        try runTool(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2022:03:04 05:06:07", "-Make=Phone", path])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ImageFormat(sniffing: Array(bytes.prefix(ImageFormat.sniffLength))) == format)
        let metadata = format.traits.metadata(FileBytes(bytes))
        #expect(metadata?.dateTaken == "2022:03:04 05:06:07" && metadata?.make == "Phone", "\(path): \(String(describing: metadata))")
    }
}
