import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a `Scanner` on a thread of its own and hands its batches over as they come, so the
/// first screen shows while a large tree is still being read, and a hanging read never holds up
/// the UI.
public final class BackgroundScan: @unchecked Sendable {
    /// What the scan has found since it was last asked.
    public struct Progress: Sendable {
        /// New batches in order, consecutive batches of one folder merged.
        public var batches: [Scanner.Batch]
        /// Whether the scan is over; then `batches` holds the last of it.
        public var isFinished: Bool

        public init(batches: [Scanner.Batch], isFinished: Bool) {
            self.batches = batches
            self.isFinished = isFinished
        }
    }

    /// The one job (the walk) and what it found, under the queue's lock.
    struct Schedule: WorkSchedule {
        typealias Result = Scanner.Batch
        var source: Source?
        var isFinished = false
        var foundImages = false

        mutating func next() -> Source? {
            defer { source = nil }
            return source
        }

        mutating func handing(_ batch: Scanner.Batch) {
            if !batch.files.isEmpty { foundImages = true }
        }

        /// The walk ended (or was stopped): the run loop hears of it.
        mutating func finished(_ source: Source, with batch: Scanner.Batch?) -> Bool {
            isFinished = true
            return true
        }

        /// Stopped before the walk began: it is over too.
        mutating func removeAll() {
            if source != nil { isFinished = true }
            source = nil
        }
    }

    private let wake: WakePipe
    private let queue: WorkQueue<Schedule>
    /// Whether the index is being replayed (set by the scan's thread).
    private let replaying: SharedFlag

    /// Readable when there is something to `take()`: an event loop polls it (and drains it).
    public var wakeDescriptor: Int32 { wake.readEnd }

    /// What to scan: paths, or a list of them read from a file descriptor (standard input).
    public enum Source: Sendable {
        case paths([ImagePath])
        /// Folders walked again, with what was found there before still shown (no replay, no listings first).
        case again([ImagePath])
        /// `prefix`: the list's first bytes, already read from `fd`.
        case list(fd: Int32, separator: UInt8, prefix: [UInt8] = [])
    }

    public convenience init(
        paths: [ImagePath], scanner: Scanner = Scanner(),
        transform: @escaping @Sendable (Scanner.Batch) -> Scanner.Batch = { $0 }
    ) {
        self.init(source: .paths(paths), scanner: scanner, transform: transform)
    }

    /// Starts scanning `source`. Each batch passes through `transform` on the scan's thread (to
    /// drop files that cannot be shown). With `replaying`, what that index holds under the paths
    /// (of a list: of each chunk's paths, `LibraryIndex.recall`) comes first
    /// (`LibraryIndex.replay`), before the walk looks at anything, handed in parts of
    /// `replayPart` files at most that grow from the first folder's: a part costs the UI about
    /// as much to take whatever its size, as it re-arranges the whole library (a 100,000-photo
    /// relaunch: 1,000-file parts 10-20 ms each, 20,000-file ones 50-80 ms).
    public init(
        source: Source, scanner: Scanner = Scanner(), replaying index: LibraryIndex? = nil, replayPart: Int = 20_000,
        transform: @escaping @Sendable (Scanner.Batch) -> Scanner.Batch = { $0 }
    ) {
        let wake = WakePipe()
        self.wake = wake
        let replaying = SharedFlag(index != nil)
        self.replaying = replaying
        queue = WorkQueue(
            Schedule(source: source), name: "lightbox-scan", onResult: { wake.signal() },
            perform: { source, hand in
                func emit(_ batch: Scanner.Batch) -> Bool { hand(transform(batch)) }
                switch source {
                case .paths(let paths):
                    let pairs = scanner.pairing != .apart
                    // On a local disk too: the walk finds 100,000 photos in seconds, the replay in a
                    // fraction of one (the whole library at once, for `G` and the sections).
                    if let index {
                        // Parts that double from the first folder's: the first screen at once, then few
                        // takes, smaller again towards the end, so the last one the UI takes after the
                        // replay's end is small.
                        var part: [Scanner.Batch] = [], partFiles = 0, handed = 0
                        for path in paths {
                            var files = 0, folders = 0
                            let whole = index.replay(under: path, pairs: pairs) { batch, foldersLeft in
                                part.append(batch)
                                partFiles += batch.files.count
                                files += batch.files.count
                                folders += 1
                                let left = files / folders * foldersLeft
                                guard Self.isWhole(part: partFiles, handed: handed, left: left, limit: replayPart) else { return true }
                                defer { (part, handed, partFiles) = ([], handed + partFiles, 0) }
                                return part.allSatisfy { emit($0) }
                            }
                            guard whole else { return nil }
                        }
                        guard part.allSatisfy({ emit($0) }) else { return nil }
                    }
                    replaying.set(false)
                    // The run loop may have taken the last part before the flag fell: it hears of it now.
                    if index != nil { wake.signal() }
                    scanner.scan(paths, emit: emit)
                case .again(let paths):
                    var again = scanner
                    again.listsFirst = false
                    again.scan(paths, emit: emit)
                case .list(let fd, let separator, let prefix):
                    // A list is recalled a chunk at a time, as it comes, each checked by the walk
                    // at once: nothing waits for the whole of it (it may never end).
                    replaying.set(false)
                    if index != nil { wake.signal() }
                    scanner.scan(listIn: fd, separator: separator, prefix: prefix, recalling: index, emit: emit)
                }
                return nil
            })
    }

