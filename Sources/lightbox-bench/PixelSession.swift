import Foundation
import LightboxApp
import LightboxCurses
import LightboxTerminal
import LightboxThumbnails
import LightboxView

#if canImport(Glibc)
    import Glibc
#endif

/// A gallery of a folder drawn through ncurses into a 160x48 pty with 10x20-pixel cells in a
/// pixel mode, as the run loop does: decodes applied and painted as they come, pictures written
/// as the pty takes them, waiting on `poll`. What the preview's and compare's benchmarks share.
final class PixelSession {
    var state: GalleryState
    let pty: PseudoTerminal
    let terminal: CursesTerminal
    let provider: ThumbnailProvider
    /// What the state asked for and the next step carries out.
    var effects: [Effect] = []

    init(folder: String, graphics: Graphics) throws {
        let scan = Scanner().scan([ImagePath(folder)])
        var settings = GalleryState.Settings()
        settings.graphics = graphics
        settings.availableGraphics = [graphics] + Graphics.symbolModes
        state = GalleryState(library: Library(folders: scan.folders), width: 160, height: 48, settings: settings)
        pty = try PseudoTerminal(width: 160, height: 48)
        terminal = try CursesTerminal(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], device: pty.devicePath)
        terminal.setImageMode(graphics.pixelProtocol, cellPixels: state.pictures.cellPixels)
        provider = ThumbnailProvider(decoder: ThumbnailPipeline.withCodecs(diskCache: nil))
        effects = state.initialEffects()
    }

    /// Restores the terminal and stops the decoders.
    func close() {
        terminal.restore()
        provider.shutdown()
    }

    /// Applies `command` as a key would, its effects carried out by the next step.
    func apply(_ command: Command) { effects += state.apply(command) }

    /// Applies what the world reports, its effects carried out by the next step.
    func apply(_ event: Event) { effects += state.apply(event) }

    /// Carries out the loads asked for, applies what was decoded, paints and writes the frame's
    /// pictures until none waits; the frame painted.
    @discardableResult
    func step() -> Frame {
        for case .load(let requests) in effects.coalesced { provider.request(requests) }
        effects = []
        for (request, result) in provider.takeResults() { effects += state.apply(.decoded(request, result)) }
        let frame = GalleryView.frame(for: state)
        terminal.paint(frame)
        terminal.writeAllWaiting()
        return frame
    }
}

extension CursesTerminal {
    /// Writes what waits (a frame's cells, pictures) until the terminal has taken it all, as the
    /// run loop does: when it takes more (poll for room), never in a busy loop.
    func writeAllWaiting() {
        while hasPicturesWaiting {
            writePictures()
            var room = pollfd(fd: pictureOutputDescriptor, events: Int16(POLLOUT), revents: 0)
            if hasPicturesWaiting { _ = poll(&room, 1, 100) }
        }
    }
}
