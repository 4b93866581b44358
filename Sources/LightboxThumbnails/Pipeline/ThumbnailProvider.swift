import Foundation

/// One thumbnail wanted by the app: the id of the item it is for, its file and its box.
public struct DecodeRequest: Hashable, Sendable {
    /// The item's id, which a re-sort does not change.
    public var id: ItemID
    public var file: ImageFile
    public var box: PixelSize
    /// The glyphs the picture is wanted in, and their colours; besides true-colour half blocks
    /// (which the view draws from the pixels), the provider renders them.
    public var symbols: SymbolSet
    public var depth: ColorDepth
    /// Whether every frame of an animation is wanted (the preview plays it).
    public var wantsFrames: Bool
    /// Whether it is for a tile ahead of the screen (prefetch), which waits until no tile on
    /// screen is being decoded.
    public var isAhead: Bool
    /// Quarter turns clockwise the view is turned by (0 to 3; an animation's frames each turned).
    public var turns: Int
    /// Whether the picture's histogram is measured too (the preview's and compare's, for their
    /// exposure panel), off the UI thread.
    public var wantsHistogram = false
    /// The part of the photo (as shown, turned) wanted at full resolution, fitted to `box`; nil: the whole.
    public var region: PhotoRegion?
    /// Milliseconds into a video where the frames wanted to play start; nil: a still (or an animation).
    public var clipStart: Int?

    public init(
        id: ItemID, file: ImageFile, box: PixelSize, symbols: SymbolSet = .half, depth: ColorDepth = .trueColor,
        wantsFrames: Bool = false, isAhead: Bool = false, turns: Int = 0
    ) {
        self.turns = turns & 3
        self.id = id
        self.file = file
        self.box = box
        self.symbols = symbols
        self.depth = depth
        self.wantsFrames = wantsFrames
        self.isAhead = isAhead
    }

    /// Whether the provider renders cells for this request.
    public var wantsCells: Bool { SymbolCells.areNeeded(symbols: symbols, depth: depth) }

    public var key: ThumbnailKey { ThumbnailKey(file: file, box: box, isAnimated: wantsFrames, turns: turns, region: region, clipStart: clipStart) }
}

/// Decodes requested thumbnails on worker threads (one per core), most wanted first, the
/// screen's tiles strictly before those ahead of it.
///
/// Each `request(_:)` replaces the whole wish list: work no longer wanted is dropped before it
/// starts, and a result that finishes after its tile left the window is discarded. The UI thread
/// never waits: results are collected with `takeResults()` after `onResult` says there are some.
public final class ThumbnailProvider: @unchecked Sendable {
    /// The wish list and what is being decoded, under the queue's lock.
    struct Schedule: WorkSchedule {
        typealias Result = (DecodeRequest, DecodeResult)
        /// Pending work, most wanted last (taken with `popLast`).
        var pending: [DecodeRequest] = []
        var wanted: Set<ThumbnailKey> = []
        var running: Set<ThumbnailKey> = []
        /// Decodes running for tiles on screen: a tile ahead starts only when there are none.
        var runningOnScreen = 0
        var dropped = 0
        var discarded = 0

        /// Requests taken so far: each one's number is its place among the reads of a
        /// network mount's files (`FileReadStage.order`).
        var taken = 0

        /// A request taken, and its number.
        struct Taken {
            var request: DecodeRequest
            var order: Int
        }

        /// The screen's tiles strictly first: one ahead waits while any on screen is decoded.
        mutating func next() -> Taken? {
            guard let last = pending.last, !(last.isAhead && runningOnScreen > 0) else { return nil }
            pending.removeLast()
            running.insert(last.key)
            if !last.isAhead { runningOnScreen += 1 }
            taken += 1
            return Taken(request: last, order: taken)
        }

        mutating func finished(_ job: Taken, with result: (DecodeRequest, DecodeResult)?) -> Bool {
            let request = job.request
            running.remove(request.key)
            if !request.isAhead { runningOnScreen -= 1 }
            guard wanted.contains(request.key) else {
                discarded += 1
                return false
            }
            return true
        }

