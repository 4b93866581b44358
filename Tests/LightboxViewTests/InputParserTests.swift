import LightboxTerminal
import Testing

/// Feeds `text` to a parser one scalar at a time, then ends the read.
func parse(_ text: String, parser: inout InputParser) -> [InputEvent] {
    var events: [InputEvent] = []
    for scalar in text.unicodeScalars { events += parser.feed(.character(scalar)) }
    return events + parser.endOfInput()
}

func parse(_ text: String) -> [InputEvent] {
    var parser = InputParser()
    return parse(text, parser: &parser)
}

@Test func plainKeysAndALoneEsc() {
    #expect(parse("ab\r") == [.key(.character("a")), .key(.character("b")), .key(.enter)])
    #expect(parse("\u{1B}") == [.key(.escape)])
    #expect(parse("\u{3}\u{7F}\t") == [.key(.control("c")), .key(.backspace), .key(.tab)])
}

@Test func aPasteIsOneEventNeverKeys() {
    // The audit's paste: "img⏎a⏎" would have marked everything and accepted.
    #expect(parse("\u{1B}[200~img\na\n\u{1B}[201~") == [.paste("img\na\n")])
    // Escape sequences inside a paste are its text; a false start of the end marker too.
    #expect(parse("\u{1B}[200~x\u{1B}[20y\u{1B}[201~q") == [.paste("x\u{1B}[20y"), .key(.character("q"))])
    #expect(parse("\u{1B}[200~\u{1B}\u{1B}[201~") == [.paste("\u{1B}")])
}

@Test func aPasteSplitAcrossReadsStaysOnePaste() {
    var parser = InputParser()
    #expect(parse("\u{1B}[200~abc\u{1B}[2", parser: &parser) == [])
    #expect(parser.isInsideSequence)
    #expect(parse("01~x", parser: &parser) == [.paste("abc"), .key(.character("x"))])
}

@Test func aHugePasteIsBoundedAndKeysAfterItWork() {
    let text = String(repeating: "x", count: 100_000)
    let events = parse("\u{1B}[200~" + text + "\u{1B}[201~G")
    #expect(events == [.paste(String(repeating: "x", count: InputParser.pasteLimit)), .key(.character("G"))])
}

@Test func lateTerminalAnswersAreDroppedWholeAtAnyTime() {
    // kitty's graphics answer (APC), XTVERSION, DECRQSS and XTGETTCAP (DCS), OSC 11 (ended by BEL
    // or ST), and their C1 forms.
    let answers = [
        "\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}P>|XTerm(388)\u{1B}\\", "\u{1B}P1$r0m\u{1B}\\", "\u{1B}P1+r544e=787465726d\u{1B}\\",
        "\u{1B}]11;rgb:ffff/ffff/ffff\u{7}", "\u{1B}]11;rgb:0/0/0\u{1B}\\", "\u{9F}Gi=1;OK\u{9C}",
        "\u{90}>|kitty\u{9C}", "\u{1B}[?62;4c", "\u{1B}[4;600;800t", "\u{9B}6n", "\u{1B}[<0;66;12M",
    ]
    for answer in answers {
        #expect(
            parse("a" + answer + "Gxm") == [.key(.character("a")), .key(.character("G")), .key(.character("x")), .key(.character("m"))],
            "answer \(answer.debugDescription)")
    }
}

@Test func anAnswerSplitAcrossReadsIsStillDropped() {
    var parser = InputParser()
    #expect(parse("\u{1B}_Gi=31;", parser: &parser) == [])
    #expect(parse("OK\u{1B}", parser: &parser) == [])
    #expect(parse("\\G", parser: &parser) == [.key(.character("G"))])
    // Split right after the opener: the next read's first character decides.
    for (opener, rest) in [("\u{1B}P", ">|XTerm(388)\u{1B}\\G"), ("\u{1B}]", "11;rgb:0/0/0\u{7}G"), ("\u{1B}_", "Gi=31;OK\u{1B}\\G")] {
        #expect(parse(opener, parser: &parser) == [] && parser.isInsideSequence)
        #expect(parse(rest, parser: &parser) == [.key(.character("G"))], "\(opener.debugDescription)")
    }
}

