import LightboxTerminal
import LightboxThumbnails

/// How pictures reach the screen: in pixels through a graphics protocol, or as symbols.
///
/// What each mode is lives in one table, `Graphics.table` (as notcurses' blitter table says what
/// every blitter is): its title, how it draws, and how `auto` finds it. Adding a mode is adding
/// a case and its row, plus its painter (a `PixelProtocol` in `ImagePainter`, or a `SymbolSet`).
public enum Graphics: String, Hashable, Sendable, CaseIterable {
    /// kitty's graphics protocol, placed with Unicode placeholders.
    case kitty
    /// DEC sixel strings painted over the tiles.
    case sixel
    /// iTerm2's inline images (JPEG) painted over the tiles.
    case iterm
    case sextant, quadrant, half, braille, ascii

    /// What one picture mode is.
    public struct Traits: Sendable {
        /// What the status line and `--stats` call it.
        public let title: String
        /// How it draws.
        public let drawing: Drawing
        /// How `auto` finds it among the terminal's answers; nil when `auto` never picks it first.
        public let detection: Detection?
        /// What the README's option table says of it.
        public let details: String
    }

    /// How a mode draws: the pixels, through a graphics protocol, or cells of a symbol set.
    public enum Drawing: Sendable {
        case pixels(PixelProtocol)
        case symbols(SymbolSet)
    }

    /// What in the terminal's answers (or, inside tmux, its environment) makes `auto` choose a mode.
    public enum Detection: Sendable {
        /// The kitty graphics query answered, by a terminal that shows Unicode placeholders.
        case kittyPlaceholders
        /// Sixel among the device attributes.
        case sixelAttribute
        /// A terminal known to show iTerm2's images, by its XTVERSION name or, where forwarded
        /// (over SSH or in tmux), `TERM_PROGRAM` or `LC_TERMINAL`.
        case itermTerminal
    }

    /// Every mode, in the order `auto` tries them and `t` steps through them (the pixel modes the
    /// terminal has first, then every symbol set).
    public static let table: [(mode: Graphics, traits: Traits)] = [
        (
            .kitty,
            Traits(
                title: "kitty graphics", drawing: .pixels(.kitty), detection: .kittyPlaceholders,
                details: "kitty graphics: pixels, placed with Unicode placeholders")
        ),
        // Before sixel: a JPEG is an order of magnitude fewer bytes, and these terminals mostly have both.
        (
            .iterm,
            Traits(
                title: "iTerm2 images", drawing: .pixels(.iterm), detection: .itermTerminal,
                details: "iTerm2 inline images: a JPEG a picture, painted after each frame")
        ),
        (.sixel, Traits(title: "sixel", drawing: .pixels(.sixel), detection: .sixelAttribute, details: "pixels painted after each frame")),
        (.half, Traits(title: "half blocks", drawing: .symbols(.half), detection: nil, details: "upper half blocks")),
        (.quadrant, Traits(title: "quadrants", drawing: .symbols(.quadrant), detection: nil, details: "quadrants and halves")),
        (.sextant, Traits(title: "sextants", drawing: .symbols(.sextant), detection: nil, details: "needs a font with them")),
        (.braille, Traits(title: "braille", drawing: .symbols(.braille), detection: nil, details: "braille dots: fine lines, few colours")),
        (.ascii, Traits(title: "ASCII", drawing: .symbols(.ascii), detection: nil, details: "letters and punctuation only")),
    ]

    /// `--graphics`'s help, from the table.
    static var optionHelp: String {
        let pixels = table.filter { $0.traits.detection != nil }.map(\.mode.rawValue)
        let symbols = table.filter { $0.mode.symbols != nil }.map(\.mode.rawValue)
        return "draw pictures in \(listed(pixels, "or")) pixels, or as \(listed(symbols, "or")) symbols; auto (default) asks the terminal; t cycles them"
    }

    /// `--graphics`'s row of the README, from the table.
    static var optionDetails: String {
        let pixels = table.filter { $0.mode.isPixels }.map { "`\($0.mode.rawValue)` (\($0.traits.details))" }
        let symbols = table.filter { !$0.mode.isPixels }.map { "`\($0.mode.rawValue)` (\($0.traits.details))" }
        return
            "how pictures are drawn: `auto` (default: asks the terminal, see below), \(pixels.joined(separator: ", ")), or symbols rendered by libchafa off the UI thread and cached with the pixels: \(symbols.joined(separator: ", "))"
    }

