import Foundation
import LightboxCurses

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps what the process writes to stderr (libraries' warnings) off the terminal while curses
/// owns it; a crash puts the real stderr back first (TerminalRescue).
final class StderrCapture: @unchecked Sendable {
    private let saved: Int32

    init?() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        saved = fcntl(2, F_DUPFD_CLOEXEC, 0)
        CursesTerminal.rescueRestoresStderr(to: saved)
        dup2(fds[1], 2)
        close(fds[1])
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let readEnd = fds[0]
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }  // read and dropped
            }
            close(readEnd)
        }
        thread.start()
    }

    /// Puts the real stderr back.
    func restore() {
        dup2(saved, 2)
    }
}
