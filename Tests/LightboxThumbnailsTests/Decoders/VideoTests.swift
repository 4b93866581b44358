import Foundation
import LightboxCodecs
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A video file as the scan finds it.
func videoFile(_ path: String) throws -> ImageFile {
    let header = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(ImageFormat.sniffLength))
    let format = try #require(ImageFormat(sniffing: header), "not recognised: \(path)")
    return ImageFile(path: ImagePath(path), byteCount: 0, modified: 0, format: format)
}

/// The mean colour of a thumbnail's region.
func meanColour(_ thumbnail: Thumbnail, x: Range<Int>, y: Range<Int>) -> (r: Int, g: Int, b: Int) {
    var sums = (0, 0, 0)
    for row in y {
        for column in x {
            let (r, g, b) = thumbnail.pixel(x: column, y: row)
            sums = (sums.0 + Int(r), sums.1 + Int(g), sums.2 + Int(b))
        }
    }
    let count = max(1, x.count * y.count)
    return (sums.0 / count, sums.1 / count, sums.2 / count)
}

@Test func videosOfEveryContainerAreRecognisedAndGiveAFrame() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cases: [(name: String, format: ImageFormat, codec: [String])] = [
        ("clip.mp4", .quickTime, ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        ("clip.mov", .quickTime, ["-c:v", "mpeg4"]),
        ("clip.mkv", .matroska, ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        ("clip.webm", .matroska, ["-c:v", "libvpx", "-b:v", "200k"]),
        ("clip.avi", .avi, ["-c:v", "mpeg4"]),
    ]
    for (name, format, codec) in cases {
        let path = try dir.file(name)
        try TestVideos.halves(at: path, codec: codec)
        let file = try videoFile(path)
        #expect(file.format == format, "\(name)")
        let (result, facts) = VideoDecoder().decode(file, demuxer: demuxer(of: file), fitting: PixelSize(width: 80, height: 80))
        guard case .decoded(let thumbnail) = result else { Issue.record("\(name): \(result)"); continue }
        #expect(thumbnail.width == 80 && thumbnail.height == 60, "\(name): fitted, shape kept")
        let top = meanColour(thumbnail, x: 0..<80, y: 5..<25), bottom = meanColour(thumbnail, x: 0..<80, y: 35..<55)
        #expect(top.r > 200 && top.b < 60 && bottom.b > 200 && bottom.r < 60, "\(name): red over blue, got \(top) over \(bottom)")
        #expect(facts?.size == PixelSize(width: 160, height: 120) && facts.map { abs($0.duration - 3) < 0.2 } == true, "\(name): \(String(describing: facts))")
    }
}

func demuxer(of file: ImageFile) -> String {
    if case .video(let demuxer) = file.format.traits.decoding { return demuxer }
    return ""
}

/// Which side of a picture is red: "top", "bottom", "left" or "right".
func redSide(width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int)) -> String {
    func redness(_ xs: Range<Int>, _ ys: Range<Int>) -> Int {
        var sum = 0
        for y in ys { for x in xs { let (r, _, b) = pixel(x, y); sum += r - b } }
        return sum / max(1, xs.count * ys.count)
    }
    let sides = [
        "top": redness(0..<width, 0..<height / 2), "bottom": redness(0..<width, height / 2..<height),
        "left": redness(0..<width / 2, 0..<height), "right": redness(width / 2..<width, 0..<height),
    ]
    return sides.max { $0.value < $1.value }!.key
}

