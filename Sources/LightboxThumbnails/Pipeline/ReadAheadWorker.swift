import Foundation

/// Puts thumbnails in the disk cache at idle priority while the user looks (`--read-ahead`):
/// threads lowered to nice 19 and the idle I/O class, taking the files they are given nearest
/// first, as many at once as `workers` allows when they are given more (one on battery, say).
/// A key pauses them after the files in hand; what they were given and had not begun goes back.
public final class ReadAheadWorker: @unchecked Sendable {
    /// The files given, and how many threads may have one in hand, under the queue's lock.
    struct Schedule: WorkSchedule {
        enum Job {
            /// Ask `workers()` how many may take files at once (it may read files, such as the
            /// power supply's, which the caller's thread should not wait for).
            case decide
            case warm(ReadAheadRequest)
        }
        enum Result {
            case decided(Int)
            case done(ReadAheadOutcome)
        }

        var queue: [ReadAheadRequest] = []
        /// Threads with a file in hand, and how many may have one (none until work comes).
        var busy = 0
        var allowed = 0
        /// Work came since `workers()` was last asked.
        var deciding = false

        mutating func next() -> Job? {
            if deciding {
                deciding = false
                return .decide
            }
            guard !queue.isEmpty, busy < allowed else { return nil }
            busy += 1
            return .warm(queue.removeFirst())
        }

        mutating func finished(_ job: Job, with result: Result?) -> Bool {
            switch result {
            case .decided(let workers):
                allowed = workers
                return false
            case .done:
                busy -= 1
                return true
            case nil:
                return false
            }
        }

        mutating func removeAll() { queue.removeAll() }
    }

    private let queue: WorkQueue<Schedule>
    private let threadCount: Int

    /// The worker threads' ids, once they run (for checking their priority).
    public var threadIDs: [Int32] { queue.threadIDs }

    /// Starts `threads` threads, of which `workers()` (asked again on one of them each time more
    /// work comes; at least one) take files at once.
    public init(
        threads: Int = 1, workers: @escaping @Sendable () -> Int = { .max },
        warm: @escaping @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome,
        onResult: @escaping @Sendable () -> Void
    ) {
        threadCount = max(1, threads)
        queue = WorkQueue(
            Schedule(), threads: threadCount, name: "lightbox-read-ahead", setUp: { _ = IdlePriority.lowerCurrentThread() }, onResult: onResult,
            perform: { job, _ in
                switch job {
                case .decide: .decided(max(1, workers()))
                case .warm(let request): .done(ReadAheadOutcome(id: request.id, outcome: warm(request.file, request.size)))
                }
            })
    }

    /// Whether it has nothing given and nothing in hand (time to give it more).
    public var isIdle: Bool { queue.read { schedule, _, inHand in schedule.queue.isEmpty && inHand == 0 } }

    /// How many threads may take files at once, as last decided (0 before any work came).
    public var activeThreads: Int { queue.read { schedule, _, _ in min(schedule.allowed, threadCount) } }

    /// Takes `requests` after those it has.
    public func enqueue(_ requests: [ReadAheadRequest]) {
        queue.change { schedule, _ in
            schedule.deciding = true
            schedule.queue += requests
        }
    }

    /// Stops after the file in hand and gives back what it had not begun.
    public func pause() -> [ItemID] {
        queue.change { schedule, _ in
            defer { schedule.queue.removeAll() }
            return schedule.queue.map(\.id)
        }
    }

    /// What it did since the last call.
    public func takeResults() -> [ReadAheadOutcome] {
        queue.takeResults().compactMap { if case .done(let outcome) = $0 { outcome } else { nil } }
    }

    /// Ends the threads after the files in hand, and waits for them, at most `stopWait` seconds:
    /// one waiting on a decoder that is stopped or hung is left to end with the process.
    public func stop() { queue.stop(waitingAtMost: Self.stopWait) }

    /// Seconds `stop` waits for the files in hand.
    static let stopWait = 0.1
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
