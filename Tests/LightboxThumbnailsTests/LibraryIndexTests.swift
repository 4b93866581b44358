import Foundation
import LightboxTestSupport
import Synchronization
import Testing

@testable import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// A photo's metadata with every field set, to round-trip.
private func fullMetadata() -> IndexedMetadata { IndexedMetadata(metadata: everyField(), shownSize: PixelSize(width: 4000, height: 3000)) }

private func everyField() -> ImageMetadata {
    var m = ImageMetadata()
    m.dateTaken = "2024:05:01 10:00:00"
    m.make = "FUJIFILM"
    m.model = "X-T5 ✓"
    m.lens = "XF23mm"
    m.exposure = .init(numerator: 1, denominator: 250)
    m.fNumber = 2.8
    m.iso = 6400
    m.focalLength = 23
    m.exposureBias = -0.7
    m.subsecond = 0.05
    m.hasGPS = true
    m.orientation = 6
    m.video = VideoMetadata(duration: 12.5, codec: "hvc1", frameRate: 29.97, size: PixelSize(width: 1080, height: 1920))
    m.frameCount = 24
    m.focusPoint = .init(x: -3, y: 40, width: nil, height: 9, source: "AFInfo")
    m.burstID = "ABC-123"
    return m
}

private func indexed(_ path: String, size: Int64 = 1000, modified: Int64 = 5, format: ImageFormat = .jpeg) -> ImageFile {
    ImageFile(path: ImagePath(path), byteCount: size, modified: modified, format: format)
}

/// Every field comes back as it was; a record cut short or with bytes after it is no record.
@Test func indexedMetadataRoundTripsAndRefusesDamage() throws {
    let full = fullMetadata()
    #expect(IndexedMetadata(encoded: full.encoded) == full)
    let back = try #require(IndexedMetadata(encoded: full.encoded))
    #expect(back.metadata == everyField() && back.shownSize == PixelSize(width: 4000, height: 3000))
    // Its parts, read without the texts made, say the same.
    let parts = back.parts
    func text(_ range: Range<Int>?) -> String? { range.map { String(decoding: back.encoded[$0], as: UTF8.self) } }
    #expect(text(parts.model) == "X-T5 ✓" && text(parts.burstID) == "ABC-123" && text(parts.focusPoint?.source) == "AFInfo")
    #expect(parts.iso == 6400 && parts.subsecond == 0.05 && parts.isVideo && parts.videoSize == PixelSize(width: 1080, height: 1920))
    #expect(parts.dateTakenSeconds(in: back.encoded) == everyField().dateTakenSeconds)
    for empty in [IndexedMetadata(metadata: nil, shownSize: nil), IndexedMetadata(metadata: ImageMetadata(), shownSize: nil)] {
        #expect(IndexedMetadata(encoded: empty.encoded) == empty)
    }
    let bytes = full.encoded
    for cut in 0..<bytes.count { #expect(IndexedMetadata(encoded: Array(bytes.prefix(cut))) == nil, "cut at \(cut)") }
    #expect(IndexedMetadata(encoded: bytes + [0]) == nil)
    // A text whose bytes are not UTF-8 is damage (an ASCII one, a non-ASCII one: each read its own way).
    for (text, bad) in [("FUJIFILM", 0xFF), ("X-T5 ✓", 0xC0)] as [(String, UInt8)] {
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: Array(text.utf8)) })
        var damaged = bytes
        damaged[at + 1] = bad
        #expect(IndexedMetadata(encoded: damaged) == nil, "\(text)")
    }
    // Found by `make fuzz` (index): a real that is NaN (here the f-number), damage no reader writes.
    #expect(IndexedMetadata(encoded: [0x82, 0x90, 0x01, 0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]) == nil)
    var infinite = full.metadata!
    infinite.subsecond = .infinity
    #expect(IndexedMetadata(encoded: IndexedMetadata(metadata: infinite, shownSize: nil).encoded) == nil)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
        let noise = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = IndexedMetadata(encoded: noise)  // never traps
    }
}

/// What was learned is there on the next visit for the same size and time, and not for another.
@Test func theIndexKeepsFilesByPathSizeAndTime() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let first = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    first.remember(indexed("/photos/a.jpg"), metadata: fullMetadata())
    first.remember(indexed("/photos/b.png", format: .png))
    first.remember(indexed("/photos/b.png", format: .png))  // found again, metadata not yet read
    first.flush()
    #expect(first.takeProblems().isEmpty)
    let second = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    #expect(second.count == 2)
    #expect(second.metadata(of: indexed("/photos/a.jpg")) == fullMetadata())
    #expect(second.metadata(of: indexed("/photos/a.jpg", size: 1001)) == nil, "another size")
    #expect(second.metadata(of: indexed("/photos/a.jpg", modified: 6)) == nil, "another time")
    #expect(second.metadata(of: indexed("/photos/b.png", format: .png)) == nil, "not read yet")
    #expect(second.format(of: ImagePath("/photos/b.png"), byteCount: 1000, modified: 5) == .png)
    // Found again by a scan: the metadata read stays; changed, it goes.
    second.remember(indexed("/photos/a.jpg"))
    second.flush()
    #expect(second.metadata(of: indexed("/photos/a.jpg")) == fullMetadata())
    second.remember(indexed("/photos/a.jpg", modified: 9))
    second.flush()
    #expect(second.metadata(of: indexed("/photos/a.jpg", modified: 9)) == nil)
    // Read only: read, never written.
    let reading = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .read))
    reading.remember(indexed("/photos/c.jpg"), metadata: fullMetadata())
    reading.flush()
    #expect(reading.format(of: ImagePath("/photos/b.png"), byteCount: 1000, modified: 5) == .png)
    #expect(reading.count == 2 && reading.takeProblems().isEmpty)
    #expect(LibraryIndex(folder: dir.path + "/cache", mode: .off) == nil)
}

/// A relative path and its absolute spelling are one file to the index.
@Test func pathsAreKeptFromTheRoot() {
    let here = String(decoding: ImagePath.workingFolder, as: UTF8.self)
    #expect(ImagePath("a/./b//c.jpg").absoluteBytes == Array((here == "/" ? "/a/b/c.jpg" : here + "/a/b/c.jpg").utf8))
    #expect(ImagePath("/x/../y/").absoluteBytes == Array("/x/../y".utf8))
    #expect(ImagePath("/").absoluteBytes == [UInt8(ascii: "/")])
    #expect(ImagePath("/a/.hidden/./../.").absoluteBytes == Array("/a/.hidden/..".utf8) && ImagePath("/./.").absoluteBytes == [UInt8(ascii: "/")])
}