@Test func aPhoneVideoRecordedTurnedIsShownUprightAsPlayersShowIt() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    var sides: Set<String> = []
    for rotation in [0, 90, 180, 270] {
        let path = try dir.file("turned\(rotation).mov"), shown = try dir.file("shown\(rotation).ppm")
        try TestVideos.halves(at: path, rotation: rotation)
        // ffmpeg turns what it decodes by the display matrix, as players do.
        try TestVideos.ffmpeg(["-i", path, "-frames:v", "1", shown])
        let ppm = Array(try Data(contentsOf: URL(fileURLWithPath: shown)))
        let turned = rotation == 90 || rotation == 270
        let (w, h) = turned ? (120, 160) : (160, 120)
        let pixels = Array(ppm.suffix(w * h * 3))
        let expected = redSide(width: w, height: h) { x, y in
            let i = (y * w + x) * 3; return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
        }
        sides.insert(expected)

        let (result, facts) = VideoDecoder().decode(try videoFile(path), demuxer: "mov", fitting: PixelSize(width: 120, height: 120))
        guard case .decoded(let t) = result else { Issue.record("\(rotation): \(result)"); continue }
        #expect(turned ? t.width == 90 && t.height == 120 : t.width == 120 && t.height == 90, "\(rotation): \(t.width)x\(t.height)")
        let side = redSide(width: t.width, height: t.height) { x, y in
            let (r, g, b) = t.pixel(x: x, y: y); return (Int(r), Int(g), Int(b))
        }
        #expect(side == expected, "rotate=\(rotation): red \(side), ffmpeg shows it \(expected)")
        #expect(((facts?.rotation ?? 0) == 90 || (facts?.rotation ?? 0) == 270) == turned)
        // The container's own reading agrees on the shape shown.
        let metadata = ImageFormat.quickTime.traits.metadata(FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        #expect(metadata?.video?.size == (turned ? PixelSize(width: 120, height: 160) : PixelSize(width: 160, height: 120)))
    }
    #expect(sides == ["top", "bottom", "left", "right"], "each turn shows red on another side")
}

@Test func aFadeInDoesNotGiveTheBlackFirstFrame() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("fade.mp4"), first = try dir.file("first.ppm")
    try TestVideos.fadeIn(at: path)
    // The first frame is black: what a thumbnailer taking it would show.
    try TestVideos.ffmpeg(["-i", path, "-frames:v", "1", first])
    let firstFrame = Array(try Data(contentsOf: URL(fileURLWithPath: first)).suffix(320 * 180 * 3))
    #expect(firstFrame.map(Int.init).reduce(0, +) / firstFrame.count < 5, "the fixture starts black")
    let (result, facts) = VideoDecoder().decode(try videoFile(path), demuxer: "mov", fitting: PixelSize(width: 160, height: 90))
    guard case .decoded(let thumbnail) = result else { Issue.record("\(result)"); return }
    let mean = meanColour(thumbnail, x: 0..<160, y: 0..<90)
    #expect((mean.r + mean.g + mean.b) / 3 > 40, "a lit frame, got \(mean)")
    #expect((facts?.detail ?? 0) > 20)
}

@Test func aVideoWithoutPicturesIsABrokenTileWithItsReason() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let sound = try dir.file("sound.mp4"), empty = try dir.file("empty.mov"), cut = try dir.file("cut.mp4")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "-f", "mp4", sound])
    try TestVideos.halves(at: cut)
    let whole = try Data(contentsOf: URL(fileURLWithPath: cut))
    try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: cut))
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    let pipeline = ThumbnailPipeline.withCodecs(diskCache: nil)
    let box = PixelSize(width: 64, height: 64)
    let soundResult = pipeline.decode(try videoFile(sound), fitting: box)
    #expect(soundResult == .failed(.badFile("no video stream")))
    let emptyResult = pipeline.decode(ImageFile(path: ImagePath(empty), byteCount: 0, modified: 0, format: .quickTime), fitting: box)
    #expect(emptyResult == .failed(.unreadable("empty file")))
    // Cut before its index (ffmpeg writes it last): nothing to find frames by.
    guard case .failed(let failure) = pipeline.decode(try videoFile(cut), fitting: box) else { Issue.record("a cut video decoded"); return }
    #expect(failure.kind == .badFile && !failure.message.isEmpty)
}

@Test func videoContainersGiveTheirDurationCodingAndDate() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cases: [(name: String, codec: [String], expected: String?)] = [
        ("a.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "avc1"),
        ("a.webm", ["-c:v", "libvpx", "-b:v", "200k"], "V_VP8"),
        ("a.avi", ["-c:v", "mpeg4"], "FMP4"),
    ]
    for (name, codec, expected) in cases {
        let path = try dir.file(name)
        try TestVideos.halves(at: path, seconds: 4, created: "2024-05-17T21:30:05Z", codec: codec)
        let file = try videoFile(path)
        let metadata = try #require(file.format.traits.metadata(FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path))))), "\(name)")
        let video = try #require(metadata.video)
        #expect(video.codec == expected, "\(name)")
        #expect(video.size == PixelSize(width: 160, height: 120), "\(name)")
        #expect(video.duration.map { abs($0 - 4) < 0.1 } == true, "\(name): \(String(describing: video.duration))")
        #expect(video.frameRate.map { abs($0 - 25) < 0.01 } == true, "\(name): \(String(describing: video.frameRate))")
        // AVI has no creation time.
        #expect(metadata.dateTaken == (file.format == .avi ? nil : "2024:05:17 21:30:05"), "\(name)")
    }
}

