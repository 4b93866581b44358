import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes in separate processes, so that an image library that aborts, crashes or hangs on a
/// bad file takes down only its worker: the file gets a broken tile with the reason, the worker
/// is replaced, and nothing else notices. One worker per calling thread, reused.
public final class WorkerPoolDecoder: ThumbnailDecoding, @unchecked Sendable {
    /// The worker's argument vector, as bytes (paths in it need not be UTF-8): the executable first.
    public let command: [[UInt8]]
    /// How long one file may take before its worker is killed.
    public let timeLimit: Double
    public let statistics: DecodeStatistics
    private let lock = NSLock()
    private var idle: [WorkerProcess] = []

    public init(command: [[UInt8]], timeLimit: Double = 5, statistics: DecodeStatistics = DecodeStatistics()) {
        self.command = command
        self.timeLimit = timeLimit
        self.statistics = statistics
    }

    /// A pool running `command`, given as text.
    public convenience init(command: [String], timeLimit: Double = 5, statistics: DecodeStatistics = DecodeStatistics()) {
        self.init(command: command.map { Array($0.utf8) }, timeLimit: timeLimit, statistics: statistics)
    }

    deinit { shutdown() }

    /// Answers in this process when our own code can (the disk cache, EXIF thumbnails; no image
    /// library), so a warm start or a screen of EXIF thumbnails needs no worker at all.
    public var local: ThumbnailPipeline?

    /// Where files are read ahead of the workers and how many decode at once (shared by the
    /// pools of one decoder); nil: workers read their files, one per calling thread.
    public var readStage: FileReadStage?
    /// Whether the photos' link is slow now, so smaller sources will do; nil: never.
    public var speed: ReadSpeed?

    public func decode(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        NearSources(local: local, stage: readStage, speed: speed).decode(
            file, fitting: box, decodeRead: { answer(exchange(.decodeRead($0, box.limitedToMaxSide, contents: $1))) },
            decodeWhole: { answer(exchange(.decode($0, box.limitedToMaxSide, smallerSuffices: $1))) })
    }

    /// Every frame of an animation, decoded in a worker (the disk cache keeps stills only).
    public func decodeFrames(_ file: ImageFile, fitting box: PixelSize) -> DecodeResult {
        answer(exchange(.decodeFrames(file, box.limitedToMaxSide)))
    }

    /// A part of a photo at full resolution, decoded in a worker (never from the disk cache).
    public func decodeRegion(_ file: ImageFile, region: PhotoRegion, fitting box: PixelSize) -> DecodeResult {
        answer(exchange(.decodeRegion(file, box.limitedToMaxSide, region)))
    }

    /// A video's frames to play, decoded in a worker.
    public func decodeClip(_ file: ImageFile, from start: Int, fitting box: PixelSize) -> DecodeResult {
        answer(exchange(.decodeClip(file, box.limitedToMaxSide, start: start)))
    }

    /// The decode result in a worker's answer.
    func answer(_ exchanged: Result<DecodeMessage.Response, Failure>) -> DecodeResult {
        switch exchanged {
        case .success(let response):
            guard case .decoded(let result) = response.body else { return .failed(.decoder("decoder answered out of turn")) }
            // A smaller source scaled up in the worker: its counts say so (the flag does not travel).
            if case .decoded(var thumbnail) = result, response.counts.bySource[.smaller, default: 0] > 0 {
                thumbnail.isStandIn = true
                return .decoded(thumbnail)
            }
            return result
        case .failure(let failure):
            statistics.add(DecodeStatistics.Counts(bySource: [.failed: 1]))
            return .failed(.decoder(failure.reason))
        }
    }

    /// Warms the disk cache for `file` in a worker.
    public func warm(_ file: ImageFile, size: FreedesktopCache.Size) -> ThumbnailPipeline.WarmOutcome {
        switch exchange(.warm(file, size)) {
        case .success(let response):
            if case .warmed(let outcome) = response.body { return outcome }
            return .failed("decoder answered out of turn")
        case .failure(let failure): return .failed(failure.reason)
        }
    }

