#if canImport(Glibc)
    import Glibc
#endif

/// What ncurses writes, caught in a pipe and kept in memory until the terminal takes it.
///
/// ncurses writes its updates with blocking writes that it retries on every interruption, so a
/// terminal that stops reading (XOFF, a frozen link) would hold the program in `write` for ever,
/// deaf to keys and signals. Its output descriptor is this pipe instead; a thread moves what comes
/// into memory as it comes, so ncurses never waits, and the run loop writes it to the terminal
/// without blocking (`PictureQueue`), in order with the pictures.
final class CellOutput: @unchecked Sendable {
    /// The pipe's end ncurses writes to (moved onto its descriptor, then closed here).
    let writeEnd: Int32
    private let readEnd: Int32
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var buffer: [UInt8] = []
    private var thread = pthread_t()

    /// Linux's F_SETPIPE_SZ, which Glibc's module does not export.
    static let setPipeSize: Int32 = 1031

    init?() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        (readEnd, writeEnd) = (fds[0], fds[1])
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(writeEnd, Self.setPipeSize, 1 << 20)  // fewer wake-ups for a big frame; any size works
        pthread_mutex_init(lock, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                let output = Unmanaged<CellOutput>.fromOpaque(context!).takeRetainedValue()
                output.collect()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<CellOutput>.fromOpaque(context).release()
            close(readEnd)
            close(writeEnd)
            return nil
        }
        pthread_detach(thread)
    }

    /// The thread: waits for bytes and moves them into memory until every write end is closed.
    private func collect() {
        while true {
            var fd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, -1) < 0 && errno == EINTR { continue }
            pthread_mutex_lock(lock)
            let open = drainLocked()
            pthread_mutex_unlock(lock)
            if !open { break }
        }
    }

    deinit {
        close(readEnd)
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Reads what the pipe holds into `buffer`; false once the writers are gone. Reading and
    /// appending under the lock keeps the bytes in order whichever thread reads.
    private func drainLocked() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(readEnd, &chunk, chunk.count)
            if count > 0 {
                buffer += chunk[..<count]
            } else if count == 0 {
                return false
            } else {
                return errno == EAGAIN || errno == EINTR
            }
        }
    }

    /// Everything ncurses wrote so far, in order: after `doupdate` returns, all of its update.
    /// - Complexity: O(bytes taken).
    func take() -> [UInt8] {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        _ = drainLocked()
        let taken = buffer
        buffer = []
        return taken
    }
}