@Test func altAndAStringOpenerDoesNotSwallowTheKeysAfterIt() {
    // Alt+P, Alt+], Alt+_, Alt+X and Alt+^ send what opens a control string (ESC P and so on); no
    // answer begins with what is typed next, so the keys act at once, in the same read or the next.
    for opener in ["\u{1B}P", "\u{1B}]", "\u{1B}_", "\u{1B}X", "\u{1B}^"] {
        #expect(parse(opener + "jjk") == [.key(.character("j")), .key(.character("j")), .key(.character("k"))], "\(opener.debugDescription)")
        var parser = InputParser()
        #expect(parse(opener, parser: &parser) == [])
        #expect(parse("j", parser: &parser) == [.key(.character("j"))], "\(opener.debugDescription) then j")
    }
}

@Test func anEscInsideAStringEndsItAndStartsANewSequence() {
    #expect(parse("\u{1B}_Gi=31\u{1B}[Ax") == [.key(.up), .key(.character("x"))])
    // An ESC at the end of a read may be the start of ST: the string waits for the next read.
    #expect(parse("\u{1B}P1$rjunk\u{1B}") == [])
}

@Test func altKeysAndUnknownSequencesAreNotKeys() {
    #expect(parse("\u{1B}x") == [])
    #expect(parse("\u{1B}OZk") == [.key(.character("k"))])
    #expect(parse("\u{1B}OPk") == [.key(.function(1)), .key(.character("k"))], "SS3 P is F1")
    #expect(parse("\u{1B}[15~\u{1B}[11~") == [.key(.function(5)), .key(.function(1))], "vt220's F5 and F1")
    #expect(parse("\u{1B}[1;5Ck") == [.key(.character("k"))])
    #expect(parse("\u{1B}[" + String(repeating: "1", count: 100) + "~k").last == .key(.character("k")))
}

@Test func aStringNeverEndedIsAbandonedSoKeysComeBack() {
    var parser = InputParser()
    #expect(parse("\u{1B}P1$rno end in sight", parser: &parser) == [])
    #expect(parser.abandon() == [])
    #expect(parse("q", parser: &parser) == [.key(.character("q"))])
    #expect(parse("\u{1B}[200~half a paste", parser: &parser) == [])
    #expect(parser.abandon() == [.paste("half a paste")])
}

@Test func decodedKeysPassOutsideSequencesAndResizesAlways() {
    var parser = InputParser()
    #expect(parser.feed(.event(.key(.up))) == [.key(.up)])
    _ = parse("\u{1B}[200~", parser: &parser)
    #expect(parser.feed(.event(.key(.up))) == [])
    #expect(parser.feed(.event(.resize(width: 80, height: 24))) == [.resize(width: 80, height: 24)])
}

@Test func theCursorKeysOfASequenceNcursesGaveUpOnAreRead() {
    // Bytes that came apart over a slow link reach the parser as characters.
    #expect(parse("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
    #expect(parse("\u{1B}OA\u{1B}OH\u{1B}OF\u{1B}OM") == [.key(.up), .key(.home), .key(.end), .key(.enter)])
    #expect(parse("\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~") == [.key(.pageUp), .key(.pageDown), .key(.home), .key(.end)])
    #expect(parse("\u{1B}[1;5A\u{1B}[5;2~\u{1B}[?1A") == [], "with modifiers or private: not ours, as before")
    // Split after the Esc: the first read leaves it open, the next completes the key.
    var parser = InputParser()
    #expect(parser.feed(.character("\u{1B}")) == [] && parser.isAfterEscape)
    #expect(parse("[B", parser: &parser) == [.key(.down)] && !parser.isAfterEscape)
}

@Test func anEscWaitsForTheRestOfASequenceAsLongAsTheLinkNeeds() {
    #expect(InputParser.escapeDelay(environment: [:], roundTrip: nil) == InputParser.floor)
    #expect(InputParser.escapeDelay(environment: [:], roundTrip: 0.001) == InputParser.floor, "a local terminal")
    #expect(abs(InputParser.escapeDelay(environment: [:], roundTrip: 0.15) - 0.3) < 1e-9, "a link of 150 ms")
    #expect(InputParser.escapeDelay(environment: [:], roundTrip: 3) == 1, "at most a second")
    #expect(InputParser.escapeDelay(environment: ["SSH_CONNECTION": "a b c d"], roundTrip: nil) == InputParser.sshWithoutMeasure)
    #expect(InputParser.escapeDelay(environment: ["ESCDELAY": "400"], roundTrip: 0.01) == 0.4, "ncurses' own setting wins")
    #expect(InputParser.escapeDelay(environment: ["ESCDELAY": "x"], roundTrip: nil) == InputParser.floor)
}
