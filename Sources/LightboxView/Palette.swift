import LightboxTerminal

/// The colours the settings file may change, and whether UI text is coloured at all.
public struct Theme: Sendable {
    public var accent = TerminalColor.rgb(120, 190, 255)
    public var mark = TerminalColor.rgb(240, 200, 70)
    public var header = TerminalColor.rgb(55, 65, 90)
    public var status = TerminalColor.rgb(210, 210, 210)
    public var overlay = TerminalColor.rgb(25, 30, 45)
    /// Off with `NO_COLOR`: the UI's text loses its colours (never the thumbnails), and keeps its
    /// attributes (reverse, bold, underline), so every state still shows.
    public var colorsText = true

    public init() {}

    public static let standard = Theme()

    /// Sets a colour slot by name (see `Configuration.colorSlots`).
    public mutating func set(_ slot: String, to color: TerminalColor) {
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

/// The colours and styles of the UI. Every state that colour shows is also shown by a glyph or an attribute.
/// Reversed styles give their colours swapped, so they read the same with colour and without.
public enum Palette {
    /// The theme in use: set once at start-up, from the settings and `NO_COLOR`, before anything is drawn.
    nonisolated(unsafe) public static var theme = Theme.standard

    static let letterbox: (UInt8, UInt8, UInt8) = (30, 30, 30)
    static let letterboxColor = TerminalColor.rgb(30, 30, 30)
    /// The ground around and under pictures: also what marks a cell as a sixel picture's own.
    static let letterboxCell = Cell(" ", style: CellStyle(background: letterboxColor))

    /// A text style, without its colours when text is not coloured.
    static func style(_ foreground: TerminalColor, _ background: TerminalColor = .standard, _ attributes: CellAttributes = []) -> CellStyle {
        theme.colorsText ? CellStyle(foreground: foreground, background: background, attributes: attributes) : CellStyle(attributes: attributes)
    }

    static var placeholder: CellStyle { style(.rgb(110, 110, 110), .rgb(52, 52, 52)) }
    static var broken: CellStyle { style(.rgb(255, 150, 150), .rgb(70, 28, 28), .bold) }
    static var label: CellStyle { CellStyle() }
    static var cursorLabel: CellStyle { style(theme.accent, .rgb(20, 20, 20), [.reverse, .bold]) }
    static var markedLabel: CellStyle { style(.rgb(20, 20, 20), theme.mark, [.bold, .underline]) }
    static var cursorMarkedLabel: CellStyle { style(.rgb(255, 160, 60), .rgb(20, 20, 20), [.reverse, .bold, .underline]) }
    static var cursorBar: CellStyle { style(theme.accent, .standard, .bold) }
    static var markBar: CellStyle { style(theme.mark, .standard, .bold) }
    static var rangeBar: CellStyle { style(.rgb(160, 160, 160)) }
    static var header: CellStyle { style(.rgb(235, 235, 235), theme.header, .bold) }
    static var cursorHeader: CellStyle { style(theme.accent, .rgb(20, 20, 20), [.reverse, .bold]) }
    static var footer: CellStyle { style(.rgb(175, 185, 210), .rgb(35, 40, 55)) }
    static var headerCount: CellStyle { style(.rgb(175, 185, 210), theme.header) }
    static var status: CellStyle { style(.rgb(38, 38, 38), theme.status, .reverse) }
    static var statusWarning: CellStyle { style(.rgb(38, 38, 38), .rgb(255, 170, 150), [.reverse, .bold]) }
    static var overlay: CellStyle { style(.rgb(230, 230, 230), theme.overlay) }
    static var overlayKey: CellStyle { style(theme.mark, theme.overlay, .bold) }
    static var message: CellStyle { CellStyle(attributes: .bold) }
}
