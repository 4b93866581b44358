#if canImport(Glibc)
    import Glibc
#endif

/// Signals turned into bytes on a pipe, so the run loop handles them like input.
enum Signals {
    nonisolated(unsafe) static var pipeWrite: Int32 = -1
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGPIPE]

    /// Installs the handlers; returns the read end of the pipe.
    static func install() -> Int32 {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        pipeWrite = fds[1]
        for signal in handled { setHandler(signal) }
        return fds[0]
    }

    static func setHandler(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(Signals.pipeWrite, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
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
