#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking pipe a background thread writes to so an event loop's `poll` wakes up.
public struct WakePipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Makes the read end readable; a full pipe already is.
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe, so the next `poll` waits for the next signal.
    public func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    public func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
