import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal of a given size whose output is read and thrown away, so painting can be
/// timed as a real terminal would receive it.
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let devicePath: String
    private let lock = NSLock()
    private var count = 0
    /// Bytes the terminal has been sent so far.
    var bytesRead: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    struct Failure: Error { var message: String }

    init(width: Int, height: Int) throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN (_IOW/_IOR macros Swift cannot import), as on x86_64 and arm64.
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw Failure(message: "cannot open a pseudo-terminal")
        }
        devicePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let fd = master
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                lock.lock()
                count += n
                lock.unlock()
            }
        }.start()
    }
}
