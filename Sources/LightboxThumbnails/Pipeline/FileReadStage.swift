import Foundation

/// Files' reads as a stage of their own ahead of the decoders, for a network mount: many of
/// the provider's threads read whole files into memory at once, so their round trips overlap,
/// while no more decodes run than there are decoders (`withDecoder`). The decoder is given the
/// bytes (`DecodeMessage.Request.decodeRead`). On a local disk there is no stage: decoders read.
public final class FileReadStage: @unchecked Sendable {
    /// The largest file read ahead: a larger one its decoder reads itself.
    public static let fileLimit = 32 << 20
    /// The most bytes held read and waiting for a decoder: past it, files go unread to decoders.
    public static let budget = 256 << 20
    /// Whole files read at once. Over sshfs at 2, 10 and 40 ms round trips 8 at once move 90-96%
    /// of what 32 do (BENCHMARKS.md), and each arrives four times sooner: a link's bytes shared
    /// by fewer files bring the most wanted first. Taken in the order asked (the provider asks
    /// the most wanted first).
    public static let wholeReads = 8

    /// Where the read asked for in this thread comes among those wanted: the provider's count of
    /// requests taken, its most wanted first (`ThumbnailProvider`). Whole reads waiting for a
    /// turn go lowest first; a read without one goes after those with one, as they came.
    @TaskLocal public static var order: Int?

    /// Reads in flight: the threads the provider runs.
    public let width: Int
    /// Where whole-file reads say how fast they go.
    public let speed: ReadSpeed?
    private let decoders: DispatchSemaphore
    /// Guards what follows, and wakes reads waiting for their turn.
    private let turn = NSCondition()
    /// Bytes read and not yet released, and what was read so far.
    private var held = 0
    private var counted = (files: 0, bytes: 0, answeredEarly: 0)
    /// Whole-file reads waiting for a turn (by their order, then as they came), and the tickets
    /// given so far.
    private var waiting: [(order: Int, ticket: Int)] = []
    private var tickets = 0
    /// The threads whose whole read holds a turn; one left behind (its read waits on a mount that
    /// does not answer: `standIn`) holds none while it waits.
    private var reading: Set<pthread_t> = []
    /// Told each whole read's order as it takes its turn (for tests).
    var tookTurn: ((Int) -> Void)?

    /// A stage of `width` reads in flight in front of `decoders` decodes at once, its reads
    /// measured by `speed`.
    public init(width: Int, decoders: Int, speed: ReadSpeed? = nil) {
        self.width = max(1, width)
        self.speed = speed
        self.decoders = DispatchSemaphore(value: max(1, decoders))
    }

    /// Whether `file` is read ahead: a still its decoder reads whole (a JPEG, what libvips
    /// reads), no larger than `fileLimit`, or one only listed so far (its size is seen when it is
    /// opened). A RAW's decoder reads only its preview, a video's only the parts FFmpeg asks for:
    /// those are left to them.
    public func takes(_ file: ImageFile) -> Bool {
        file.format.traits.decoding.readsWhole && (file.isListed || (file.byteCount > 0 && file.byteCount <= Self.fileLimit))
    }

    /// What the stage made of a file (`read`).
    public enum Outcome {
        /// Read whole: its bytes, held against the budget until `release`, and the file as it was
        /// opened (its size and time; a listed file's kind as its first bytes say).
        case read([UInt8], ImageFile)
        /// Answered before it was read whole: from its first bytes (an EXIF thumbnail that will
        /// do), from what the file as opened finds (the disk cache's entry for a listed file), or
        /// a listed file that is not an image.
        case answered(DecodeResult)
        /// Left to its decoder to read (not taken, too large, the budget spent, or it could not be
        /// read: the decoder says why), with the file as opened when it was.
        case left(ImageFile?)
    }

