import Foundation
import LightboxApp
import LightboxCurses
import LightboxTerminal
import LightboxThumbnails

extension Options {
    /// Whether the terminal is asked before curses starts: to choose a mode, to learn the cell
    /// size and colour registers a pixel mode needs, and its background (light or dark) in every
    /// mode. Not the Linux console, which answers none of it and may print the questions.
    func asksTerminal(environment: [String: String]) -> Bool { environment["TERM"] != "linux" }

    /// Settles the picture mode, the modes `t` steps through, the colour depth and the cell size
    /// from the options, the terminal and what it answered, and tells the terminal.
    func settleGraphics(_ settings: inout GalleryState.Settings, terminal: CursesTerminal, report: TerminalReport?, environment: [String: String]) {
        let detected = Graphics.detected(report, environment: environment, isUnicode: terminal.isUnicode)
        settings.graphics = graphics.graphics ?? detected
        var pixelModes: [Graphics] = []
        if settings.graphics.isPixels { pixelModes.append(settings.graphics) }
        if detected.isPixels && !pixelModes.contains(detected) { pixelModes.append(detected) }
        settings.availableGraphics = pixelModes + Graphics.symbolModes
        settings.colorDepth = terminal.colorMode.cellDepth
        settings.cellPixels = terminal.reportedCellPixels ?? report?.cellPixels ?? .standard
        if settings.graphics == .kitty, environment["TMUX"] != nil, !Self.tmuxPassesThrough() {
            settings.notice = "tmux drops kitty graphics: set -g allow-passthrough on (t changes the mode)"
        } else if graphics == .auto, settings.graphics.isPixels {
            settings.notice = "pictures in \(settings.graphics.title)" + (report?.name.map { " (\($0))" } ?? "") + "; t changes"
        }
        terminal.setImageMode(settings.graphics.pixelProtocol, cellPixels: settings.cellPixels, colorRegisters: report?.colorRegisters)
        Self.followTmuxPane(terminal, mode: settings.graphics.pixelProtocol, environment: environment)
    }
}

extension Options {
    /// Asks tmux where this pane is, when pictures in `mode` go to the outer terminal through
    /// passthrough (iTerm2 images), and has `terminal` paint them there; outside tmux, in other
    /// modes, or when tmux does not say, nothing.
    static func followTmuxPane(_ terminal: CursesTerminal, mode: PixelProtocol?, environment: [String: String]) {
        guard mode == .iterm, environment["TMUX"] != nil, let pane = environment["TMUX_PANE"],
            let origin = Subprocess.output(of: "/usr/bin/env", ["tmux", "display-message", "-p", "-t", pane, PaneOrigin.tmuxFormat])
                .flatMap(PaneOrigin.init(tmuxAnswer:))
        else { return }
        terminal.movePictures(to: origin)
    }

    /// Whether the tmux Lightbox runs in passes escape sequences through to the outer terminal
    /// (`allow-passthrough`, for this pane or globally).
    static func tmuxPassesThrough() -> Bool {
        ["-pqv", "-gqv"].contains { scope in
            let value = Subprocess.output(of: "/usr/bin/env", ["tmux", "show-options", scope, "allow-passthrough"])
            return ["on", "all"].contains(value?.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}

extension ColorMode {
    /// The depth cells are rendered in for this terminal.
    var cellDepth: ColorDepth {
        switch self {
        case .direct, .monochrome: .trueColor
        case .indexed256: .indexed256
        case .basic16: .indexed16
        case .basic8: .indexed8
        }
    }
}