        /// Replaces the wish list with `requests`, most wanted first; work running, or finished
        /// and waiting to be taken, is not queued again.
        /// A file only listed when its decode began (`ImageFile.isListed`) and read by the scan
        /// since is asked for by its size and time: the decode running goes on for it (the app
        /// keeps its picture for the file when that is the same one).
        mutating func replace(with requests: [DecodeRequest], finished: Set<ThumbnailKey>) {
            wanted = Set(requests.map(\.key))
            let hasListed = running.contains { $0.byteCount < 0 } || finished.contains { $0.byteCount < 0 }
            var seen = Set<ThumbnailKey>()
            var queued: [DecodeRequest] = []
            for request in requests.reversed() where !running.contains(request.key) && !finished.contains(request.key) && seen.insert(request.key).inserted {
                if hasListed, running.contains(request.key.asListed) || finished.contains(request.key.asListed) {
                    wanted.insert(request.key.asListed)
                    continue
                }
                queued.append(request)
            }
            dropped += pending.count { !wanted.contains($0.key) }
            pending = queued
        }

        mutating func removeAll() { pending.removeAll() }
    }

    private let queue: WorkQueue<Schedule>
    /// What transparent parts of a picture are laid on (0xRRGGBB): the ground tiles show.
    public let background: UInt32

    /// Starts `workers` threads that decode with `decoder`; `onResult` is called from a worker
    /// after each result is ready, its picture laid on `background` where it is transparent.
    public init(
        decoder: any ThumbnailDecoding, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        background: UInt32 = 0x1E1E1E, onResult: @escaping @Sendable () -> Void = {}
    ) {
        self.background = background
        queue = WorkQueue(Schedule(), threads: workers, name: "lightbox-decoder", onResult: onResult) { job, _ in
            // Its file's read, on a network mount, waits its turn behind those taken before it.
            (job.request, FileReadStage.$order.withValue(job.order) { Self.decode(job.request, with: decoder, background: background) })
        }
    }

    /// Replaces the wish list with `requests`, most wanted first.
    /// - Complexity: O(*n*).
    public func request(_ requests: [DecodeRequest]) {
        queue.change { schedule, waiting in schedule.replace(with: requests, finished: Set(waiting.map(\.0.key))) }
    }

    /// Results ready since the last call, in the order they finished.
    public func takeResults() -> [(DecodeRequest, DecodeResult)] { queue.takeResults() }

    /// Starts threads in place of those of `stuck` that are the provider's (their reads wait on a
    /// mount that does not answer), so the disk cache and other mounts' files go on loading.
    @discardableResult
    public func standIn(for stuck: Set<pthread_t>) -> Int { queue.standIn(for: stuck) }

    /// Requests queued or being decoded.
    public var outstandingCount: Int { queue.read { schedule, _, _ in schedule.pending.count + schedule.running.count } }

    /// Requests dropped before they started, and results discarded because their tile had left.
    public var cancellations: (dropped: Int, discarded: Int) { queue.read { schedule, _, _ in (schedule.dropped, schedule.discarded) } }

    /// Stops the workers after their current decode and waits for them, at most `timeout`
    /// seconds when given (a decode held by a mount that does not answer is left behind).
    public func shutdown(waitingAtMost timeout: Double? = nil) { queue.stop(waitingAtMost: timeout) }

    /// Decodes one request, on a worker thread.
    static func decode(_ request: DecodeRequest, with decoder: any ThumbnailDecoding, background: UInt32) -> DecodeResult {
        // Turned a quarter, the picture is decoded to fit the box turned too, then turned.
        let box = request.turns % 2 == 1 ? PixelSize(width: request.box.height, height: request.box.width) : request.box
        var result =
            if let region = request.region {
                decoder.decodeRegion(request.file, region: region.unturned(request.turns), fitting: box)
            } else if let start = request.clipStart {
                decoder.decodeClip(request.file, from: start, fitting: box)
            } else if request.wantsFrames {
                decoder.decodeFrames(request.file, fitting: box)
            } else {
                decoder.decode(request.file, fitting: box)
            }
        // Transparency is kept from the file (and in the disk cache) to here, where the ground is known.
        if case .decoded(let thumbnail) = result { result = .decoded(thumbnail.flattened(onto: background).turned(request.turns)) }
        // The histogram is measured here too, on the picture as it will be shown.
        if request.wantsHistogram, case .decoded(var thumbnail) = result {
            thumbnail.histogram = Histogram(of: thumbnail)
            result = .decoded(thumbnail)
        }
        // Symbols are rendered here too, off the UI thread, and kept with the pixels.
        if request.wantsCells, case .decoded(var thumbnail) = result {
            let box = SymbolCells.cells(inBox: request.box)
            let size = thumbnail.fittedCells(columns: box.columns, rows: box.rows)
            thumbnail.cells = SymbolCells.render(
                thumbnail, columns: size.columns, rows: size.rows, symbols: request.symbols,
                depth: request.depth)
            result = .decoded(thumbnail)
        }
        return result
    }
}