    /// What a photo's XMP says was decided of it, read in a worker (Exempi runs there only).
    public func readDecision(_ file: ImageFile, keptIn keptRoot: ImagePath? = nil, unless stamp: Int64 = 0) -> DecisionRead {
        switch exchange(.readDecision(file, keptIn: keptRoot, unless: stamp)) {
        case .success(let response):
            if case .decisionRead(let read) = response.body { return read }
            return DecisionRead(decision: nil, problem: "decoder answered out of turn")
        case .failure(let failure):
            var read = DecisionRead(decision: nil, problem: "its XMP: " + failure.reason)
            read.isUnanswered = failure.isTimeout
            return read
        }
    }

    /// Keeps a decision's `fields` in the photo's sidecar (else where `policy` says), written by a worker.
    public func writeDecision(_ decision: Decision, fields: DecisionFields = .all, for file: ImageFile, policy: SidecarPolicy) -> SidecarWrite {
        switch exchange(.writeDecision(file, decision, fields, policy)) {
        case .success(let response):
            if case .decisionWritten(let outcome) = response.body { return outcome }
            return .failed("decoder answered out of turn")
        case .failure(let failure): return .failed(failure.reason)
        }
    }

    struct Failure: Error {
        var reason: String
        var isTimeout = false
    }

    func exchange(_ request: DecodeMessage.Request) -> Result<DecodeMessage.Response, Failure> {
        guard let stage = readStage else { return exchangeNow(request) }
        return stage.withDecoder { exchangeNow(request) }
    }

    func exchangeNow(_ request: DecodeMessage.Request) -> Result<DecodeMessage.Response, Failure> {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        guard let worker = reused ?? WorkerProcess(command) else {
            return .failure(Failure(reason: "cannot start the decoder " + String(decoding: command.first ?? [], as: UTF8.self)))
        }
        worker.start()
        guard MessageChannel.write(DecodeMessage.encode(request), to: worker.toChild) else {
            return .failure(Failure(reason: "decoder crashed (\(worker.reap()))"))
        }
        switch MessageChannel.read(from: worker.fromChild, within: timeLimit) {
        case .success(let body):
            guard let response = DecodeMessage.response(from: consume body) else {  // its pixels stay where read
                worker.kill()
                return .failure(Failure(reason: "decoder sent a malformed answer"))
            }
            statistics.add(response.counts)
            lock.lock()
            idle.append(worker)
            lock.unlock()
            return .success(response)
        case .failure(.timedOut):
            worker.kill()
            return .failure(Failure(reason: "timed out after \(Int(timeLimit)) s", isTimeout: true))
        case .failure:
            return .failure(Failure(reason: "decoder crashed (\(worker.reap()))"))
        }
    }

    /// Makes `count` workers ready for the first decodes. With `serve`, they are forks of a
    /// `DecoderFactory` forked from this process now, each forked by it at its first request (a
    /// fraction of a millisecond, against 5–6 ms to start the executable and link its libraries);
    /// only while this process has a single thread, since a fork keeps only the calling one.
    /// Without, or later (a replacement after a crash), they start from the executable, now.
    public func prestart(_ count: Int, serve: (() -> Void)? = nil) {
        let single = serve != nil && Self.threadCount() == 1
        let factory = single ? serve.flatMap { DecoderFactory(count: count, serve: $0) } : nil
        let started =
            factory.map { factory in (0..<count).map { WorkerProcess(factory, index: $0) } }
            ?? (0..<count).compactMap { _ in WorkerProcess(command) }
        lock.lock()
        idle += started
        lock.unlock()
    }

    /// Threads of this process: the entries of `/proc/self/task` (0 when it cannot be read).
    /// Plain system calls: asked on the way to the first screen.
    static func threadCount() -> Int {
        guard let folder = opendir("/proc/self/task") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if DirectoryEntry.name(entry).first != UInt8(ascii: ".") { count += 1 }  // not . or ..
        }
        return count
    }

    /// Whether `shutdown` first asks each idle worker what it counted since its last answer (the
    /// cache entries it wrote between requests), for `--stats`; a round trip each.
    public var countsAtShutdown = false

    /// Ends the idle workers (busy ones end when their answer is read or the process exits).
    public func shutdown() {
        lock.lock()
        let workers = idle
        idle.removeAll()
        lock.unlock()
        if countsAtShutdown {
            // All are asked before any answer is read, so they finish side by side; each has
            // ended once it answered, writing nothing after what it reported.
            // One never started wrote nothing.
            let asked = workers.filter { $0.isStarted && MessageChannel.write(DecodeMessage.encode(.finish), to: $0.toChild) }
            for worker in asked {
                if case .success(let body) = MessageChannel.read(from: worker.fromChild, within: 1),
                    let response = DecodeMessage.response(from: body)
                {
                    statistics.add(response.counts)
                }
            }
        }
        // All are signalled before any is waited for, so they end side by side.
        for worker in workers { worker.signal(SIGKILL) }
        for worker in workers { worker.kill() }
    }
}

