import Foundation

/// Puts thumbnails in the disk cache at idle priority while the user looks (`--read-ahead`):
/// one thread, lowered to nice 19 and the idle I/O class, taking the files it is given nearest
/// first. A key pauses it after the file in hand; what it was given and has not begun goes back.
public final class ReadAheadWorker: @unchecked Sendable {
    private let warm: @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome
    private let onResult: @Sendable () -> Void
    private let condition = NSCondition()
    private var queue: [ReadAheadRequest] = []
    private var results: [ReadAheadOutcome] = []
    private var busy = false
    private var stopped = false
    private var finished = false
    /// The worker thread's id, once it runs (for checking its priority).
    public private(set) var threadID: Int32 = 0

    public init(warm: @escaping @Sendable (ImageFile, FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome,
         onResult: @escaping @Sendable () -> Void) {
        self.warm = warm
        self.onResult = onResult
        // The thread keeps the worker alive until `stop()` ends it.
        let thread = Thread { self.work() }
        thread.name = "lightbox-read-ahead"
        thread.start()
    }

    /// Whether it has nothing given and nothing in hand (time to give it more).
    public var isIdle: Bool {
        condition.lock(); defer { condition.unlock() }
        return queue.isEmpty && !busy
    }

    /// Takes `requests` after those it has.
    public func enqueue(_ requests: [ReadAheadRequest]) {
        condition.lock()
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

    /// Ends the thread after the file in hand, and waits for it.
    public func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func work() {
        IdlePriority.lowerCurrentThread()
        condition.lock()
        threadID = IdlePriority.currentThreadID
        while true {
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped { break }
            let request = queue.removeFirst()
            busy = true
            condition.unlock()
            let outcome = warm(request.file, request.size)
            condition.lock()
            busy = false
            results.append(ReadAheadOutcome(id: request.id, outcome: outcome))
            condition.unlock()
            onResult()
            condition.lock()
        }
        finished = true
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
