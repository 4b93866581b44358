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
    /// Kitty graphics needs Unicode placeholders too, which kitty has since 0.28 and Ghostty
    /// has; other terminals that answer the kitty query (WezTerm, Konsole) go on to sixel.
    /// In tmux the terminal's answers are tmux's, so kitty is believed from the outer
    /// terminal's name when tmux passes pictures through.
    public static func detected(_ report: TerminalReport?, environment: [String: String], isUnicode: Bool) -> Graphics {
        let outerIsKitty = environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty"
            || environment["TERM_PROGRAM"] == "ghostty"
        // Placeholders are characters: they need a UTF-8 locale.
        if isUnicode && report?.hasKittyGraphics == true && hasPlaceholders(report?.name) { return .kitty }
        if isUnicode && (report == nil || environment["TMUX"] != nil) && outerIsKitty { return .kitty }
        if report?.hasSixel == true { return .sixel }
        return isUnicode ? .quadrant : .half
    }

    /// Whether the terminal named (by XTVERSION) shows kitty's Unicode placeholders.
    static func hasPlaceholders(_ name: String?) -> Bool {
        guard let name = name?.lowercased() else { return false }
        if name.hasPrefix("ghostty") { return true }
        guard name.hasPrefix("kitty(") else { return false }
        let version = name.dropFirst("kitty(".count).prefix { $0 != ")" }.split(separator: ".").compactMap { Int($0) }
        return version.count >= 2 && (version[0], version[1]) >= (0, 28)
    }
}

/// A mode as asked for: one of the modes, or `auto` (ask the terminal).
public enum GraphicsChoice: String, Hashable, Sendable, CaseIterable {
    case auto, kitty, sixel, sextant, quadrant, half, braille, ascii

    /// The mode asked for; nil for `auto`.
    public var graphics: Graphics? { Graphics(rawValue: rawValue) }
}
