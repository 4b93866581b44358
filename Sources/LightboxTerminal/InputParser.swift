/// Turns what the terminal sends into events, whatever arrives and however it is split across reads.
///
/// Keys ncurses decoded come in as events; everything else as characters. The cursor keys'
/// sequences ncurses gave up on (their bytes came apart over a slow link, later than its short
/// wait) are read here; other escape sequences ncurses does not know are dropped, never read as
/// the keys they are made of: CSI and SS3 sequences, and the strings terminals answer queries with (APC, DCS, OSC, SOS, PM; a kitty
/// graphics answer or XTVERSION arriving late). A bracketed paste (`ESC [200~ … ESC [201~`) is
/// one `.paste` event, so pasted text never acts as keys.
public struct InputParser: Sendable {
    /// One thing read from the terminal.
    public enum Unit: Hashable, Sendable {
        case character(Unicode.Scalar)
        /// A key or event ncurses decoded itself (arrows, the mouse, a resize).
        case event(InputEvent)
    }

    /// Most characters a paste keeps; the rest is dropped (a filter query is far shorter).
    public static let pasteLimit = 4096
    /// Longest CSI sequence read before it is taken as garbage and dropped.
    static let sequenceLimit = 64
    static let pasteStart: [UInt8] = Array("200~".utf8)
    static let pasteEnd: [Unicode.Scalar] = ["\u{1B}", "[", "2", "0", "1", "~"]

    enum State: Hashable, Sendable {
        case ground
        /// After ESC: a lone Esc key if nothing follows in the same read.
        case escape
        /// After ESC [ (or CSI): parameter and intermediate bytes so far.
        case csi([UInt8])
        /// After ESC O: the next character ends it.
        case ss3
        /// After a control string's opener (its final byte: P ] _ X ^): the next character says
        /// whether it is one (an answer's first character) or an Alt key and keys after it.
        case stringStart(UInt8)
        /// Inside a control string (DCS, OSC, APC, SOS, PM), until ST or BEL.
        case string
        /// ESC inside a control string: `\` ends it, anything else aborts it and starts anew.
        case stringEscape
        /// Inside a bracketed paste: how much of the end marker has matched.
        case paste(matched: Int)
    }

    var state: State = .ground
    var pasted: [Unicode.Scalar] = []

    public init() {}

    /// Whether an Esc came last: the Esc key, or the start of a sequence whose rest is on its way
    /// (`endOfInput` says which once it had time to come).
    public var isAfterEscape: Bool { state == .escape }

    /// Whether a sequence, string or paste is open, waiting for the rest.
    public var isInsideSequence: Bool {
        switch state {
        case .ground, .escape: return false
        default: return true
        }
    }

    /// The events `unit` completes.
    public mutating func feed(_ unit: Unit) -> [InputEvent] {
        switch unit {
        case .event(let event):
            if case .resize = event { return [event] }  // from a signal, never part of a sequence
            switch state {
            case .ground: return [event]
            case .escape:
                state = .ground
                return [event]
            default: return []  // a key ncurses found inside a paste or a string is part of it
            }
        case .character(let scalar):
            return feed(scalar)
        }
    }

    mutating func feed(_ scalar: Unicode.Scalar) -> [InputEvent] {
        let value = scalar.value
        switch state {
        case .ground:
            return ground(scalar)
        case .escape:
            state = .ground
            switch value {
            case 0x1B: state = .escape  // ESC ESC: the first is dropped
            case 0x5B: state = .csi([])  // [
            case 0x4F: state = .ss3  // O
            case 0x50, 0x5D, 0x5F, 0x58, 0x5E: state = .stringStart(UInt8(value))  // P ] _ X ^
            default: break  // Alt and a key: not a key of ours
            }
            return []
        case .csi(var bytes):
            if (0x40...0x7E).contains(value) {
                state = .ground
                if value == 0x7E && bytes == Array("200".utf8) { state = .paste(matched: 0); pasted = [] }
                return Self.cursorKey(parameters: bytes, final: UInt8(value)).map { [.key($0)] } ?? []
            }
            guard (0x20...0x3F).contains(value), bytes.count < Self.sequenceLimit else {
                state = .ground  // not a sequence after all: dropped with what came before
                return value == 0x1B ? feed(scalar) : []
            }
            bytes.append(UInt8(value))
            state = .csi(bytes)
            return []
        case .ss3:
            state = .ground
            if value == 0x4D { return [.key(.enter)] }  // keypad Enter
            return value < 0x80 ? Self.cursorKey(parameters: [], final: UInt8(value)).map { [.key($0)] } ?? [] : []
        case .stringStart(let opener):
            guard Self.mayBegin(opener, scalar) else {
                state = .ground  // Alt and a key (not one of ours); what follows is typed
                return ground(scalar)
            }
            state = .string
            return feed(scalar)
        case .string:
            switch value {
            case 0x07, 0x9C: state = .ground
            case 0x1B: state = .stringEscape
            default: break
            }
            return []
        case .stringEscape:
            state = value == 0x5C ? .ground : .escape  // ESC \ is ST; any other ESC starts a new sequence
            return value == 0x5C ? [] : feed(scalar)
        case .paste(let matched):
            let marker = Self.pasteEnd
            if scalar == marker[matched] {
                if matched + 1 == marker.count {
                    state = .ground
                    let text = String(String.UnicodeScalarView(pasted))
                    pasted = []
                    return [.paste(text)]
                }
                state = .paste(matched: matched + 1)
                return []
            }
            for partial in marker.prefix(matched) { keep(partial) }
            if scalar == marker[0] { state = .paste(matched: 1) } else { keep(scalar); state = .paste(matched: 0) }
            return []
        }
    }

