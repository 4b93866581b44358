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
        let scan = Scanner().scan([ImagePath(folder)])
        var settings = GalleryState.Settings()
        settings.graphics = graphics
        settings.availableGraphics = [graphics] + Graphics.symbolModes
        var state = GalleryState(library: Library(folders: scan.folders), width: 160, height: 48, settings: settings)
        let pty = try PseudoTerminal(width: 160, height: 48)
        let terminal = try CursesTerminal(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], device: pty.devicePath)
        defer { terminal.restore() }
        terminal.setImageMode(graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
        let provider = ThumbnailProvider(decoder: ThumbnailPipeline.withCodecs(diskCache: nil))
        defer { provider.shutdown() }
        let sizes = (0..<min(3, state.library.count)).map { MetadataReader.read(MetadataRequest(id: state.library.id(at: $0), file: state.library[$0])) }
        var effects = state.initialEffects() + state.apply(.metadataRead(sizes))
        // The three marked as a user does: Space marks and moves on.
        for _ in 0..<sizes.count { effects += state.apply(.toggleMarkAndAdvance) }
        effects += state.apply(.compare) + state.apply(.actualSize)
        /// Carries out loads, applies what was decoded, paints, writes pictures; true once every
        /// pane's picture at its zoom is on screen and nothing waits.
        func step() -> Bool {
            for case .load(let requests) in effects.coalesced { provider.request(requests) }
            effects = []
            for (request, result) in provider.takeResults() { effects += state.apply(.decoded(request, result)) }
            let frame = GalleryView.frame(for: state)
            terminal.paint(frame)
            while terminal.hasPicturesWaiting {
                terminal.writePictures()
                var room = pollfd(fd: terminal.pictureOutputDescriptor, events: Int16(POLLOUT), revents: 0)
                if terminal.hasPicturesWaiting { _ = poll(&room, 1, 100) }
            }
            let panes = state.compare?.shown.count ?? 0
            return (0..<panes).allSatisfy { state.store.cache.peek(state.compareKey(ofPane: $0)) != nil } && frame.images.count == panes
        }
        let deadline = Double(now()) / 1e9 + 30
        while !step(), Double(now()) / 1e9 < deadline { usleep(2000) }
        var latencies: [Double] = [], sent: [Int] = []
        for pan in 0..<count {
            let start = now(), before = pty.bytesRead
            // Right, down, left, up, and again: each pan a new part of each photo.
            effects += state.apply(.pan(dx: [1, 0, -1, 0][pan % 4], dy: [0, 1, 0, -1][pan % 4]))
            while !step() { usleep(200) }
            latencies.append(Double(now() - start) / 1e6)
            usleep(20_000)
            sent.append(pty.bytesRead - before)
        }
        let bytes = sent.sorted()[sent.count / 2]
        return String(
            format:
                "compare of 3 photos at 100%%, a pan of all three, key to the last byte of their pictures (%@, 160x48 pty, 10x20 cells, %d pans): median %.1f ms, max %.1f ms; %d KB written a pan (median), which a pty takes in %.1f ms alone",
            graphics.title, latencies.count, percentile(latencies, 0.5), latencies.max() ?? 0, bytes / 1024, try ptyWriteTime(bytes: bytes))
    }
}
