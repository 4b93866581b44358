import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A JPEG of a red left half and a blue right half.
func redBlue(_ width: Int, _ height: Int) throws -> [UInt8] {
    try TestImages.jpegBytes(TestImages.halves(width: width, height: height, left: (220, 30, 30), right: (30, 30, 220)), width: width, height: height)
}

/// Decodes `bytes` written as `name` through the pipeline, as the app does.
func decodeRaw(_ bytes: [UInt8], named name: String, box: PixelSize, in dir: TemporaryDirectory) throws -> (ImageFormat?, DecodeResult) {
    let path = try dir.file(name)
    try TestImages.bytes(bytes, at: path)
    let format = ImageFormat(sniffing: Array(bytes.prefix(ImageFormat.sniffLength)))
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(bytes.count), modified: 0, format: format ?? .tiff)
    return (format, ThumbnailPipeline.withCodecs(diskCache: nil).decode(file, fitting: box))
}

@Test func everyKindOfRawShowsItsEmbeddedPreviewNotItsSensorData() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let preview = try redBlue(300, 200)
    let raws: [(String, [UInt8])] = [
        ("a.dng", TestRaws.dng(preview: preview, previewSize: (300, 200))),
        ("a.nef", TestRaws.nef(preview: preview)),
        ("a.cr2", TestRaws.cr2(preview: preview)),
        ("a.raf", TestRaws.raf(preview: preview)),
        ("a.cr3", TestRaws.cr3(preview: preview, size: (300, 200))),
    ]
    for (name, bytes) in raws {
        let (format, result) = try decodeRaw(bytes, named: name, box: PixelSize(width: 90, height: 90), in: dir)
        #expect(format == .cameraRaw, "\(name) recognised as \(String(describing: format))")
        guard case .decoded(let t) = result else { Issue.record("\(name): \(result)"); continue }
        #expect(t.width == 90 && t.height == 60, "\(name): \(t.width)x\(t.height)")
        let (r, _, b) = t.pixel(x: 10, y: 30), (r2, _, b2) = t.pixel(x: 80, y: 30)
        #expect(r > 180 && b < 80 && b2 > 180 && r2 < 80, "\(name): the preview's colours, not the sensor's")
    }
    // A TIFF is still a TIFF.
    let plain = TestRaws.tiff([[.long(0x100, 2), .long(0x101, 2), .short(0x103, 1)]], blobs: [], references: [])
    #expect(ImageFormat(sniffing: plain) == .tiff)
}

@Test func aRawIsTurnedByItsOwnOrientation() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // Orientation 6: turned a quarter clockwise to show it, the red left half goes to the top.
    let (_, result) = try decodeRaw(
        TestRaws.dng(preview: try redBlue(300, 200), previewSize: (300, 200), orientation: 6),
        named: "turned.dng", box: PixelSize(width: 90, height: 90), in: dir)
    guard case .decoded(let t) = result else { Issue.record("\(result)"); return }
    #expect(t.width == 60 && t.height == 90)
    #expect(t.pixel(x: 30, y: 10).0 > 180 && t.pixel(x: 30, y: 80).2 > 180, "red above blue")
}

/// A NEF of two previews: IFD0 holds a 40x30 green JPEG, a sub-directory the 300x200 red and
/// blue one; `orientation` in IFD0 when given.
func twoPreviewNEF(orientation: Int? = nil) throws -> [UInt8] {
    let green = try TestImages.jpegBytes(TestImages.solid(width: 40, height: 30, 30, 200, 30), width: 40, height: 30)
    let large = try redBlue(300, 200)
    let turned: [TestRaws.Entry] = orientation.map { [.short(0x112, $0)] } ?? []
    return TestRaws.tiff(
        [
            [.long(0x100, 40), .long(0x101, 30), .short(0x103, 6)] + turned
                + [.ascii(0x10F, "NIKON"), .long(0x201, 0), .long(0x202, green.count), .long(0x14A, 0)],
            [.long(0xFE, 1), .short(0x103, 6), .long(0x201, 0), .long(0x202, large.count)],
        ], blobs: [green, large], references: [(0, 0x201, [.blob(0)]), (0, 0x14A, [.directory(1)]), (1, 0x201, [.blob(1)])])
}

