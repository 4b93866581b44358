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
    /// Compare at 100%: three photos side by side, panned together: from the arrow key to the
    /// last byte of the three panes' new pictures written to the terminal, in a pixel mode,
    /// through ncurses into a 160x48 pty with 10x20-pixel cells, as the run loop does. Returns
    /// the median and max over `count` pans (the photos decoded before the first), in ms.
    static func comparePans(folder: String, graphics: Graphics, count: Int = 16) throws -> String {
        let session = try PixelSession(folder: folder, graphics: graphics)
        defer { session.close() }
        let library = session.state.library
        let sizes = (0..<min(3, library.count)).map { MetadataReader.read(MetadataRequest(id: library.id(at: $0), file: library[$0])) }
        session.apply(.metadataRead(sizes))
        // The three marked as a user does: Space marks and moves on.
        for _ in 0..<sizes.count { session.apply(.toggleMarkAndAdvance) }
        session.apply(.compare)
        session.apply(.actualSize)
        /// A step; true once every pane's picture at its zoom is on screen and nothing waits.
        func step() -> Bool {
            let frame = session.step(), state = session.state
            let panes = state.compare?.shown.count ?? 0
            return (0..<panes).allSatisfy { state.store.cache.peek(state.compareKey(ofPane: $0)) != nil } && frame.images.count == panes
        }
        let deadline = Double(now()) / 1e9 + 30
        while !step(), Double(now()) / 1e9 < deadline { usleep(2000) }
        var latencies: [Double] = [], sent: [Int] = []
        for pan in 0..<count {
            let start = now(), before = session.pty.bytesRead
            // Right, down, left, up, and again: each pan a new part of each photo.
            session.apply(.pan(dx: [1, 0, -1, 0][pan % 4], dy: [0, 1, 0, -1][pan % 4]))
            while !step() { usleep(200) }
            latencies.append(Double(now() - start) / 1e6)
            usleep(20_000)
            sent.append(session.pty.bytesRead - before)
        }
        let bytes = sent.sorted()[sent.count / 2]
        return String(
            format:
                "compare of 3 photos at 100%%, a pan of all three, key to the last byte of their pictures (%@, 160x48 pty, 10x20 cells, %d pans): median %.1f ms, max %.1f ms; %d KB written a pan (median), which a pty takes in %.1f ms alone",
            graphics.title, latencies.count, percentile(latencies, 0.5), latencies.max() ?? 0, bytes / 1024, try ptyWriteTime(bytes: bytes))
    }
}