/// A file that is not a database, or another program's database: moved aside, made anew, said.
@Test func aDamagedOrForeignIndexIsMadeAnew() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let location = dir.path + "/" + LibraryIndex.fileName
    try TestImages.bytes(Array(repeating: 0x5A, count: 8192), at: location)
    let damaged = try #require(LibraryIndex(folder: dir.path, mode: .on))
    #expect(damaged.isOpen)
    // The status line sees it as it happens; the end's list still has it.
    let met = damaged.problemsMetCount()
    #expect(met.count == 1 && met.last?.contains("made anew") == true)
    #expect(damaged.takeProblems().contains { $0.contains("moved to index.sqlite.bad and made anew") })
    #expect(damaged.problemsMetCount().count == 1 && damaged.problemsMetCount().last == nil && damaged.takeProblems().isEmpty)
    #expect(FileManager.default.contents(atPath: location + ".bad") == Data(repeating: 0x5A, count: 8192), "what was there is kept beside")
    damaged.remember(indexed("/p/a.jpg"))
    damaged.flush()
    #expect(damaged.count == 1)

    // Another program's database (digiKam's, say) where ours should be.
    unlink(location)
    for suffix in ["-wal", "-shm", ".bad"] { unlink(location + suffix) }
    let foreign = try SQLiteDatabase(path: ImagePath(location))
    try foreign.execute("CREATE TABLE Images (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO Images (name) VALUES ('x.jpg');")
    foreign.close()
    let replaced = try #require(LibraryIndex(folder: dir.path, mode: .on))
    #expect(replaced.takeProblems().contains { $0.contains("not Lightbox's") })
    #expect(replaced.count == 0 && replaced.isOpen)
    let kept = try SQLiteDatabase(path: ImagePath(location + ".bad"))
    #expect(try kept.integer("SELECT count(*) FROM Images") == 1, "the other program's file is kept whole")

    // An index of another layout (an older Lightbox): made anew without a word.
    let older = try SQLiteDatabase(path: ImagePath(location))
    try older.execute("PRAGMA user_version = 0")
    older.close()
    let anew = try #require(LibraryIndex(folder: dir.path, mode: .on))
    #expect(anew.isOpen && anew.takeProblems().isEmpty)

    // A newer Lightbox's (an upgrade undone): gone on without, with a message, and left whole.
    anew.remember(indexed("/p/kept.jpg"))
    anew.flush()
    let newer = try SQLiteDatabase(path: ImagePath(location))
    try newer.execute("PRAGMA user_version = \(LibraryIndex.schemaVersion + 1)")
    newer.close()
    let behind = try #require(LibraryIndex(folder: dir.path, mode: .on))
    #expect(!behind.isOpen && behind.takeProblems().contains { $0.contains("a newer Lightbox's") })
    let left = try SQLiteDatabase(path: ImagePath(location))
    #expect(try left.integer("SELECT count(*) FROM file") == 1 && left.integer("PRAGMA user_version") == LibraryIndex.schemaVersion + 1)
}

/// Damage met while in use (pages overwritten under it) ends its use with a message, never a trap.
@Test func damageFoundInUseIsSaid() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let index = try #require(LibraryIndex(folder: dir.path, mode: .on))
    for n in 0..<3000 { index.remember(indexed("/p/\(n).jpg"), metadata: fullMetadata()) }
    index.flush()
    let writer = open(dir.path + "/" + LibraryIndex.fileName, O_WRONLY)
    let wal = open(dir.path + "/" + LibraryIndex.fileName + "-wal", O_WRONLY)
    let garbage = [UInt8](repeating: 0xEE, count: 1 << 20)
    for fd in [writer, wal] where fd >= 0 {
        _ = garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 4096) }
        close(fd)
    }
    let later = LibraryIndex(folder: dir.path, mode: .on)
    for n in 0..<3000 { _ = later?.record(of: ImagePath("/p/\(n).jpg")) }
    later?.remember(indexed("/p/new.jpg"))
    later?.flush()
    #expect(later?.takeProblems().isEmpty == false, "the damage is said")
}

/// A folder that cannot be made (its parent is a file), or a planted link where the database
/// goes: no index, a message, and nothing written through the link.
@Test func anIndexThatCannotBeMadeIsSaidAndFollowsNoLink() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try TestImages.bytes(Array("a file".utf8), at: dir.path + "/file")
    let nowhere = try #require(LibraryIndex(folder: dir.path + "/file/lightbox", mode: .on))
    #expect(!nowhere.isOpen)
    #expect(nowhere.takeProblems().contains { $0.contains("going on without it") })
    nowhere.remember(indexed("/p/a.jpg"))
    nowhere.flush()
    #expect(nowhere.record(of: ImagePath("/p/a.jpg")) == nil)

    try FileManager.default.createDirectory(atPath: dir.path + "/cache", withIntermediateDirectories: true)
    try TestImages.bytes(Array("precious".utf8), at: dir.path + "/target")
    symlink(dir.path + "/target", dir.path + "/cache/" + LibraryIndex.fileName)
    let linked = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    linked.remember(indexed("/p/a.jpg"))
    linked.flush()
    #expect(FileManager.default.contents(atPath: dir.path + "/target") == Data("precious".utf8), "the link's target is untouched")
    #expect(linked.takeProblems().isEmpty == false)
}

/// `--index-forget`: a folder's files go, a folder whose name only starts the same stays.
@Test func forgettingAFolderForgetsWhatIsUnderIt() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let index = try #require(LibraryIndex(folder: dir.path, mode: .on))
    for path in ["/nas/2024/a.jpg", "/nas/2024/deep/b.jpg", "/nas/2024b/c.jpg", "/nas/2024.jpg", "/other/d.jpg"] { index.remember(indexed(path)) }
    index.flush()
    #expect(index.forget(under: ImagePath("/nas/2024/")) == 2)
    #expect(index.count == 3)
    #expect(index.record(of: ImagePath("/nas/2024b/c.jpg")) != nil && index.record(of: ImagePath("/nas/2024.jpg")) != nil)
    #expect(index.forget(under: ImagePath("/nas/2024b/c.jpg")) == 1)
}

/// Past its size limit the files used longest ago are forgotten first; the database stays near its limit.
@Test func aFullIndexForgetsTheFilesUsedLongestAgo() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let limit = 512 << 10
    let old = try #require(LibraryIndex(folder: dir.path, mode: .on, byteLimit: limit, day: 100))
    for n in 0..<1500 { old.remember(indexed("/p/old\(n).jpg"), metadata: fullMetadata()) }
    old.flush()
    let later = try #require(LibraryIndex(folder: dir.path, mode: .on, byteLimit: limit, day: 101))
    let used = (0..<100).filter { later.record(of: ImagePath("/p/old\($0).jpg")) != nil }.count
    for n in 0..<3000 { later.remember(indexed("/p/new\(n).jpg"), metadata: fullMetadata()) }
    later.flush()
    let stillUsed = (0..<100).filter { later.record(of: ImagePath("/p/old\($0).jpg")) != nil }.count
    let unused = (100..<1500).filter { later.record(of: ImagePath("/p/old\($0).jpg")) != nil }.count
    #expect(used == 100 && stillUsed == 100, "used today: kept")
    #expect(unused < 1400, "some not used since day 100 forgotten: \(unused) left")
    #expect(later.count < 4500)
    let size = (try FileManager.default.attributesOfItem(atPath: dir.path + "/" + LibraryIndex.fileName)[.size] as? Int) ?? 0
    #expect(size < 2 * limit, "\(size) bytes")
}

/// Two indexes on one file at once (as two Lightbox processes are): both write, nothing is lost.
@Test func twoWritersAtOnceLoseNothing() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let a = try #require(LibraryIndex(folder: dir.path, mode: .on)), b = try #require(LibraryIndex(folder: dir.path, mode: .on))
    DispatchQueue.concurrentPerform(iterations: 2) { side in
        let index = side == 0 ? a : b
        for n in 0..<2000 { index.remember(indexed("/p/\(side)-\(n).jpg"), metadata: fullMetadata()) }
        index.flush()
    }
    #expect(a.takeProblems().isEmpty && b.takeProblems().isEmpty)
    #expect(a.count == 4000)
}

