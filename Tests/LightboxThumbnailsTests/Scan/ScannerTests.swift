import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

@Test func scanGroupsByFolderInNaturalOrderAndRecognisesContent() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["b/IMG_10.jpg", "b/IMG_2.jpg", "b/IMG_1.jpg", "a/x.jpg", "a/deeper/y.jpg"] {
        try TestImages.jpeg(at: try dir.file(name), width: 16, height: 16)
    }
    try TestImages.png(at: try dir.file("a/named-wrong.txt"), width: 8, height: 8)  // an image by content
    try TestImages.bytes(Array("not an image".utf8), at: try dir.file("a/fake.jpg"))  // not one
    try TestImages.jpeg(at: try dir.file("a/.hidden.jpg"), width: 8, height: 8)

    let result = Scanner().scan([ImagePath(dir.path)])
    let names = result.folders.map {
        (
            $0.path.description.replacingOccurrences(of: dir.path, with: ""),
            $0.files.map { String(decoding: $0.path.lastComponent, as: UTF8.self) }
        )
    }
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

/// A tree whose deepest folder's path is about 6,000 bytes, past PATH_MAX, built with mkdirat/openat
/// (no chdir: tests run in parallel), with a small JPEG at the bottom; returns that JPEG's path.
func makeTreeDeeperThanPathMax(in dir: TemporaryDirectory) throws -> ImagePath {
    var fd = open(dir.path, O_RDONLY | O_DIRECTORY)
    var path = ImagePath(dir.path)
    for i in 0..<300 {
        let name = String(format: "d%018d", i)
        mkdirat(fd, name, 0o755)
        let next = openat(fd, name, O_RDONLY | O_DIRECTORY)
        close(fd)
        fd = next
        path = path.appending(Array(name.utf8))
    }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    let file = openat(fd, "deep.jpg", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(jpeg.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == jpeg.count)
    close(file)
    close(fd)
    return path.appending(Array("deep.jpg".utf8))
}

@Test func treesDeeperThanPathMaxAreWalked() throws {
    let dir = try TemporaryDirectory()
    defer { _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", dir.path]).waitUntilExit() }
    try TestImages.jpeg(at: try dir.file("top.jpg"), width: 8, height: 8)
    let deep = try makeTreeDeeperThanPathMax(in: dir)
    #expect(deep.bytes.count > Int(PATH_MAX))
    let result = Scanner().scan([ImagePath(dir.path)])
    #expect(result.folders.flatMap(\.files).map(\.path) == [ImagePath(dir.path + "/top.jpg"), deep])
    #expect(result.problems.isEmpty)
    // The decoders open it too.
    let read = FileReader.read(deep, limit: 1 << 20)
    #expect((try? read.get())?.prefix(2) == [0xFF, 0xD8])
}

@Test func batchesComeInDisplayOrderAndGrowFromSmall() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    for i in 0..<300 { try TestImages.bytes(jpeg, at: try dir.file("big/\(i).jpg")) }
    try TestImages.bytes(jpeg, at: try dir.file("big/sub/x.jpg"))
    try TestImages.bytes(jpeg, at: try dir.file("big c/y.jpg"))
    var scanner = Scanner()
    scanner.batchLimit = 100
    var batches: [(String, Int)] = []
    scanner.scan([ImagePath(dir.path)]) { batch in
        batches.append((batch.folder.description.replacingOccurrences(of: dir.path, with: ""), batch.files.count))
        return true
    }
    // A folder's images, then its subfolders: "big/sub" comes before "big c".
    #expect(batches.map(\.0) == ["/big", "/big", "/big", "/big", "/big/sub", "/big c"])
    #expect(batches.map(\.1) == [64, 64, 100, 72, 1, 1])
    var stoppedAfter = 0
    scanner.scan([ImagePath(dir.path)]) { _ in
        stoppedAfter += 1; return false
    }
    #expect(stoppedAfter == 1)
}

@Test func aBackgroundScanHandsOverEverythingInOrderAndCanBeStopped() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    for i in 0..<500 { try TestImages.bytes(jpeg, at: try dir.file("f/\(i).jpg")) }
    let scan = BackgroundScan(paths: [ImagePath(dir.path)])
    var names: [String] = []
    var finished = false
    while !finished {
        var ready = pollfd(fd: scan.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1, "the wake descriptor says when there is something")
        let progress = scan.take()
        for batch in progress.batches { names += batch.files.map { String(decoding: $0.path.lastComponent, as: UTF8.self) } }
        finished = progress.isFinished
    }
    #expect(names == (0..<500).map { "\($0).jpg" })

    // Stopped while its first batch is on the way: nothing more is handed over, and it ends.
    let held = DispatchSemaphore(value: 0)
    let stopped = BackgroundScan(paths: [ImagePath(dir.path)]) { batch in
        held.wait(); return batch
    }
    stopped.stop()
    held.signal()
    stopped.waitForBatches(timeout: 5)
    let progress = stopped.take()
    #expect(progress.isFinished && progress.batches.isEmpty)
}

