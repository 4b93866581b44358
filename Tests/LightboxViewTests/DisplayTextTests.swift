import LightboxTerminal
import Testing

@Test func controlsBidiAndInvalidUTF8AreEscaped() {
    #expect(DisplayText.sanitized(bytes: Array("a\u{1B}[31mb".utf8)) == "a\\x1b[31mb")
    #expect(DisplayText.sanitized(bytes: [0x63, 0x61, 0x66, 0xE9]) == "caf\\xe9")
    #expect(DisplayText.sanitized(bytes: Array("\u{202E}x".utf8)) == "\\u202ex")
    #expect(DisplayText.sanitized(bytes: [0xC2, 0x9B]) == "\\x9b")  // C1 CSI
    #expect(DisplayText.sanitized(bytes: [0xED, 0xA0, 0x80]) == "\\xed\\xa0\\x80")  // a surrogate
    #expect(DisplayText.sanitized(bytes: Array("日本.jpg".utf8)) == "日本.jpg")
}

@Test func widthsAndMiddleTruncation() {
    #expect(DisplayWidth.of("日本") == 4)
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayText.truncatedMiddle("abcdefghij", toWidth: 5) == "ab…ij")
    #expect(DisplayText.truncatedMiddle("short", toWidth: 10) == "short")
    for width in 0...12 { #expect(DisplayWidth.of(DisplayText.truncatedMiddle("日本語のファイル名.jpg", toWidth: width)) <= width) }
}

@Test func frameWritesClipAndKeepWideGlyphsWhole() {
    var frame = Frame(width: 5, height: 1)
    frame.write("ab日本", x: 0, y: 0, style: .plain)
    #expect(frame.lines == ["ab日 "])
    frame.write("xyz", x: 3, y: 0, style: .plain)
    #expect(frame.lines == ["ab xy"] || frame.lines == ["abxy"] || frame.lines[0].hasSuffix("xy"))
}

@Test func ansiTextCarriesColoursAndResetsEachLine() {
    var frame = Frame(width: 2, height: 1)
    frame[0, 0] = Cell("▀", style: CellStyle(foreground: .rgb(1, 2, 3), background: .rgb(4, 5, 6)))
    #expect(frame.ansiText == "\u{1B}[0;38;2;1;2;3;48;2;4;5;6m▀\u{1B}[0m \u{1B}[0m\n")
}

@Test func asciiFramesKeepColoursAndReplaceEverySymbol() {
    var frame = Frame(width: 6, height: 1)
    frame[0, 0] = Cell("▀", style: CellStyle(foreground: .rgb(100, 0, 0), background: .rgb(0, 0, 200)))
    frame.write("✓日…", x: 1, y: 0, style: .plain)
    let ascii = frame.asciiOnly()
    #expect(ascii.lines == [" *??~ "])
    #expect(ascii[0, 0].style.background == .rgb(50, 0, 100))
    let allASCII = ascii.text.unicodeScalars.allSatisfy { $0.isASCII }
    #expect(allASCII)
}

