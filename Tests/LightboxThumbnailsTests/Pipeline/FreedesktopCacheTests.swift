import Foundation
import LightboxCodecs
import LightboxTestSupport
import Synchronization
import Testing

@testable import LightboxThumbnails

/// URIs and names as GLib 2.74's g_filename_to_uri and g_compute_checksum_for_string (MD5) give them.
let glibVectors: [([UInt8], String, String)] = [
    (Array("/home/user/Pictures/IMG_0001.jpg".utf8), "file:///home/user/Pictures/IMG_0001.jpg", "0d75a792b353353f843baad84c0509d9"),
    (Array("/home/user/My Photos/a b.jpg".utf8), "file:///home/user/My%20Photos/a%20b.jpg", "4f57be03a40bc863cab84f789cd95584"),
    (Array("/tmp/100%/x.png".utf8), "file:///tmp/100%25/x.png", "d8270c1bcec4071d9c5d58c5d3c5845b"),
    (Array("/photos/café/été.jpg".utf8), "file:///photos/caf%C3%A9/%C3%A9t%C3%A9.jpg", "877f49700a0f293498954b5d10bbb49b"),
    (Array("/photos/line\nbreak.jpg".utf8), "file:///photos/line%0Abreak.jpg", "c1931315825b26f554cd08570df1c647"),
    (Array("/p/!$&'()*+,;=:@~-_.jpg".utf8), "file:///p/!$&'()*+,%3B=:@~-_.jpg", "ee657be4cdad762f64adc07acaee241e"),
    (Array("/p/a#b?c[d]e{f}.jpg".utf8), "file:///p/a%23b%3Fc%5Bd%5De%7Bf%7D.jpg", "ff97e6d98c388aaffaced093763122ec"),
    (Array("/p/".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8), "file:///p/%FF%FE.jpg", "702a4ee8f770e78bbaeaea6ea6605d6f"),
]

@Test func urisAndNamesMatchGLib() {
    for (path, uri, md5) in glibVectors {
        #expect(FreedesktopCache.uri(forAbsolutePath: path) == uri)
        #expect(MD5.hex(Array(uri.utf8)) == md5, "\(uri)")
    }
}

@Test func md5KnownAnswers() {
    #expect(MD5.hex([]) == "d41d8cd98f00b204e9800998ecf8427e")
    #expect(MD5.hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
    #expect(MD5.hex(Array(String(repeating: "1234567890", count: 8).utf8)) == "57edf4a22be3c955ac49da2e2107b67a")
}

@Test func pathsAreMadeAbsoluteLexically() {
    #expect(FreedesktopCache.absolute(ImagePath("/a/./b/../c//d.jpg")) == ImagePath("/a/c/d.jpg"))
    let cwd = FileManager.default.currentDirectoryPath
    #expect(FreedesktopCache.absolute(ImagePath("x/y.jpg")) == ImagePath(cwd + "/x/y.jpg"))
}

@Test func standardSizesAndFolders() {
    #expect(FreedesktopCache.Size.covering(40) == .normal)
    #expect(FreedesktopCache.Size.covering(129) == .large)
    #expect(FreedesktopCache.Size.covering(1024) == .xxLarge)
    #expect(FreedesktopCache.Size.covering(1025) == nil)
    #expect(FreedesktopCache.defaultRoot(folder: { ["XDG_CACHE_HOME": ImagePath("/c")][$0] }) == ImagePath("/c/thumbnails"))
    #expect(FreedesktopCache.defaultRoot(folder: { ["HOME": ImagePath("/h")][$0] }) == ImagePath("/h/.cache/thumbnails"))
    // Bytes that are not UTF-8 name the same folder, not a lossy copy of it.
    let latin1 = ImagePath(bytes: Array("/home/caf".utf8) + [0xE9])
    #expect(FreedesktopCache.defaultRoot(folder: { ["HOME": latin1][$0] }) == ImagePath(bytes: latin1.bytes + Array("/.cache/thumbnails".utf8)))
}

func source(_ path: String, mtime: Int64 = 1_700_000_000, size: Int64 = 1234) -> FreedesktopCache.Source {
    FreedesktopCache.Source(absolutePath: ImagePath(path), modifiedSeconds: mtime, byteCount: size)
}