/// A scan's batches are taken a part at a time when asked (a replayed index's thousands): each
/// take holds whole batches up to the limit, the first whatever its size, what is left wakes the
/// loop again, and the scan is over only once the last is taken.
@Test func aBackgroundScansBatchesAreTakenAPartAtATime() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    for folder in 0..<6 { for i in 0..<3 { try TestImages.bytes(jpeg, at: try dir.file("f\(folder)/\(i).jpg")) } }
    let scan = BackgroundScan(paths: [ImagePath(dir.path)])
    scan.waitForBatches(timeout: 5)
    usleep(300_000)  // the walk of 18 files is over by then: all six folders' batches wait
    var takes: [[Int]] = []
    var finished = false
    while !finished, takes.count < 20 {
        var ready = pollfd(fd: scan.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1, "what is left wakes the loop")
        let progress = scan.take(filesAtMost: 7)
        takes.append(progress.batches.map(\.files.count))
        finished = progress.isFinished
    }
    #expect(takes.allSatisfy { $0.reduce(0, +) <= 7 }, "\(takes)")
    #expect(takes == [[3, 3], [3, 3], [3, 3]], "\(takes)")
}

@Test func aScanStuckInAReadNeverHoldsUpItsCaller() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try TestImages.jpeg(at: try dir.file("a.jpg"), width: 8, height: 8)
    // The scan thread blocks for good, as in a read from a dead network mount.
    let never = DispatchSemaphore(value: 0)
    let scan = BackgroundScan(paths: [ImagePath(dir.path)]) { batch in
        never.wait(); return batch
    }
    let start = Date()
    scan.waitForImages(timeout: 0.2)
    scan.waitForBatches(timeout: 0.2)
    let progress = scan.take()
    scan.stop()
    #expect(progress.batches.isEmpty && !progress.isFinished)
    #expect(Date().timeIntervalSince(start) < 2, "waits are bounded by their timeouts")
}

@Test func aListIsReadRecordByRecordInItsOwnOrder() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    for name in ["b.jpg", "a.jpg", "with\nnewline.jpg"] { try TestImages.bytes(jpeg, at: try dir.file(name)) }
    for (separator, names) in [(UInt8(10), ["b.jpg", "a.jpg"]), (UInt8(0), ["b.jpg", "with\nnewline.jpg", "a.jpg"])] {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        // The last record has no separator; an empty record and a missing file are passed over.
        var list = names.flatMap { Array((dir.path + "/" + $0).utf8) + [separator] } + [separator] + Array("/nonexistent".utf8) + [separator]
        list += Array((dir.path + "/" + names[0]).utf8)
        #expect(list.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == list.count)
        close(fds[1])
        let result = Scanner().scan(listIn: fds[0], separator: separator)
        close(fds[0])
        let found = result.folders.flatMap(\.files).map { String(decoding: $0.path.lastComponent, as: UTF8.self) }
        #expect(found == names + [names[0]])
        #expect(result.problems.count == 1)
    }
}