@Test func widthsAreTheCLibrarysAsNcursesAndTheTerminalMeasureThem() {
    // The audit's characters: one cell in the old table, two for wcwidth and the terminal.
    for character: Character in ["\u{2614}", "\u{26A1}", "\u{1F004}", "\u{1FA90}"] { #expect(DisplayWidth.of(character) == 2) }
    #expect(DisplayWidth.of("e\u{301}") == 1)
    #expect(DisplayWidth.of("日本") == 4)
}

@Test func graphemesNcursesCannotDrawWholeAreEscaped() {
    // Emoji with VS16: terminals disagree on its width; shown as its base and the escaped selector.
    #expect(DisplayText.sanitized("\u{2764}\u{FE0F}.jpg") == "\u{2764}\\ufe0f.jpg")
    // An unassigned code point with a combining mark: setcchar refuses it.
    #expect(DisplayText.sanitized("11\u{378}\u{301}x.jpg") == "11\\u0378\\u0301x.jpg")
    // Flags: regional indicators, escaped rather than half drawn.
    #expect(DisplayText.sanitized("\u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA}") == "\\U0001f1eb\\U0001f1f7\\U0001f1e9\\U0001f1ea")
    // A ZWJ family: each person drawn, the joiners escaped, so no terminal joins them into one.
    #expect(DisplayText.sanitized("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}") == "\u{1F468}\\u200d\u{1F469}\\u200d\u{1F467}")
    #expect(DisplayText.sanitized("\u{1F44D}\u{1F3FD}") == "\u{1F44D}\\U0001f3fd")
    // Direction marks and the kitty placeholder are escaped like the other bidi controls.
    #expect(DisplayText.sanitized("a\u{200E}b\u{200F}c") == "a\\u200eb\\u200fc")
    #expect(DisplayText.sanitized("\u{10EEEE}\u{305}") == "\\U0010eeee\\u0305")
    // What ncurses draws whole stays as it is: accents (composed or not), CJK, a lone emoji.
    for kept in ["café", "cafe\u{301}", "日本語", "\u{2614}", "a\u{301}\u{302}\u{303}\u{304}"] { #expect(DisplayText.sanitized(kept) == kept) }
    // A fifth mark would not fit the cell ncurses makes (a base and four marks).
    #expect(DisplayText.sanitized("a\u{301}\u{302}\u{303}\u{304}\u{305}") == "a\u{301}\u{302}\u{303}\u{304}\\u0305")
    #expect(DisplayText.sanitized("\u{301}x") == "\\u0301x")
    // A control after a character is escaped, not taken for a mark (NUL has width 0 too): found by make fuzz.
    #expect(DisplayText.sanitized(bytes: [10, 48, 0]) == "\\x0a0\\x00")
}

@Test func everyCharacterLeftIsOneNcursesDrawsInTheCellsMeasured() {
    var generator = SystemRandomNumberGenerator()
    let pool: [ClosedRange<UInt32>] = [
        0x0...0x1F, 0x7F...0xA0, 0x20...0x7E, 0x300...0x36F, 0x370...0x3FF, 0x1100...0x11FF, 0x200B...0x206F,
        0x2600...0x27BF, 0xFE00...0xFE0F, 0x1F1E6...0x1F1FF, 0x1F300...0x1FAFF, 0xE0000...0xE01EF,
    ]
    for _ in 0..<300 {
        var text = String.UnicodeScalarView()
        for _ in 0..<12 {
            let range = pool.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { text.append(scalar) }
        }
        // Laid out as the frame lays it out, every scalar is in a cell ncurses draws whole.
        let sanitized = DisplayText.sanitized(String(text))
        var frame = Frame(width: 200, height: 1)
        frame.write(sanitized, x: 0, y: 0, style: .plain)
        let drawn = frame.cells.prefix(DisplayWidth.of(sanitized)).map(\.glyph).joined()
        #expect(drawn.unicodeScalars.elementsEqual(sanitized.unicodeScalars), "\(String(text).debugDescription)")
        for cell in frame.cells where !cell.isContinuation {
            let scalars = Array(cell.glyph.unicodeScalars)
            #expect(DisplayWidth.of(scalars[0]) >= 1)
            #expect(scalars.count <= 5 && scalars.dropFirst().allSatisfy { DisplayWidth.of($0) == 0 })
        }
    }
}

@Test func aHugeNameCostsOnlyWhatShows() {
    let name = Array(repeating: UInt8(ascii: "a"), count: 4 << 20) + Array("日本".utf8) + Array(repeating: UInt8(ascii: "b"), count: 4 << 20)
    let shown = DisplayText.shortened(bytes: name, toWidth: 21)
    #expect(shown == String(repeating: "a", count: 10) + "…" + String(repeating: "b", count: 10))
    // A cut never falls inside a UTF-8 sequence: no escaped bytes that the name does not hold.
    let wide = Array(String(repeating: "日", count: 3 << 20).utf8)
    #expect(!DisplayText.shortened(bytes: wide, toWidth: 20).contains("\\x"))
    #expect(DisplayText.shortened(bytes: Array("short.jpg".utf8), toWidth: 20) == "short.jpg")
}
