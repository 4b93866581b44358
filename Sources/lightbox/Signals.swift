import LightboxCurses

#if canImport(Glibc)
    import Glibc
#endif

/// Signals turned into bytes on a pipe, so the run loop handles them like input.
///
/// SIGINT, SIGTERM and SIGHUP also start a deadline: the run loop ends the program and gives
/// the terminal back well within it, but if anything holds it (a mount that stopped answering,
/// a stderr nobody reads), the deadline gives the terminal back from the handler and ends it.
enum Signals {
    nonisolated(unsafe) static var pipeWrite: Int32 = -1
    /// The first signal that asked the program to end, or 0.
    nonisolated(unsafe) static var ending: sig_atomic_t = 0
    /// SIGWINCH is ours too: ncurses' handler would ask its output descriptor, which is a pipe.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGPIPE, SIGWINCH]
    /// Microseconds from an ending signal to the end, whatever holds the program.
    static let endDeadline = 900_000

    /// Installs the handlers; returns the read end of the pipe.
    static func install() -> Int32 {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        pipeWrite = fds[1]
        for signal in handled { setHandler(signal) }
        var deadline = sigaction()
        deadline.__sigaction_handler.sa_handler = { _ in
            CursesTerminal.rescueFromSignalHandler()
            ExitWatcher.letGo()
            ExitWatcher.report(128 + Signals.ending)
            _exit(128 + Signals.ending)
        }
        sigemptyset(&deadline.sa_mask)
        sigaction(SIGALRM, &deadline, nil)
        return fds[0]
    }

    static func setHandler(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(Signals.pipeWrite, &byte, 1)
            if (number == SIGINT || number == SIGTERM || number == SIGHUP) && Signals.ending == 0 {
                Signals.ending = number
                var timer = itimerval(it_interval: timeval(), it_value: timeval(tv_sec: 0, tv_usec: Signals.endDeadline))
                setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
            }
        }
        sigemptyset(&action.sa_mask)
        // A resize comes often (a drag): it restarts what it interrupts elsewhere.
        action.sa_flags = signal == SIGWINCH ? SA_RESTART : 0
        sigaction(signal, &action, nil)
    }

    /// Stops the job as Ctrl-Z would (in raw mode the terminal does not send it): the whole
    /// process group, so a pipeline (`lightbox | xargs ...`) stops together. Returns once continued.
    static func stopSelf() {
        signal(SIGTSTP, SIG_DFL)
        kill(0, SIGTSTP)
        setHandler(SIGTSTP)
    }

    /// Signal numbers waiting on the pipe.
    static func drain(_ fd: Int32) -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            signals += buffer[..<n].map { Int32($0) }
        }
        return signals
    }
}