@Test(arguments: [1, 8]) func theMetadataReaderReadsInOrderWithUrgentOnesFirst(threads: Int) throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = TestImages.withMetadata(main: try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 1, 2, 3), width: 8, height: 8), TestMetadata())
    var requests: [MetadataRequest] = []
    for i in 0..<40 {
        let path = try dir.file("\(i).jpg")
        try TestImages.bytes(photo, at: path)
        requests.append(MetadataRequest(id: ItemID(i), file: ImageFile(path: ImagePath(path), byteCount: Int64(photo.count), modified: 0, format: .jpeg)))
    }
    let reader = MetadataReader(threads: threads)
    reader.enqueue(Array(requests[0..<20]))
    reader.readFirst(requests[39])
    reader.enqueue(Array(requests[20..<39]))
    var results: [MetadataResult] = []
    let deadline = Date(timeIntervalSinceNow: 10)
    while results.count < 40 && Date() < deadline {
        var ready = pollfd(fd: reader.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 200)
        results += reader.take()
    }
    reader.stop()
    #expect(results.count == 40 && Set(results.map(\.id.rawValue)) == Set(0..<40))
    #expect(results.allSatisfy { $0.metadata?.model == "Test Camera 1" && $0.size == PixelSize(width: 8, height: 8) })
    // Eight at once finish in whatever order their threads run (on two cores, one may wait its turn).
    if threads == 1 {
        #expect(results.firstIndex { $0.id == ItemID(39) }! < results.firstIndex { $0.id == ItemID(30) }!, "the urgent one comes before later ones")
    }
}

/// Scans `list` as a list file (a regular file, so it may be larger than a pipe holds).
func scanList(_ list: [UInt8], separator: UInt8, in dir: TemporaryDirectory) throws -> LightboxThumbnails.Scanner.Result {
    let path = try dir.file("list")
    try TestImages.bytes(list, at: path)
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    return Scanner().scan(listIn: fd, separator: separator)
}

@Test func aLineHoldingNulBytesIsNotAPath() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    try TestImages.bytes(jpeg, at: try dir.file("a.jpg"))
    // A NUL-separated list read as lines: one "line" naming an image, then every other file.
    let blob = Array((dir.path + "/a.jpg").utf8) + [0] + Array("/etc/passwd".utf8) + [0]
    let result = try scanList(blob, separator: 10, in: dir)
    #expect(result.folders.isEmpty)
    #expect(result.problems.count == 1 && result.problems[0].contains("--read0"))
}

@Test func problemsAreSampledAndCountedAndRecordsBounded() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let lines = (0..<20_000).map { "missing-\($0)" }.joined(separator: "\n")
    let result = try scanList(Array(lines.utf8), separator: 10, in: dir)
    #expect(result.problems.count == Scanner.problemSampleLimit)
    #expect(result.problems.count + result.unlistedProblems == 20_000)
    // A record over the limit is skipped whole, with one problem; the records after it are read.
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    try TestImages.bytes(jpeg, at: try dir.file("b.jpg"))
    let long = Array(repeating: UInt8(ascii: "x"), count: Scanner.listRecordLimit + 200_000) + [10] + Array((dir.path + "/b.jpg").utf8)
    let second = try scanList(long, separator: 10, in: dir)
    #expect(second.folders.flatMap(\.files).count == 1)
    #expect(second.problems.count == 1 && second.problems[0].contains("longer than"))
    // A problem about a huge name keeps its ends, not the whole name.
    let huge = try scanList(Array(repeating: UInt8(ascii: "y"), count: 500_000), separator: 10, in: dir)
    #expect(huge.problems.count == 1 && huge.problems[0].count <= Scanner.problemTextLimit + 1)
}

