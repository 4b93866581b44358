import LightboxApp
import LightboxTerminal

/// The colours and styles of the UI. Every state that colour shows is also shown by a glyph or an attribute.
/// Reversed styles give their colours swapped, so they read the same with colour and without.
struct Palette {
    /// The theme the state was given (the settings, `NO_COLOR`, the terminal's background).
    let theme: Theme

    var letterbox: (UInt8, UInt8, UInt8) { (theme.letterbox.red, theme.letterbox.green, theme.letterbox.blue) }
    var letterboxColor: TerminalColor { .rgb(theme.letterbox.red, theme.letterbox.green, theme.letterbox.blue) }
    /// The ground around and under pictures: also what marks a cell as a sixel picture's own.
    var letterboxCell: Cell { Cell(" ", style: CellStyle(background: letterboxColor)) }

    /// A text style, without its colours when text is not coloured.
    func style(_ foreground: TerminalColor, _ background: TerminalColor = .standard, _ attributes: CellAttributes = []) -> CellStyle {
        theme.colorsText ? CellStyle(foreground: foreground, background: background, attributes: attributes) : CellStyle(attributes: attributes)
    }

    var placeholder: CellStyle { style(theme.placeholderText, theme.placeholderGround) }
    var broken: CellStyle { style(theme.brokenText, theme.brokenGround, .bold) }
    var label: CellStyle { CellStyle() }
    var cursorLabel: CellStyle { style(theme.accent, theme.onAccent, [.reverse, .bold]) }
    var markedLabel: CellStyle { style(theme.onMark, theme.mark, [.bold, .underline]) }
    var cursorMarkedLabel: CellStyle { style(.rgb(255, 160, 60), .rgb(20, 20, 20), [.reverse, .bold, .underline]) }
    var cursorBar: CellStyle { style(theme.accent, .standard, .bold) }
    var markBar: CellStyle { style(theme.mark, .standard, .bold) }
    var rangeBar: CellStyle { style(theme.rangeBar) }
    var header: CellStyle { style(theme.headerText, theme.header, .bold) }
    var cursorHeader: CellStyle { style(theme.accent, theme.onAccent, [.reverse, .bold]) }
    var footer: CellStyle { style(theme.footerText, theme.footerGround) }
    var headerCount: CellStyle { style(theme.headerCount, theme.header) }
    var status: CellStyle { style(theme.statusGround, theme.status, .reverse) }
    var statusWarning: CellStyle { style(theme.warningGround, theme.warningText, [.reverse, .bold]) }
    var overlay: CellStyle { style(theme.overlayText, theme.overlay) }
    var overlayKey: CellStyle { style(theme.mark, theme.overlay, .bold) }
    var message: CellStyle { CellStyle(attributes: .bold) }
}

extension GalleryState {
    /// The styles of the state's theme.
    var palette: Palette { Palette(theme: theme) }
}
