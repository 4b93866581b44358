import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

@Test func theFilesOfLibvipsAndItsModulesAreFoundInAProcesssMap() {
    let maps = """
        55d0c0a00000-55d0c0a21000 r--p 00000000 fe:00 5309288                    /usr/libexec/lightbox/lightbox-decode
        7f10a0000000-7f10a0021000 rw-p 00000000 00:00 0 
        7f10a2000000-7f10a2010000 r--p 00000000 fe:00 4907504                    /usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-heif.so
        7f10a2010000-7f10a2020000 r-xp 00010000 fe:00 4907504                    /usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-heif.so
        7f10a3000000-7f10a3100000 r--p 00000000 fe:00 4907502                    /usr/lib/x86_64-linux-gnu/libvips.so.42.16.1
        7f10a4000000-7f10a4100000 r--p 00000000 fe:00 1234                       /usr/lib/x86_64-linux-gnu/libheif.so.1.15.1
        7ffc1e000000-7ffc1e021000 rw-p 00000000 00:00 0                          [stack]
        """
    #expect(
        DecoderFormats.libvipsFiles(maps: Array(maps.utf8)).map(\.description) == [
            "/usr/lib/x86_64-linux-gnu/vips-modules-8.14", "/usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-heif.so",
            "/usr/lib/x86_64-linux-gnu/libvips.so.42.16.1",
        ])
    #expect(DecoderFormats.libvipsFiles(maps: []).isEmpty)
}

@Test func aDecodersAnswerIsKeptWhileWhatItDependsOnIsAsItWas() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let decoder = ImagePath(try dir.file("bin/lightbox-decode")), library = ImagePath(try dir.file("lib/libvips.so.42"))
    let modules = ImagePath(try dir.file("lib/vips-modules/vips-heif.so")).parent
    try Data("decoder".utf8).write(to: URL(fileURLWithPath: decoder.description))
    try Data("libvips".utf8).write(to: URL(fileURLWithPath: library.description))
    let kept = ImagePath(dir.path + "/cache/lightbox/decoder-formats")
    let answer = try #require(
        DecoderFormats(answer: "jpeg\npng\nwebp\nsomething new\nuses \(library)\nuses \(modules)\n", decoder: decoder))
    #expect(answer.formats == [.jpeg, .png, .webp])
    #expect(answer.dependencies.map(\.path) == [decoder, library, modules])
    #expect(answer.save(to: kept))
    #expect(DecoderFormats.load(from: kept, decoder: decoder)?.formats == [.jpeg, .png, .webp])
    // Another build's decoder: asked again.
    #expect(DecoderFormats.load(from: kept, decoder: library) == nil)

    // libvips upgraded (replaced), a module added, the decoder rebuilt: each makes the answer stale.
    try Data("libvips 2".utf8).write(to: URL(fileURLWithPath: library.description))
    #expect(DecoderFormats.load(from: kept, decoder: decoder) == nil)
    let again = try #require(DecoderFormats(answer: "jpeg\nuses \(library)\nuses \(modules)\n", decoder: decoder))
    #expect(again.save(to: kept) && DecoderFormats.load(from: kept, decoder: decoder)?.formats == [.jpeg])
    Thread.sleep(forTimeInterval: 0.01)
    try Data("jxl".utf8).write(to: URL(fileURLWithPath: modules.appending(Array("vips-jxl.so".utf8)).description))
    #expect(DecoderFormats.load(from: kept, decoder: decoder) == nil)
    // An answer naming a file that is not there is not kept at all; nor one naming no format.
    #expect(DecoderFormats(answer: "jpeg\nuses /nonexistent/libvips.so\n", decoder: decoder) == nil)
    #expect(DecoderFormats(answer: "uses \(library)\n", decoder: decoder) == nil)
    #expect(DecoderFormats(answer: "", decoder: decoder) == nil)
}

@Test func aDamagedOrForeignFileInPlaceOfTheAnswerIsAskedAgain() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let decoder = ImagePath(try dir.file("lightbox-decode"))
    try Data("decoder".utf8).write(to: URL(fileURLWithPath: decoder.description))
    let kept = ImagePath(try dir.file("cache/decoder-formats"))
    let good = try #require(DecoderFormats(answer: "jpeg\nwebp\n", decoder: decoder))
    #expect(good.save(to: kept))
    let text = try String(contentsOfFile: kept.description, encoding: .utf8)
    for damaged in [
        "", "lightbox decoder formats 2\n" + text.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n",
        String(text.dropLast(9)), text.replacingOccurrences(of: "webp", with: "wbep"),
        text.replacingOccurrences(of: "formats ", with: "formats"), text + "uses 1 2 three 4 5 /x\n", String(repeating: "x", count: 70_000),
        "lightbox decoder formats 1\nformats jpeg\n",
    ] {
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: kept.description))
        #expect(DecoderFormats.load(from: kept, decoder: decoder) == nil, "\(damaged.prefix(60))")
    }
    // A link planted where the answer goes is replaced, not written through.
    let target = ImagePath(try dir.file("elsewhere"))
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: target.description))
    try FileManager.default.removeItem(atPath: kept.description)
    try FileManager.default.createSymbolicLink(atPath: kept.description, withDestinationPath: target.description)
    #expect(good.save(to: kept))
    #expect(try String(contentsOfFile: target.description, encoding: .utf8) == "keep me")
    #expect(DecoderFormats.load(from: kept, decoder: decoder)?.formats == [.jpeg, .webp])
}