@Test func aDeepTreeIsWalkedWithFewFoldersOpen() throws {
    // Forty levels, with a side folder and an image at several of them, walked keeping at most
    // three folders open: folders closed on the way down are opened again on the way back.
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let jpeg = try TestImages.jpegBytes(TestImages.solid(width: 8, height: 8, 200, 60, 40), width: 8, height: 8)
    var folder = dir.path + "/root"
    for level in 0..<40 {
        try FileManager.default.createDirectory(atPath: folder + "/side", withIntermediateDirectories: true)
        if level % 3 == 0 { try TestImages.bytes(jpeg, at: folder + "/side/s\(level).jpg") }
        if level % 7 == 0 { try TestImages.bytes(jpeg, at: folder + "/i\(level).jpg") }
        folder += "/d"
    }
    var scanner = LightboxThumbnails.Scanner()
    let wide = scanner.scan([ImagePath(dir.path + "/root")])
    scanner.openFolderLimit = 3
    let narrow = scanner.scan([ImagePath(dir.path + "/root")])
    let names = narrow.folders.flatMap(\.files).map(\.path)
    #expect(names.count == 6 + 14)
    #expect(names == wide.folders.flatMap(\.files).map(\.path))
    #expect(narrow.problems.isEmpty, "\(narrow.problems)")
}

/// An entry as glibc packs it (its own length, not `dirent`'s), the last before an unmapped
/// page: its name and type are read without touching that page (a copy of `d_name` crashed).
@Test func aDirectoryEntryIsReadNoFurtherThanItsName() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let memory = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
    #expect(memory != MAP_FAILED)
    defer { munmap(memory, 2 * page) }
    #expect(mprotect(memory + page, page, PROT_NONE) == 0)
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    let name = Array("IMG_1.JPG".utf8) + [0]
    let length = (nameOffset + name.count + 7) / 8 * 8
    let entry = memory + page - length
    entry.storeBytes(of: UInt8(DT_REG), toByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_type)!, as: UInt8.self)
    name.withUnsafeBytes { (entry + nameOffset).copyMemory(from: $0.baseAddress!, byteCount: name.count) }
    let typed = entry.assumingMemoryBound(to: dirent.self)
    #expect(Array(DirectoryEntry.name(typed)) == Array("IMG_1.JPG".utf8))
    #expect(Int(DirectoryEntry.type(typed)) == DT_REG)
}

/// With reads in flight (a network mount) and `listsFirst`, a folder is handed out first as its
/// listing names it (files named like images, not read), then as the walk reads it, then its
/// listing's end; a file named like an image that is not one is in the listing only.
@Test func aFoldersListingComesBeforeItsFilesAreRead() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.JPG"] { try TestImages.jpeg(at: try dir.file("photos/" + name), width: 16, height: 16) }
    try TestImages.png(at: try dir.file("photos/IMG_3.jpg"), width: 4, height: 4)
    try TestImages.bytes(Array("not a photo".utf8), at: try dir.file("photos/IMG_4.jpg"))
    try TestImages.bytes(Array("notes".utf8), at: try dir.file("photos/notes.txt"))
    var scanner = LightboxThumbnails.Scanner()
    scanner.readsInFlight = 4
    scanner.listsFirst = true
    var batches: [LightboxThumbnails.Scanner.Batch] = []
    scanner.scan([ImagePath(dir.path + "/photos")]) {
        batches.append($0); return true
    }
    let names = { (batch: LightboxThumbnails.Scanner.Batch) in batch.files.map { String(decoding: $0.path.lastComponent, as: UTF8.self) } }
    #expect(batches.first?.isListing == true)
    #expect(batches.first.map(names) == ["IMG_1.jpg", "IMG_2.JPG", "IMG_3.jpg", "IMG_4.jpg"])
    #expect(batches.first?.files.allSatisfy { $0.isListed && $0.format == .jpeg } == true)
    let walked = batches.dropFirst().filter { !$0.isListing }
    #expect(walked.flatMap(names) == ["IMG_1.jpg", "IMG_2.JPG", "IMG_3.jpg"])
    #expect(walked.flatMap(\.files).map(\.format) == [.jpeg, .jpeg, .png])
    #expect(walked.flatMap(\.files).allSatisfy { !$0.isListed && $0.byteCount > 0 })
    #expect(batches.last?.endsListing == true && batches.last?.files.isEmpty == true)
    #expect(batches.filter(\.endsListing).count == 1 && batches.last?.problems.isEmpty == true)
    // A whole scan (lists, --warm) never counts the listing's files.
    #expect(scanner.scan([ImagePath(dir.path + "/photos")]).folders.flatMap(\.files).count == 3)
    // On a local disk (one read at a time) there is no listing: each file is read as soon.
    scanner.readsInFlight = 1
    batches = []
    scanner.scan([ImagePath(dir.path + "/photos")]) {
        batches.append($0); return true
    }
    #expect(!batches.contains { $0.isListing || $0.endsListing })
}