/// The index is read through a memory map: another connection shrinking the database under it
/// (a pruning's vacuum, a checkpoint that truncates the file) never has a replay read past the
/// file's end, a signal that would end the gallery (WAL keeps each read's pages in the file).
@Test func aMappedReplayOutlivesTheDatabaseShrinkingUnderIt() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let writer = try #require(LibraryIndex(folder: dir.path, mode: .on)), reader = try #require(LibraryIndex(folder: dir.path, mode: .read))
    let other = try SQLiteDatabase(path: ImagePath(dir.path + "/" + LibraryIndex.fileName))
    other.setBusyTimeout(2000)
    let deadline = Date() + 2
    let replays = Atomic(0)
    let reading = Thread {
        while Date() < deadline {
            if !reader.replay(under: ImagePath("/p"), pairs: false).isEmpty { replays.add(1, ordering: .relaxed) }
        }
    }
    reading.start()
    var sizes: [Int] = []
    func size() -> Int {
        var info = stat()
        stat(dir.path + "/" + LibraryIndex.fileName, &info)
        return Int(info.st_size)
    }
    while Date() < deadline {
        for n in 0..<2000 { writer.remember(indexed("/p/a/\(n).jpg"), metadata: fullMetadata()) }
        writer.flush()
        try? other.execute("PRAGMA wal_checkpoint(TRUNCATE);")  // into the file: it grows
        sizes.append(size())
        try? other.execute("DELETE FROM file; PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE);")
        sizes.append(size())
    }
    while !reading.isFinished { usleep(10_000) }
    #expect(replays.load(ordering: .relaxed) > 0)
    #expect((sizes.min() ?? 0) * 4 < sizes.max() ?? 0, "the file shrank under the reader: \(sizes)")
}

/// A scan with the index recognises a file it knows at its size and time without opening it
/// (a file whose bytes changed but not its size or time is taken as the index knew it), and
/// opens it again once its time changes.
@Test func aScanRecognisesKnownFilesWithoutOpeningThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("photos/IMG_1.jpg")
    try TestImages.jpeg(at: photo, width: 16, height: 16)
    var scanner = Scanner()
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    #expect(scanner.scan([ImagePath(dir.path + "/photos")]).folders.first?.files.first?.format == .jpeg)
    scanner.index?.flush()
    // PNG bytes of the JPEG's length, its time put back.
    var info = stat()
    stat(photo, &info)
    try TestImages.png(at: photo + ".png", width: 2, height: 2)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo + ".png")))
    unlink(photo + ".png")
    bytes += [UInt8](repeating: 0, count: Int(info.st_size) - bytes.count)
    try TestImages.bytes(bytes, at: photo)
    var times = [info.st_atim, info.st_mtim]
    utimensat(AT_FDCWD, photo, &times, 0)
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    #expect(scanner.scan([ImagePath(dir.path + "/photos")]).folders.first?.files.first?.format == .jpeg, "not opened")
    #expect(Scanner().scan([ImagePath(dir.path + "/photos")]).folders.first?.files.first?.format == .png, "as it is now")
    times[1].tv_sec += 1
    utimensat(AT_FDCWD, photo, &times, 0)
    #expect(scanner.scan([ImagePath(dir.path + "/photos")]).folders.first?.files.first?.format == .png, "its time changed: looked at again")
}

/// The metadata reader takes what the index has, and keeps what it reads there.
@Test func theMetadataReaderUsesTheIndex() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = try dir.file("IMG_1.jpg")
    try TestImages.jpeg(at: photo, width: 40, height: 30, orientation: 6)
    var info = stat()
    stat(photo, &info)
    let found = ImageFile(path: ImagePath(photo), byteCount: Int64(info.st_size), modified: Scanner.modified(info), format: .jpeg)
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    let read = MetadataReader.read(MetadataRequest(id: ItemID(0), file: found), index: index)
    #expect(read.size == PixelSize(width: 30, height: 40) && read.metadata?.orientation == 6)
    index.flush()
    unlink(photo)  // gone: only the index can answer now
    let again = MetadataReader.read(MetadataRequest(id: ItemID(3), file: found), index: LibraryIndex(folder: dir.path + "/cache", mode: .read))
    #expect(again == MetadataResult(id: ItemID(3), metadata: read.metadata, size: read.size))
}

/// With reads in flight (a network mount), a folder whose time and entries are as the index
/// last saw them is taken whole from it, without a look at any file; a file added (the folder's
/// time and entries change) has it looked through again, each file by its size and time.
@Test func anUnchangedFolderIsTakenWholeOnANetworkMount() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.jpg"] { try TestImages.jpeg(at: try dir.file("photos/" + name), width: 16, height: 16) }
    try TestImages.bytes(Array("notes".utf8), at: try dir.file("photos/notes.txt"))
    var scanner = Scanner()
    scanner.readsInFlight = 4
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let folder = ImagePath(dir.path + "/photos")
    let first = scanner.scan([folder]).folders.flatMap(\.files)
    #expect(first.map(\.format) == [.jpeg, .jpeg])
    // A file's time changed in place (the folder's own time does not): the whole-folder listing hides it.
    var info = stat()
    stat(dir.path + "/photos/IMG_1.jpg", &info)
    var times = [info.st_atim, info.st_mtim]
    times[1].tv_sec -= 100
    utimensat(AT_FDCWD, dir.path + "/photos/IMG_1.jpg", &times, 0)
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    #expect(scanner.scan([folder]).folders.flatMap(\.files) == first, "taken whole: no file looked at")
    #expect(scanner.index?.statistics.hasPrefix("index: 2 files recognised") == true)
    // A file added: looked through again, each file by its size and time.
    try TestImages.png(at: dir.path + "/photos/IMG_3.png", width: 4, height: 4)
    let again = scanner.scan([folder]).folders.flatMap(\.files)
    #expect(again.map(\.format) == [.jpeg, .jpeg, .png])
    #expect(again[0].modified == first[0].modified - 100_000_000_000, "the changed time seen")
    // On a local disk (one read at a time) every file is looked at, by its size and time.
    scanner.readsInFlight = 1
    times[1].tv_sec -= 100
    utimensat(AT_FDCWD, dir.path + "/photos/IMG_1.jpg", &times, 0)
    #expect(scanner.scan([folder]).folders.flatMap(\.files)[0].modified == first[0].modified - 200_000_000_000)
}