@Test func entriesAreValidOnlyWhileMTimeAndSizeMatch() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let thumbnail = Thumbnail(width: 128, height: 96, pixels: TestImages.solid(width: 128, height: 96, 10, 200, 30))
    #expect(cache.store(thumbnail, for: source("/p/a b.jpg"), size: .normal))
    let data = try #require(cache.lookup(source("/p/a b.jpg"), needing: 100))
    let text = try #require(PNGText.entries(in: data))
    #expect(text["Thumb::URI"] == "file:///p/a%20b.jpg")
    #expect(text["Thumb::MTime"] == "1700000000")
    #expect(text["Thumb::Size"] == "1234")
    #expect(cache.lookup(source("/p/a b.jpg", mtime: 1_700_000_001), needing: 100) == nil)
    #expect(cache.lookup(source("/p/a b.jpg", size: 99), needing: 100) == nil)
    #expect(cache.lookup(source("/p/a b.jpg"), needing: 200) == nil)  // a normal entry is too small for 200 px
    // Modes: files 0600, folders 0700; the name is the URI's MD5.
    let path = dir.path + "/thumbnails/normal/" + MD5.hex(Array("file:///p/a%20b.jpg".utf8)) + ".png"
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: dir.path + "/thumbnails/normal")
    #expect((folder[.posixPermissions] as? Int) == 0o700)
    // And libvips reads what we wrote as an ordinary PNG.
    let decoded = VipsDecoder().decode(data: data, fitting: PixelSize(width: 128, height: 128))
    guard case .decoded(let back) = decoded else { Issue.record("cannot read our own PNG: \(decoded)"); return }
    #expect(back.width == 128 && back.height == 96 && back.pixel(x: 5, y: 5) == (10, 200, 30))
}

@Test func entriesWrittenByOthersWithCompressedTextAreRead() throws {
    // zTXt as libvips and some desktop thumbnailers write it.
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let s = source("/q/x.jpg")
    let path = try dir.file("other.png")
    try ImageEncoder.write(TestImages.solid(width: 4, height: 4, 1, 2, 3), width: 4, height: 4, to: path, as: .png)
    var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    // Insert a zTXt chunk after IHDR (8 + 25 bytes).
    let compressed: [UInt8] = [
        0x78, 0x9C, 0x4B, 0xCB, 0xCC, 0x49, 0xB5, 0xD2, 0xD7, 0xD7, 0x2F, 0xD4, 0xAF, 0xD0, 0xCB, 0x2A,
        0x48, 0x07, 0x00, 0x27, 0x38, 0x04, 0xEF,
    ]  // zlib.compress(b"file:///q/x.jpg")
    var chunk: [UInt8] = []
    PNGWriter.chunk("zTXt", Array("Thumb::URI".utf8) + [0, 0] + compressed, into: &chunk)
    data.insert(contentsOf: chunk, at: 33)
    #expect(PNGText.entries(in: data)?["Thumb::URI"] == s.uri)
}

@Test func failuresAreRecordedAndExpireWithTheFile() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"), version: "9.9")
    #expect(cache.recordedFailure(for: source("/p/bad.jpg")) == nil)
    #expect(cache.storeFailure("cannot decode: Not a JPEG file", for: source("/p/bad.jpg")))
    #expect(cache.recordedFailure(for: source("/p/bad.jpg")) == "cannot decode: Not a JPEG file")
    #expect(cache.recordedFailure(for: source("/p/bad.jpg", mtime: 5)) == nil)
    #expect(FileManager.default.fileExists(atPath: dir.path + "/thumbnails/fail/lightbox-9.9"))
}

@Test func aConcurrentReaderNeverSeesAHalfWrittenEntry() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let s = source("/p/busy.jpg")
    let path = cache.entryPath(for: s, size: .large)
    // Whether the writes are over, and how many torn files the reader saw.
    let seen = Mutex((finished: false, torn: 0))
    let ended = DispatchSemaphore(value: 0)
    let reader = Thread {
        while !seen.withLock({ $0.finished }) {
            if case .success(let data) = FileReader.read(path, limit: 1 << 24) {
                // A whole file ends with IEND and carries its text.
                if !(data.suffix(8).starts(with: Array("IEND".utf8)) && PNGText.entries(in: data)?["Thumb::URI"] == s.uri) {
                    seen.withLock { $0.torn += 1 }
                }
            }
        }
        ended.signal()
    }
    reader.start()
    for i in 0..<200 {
        let shade = UInt8(i % 256)
        #expect(
            cache.store(
                Thumbnail(width: 256, height: 192, pixels: TestImages.solid(width: 256, height: 192, shade, shade, shade)),
                for: s, size: .large))
    }
    seen.withLock { $0.finished = true }
    #expect(ended.wait(timeout: .now() + 10) == .success)
    #expect(seen.withLock { $0.torn } == 0)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/thumbnails/large").filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty)
}

