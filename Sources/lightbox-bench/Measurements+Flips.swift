import Foundation
import LightboxApp
import LightboxCurses
import LightboxTerminal
import LightboxThumbnails
import LightboxView

#if canImport(Glibc)
    import Glibc
#endif

extension Measurements {
    /// A flip in the full-screen preview: from the key to the last byte of the new photo's
    /// picture written to the terminal, in a pixel mode, through ncurses into a 160x48 pty with
    /// 10x20-pixel cells, as the run loop does (decoded results applied and painted as they come,
    /// pictures written until none waits). Between flips the user looks for `pause` seconds, in
    /// which the neighbours are decoded (and prepared) as the gallery does at idle. Returns the
    /// median and max of the flips after the first, in ms.
    static func flips(folder: String, graphics: Graphics, ahead: Bool = true, count: Int = 24, pause: Double = 0.6) throws -> String {
        let session = try PixelSession(folder: folder, graphics: graphics)
        defer { session.close() }
        let terminal = session.terminal, pty = session.pty
        session.apply(.openPreview)
        /// A step; true once the cursor's preview picture is on screen and nothing waits.
        func step() -> Bool {
            let frame = session.step(), state = session.state
            let shown = state.store.cache.peek(state.previewKey) != nil && !frame.images.isEmpty
            // As the run loop does once the screen is complete: the next photos made ready.
            if ahead, shown { terminal.prepareAhead(GalleryView.picturesAhead(for: state)) }
            terminal.takeReadyPictures()
            return shown
        }
        func settle(for seconds: Double) {
            let end = Double(now()) / 1e9 + seconds
            while Double(now()) / 1e9 < end {
                _ = step()
                usleep(2000)
            }
        }
        settle(for: 2)
        var latencies: [Double] = [], sent: [Int] = []
        for _ in 0..<min(count, session.state.library.count - 1) {
            let start = now(), before = pty.bytesRead
            session.apply(.move(.right))
            while !step() { usleep(200) }
            latencies.append(Double(now() - start) / 1e6)
            usleep(20_000)  // what the pty still holds reaches the reader
            sent.append(pty.bytesRead - before)
            settle(for: pause)
        }
        let after = Array(latencies.dropFirst())
        // The floor: the same bytes written through a pty of its own, nothing else done.
        let bytes = sent.sorted()[sent.count / 2]
        let floor = try ptyWriteTime(bytes: bytes)
        return String(
            format:
                "a flip in the preview, key to the last byte of its picture (%@%@, 160x48 pty, 10x20 cells, %d flips, %.1f s between): first %.1f ms; then median %.1f ms, max %.1f ms; %d KB written a flip (median), which a pty takes in %.1f ms alone; pictures made ahead %d, on the spot %d",
            graphics.title, ahead ? "" : ", nothing made ready ahead", latencies.count, pause, latencies.first ?? 0, percentile(after, 0.5), after.max() ?? 0,
            bytes / 1024, floor, terminal.images.madeAhead, terminal.images.madeOnTheSpot)
    }

    /// Milliseconds a pty of its own takes `bytes` (median of five), read as fast as it comes.
    static func ptyWriteTime(bytes: Int) throws -> Double {
        let pty = try PseudoTerminal(width: 160, height: 48)
        let fd = open(pty.devicePath, O_WRONLY | O_NOCTTY)
        defer { close(fd) }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
        var times: [Double] = []
        for _ in 0..<5 {
            let start = now()
            var left = bytes
            while left > 0 {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, min(left, $0.count)) }
                if n > 0 { left -= n }
            }
            times.append(Double(now() - start) / 1e6)
        }
        return percentile(times, 0.5)
    }
}
