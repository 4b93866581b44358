import LightboxTerminal
import Testing

@testable import LightboxCurses

@Test func eightColourTerminalsKeepTheInterfacesHues() {
    let mode = ColorMode.basic8
    #expect(mode.number(for: .rgb(120, 190, 255)) == 6, "the accent (cursor bar) is cyan, not white")
    #expect(mode.number(for: .rgb(240, 200, 70)) == 3, "marks are yellow")
    #expect(mode.number(for: .rgb(55, 65, 90)) == 0, "the header's dark grey is black")
    #expect(mode.number(for: .rgb(210, 210, 210)) == 7)
    for (n, c) in ColorMode.basic.enumerated() {
        #expect(mode.number(for: .rgb(UInt8(c.0), UInt8(c.1), UInt8(c.2))) == Int32(n))
    }
}

@Test func paletteNumbersPassWhereTheTerminalHasThem() {
    #expect(ColorMode.indexed256.number(for: .indexed(200)) == 200)
    #expect(ColorMode.basic16.number(for: .indexed(12)) == 12)
    #expect(ColorMode.basic8.number(for: .indexed(5)) == 5)
    #expect(ColorMode.basic8.number(for: .indexed(196)) == 1, "256-colour red in eight colours")
    #expect(ColorMode.direct.number(for: .indexed(196)) == 0xFF0000)
    #expect(ColorMode.direct.number(for: .indexed(0)) == 8, "never an ANSI number in direct colour")
}
