#if canImport(Glibc)
    import Glibc
#endif

/// A new pseudo-terminal of `width` by `height` cells: the controlling side's descriptor and the
/// device path a program opens as its terminal.
public func openPseudoTerminal(width: Int, height: Int) -> (master: Int32, path: String)? {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0, number: UInt32 = 0
    // TIOCSPTLCK and TIOCGPTN (_IOW/_IOR macros Swift cannot import), as on x86_64 and arm64.
    guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
        if master >= 0 { close(master) }
        return nil
    }
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    return (master, "/dev/pts/\(number)")
}
