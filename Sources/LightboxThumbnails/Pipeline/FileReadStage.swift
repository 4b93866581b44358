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

    /// Reads in flight: the threads the provider runs.
    public let width: Int
    /// Where whole-file reads say how fast they go.
    public let speed: ReadSpeed?
    private let decoders: DispatchSemaphore
    /// Guards what follows, and wakes reads waiting for their turn.
    private let turn = NSCondition()
    /// Bytes read and not yet released, and what was read so far.
    private var held = 0
    private var counted = (files: 0, bytes: 0, cut: 0)
    /// Whole-file reads: tickets given, the oldest still waiting, and those reading now.
    private var tickets = (given: 0, next: 0)
    private var reading = 0

    /// A stage of `width` reads in flight in front of `decoders` decodes at once, its reads
    /// measured by `speed`.
    public init(width: Int, decoders: Int, speed: ReadSpeed? = nil) {
        self.width = max(1, width)
        self.speed = speed
        self.decoders = DispatchSemaphore(value: max(1, decoders))
    }

    /// Whether `file` is read ahead: a still its decoder reads whole (a JPEG, what libvips
    /// reads), no larger than `fileLimit`. A RAW's decoder reads only its preview, a video's
    /// only the parts FFmpeg asks for: those are left to them.
    public func takes(_ file: ImageFile) -> Bool {
        switch file.format.traits.decoding {
        case .dctScaled, .vips: return file.byteCount > 0 && file.byteCount <= Self.fileLimit
        case .embeddedPreview, .video: return false
        }
    }

    /// `file`'s bytes read now, held against the budget until `release`; nil when the stage
    /// does not take it, the budget is spent or the read fails (the decoder then reads it and
    /// says what is wrong), or when `smallerWillDo` cut it short.
    ///
    /// `smallerWillDo` is asked with the first bytes (up to `ThumbnailPipeline.headerBytes`)
    /// while the link is slow (`speed`): when a source in them will do (a JPEG's EXIF
    /// thumbnail), it says so and the rest is not read. So a whole read begun before the link
    /// was measured slow stops at its first bytes.
    public func read(_ file: ImageFile, smallerWillDo: (([UInt8]) -> Bool)? = nil) -> [UInt8]? {
        guard takes(file), reserve(Int(file.byteCount)) else { return nil }
        waitForTurn()
        speed?.began(bytes: Int(file.byteCount))
        let start = ProcessInfo.processInfo.systemUptime
        var first = true
        var isCut = false
        let outcome = FileReader.read(
            file.path, limit: Self.fileLimit,
            progress: { [speed] count in
                speed?.moved(count, firstAfter: first ? ProcessInfo.processInfo.systemUptime - start : nil)
                first = false
            },
            stop: { [speed] soFar in
                guard let smallerWillDo, soFar.count <= ThumbnailPipeline.headerBytes, speed?.isSlow == true else { return false }
                isCut = smallerWillDo(Array(soFar))
                return isCut
            })
        speed?.ended()
        turn.lock()
        defer { turn.unlock() }
        reading -= 1
        turn.broadcast()
        guard case .success(let bytes) = outcome, !isCut else {
            if isCut { counted.cut += 1 }
            held -= Int(file.byteCount)
            return nil
        }
        held += bytes.count - Int(file.byteCount)  // the file may have changed size since the scan
        counted.files += 1
        counted.bytes += bytes.count
        return bytes
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

    /// Whether whole files are being read or wait to be: background reads (the scan's) make
    /// way for them (`Scanner.yielding`).
    public var isBusy: Bool {
        turn.lock()
        defer { turn.unlock() }
        return reading > 0 || tickets.given > tickets.next
    }

    /// Files read ahead so far, and their bytes.
    public var readSoFar: (files: Int, bytes: Int) {
        turn.lock()
        defer { turn.unlock() }
        return (counted.files, counted.bytes)
    }

    /// Reads cut short at their first bytes, a smaller source in them doing on a slow link.
    public var cutShort: Int {
        turn.lock()
        defer { turn.unlock() }
        return counted.cut
    }

    /// Waits until the reads asked for before this one have started and fewer than
    /// `wholeReads` are reading, then counts this one as reading.
    private func waitForTurn() {
        turn.lock()
        let ticket = tickets.given
        tickets.given += 1
        while ticket != tickets.next || reading >= Self.wholeReads { turn.wait() }
        tickets.next += 1
        reading += 1
        turn.broadcast()
        turn.unlock()
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
