import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fork of the app, made at launch while it has one thread, that forks the decoder processes
/// itself, on its own core, each when the app first needs it: the app's main thread pays for one
/// fork however many decoders there are (each fork costs it about 0.4 ms before its first screen),
/// and a screen the app decodes itself (EXIF thumbnails, the disk cache) never shares the cores
/// with decoders starting. It never decodes, so no file can take it down. The decoders are its
/// children, so it signals and collects them when the app asks: the app never signals a process
/// that is not its own child (the pid of one it did not collect could be another process's by then).
final class DecoderFactory: @unchecked Sendable {
    let pid: pid_t
    /// The app's ends of the decoders' socket pairs, in order.
    let channels: [Int32]
    private let control: Int32
    private let lock = NSLock()
    /// Set once the factory let an answer wait past `answerDeadline` (stopped, or hung): its
    /// answers can no longer be told apart, so nothing more is asked of it.
    private var isUnresponsive = false

    /// Seconds the app waits for the factory to say how a decoder ended: a quit must not wait on
    /// a stopped factory or decoder (every decoder dies with the factory, the factory with the app).
    static let answerDeadline = 0.1

    /// What the app asks: end decoder `index` (killing it first, or not) and say how it ended,
    /// send it a signal, or start it.
    enum Request: UInt8 { case end = 1, kill = 2, signal = 3, start = 4 }

    /// Forks the factory, which forks up to `count` decoders running `serve` with their standard
    /// input and output on a socket pair each (made now, so the app may write a request before
    /// its decoder is forked). Only while this process has one thread.
    init?(count: Int, serve: () -> Void) {
        func pair() -> [Int32]? {
            var ends: [Int32] = [0, 0]
            return socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 ? ends : nil
        }
        guard (1...255).contains(count), let control = pair() else { return nil }  // a request names one in a byte
        let pairs = (0..<count).compactMap { _ in pair() }
        guard pairs.count == count else {
            (pairs.flatMap { $0 } + control).forEach { close($0) }
            return nil
        }
        let child = fork()
        if child == 0 {
            close(control[0])
            pairs.forEach { close($0[0]) }
            Self.run(control: control[1], decoders: pairs.map { $0[1] }, serve: serve)
        }
        close(control[1])
        pairs.forEach { close($0[1]) }
        guard child > 0 else {
            close(control[0])
            pairs.forEach { close($0[0]) }
            return nil
        }
        pid = child
        self.control = control[0]
        channels = pairs.map { $0[0] }
    }

    /// Ends decoder `index` (killed first when `killing`) and says how it ended: a wait status, or
    /// nil when the factory is gone.
    func end(_ index: Int, killing: Bool) -> Int32? {
        var status = [UInt8](repeating: 0, count: 4)
        let answered = send(killing ? .kill : .end, index) {
            guard MessageChannel.fill(&status, from: control, deadline: MessageChannel.now() + Self.answerDeadline) == nil else {
                isUnresponsive = true
                return false
            }
            return true
        }
        guard answered else { return nil }
        return Int32(bitPattern: UInt32(status[0]) | UInt32(status[1]) << 8 | UInt32(status[2]) << 16 | UInt32(status[3]) << 24)
    }

    /// Has decoder `index` forked, without waiting: what the app writes to it meanwhile waits in
    /// its socket.
    func start(_ index: Int) { _ = send(.start, index) }

    /// Sends decoder `index` `signal`, without waiting.
    func signal(_ index: Int, _ signal: Int32) { _ = send(.signal, index, signal: signal) }