/// What a folder's whole listing no longer names (a photo deleted, a folder moved away) leaves the
/// index with the walk that found it gone, so the next visit's replay does not show it again;
/// what is there stays, and a folder that cannot be listed forgets nothing.
/// A share's mount point seen without its share (unmounted: an empty folder whose time is not
/// past the last listing's) forgets nothing of what the index had there, so the visit after,
/// mounted again, is a second one; it is named as a mount gone until it is back. A folder
/// emptied (its time moved on) forgets all of it.
@Test func aMountPointSeenWithoutItsShareForgetsNothing() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.jpg", "trip/IMG_3.jpg"] { try TestImages.jpeg(at: try dir.file("nas/" + name), width: 8, height: 8) }
    let root = ImagePath(dir.path + "/nas"), fm = FileManager.default
    for readsInFlight in [1, 4] {
        try? fm.removeItem(atPath: dir.path + "/cache")
        let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
        var scanner = Scanner()
        scanner.readsInFlight = readsInFlight
        scanner.index = index
        func known() -> Int {
            index.flush()
            return index.replay(under: root, pairs: true).reduce(0) { $0 + $1.files.count }
        }
        _ = scanner.scan([root])
        #expect(known() == 3)
        // Unmounted: the share's folder away, an empty one of long ago in its place.
        try fm.moveItem(atPath: root.description, toPath: dir.path + "/away")
        try fm.createDirectory(atPath: root.description, withIntermediateDirectories: false)
        try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: root.description)
        let unmounted = scanner.scan([root])
        #expect(known() == 3, "reads in flight: \(readsInFlight)")
        // Named as a mount gone is (its tiles offline, what the index had kept), saying why.
        #expect(ReadWatch.shared.unmountedFolders.contains(root.description))
        #expect(ReadWatch.shared.notAnswering(holding: root.appending(Array("IMG_1.jpg".utf8))) == root.description)
        #expect(unmounted.problems.contains { $0.contains("looks unmounted") })
        try fm.removeItem(atPath: root.description)
        try fm.moveItem(atPath: dir.path + "/away", toPath: root.description)
        // Back (its folder's time moved): no longer named, within the watch's second.
        for _ in 0..<40 where ReadWatch.shared.unmountedFolders.contains(root.description) { Thread.sleep(forTimeInterval: 0.1) }
        #expect(!ReadWatch.shared.unmountedFolders.contains(root.description))
        #expect(ReadWatch.shared.notAnswering(holding: root) == nil)
        _ = scanner.scan([root])
        #expect(known() == 3)
        // Emptied: deleting what it held moves its time on, and all of it is forgotten.
        let held = try fm.contentsOfDirectory(atPath: root.description)
        try fm.moveItem(atPath: root.description, toPath: dir.path + "/kept")
        try fm.createDirectory(atPath: root.description, withIntermediateDirectories: false)
        try fm.setAttributes([.modificationDate: Date()], ofItemAtPath: root.description)
        _ = scanner.scan([root])
        #expect(known() == 0, "reads in flight: \(readsInFlight)")
        try fm.removeItem(atPath: root.description)
        try fm.moveItem(atPath: dir.path + "/kept", toPath: root.description)
        #expect(held.count == 3)
    }
}

/// A mount point made after the share's folder last changed (its time the mkdir's, past that of
/// the listing that saw the share hold photos) is seen unmounted too, being empty since before the
/// day of that listing.
@Test func aMountPointMadeAfterItsSharesLastChangeIsSeenUnmounted() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.jpg"] { try TestImages.jpeg(at: try dir.file("nas/" + name), width: 8, height: 8) }
    let root = ImagePath(dir.path + "/nas"), fm = FileManager.default
    try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: root.description)
    // Visited tomorrow (the index's day), the share's folder last changed in 2001.
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on, day: Int64(time(nil) / 86_400) + 1))
    var scanner = Scanner()
    scanner.index = index
    _ = scanner.scan([root])
    index.flush()
    // Unmounted: the mount point, made today.
    try fm.moveItem(atPath: root.description, toPath: dir.path + "/away")
    try fm.createDirectory(atPath: root.description, withIntermediateDirectories: false)
    let unmounted = scanner.scan([root])
    index.flush()
    #expect(index.replay(under: root, pairs: true).reduce(0) { $0 + $1.files.count } == 2)
    #expect(ReadWatch.shared.unmountedFolders.contains(root.description))
    #expect(unmounted.problems.contains { $0.contains("looks unmounted") })
    try fm.removeItem(atPath: root.description)
    try fm.moveItem(atPath: dir.path + "/away", toPath: root.description)
    for _ in 0..<40 where ReadWatch.shared.unmountedFolders.contains(root.description) { Thread.sleep(forTimeInterval: 0.1) }
    #expect(!ReadWatch.shared.unmountedFolders.contains(root.description))
}

/// A folder the index listed as a share's mount point, empty now and no mount point, is the share
/// unmounted, whenever its mount point was made (the same day's mkdir too); one that was never a
/// mount point, emptied since, is emptied; the share mounted there and empty, emptied.
@Test func aFolderListedAsAMountPointAndNoneNowIsUnmounted() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let index = try #require(LibraryIndex(folder: dir.path, mode: .on))
    let now = Int64(time(nil)) * 1_000_000_000, share = ImagePath("/mnt/nas"), folder = ImagePath("/home/me/photos")
    index.rememberListing(LibraryIndex.FolderListing(modified: now - 1_000_000_000, fingerprint: 7, isMountPoint: true), of: share)
    index.rememberListing(LibraryIndex.FolderListing(modified: now - 1_000_000_000, fingerprint: 7), of: folder)
    index.flush()
    let again = try #require(LibraryIndex(folder: dir.path, mode: .read))
    #expect(again.lastListing(of: share)?.listing.isMountPoint == true && again.lastListing(of: folder)?.listing.isMountPoint == false)
    // Its time now past the listing's, the same day.
    let empty = LibraryIndex.FolderListing(modified: now, fingerprint: 0)
    #expect(LightboxThumbnails.Scanner.looksUnmounted(empty, empty: true, of: share, index: again), "a mount point then, none now")
    #expect(!LightboxThumbnails.Scanner.looksUnmounted(empty, empty: true, of: folder, index: again), "a folder emptied")
    var mounted = empty
    mounted.isMountPoint = true
    #expect(!LightboxThumbnails.Scanner.looksUnmounted(mounted, empty: true, of: share, index: again), "the share there, emptied")
    #expect(ParallelReads.isMountPoint(ImagePath("/proc")) && !ParallelReads.isMountPoint(ImagePath(dir.path)))
}

/// The second layout (without whether a folder was a mount point) is read as it is, and gains it
/// where it may be written, what it held kept.
@Test func theSecondLayoutGainsMountPoints() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let older = try SQLiteDatabase(path: ImagePath(dir.path + "/" + LibraryIndex.fileName))
    try older.execute(
        """
        CREATE TABLE file (
            path BLOB PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL, kind TEXT NOT NULL, metadata BLOB, used INTEGER NOT NULL,
            decision_stamp INTEGER, decision INTEGER
        ) WITHOUT ROWID;
        CREATE INDEX file_used ON file (used);
        CREATE TABLE folder (path BLOB PRIMARY KEY, mtime INTEGER NOT NULL, listing INTEGER NOT NULL, used INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO file VALUES (CAST('/p/a.jpg' AS BLOB), 1000, 5, 'jpeg', NULL, 20000, NULL, NULL);
        INSERT INTO folder VALUES (CAST('/p' AS BLOB), 5, 9, 20000);
        PRAGMA application_id = \(LibraryIndex.applicationID);
        PRAGMA user_version = 2;
        """)
    older.close()
    // Read as it is where it may not be written (`--index read`).
    let reading = try #require(LibraryIndex(folder: dir.path, mode: .read))
    #expect(reading.isOpen && reading.takeProblems().isEmpty && reading.count == 1)
    #expect(reading.lastListing(of: ImagePath("/p"))?.listing == LibraryIndex.FolderListing(modified: 5, fingerprint: 9))
    let index = try #require(LibraryIndex(folder: dir.path, mode: .on))
    #expect(index.takeProblems().isEmpty && index.count == 1, "what it held is kept")
    #expect(index.hasListing(LibraryIndex.FolderListing(modified: 5, fingerprint: 9), of: ImagePath("/p")))
    #expect(index.lastListing(of: ImagePath("/p"))?.listing.isMountPoint == false)
    index.rememberListing(LibraryIndex.FolderListing(modified: 6, fingerprint: 9, isMountPoint: true), of: ImagePath("/q"))
    index.flush()
    #expect(try #require(LibraryIndex(folder: dir.path, mode: .read)).lastListing(of: ImagePath("/q"))?.listing.isMountPoint == true)
}

