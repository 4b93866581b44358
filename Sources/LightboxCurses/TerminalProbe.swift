import LightboxTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// Asks the terminal what it can show, before curses starts.
public enum TerminalProbe {
    /// Writes the queries to `device` in raw mode and reads the answers until the device
    /// attributes arrive (asked last, answered by every terminal) or `timeout` seconds pass.
    /// Answers are read here, so none is left for curses to take as keys; after a timeout the
    /// input is flushed, as a late answer would be. Nil when there is no terminal.
    public static func ask(device: String = "/dev/tty", inTmux: Bool, timeout: Double = 1) -> TerminalReport? {
        let fd = open(device, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        cfmakeraw(&raw)
        guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(fd, TCSANOW, &saved) }
        let queries = TerminalReport.queries(inTmux: inTmux)
        guard queries.withUnsafeBufferPointer({ write(fd, $0.baseAddress, $0.count) }) == queries.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        func elapsed() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
        }
        var report = TerminalReport()
        while elapsed() < timeout {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(1, (timeout - elapsed()) * 1000))
            guard poll(&pfd, 1, wait) > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[0..<count]
            report = TerminalReport(parsing: received)
            if report.isComplete {
                report.roundTrip = elapsed()
                return report
            }
        }
        tcflush(fd, TCIFLUSH)
        return report
    }
}
