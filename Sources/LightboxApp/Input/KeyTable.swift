import LightboxTerminal

/// A key binding: the keys, the command and its help text, kept together.
public struct KeyBinding: Sendable {
    public var keys: [Key]
    public var command: Command
    public var help: String

    public init(_ keys: [Key], _ command: Command, _ help: String) {
        self.keys = keys
        self.command = command
        self.help = help
    }

    /// The keys bound to `command`, with the help of its row.
    public init(_ keys: [Key], _ command: Command) {
        self.init(keys, command, CommandTable.row(of: command).help)
    }
}

/// The key table: plain data, read by the input loop and by the help overlay.
public struct KeyTable: Sendable {
    public var bindings: [KeyBinding]
    private var index: [Key: Command] = [:]

    public init(_ bindings: [KeyBinding]) {
        self.bindings = bindings
        for binding in bindings {
            for key in binding.keys where index[key] == nil { index[key] = binding.command }
        }
    }

    /// The command bound to `key`, if any. Digits bound to counts give their own value.
    public func command(for key: Key) -> Command? {
        let command = index[key]
        if case .countDigit = command, case .character(let c) = key, let digit = c.wholeNumberValue { return .countDigit(digit) }
        return command
    }

    /// This table with `extra` bindings, which win over the standard ones for their keys.
    public func adding(_ extra: [KeyBinding]) -> KeyTable {
        let taken = Set(extra.flatMap(\.keys))
        let kept = bindings.compactMap { binding -> KeyBinding? in
            let keys = binding.keys.filter { !taken.contains($0) }
            return keys.isEmpty ? nil : KeyBinding(keys, binding.command, binding.help)
        }
        return KeyTable(kept + extra)
    }

    /// A key by the name users write: a character, `ctrl-X`, `space`, `enter`, `tab` or `esc`.
    public static func key(named text: String) -> Key? {
        switch text.lowercased() {
        case "space": return .character(" ")
        case "enter": return .enter
        case "tab": return .tab
        case "esc", "escape": return .escape
        default: break
        }
        if text.count == 1, let c = text.first { return .character(c) }
        if text.lowercased().hasPrefix("ctrl-"), text.count == 6, let c = text.last?.lowercased().first, c.isLetter { return .control(c) }
        return nil
    }

    /// The keys of the full-screen preview.
    public static let preview = KeyTable([
        KeyBinding([.character("h"), .character("k")], .move(.left), "previous photo"),
        KeyBinding([.character("l"), .character("j")], .move(.right), "next photo"),
        KeyBinding([.left], .pan(dx: -1, dy: 0), "pan left (or previous photo)"),
        KeyBinding([.right], .pan(dx: 1, dy: 0), "pan right (or next photo)"),
        KeyBinding([.up], .pan(dx: 0, dy: -1), "pan up"),
        KeyBinding([.down], .pan(dx: 0, dy: 1), "pan down"),
        KeyBinding([.character("+"), .character("=")], .zoomIn, "zoom in"),
        KeyBinding([.character("-")], .zoomOut, "zoom out"),
        KeyBinding([.character("m"), .character(" ")], .toggleMark, "mark / unmark"),
        KeyBinding([.character("p")], .togglePlayback, "pause / play an animation"),
        KeyBinding([.enter], .accept, "print marked (or this) and quit"),
        KeyBinding([.escape, .character("q"), .character("o")], .closePreview, "back to the grid"),
        KeyBinding([.control("c")], .cancel, "quit, print nothing"),
        KeyBinding([.control("z")], .suspend, "suspend"),
        KeyBinding([.control("l")], .redraw, "redraw the screen"),
    ])

    public static let standard = KeyTable([
        KeyBinding([.left, .character("h")], .move(.left)),
        KeyBinding([.right, .character("l")], .move(.right)),
        KeyBinding([.up, .character("k")], .move(.up)),
        KeyBinding([.down, .character("j")], .move(.down)),
        KeyBinding([.pageDown, .control("f")], .pageDown),
        KeyBinding([.pageUp, .control("b")], .pageUp),
        KeyBinding([.control("d")], .halfPageDown),
        KeyBinding([.control("u")], .halfPageUp),
        KeyBinding([.character("g"), .home], .move(.first)),
        KeyBinding([.character("G"), .end], .move(.last)),
        KeyBinding((0...9).map { .character(Character(String($0))) }, .countDigit(0)),
        KeyBinding([.character("n")], .nextMark),
        KeyBinding([.character("N")], .previousMark),
        KeyBinding([.character("'")], .jumpBack),
        KeyBinding([.character("[")], .move(.previousSection)),
        KeyBinding([.character("]")], .move(.nextSection)),
        KeyBinding([.character(" ")], .toggleMarkAndAdvance),
        KeyBinding([.character("m")], .toggleMark),
        KeyBinding([.character("v")], .toggleRange),
        KeyBinding([.character("a")], .markAll),
        KeyBinding([.character("A")], .markSection),
        KeyBinding([.character("u")], .clearMarks),
        KeyBinding([.character("+"), .character("=")], .zoomIn),
        KeyBinding([.character("-")], .zoomOut),
        KeyBinding([.character("s")], .cycleSort),
        KeyBinding([.character("S")], .toggleReverse),
        KeyBinding([.character("z")], .toggleSection),
        KeyBinding([.character("Z")], .toggleAllSections),
        KeyBinding([.character("L")], .cycleLayout),
        KeyBinding([.character("t")], .cycleGraphics),
        KeyBinding([.character("i")], .toggleInfo),
        KeyBinding([.character("o")], .openPreview),
        KeyBinding([.character("/")], .startFilter),
        KeyBinding([.character("x")], .exec("")),
        KeyBinding([.control("x")], .keyHandlerPrefix),
        KeyBinding([.character("?")], .toggleHelp),
        KeyBinding([.enter], .accept),
        KeyBinding([.character("q"), .escape, .control("c")], .cancel),
        KeyBinding([.control("z")], .suspend),
        KeyBinding([.control("l")], .redraw),
    ])
}