    mutating func keep(_ scalar: Unicode.Scalar) {
        if pasted.count < Self.pasteLimit { pasted.append(scalar) }
    }

    mutating func ground(_ scalar: Unicode.Scalar) -> [InputEvent] {
        switch scalar.value {
        case 0x1B: state = .escape
        case 0x9B: state = .csi([])
        // C1 DCS, OSC, APC, SOS, PM: each is ESC and its byte less 0x40 (ESC P and so on).
        case 0x90, 0x9D, 0x9F, 0x98, 0x9E: state = .stringStart(UInt8(scalar.value - 0x40))
        case 0x80...0x9F: break  // other C1 controls: nothing we read
        default: return Self.key(for: scalar).map { [.key($0)] } ?? []
        }
        return []
    }

    /// The read ended: an Esc with nothing after it is the Esc key. Sequences, strings and pastes
    /// stay open for the next read.
    public mutating func endOfInput() -> [InputEvent] {
        guard state == .escape else { return [] }
        state = .ground
        return [.key(.escape)]
    }

    /// Nothing more came for a while: a sequence or string left open is dropped, and a paste left
    /// open ends with what it has, so a terminal that never finishes one cannot swallow every key.
    public mutating func abandon() -> [InputEvent] {
        defer { state = .ground; pasted = [] }
        switch state {
        case .escape: return [.key(.escape)]
        case .paste(let matched):
            for partial in Self.pasteEnd.prefix(matched) { keep(partial) }
            return [.paste(String(String.UnicodeScalarView(pasted)))]
        default: return []
        }
    }

    /// The cursor key a CSI or SS3 sequence sends without modifiers (`ESC [ A`, `ESC O H`,
    /// `ESC [ 5 ~`), as ncurses would have read it; nil for any other (with modifiers, ncurses
    /// has no key of ours for it either).
    static func cursorKey(parameters: [UInt8], final: UInt8) -> Key? {
        switch (final, String(decoding: parameters, as: UTF8.self)) {
        case (0x41, ""): return .up  // A
        case (0x42, ""): return .down
        case (0x43, ""): return .right
        case (0x44, ""): return .left
        case (0x48, ""): return .home  // H
        case (0x46, ""): return .end  // F
        case (0x7E, "1"), (0x7E, "7"): return .home  // ~, numbered
        case (0x7E, "4"), (0x7E, "8"): return .end
        case (0x7E, "5"): return .pageUp
        case (0x7E, "6"): return .pageDown
        case (0x50, ""): return .function(1)  // SS3 P to S: F1 to F4 (xterm)
        case (0x51, ""): return .function(2)
        case (0x52, ""): return .function(3)
        case (0x53, ""): return .function(4)
        case (0x7E, "11"), (0x7E, "12"), (0x7E, "13"), (0x7E, "14"), (0x7E, "15"):  // F1 to F5 (vt220, rxvt; F5 everywhere)
            return .function(Int(String(decoding: parameters, as: UTF8.self))! - 10)
        default: return nil
        }
    }

    /// How long an Esc waits for the rest of a sequence before it is the Esc key: `ESCDELAY`
    /// (milliseconds, ncurses' own setting) when set, else at least `floor`, and longer when the
    /// terminal's answer to the probe took a while (its round trip: bytes sent together arrive
    /// about as far apart), at most a second.
    public static func escapeDelay(environment: [String: String], roundTrip: Double?) -> Double {
        if let text = environment["ESCDELAY"], let milliseconds = Int(text), milliseconds > 0 {
            return min(Double(milliseconds) / 1000, 5)
        }
        let overSSH = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
        let measured = roundTrip.map { 2 * $0 } ?? (overSSH ? sshWithoutMeasure : floor)
        return min(max(floor, measured), 1)
    }

    /// The shortest wait for the rest of a sequence, and the wait over SSH when nothing was measured.
    public static let floor = 0.05, sshWithoutMeasure = 0.2

    /// Whether `first` can begin a string opened by `opener` as terminals send them: DCS answers
    /// (XTVERSION `>|`, DECRQSS `1$r`, XTGETTCAP `1+r`) and OSC ones (`11;rgb:…`) begin with a
    /// digit or one of `>=!$+;`, kitty's APC with `G`; none sends SOS or PM. Anything else after
    /// ESC P, ESC ], ESC _, ESC X or ESC ^ was Alt and a key, and the keys after it must act, not
    /// wait inside a string that never ends.
    static func mayBegin(_ opener: UInt8, _ first: Unicode.Scalar) -> Bool {
        let isDigit = ("0"..."9").contains(first)
        switch opener {
        case 0x50: return isDigit || ">=!$+;".unicodeScalars.contains(first)
        case 0x5D: return isDigit
        case 0x5F: return first == "G"
        default: return false
        }
    }

    /// The key for a character typed in raw mode.
    static func key(for scalar: Unicode.Scalar) -> Key? {
        switch scalar.value {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(scalar.value + 96)!))
        case 0, 28...31: return nil
        default: return .character(Character(scalar))
        }
    }
}
