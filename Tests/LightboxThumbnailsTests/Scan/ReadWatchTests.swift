import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A read older than the limit names the mount holding it (the longest mount point that holds
/// the path, whole components), and only while it runs.
@Test func aLateReadNamesItsMount() {
    let watch = ReadWatch()
    let now = ProcessInfo.processInfo.systemUptime
    let inside = watch.watching(ImagePath("/proc/self/status")) {
        (watch.notAnswering(at: now + 1), watch.notAnswering(at: now + ReadWatch.limit + 1))
    }
    #expect(inside.0.isEmpty && inside.1 == ["/proc"], "\(inside)")
    #expect(watch.notAnswering(at: now + ReadWatch.limit + 1).isEmpty, "ended, it is not late")
    let mounts = [Array("/".utf8), Array("/mnt/nas".utf8), Array("/mnt/nas/photos".utf8)]
    #expect(ReadWatch.mountPoint(of: Array("/mnt/nas/photos/a.jpg".utf8), among: mounts) == "/mnt/nas/photos")
    #expect(ReadWatch.mountPoint(of: Array("/mnt/nas2/a.jpg".utf8), among: mounts) == "/")
    #expect(ReadWatch.mountPoint(of: Array("/mnt/nas".utf8), among: mounts) == "/mnt/nas")
    #expect(ReadWatch.unescaped(Array(#"/mnt/my\040photos\134x"#.utf8)) == Array(#"/mnt/my photos\x"#.utf8))
    #expect(ReadWatch.mountPoints().contains(Array("/proc".utf8)))
}

/// A read that moves (each read call that returns) is not late however long it runs in all; a
/// watched read inside another is the same read, and the thread's read ends with the outer one.
@Test func aReadThatMovesIsNotLate() {
    let watch = ReadWatch()
    let now = ProcessInfo.processInfo.systemUptime
    let path = ImagePath("/proc/self/status")
    let seen = watch.watching(path) {
        let still = watch.notAnswering(at: now + ReadWatch.limit + 1)
        watch.progressed(at: now + ReadWatch.limit)
        let moved = watch.notAnswering(at: now + ReadWatch.limit + 1)
        let nested = watch.watching(path) { watch.notAnswering(at: now + 2 * ReadWatch.limit + 1) }
        let after = watch.notAnswering(at: now + 2 * ReadWatch.limit + 1)
        return (still, moved, nested, after)
    }
    #expect(seen.0 == ["/proc"], "not moved: late")
    #expect(seen.1.isEmpty, "moved at the limit: not late a second after")
    #expect(seen.2 == ["/proc"] && seen.3 == ["/proc"], "the inner read is the outer one, still watched after it: \(seen)")
    #expect(watch.notAnswering(at: now + 10 * ReadWatch.limit).isEmpty)
}

/// Reads of a file go in calls (`FileReader.chunk` bytes first), each saying the read moved.
@Test func aWholeReadGoesInChunks() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readwatch-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("big.bin")
    let bytes = (0..<(FileReader.chunk * 3 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try Data(bytes).write(to: file)
    #expect((try? FileReader.read(ImagePath(file.path), limit: .max).get()) == bytes)
    let middle = FileBytes.reading(ImagePath(file.path)) { $0.bytes(at: FileReader.chunk - 5, count: FileReader.chunk + 10) }
    #expect((try? middle.get()) == Array(bytes[(FileReader.chunk - 5)..<(2 * FileReader.chunk + 5)]))
}

/// A file's reads ask for `FileReader.chunk` bytes until its header is in (a slow link's cut is
/// asked at each), then twice as much after each call that came back quickly, up to
/// `largestChunk`, and half after one that took long: a call a FUSE request, so more in flight.
@Test func readsGrowPastTheHeaderWhileTheyComeQuickly() {
    let (small, largest, quick) = (FileReader.chunk, FileReader.largestChunk, FileReader.quickRead)
    #expect(FileReader.nextChunk(after: small, took: 0.001, filled: small) == small, "the header first")
    #expect(FileReader.nextChunk(after: small, took: 0.001, filled: FileReader.growsFrom) == 2 * small)
    #expect(FileReader.nextChunk(after: largest, took: 0.001, filled: 10 * largest) == largest)
    #expect(FileReader.nextChunk(after: 4 * small, took: quick * 2, filled: 10 * largest) == 4 * small, "neither quick nor slow")
    #expect(FileReader.nextChunk(after: 4 * small, took: quick * 5, filled: 10 * largest) == 2 * small)
    #expect(FileReader.nextChunk(after: small, took: 60, filled: 10 * largest) == small)
    // A whole file read in growing calls is the file.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grow-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("big.bin")
    let bytes = (0..<(largest * 3 + 12_345)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
    #expect((try? Data(bytes).write(to: file)) != nil)
    var calls: [Int] = []
    #expect((try? FileReader.read(ImagePath(file.path), limit: .max, progress: { calls.append($0) }).get()) == bytes)
    #expect(calls.prefix(2) == [small, small] && calls.contains(largest) && calls.count < bytes.count / small, "\(calls)")
}

/// What a late read says of other files: whether their mount is the one not answering, and which
/// threads wait on it (for the thumbnail provider to stand in for).
@Test func aLateReadTellsWhichFilesAndThreadsWaitOnItsMount() {
    let watch = ReadWatch()
    let now = ProcessInfo.processInfo.systemUptime
    let late = now + ReadWatch.limit + 1
    let seen = watch.watching(ImagePath("/proc/self/status")) {
        (
            watch.notAnswering(holding: ImagePath("/proc/1/stat"), at: late), watch.notAnswering(holding: ImagePath("/tmp/a.jpg"), at: late),
            watch.notAnswering(holding: ImagePath("/proc/1/stat"), at: now + 1), watch.lateThreads(at: late), watch.lateThreads(at: now + 1)
        )
    }
    #expect(seen.0 == "/proc" && seen.1 == nil && seen.2 == nil, "\(seen)")
    #expect(seen.3 == [pthread_self()] && seen.4.isEmpty)
    #expect(watch.lateThreads(at: late).isEmpty, "ended")
}

/// The metadata reader does not send a thread into a mount that stopped answering: its files
/// there wait (parked) while others are read, and are read once it is asked again.
/// A watch whose read of /proc is held past `ReadWatch.limit` on a thread of its own, so /proc
/// counts as not answering until `release` is signalled.
func watchWithALateRead() -> (watch: ReadWatch, release: DispatchSemaphore) {
    let watch = ReadWatch()
    let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        watch.watching(ImagePath("/proc/self/status")) {
            inside.signal()
            release.wait()
        }
    }
    inside.wait()
    Thread.sleep(forTimeInterval: ReadWatch.limit + 0.2)  // the read on /proc is late now
    return (watch, release)
}

@Test func theMetadataReaderParksFilesOfAMountThatDoesNotAnswer() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let photo = dir.path + "/a.jpg"
    try TestImages.jpeg(at: photo, width: 8, height: 8)
    let (watch, release) = watchWithALateRead()
    let reader = MetadataReader(threads: 1, watch: watch)
    defer { reader.stop() }
    reader.enqueue([
        MetadataRequest(id: ItemID(0), file: ImageFile(path: ImagePath("/proc/self/stat"), byteCount: 1, modified: 0, format: .jpeg)),
        MetadataRequest(id: ItemID(1), file: ImageFile(path: ImagePath(photo), byteCount: 1, modified: 0, format: .jpeg)),
    ])
    var read: [MetadataResult] = []
    for _ in 0..<200 where read.isEmpty || reader.parkedCount == 0 {
        usleep(10_000)
        read += reader.take()
    }
    #expect(read.map(\.id) == [ItemID(1)] && read[0].size == PixelSize(width: 8, height: 8))
    #expect(reader.parkedCount == 1)
    release.signal()
    for _ in 0..<200 where !watch.notAnswering().isEmpty { usleep(10_000) }  // the mount answers: asked again
    reader.retryParked()
    var again: [MetadataResult] = []
    for _ in 0..<200 where again.isEmpty {
        usleep(10_000)
        again += reader.take()
    }
    #expect(again.map(\.id) == [ItemID(0)] && reader.parkedCount == 0)
}

/// A metadata read that failed as its mount went away (its open named the mount) answers
/// nothing, so the file is parked and read again once the mount answers; one that failed on a
/// mount still answering, or read, answers as it is.
@Test func aMetadataReadThatFailedAsItsMountWentAwayIsParked() {
    let watch = ReadWatch()
    let request = MetadataRequest(id: ItemID(3), file: ImageFile(path: ImagePath("/proc/gone/a.jpg"), byteCount: 1, modified: 0, format: .jpeg))
    let failed = MetadataResult(id: ItemID(3), metadata: nil, size: nil)
    #expect(MetadataReader.answer(request, watch: watch) { failed } != nil, "its mount answers: it has no metadata")
    let parked = MetadataReader.answer(request, watch: watch) {
        watch.noteFailure(request.file.path, errno: ENOTCONN, lookingEvery: 0.05)
        return failed
    }
    #expect(parked == nil)
    let read = MetadataResult(id: ItemID(3), metadata: nil, size: PixelSize(width: 8, height: 8))
    #expect(MetadataReader.answer(request, watch: watch) { read } == read, "read before the mount went")
}

/// A late read does not name its mount while another read there got an answer within the limit
/// (a busy link is slow, not stalled); one on another mount does not count.
@Test func aMountAnsweringOtherReadsIsNotNamed() {
    let watch = ReadWatch()
    let now = ProcessInfo.processInfo.systemUptime
    let answerAt = { (path: String, time: Double) in
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            watch.watching(ImagePath(path)) { watch.progressed(at: time) }
            done.signal()
        }
        done.wait()
    }
    let seen = watch.watching(ImagePath("/proc/self/status")) {
        answerAt("/tmp/lightbox-watch/a.jpg", now + ReadWatch.limit)
        let otherMount = watch.notAnswering(at: now + ReadWatch.limit + 1)
        answerAt("/proc/1/stat", now + ReadWatch.limit)
        return (otherMount, watch.notAnswering(at: now + ReadWatch.limit + 1), watch.notAnswering(at: now + 2 * ReadWatch.limit + 1))
    }
    #expect(seen.0 == ["/proc"], "an answer from another mount: still named")
    #expect(seen.1.isEmpty, "another read there answered a second ago")
    #expect(seen.2 == ["/proc"], "that answer is older than the limit too")
}

