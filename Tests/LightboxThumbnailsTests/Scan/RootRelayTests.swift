import Foundation
import LightboxTestSupport
import Testing

@testable import LightboxThumbnails

/// A batch named `name` (its folder), for following the relay's order.
private func batch(_ name: String) -> LightboxThumbnails.Scanner.Batch { LightboxThumbnails.Scanner.Batch(folder: ImagePath(name), files: []) }

/// What a relay handed out, in order, and a gate a walk waits at.
private final class Relayed: @unchecked Sendable {
    /// Keeps each batch handed out: the relay's `emit`.
    var keep: (LightboxThumbnails.Scanner.Batch) -> Bool {
        { [self] in
            add($0)
            return true
        }
    }

    let lock = NSLock()
    var names: [String] = []
    let gate = DispatchSemaphore(value: 0)
    var stalled = Set<Int>()

    func add(_ batch: LightboxThumbnails.Scanner.Batch) {
        lock.withLock { names.append(batch.folder.description) }
    }
    var seen: [String] { lock.withLock { names } }
    func isStalled(_ group: Int) -> Bool { lock.withLock { stalled.contains(group) } }
}

/// Groups whose mounts answer are handed out in the order given, each whole before the next.
@Test func relayKeepsTheOrderGiven() {
    let relayed = Relayed()
    let relay = RootRelay(groups: 3, checkInterval: 0.01) { _ in false }
    relay.run(emit: relayed.keep) { number, port in
        for part in 0..<3 {
            usleep(UInt32(1000 * (3 - number)))  // later groups quicker: order is still the one given
            _ = port.hand(batch("g\(number)-\(part)"))
        }
    }
    #expect(relayed.seen == ["g0-0", "g0-1", "g0-2", "g1-0", "g1-1", "g1-2", "g2-0", "g2-1", "g2-2"])
}

/// A group whose mount stops answering is left waiting: the next group is walked and handed out
/// meanwhile, and what the waiting one finds once it answers comes after (nothing moves).
@Test func relayWalksOnPastAStalledMount() {
    let relayed = Relayed()
    relayed.stalled = [0]
    let relay = RootRelay(groups: 2, checkInterval: 0.01) { relayed.isStalled($0) }
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        relay.run(emit: relayed.keep) { number, port in
            if number == 0 {
                _ = port.hand(batch("nas-first"))
                relayed.gate.wait()  // a read the mount does not answer
                _ = port.hand(batch("nas-after"))
            } else {
                _ = port.hand(batch("local"))
            }
        }
        finished.signal()
    }
    let deadline = Date(timeIntervalSinceNow: 5)
    while !relayed.seen.contains("local") && Date() < deadline { usleep(5000) }
    #expect(relayed.seen == ["nas-first", "local"], "the local folder is shown while the share waits")
    relayed.lock.withLock { relayed.stalled = [] }
    relayed.gate.signal()
    #expect(finished.wait(timeout: .now() + 5) == .success)
    #expect(relayed.seen == ["nas-first", "local", "nas-after"])
}

/// Stopped (the gallery quit), the relay returns at once, a walk held by a mount left behind.
@Test func relayStopsWithoutWaitingForAHeldWalk() {
    let relayed = Relayed()
    let relay = RootRelay(groups: 2, checkInterval: 0.01) { _ in false }
    let began = Date()
    relay.run(
        emit: { _ in false },
        walk: { number, port in
            if !port.hand(batch("g\(number)")) { relayed.gate.wait() }  // held until the test lets it go
        })
    #expect(Date().timeIntervalSince(began) < 1)
    relayed.gate.signal()
}

/// Checks wait until every group has walked or waits on its mount; their batches are handed out
/// whenever they come.
@Test func relayStartsChecksOnceEveryGroupWalked() {
    let relayed = Relayed()
    let relay = RootRelay(groups: 2, checkInterval: 0.01) { _ in false }
    relay.run(emit: relayed.keep) { number, port in
        _ = port.hand(batch("walk\(number)"))
        port.walked()
        if port.waitForChecks() { _ = port.hand(batch("check\(number)")) }
    }
    let seen = relayed.seen
    #expect(seen.count == 4)
    #expect(Array(seen.prefix(2)) == ["walk0", "walk1"], "no check before the last walk: \(seen)")
    #expect(Set(seen.suffix(2)) == ["check0", "check1"])
}