@Test func datesAreWrittenAsEXIFWritesThem() {
    #expect(ImageMetadata.dateText(seconds: 0) == "1970:01:01 00:00:00")
    #expect(ImageMetadata.dateText(seconds: 1_715_981_405) == "2024:05:17 21:30:05")
    #expect(ImageMetadata.dateText(seconds: -2_082_844_800) == "1904:01:01 00:00:00")
    for seconds: Int64 in [0, 951_782_400, 1_715_981_405, -1, 4_102_444_799] {
        var metadata = ImageMetadata()
        metadata.dateTaken = ImageMetadata.dateText(seconds: seconds)
        #expect(metadata.dateTakenSeconds == seconds, "\(seconds)")
    }
}

@Test func videoHeadersThatLieAreReadWithinTheirBytes() {
    // Found by `make fuzz`: an AVI whose header list claims 3 bytes.
    let shortList: [UInt8] = [
        82, 73, 70, 70, 222, 27, 0, 0, 65, 70, 73, 32, 76, 73, 83, 84, 3, 0, 0, 0, 104, 100, 114, 108,
        0, 0, 0, 0, 0, 0, 0, 0, 199, 255, 0, 16, 7, 0, 0, 1, 182, 17, 182, 24,
    ]
    #expect(AVIHeader(parsing: shortList)?.video == VideoMetadata())
    // A strl list too short for its own type.
    let shortStrl = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI LIST".utf8) + [16, 0, 0, 0] + Array("hdrlLIST".utf8) + [2, 0, 0, 0, 0x73, 0x74]
    #expect(AVIHeader(parsing: shortStrl)?.video.codec == nil)
    // Boxes and elements whose sizes run past the file.
    #expect(QuickTimeHeader(reading: FileBytes([0, 0, 0, 40] + Array("moov".utf8) + [0, 0, 0, 200] + Array("mvhd".utf8))) == nil)
    #expect(MatroskaHeader(reading: FileBytes([0x1A, 0x45, 0xDF, 0xA3, 0x80, 0x18, 0x53, 0x80, 0x67, 0x01, 0xFF])) == nil)
}

@Test func aPhoneVideosDateIsItsLocalTimeAsAPhotosIs() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // As an iPhone writes it: the local time with its offset in the metadata keys, UTC in mvhd.
    let path = try dir.file("IMG_0001.MOV")
    try TestVideos.ffmpeg([
        "-f", "lavfi", "-i", "testsrc2=s=64x48:r=5:d=1", "-metadata", "com.apple.quicktime.creationdate=2024-05-17T23:30:05+0200",
        "-metadata", "creation_time=2024-05-17T21:30:05Z", "-movflags", "use_metadata_tags", path,
    ])
    let metadata = ImageFormat.quickTime.traits.metadata(FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
    #expect(metadata?.dateTaken == "2024:05:17 23:30:05")
}

@Test func aVideoWhoseFramesGrowPastTheLimitNeverDecodesOneOfThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // MJPEG in AVI: a 64x64 red first frame (what the header declares), then 4000x3000 ones of a test pattern.
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", "-q:v", "5", dir.path + "/f000.jpg"])
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=4000x3000", "-frames:v", "1", "-q:v", "5", dir.path + "/big.jpg"])
    for i in 1...20 { try FileManager.default.copyItem(atPath: dir.path + "/big.jpg", toPath: dir.path + String(format: "/f%03d.jpg", i)) }
    let path = try dir.file("growing.avi")
    try TestVideos.ffmpeg(["-framerate", "5", "-i", dir.path + "/f%03d.jpg", "-c:v", "copy", path])
    let (result, facts) = VideoDecoder(pixelLimit: 1_000_000).decode(try videoFile(path), demuxer: "avi", fitting: PixelSize(width: 64, height: 64))
    #expect(facts?.size == PixelSize(width: 64, height: 64) || facts == nil, "the header declares 64x64: \(String(describing: facts))")
    switch result {
    case .decoded(let t):
        let mean = meanColour(t, x: 0..<t.width, y: 0..<t.height)
        #expect(mean.r > 200 && mean.g < 60 && mean.b < 60, "only the small red frame may be shown: \(mean)")
    case .failed(let failure): #expect(failure.kind == .refused || failure.kind == .badFile, "\(failure)")
    }
    // Without the limit the blue frames are what it shows: the test can tell them apart.
    let (free, _) = VideoDecoder(pixelLimit: 100_000_000).decode(try videoFile(path), demuxer: "avi", fitting: PixelSize(width: 64, height: 64))
    guard case .decoded(let t) = free else { Issue.record("\(free)"); return }
    let mean = meanColour(t, x: 0..<t.width, y: 0..<t.height)
    #expect(mean.g > 60 || mean.b > 60, "with room for them, a 4000x3000 frame, the one with detail: \(mean)")
}

