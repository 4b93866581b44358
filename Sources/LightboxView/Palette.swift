import LightboxTerminal

/// The colours and styles of the UI. Every state that colour shows is also shown by a glyph or an attribute.
/// Reversed styles give their colours swapped, so they read the same with colour and without.
enum Palette {
    static let letterbox: (UInt8, UInt8, UInt8) = (30, 30, 30)
    static let letterboxColor = TerminalColor.rgb(30, 30, 30)
    static let placeholder = CellStyle(foreground: .rgb(110, 110, 110), background: .rgb(52, 52, 52))
    static let broken = CellStyle(foreground: .rgb(255, 150, 150), background: .rgb(70, 28, 28), attributes: .bold)
    static let label = CellStyle()
    static let cursorLabel = CellStyle(foreground: .rgb(120, 190, 255), background: .rgb(20, 20, 20), attributes: [.reverse, .bold])
    static let markedLabel = CellStyle(foreground: .rgb(20, 20, 20), background: .rgb(240, 200, 70), attributes: [.bold, .underline])
    static let cursorMarkedLabel = CellStyle(foreground: .rgb(255, 160, 60), background: .rgb(20, 20, 20), attributes: [.reverse, .bold, .underline])
    static let cursorBar = CellStyle(foreground: .rgb(120, 190, 255), attributes: .bold)
    static let markBar = CellStyle(foreground: .rgb(240, 200, 70), attributes: .bold)
    static let rangeBar = CellStyle(foreground: .rgb(160, 160, 160))
    static let header = CellStyle(foreground: .rgb(235, 235, 235), background: .rgb(55, 65, 90), attributes: .bold)
    static let cursorHeader = CellStyle(foreground: .rgb(120, 190, 255), background: .rgb(20, 20, 20), attributes: [.reverse, .bold])
    static let footer = CellStyle(foreground: .rgb(175, 185, 210), background: .rgb(35, 40, 55))
    static let headerCount = CellStyle(foreground: .rgb(175, 185, 210), background: .rgb(55, 65, 90))
    static let status = CellStyle(foreground: .rgb(38, 38, 38), background: .rgb(210, 210, 210), attributes: .reverse)
    static let statusWarning = CellStyle(foreground: .rgb(38, 38, 38), background: .rgb(255, 170, 150), attributes: [.reverse, .bold])
    static let overlay = CellStyle(foreground: .rgb(230, 230, 230), background: .rgb(25, 30, 45))
    static let overlayKey = CellStyle(foreground: .rgb(240, 200, 70), background: .rgb(25, 30, 45), attributes: .bold)
    static let message = CellStyle(attributes: .bold)
}