/// Paths are grouped by the mount that holds them, consecutive ones together, told by their paths alone.
@Test func scanPathsAreGroupedByMount() {
    let mounts: [[UInt8]] = [Array("/".utf8), Array("/mnt/nas".utf8)]
    let paths = ["/home/a", "/home/b", "/mnt/nas/x", "/mnt/nas/y", "/tmp/c", "/mnt/nasty"].map { ImagePath($0) }
    let groups = LightboxThumbnails.Scanner.groupedByMount(paths, mounts: mounts).map { $0.map(\.description) }
    #expect(groups == [["/home/a", "/home/b"], ["/mnt/nas/x", "/mnt/nas/y"], ["/tmp/c", "/mnt/nasty"]])
}

/// A group of paths waits on the mount holding them and on those mounted inside them, not on others.
@Test func aGroupWaitsOnItsMountAndThoseInsideIt() {
    let mounts: [[UInt8]] = ["/", "/home/u/Pictures/nas", "/mnt/nas", "/mnt/nasty"].map { Array($0.utf8) }
    let waited = LightboxThumbnails.Scanner.mountsWaitedOn(by: [ImagePath("/home/u/Pictures"), ImagePath("/home/u/Other")], among: mounts)
    #expect(waited == Set(["/", "/home/u/Pictures/nas"].map { Array($0.utf8) }))
    #expect(LightboxThumbnails.Scanner.mountsWaitedOn(by: [ImagePath("/mnt/nas/x")], among: mounts) == [Array("/mnt/nas".utf8)])
}

/// Mount points inside a folder walked, named as the walk names its folders; the folder's own mount and its neighbours are not.
@Test func mountsInsideAFolderAreNamedAsTheWalkNamesThem() {
    let mounts: [[UInt8]] = ["/", "/srv/photos", "/srv/photos/nas", "/srv/photos/nas/deeper", "/srv/photosx", "/srv"].map { Array($0.utf8) }
    let inside = LightboxThumbnails.Scanner.Walk.mounts(inside: ImagePath("/srv/photos"), among: mounts)
    #expect(inside == Set(["/srv/photos/nas", "/srv/photos/nas/deeper"].map { Array($0.utf8) }))
    #expect(LightboxThumbnails.Scanner.Walk.mounts(inside: ImagePath("/srv/photos/"), among: mounts) == inside)
    #expect(LightboxThumbnails.Scanner.Walk.mounts(inside: ImagePath("/"), among: mounts).count == 5)
}

/// A folder on another mount inside the one walked is walked on a thread of its own, and what
/// it finds comes in the walk's order, as if walked in place.
@Test func aMountInsideTheFolderIsWalkedInPlaceOnItsOwnThread() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for name in ["a/1.jpg", "b/2.jpg", "b/c/3.jpg", "d/4.jpg"] { try TestImages.jpeg(at: try dir.file(name), width: 8, height: 8) }
    let root = ImagePath(dir.path)
    func walked(nested: [String]) -> (files: [String], looks: Int) {
        let found = Relayed()
        let looks = Counter()
        var walk = LightboxThumbnails.Scanner().makeWalk(emit: found.keepFiles)
        let mounts = nested.map { Array((dir.path + "/" + $0).utf8) }
        walk.mountPoints = {
            looks.add()
            return mounts
        }
        walk.walkFolder(root)
        walk.flush()
        walk.finishNested()
        return (found.seen, looks.count)
    }
    let inPlace = walked(nested: [])
    #expect(inPlace.files.map { String($0.dropFirst(dir.path.count + 1)) } == ["a/1.jpg", "b/2.jpg", "b/c/3.jpg", "d/4.jpg"])
    let nested = walked(nested: ["b"])
    #expect(nested.files == inPlace.files && nested.looks == 2, "b walked by a walk of its own, in place")
}

private final class Counter: @unchecked Sendable {
    let lock = NSLock()
    var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

extension Relayed {
    /// Keeps each batch's files' paths.
    var keepFiles: (LightboxThumbnails.Scanner.Batch) -> Bool {
        { [self] batch in
            lock.withLock { names += batch.files.map(\.path.description) }
            return true
        }
    }
}