/// Paths given (or listed) are looked at many at once where asked: the same files in the same
/// order, with the same problems, as one at a time; folders among them walked in their place.
@Test func pathsGivenAreLookedAtManyAtOnceInTheirOrder() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    var paths: [ImagePath] = []
    for i in (1...40).reversed() {
        try TestImages.jpeg(at: try dir.file("f/\(i).jpg"), width: 8, height: 8)
        paths.append(ImagePath(dir.path + "/f/\(i).jpg"))
        if i == 20 { paths += [ImagePath(dir.path + "/sub"), ImagePath(dir.path + "/missing.jpg"), ImagePath(dir.path + "/notes.txt")] }
        if i == 10 { paths.append(ImagePath(dir.path + "/fake.jpg")) }
    }
    try TestImages.jpeg(at: try dir.file("sub/inner.jpg"), width: 8, height: 8)
    try TestImages.bytes(Array("notes".utf8), at: try dir.file("notes.txt"))
    try TestImages.bytes(Array("not a photo".utf8), at: try dir.file("fake.jpg"))
    var one = LightboxThumbnails.Scanner()
    one.readsInFlight = 1
    var many = one
    many.readsInFlight = 8
    let alone = one.scan(paths), together = many.scan(paths)
    let names = { (result: LightboxThumbnails.Scanner.Result) in result.folders.flatMap(\.files).map(\.path.description) }
    #expect(names(together) == names(alone))
    #expect(names(together).count == 41)
    #expect(names(together)[21] == dir.path + "/sub/inner.jpg", "the folder walked in its place, after 40 to 20")
    #expect(together.problems == alone.problems)
    #expect(together.problems.count == 3, "\(together.problems)")
}

/// A file given that the index knows at its size and time is recognised from a look at its
/// attributes, not opened (a file changed under the same size and time is still taken as
/// the index has it); one the index does not know is opened and kept there.
@Test func aFileGivenThatTheIndexKnowsIsNotOpened() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("photos/a.jpg")
    try TestImages.jpeg(at: path, width: 8, height: 8)
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    var scanner = LightboxThumbnails.Scanner()
    scanner.index = index
    scanner.readsInFlight = 4
    let given = [ImagePath(path), ImagePath(path)]
    #expect(scanner.scan(given).folders.flatMap(\.files).count == 2)
    // The same size and time, other bytes: only an open would see it is not a photo.
    var info = stat()
    #expect(stat(path, &info) == 0)
    try TestImages.bytes([UInt8](repeating: 0x20, count: Int(info.st_size)), at: path)
    var times = [info.st_atim, info.st_mtim]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    let again = scanner.scan(given)
    #expect(again.folders.flatMap(\.files).count == 2 && again.problems.isEmpty)
    var unindexed = scanner
    unindexed.index = nil
    #expect(unindexed.scan(given).problems.count == 2)
}