/// One decoder process and its pipes.
final class WorkerProcess {
    let pid: pid_t
    let toChild: Int32
    let fromChild: Int32
    /// The factory that made it and its number there; nil for the app's own child.
    let factory: (DecoderFactory, index: Int)?
    private var ended = false
    /// Whether it runs: a factory's decoder is forked when first asked for.
    private(set) var isStarted: Bool

    /// Decoder `index` of `factory`, which signals and collects it.
    init(_ factory: DecoderFactory, index: Int) {
        pid = 0
        toChild = factory.channels[index]
        fromChild = toChild
        self.factory = (factory, index)
        isStarted = false
    }

    /// Has its factory fork it, the first time.
    func start() {
        guard !isStarted, let (factory, index) = factory else { return }
        factory.start(index)
        isStarted = true
    }

    /// Spawns `command` with its stdin and stdout on one end of a socket pair (so writing to a
    /// worker that died is an error, not SIGPIPE) and stderr on /dev/null.
    init?(_ command: [[UInt8]]) {
        var ends: [Int32] = [0, 0]
        guard !command.isEmpty, socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] =
            command.map { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
                copy[bytes.count] = 0
                return copy
            } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        // A crash ends it at once: Swift's backtracer would hold a crashed decoder for seconds.
        var environment = [strdup("SWIFT_BACKTRACE=enable=no")]
        var index = 0
        while let entry = environ[index] {
            if strncmp(entry, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(entry)) }
            index += 1
        }
        environment.append(nil)
        defer { environment.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, argv[0]!, &actions, nil, argv, environment)
        close(ends[1])
        guard status == 0 else { close(ends[0]); return nil }
        pid = child
        toChild = ends[0]
        fromChild = ends[0]
        factory = nil
        isStarted = true
    }

    /// Seconds a killed decoder is waited for before it is left to end on its own.
    static let killWait = 0.05

    /// The wait status of child `pid` once it ended (-1 if it is not one), looked at for `seconds` at
    /// most; nil if it has not ended.
    static func collect(_ pid: pid_t, within seconds: Double) -> Int32? {
        var status: Int32 = 0
        let deadline = MessageChannel.now() + seconds
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { return status }
            if ended < 0 && errno != EINTR { return -1 }
            if MessageChannel.now() >= deadline { return nil }
            usleep(1000)
        }
    }

    /// Kills the process and collects it (or leaves it to end, when it cannot yet).
    func kill() {
        guard !ended else { return }
        _ = reap(killing: true)
    }

    /// Sends `signal` without waiting for the process (`kill()` collects it).
    func signal(_ signal: Int32) {
        guard !ended, isStarted else { return }
        if let (factory, index) = factory { factory.signal(index, signal) } else { Glibc.kill(pid, signal) }
    }

    /// Waits for the process to end (killed first when `killing`) and says how it did.
    @discardableResult
    func reap(killing: Bool = false) -> String {
        guard !ended else { return "ended" }
        ended = true
        close(toChild)
        if fromChild != toChild { close(fromChild) }
        var status: Int32 = 0
        if let (factory, index) = factory {
            guard isStarted else { return "never started" }  // its factory has nothing to collect
            guard let ended = factory.end(index, killing: killing), ended != -1 else { return "status unknown: its factory has gone" }
            status = ended
        } else if killing {
            Glibc.kill(pid, SIGKILL)
            // One killed inside a read of a mount that stopped answering ends only when it
            // answers: it is collected then, by a thread of its own, not waited for.
            guard let ended = Self.collect(pid, within: Self.killWait) else {
                let child = pid
                Thread.detachNewThread {
                    var status: Int32 = 0
                    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
                }
                return "signal \(SIGKILL), killed (it ends when its read does)"
            }
            guard ended != -1 else { return "status unknown" }
            status = ended
        } else {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let signal = status & 0x7F
        if signal != 0 { return "signal \(signal)\(signal == SIGKILL ? ", killed" : "")" }
        return "exit \((status >> 8) & 0xFF)"
    }

    deinit { kill() }
}
