import Foundation

/// Puts thumbnails in the disk cache at idle priority while the user looks (`--read-ahead`):
/// threads lowered to nice 19 and the idle I/O class, taking the files they are given nearest
/// first, as many at once as `workers` allows when they are given more (one on battery, say).
/// A key pauses them after the files in hand; what they were given and had not begun goes back.
public final class ReadAheadWorker: @unchecked Sendable {
    private let warm: @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome
    private let onResult: @Sendable () -> Void
    private let workers: @Sendable () -> Int
    private let condition = NSCondition()
    private var queue: [ReadAheadRequest] = []
    private var results: [ReadAheadOutcome] = []
    /// Threads with a file in hand, and how many may have one (none until work comes).
    private var busy = 0
    private var allowed = 0
    /// Work came since `workers()` was last asked: a worker thread asks it before taking any
    /// (it may read files, such as the power supply's, which the caller's thread should not wait for).
    private var deciding = false
    private var stopped = false
    private let threadCount: Int
    private var running: Int
    /// The worker threads' ids, once they run (for checking their priority).
    public private(set) var threadIDs: [Int32] = []

    /// Starts `threads` threads, of which `workers()` (asked again on one of them each time more
    /// work comes; at least one) take files at once.
    public init(
        threads: Int = 1, workers: @escaping @Sendable () -> Int = { .max },
        warm: @escaping @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome,
        onResult: @escaping @Sendable () -> Void
    ) {
        self.warm = warm
        self.onResult = onResult
        self.workers = workers
        threadCount = max(1, threads)
        running = threadCount
        // The threads keep the worker alive until `stop()` ends them.
        for _ in 0..<threadCount {
            let thread = Thread { self.work() }
            thread.name = "lightbox-read-ahead"
            thread.start()
        }
    }

    /// Whether it has nothing given and nothing in hand (time to give it more).
    public var isIdle: Bool {
        condition.lock(); defer { condition.unlock() }
        return queue.isEmpty && busy == 0
    }

    /// How many threads may take files at once, as last decided (0 before any work came).
    public var activeThreads: Int {
        condition.lock(); defer { condition.unlock() }
        return min(allowed, threadCount)
    }

    /// Takes `requests` after those it has.
    public func enqueue(_ requests: [ReadAheadRequest]) {
        condition.lock()
        deciding = true
        queue += requests
        condition.broadcast()
        condition.unlock()
    }

    /// Stops after the file in hand and gives back what it had not begun.
    public func pause() -> [ItemID] {
        condition.lock(); defer { condition.unlock() }
        let given = queue.map(\.id)
        queue.removeAll()
        return given
    }

    /// What it did since the last call.
    public func takeResults() -> [ReadAheadOutcome] {
        condition.lock(); defer { condition.unlock() }
        defer { results.removeAll() }
        return results
    }

    /// Ends the threads after the files in hand, and waits for them, at most `stopWait` seconds:
    /// one waiting on a decoder that is stopped or hung is left to end with the process.
    public func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: Self.stopWait)
        while running > 0 && condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Seconds `stop` waits for the files in hand.
    static let stopWait = 0.1

    private func work() {
        IdlePriority.lowerCurrentThread()
        condition.lock()
        threadIDs.append(IdlePriority.currentThreadID)
        while true {
            while (queue.isEmpty || (busy >= allowed && !deciding)) && !stopped { condition.wait() }
            if stopped { break }
            if deciding {
                deciding = false
                condition.unlock()
                let workers = max(1, workers())
                condition.lock()
                allowed = workers
                condition.broadcast()
                continue
            }
            let request = queue.removeFirst()
            busy += 1
            condition.unlock()
            let outcome = warm(request.file, request.size)
            condition.lock()
            busy -= 1
            results.append(ReadAheadOutcome(id: request.id, outcome: outcome))
            condition.broadcast()  // a thread held back by `allowed` may go on
            condition.unlock()
            onResult()
            condition.lock()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}

/// A file for the read-ahead to put in the disk cache, at the size the grid shows it.
public struct ReadAheadRequest: Hashable, Sendable {
    public var id: ItemID
    public var file: ImageFile
    public var size: FreedesktopCache.Size

    public init(id: ItemID, file: ImageFile, size: FreedesktopCache.Size) {
        self.id = id
        self.file = file
        self.size = size
    }
}

/// What the read-ahead did with one file.
public struct ReadAheadOutcome: Hashable, Sendable {
    public var id: ItemID
    public var outcome: ThumbnailPipeline.WarmOutcome

    public init(id: ItemID, outcome: ThumbnailPipeline.WarmOutcome) {
        self.id = id
        self.outcome = outcome
    }
}