    /// `a, b or c`.
    static func listed(_ words: [String], _ conjunction: String) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }

    /// This mode's row of the table.
    public var traits: Traits { Self.table.first { $0.mode == self }!.traits }

    /// What the status line calls it.
    public var title: String { traits.title }

    /// The symbol set of a symbol mode; nil for the pixel modes.
    public var symbols: SymbolSet? {
        if case .symbols(let set) = traits.drawing { return set }
        return nil
    }

    /// The protocol a pixel mode paints with; nil for the symbol modes.
    public var pixelProtocol: PixelProtocol? {
        if case .pixels(let pixelProtocol) = traits.drawing { return pixelProtocol }
        return nil
    }

    /// Whether the terminal shows the pictures' pixels.
    public var isPixels: Bool { pixelProtocol != nil }

    /// The symbol modes, in the order `t` steps through them after any pixel mode.
    public static let symbolModes: [Graphics] = table.filter { $0.mode.symbols != nil }.map(\.mode)

    /// What `auto` picks from the terminal's answers: the first mode of the table whose detection
    /// the answers show, else quadrants (which most fonts have; sextants need a font told about),
    /// or half blocks without UTF-8. Kitty graphics needs Unicode placeholders too, which kitty has
    /// since 0.28 and Ghostty has; other terminals that answer the kitty query (WezTerm, Konsole) go
    /// on to sixel. In tmux the terminal's answers are tmux's, so kitty is believed from the outer
    /// terminal's name when tmux passes pictures through.
    public static func detected(_ report: TerminalReport?, environment: [String: String], isUnicode: Bool) -> Graphics {
        for (mode, traits) in table {
            switch traits.detection {
            case .kittyPlaceholders?:
                let outerIsKitty =
                    environment["KITTY_WINDOW_ID"] != nil || environment["TERM"] == "xterm-kitty"
                    || environment["TERM_PROGRAM"] == "ghostty"
                // Placeholders are characters: they need a UTF-8 locale.
                if isUnicode && report?.hasKittyGraphics == true && hasPlaceholders(report?.name) { return mode }
                if isUnicode && (report == nil || environment["TMUX"] != nil) && outerIsKitty { return mode }
            case .sixelAttribute?:
                if report?.hasSixel == true { return mode }
            case .itermTerminal?:
                if showsITermImages(report?.name, environment: environment) { return mode }
            case nil:
                continue
            }
        }
        return isUnicode ? .quadrant : .half
    }

    /// Terminals that show iTerm2's inline images, by the start of their XTVERSION name or
    /// `TERM_PROGRAM` (lowercased).
    static let itermTerminals = ["iterm2", "iterm.app", "wezterm", "mintty", "konsole", "rio", "vscode", "mlterm"]

    /// Whether the terminal (by its XTVERSION name, else what the environment forwarded) shows
    /// iTerm2's images. mlterm names itself only in `TERM` (which SSH forwards) and `MLTERM`.
    static func showsITermImages(_ name: String?, environment: [String: String]) -> Bool {
        let names = [name, environment["TERM_PROGRAM"], environment["LC_TERMINAL"], environment["TERM"]].compactMap { $0?.lowercased() }
        return environment["MLTERM"] != nil || names.contains { name in itermTerminals.contains { name.hasPrefix($0) } }
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
public enum GraphicsChoice: Hashable, Sendable, RawRepresentable, CaseIterable {
    case auto
    case mode(Graphics)

    public init?(rawValue: String) {
        if rawValue == "auto" { self = .auto } else if let mode = Graphics(rawValue: rawValue) { self = .mode(mode) } else { return nil }
    }

    public var rawValue: String { graphics?.rawValue ?? "auto" }

    public static var allCases: [GraphicsChoice] { [.auto] + Graphics.allCases.map { .mode($0) } }

    /// The mode asked for; nil for `auto`.
    public var graphics: Graphics? {
        if case .mode(let mode) = self { return mode }
        return nil
    }
}
