import LightboxTerminal
import LightboxThumbnails

/// How pictures reach the screen: in pixels through a graphics protocol, or as symbols.
public enum Graphics: String, Hashable, Sendable, CaseIterable {
    /// kitty's graphics protocol, placed with Unicode placeholders.
    case kitty
    /// DEC sixel strings painted over the tiles.
    case sixel
    case sextant, quadrant, half, braille, ascii

    /// The symbol set of a symbol mode; nil for the pixel modes.
    public var symbols: SymbolSet? { SymbolSet(rawValue: rawValue) }

    /// Whether the terminal shows the pictures' pixels.
    public var isPixels: Bool { symbols == nil }

    /// What the status line calls it.
    public var title: String {
        switch self {
        case .kitty: "kitty graphics"
        case .sixel: "sixel"
        case .sextant: "sextants"
        case .quadrant: "quadrants"
        case .half: "half blocks"
        case .braille: "braille"
        case .ascii: "ASCII"
        }
    }

    /// The symbol modes, in the order `t` steps through them after any pixel mode.
    public static let symbolModes: [Graphics] = [.half, .quadrant, .sextant, .braille, .ascii]

    /// What `auto` picks from the terminal's answers: kitty graphics, then sixel, then symbols
    /// (quadrants, which most fonts have; sextants need a font told about), then half blocks.
    /// In tmux the terminal's answers are tmux's, so kitty is also believed from the outer
    /// terminal's name when tmux passes pictures through.
    public static func detected(_ report: TerminalReport?, environment: [String: String], isUnicode: Bool) -> Graphics {
        let outerIsKitty = environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty"
            || ["ghostty", "WezTerm"].contains(environment["TERM_PROGRAM"] ?? "")
        if report?.hasKittyGraphics == true || (report == nil || environment["TMUX"] != nil) && outerIsKitty { return .kitty }
        if report?.hasSixel == true { return .sixel }
        return isUnicode ? .quadrant : .half
    }
}

/// A mode as asked for: one of the modes, or `auto` (ask the terminal).
public enum GraphicsChoice: String, Hashable, Sendable, CaseIterable {
    case auto, kitty, sixel, sextant, quadrant, half, braille, ascii

    /// The mode asked for; nil for `auto`.
    public var graphics: Graphics? { Graphics(rawValue: rawValue) }
}
