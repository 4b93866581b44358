import LightboxTerminal

/// The UI's colours: a dark set and a light one, chosen by the terminal's background (asked
/// with OSC 11, else `COLORFGBG`, else dark), then the slots the settings file changes.
/// Reversed styles give the colour shown as the ground first (see `Palette`).
public struct Theme: Sendable {
    public var accent = TerminalColor.rgb(120, 190, 255)
    public var mark = TerminalColor.rgb(240, 200, 70)
    public var header = TerminalColor.rgb(55, 65, 90)
    public var status = TerminalColor.rgb(210, 210, 210)
    public var overlay = TerminalColor.rgb(25, 30, 45)
    /// Off with `NO_COLOR`: the UI's text loses its colours (never the thumbnails), and keeps its
    /// attributes (reverse, bold, underline), so every state still shows.
    public var colorsText = true
    /// The ground around and under pictures (letterboxes): the terminal's own background when known.
    public var letterbox = RGB(30, 30, 30)
    /// Text on the accent and on the mark colour.
    public var onAccent = TerminalColor.rgb(20, 20, 20)
    public var onMark = TerminalColor.rgb(20, 20, 20)
    /// A tile waiting for its picture, and a broken one: text and ground.
    public var placeholderText = TerminalColor.rgb(110, 110, 110), placeholderGround = TerminalColor.rgb(52, 52, 52)
    public var brokenText = TerminalColor.rgb(255, 150, 150), brokenGround = TerminalColor.rgb(70, 28, 28)
    public var headerText = TerminalColor.rgb(235, 235, 235), headerCount = TerminalColor.rgb(175, 185, 210)
    public var footerText = TerminalColor.rgb(175, 185, 210), footerGround = TerminalColor.rgb(35, 40, 55)
    public var statusGround = TerminalColor.rgb(38, 38, 38)
    public var warningText = TerminalColor.rgb(255, 170, 150), warningGround = TerminalColor.rgb(38, 38, 38)
    public var overlayText = TerminalColor.rgb(230, 230, 230)
    public var rangeBar = TerminalColor.rgb(160, 160, 160)

    public init() {}

    /// For dark terminals (and when the background is unknown).
    public static let standard = Theme()

    /// For light terminals: dark text, light grounds, the accent and mark deep enough to read on white.
    public static let light: Theme = {
        var theme = Theme()
        theme.accent = .rgb(0, 90, 180)
        theme.mark = .rgb(235, 170, 30)
        theme.header = .rgb(212, 220, 236)
        theme.status = .rgb(40, 40, 40)
        theme.overlay = .rgb(240, 242, 248)
        theme.letterbox = RGB(238, 238, 238)
        theme.onAccent = .rgb(255, 255, 255)
        theme.onMark = .rgb(20, 20, 20)
        theme.placeholderText = .rgb(140, 140, 140)
        theme.placeholderGround = .rgb(224, 224, 224)
        theme.brokenText = .rgb(160, 20, 20)
        theme.brokenGround = .rgb(250, 222, 222)
        theme.headerText = .rgb(25, 30, 45)
        theme.headerCount = .rgb(70, 80, 105)
        theme.footerText = .rgb(60, 70, 95)
        theme.footerGround = .rgb(228, 232, 242)
        theme.statusGround = .rgb(222, 222, 222)
        theme.warningText = .rgb(150, 30, 20)
        theme.warningGround = .rgb(250, 222, 210)
        theme.overlayText = .rgb(30, 30, 30)
        theme.rangeBar = .rgb(120, 120, 120)
        return theme
    }()

    /// The theme for a terminal whose background is `background` (nil: unknown, so dark), with
    /// letterboxes of that very colour.
    public static func matching(background: RGB?) -> Theme {
        guard let background else { return .standard }
        var theme = background.isLight ? Theme.light : Theme.standard
        theme.letterbox = background
        return theme
    }

    /// The slots the settings file set, kept over a change of ground.
    public private(set) var chosen: [String: TerminalColor] = [:]

    /// This theme for a terminal whose background is `background`: the dark or light set, with
    /// the slots the settings chose and `NO_COLOR` kept.
    public func following(background: RGB?) -> Theme {
        var theme = Theme.matching(background: background)
        theme.colorsText = colorsText
        for (slot, color) in chosen { theme.set(slot, to: color) }
        return theme
    }

    /// The letterbox as 0xRRGGBB: what transparent parts of pictures are laid on, so they show the same ground.
    public var pictureGround: UInt32 { UInt32(letterbox.red) << 16 | UInt32(letterbox.green) << 8 | UInt32(letterbox.blue) }

    /// Sets a colour slot by name (see `Configuration.colorSlots`).
    public mutating func set(_ slot: String, to color: TerminalColor) {
        chosen[slot] = color
        switch slot {
        case "accent": accent = color
        case "mark": mark = color
        case "header": header = color
        case "status": status = color
        case "overlay": overlay = color
        default: break
        }
    }
}
