/// What the run loop listens to.
public enum LoopSource: Int, CaseIterable, Hashable, Sendable {
    /// Keys, the mouse and resizes from the terminal.
    case input
    /// A decode or a read-ahead file finished.
    case wake
    /// A signal came (SIGTERM, SIGWINCH, SIGTSTP...).
    case signals
    /// The scan found more.
    case scan
    /// Metadata was read.
    case metadata
    /// The terminal can take more of the pictures waiting for it.
    case pictureOutput
}

/// The run loop's decisions, with no I/O: what to listen to and how long to wait, whether to
/// paint now, whether a scan or metadata batch is taken, whether the read-ahead is due. Times are
/// seconds of a monotonic clock the caller reads (tests give their own).
public struct Scheduler: Sendable {
    /// How often the run loop does each thing, in seconds.
    public struct Pacing: Hashable, Sendable {
        /// Results streaming in are painted at most this often (input is painted at once).
        public var frameInterval = 16.0 / 1000
        /// Metadata batches that re-sort the library come at most this often...
        public var metadataInterval = 0.25
        /// ...and scan batches that re-arrange it this often...
        public var scanInterval = 0.1
        /// ...or this many times as long as the last one took, so keys stay quick...
        public var costFactor = 10.0
        /// ...but the index's (a library known from an earlier visit, handed and taken a part at
        /// a time: `scanTakeLimit`) this many times its cost, with no interval: the whole of it is
        /// there in a moment, and a key waits for one part at most.
        public var indexCostFactor = 0.0
        /// The most files a scan batch taken at once holds (the first folder's whatever its size):
        /// a key waits for one such part (about 50 ms for 20,000 of the index's, by date).
        public var scanTakeLimit = 20_000
        /// The longest wait for input when nothing else is due.
        public var idleWait = 1.0
        /// Seconds without a key before the read-ahead starts (or resumes).
        public var readAheadDelay = 0.5
        /// How long after the start scan batches may wait for the first screen's pictures.
        public var firstScreenHold = 1.0

        public init() {}
    }

    /// What the state and the world are like as the loop is about to wait.
    public struct Situation: Hashable, Sendable {
        /// Dates decide the order (or the sections), so each metadata batch re-sorts.
        public var needsAllMetadata = false
        public var isScanning = false
        /// Scan batches land at the end of the library (no re-sort): taken as they come.
        public var scanBatchesAreCheap = false
        /// When the preview's animation next changes frame; nil when nothing plays.
        public var nextFrame: Double? = nil
        /// Seconds until an Esc waiting for the rest of its sequence counts as a key.
        public var inputWait: Double? = nil
        /// Pictures wait for the terminal to take them.
        public var picturesWaiting = false
        /// The read-ahead is idle with files left to read.
        public var readAheadWaiting = false
        /// The screen is full of items and waits only for pictures: what the scan adds goes past it.
        public var screenWaitsForPictures = false

        public init() {}
    }

    /// What to poll, and for how long at most.
    public struct Wait: Hashable, Sendable {
        public var sources: Set<LoopSource>
        /// Seconds; 0 returns at once.
        public var timeout: Double
        /// The timeout in whole milliseconds, rounded up (a wake never comes early).
        public var milliseconds: Int32 { Int32(min(timeout, 3600) * 1000 + 0.999) }
    }

    public let pacing: Pacing
    /// Something changed since the last paint.
    public private(set) var isDirty = false
    private var lastPaint = -Double.infinity
    /// Whether the last paint showed every tile on screen.
    private var paintedComplete = false
    private var lastInput: Double
    private var lastMetadata = -Double.infinity
    private var metadataInterval: Double
    private var lastScan = -Double.infinity
    private var scanInterval: Double
    /// When the loop began, and whether a paint has shown a complete screen since.
    private let start: Double
    private var everPaintedComplete = false

    public init(pacing: Pacing = Pacing(), now: Double) {
        self.pacing = pacing
        start = now
        lastInput = now
        metadataInterval = pacing.metadataInterval
        scanInterval = pacing.scanInterval
    }