@Test func theSmallestPreviewThatCoversTheTileIsTheOneDecoded() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let raw = try twoPreviewNEF()
    let (_, small) = try decodeRaw(raw, named: "two.nef", box: PixelSize(width: 32, height: 32), in: dir)
    guard case .decoded(let s) = small else { Issue.record("\(small)"); return }
    #expect(s.pixel(x: s.width / 2, y: s.height / 2).1 > 150, "32 pixels: the 40x30 green one covers them")
    let (_, big) = try decodeRaw(raw, named: "two.nef", box: PixelSize(width: 120, height: 120), in: dir)
    guard case .decoded(let b) = big else { Issue.record("\(big)"); return }
    #expect(b.width == 120 && b.pixel(x: 5, y: 40).0 > 180, "120 pixels: only the large one covers them")
}

@Test func aRawWithoutAPreviewIsDevelopedAndCountedAsTheSlowPath() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("bare.dng")
    try TestImages.bytes(TestRaws.dng(preview: nil, sensor: (64, 48)), at: path)
    let statistics = DecodeStatistics()
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil, statistics: statistics)
    let result = pipeline.decode(ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: .cameraRaw), fitting: PixelSize(width: 64, height: 64))
    guard case .decoded(let t) = result else { Issue.record("\(result)"); return }
    // Developed at half size: 32x24, the sensor's red left and blue right.
    #expect(t.width == 32 && t.height == 24)
    let left = meanColour(t, x: 2..<12, y: 4..<20), right = meanColour(t, x: 20..<30, y: 4..<20)
    #expect(left.r > left.b + 40 && right.b > right.r + 40, "red left \(left), blue right \(right)")
    #expect(statistics.count(.rawDeveloped) == 1 && statistics.count(.rawPreview) == 0)
}

@Test func aRawWithALyingPreviewOrNoneUsableIsABrokenTileWithItsReason() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // A preview whose offset points past the end of the file, and nothing else: LibRaw is tried, and says why it cannot.
    var lying = TestRaws.raf(preview: try redBlue(30, 20))
    lying[84] = 0x7F
    let (_, past) = try decodeRaw(lying, named: "lying.raf", box: PixelSize(width: 64, height: 64), in: dir)
    guard case .failed(let failure) = past else { Issue.record("decoded"); return }
    #expect(failure.kind == .badFile && failure.message.hasPrefix("cannot"), "\(failure)")
}

@Test func aRawsDetailsComeFromItsOwnEXIF() throws {
    let metadata = ImageFormat.cameraRaw.traits.metadata(FileBytes(TestRaws.dng(preview: nil)))
    #expect(metadata?.make == "Lightbox" && metadata?.model == "Test DNG" && metadata?.dateTaken == "2021:07:04 12:00:00")
    // A CR3's from its CMT1 and CMT2 boxes: the Exif directory's date taken over IFD0's date.
    let cr3 = ImageFormat.cameraRaw.traits.metadata(FileBytes(TestRaws.cr3(preview: try redBlue(30, 20), size: (30, 20))))
    #expect(cr3?.make == "Canon" && cr3?.model == "Canon EOS Test" && cr3?.dateTaken == "2023:08:09 10:11:12" && cr3?.iso == 800)
    // A RAF's from the EXIF of the JPEG it holds.
    var details = TestMetadata()
    details.make = "FUJIFILM"
    details.dateTaken = "2022:02:02 02:02:02"
    let jpeg = TestImages.withMetadata(main: try redBlue(30, 20), details)
    let raf = ImageFormat.cameraRaw.traits.metadata(FileBytes(TestRaws.raf(preview: jpeg)))
    #expect(raf?.make == "FUJIFILM" && raf?.dateTaken == "2022:02:02 02:02:02")
}

