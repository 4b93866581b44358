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

    /// Forks: the watcher never returns from here; the worker returns and does the work.
    static func split() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        let pid = fork()
        if pid < 0 {
            close(ends[0]); close(ends[1])
            return
        }
        if pid == 0 {
            close(ends[0])
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            reportDescriptor = ends[1]
            worker = getpid()
            // Its watcher gone (killed), the worker ends as on a hangup, giving the terminal back.
            lb_signal_when_parent_ends(SIGHUP)
            if getppid() == 1 { raise(SIGHUP) }
            return
        }
        close(ends[1])
        worker = pid
        watch(ends[0])
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
        var byte: UInt8 = 0, status: Int32 = 0
        // Until the worker says its code or ends (its forks may hold the pipe open after it).
        while true {
            var poller = pollfd(fd: reports, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                let n = read(reports, &byte, 1)
                if n == 1 { endAfterWorker(code: Int32(byte)) }
                if n == 0 {
                    while waitpid(worker, &status, 0) < 0 && errno == EINTR {}
                    break
                }
            }
            if waitpid(worker, &status, WNOHANG) == worker { break }
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
    static func endAfterWorker(code: Int32) -> Never {
        var status: Int32 = 0
        for _ in 0..<Int(endWait * 100) {
            if waitpid(worker, &status, WNOHANG) == worker { break }
            usleep(10_000)
        }
        _exit(code)
    }
}