@Test func anMP4WhoseSampleTablesClaimMoreSamplesThanItHasBytesIsRefusedBeforeFFmpegReadsIt() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("claims.mp4")
    try TestVideos.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=5:d=1", "-c:v", "mpeg4", path])
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    // The video track's stts: its first run claims 60 million samples.
    let stts = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)] == Array("stts".utf8)[...] })
    bytes.replaceSubrange((stts + 12)..<(stts + 16), with: [0x03, 0x93, 0x87, 0x00])
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let (result, _) = VideoDecoder().decode(try videoFile(path), demuxer: "mov", fitting: PixelSize(width: 64, height: 64))
    guard case .failed(let failure) = result else { Issue.record("decoded: \(result)"); return }
    #expect(failure.kind == .badFile && failure.message.contains("claim 60000000 samples in \(bytes.count) bytes"), "\(failure)")
    #expect(VideoContainer.problem(in: FileBytes(bytes), demuxer: "avi") == nil, "only MP4 and QuickTime tables are read")
}

@Test func aPictureWhoseDecoderWouldNeedMoreMemoryThanADecoderHasIsRefusedFirst() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // A GIF whose screen is 8000x8000 (64 MP, under the 100 MP limit): decoded whole, 8 bytes a pixel.
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    let gif =
        Array("GIF89a".utf8) + le16(8000) + le16(8000) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        + [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0, 2, 2, 0x4C, 0x01, 0, 0x3B]
    let path = try dir.file("screen.gif")
    try Data(gif).write(to: URL(fileURLWithPath: path))
    let file = ImageFile(path: ImagePath(path), byteCount: Int64(gif.count), modified: 0, format: .gif)
    guard case .failed(let failure) = ThumbnailPipeline.withCodecs(diskCache: nil).decode(file, fitting: PixelSize(width: 64, height: 64)) else {
        Issue.record("decoded"); return
    }
    #expect(failure.kind == .refused && failure.message.contains("8000x8000 would need about 488 MB to decode"), "\(failure)")
    // The kinds decoded whole say what a pixel costs; JPEG, shrunk while decoding, does not.
    #expect([ImageFormat.jpegXL, .jpeg2000, .heif, .gif].allSatisfy { $0.traits.decodeBytesPerPixel != nil })
    #expect(ImageFormat.jpeg.traits.decodeBytesPerPixel == nil)
}

/// A video `seconds` long whose grey level rises by `perSecond` a second from black, `rate` frames a second.
func greyRamp(at path: String, seconds: Int = 4, rate: Int = 25, perSecond: Int = 60, size: String = "64x48") throws {
    try TestVideos.ffmpeg([
        "-f", "lavfi", "-i", "color=c=black:s=\(size):r=\(rate):d=\(seconds),format=yuv420p,geq=lum='\(perSecond)*T':cb=128:cr=128",
        "-g", "\(rate)", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-qp", "0", path,
    ])
}