@Test func olympusAndPanasonicRawsShowTheirPreviewsAndDatesAsExiftoolReadsThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let preview = try redBlue(300, 200)
    let raws: [(String, [UInt8], String, String)] = [
        ("a.orf", TestRaws.orf(preview: preview), "2024:05:06 07:08:09", "-PreviewImage"),
        ("a.rw2", TestRaws.rw2(preview: preview), "2023:11:12 13:14:15", "-JpgFromRaw"),
        ("om.orf", TestRaws.orf(preview: preview, date: "2025:01:02 03:04:05", omSystem: true), "2025:01:02 03:04:05", "-PreviewImage"),
    ]
    for (name, bytes, date, tag) in raws {
        let (format, result) = try decodeRaw(bytes, named: name, box: PixelSize(width: 90, height: 90), in: dir)
        #expect(format == .cameraRaw, "\(name) recognised as \(String(describing: format))")
        if case .decoded(let t) = result, t.width == 90, t.height == 60 {
            let (r, _, b) = t.pixel(x: 10, y: 30), (r2, _, b2) = t.pixel(x: 80, y: 30)
            #expect(r > 180 && b < 80 && b2 > 180 && r2 < 80, "\(name): the preview's colours, not the sensor's")
        } else {
            Issue.record("\(name): not its 300x200 preview at 90x60: \(result)")
        }
        let found = CameraRaw.previews(in: FileBytes(bytes)).previews
        #expect(found.map { Array(bytes[$0.offset..<($0.offset + $0.length)]) } == [preview], "\(name): \(found)")
        let metadata = ImageFormat.cameraRaw.traits.metadata(FileBytes(bytes))
        #expect(metadata?.dateTaken == date && metadata?.make != nil, "\(name): \(String(describing: metadata))")
        // exiftool reads the same preview and date from the same file.
        let path = dir.path + "/" + name
        #expect(try toolBytes(["exiftool", "-b", tag, path]) == preview, "\(name): exiftool's \(tag)")
        #expect(String(decoding: try toolBytes(["exiftool", "-s3", "-DateTimeOriginal", path]), as: UTF8.self) == date + "\n")
    }
}

@Test func aPreviewsOwnEXIFThumbnailIsOneMorePreviewToChooseFrom() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // A RAF whose header JPEG (300x200, red and blue) holds a 160x120 green EXIF thumbnail, as exiftool writes one.
    let header = try dir.file("header.jpg"), thumbnail = try dir.file("thumbnail.jpg")
    try TestImages.bytes(try redBlue(300, 200), at: header)
    try TestImages.bytes(try TestImages.jpegBytes(TestImages.solid(width: 160, height: 120, 30, 200, 30), width: 160, height: 120), at: thumbnail)
    try runTool(["exiftool", "-q", "-overwrite_original", "-ThumbnailImage<=" + thumbnail, header])
    let raf = TestRaws.raf(preview: Array(try Data(contentsOf: URL(fileURLWithPath: header))))
    let (_, small) = try decodeRaw(raf, named: "thumb.raf", box: PixelSize(width: 80, height: 80), in: dir)
    guard case .decoded(let s) = small else { Issue.record("\(small)"); return }
    #expect(s.pixel(x: s.width / 2, y: s.height / 2).1 > 150, "80 pixels: the 160x120 thumbnail covers them, and is the smaller")
    let (_, big) = try decodeRaw(raf, named: "thumb.raf", box: PixelSize(width: 250, height: 250), in: dir)
    guard case .decoded(let b) = big else { Issue.record("\(big)"); return }
    #expect(b.pixel(x: 10, y: b.height / 2).0 > 180, "250 pixels: only the header JPEG covers them")
}

/// A zoomed view's part of a RAW comes from its largest embedded preview, turned by the RAW's
/// own orientation: the small one never stands in.
@Test func aRawsPartComesFromItsLargestPreview() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let raw = try twoPreviewNEF(orientation: 6)
    let path = try dir.file("part.nef")
    try TestImages.bytes(raw, at: path)
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(raw.count), modified: 0, format: .cameraRaw)
    // Upright (a quarter clockwise) the red half is on top: the top half's part, at full size, is red.
    let top = PhotoRegion(fromX: 0, y: 0, toX: 1, y: 0.5)
    guard case .decoded(let part) = ThumbnailPipeline(codecs: nil, diskCache: nil).decodeRegion(file, region: top, fitting: PixelSize(width: 999, height: 999))
    else {
        Issue.record("the part did not decode")
        return
    }
    #expect(part.width == 200 && part.height == 150, "\(part.width)x\(part.height)")
    #expect(isRed(part.pixel(x: 100, y: 20)) && isRed(part.pixel(x: 100, y: 130)))
}
