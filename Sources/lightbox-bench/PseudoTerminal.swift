import Foundation
import LightboxTestSupport

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
        guard let opened = openPseudoTerminal(width: width, height: height) else {
            throw Failure(message: "cannot open a pseudo-terminal")
        }
        (master, devicePath) = opened
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
