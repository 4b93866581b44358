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

/// `bytes` of an AVI with an `IDIT` chunk holding `date` put first in its header list, as cameras write it.
func aviWithIDIT(_ bytes: [UInt8], date: String) -> [UInt8] {
    var payload = Array(date.utf8) + [10, 0]
    if payload.count % 2 == 1 { payload.append(0) }
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
    let chunk = Array("IDIT".utf8) + le32(payload.count) + payload
    func adding(_ n: Int, at offset: Int, to bytes: inout [UInt8]) {
        let value = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } + n
        bytes.replaceSubrange(offset..<(offset + 4), with: le32(value))
    }
    var out = bytes
    out.insert(contentsOf: chunk, at: 24)  // after "LIST" size "hdrl"
    adding(chunk.count, at: 4, to: &out)  // RIFF's size
    adding(chunk.count, at: 16, to: &out)  // hdrl's
    return out
}

@Test func videoDatesComeFromAVIsIDITAndMatroskasDateUTCAsExiftoolReadsThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let plain = try dir.file("plain.avi")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=32x24:r=5:d=1", "-c:v", "mpeg4", plain])
    let original = Array(try Data(contentsOf: URL(fileURLWithPath: plain)))
    // The two ways cameras write it, and a date no one could mean.
    for (written, expected) in [
        ("Mon Mar 10 15:04:43 2003", "2003:03:10 15:04:43"), ("2005:08:17 11:42:43", "2005:08:17 11:42:43"), ("Thu Feb 30 99:00:00 2003", nil),
    ] {
        let path = try dir.file("idit.avi")
        try TestImages.bytes(aviWithIDIT(original, date: written), at: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ImageFormat.avi.traits.metadata(FileBytes(bytes))?.dateTaken == expected, "IDIT '\(written)'")
        let exiftool = String(decoding: try toolBytes(["exiftool", "-s3", "-d", "%Y:%m:%d %H:%M:%S", "-DateTimeOriginal", path]), as: UTF8.self)
        if let expected { #expect(exiftool == expected + "\n", "exiftool reads '\(written)' as \(exiftool)") }
    }
    // Matroska as ffmpeg and mkvmerge write it: the Info's DateUTC, in UTC.
    let made = try dir.file("made.mkv"), remuxed = try dir.file("remuxed.mkv")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=32x24:r=5:d=1", "-c:v", "mpeg4", "-metadata", "creation_time=2024-05-17T21:30:05Z", made])
    try runTool(["mkvmerge", "-q", "-o", remuxed, made])
    for path in [made, remuxed] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let exiftool = String(decoding: try toolBytes(["exiftool", "-s3", "-d", "%Y:%m:%d %H:%M:%S", "-DateTimeOriginal", path]), as: UTF8.self)
        #expect(ImageFormat.matroska.traits.metadata(FileBytes(bytes)).flatMap(\.dateTaken).map { $0 + "\n" } == exiftool, "\(path): \(exiftool)")
    }
}