@Test func whatTheWalkFindsGoneIsForgotten() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "trip/IMG_4.jpg", "trip/deep/IMG_5.jpg", "keep/IMG_6.jpg"] {
        try TestImages.jpeg(at: try dir.file("lib/" + name), width: 8, height: 8)
    }
    let root = ImagePath(dir.path + "/lib")
    let names = { (batches: [LightboxThumbnails.Scanner.Batch]) in
        batches.flatMap { $0.files.map { String(decoding: $0.path.bytes.dropFirst(dir.path.utf8.count + 5), as: UTF8.self) } }
    }
    for readsInFlight in [1, 4] {
        try? FileManager.default.removeItem(atPath: dir.path + "/cache")
        let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
        var scanner = Scanner()
        scanner.readsInFlight = readsInFlight
        scanner.index = index
        _ = scanner.scan([root])
        index.flush()
        #expect(names(index.replay(under: root, pairs: true)).count == 6)
        try FileManager.default.removeItem(atPath: dir.path + "/lib/IMG_2.jpg")
        try FileManager.default.moveItem(atPath: dir.path + "/lib/trip", toPath: dir.path + "/moved")
        _ = scanner.scan([root])
        index.flush()
        #expect(names(index.replay(under: root, pairs: true)) == ["IMG_1.jpg", "IMG_3.jpg", "keep/IMG_6.jpg"], "reads in flight: \(readsInFlight)")
        #expect(index.record(of: ImagePath(dir.path + "/lib/trip/deep/IMG_5.jpg")) == nil)
        // Put back: found again, kept again.
        try FileManager.default.moveItem(atPath: dir.path + "/moved", toPath: dir.path + "/lib/trip")
        try TestImages.jpeg(at: try dir.file("lib/IMG_2.jpg"), width: 8, height: 8)
        _ = scanner.scan([root])
        index.flush()
        #expect(names(index.replay(under: root, pairs: true)).count == 6)
        // A hidden file, or one in a hidden folder (a list named them), is left out of the walk's
        // listings, which say nothing of it.
        let hidden = [ImagePath(dir.path + "/lib/.hidden.jpg"), ImagePath(dir.path + "/lib/.folder/IMG_7.jpg")]
        for path in hidden { try TestImages.jpeg(at: try dir.file(String(path.description.dropFirst(dir.path.count + 1))), width: 8, height: 8) }
        defer { for path in hidden { try? FileManager.default.removeItem(atPath: path.description) } }
        _ = scanner.scan(hidden)
        _ = scanner.scan([root])
        index.flush()
        #expect(hidden.allSatisfy { index.record(of: $0) != nil }, "reads in flight: \(readsInFlight)")
        #expect(names(index.replay(under: root, pairs: true)).count == 6)  // nor is it the folder's
    }
    // A folder that cannot be listed says so and forgets nothing of what it held.
    guard getuid() != 0 else { return }  // root lists it anyway
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    var scanner = Scanner()
    scanner.index = index
    chmod(dir.path + "/lib/trip", 0o300)
    defer { chmod(dir.path + "/lib/trip", 0o755) }
    _ = scanner.scan([root])
    index.flush()
    #expect(index.record(of: ImagePath(dir.path + "/lib/trip/IMG_4.jpg")) != nil)
}

/// A gallery's walk on a network mount takes an unchanged folder whole from the index, then
/// (`checksTrustedFolders`) looks at each of its files after all: one rewritten in place (its
/// folder's time and entries unchanged) is handed out as changed, read again, and kept so in
/// the index; an unchanged folder checked hands out nothing.
@Test func aFileRewrittenInPlaceIsFoundOnceTheWalkIsOver() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.jpg"] { try TestImages.jpeg(at: try dir.file("photos/" + name), width: 16, height: 16) }
    var scanner = Scanner()
    scanner.readsInFlight = 4
    scanner.checksTrustedFolders = true
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let folder = ImagePath(dir.path + "/photos")
    func batches() -> [LightboxThumbnails.Scanner.Batch] {
        var found: [LightboxThumbnails.Scanner.Batch] = []
        scanner.scan([folder]) {
            found.append($0)
            return true
        }
        return found
    }
    let firstBatches = batches()
    let first = firstBatches.flatMap(\.files)
    #expect(!firstBatches.contains { $0.endsWalk }, "nothing taken from the index: nothing to look at after the walk")
    let unchanged = batches()
    #expect(!unchanged.contains { $0.isChanged }, "unchanged: nothing handed out as changed")
    #expect(unchanged.last?.endsWalk == true, "the walk's end said before the look at the files")
    // IMG_2 rewritten in place as a PNG (the folder's own time and entries as they were).
    var folderInfo = stat()
    stat(dir.path + "/photos", &folderInfo)
    try TestImages.png(at: dir.path + "/photos/IMG_2.jpg", width: 4, height: 4)
    var times = [folderInfo.st_atim, folderInfo.st_mtim]
    utimensat(AT_FDCWD, dir.path + "/photos", &times, 0)
    let second = batches()
    #expect(second.filter { !$0.isChanged }.flatMap(\.files) == first, "the walk took the folder whole, as the index had it")
    let changed = second.filter(\.isChanged)
    #expect(changed.count == 1 && changed.last == second.last && changed[0].files.map(\.path) == [ImagePath(dir.path + "/photos/IMG_2.jpg")])
    #expect(second.firstIndex { $0.endsWalk } == second.count - 2, "the walk's end, then what changed")
    #expect(changed.first?.files.first?.format == .png && changed.first?.files.first?.byteCount != first[1].byteCount)
    // Kept so in the index: the next walk takes it as it is now, and finds nothing changed.
    let third = batches()
    #expect(third.filter { !$0.isChanged }.flatMap(\.files).map(\.format) == [.jpeg, .png] && !third.contains { $0.isChanged })
    // A list (no check) trusts the listing.
    scanner.checksTrustedFolders = false
    #expect(!batches().contains { $0.isChanged })
}