    /// Writes a request and, when it went, reads its answer with `answer`, both under the lock
    /// (one request at a time, each answer read by the thread that asked); false when either failed.
    private func send(_ kind: Request, _ index: Int, signal: Int32 = 0, answer: () -> Bool = { true }) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !isUnresponsive else { return false }
        return MessageChannel.write(Self.request(kind, index, signal: signal), to: control) && answer()
    }

    static func request(_ kind: Request, _ index: Int, signal: Int32 = 0) -> [UInt8] {
        [kind.rawValue, UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: signal)]
    }

    /// Closing the control socket ends the factory, which ends the decoders it still has.
    deinit {
        close(control)
        // It ends at once when it can; one stopped or hung is killed (it is the app's own child).
        var status: Int32 = 0
        let deadline = MessageChannel.now() + Self.answerDeadline
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard MessageChannel.now() < deadline else {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return
            }
            usleep(2000)
        }
    }

    /// The factory process: answers the app until it goes, forking each decoder when asked.
    static func run(control: Int32, decoders: [Int32], serve: () -> Void) -> Never {
        lb_set_process_name("lightbox-forks")
        // A crash ends it and its decoders at once (Swift's backtracer, inherited, would hold a
        // crashed process for seconds).
        for crash in [SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV] { Glibc.signal(crash, SIG_DFL) }
        // It holds nothing of the terminal's or of a pipe the app writes to, so a reader sees the end.
        let null = open("/dev/null", O_RDWR)
        if null >= 0 { (0...2).forEach { dup2(null, $0) }; close(null) }
        let factory = getpid()
        /// Each decoder's channel until it is forked; its pid while it runs (0 once collected).
        var channels: [Int32?] = decoders
        var pids = [pid_t](repeating: 0, count: decoders.count)
        func fork(_ index: Int) {
            guard let channel = channels[index] else { return }
            let child = Glibc.fork()
            if child == 0 {
                lb_die_with_parent()  // a decoder never outlives the factory that collects it
                if getppid() != factory { _exit(1) }
                dup2(channel, 0)
                dup2(channel, 1)
                (channels.compactMap { $0 } + [control]).forEach { close($0) }  // a decoder holds only its own channel
                lb_set_process_name("lightbox-decode")
                serve()
                _exit(0)
            }
            close(channel)
            channels[index] = nil
            pids[index] = max(child, 0)
        }
        var request = [UInt8](repeating: 0, count: 3)
        var leftBehind: [pid_t] = []
        while MessageChannel.fill(&request, from: control, deadline: nil) == nil {
            leftBehind.removeAll { WorkerProcess.collect($0, within: 0) != nil }
            let index = Int(request[1])
            guard pids.indices.contains(index), let kind = Request(rawValue: request[0]) else {
                if request[0] != Request.signal.rawValue && request[0] != Request.start.rawValue {
                    _ = MessageChannel.write([0xFF, 0xFF, 0xFF, 0xFF], to: control)
                }
                continue
            }
            switch kind {
            case .start:
                fork(index)
            case .signal:
                if pids[index] > 0 { kill(pids[index], Int32(request[2])) }
            case .end, .kill:
                var status: Int32 = -1  // collected before, or its fork failed
                if let channel = channels[index] {
                    // Never started: nothing ran, nothing to collect.
                    close(channel)
                    channels[index] = nil
                    status = 0
                } else if pids[index] > 0 {
                    if kind == .kill {
                        kill(pids[index], SIGKILL)
                        // Killed inside a read of a mount that stopped answering, it ends when
                        // the read does: collected later, its end said now.
                        if let ended = WorkerProcess.collect(pids[index], within: WorkerProcess.killWait) {
                            status = ended
                        } else {
                            leftBehind.append(pids[index])
                            status = SIGKILL
                        }
                    } else {
                        while waitpid(pids[index], &status, 0) < 0 && errno == EINTR {}
                    }
                    pids[index] = 0
                }
                let bits = UInt32(bitPattern: status)
                _ = MessageChannel.write([0, 8, 16, 24].map { UInt8(truncatingIfNeeded: bits >> $0) }, to: control)
            }
        }
        // The app has gone (or closed the factory): its decoders go too.
        for pid in pids where pid > 0 { kill(pid, SIGKILL) }
        for pid in pids where pid > 0 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        _exit(0)
    }
}
