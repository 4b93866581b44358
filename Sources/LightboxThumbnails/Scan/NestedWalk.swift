import Foundation

/// The walk of a folder on another mount, met inside a folder being walked (`/photos/nas` where a
/// share is mounted in `/photos`): it runs on a thread of its own, and the walk that met it hands
/// on what it finds in turn, so the order is the walk's; when its mount stops answering
/// (`ReadWatch`), the outer walk goes on without it, and what it finds once the mount answers
/// comes after (`Scanner.Walk.walkNested`). Safe to use from any thread.
final class NestedWalk: @unchecked Sendable {
    /// The folder walked.
    let path: ImagePath
    private let condition = NSCondition()
    private var batches: [Scanner.Batch] = []
    /// The folders it took whole from the index, once it has ended (`Walk.trustedFolders`).
    private var trusted: [Scanner.Walk.TrustedFolder]?
    private var isStopped = false

    /// Starts walking `path` with `walk` (its batches handed here) on a thread of its own.
    init(_ path: ImagePath, walk: Scanner.Walk) {
        self.path = path
        let box = Box(walk)
        box.walk.emit = { self.hand($0) }
        let thread = Thread {
            box.walk.walkFolder(path)
            box.walk.flush()
            box.walk.finishNested()
            self.end(trusting: box.walk.trustedFolders)
        }
        thread.name = "lightbox-scan-nested"
        thread.start()
    }

    /// The walk, handed to its thread.
    private final class Box: @unchecked Sendable {
        var walk: Scanner.Walk
        init(_ walk: Scanner.Walk) { self.walk = walk }
    }

    /// Keeps `batch` for the outer walk; false once it was stopped.
    func hand(_ batch: Scanner.Batch) -> Bool {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        guard !isStopped else { return false }
        batches.append(batch)
        return true
    }

    private func end(trusting folders: [Scanner.Walk.TrustedFolder]) {
        condition.lock()
        trusted = folders
        condition.broadcast()
        condition.unlock()
    }

    /// What it found since the last call, waiting up to `seconds` for something when there is
    /// nothing yet; `ended`: the folders it took whole from the index, once it has ended.
    func take(waitingAtMost seconds: Double) -> (batches: [Scanner.Batch], ended: [Scanner.Walk.TrustedFolder]?) {
        condition.lock()
        defer { condition.unlock() }
        if batches.isEmpty && trusted == nil { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
        let taken = batches
        batches = []
        return (taken, trusted)
    }

    /// The outer walk stopped: this one stops at its next batch (a read held by a mount is left behind).
    func stop() {
        condition.lock()
        isStopped = true
        condition.unlock()
    }
}

extension Scanner.Walk {
    /// The mount points of `mounts` strictly inside the folder `path`, named from `path` as the walk names its folders.
    /// - Complexity: O(*m*) for *m* mounts.
    static func mounts(inside path: ImagePath, among mounts: [[UInt8]]) -> Set<[UInt8]> {
        let slash = UInt8(ascii: "/")
        let absolute = path.absoluteBytes
        let base = absolute.last == slash ? absolute : absolute + [slash]
        let named = path.bytes.last == slash ? path.bytes : path.bytes + [slash]
        return Set(ReadWatch.mounts(inside: absolute, among: mounts).map { named + $0[base.count...] })
    }

    /// Walks `path`, another mount's folder met in this walk, on a thread of its own, handing
    /// on what it finds as it comes, until it ends; when its mount stops answering first, the
    /// walk goes on and what it finds later is handed on after (`drainNested`, `finishNested`).
    mutating func walkNested(_ path: ImagePath) {
        var inner = self
        inner.batch = nil
        inner.trustedFolders = []
        inner.waitingNested = []
        inner.emittedFiles = 0
        inner.problemCount = 0
        let nested = NestedWalk(path, walk: inner)
        if !follow(nested, leavingIfStalled: true), !isStopped { waitingNested.append(nested) }
    }

    /// Hands on what `nested` finds until it ends (true); false when the scan stops first, or,
    /// `leavingIfStalled`, when its mount stops answering first.
    mutating func follow(_ nested: NestedWalk, leavingIfStalled: Bool) -> Bool {
        while !isStopped {
            let taken = nested.take(waitingAtMost: 0.25)
            handOn(taken.batches, from: nested)
            if let trusted = taken.ended {
                trustedFolders += trusted
                return true
            }
            if leavingIfStalled, ReadWatch.shared.notAnswering(holding: nested.path) != nil { return false }
        }
        nested.stop()
        return false
    }

    /// Hands on what the nested walks left waiting have found since (between folders: a
    /// folder's files stay together); those ended are done with.
    mutating func drainNested() {
        guard !waitingNested.isEmpty else { return }
        waitingNested = waitingNested.filter { nested in
            let taken = nested.take(waitingAtMost: 0)
            handOn(taken.batches, from: nested)
            if let trusted = taken.ended { trustedFolders += trusted }
            return taken.ended == nil && !isStopped
        }
    }

    /// Waits for the nested walks left waiting, handing on what they find, in turn: the walk is
    /// over when they are (or when it is stopped).
    mutating func finishNested() {
        let waiting = waitingNested
        waitingNested = []
        for nested in waiting { _ = follow(nested, leavingIfStalled: false) }
    }

    /// Hands on `batches` from `nested`, stopping it when the scan stops.
    mutating func handOn(_ batches: [Scanner.Batch], from nested: NestedWalk) {
        flush()
        for batch in batches where !isStopped {
            emittedFiles += batch.files.count
            if !emit(batch) {
                isStopped = true
                nested.stop()
            }
        }
    }
}