/// The walk asks the index of a folder's files in one go: what it knows of each file directly
/// there (an image, and a file it knows is no image; the replay only the images), none of a
/// subfolder's; the next walk
/// recognises every image from it and finds what the first did.
@Test func theWalkAsksTheIndexOfAFolderAtOnce() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["lib/a.jpg", "lib/b.jpg", "lib/sub/c.jpg"] { try TestImages.jpeg(at: try dir.file(name), width: 8, height: 8) }
    try TestImages.bytes(Array("notes".utf8), at: try dir.file("lib/notes.txt"))
    var scanner = Scanner()
    scanner.readsInFlight = 1
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let first = scanner.scan([ImagePath(dir.path + "/lib")])
    scanner.index?.flush()
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    let (known, _) = index.records(in: Array((dir.path + "/lib").utf8), skipping: [Array("sub".utf8)], notImages: true)
    #expect(Set(known.keys) == Set(["a.jpg", "b.jpg", "notes.txt"].map { Array($0.utf8) }), "\(known.keys.map { String(decoding: $0, as: UTF8.self) })")
    #expect(known[Array("a.jpg".utf8)]?.format == .jpeg && known[Array("notes.txt".utf8)] != nil && known[Array("notes.txt".utf8)]?.format == nil)
    // The replay's part of it: the images alone.
    let images = index.images(in: Array((dir.path + "/lib").utf8), skipping: [Array("sub".utf8)]).names.map { String(decoding: $0, as: UTF8.self) }
    #expect(images.sorted() == ["a.jpg", "b.jpg"], "\(images)")
    scanner.index = index
    let second = scanner.scan([ImagePath(dir.path + "/lib")])
    #expect(second.folders == first.folders && second.problems == first.problems)
    #expect(index.statistics.contains("3 files recognised from it"), "\(index.statistics)")
}

/// What the index replays of a folder is what the scan that filled it found, in its order
/// (natural order, a folder's files before its subfolders', pairs together), its metadata with it;
/// a file it knows is not an image and another folder's files are not in it.
@Test func theIndexReplaysAFolderAsTheScanFoundIt() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_10.jpg", "IMG_2.jpg", "IMG_2.CR2", "b/IMG_1.jpg", "a10/x.jpg", "a9/x.jpg", "a9/deeper/y.jpg", "b/c/z.jpg"] {
        let path = try dir.file("lib/" + name)
        if name.hasSuffix(".CR2") {
            try TestImages.bytes([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 0x02, 0] + [UInt8](repeating: 0, count: 64), at: path)
        } else {
            try TestImages.jpeg(at: path, width: 8, height: 8)
        }
    }
    try TestImages.bytes(Array("notes".utf8), at: try dir.file("lib/notes.txt"))
    try TestImages.jpeg(at: try dir.file("other/IMG_1.jpg"), width: 8, height: 8)
    var scanner = Scanner()
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let root = ImagePath(dir.path + "/lib/")
    _ = scanner.scan([ImagePath(dir.path + "/other")])
    let found = scanner.scan([root])
    scanner.index?.remember(found.folders[0].files[0], metadata: fullMetadata())
    scanner.index?.flush()
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .read))
    let replayed = index.replay(under: root, pairs: true)
    #expect(replayed.map { ImageFolder(path: $0.folder, files: $0.files) } == found.folders)
    #expect(replayed.allSatisfy { $0.isFromIndex && $0.indexed.count == $0.files.count })
    #expect(replayed[0].indexed[0] == fullMetadata() && replayed[0].indexed.dropFirst().allSatisfy { $0 == nil })
    #expect(found.folders[0].files[0].companions.count == 1, "a pair")
    #expect(index.replay(under: ImagePath(dir.path + "/nothing"), pairs: true).isEmpty)
    #expect(index.statistics.contains("files shown from it before the scan looked"))
    #expect(index.statistics.contains("metadata shown from it for 1 file and taken from it 0 times"), "\(index.statistics)")
}

/// The replay hands each item's decision as the index's copies of its files say it (a pair's:
/// the RAW's over the picture's; a copy waiting to be written over the written one), and none
/// for an item it lacks a copy of any file of, for the keeper to recall.
@Test func theReplayCarriesEachItemsDecision() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg", "IMG_4.jpg"] { try TestImages.jpeg(at: try dir.file("lib/" + name), width: 8, height: 8) }
    try TestImages.bytes([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 0x02, 0] + [UInt8](repeating: 0, count: 64), at: try dir.file("lib/IMG_2.CR2"))
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    var scanner = Scanner()
    scanner.index = index
    let root = ImagePath(dir.path + "/lib")
    _ = scanner.scan([root])
    let known = { (rating: Int, kept: Bool) in LibraryIndex.KnownDecision(stamp: 7, decision: Decision(rating: rating), isKept: kept) }
    let path = { (name: String) in ImagePath(dir.path + "/lib/" + name) }
    index.rememberDecision(known(3, false), of: path("IMG_1.jpg"))
    index.rememberDecision(known(1, false), of: path("IMG_2.jpg"))
    index.rememberDecision(known(4, true), of: path("IMG_2.CR2"))
    index.rememberDecision(LibraryIndex.KnownDecision(stamp: 7, decision: nil, isKept: false), of: path("IMG_4.jpg"))
    index.flush()
    index.rememberDecision(known(5, false), of: path("IMG_1.jpg"))  // waits
    let replayed = index.replay(under: root, pairs: true)
    #expect(replayed.count == 1 && replayed[0].files.count == 4)
    #expect(
        replayed[0].indexedDecisions == [
            Scanner.IndexedDecision([known(5, false)]), Scanner.IndexedDecision([known(1, false), known(4, true)]), nil,
            Scanner.IndexedDecision([LibraryIndex.KnownDecision(stamp: 7, decision: nil, isKept: false)]),
        ])
    #expect(replayed[0].indexedDecisions[1]?.decision == Decision(rating: 4) && replayed[0].indexedDecisions[1]?.isKept == true)
    #expect(replayed[0].indexedDecisions[3]?.decision == Decision.none, "its XMP said nothing: known, nothing to show")
    #expect(index.statistics.contains("decisions shown from it for 2 photos"))
    // A list's paths recalled carry theirs too.
    #expect(
        index.recall([path("IMG_3.jpg"), path("IMG_2.jpg"), path("IMG_1.jpg")], pairs: false).flatMap(\.indexedDecisions) == [
            nil, Scanner.IndexedDecision([known(1, false)]), Scanner.IndexedDecision([known(5, false)]),
        ])
}

/// What waits to be written is replayed with what is written, in the walk's order, each file
/// once: a file found since the last write, and metadata read since for a file written before.
@Test func theReplayTakesWhatWaitsToBeWritten() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["IMG_1.jpg", "IMG_3.jpg", "sub/IMG_1.jpg"] { try TestImages.jpeg(at: try dir.file("lib/" + name), width: 8, height: 8) }
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    var scanner = Scanner()
    scanner.index = index
    let root = ImagePath(dir.path + "/lib")
    _ = scanner.scan([root])
    index.flush()
    try TestImages.jpeg(at: try dir.file("lib/IMG_2.jpg"), width: 8, height: 8)
    let found = scanner.scan([root])
    index.remember(found.folders[0].files[0], metadata: fullMetadata())
    let replayed = index.replay(under: root, pairs: true)
    #expect(replayed.map { ImageFolder(path: $0.folder, files: $0.files) } == found.folders)
    #expect(replayed[0].files.map { String(decoding: $0.path.lastComponent, as: UTF8.self) } == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"])
    #expect(replayed[0].indexed[0] == fullMetadata() && replayed[0].indexed.dropFirst().allSatisfy { $0 == nil })
}