    deinit {
        wake.close()
    }

    /// Whether a part of the index's batches holding `files` files is handed on, `handed` before
    /// it and about `left` still to come: the first folder at once (the first screen), then parts
    /// as large as all before, up to `limit`, and at most half of what is left (the UI takes the
    /// last part after the replay's end: a 100,000-photo relaunch's was 8,000 files, 10-20 ms).
    static func isWhole(part files: Int, handed: Int, left: Int, limit: Int) -> Bool { files >= min(limit, max(1, handed), max(1, left / 2)) }

    /// The batches found since the last call.
    /// - Complexity: O(*b*) in the number of batches taken.
    public func take() -> Progress { take(filesAtMost: .max, endingLanding: false) }

    /// The batches found since the last call, as many as hold `limit` files (the first whatever
    /// its size): a replayed index's thousands are taken a part at a time, so a key waits for one part.
    /// The index's last part is taken without the walk's first batch: taken with it, the library
    /// would look up every file the index had (`Library.appendChecked`) before it all shows.
    /// - Complexity: O(*b*) in the number of batches taken.
    public func take(filesAtMost limit: Int) -> Progress { take(filesAtMost: limit, endingLanding: true) }

    private func take(filesAtMost limit: Int, endingLanding: Bool) -> Progress {
        wake.drain()
        let (batches, isLeft, isFinished) = queue.takeResults(
            upTo: limit, weight: { $0.files.count }, endsTake: { endingLanding && $0.isFromIndex && !$1.isFromIndex }, reading: { $0.isFinished })
        // What is left wakes the loop again.
        if isLeft { wake.signal() }
        var merged: [Scanner.Batch] = []
        for batch in batches { merged.appendMerging(batch) }
        return Progress(batches: merged, isFinished: isFinished && !isLeft)
    }

    /// Whether what the index had is still coming: being replayed, or waiting to be taken (what
    /// does not need doing before the whole library is there, such as checking decisions, waits).
    /// - Complexity: O(*b*) in the batches waiting.
    public var isLandingIndex: Bool {
        replaying.isSet || queue.read { _, waiting, _ in waiting.contains { $0.isFromIndex } }
    }

    /// Waits until the scan has found an image or ended, or `timeout` seconds pass.
    public func waitForImages(timeout: Double) {
        queue.wait(timeout: timeout) { schedule, _ in schedule.foundImages || schedule.isFinished }
    }

    /// Waits until there is something to take (or the scan ended), or `timeout` seconds pass.
    public func waitForBatches(timeout: Double) {
        queue.wait(timeout: timeout) { schedule, waiting in !waiting.isEmpty || schedule.isFinished }
    }

    /// Walks `paths` again once the scan is over (the scan is not over until then): what it finds
    /// comes as the walk's batches do.
    public func walkAgain(_ paths: [ImagePath]) {
        queue.change { schedule, _ in
            schedule.source = .again(paths)
            schedule.isFinished = false
        }
    }

    /// Stops the scan at its next file. A read that hangs keeps its thread, never the caller.
    public func stop() { queue.stop(waitingAtMost: 0) }
}