    /// What to listen to at `now`, and the longest wait before something is due.
    public func wait(at now: Double, in situation: Situation) -> Wait {
        var sources: Set<LoopSource> = [.input, .wake, .signals]
        var timeout = isDirty ? max(0, pacing.frameInterval - (now - lastPaint)) : pacing.idleWait
        // Metadata: when dates decide the order, each batch re-sorts, so it is taken at most
        // every interval; otherwise (for the info panel) at once.
        let metadataWait = metadataDue(in: situation) - now
        if metadataWait > 0 { timeout = min(timeout, metadataWait) } else { sources.insert(.metadata) }
        if situation.isScanning {
            let scanWait = max(
                situation.scanBatchesAreCheap ? 0 : lastScan + scanInterval - now, holdsScan(at: now, in: situation) ? start + pacing.firstScreenHold - now : 0)
            if scanWait > 0 { timeout = min(timeout, scanWait) } else { sources.insert(.scan) }
        }
        if let due = situation.nextFrame { timeout = min(timeout, max(0, due - now)) }
        if let wait = situation.inputWait { timeout = min(timeout, wait) }
        if situation.picturesWaiting { sources.insert(.pictureOutput) }
        if situation.readAheadWaiting { timeout = min(timeout, max(0, lastInput + pacing.readAheadDelay - now)) }
        return Wait(sources: sources, timeout: timeout)
    }

    /// When the next metadata batch may be taken.
    func metadataDue(in situation: Situation) -> Double {
        situation.needsAllMetadata ? lastMetadata + metadataInterval : -Double.infinity
    }

    /// Whether the preview's animation is due for its next frame.
    public func isFrameDue(at now: Double, in situation: Situation) -> Bool {
        situation.nextFrame.map { now >= $0 } ?? false
    }

    /// Whether a scan batch is taken now: as it comes when cheap, else once an interval.
    public func takesScan(at now: Double, in situation: Situation) -> Bool {
        situation.isScanning && (situation.scanBatchesAreCheap || now - lastScan >= scanInterval) && !holdsScan(at: now, in: situation)
    }

    /// Whether scan batches wait for the first screen's pictures: taking a large one (a replayed
    /// index's thousands) would hold up their paint; for a second at most.
    func holdsScan(at now: Double, in situation: Situation) -> Bool {
        situation.screenWaitsForPictures && !everPaintedComplete && now - start < pacing.firstScreenHold
    }

    /// A scan batch was taken from `start` to `end`: the next waits ten times what it cost (the
    /// index's, `fromIndex`, are taken as they come).
    public mutating func tookScan(from start: Double, to end: Double, fromIndex: Bool = false) {
        lastScan = end
        scanInterval = fromIndex ? pacing.indexCostFactor * (end - start) : max(pacing.scanInterval, pacing.costFactor * (end - start))
    }

    /// A metadata batch was applied from `start` to `end`.
    public mutating func tookMetadata(from start: Double, to end: Double) {
        lastMetadata = end
        metadataInterval = max(pacing.metadataInterval, pacing.costFactor * (end - start))
    }

    /// A key, the mouse or a resize came: the read-ahead waits for the next pause.
    public mutating func input(at now: Double) { lastInput = now }

    /// The screen has changed and wants painting.
    public mutating func changed() { isDirty = true }

    /// Whether to paint results now: at most once a frame interval, but at once the paint that
    /// completes the screen (what the user waits for).
    public func paintsNow(at now: Double, screenIsComplete: Bool) -> Bool {
        isDirty && (now - lastPaint >= pacing.frameInterval || (!paintedComplete && screenIsComplete))
    }

    /// The screen was painted at `now`, every tile on it shown or not.
    public mutating func painted(at now: Double, complete: Bool) {
        lastPaint = now
        isDirty = false
        paintedComplete = complete
        if complete { everPaintedComplete = true }
    }

    /// Whether the read-ahead starts (or resumes): no key for a moment and nothing else asked.
    public func readAheadIsDue(at now: Double, nothingElseAsked: Bool) -> Bool {
        nothingElseAsked && now - lastInput >= pacing.readAheadDelay
    }
}
