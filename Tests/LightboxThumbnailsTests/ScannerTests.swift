import Foundation
import Testing
import LightboxTestSupport
import LightboxThumbnails
#if canImport(Glibc)
import Glibc
#endif

@Test func scanGroupsByFolderInNaturalOrderAndRecognisesContent() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["b/IMG_10.jpg", "b/IMG_2.jpg", "b/IMG_1.jpg", "a/x.jpg", "a/deeper/y.jpg"] {
        try TestImages.jpeg(at: try dir.file(name), width: 16, height: 16)
    }
    try TestImages.png(at: try dir.file("a/named-wrong.txt"), width: 8, height: 8)     // an image by content
    try TestImages.bytes(Array("not an image".utf8), at: try dir.file("a/fake.jpg"))  // not one
    try TestImages.jpeg(at: try dir.file("a/.hidden.jpg"), width: 8, height: 8)

    let result = Scanner().scan([ImagePath(dir.path)])
    let names = result.folders.map { ($0.path.description.replacingOccurrences(of: dir.path, with: ""),
                                      $0.files.map { String(decoding: $0.path.lastComponent, as: UTF8.self) }) }
    #expect(names.map(\.0) == ["/a", "/a/deeper", "/b"])
    #expect(names[0].1 == ["named-wrong.txt", "x.jpg"])
    #expect(names[2].1 == ["IMG_1.jpg", "IMG_2.jpg", "IMG_10.jpg"])
    // The fake is named like an image: it is reported, with what it holds.
    #expect(result.problems == ["not an image: \(dir.path)/a/fake.jpg (text)"])
}

@Test func fifosAreSkippedWithoutOpeningAndLinkLoopsEnd() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try TestImages.jpeg(at: try dir.file("pics/a.jpg"), width: 8, height: 8)
    #expect(mkfifo(dir.path + "/pics/pipe.jpg", 0o600) == 0)  // opening it for reading would block forever
    #expect(symlink(dir.path + "/pics", dir.path + "/pics/loop") == 0)
    #expect(symlink("/dev/zero", dir.path + "/pics/zero.jpg") == 0)
    let result = Scanner().scan([ImagePath(dir.path)])
    #expect(result.folders.flatMap(\.files).count == 1)
}

@Test func missingPathsAreReported() {
    let result = Scanner().scan([ImagePath("/nonexistent/lightbox")])
    #expect(result.folders.isEmpty)
    #expect(result.problems.first?.contains("No such file") == true)
}

@Test func pathsKeepTheirBytes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
    let path = ImagePath(dir.path).appending(name)
    try TestImages.jpeg(at: dir.path + "/tmp.jpg", width: 8, height: 8)
    #expect(path.withCString { rename(dir.path + "/tmp.jpg", $0) } == 0)
    let found = Scanner().scan([ImagePath(dir.path)]).folders.flatMap(\.files)
    #expect(found.map(\.path) == [path])
    #expect(Array(found[0].path.lastComponent) == name)
}

@Test func naturalOrder() {
    let names = ["IMG_10", "img_2", "IMG_1", "IMG_01", "a", "IMG_2b"].map { ImagePath($0) }
    #expect(names.sorted().map(\.description) == ["a", "IMG_1", "IMG_01", "img_2", "IMG_2b", "IMG_10"])
}

@Test func foldersDeeperThanPathMaxAreReportedNotSkippedSilently() throws {
    let dir = try TemporaryDirectory()
    defer { _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", dir.path]).waitUntilExit() }
    try TestImages.jpeg(at: try dir.file("top.jpg"), width: 8, height: 8)
    // Build the tree with mkdirat/openat (no chdir: tests run in parallel): its full path is far past PATH_MAX.
    var fd = open(dir.path, O_RDONLY | O_DIRECTORY)
    for i in 0..<300 {
        let name = String(format: "d%018d", i)
        mkdirat(fd, name, 0o755)
        let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
        close(fd)
        fd = next
    }
    close(fd)
    let result = Scanner().scan([ImagePath(dir.path)])
    #expect(result.folders.flatMap(\.files).count == 1)
    #expect(result.problems.contains { $0.contains("File name too long") })
}
