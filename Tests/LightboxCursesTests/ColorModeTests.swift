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

@Test func twoHundredFiftySixColoursGoToTheNearestOfCubeAndGreys() {
    // Every palette colour from 16 on is its own nearest.
    for n in 16...255 {
        let (r, g, b) = ColorMode.paletteColor(UInt8(n))
        #expect(ColorMode.indexed256.number(for: .rgb(r, g, b)) == Int32(n), "palette \(n)")
    }
    // Each channel to its nearest level, a tie to the lower: 0, 95, 135, 175, 215, 255.
    let levels = [0: 0, 47: 0, 48: 1, 95: 1, 115: 1, 116: 2, 155: 2, 156: 3, 195: 3, 196: 4, 235: 4, 236: 5, 255: 5]
    for (value, level) in levels { #expect(Int(ColorMode.cubeLevelOfValue[value]) == level, "\(value)") }
    #expect(ColorMode.indexed256.number(for: .rgb(250, 10, 30)) == 196, "a red")
    #expect(ColorMode.indexed256.number(for: .rgb(100, 101, 99)) == 241, "a grey: the ramp, nearer than the cube's")
}