/// The replay reads a folder when its turn comes: names that sort apart as bytes and in natural
/// order (a, a.b, a0, a.jpg, a10, a9) come in the walk's order, an index without the folders'
/// listings (an older visit cut short) gives the same batches, and a replay stopped after its
/// first batch reads no more.
@Test func theIndexReplaysFolderByFolderInTheWalksOrder() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["a.jpg", "a/1.jpg", "a/x/2.jpg", "a.b/3.jpg", "a0/4.jpg", "a10/5.jpg", "a9/6.jpg", "a9/deeper/er/7.jpg", "b.jpg"] {
        try TestImages.jpeg(at: try dir.file("lib/" + name), width: 8, height: 8)
    }
    var scanner = Scanner()
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let root = ImagePath(dir.path + "/lib")
    let found = scanner.scan([root])
    scanner.index?.flush()
    let names = { (batches: [LightboxThumbnails.Scanner.Batch]) in
        batches.flatMap { $0.files.map { String(decoding: $0.path.bytes.dropFirst(dir.path.utf8.count + 5), as: UTF8.self) } }
    }
    #expect(
        names(found.folders.map { LightboxThumbnails.Scanner.Batch(folder: $0.path, files: $0.files) }) == [
            "a.jpg", "b.jpg", "a/1.jpg", "a/x/2.jpg", "a.b/3.jpg", "a0/4.jpg", "a9/6.jpg", "a9/deeper/er/7.jpg", "a10/5.jpg",
        ])
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .read))
    let replayed = index.replay(under: root, pairs: true)
    #expect(replayed.map { ImageFolder(path: $0.folder, files: $0.files) } == found.folders)
    var first: [LightboxThumbnails.Scanner.Batch] = []
    #expect(
        index.replay(under: root, pairs: true) {
            first.append($0); return false
        } == false)
    #expect(names(first) == ["a.jpg", "b.jpg"], "stopped after the first batch")

    let db = try SQLiteDatabase(path: ImagePath(dir.path + "/cache/" + LibraryIndex.fileName))
    try db.execute("DELETE FROM folder")
    db.close()
    let unlisted = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .read))
    #expect(unlisted.replay(under: root, pairs: true).map { ImageFolder(path: $0.folder, files: $0.files) } == found.folders)
}

/// A cache folder whose name is not UTF-8 holds the index under that very name (no look-alike made).
@Test func anIndexInAFolderNamedInOtherBytesIsThere() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let odd = ImagePath(bytes: Array((dir.path + "/caf").utf8) + [0xE9]).appending(Array("lightbox".utf8))
    let index = try #require(LibraryIndex(folder: odd, mode: .on))
    #expect(index.isOpen && index.takeProblems().isEmpty)
    index.remember(indexed("/photos/a.jpg"))
    index.flush()
    var info = stat()
    #expect(odd.appending(Array("index.sqlite".utf8)).withCString { stat($0, &info) } == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == 1, "one folder, the one named")
    #expect(LibraryIndex(folder: odd, mode: .read)?.record(of: ImagePath("/photos/a.jpg")) != nil)
}

/// A decision kept in the index reads back as it was; a value Lightbox never writes is none
/// known, and an index of the first layout gains the decisions keeping what it holds.
@Test func decisionsAreKeptAndTheFirstLayoutGainsThem() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for rating in -1...5 {
        for labels: Set<ColorLabel> in [[], [.red], [.yellow, .purple], Set(ColorLabel.allCases)] {
            for isKept in [false, true] {
                let known = LibraryIndex.KnownDecision(stamp: 77, decision: Decision(rating: rating, labels: labels), isKept: isKept)
                #expect(LibraryIndex.KnownDecision(stamp: 77, encoded: known.encoded) == known)
            }
        }
    }
    let none = LibraryIndex.KnownDecision(stamp: 9, decision: nil, isKept: false)
    #expect(LibraryIndex.KnownDecision(stamp: 9, encoded: none.encoded) == none)
    for foreign: Int64 in [0, 2, 7 << 2, 1 << 13, -1] { #expect(LibraryIndex.KnownDecision(stamp: 9, encoded: foreign) == nil, "\(foreign)") }
    #expect(LibraryIndex.KnownDecision(stamp: 0, encoded: none.encoded) == nil, "no stamp, nothing known")

    // The first layout, as a Lightbox of then made it, with one photo in it.
    let location = dir.path + "/" + LibraryIndex.fileName
    let older = try SQLiteDatabase(path: ImagePath(location))
    try older.execute(
        """
        CREATE TABLE file (path BLOB PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL, kind TEXT NOT NULL, metadata BLOB, used INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX file_used ON file (used);
        CREATE TABLE folder (path BLOB PRIMARY KEY, mtime INTEGER NOT NULL, listing INTEGER NOT NULL, used INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO file VALUES (CAST('/p/a.jpg' AS BLOB), 1000, 5, 'jpeg', NULL, 20000);
        PRAGMA application_id = \(LibraryIndex.applicationID);
        PRAGMA user_version = 1;
        """)
    older.close()
    let index = try #require(LibraryIndex(folder: dir.path, mode: .on))
    #expect(index.takeProblems().isEmpty && index.count == 1, "what it held is kept")
    #expect(index.format(of: ImagePath("/p/a.jpg"), byteCount: 1000, modified: 5) == .jpeg)
    #expect(index.decisions(of: [ImagePath("/p/a.jpg")]) == [nil])
    let known = LibraryIndex.KnownDecision(stamp: 12, decision: Decision(rating: 2), isKept: false)
    index.rememberDecision(known, of: ImagePath("/p/a.jpg"))
    index.rememberDecision(known, of: ImagePath("/p/not-in-it.jpg"))
    #expect(index.decisions(of: [ImagePath("/p/a.jpg")]) == [known], "waiting to be written, it is known")
    index.flush()
    let again = try #require(LibraryIndex(folder: dir.path, mode: .read))
    #expect(again.decisions(of: [ImagePath("/p/a.jpg"), ImagePath("/p/not-in-it.jpg")]) == [known, nil])
    #expect(index.forget(under: ImagePath("/p")) == 1)
    #expect(index.decisions(of: [ImagePath("/p/a.jpg")]) == [nil])
}

