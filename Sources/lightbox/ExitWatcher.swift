import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the process the shell waits for apart from the one that works, so the program always
/// ends: a thread in a read of a mount that stopped answering (a FUSE or NFS request already
/// sent waits uninterruptibly) keeps a process from ending however it exits, and the shell
/// would wait with it. The watcher, forked first thing, ends as soon as the worker says its
/// exit code (`report`), leaving a worker held by such a read behind, not waited for.
enum ExitWatcher {
    /// Where the worker says its exit code; -1 in the watcher or without one.
    nonisolated(unsafe) static var reportDescriptor: Int32 = -1
    /// The worker: in the watcher, to pass signals to; in the worker, itself (its forks say nothing).
    nonisolated(unsafe) static var worker: pid_t = 0
    /// Signals the watcher passes on to the worker (a terminal's go to both, once each is enough).
    static let passedOn: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT]
    /// How long the watcher waits for the worker to end once it said its code, so its CPU time and
    /// memory count as the program's (`time`) when nothing holds it.
    static let endWait = 0.2
    /// Microseconds from a signal that asks the program to end (SIGHUP, SIGINT, SIGQUIT, SIGTERM)
    /// to the watcher's own end by it, whatever holds the worker (`--list` or `--warm` in a read
    /// of a mount that stopped answering, which no handler of theirs can cut short): after the
    /// worker's own deadline (`Signals.endDeadline`, which gives the terminal back), within a second.
    static let endDeadline = 950_000
    /// The ending signal passed on, or 0.
    nonisolated(unsafe) static var endingSignal: sig_atomic_t = 0

    /// Where the watcher tells the worker it starts, as `PID:FD` (its pid, the report pipe's end);
    /// taken out of the environment at once, so nothing the worker starts sees it.
    static let handOver = "LIGHTBOX_EXIT_WATCHER"

    /// Forks: the watcher never returns from here; the worker returns and does the work. The
    /// worker is the program started again (`/proc/self/exe`), not the fork itself: a fork keeps
    /// the forking thread's thread-local values, and the Swift runtime's locks (a static's first
    /// use, `swift_once`) name their holder by a thread id cached in one, so the fork's main
    /// thread would take them as the watcher's thread; a lock it held then never lets a waiting
    /// thread in, nor itself out (both spin at a full core, for good).
    static func split() {
        if takeHandOver() { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        // Closed on exec, and above the standard descriptors should one be closed (the worker's
        // output must not be the pipe).
        for end in 0..<2 {
            let moved = fcntl(ends[end], F_DUPFD_CLOEXEC, 3)
            if moved >= 0 { close(ends[end]); ends[end] = moved } else { _ = fcntl(ends[end], F_SETFD, FD_CLOEXEC) }
        }
        let watcher = getpid()
        let pid = fork()
        if pid < 0 {
            close(ends[0]); close(ends[1])
            return
        }
        if pid == 0 {
            close(ends[0])
            // Its watcher gone (killed), the worker ends as on a hangup, giving the terminal back
            // (kept across the exec, when the handlers are not yet set: the default ends it).
            lb_signal_when_parent_ends(SIGHUP)
            if getppid() != watcher { raise(SIGHUP) }
            // Started by the dynamic loader by hand (`ld.so lightbox ...`, say from a noexec
            // mount), /proc/self/exe is the loader (no interpreter base: AT_BASE 0).
            if lb_interpreter_base() != 0 && fcntl(ends[1], F_SETFD, 0) == 0 && setenv(handOver, "\(watcher):\(ends[1])", 1) == 0 {
                // A crash writes its backtrace and ends, rather than wait up to 30 s for keys on
                // the terminal it left (Swift's default where stdin is a terminal); unless the user said.
                let setsBacktrace = getenv("SWIFT_BACKTRACE") == nil
                if setsBacktrace { setenv("SWIFT_BACKTRACE", "interactive=no", 1) }
                execv("/proc/self/exe", CommandLine.unsafeArgv)
                if setsBacktrace { unsetenv("SWIFT_BACKTRACE") }
            }
            // Not started again (no /proc, or the loader's): the fork goes on as the worker.
            unsetenv(handOver)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            become(reportingTo: ends[1])
            return
        }
        close(ends[1])
        worker = pid
        watch(ends[0])
    }

    /// In a worker the watcher started: takes the report pipe from the environment (`handOver`)
    /// and says true. False when there is none, or it names another parent or no pipe (not ours).
    static func takeHandOver() -> Bool {
        guard let value = getenv(handOver) else { return false }
        let said = String(cString: value)
        unsetenv(handOver)
        guard let (watcher, descriptor) = parseHandOver(said), watcher == getppid() else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return false }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        become(reportingTo: descriptor)
        // Started as /proc/self/exe, it would be named "exe": named as the command was.
        let command = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "lightbox"
        lb_set_process_name(command)
        return true
    }

    /// The watcher's pid and the report pipe's descriptor in `PID:FD`, or nil.
    static func parseHandOver(_ said: String) -> (watcher: pid_t, descriptor: Int32)? {
        let parts = said.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let watcher = pid_t(parts[0]), let descriptor = Int32(parts[1]), watcher > 1, descriptor > 2 else { return nil }
        return (watcher, descriptor)
    }

    /// Makes this process the worker, saying its code on `descriptor`.
    private static func become(reportingTo descriptor: Int32) {
        reportDescriptor = descriptor
        worker = getpid()
    }

    /// Puts /dev/null in place of the standard descriptors once all is written: a worker held
    /// by a read must not hold a pipeline's next command (`lightbox | xargs ...`) waiting for
    /// the end of its input, nor a pipe its errors go to.
    static func letGo() {
        guard reportDescriptor >= 0, getpid() == worker else { return }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { return }
        for fd: Int32 in [0, 1, 2] { dup2(null, fd) }
        close(null)
    }

    /// Says the exit code to the watcher; what the worker writes must be written first.
    /// Safe in a signal handler.
    static func report(_ code: Int32) {
        guard reportDescriptor >= 0, getpid() == worker else { return }
        var byte = UInt8(truncatingIfNeeded: code)
        _ = write(reportDescriptor, &byte, 1)
    }

    /// The watcher: passes signals on, and ends with the worker's code once said, or as the worker ended.
    static func watch(_ reports: Int32) -> Never {
        lb_set_process_name("lightbox-wait")
        for signal in passedOn {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                kill(ExitWatcher.worker, number)
                if ExitWatcher.endingSignal == 0, number == SIGHUP || number == SIGINT || number == SIGQUIT || number == SIGTERM {
                    ExitWatcher.endingSignal = number
                    var timer = itimerval(it_interval: timeval(), it_value: timeval(tv_sec: 0, tv_usec: ExitWatcher.endDeadline))
                    setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
                }
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
        // The worker did not end in time (held by a read): the watcher ends by the signal, leaving it behind.
        var deadline = sigaction()
        deadline.__sigaction_handler.sa_handler = { _ in ExitWatcher.end(by: ExitWatcher.endingSignal) }
        sigemptyset(&deadline.sa_mask)
        sigaction(SIGALRM, &deadline, nil)
        Glibc.signal(SIGPIPE, SIG_IGN)
        // The worker's end wakes the wait below (a handler, so that it interrupts it), and is
        // held blocked in between, so an end between the check and the wait is not missed.
        var childEnded = sigaction()
        childEnded.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&childEnded.sa_mask)
        sigaction(SIGCHLD, &childEnded, nil)
        var blocked = sigset_t(), waking = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGCHLD)
        sigprocmask(SIG_BLOCK, &blocked, &waking)
        sigdelset(&waking, SIGCHLD)  // the mask while waiting
        var byte: UInt8 = 0, status: Int32 = 0
        // Until the worker says its code or ends (its forks may hold the pipe open after it): no
        // wake-ups in between (it had polled 20 times a second).
        while true {
            if waitpid(worker, &status, WNOHANG) == worker { break }
            if lb_wait_readable(reports, &waking) > 0 {
                let n = read(reports, &byte, 1)
                if n == 1 { endAfterWorker(code: Int32(byte)) }
                if n == 0 {
                    while waitpid(worker, &status, 0) < 0 && errno == EINTR {}
                    break
                }
            }
        }
        let signal = status & 0x7F
        guard signal != 0 else { _exit((status >> 8) & 0xFF) }
        // Ended by a signal: the watcher ends by it too, so the shell sees what the worker did.
        end(by: signal)
    }

    /// Ends the watcher by `signal` (no core), as the shell expects of a program it ended. Safe in a signal handler.
    static func end(by signal: Int32) -> Never {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        Glibc.signal(signal, SIG_DFL)
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        raise(signal)
        _exit(128 + signal)
    }

    /// Waits up to `endWait` for the worker to end, then ends with `code` whether it did or not.
    /// Woken by the worker's end (SIGCHLD, held until asked for), not polling: a command that
    /// waits for `lightbox --list` waits for no more than its work.
    static func endAfterWorker(code: Int32) -> Never {
        var childEnded = sigset_t()
        sigemptyset(&childEnded)
        sigaddset(&childEnded, SIGCHLD)
        sigprocmask(SIG_BLOCK, &childEnded, nil)
        var status: Int32 = 0
        // In slices (a twentieth of endWait each), so another signal cannot make it wait longer.
        for _ in 0..<20 {
            guard waitpid(worker, &status, WNOHANG) == 0 else { break }  // ended (or not ours to wait for)
            var slice = timespec(tv_sec: 0, tv_nsec: Int(endWait / 20 * 1e9))
            _ = sigtimedwait(&childEnded, nil, &slice)
        }
        _exit(code)
    }
}
