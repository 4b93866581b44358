import Testing
import LightboxTerminal

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
