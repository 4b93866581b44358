import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A box of an ISO base media file (as JPEG XL's and JPEG 2000's containers are made of).
func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }

@Test func jpegXLAndJPEG2000AreRecognisedMeasuredAndDecoded() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // ffmpeg writes a bare JPEG XL codestream and JPEG 2000 as a JP2 file or a bare codestream.
    let red = "color=c=red:s=200x60[a];color=c=blue:s=200x60[b];[a][b]vstack"
    let files: [(name: String, arguments: [String], format: ImageFormat)] = [
        ("codestream.jxl", [], .jpegXL),
        ("image.jp2", ["-c:v", "jpeg2000"], .jpeg2000),
        ("codestream.j2c", ["-c:v", "jpeg2000", "-format", "j2k", "-f", "rawvideo"], .jpeg2000),
    ]
    var paths: [(String, ImageFormat)] = []
    for (name, arguments, format) in files {
        let path = try dir.file(name)
        try TestVideos.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=8x8", "-filter_complex", red, "-frames:v", "1"] + arguments + [path])
        paths.append((path, format))
    }
    // The JPEG XL container: its signature box, ftyp, and the codestream in a jxlc box.
    let codestream = Array(try Data(contentsOf: URL(fileURLWithPath: paths[0].0)))
    let container = JPEGXLHeader.container + box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8)) + box("jxlc", codestream)
    let containerPath = try dir.file("container.jxl")
    try Data(container).write(to: URL(fileURLWithPath: containerPath))
    paths.append((containerPath, .jpegXL))

    for (path, format) in paths {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ImageFormat(sniffing: Array(bytes.prefix(ImageFormat.sniffLength))) == format, "\(path)")
        #expect(ImageHeader.dimensions(of: bytes, format: format).map { [$0.width, $0.height] } == [200, 120], "\(path)")
        let file = ImageFile(path: ImagePath(path), byteCount: Int64(bytes.count), modified: 0, format: format)
        guard case .decoded(let t) = ThumbnailPipeline.withCodecs(diskCache: nil).decode(file, fitting: PixelSize(width: 100, height: 100)) else {
            Issue.record("\(path) did not decode"); continue
        }
        #expect(t.width == 100 && t.height == 60, "\(path): \(t.width)x\(t.height)")
        let (r, _, b) = t.pixel(x: 50, y: 10), (r2, _, b2) = t.pixel(x: 50, y: 50)
        #expect(r > 200 && b < 60 && b2 > 200 && r2 < 60, "\(path): red over blue")
    }
    // A size header that claims 2^30 pixels a side (selector 3, 30 bits, square) is refused
    // before libvips sees the file.
    var bits: [Int] = [0, 1, 1] + Array(repeating: 1, count: 30) + [1, 0, 0]
    bits += Array(repeating: 0, count: 64)
    var huge = [UInt8](repeating: 0, count: bits.count / 8)
    for (i, bit) in bits.enumerated() where bit == 1 { huge[i / 8] |= 1 << UInt8(i % 8) }
    let hugePath = try dir.file("huge.jxl")
    try Data(JPEGXLHeader.codestream + huge).write(to: URL(fileURLWithPath: hugePath))
    let result = ThumbnailPipeline.withCodecs(diskCache: nil).decode(
        ImageFile(path: ImagePath(hugePath), byteCount: 0, modified: 0, format: .jpegXL),
        fitting: PixelSize(width: 100, height: 100))
    guard case .failed(let failure) = result else { Issue.record("decoded"); return }
    #expect(failure.kind == .refused && failure.message.hasPrefix("too large: 1073741824x1073741824"), "\(failure)")
}

@Test func jpegXLSizeHeadersOfEveryForm() {
    // small: (h/8 - 1) in 5 bits, then ratio 1 (square), least significant bits first: 64x64.
    #expect(JPEGXLHeader.sizeHeader([0b0100_1111, 0], at: 0).map { [$0.0, $0.1] } == [64, 64])
    // large, selector 1 (13 bits): height 1000 → 999; ratio 0; width selector 0 (9 bits): 300 → 299.
    var bits: [Int] = [0] + [1, 0]  // not small, selector 1
    bits += (0..<13).map { 999 >> $0 & 1 } + [0, 0, 0] + [0, 0] + (0..<9).map { 299 >> $0 & 1 }
    var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
    for (i, bit) in bits.enumerated() where bit == 1 { bytes[i / 8] |= 1 << UInt8(i % 8) }
    #expect(JPEGXLHeader.sizeHeader(bytes, at: 0).map { [$0.0, $0.1] } == [300, 1000])
    // Cut short: nothing read past the end.
    #expect(JPEGXLHeader.sizeHeader(Array(bytes.prefix(2)), at: 0) == nil)
}
