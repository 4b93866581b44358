import Foundation
import LightboxCurses
#if canImport(Glibc)
import Glibc
#endif

/// Holds what the process writes to stderr while curses owns the terminal (libraries' warnings),
/// keeping the last lines for an error exit.
final class StderrCapture: @unchecked Sendable {
    private let saved: Int32
    private let lock = NSLock()
    private var tail: [UInt8] = []
    private let limit = 4096

    init?() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        saved = fcntl(2, F_DUPFD_CLOEXEC, 0)
        CursesTerminal.rescueRestoresStderr(to: saved)
        dup2(fds[1], 2)
        close(fds[1])
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        let readEnd = fds[0]
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                lock.lock()
                tail += buffer[..<n]
                if tail.count > limit { tail.removeFirst(tail.count - limit) }
                lock.unlock()
            }
            close(readEnd)
        }
        thread.start()
    }

    /// Puts the real stderr back and returns what was captured.
    func restore() -> [UInt8] {
        dup2(saved, 2)
        lock.lock()
        defer { lock.unlock() }
        return tail
    }
}