/// A mount that answers a look says so at once, and the look leaves nothing in flight.
@Test func aMountThatAnswersALookSaysSoAtOnce() {
    let watch = ReadWatch()
    let start = ProcessInfo.processInfo.systemUptime
    #expect(watch.answers(ImagePath("/proc/self/status")))
    #expect(watch.answers(ImagePath("/tmp/no such file/a.jpg")), "a file not there is an answer too")
    #expect(ProcessInfo.processInfo.systemUptime - start < 1)
    #expect(watch.lateThreads(at: start + 10 * ReadWatch.limit).isEmpty)
}

/// A call that failed because its mount went away (ENOTCONN: sshfs ended) names the mount as
/// not answering, until a look at its mount point answers; any other error names nothing.
@Test func aMountThatWentAwayIsNamedUntilItAnswers() {
    let watch = ReadWatch()
    let here = ImagePath(FileManager.default.currentDirectoryPath + "/a.jpg")
    let mount = ReadWatch.mountPoint(of: here.absoluteBytes, among: ReadWatch.mountPoints())
    #expect(!watch.noteFailure(here, errno: ENOENT) && !watch.noteFailure(here, errno: EIO) && watch.notAnswering().isEmpty)
    errno = 0
    #expect(watch.noteFailure(here, errno: ENOTCONN, lookingEvery: 0.2))
    #expect(errno == ENOTCONN, "the caller's message still says why")
    #expect(watch.notAnswering() == [mount] && watch.notAnswering(holding: here) == mount)
    // This mount answers: it is let go at the next look.
    let start = ProcessInfo.processInfo.systemUptime
    while !watch.notAnswering().isEmpty, ProcessInfo.processInfo.systemUptime - start < 5 { usleep(20_000) }
    #expect(watch.notAnswering().isEmpty && watch.notAnswering(holding: here) == nil)
}

/// A file the kernel makes as it is read says its size is 0, and Foundation's reading stops at
/// its first page: a mount table of more than 4 KB (snaps, containers) lost its last mounts, a
/// share mounted late among them, which was then not known as one.
@Test func aKernelFileIsReadToItsEndAndTheMountTableWhole() throws {
    // This process's map: well past a page here (the test runner's libraries), its stack near the end.
    let maps = try #require(FileReader.readToEnd("/proc/self/maps"))
    #expect(maps.count > 8192)
    #expect(maps.last == UInt8(ascii: "\n"))
    #expect(String(decoding: maps, as: UTF8.self).contains("[stack]"))
    #expect(try #require(FileReader.readToEnd("/proc/self/maps", limit: 100)).count == 100)
    #expect(FileReader.readToEnd("/proc/self/no such file") == nil)
    // Every line of the mount table is a mount (however long the table).
    let lines = try #require(FileReader.readToEnd("/proc/self/mountinfo")).split(separator: UInt8(ascii: "\n")).count
    #expect(ReadWatch.mounts().count == lines)
}
