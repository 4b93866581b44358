import Foundation
import LightboxTerminal
import LightboxTestSupport
import Testing

@testable import LightboxCurses

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal whose far end plays a terminal: it reads the queries and answers with `reply`.
final class FakeTerminal: @unchecked Sendable {
    let master: Int32
    let path: String
    private(set) var queries: [UInt8] = []

    init() throws {
        guard let opened = openPseudoTerminal(width: 80, height: 24) else { throw CocoaError(.fileReadUnknown) }
        (master, path) = opened
    }

    deinit { close(master) }

    /// Answers the first query with `reply` (after `delay` seconds), on another thread.
    func answer(with reply: String, after delay: Double = 0) -> Thread {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 2000) > 0 else { return }
            let n = read(master, &buffer, buffer.count)
            if n > 0 { queries = Array(buffer[0..<n]) }
            usleep(UInt32(delay * 1e6))
            let bytes = Array(reply.utf8)
            _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
        }
        thread.start()
        return thread
    }

    /// Bytes waiting in the terminal's input, as curses would read them next.
    func pendingInput() -> [UInt8] {
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        defer { close(fd) }
        var raw = termios()
        tcgetattr(fd, &raw)
        cfmakeraw(&raw)
        tcsetattr(fd, TCSANOW, &raw)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        return n > 0 ? Array(buffer[0..<n]) : []
    }
}

@Test func theProbeReadsEveryAnswerAndLeavesNothingForCurses() throws {
    let terminal = try FakeTerminal()
    // Another answer of a terminal would not send, and the device attributes last.
    _ = terminal.answer(with: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[6;22;11t\u{1B}[?62;22c")
    let report = TerminalProbe.ask(device: terminal.path, inTmux: false, timeout: 2)
    #expect(report?.isComplete == true && report?.hasKittyGraphics == true && report?.name == "kitty(0.35.2)")
    #expect(report?.cellPixels == CellPixelSize(width: 11, height: 22))
    #expect(terminal.queries.suffix(3) == Array("\u{1B}[c".utf8), "device attributes asked last")
    #expect(terminal.pendingInput().isEmpty)
}

@Test func aTerminalThatStopsAnsweringCostsTheTimeoutAndLeavesNothing() throws {
    let terminal = try FakeTerminal()
    // Half an answer, then nothing: the probe gives up, and what came is not left as keys.
    _ = terminal.answer(with: "\u{1B}[6;20;10t\u{1B}[?6")
    let start = Date()
    let report = TerminalProbe.ask(device: terminal.path, inTmux: false, timeout: 0.3)
    let elapsed = Date().timeIntervalSince(start)
    #expect(report?.isComplete == false && report?.cellPixels == CellPixelSize(width: 10, height: 20))
    #expect(elapsed >= 0.3 && elapsed < 1.5)
    #expect(terminal.pendingInput().isEmpty)
}

@Test func insideTmuxNothingIsAskedOfTheOuterTerminal() throws {
    // Its answer through passthrough would come after tmux's own, too late, and be read as keys.
    let terminal = try FakeTerminal()
    _ = terminal.answer(with: "\u{1B}[?1;2c")
    let report = TerminalProbe.ask(device: terminal.path, inTmux: true, timeout: 2)
    #expect(report?.isComplete == true && report?.hasSixel == false)
    #expect(!terminal.queries.contains(0x5F) && !String(decoding: terminal.queries, as: UTF8.self).contains("tmux;"))
}