/// A list's start read before the scan (to tell its mount) is scanned first, then the rest of it.
@Test func aListsStartReadBeforeTheScanComesFirst() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["a.jpg", "b.jpg", "c.jpg"] { try TestImages.jpeg(at: try dir.file(name), width: 8, height: 8) }
    let list = Array("\(dir.path)/a.jpg\n\(dir.path)/b.jpg\n\(dir.path)/c.jpg\n".utf8)
    let path = try dir.file("list")
    try TestImages.bytes(list, at: path)
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    // Read before the scan: a record and the start of the next.
    var prefix = [UInt8](repeating: 0, count: dir.path.utf8.count + 9)
    #expect(prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } == prefix.count)
    let found = LightboxThumbnails.Scanner().scan(listIn: fd, separator: 10, prefix: prefix).folders.flatMap(\.files)
    #expect(found.map { String(decoding: $0.path.lastComponent, as: UTF8.self) } == ["a.jpg", "b.jpg", "c.jpg"])
    #expect(found[1].path.description == dir.path + "/b.jpg")
}

/// A file whose first bytes cannot be read (its mount gone, or here a descriptor that does not
/// read) is said to be unreadable, with why, not "not an image (empty)": what it is is not known.
@Test func aFileThatCannotBeReadIsNotCalledEmpty() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = try dir.file("IMG_1.jpg")
    try TestImages.jpeg(at: path, width: 8, height: 8)
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    #expect(fd >= 0)
    guard case .refused(let reason) = LightboxThumbnails.Scanner.classify(fd, path: ImagePath(path)) else {
        Issue.record("not refused")
        return
    }
    #expect(reason == "cannot read \(path): \(String(cString: strerror(EBADF)))", "\(reason)")
}

@Test func aBatchFromTheIndexKeepsEachFilesMetadataAndDecisionBesideItWhenFilteredOrMerged() {
    func file(_ name: String, _ format: ImageFormat) -> ImageFile {
        ImageFile(path: ImagePath("/lib/\(name)"), byteCount: 1, modified: 1, format: format)
    }
    func known(_ rating: Int) -> LightboxThumbnails.Scanner.IndexedDecision? {
        LightboxThumbnails.Scanner.IndexedDecision([LibraryIndex.KnownDecision(stamp: 1, decision: Decision(rating: rating), isKept: false)])
    }
    func metadata(_ width: Int) -> IndexedMetadata { IndexedMetadata(metadata: nil, shownSize: PixelSize(width: width, height: 1)) }
    var batch = LightboxThumbnails.Scanner.Batch(
        folder: ImagePath("/lib"), files: [file("a.jpg", .jpeg), file("b.heic", .heif), file("c.jpg", .jpeg)], indexed: [metadata(1), metadata(2), metadata(3)])
    batch.indexedDecisions = [known(1), known(2), known(3)]
    // The HEIC dropped (a libvips without it): the rest keep theirs, not their neighbours'.
    let kept = batch.keeping { $0.format != .heif }
    #expect(kept.files.map(\.path.description) == ["/lib/a.jpg", "/lib/c.jpg"])
    #expect(kept.indexed.map { $0?.shownSize?.width } == [1, 3])
    #expect(kept.indexedDecisions.map { $0?.decision.rating } == [1, 3])
    #expect(batch.keeping { _ in true } == batch)

    // Merged with a part of the same folder that has no decisions: nils beside its files.
    var second = LightboxThumbnails.Scanner.Batch(folder: ImagePath("/lib"), files: [file("d.jpg", .jpeg)], indexed: [metadata(4)])
    var merged: [LightboxThumbnails.Scanner.Batch] = []
    merged.appendMerging(kept)
    merged.appendMerging(second)
    #expect(merged.count == 1)
    #expect(merged[0].files.count == 3)
    #expect(merged[0].indexed.map { $0?.shownSize?.width } == [1, 3, 4])
    #expect(merged[0].indexedDecisions.map { $0?.decision.rating } == [1, 3, nil])
    // Neither with decisions: none.
    second.indexed = []
    var plain: [LightboxThumbnails.Scanner.Batch] = []
    plain.appendMerging(second)
    plain.appendMerging(second)
    #expect(plain[0].indexed.isEmpty && plain[0].indexedDecisions.isEmpty)
}