/// A replayed index is handed on in parts that grow from the first folder's (the first screen at
/// once, then few takes, each costing the UI a re-arrangement), in the walk's order, then the
/// walk; the keeper's reads wait while it lands.
@Test func theIndexIsHandedInGrowingPartsThenTheWalk() throws {
    func isWhole(_ part: Int, handed: Int, left: Int = 1_000_000) -> Bool { BackgroundScan.isWhole(part: part, handed: handed, left: left, limit: 20_000) }
    #expect(isWhole(1000, handed: 0), "the first folder at once")
    #expect(isWhole(1000, handed: 1000))
    #expect(!isWhole(1999, handed: 2000) && isWhole(2000, handed: 2000))
    #expect(!isWhole(19_999, handed: 50_000) && isWhole(20_000, handed: 50_000))
    // Towards the end, half of what is left: the last part the UI takes after the replay is small.
    #expect(!isWhole(6999, handed: 80_000, left: 14_000) && isWhole(7000, handed: 80_000, left: 14_000))
    #expect(isWhole(1000, handed: 99_000, left: 0) && isWhole(1, handed: 99_000, left: 1))

    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for folder in 0..<6 {
        for photo in 0..<3 { try TestImages.jpeg(at: try dir.file("lib/\(folder)/\(photo).jpg"), width: 8, height: 8) }
    }
    var scanner = Scanner()
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let root = ImagePath(dir.path + "/lib")
    let found = scanner.scan([root])
    scanner.index?.flush()
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    scanner.index = index
    let scan = BackgroundScan(source: .paths([root]), scanner: scanner, replaying: index, replayPart: 5)
    #expect(scan.isLandingIndex, "until its batches are taken")
    let batches = everyBatch(of: scan)
    #expect(!scan.isLandingIndex, "landed")
    let fromIndex = batches.filter(\.isFromIndex).flatMap(\.files).map(\.path)
    #expect(fromIndex == found.folders.flatMap(\.files).map(\.path), "all of it, in the walk's order")
    #expect(batches.firstIndex { !$0.isFromIndex } ?? 0 > batches.lastIndex(where: \.isFromIndex) ?? 0, "then the walk")

    // The gallery's takes: the index's last part is never taken with the walk's first batch (the
    // library would look up all it had before it all shows).
    let again = BackgroundScan(source: .paths([root]), scanner: scanner, replaying: index, replayPart: 5)
    again.waitForBatches(timeout: 5)
    usleep(500_000)  // the replay and the walk of 18 files are over by then: all their batches wait
    let first = again.take(filesAtMost: 1000), second = again.take(filesAtMost: 1000)
    #expect(first.batches.allSatisfy(\.isFromIndex) && first.batches.flatMap(\.files).count == 18, "the index's parts alone")
    #expect(!second.batches.isEmpty && second.batches.allSatisfy { !$0.isFromIndex }, "then the walk's")
}

/// Where every file's metadata will be wanted, a walk on a network mount (here: files looked at
/// several at once) reads it from the open that sniffs each file and keeps it in the index, so the
/// metadata reader opens nothing; otherwise (or one at a time, a local disk) it is left to the reader.
@Test func metadataIsReadWithTheSniffWhereEveryFilesWillBeWanted() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = TestImages.withMetadata(main: try TestImages.jpegBytes(TestImages.solid(width: 8, height: 6, 1, 2, 3), width: 8, height: 6), TestMetadata())
    for name in ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"] { try TestImages.bytes(photo, at: try dir.file("photos/" + name)) }
    for (readsMetadata, width, kept) in [(true, 4, true), (false, 4, false), (true, 1, false)] {
        let index = try #require(LibraryIndex(folder: dir.path + "/cache-\(readsMetadata)-\(width)", mode: .on))
        var scanner = LightboxThumbnails.Scanner()
        scanner.readsInFlight = width
        scanner.readsMetadata = readsMetadata
        scanner.index = index
        let files = scanner.scan([ImagePath(dir.path + "/photos")]).folders.flatMap(\.files)
        #expect(files.count == 3)
        for file in files {
            let known = index.metadata(of: file)
            #expect((known != nil) == kept, "reads metadata: \(readsMetadata), \(width) at once")
            if kept {
                #expect(known?.metadata?.model == "Test Camera 1" && known?.shownSize == PixelSize(width: 8, height: 6))
                // What the reader then gives is what it would have read.
                let request = MetadataRequest(id: ItemID(0), file: file)
                #expect(MetadataReader.read(request, index: index) == MetadataReader.read(request))
            }
        }
    }
}

/// What `scan` hands out until it is over (10 s at most).
private func everyBatch(of scan: BackgroundScan) -> [LightboxThumbnails.Scanner.Batch] {
    var batches: [LightboxThumbnails.Scanner.Batch] = []
    for _ in 0..<500 {
        let progress = scan.take()
        batches += progress.batches
        if progress.isFinished { break }
        scan.waitForBatches(timeout: 0.02)
    }
    return batches
}

/// A list's paths are recalled as the index has them, before anything is looked at: a batch for
/// each run of paths in one folder, in the list's order, pairs as the walk makes them; what it
/// does not know as an image left out, a path named twice once. A list on standard input in the
/// background: each chunk recalled before the walk confirms it, and no replay held (the
/// decisions' checks wait for none).
@Test func aListIsRecalledFromTheIndexAsItComes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["a/1.jpg", "a/2.jpg", "b/3.jpg", "a/4.jpg"] { try TestImages.jpeg(at: try dir.file("lib/" + name), width: 8, height: 8) }
    try TestImages.bytes([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 0x02, 0] + [UInt8](repeating: 0, count: 64), at: try dir.file("lib/a/2.CR2"))
    try TestImages.bytes(Array("notes".utf8), at: try dir.file("lib/a/notes.jpg"))
    let names = ["a/1.jpg", "a/2.jpg", "a/2.CR2", "a/notes.jpg", "b/3.jpg", "a/4.jpg"]
    let list = names.map { dir.path + "/lib/" + $0 }
    var scanner = Scanner()
    scanner.index = LibraryIndex(folder: dir.path + "/cache", mode: .on)
    let found = scanner.scan(list.map { ImagePath($0) })
    scanner.index?.flush()
    let index = try #require(LibraryIndex(folder: dir.path + "/cache", mode: .on))
    let recalled = index.recall((list + [list[0], dir.path + "/lib/a/5.jpg"]).map { ImagePath($0) }, pairs: false)
    #expect(recalled.map { ImageFolder(path: $0.folder, files: $0.files) } == found.folders, "named on a local disk: looked at one at a time, not paired")
    #expect(recalled.map { $0.folder.description } == ["a", "b", "a"].map { dir.path + "/lib/" + $0 })
    #expect(recalled.allSatisfy { $0.isFromIndex && $0.indexed.count == $0.files.count })
    #expect(index.statistics.contains("5 files shown from it before the scan looked"), "\(index.statistics)")
    let paired = index.recall(list.map { ImagePath($0) }, pairs: true)
    #expect(paired[0].files.count == 2 && paired[0].files[1].companions.count == 1, "1.jpg, and 2.jpg paired with 2.CR2")

    try TestImages.jpeg(at: try dir.file("lib/b/new.jpg"), width: 8, height: 8)
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let text = (list + [dir.path + "/lib/b/new.jpg"]).joined(separator: "\n") + "\n"
    #expect(text.withCString { write(fds[1], $0, strlen($0)) } == text.utf8.count)
    close(fds[1])
    defer { close(fds[0]) }
    scanner.index = index
    let scan = BackgroundScan(source: .list(fd: fds[0], separator: 10), scanner: scanner, replaying: index)
    let batches = everyBatch(of: scan)
    #expect(!scan.isLandingIndex)
    let fromIndex = batches.filter(\.isFromIndex), walked = batches.filter { !$0.isFromIndex }
    #expect(fromIndex.flatMap(\.files) == found.folders.flatMap(\.files), "all the index had, as it had it")
    #expect(batches.firstIndex { !$0.isFromIndex } ?? 0 > batches.lastIndex(where: \.isFromIndex) ?? 0, "then the walk's looks")
    #expect(walked.flatMap(\.files).map { String(decoding: $0.path.lastComponent, as: UTF8.self) } == ["1.jpg", "2.jpg", "2.CR2", "3.jpg", "4.jpg", "new.jpg"])
}
