import CNcurses
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the terminal back when the process dies of a fatal signal (a crash, a trap), then lets
/// the previous handler (Swift's backtracer, or the default action) run as it would have.
///
/// Everything the handler touches is prepared beforehand: it only writes bytes, sets the saved
/// terminal modes and moves stderr back, all async-signal-safe.
enum TerminalRescue {
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    nonisolated(unsafe) static var isArmed: sig_atomic_t = 0
    nonisolated(unsafe) static var ttyDescriptor: Int32 = -1
    nonisolated(unsafe) static var savedModes = termios()
    nonisolated(unsafe) static var resetBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
    nonisolated(unsafe) static var resetCount = 0
    /// Where stderr really went before it was captured, or -1.
    nonisolated(unsafe) static var savedStderr: Int32 = -1
    nonisolated(unsafe) static var previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    /// Prepares the rescue for the terminal on `descriptor`, whose cooked modes are `modes`.
    static func arm(descriptor: Int32, modes: termios) {
        ttyDescriptor = descriptor
        savedModes = modes
        // Leave the alternate screen, show the cursor, plain colours, keypad, mouse and bracketed paste off.
        var bytes: [UInt8] = []
        for name in ["rmcup", "cnorm", "sgr0", "rmkx"] {
            if let value = lb_tigetstr(name) { bytes += Array(String(cString: value).utf8) }
        }
        bytes += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?2004l\r\n".utf8)
        resetCount = min(bytes.count, 512)
        for i in 0..<resetCount { resetBytes[i] = bytes[i] }
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { number, info, context in
                // One step (two threads faulting at once both passed a test then a store).
                guard TerminalRescue.isHandling.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else {
                    TerminalRescue.another(number, info)
                    return
                }
                TerminalRescue.handlingThread = pthread_self()
                TerminalRescue.rescue()
                TerminalRescue.callPrevious(number, info, context)
                // Whatever the previous handler did, end as the signal ends a process.
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            _ = sigaction(signal, &action, previous + Int(signal))
        }
        // Made now, not first in a handler (a static's first use takes a lock).
        _ = isHandling.load(ordering: .relaxed)
        isArmed = 1
    }

    /// Set once a fatal signal is being handled (the backtrace written), by `handlingThread`:
    /// lock-free, so a handler may test and set it.
    static let isHandling = Atomic<Bool>(false)
    nonisolated(unsafe) static var handlingThread = pthread_t()

    /// A fatal signal while one is handled. One sent by a process (the watcher passing on a kill
    /// the user also sent here) is let go, and another thread's fault waits: the first ends the
    /// process once its backtrace is written. A fault in the handling itself ends it at once.
    static func another(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?) {
        if let info, info.pointee.si_code <= 0 { return }  // sent (SI_USER, SI_TKILL, ...), not a fault
        guard pthread_equal(pthread_self(), handlingThread) != 0 else {
            while true { pause() }
        }
        Glibc.signal(number, SIG_DFL)
        raise(number)
    }

    /// Runs the handler that was there before ours (Swift's backtracer), if any, with the
    /// signals blocked that the kernel would have blocked for it: the mask at the signal, its own
    /// mask, and the signal unless it asked otherwise (SA_NODEFER, as Swift's does). Run with ours
    /// (the signal blocked), the backtracer's memory server thread inherited the block, and its
    /// first fault on a bad address killed the process mid-backtrace, leaving `swift-backtrace`
    /// waiting for good.
    static func callPrevious(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let old = previous[Int(number)]
        var mask = old.sa_mask
        if let context {
            var before = context.assumingMemoryBound(to: ucontext_t.self).pointee.uc_sigmask
            for signal in 1..<Int32(65) where sigismember(&before, signal) == 1 { sigaddset(&mask, signal) }
        }
        if old.sa_flags & SA_NODEFER == 0 { sigaddset(&mask, number) }
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        if old.sa_flags & SA_SIGINFO != 0 {
            old.__sigaction_handler.sa_sigaction?(number, info, context)
        } else if let handler = old.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
            handler(number)  // not SIG_DFL (0) or SIG_IGN (1)
        }
    }

    /// Restores the terminal from inside a signal handler.
    static func rescue() {
        guard isArmed != 0 else { return }
        isArmed = 0
        if savedStderr >= 0 { dup2(savedStderr, 2) }
        _ = write(ttyDescriptor, resetBytes, resetCount)
        _ = tcsetattr(ttyDescriptor, TCSANOW, &savedModes)
    }

    /// The terminal was restored normally: nothing left to rescue.
    static func disarm() { isArmed = 0 }
}