@Test func aVideosClipsPlayItsFramesInTimeOneAfterAnother() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("ramp.mp4")
    try greyRamp(at: path)
    let file = try videoFile(path), decoder = VideoDecoder(), box = PixelSize(width: 64, height: 64)
    func grey(_ clip: Thumbnail, _ frame: Int) -> Int { meanColour(clip.frame(frame), x: 0..<clip.width, y: 0..<(clip.height / clip.frameCount)).g }
    guard case .decoded(let first) = decoder.decodeClip(file, demuxer: "mov", from: 0, fitting: box) else { Issue.record("no clip"); return }
    // 25 frames a second played at 12: one in each 83 ms, 24 to a clip.
    #expect(first.width == 64 && first.height == 48 * VideoDecoder.clipFrames, "frames one above the other, fitted")
    #expect(first.delays.count == VideoDecoder.clipFrames && first.delays.allSatisfy { $0 >= 83 && $0 <= 166 }, "\(first.delays)")
    let length = first.delays.reduce(0, +)
    #expect(abs(length - 2000) < 100, "the clip lasts about 2 s: \(length)")
    #expect(grey(first, 0) < 8, "it starts at the start (black): \(grey(first, 0))")
    var shownAt = 0
    for frame in 0..<first.frameCount {
        // Each frame is the video at the time it shows (60 levels of luma a second, in video's 16-235 range).
        let expected = max(0, (60 * shownAt / 1000 - 16) * 255 / 219)
        #expect(abs(grey(first, frame) - expected) <= 6, "frame \(frame) at \(shownAt) ms: \(grey(first, frame)) for \(expected)")
        shownAt += first.delays[frame]
    }
    // The next clip begins where the first ends, on a later frame than its last.
    guard case .decoded(let second) = decoder.decodeClip(file, demuxer: "mov", from: length, fitting: box) else { Issue.record("no second clip"); return }
    #expect(abs(grey(second, 0) - (60 * length / 1000 - 16) * 255 / 219) <= 6 && grey(second, 0) > grey(first, first.frameCount - 1), "\(grey(second, 0))")
    // Near the end, fewer frames; past it, none.
    guard case .decoded(let last) = decoder.decodeClip(file, demuxer: "mov", from: 3500, fitting: box) else { Issue.record("no last clip"); return }
    #expect(last.frameCount < 8 && last.frameCount >= 4, "half a second left: \(last.frameCount) frames")
    guard case .failed(let past) = decoder.decodeClip(file, demuxer: "mov", from: 5000, fitting: box) else { Issue.record("a clip past the end"); return }
    #expect(past.message == "past the video's end")
}

@Test func aClipIsUprightAtTheVideosOwnSlowerRateAndBounded() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let turned = try dir.file("turned.mp4"), slow = try dir.file("slow.mp4"), large = try dir.file("large.mp4")
    try TestVideos.halves(at: turned, rotation: 90)
    guard case .decoded(let clip) = VideoDecoder().decodeClip(try videoFile(turned), demuxer: "mov", from: 0, fitting: PixelSize(width: 80, height: 80))
    else { Issue.record("no clip"); return }
    let frameHeight = clip.height / clip.frameCount
    #expect(clip.width == 60 && frameHeight == 80, "turned upright as the display matrix says: \(clip.width)x\(frameHeight)")
    guard case .decoded(let still) = VideoDecoder().decode(try videoFile(turned), demuxer: "mov", fitting: PixelSize(width: 80, height: 80)).result
    else { Issue.record("no still"); return }
    let shown = redSide(width: still.width, height: still.height) { x, y in
        let p = still.pixel(x: x, y: y); return (Int(p.0), Int(p.1), Int(p.2))
    }
    let played = redSide(width: clip.width, height: frameHeight) { x, y in
        let p = clip.frame(3).pixel(x: x, y: y); return (Int(p.0), Int(p.1), Int(p.2))
    }
    #expect(played == shown && (shown == "left" || shown == "right"), "played red \(played), its still \(shown)")
    // A video of 5 frames a second plays each for 200 ms.
    try greyRamp(at: slow, seconds: 2, rate: 5)
    guard case .decoded(let slowClip) = VideoDecoder().decodeClip(try videoFile(slow), demuxer: "mov", from: 0, fitting: PixelSize(width: 64, height: 64))
    else { Issue.record("no slow clip"); return }
    #expect(slowClip.frameCount == 10 && slowClip.delays.allSatisfy { $0 == 200 }, "\(slowClip.delays)")
    // Large frames: as many as the budget holds.
    try greyRamp(at: large, seconds: 1, size: "1920x1080")
    guard case .decoded(let big) = VideoDecoder().decodeClip(try videoFile(large), demuxer: "mov", from: 0, fitting: PixelSize(width: 1920, height: 1080))
    else { Issue.record("no large clip"); return }
    #expect(big.frameCount == VideoDecoder.clipBudget / (1920 * 1080 * 3) && big.pixels.count <= VideoDecoder.clipBudget, "\(big.frameCount) frames")
}