@Test func ourPNGDecoderAgreesWithLibvipsOnFilteredImages() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // A gradient with noise makes libpng pick varied row filters (Sub, Up, Average, Paeth).
    var pixels = [UInt8](repeating: 0, count: 97 * 61 * 3)
    var seed: UInt32 = 7
    for i in pixels.indices { seed = seed &* 1_103_515_245 &+ 12345; pixels[i] = UInt8(truncatingIfNeeded: i / 3 % 97 * 2 + Int(seed >> 28)) }
    let path = try dir.file("filtered.png")
    try ImageEncoder.write(pixels, width: 97, height: 61, to: path, as: .png)
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let ours = try #require(PNGDecoder.decode(data))
    #expect(ours.width == 97 && ours.height == 61)
    #expect(ours.pixels == pixels)
    // Our writer's output round-trips too; junk and truncation give nil, never a crash.
    let written = try #require(PNGWriter.encode(ours, text: [("k", "v")]))
    #expect(PNGDecoder.decode(written)?.pixels == pixels)
    for cut in stride(from: 0, to: data.count, by: 37) { _ = PNGDecoder.decode(Array(data.prefix(cut))) }
    #expect(PNGDecoder.decode(Array("not a png".utf8)) == nil)
}

@Test func aTransparentThumbnailIsCachedAsRGBAAndReadBackTheSame() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let thumbnail = try #require(PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: try translucentPNG(in: dir))))))
    let entry = source("/p/logo.png")
    #expect(cache.store(thumbnail, for: entry, size: .normal))
    let png = try #require(cache.lookup(entry, needing: 40))
    #expect(png[25] == 6, "colour type RGBA, as other programs reading the cache expect")
    let back = try #require(PNGDecoder.decode(png))
    let alpha = try #require(back.alpha)
    #expect(zip(alpha, thumbnail.alpha!).allSatisfy { $0 == $1 })
    #expect(zip(back.pixels, thumbnail.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "premultiplied, divided and multiplied again")
}

/// An entry an earlier Lightbox wrote flattened transparency onto grey: for a kind of file that
/// may be transparent it is made again, once; entries others wrote, and ours for JPEGs, stay.
@Test func entriesAnEarlierLightboxFlattenedAreMadeAgain() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let thumbnail = Thumbnail(width: 8, height: 8, pixels: TestImages.solid(width: 8, height: 8, 30, 30, 30))
    func entry(software: String, marked: Bool) -> [UInt8] {
        let plain = source("/p/logo.png")
        var text: [(String, String)] = [
            ("Thumb::URI", plain.uri), ("Thumb::MTime", String(plain.modifiedSeconds)), ("Thumb::Size", String(plain.byteCount)),
            ("Software", software),
        ]
        if marked { text.append(("X-Lightbox::Alpha", "kept")) }
        return PNGWriter.encode(thumbnail, text: text)!
    }
    let path = cache.entryPath(for: source("/p/logo.png"), size: .normal)
    let png = FreedesktopCache.Source(absolutePath: ImagePath("/p/logo.png"), modifiedSeconds: 1_700_000_000, byteCount: 1234, mayBeTransparent: true)
    let jpeg = FreedesktopCache.Source(absolutePath: ImagePath("/p/logo.png"), modifiedSeconds: 1_700_000_000, byteCount: 1234)
    for (software, marked, forPNG) in [("Lightbox", false, false), ("Lightbox", true, true), ("GNOME::ThumbnailFactory", false, true)] {
        try FileManager.default.createDirectory(atPath: path.parent.description, withIntermediateDirectories: true)
        try TestImages.bytes(entry(software: software, marked: marked), at: path.description)
        #expect((cache.lookup(png, needing: 8) != nil) == forPNG, "\(software) \(marked): for a PNG")
        #expect(cache.lookup(jpeg, needing: 8) != nil, "\(software) \(marked): for a JPEG")
    }
    // What Lightbox writes now is marked, so it is found again.
    #expect(cache.store(thumbnail, for: png, size: .normal) && cache.lookup(png, needing: 8) != nil)
}

@Test func anEntryThatCannotBeWrittenSaysWhyAndLeavesNothing() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // The size's folder is a file: nothing can go in it (as root too, unlike a folder's mode).
    try FileManager.default.createDirectory(atPath: dir.path + "/thumbnails", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: dir.path + "/thumbnails/normal", contents: Data("x".utf8))
    let cache = FreedesktopCache(root: ImagePath(dir.path + "/thumbnails"))
    let thumbnail = Thumbnail(width: 8, height: 8, pixels: TestImages.solid(width: 8, height: 8, 1, 2, 3))
    guard case .failure(let failure) = cache.put(thumbnail, for: source("/p/a.jpg"), size: .normal) else {
        Issue.record("written into a file")
        return
    }
    #expect(failure.reason == "Not a directory")
    #expect(!cache.store(thumbnail, for: source("/p/a.jpg"), size: .normal))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/thumbnails") == ["normal"], "no temporary file left")
    #expect((try? cache.put(thumbnail, for: source("/p/a.jpg"), size: .large).get()) != nil, "another size's folder takes it")
}
