import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// How many of some work run at once, and the most that did.
final class RunningCount: @unchecked Sendable {
    let lock = NSLock()
    var running = 0, most = 0

    func change(_ by: Int) {
        lock.lock()
        running += by
        most = max(most, running)
        lock.unlock()
    }
}

/// Results come in order, at most `width` run at once, and more than one does when each waits.
@Test func parallelReadsKeepTheirOrderAndTheirWidth() {
    let count = RunningCount()
    let results = ParallelReads.map(100, width: 8) { index -> Int in
        count.change(1)
        usleep(2000)  // a round trip
        count.change(-1)
        return index * 2
    }
    #expect(results == (0..<100).map { $0 * 2 })
    #expect(count.most > 1 && count.most <= 8, "\(count.most) at once")
    #expect(ParallelReads.map(0, width: 8) { $0 }.isEmpty)
    #expect(ParallelReads.map(3, width: 1) { $0 } == [0, 1, 2])
}

/// A folder scanned 16 files at a time finds what one at a time does, in the same order, with
/// the same problems: images, a file named like one that is not, links to a file, to a folder and
/// to nothing, subfolders.
@Test func aScanWithManyReadsInFlightFindsWhatOneAtATimeDoes() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for i in 0..<150 { try TestImages.jpeg(at: try dir.file("pics/IMG_\(i).jpg"), width: 8, height: 8) }
    for i in 0..<5 { try TestImages.jpeg(at: try dir.file("pics/sub\(i)/x.jpg"), width: 8, height: 8) }
    try TestImages.bytes(Array("not an image".utf8), at: try dir.file("pics/fake.jpg"))
    #expect(symlink(dir.path + "/pics/IMG_3.jpg", dir.path + "/pics/link.jpg") == 0)
    #expect(symlink(dir.path + "/pics/sub1", dir.path + "/pics/linked-folder") == 0)
    #expect(symlink(dir.path + "/nowhere", dir.path + "/pics/dangling.jpg") == 0)
    func scanned(_ reads: Int?) -> ([String], [String]) {
        var scanner = Scanner()
        scanner.readsInFlight = reads
        let result = scanner.scan([ImagePath(dir.path)])
        return (result.folders.flatMap { $0.files.map(\.path.description) }, result.problems)
    }
    let one = scanned(1), many = scanned(16)
    #expect(one.0.count >= 155 && one.1 == ["not an image: \(dir.path)/pics/fake.jpg (text)"], "\(one.0.count) \(one.1)")
    #expect(many.0 == one.0 && many.1 == one.1)
    // A local disk reads one at a time unless told.
    #expect(ParallelReads.width(for: ImagePath(dir.path), stated: nil) == 1 && ParallelReads.width(for: ImagePath(dir.path), stated: 99) == 64)
}

@Test func partsStartSmallAndDoubleUpToTheirMost() {
    #expect(ParallelReads.parts(of: 0, first: 8).isEmpty)
    #expect(ParallelReads.parts(of: 10, first: 2, most: 4) == [0..<2, 2..<6, 6..<10])
    #expect(ParallelReads.parts(of: 3, first: 1, most: 1) == [0..<1, 1..<2, 2..<3])
    let parts = ParallelReads.parts(of: 5000, first: 64)
    #expect(parts.map(\.count).prefix(6) == [64, 128, 256, 512, 1024, 1024] && parts.last?.upperBound == 5000)
    #expect(zip(parts, parts.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
}