    /// `file` read whole now, in its turn (`wholeReads` at once, the most wanted first: `order`):
    /// opened once, `opened` is asked with the file as opened (its size and time as they are)
    /// and `firstBytes` with its first bytes (up to `ThumbnailPipeline.headerBytes`): an answer
    /// from either ends the read there; else the rest is read. A listed file
    /// (`ImageFile.isListed`) is told by its first bytes: its kind as they say, or not an image.
    public func read(
        _ file: ImageFile, opened: (ImageFile) -> DecodeResult? = { _ in nil }, firstBytes: (ImageFile, [UInt8]) -> DecodeResult? = { _, _ in nil }
    ) -> Outcome {
        guard takes(file) else { return .left(nil) }
        waitForTurn()
        defer { endTurn() }
        // Its mount found not answering while it waited: it would only wait on there too.
        if let mount = ReadWatch.shared.notAnswering(holding: file.path) { return .answered(.failed(.offline(mount))) }
        var outcome = Outcome.left(nil)
        let start = ProcessInfo.processInfo.systemUptime
        _ = FileReader.withOpenFile(file.path, limit: .max) { fd, info -> Result<Void, FileReader.Failure> in
            var found = file
            found.byteCount = Int64(info.st_size)
            found.modified = Scanner.modified(info)
            if let answer = opened(found) {
                outcome = .answered(answer)
                return .success(())
            }
            outcome = .left(found)
            let size = Int(info.st_size)
            guard size > 0, size <= Self.fileLimit else { return .success(()) }
            // The link's measure: how long the first bytes took from the open, and the rate of the
            // rest (a header comes in a round trip, whatever the link's rate).
            var first = true
            let timeFirst = { [speed] (_: Int) in
                if first { speed?.moved(0, firstAfter: ProcessInfo.processInfo.systemUptime - start) }
                first = false
            }
            var bytes = FileReader.readUpTo(fd, count: min(size, ThumbnailPipeline.firstHeaderBytes), progress: timeFirst)
            if ThumbnailPipeline.headerGoesOn(bytes), bytes.count < min(size, ThumbnailPipeline.headerBytes) {
                bytes += FileReader.readUpTo(fd, count: min(size, ThumbnailPipeline.headerBytes) - bytes.count)
            }
            guard !bytes.isEmpty else { return .success(()) }
            if file.isListed {
                guard let format = ImageFormat(sniffing: Array(bytes.prefix(ImageFormat.sniffLength))) else {
                    outcome = .answered(.failed(.badFile(Scanner.notAnImage(file.path, header: bytes))))
                    return .success(())
                }
                found.format = format
                outcome = .left(found)
            }
            guard found.format.traits.decoding.readsWhole else { return .success(()) }
            if let answer = firstBytes(found, bytes) {
                countAnsweredEarly()
                outcome = .answered(answer)
                return .success(())
            }
            guard bytes.count < size else {
                outcome = hold(bytes, of: found, isReserved: false)
                return .success(())
            }
            guard reserve(size) else { return .success(()) }
            speed?.began(bytes: size)
            bytes += FileReader.readUpTo(fd, count: size - bytes.count, progress: { [speed] count in speed?.moved(count) })
            speed?.ended()
            // Shorter than when it was opened (rewritten meanwhile): its decoder reads it as it is now.
            guard bytes.count == size else {
                release(size)
                return .success(())
            }
            outcome = hold(bytes, of: found, isReserved: true)
            return .success(())
        }
        return outcome
    }

    /// `bytes` of `file` handed on read, counted, and held against the budget (unless reserved already).
    private func hold(_ bytes: [UInt8], of file: ImageFile, isReserved: Bool) -> Outcome {
        turn.lock()
        defer { turn.unlock() }
        if !isReserved { held += bytes.count }
        counted.files += 1
        counted.bytes += bytes.count
        return .read(bytes, file)
    }

    /// Counts a read answered before the file was read whole.
    private func countAnsweredEarly() {
        turn.lock()
        counted.answeredEarly += 1
        turn.unlock()
    }

    /// Ends a whole read's turn: the next may start.
    private func endTurn() {
        let thread = pthread_self()
        turn.lock()
        reading.remove(thread)  // nothing when it was left behind
        turn.broadcast()
        turn.unlock()
    }

    /// Gives the turns of the reads of `stuck` (threads whose read waits on a mount that does not
    /// answer: `ReadWatch.lateThreads`) to reads waiting, so other mounts' files and the local
    /// disk's go on being read; each stuck read goes on where it is, and holds no turn.
    /// Returns how many turns were given.
    @discardableResult
    public func standIn(for stuck: Set<pthread_t>) -> Int {
        turn.lock()
        defer { turn.unlock() }
        let left = reading.intersection(stuck)
        guard !left.isEmpty else { return 0 }
        reading.subtract(left)
        turn.broadcast()
        return left.count
    }

    /// Gives back bytes `read` held, once their decode is over.
    public func release(_ count: Int) {
        turn.lock()
        held -= count
        turn.unlock()
    }

    /// `body` run holding one of the decoders: the CPU's part waits for one to be free.
    public func withDecoder<T>(_ body: () -> T) -> T {
        decoders.wait()
        defer { decoders.signal() }
        return body()
    }

    /// Whole reads waiting for their turn.
    var waitingCount: Int {
        turn.lock()
        defer { turn.unlock() }
        return waiting.count
    }

    /// Whether whole files are being read or wait to be (not counting reads left behind):
    /// background reads (the scan's) make way for them (`Scanner.yielding`).
    public var isBusy: Bool {
        turn.lock()
        defer { turn.unlock() }
        return !reading.isEmpty || !waiting.isEmpty
    }

    /// Files read ahead so far, and their bytes.
    public var readSoFar: (files: Int, bytes: Int) {
        turn.lock()
        defer { turn.unlock() }
        return (counted.files, counted.bytes)
    }

    /// Reads answered at their first bytes (an EXIF thumbnail that will do), not read whole.
    public var answeredEarly: Int {
        turn.lock()
        defer { turn.unlock() }
        return counted.answeredEarly
    }

    /// Waits until fewer than `wholeReads` are reading and no read waiting comes before this
    /// one (`order`), then counts this one as reading.
    /// - Complexity: O(*w*) in the reads waiting, each time one starts.
    private func waitForTurn() {
        turn.lock()
        let me = (order: Self.order ?? .max, ticket: tickets)
        tickets += 1
        waiting.append(me)
        while reading.count >= Self.wholeReads || waiting.min(by: <)! != me { turn.wait() }
        waiting.removeAll { $0 == me }
        reading.insert(pthread_self())
        turn.broadcast()
        turn.unlock()
        tookTurn?(me.order)
    }

    /// Holds `count` bytes when the budget has room (or nothing is held: one file always may).
    private func reserve(_ count: Int) -> Bool {
        turn.lock()
        defer { turn.unlock() }
        guard held == 0 || held + count <= Self.budget else { return false }
        held += count
        return true
    }
}
